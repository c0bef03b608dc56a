import Foundation

/// A half-open stretch of time, `[start, end)`: it holds `start` but not `end`.
///
/// Half-open, so a meeting that ends at 10:00 and one that starts at 10:00 touch without
/// overlapping, and a day is exactly `[midnight, next midnight)`. Ranges are instants, never wall
/// clock readings: a range that spans a daylight-saving change is as long as the time that really
/// passes (a 02:00–04:00 range on a spring-forward night lasts one hour).
///
/// A range is never empty: `end` is always after `start`.
public struct TimeRange: Sendable, Hashable, CustomStringConvertible {
    public let start: Date
    public let end: Date

    /// Throws ``SchedulingError/emptyRange(start:end:)`` unless `end` is after `start`
    /// (zero-length and reversed ranges are refused).
    public init(start: Date, end: Date) throws(SchedulingError) {
        // Written as a negated `<` so NaN instants are refused too.
        guard start < end else { throw .emptyRange(start: start, end: end) }
        self.start = start
        self.end = end
    }

    /// A range of `duration` seconds from `start`.
    public init(start: Date, duration: TimeInterval) throws(SchedulingError) {
        try self.init(start: start, end: start.addingTimeInterval(duration))
    }

    /// For ranges computed from ranges already known to be non-empty (a clipped overlap, a gap
    /// between two blocks). The caller has checked `start < end`.
    init(uncheckedStart start: Date, end: Date) {
        assert(start < end, "empty range \(start) ..< \(end)")
        self.start = start
        self.end = end
    }

    /// Seconds from start to end.
    public var duration: TimeInterval { end.timeIntervalSince(start) }

    /// True when the two share some time. Touching ranges (one ends where the other starts) do not.
    public func overlaps(_ other: TimeRange) -> Bool {
        start < other.end && other.start < end
    }

    /// The time both ranges share, or nil when they do not overlap.
    public func intersection(_ other: TimeRange) -> TimeRange? {
        let lower = max(start, other.start)
        let upper = min(end, other.end)
        return lower < upper ? TimeRange(uncheckedStart: lower, end: upper) : nil
    }

    /// True when `instant` is in the range (`start` is, `end` is not).
    public func contains(_ instant: Date) -> Bool {
        start <= instant && instant < end
    }

    /// True when all of `other` lies within this range.
    public func contains(_ other: TimeRange) -> Bool {
        start <= other.start && other.end <= end
    }

    /// The same length, moved by `seconds`.
    public func shifted(by seconds: TimeInterval) -> TimeRange {
        TimeRange(uncheckedStart: start.addingTimeInterval(seconds), end: end.addingTimeInterval(seconds))
    }

    public var description: String {
        "\(SchedulingError.stamp(start)) ..< \(SchedulingError.stamp(end))"
    }
}
