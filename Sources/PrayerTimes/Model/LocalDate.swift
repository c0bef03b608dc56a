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
    public var daysSinceEpoch: Int {
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthIndex = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `daysSinceEpoch` days after 1970-01-01.
    public init(daysSinceEpoch days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        self.init(uncheckedYear: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month: month, day: day)
    }

    public func adding(days: Int) -> LocalDate { LocalDate(daysSinceEpoch: daysSinceEpoch + days) }

    /// 1 for January 1st.
    public var dayOfYear: Int {
        daysSinceEpoch - LocalDate(uncheckedYear: year, month: 1, day: 1).daysSinceEpoch + 1
    }

    public var isLeapYear: Bool { LocalDate.isLeap(year) }

    /// 0 = Sunday ... 6 = Saturday.
    public var weekday: Int {
        let value = (daysSinceEpoch + 4) % 7
        return value < 0 ? value + 7 : value
    }

    public var description: String {
        DigitFormat.padded(year, width: 4) + "-" + DigitFormat.padded(month, width: 2) + "-" + DigitFormat.padded(day, width: 2)
    }

    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool { lhs.daysSinceEpoch < rhs.daysSinceEpoch }

    static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

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
