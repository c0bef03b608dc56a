import Foundation

/// A time range as whole seconds since 1970, the unit the recurrence expander works in.
/// An open end is `Int64.min` / `Int64.max`; the comparisons below never do arithmetic on
/// the bounds, so those sentinels are safe.
struct InstantRange: Sendable, Hashable {
    var start: Int64
    var end: Int64

    init(start: Int64 = .min, end: Int64 = .max) {
        self.start = start
        self.end = end
    }

    init(_ range: TimeRange) {
        self.init(start: range.start.map(Self.seconds) ?? .min, end: range.end.map(Self.seconds) ?? .max)
    }

    static func seconds(_ date: Date) -> Int64 {
        let value = date.timeIntervalSince1970.rounded(.down)
        guard value.isFinite else { return value > 0 ? .max : .min }
        return Int64(max(min(value, 9e15), -9e15))
    }

    static func date(_ seconds: Int64) -> Date { Date(timeIntervalSince1970: TimeInterval(seconds)) }

    /// `start <= t < end`: the RFC 4791 §9.9 test for alarm triggers and date-time properties.
    func contains(_ instant: Int64) -> Bool {
        start <= instant && instant < end
    }

    /// The half-open overlap of §9.9 for a span [spanStart, spanEnd); a zero-length span is a
    /// point and matches when `start <= spanStart < end` (the VEVENT "DURATION is 0" row).
    func overlaps(start spanStart: Int64, end spanEnd: Int64) -> Bool {
        if spanEnd <= spanStart { return contains(spanStart) }
        return start < spanEnd && end > spanStart
    }

    /// The same range moved back by `early` at its start and on by `late` at its end.
    func widened(early: Int64, late: Int64) -> InstantRange {
        InstantRange(start: start == .min ? .min : start.minus(early), end: end == .max ? .max : end.plus(late))
    }
}

extension Int64 {
    /// Saturating arithmetic: offsets from untrusted data (REPEAT × DURATION) must not trap.
    func plus(_ other: Int64) -> Int64 {
        let (value, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : value
    }

    func minus(_ other: Int64) -> Int64 {
        let (value, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other > 0 ? .min : .max) : value
    }

    func times(_ other: Int64) -> Int64 {
        let (value, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? ((self < 0) != (other < 0) ? .min : .max) : value
    }
}
