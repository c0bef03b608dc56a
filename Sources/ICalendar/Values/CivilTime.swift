import CivilTime
// Calendar arithmetic on wall-clock values. Recurrence rules are defined on the
// local calendar (RFC 5545 §3.3.10), so expansion works on these plain fields and
// only converts to instants at the end; that is also far faster than Foundation.Calendar.

/// A proleptic Gregorian calendar date.
public struct CivilDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Whether the fields name a real day (no Feb 30, no month 13).
    public var isValid: Bool {
        month >= 1 && month <= 12 && day >= 1 && day <= CivilDate.daysIn(month: month, year: year)
    }

    public static func isLeap(_ year: Int) -> Bool { CivilDays.isLeap(year) }

    public static func daysIn(month: Int, year: Int) -> Int { CivilDays.inMonth(month, of: year) }

    public static func daysIn(year: Int) -> Int { isLeap(year) ? 366 : 365 }

    /// Days since 1970-01-01.
    public var daysSinceEpoch: Int { CivilDays.since1970(year: year, month: month, day: day) }

    public init(daysSinceEpoch days: Int) {
        let (year, month, day) = CivilDays.date(since1970: days)
        self.init(year: year, month: month, day: day)
    }

    /// ISO weekday: Monday = 0 … Sunday = 6.
    public var weekday: Weekday {
        let d = daysSinceEpoch
        // 1970-01-01 was a Thursday (index 3).
        return Weekday(index: ((d % 7) + 7 + 3) % 7)
    }

    /// 1-based day of the year.
    public var dayOfYear: Int {
        daysSinceEpoch - CivilDate(year: year, month: 1, day: 1).daysSinceEpoch + 1
    }

    public func adding(days: Int) -> CivilDate { CivilDate(daysSinceEpoch: daysSinceEpoch + days) }

    public static func < (a: CivilDate, b: CivilDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    public var description: String {
        pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
    }
}

/// Days of the week in ISO order, Monday first.
public enum Weekday: Int, CaseIterable, Sendable, Hashable {
    case monday = 0, tuesday, wednesday, thursday, friday, saturday, sunday

    init(index: Int) { self = Weekday(rawValue: index) ?? .monday }

    /// The two-letter iCalendar code (MO, TU, …).
    public var code: String {
        ["MO", "TU", "WE", "TH", "FR", "SA", "SU"][rawValue]
    }

    public init?(code: String) {
        switch code.uppercased() {
        case "MO": self = .monday
        case "TU": self = .tuesday
        case "WE": self = .wednesday
        case "TH": self = .thursday
        case "FR": self = .friday
        case "SA": self = .saturday
        case "SU": self = .sunday
        default: return nil
        }
    }
}

/// A wall-clock date and time with no zone attached.
public struct LocalDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var date: CivilDate
    public var hour: Int
    public var minute: Int
    public var second: Int

    public init(date: CivilDate, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.date = date
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.init(date: CivilDate(year: year, month: month, day: day), hour: hour, minute: minute, second: second)
    }

    /// Seconds since 1970-01-01T00:00:00 as if this wall time were UTC.
    public var secondsSinceEpoch: Int64 {
        Int64(date.daysSinceEpoch) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    public init(secondsSinceEpoch s: Int64) {
        var days = s / 86_400
        var rem = s % 86_400
        if rem < 0 { rem += 86_400; days -= 1 }
        let r = Int(rem)
        self.init(date: CivilDate(daysSinceEpoch: Int(days)), hour: r / 3600, minute: (r % 3600) / 60, second: r % 60)
    }

    public var isValid: Bool {
        // Second 60 is allowed by RFC 5545 for leap seconds.
        date.isValid && (0...23).contains(hour) && (0...59).contains(minute) && (0...60).contains(second)
    }

    public func adding(seconds: Int64) -> LocalDateTime {
        LocalDateTime(secondsSinceEpoch: secondsSinceEpoch + seconds)
    }

    public static func < (a: LocalDateTime, b: LocalDateTime) -> Bool {
        if a.date != b.date { return a.date < b.date }
        return (a.hour, a.minute, a.second) < (b.hour, b.minute, b.second)
    }

    public var description: String {
        date.description + "T" + pad(hour, 2) + ":" + pad(minute, 2) + ":" + pad(second, 2)
    }
}

@inline(__always)
func pad(_ value: Int, _ width: Int) -> String {
    var s = String(abs(value))
    while s.utf8.count < width { s = "0" + s }
    return value < 0 ? "-" + s : s
}
