import Foundation
import ICalendar

/// A `time-range` (RFC 4791 §9.9), `expand`, `limit-recurrence-set` or `limit-freebusy-set`
/// interval. Bounds are instants; a missing start is -∞, a missing end +∞.
public struct TimeRange: Sendable, Hashable, CustomStringConvertible {
    public var start: Date?
    public var end: Date?

    public init(start: Date?, end: Date?) {
        self.start = start
        self.end = end
    }

    /// Whether the half-open span [`spanStart`, `spanEnd`) overlaps this range, the test RFC 4791
    /// §9.9 tabulates for components: `start < spanEnd && end > spanStart`. A zero-length span
    /// (an event with DTSTART = DTEND) matches when `start <= spanStart < end`.
    public func overlaps(start spanStart: Date, end spanEnd: Date) -> Bool {
        if spanEnd <= spanStart {
            if let start, spanStart < start { return false }
            if let end, spanStart >= end { return false }
            return true
        }
        if let start, spanEnd <= start { return false }
        if let end, spanStart >= end { return false }
        return true
    }

    /// Whether an instant lies in [start, end).
    public func contains(_ instant: Date) -> Bool {
        if let start, instant < start { return false }
        if let end, instant >= end { return false }
        return true
    }

    public var description: String {
        "\(start.map(UTCDateTime.format) ?? "-∞")/\(end.map(UTCDateTime.format) ?? "+∞")"
    }

    /// Reads `start`/`end` attributes. `required` says which the element must carry (`expand` and
    /// the `limit-*` elements need both; a filter's `time-range` needs at least one).
    /// `failure` builds the error: `valid-filter` inside a filter, 400 elsewhere.
    static func parse(
        _ element: DAVElement, requireBoth: Bool, failure: (String) -> DAVError
    ) throws(DAVError) -> TimeRange {
        let label = "<\(element.name.localName)>"
        func bound(_ attribute: String) throws(DAVError) -> Date? {
            guard let raw = element.attribute(attribute) else { return nil }
            guard let date = UTCDateTime.parse(raw) else {
                throw failure("The \(attribute) of \(label) must be a UTC date-time such as 20060104T000000Z, not \"\(raw)\".")
            }
            return date
        }
        let start = try bound("start")
        let end = try bound("end")
        if requireBoth {
            guard start != nil, end != nil else { throw failure("\(label) needs both start and end attributes.") }
        } else {
            guard start != nil || end != nil else { throw failure("\(label) needs a start or an end attribute.") }
        }
        if let start, let end, end <= start {
            throw failure("The end of \(label) must be after its start.")
        }
        return TimeRange(start: start, end: end)
    }
}

/// iCalendar DATE-TIME in UTC form (`19970714T170000Z`, RFC 5545 §3.3.5 form #2), the only form
/// CalDAV allows in time-range attributes. Parsed by hand: it is fixed-width, and avoiding
/// DateFormatter keeps this allocation-free and locale-proof.
public enum UTCDateTime {
    public static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 16, bytes[8] == UInt8(ascii: "T"), bytes[15] == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let byte = bytes[index]
                guard byte >= 0x30 && byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(4..<6), let day = number(6..<8),
              let hour = number(9..<11), let minute = number(11..<13), let second = number(13..<15)
        else { return nil }
        let date = CivilDate(year: year, month: month, day: day)
        guard date.isValid, hour < 24, minute < 60, second <= 60  // 60: a leap second is legal iCalendar
        else { return nil }
        let days = date.daysSinceEpoch
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    public static func format(_ date: Date) -> String {
        let total = Int(date.timeIntervalSince1970.rounded(.down))
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let secondsOfDay = total - days * 86_400
        let civil = CivilDate(daysSinceEpoch: days)
        let (year, month, day) = (civil.year, civil.month, civil.day)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        var yearText = String(year)
        while yearText.count < 4 { yearText = "0" + yearText }
        return yearText + two(month) + two(day) + "T" + two(secondsOfDay / 3_600) + two(secondsOfDay % 3_600 / 60)
            + two(secondsOfDay % 60) + "Z"
    }
}
