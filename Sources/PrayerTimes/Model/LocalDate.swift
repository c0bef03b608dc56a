import CivilTime
import Foundation

/// A calendar date (proleptic Gregorian) without a time or a zone: "the local date" of a schedule.
public struct LocalDate: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    public init(year: Int, month: Int, day: Int) throws(PrayerTimesError) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...LocalDate.daysInMonth(year: year, month: month)).contains(day)
        else { throw .invalidDate(DigitFormat.padded(year, width: 4) + "-\(month)-\(day)") }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD`.
    public init(iso8601 text: String) throws(PrayerTimesError) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { throw .invalidDate(text) }
        do {
            try self.init(year: year, month: month, day: day)
        } catch {
            throw .invalidDate(text)
        }
    }

    private init(uncheckedYear year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Days since 1970-01-01.
    public var daysSinceEpoch: Int { CivilDays.since1970(year: year, month: month, day: day) }

    /// The date `daysSinceEpoch` days after 1970-01-01.
    public init(daysSinceEpoch days: Int) {
        let (year, month, day) = CivilDays.date(since1970: days)
        self.init(uncheckedYear: year, month: month, day: day)
    }

    public func adding(days: Int) -> LocalDate { LocalDate(daysSinceEpoch: daysSinceEpoch + days) }

    /// 1 for January 1st.
    public var dayOfYear: Int {
        daysSinceEpoch - LocalDate(uncheckedYear: year, month: 1, day: 1).daysSinceEpoch + 1
    }

    public var isLeapYear: Bool { CivilDays.isLeap(year) }

    /// 0 = Sunday ... 6 = Saturday.
    public var weekday: Int {
        let value = (daysSinceEpoch + 4) % 7
        return value < 0 ? value + 7 : value
    }

    public var description: String {
        DigitFormat.padded(year, width: 4) + "-" + DigitFormat.padded(month, width: 2) + "-" + DigitFormat.padded(day, width: 2)
    }

    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool { lhs.daysSinceEpoch < rhs.daysSinceEpoch }

    static func daysInMonth(year: Int, month: Int) -> Int { CivilDays.inMonth(month, of: year) }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        self = try LocalDate(iso8601: text)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// Zero-padded decimal numbers for dates and times.
enum DigitFormat {
    static func padded(_ value: Int, width: Int) -> String {
        let digits = "\(abs(value))"
        let padding = digits.count < width ? String(repeating: "0", count: width - digits.count) : ""
        return (value < 0 ? "-" : "") + padding + digits
    }
}

extension LocalDate {
    /// The date on the wall calendar of `zone` at `now`.
    public static func today(in zone: TimeZone, now: Date = Date()) -> LocalDate {
        let local = now.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: now))
        return LocalDate(daysSinceEpoch: Int((local / 86_400).rounded(.down)))
    }
}
