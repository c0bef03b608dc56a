import CivilTime
/// A wall-clock date and time (proleptic Gregorian) without a zone, as a chat export writes it.
public struct LocalDateTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int
    public let hour: Int
    public let minute: Int
    public let second: Int

    /// Nil when the fields do not name a real date and time (the 31st of April, 24:00, ...).
    public init?(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...LocalDateTime.daysInMonth(year: year, month: month)).contains(day),
              (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// Days from 1970-01-01 to this date (Howard Hinnant's days_from_civil).
    public var daysSinceEpoch: Int {
        LocalDateTime.daysSinceEpoch(year: year, month: month, day: day)
    }

    /// Seconds from 1970-01-01T00:00:00 to this wall-clock time, as if it were UTC.
    public var secondsSinceEpochAsUTC: Int {
        daysSinceEpoch * 86_400 + hour * 3_600 + minute * 60 + second
    }

    /// `YYYY-MM-DDTHH:MM:SS`.
    public var description: String {
        var text = ""
        text.reserveCapacity(19)
        LocalDateTime.append(year, width: 4, to: &text)
        text.append("-")
        LocalDateTime.append(month, width: 2, to: &text)
        text.append("-")
        LocalDateTime.append(day, width: 2, to: &text)
        text.append("T")
        LocalDateTime.append(hour, width: 2, to: &text)
        text.append(":")
        LocalDateTime.append(minute, width: 2, to: &text)
        text.append(":")
        LocalDateTime.append(second, width: 2, to: &text)
        return text
    }

    public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool {
        lhs.secondsSinceEpochAsUTC < rhs.secondsSinceEpochAsUTC
    }

    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int { CivilDays.since1970(year: year, month: month, day: day) }

    static func daysInMonth(year: Int, month: Int) -> Int { CivilDays.inMonth(month, of: year) }

    private static func append(_ value: Int, width: Int, to text: inout String) {
        let digits = String(value)
        if digits.count < width { text.append(String(repeating: "0", count: width - digits.count)) }
        text.append(digits)
    }
}
