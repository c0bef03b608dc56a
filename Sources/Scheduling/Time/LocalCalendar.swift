import CivilTime
import Foundation

/// The Gregorian calendar of one time zone: which local day an instant falls on, where local days
/// begin, and which instant a wall-clock reading on a local day means.
///
/// Every day boundary and hour in this module comes from here, so daylight-saving days are 23 or
/// 25 hours long as they really are, never 24 by arithmetic.
struct LocalCalendar: Sendable {
    let calendar: Calendar

    init(timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    var timeZone: TimeZone { calendar.timeZone }

    /// One local calendar day.
    struct Day: Sendable, Hashable {
        let year: Int
        let month: Int
        let day: Int
        /// 1 = Monday … 7 = Sunday.
        let isoWeekday: Int
        /// The first instant of the day (local midnight, or the first instant after it when
        /// midnight itself is skipped by a daylight-saving change).
        let start: Date
    }

    func day(containing instant: Date) -> Day {
        let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: instant)
        // Foundation counts Sunday as 1; ISO counts Monday as 1 and Sunday as 7.
        let weekday = parts.weekday ?? 1
        let (year, month, day) = (parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
        // Resolving midnight is a third of the cost of `startOfDay(for:)` and gives the same instant.
        let start = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 0, minute: 0))
            ?? calendar.startOfDay(for: instant)
        return Day(year: year, month: month, day: day, isoWeekday: (weekday + 5) % 7 + 1, start: start)
    }

    // The neighbouring days' dates and weekdays are plain Gregorian arithmetic; only where they
    // begin needs the zone. Searches step day by day, so this halves their calendar work.
    func day(after day: Day) -> Day {
        var (year, month, date) = (day.year, day.month, day.day + 1)
        if date > Self.length(ofMonth: month, in: year) {
            date = 1
            month += 1
            if month > 12 { month = 1; year += 1 }
        }
        return self.day(year: year, month: month, day: date, isoWeekday: day.isoWeekday % 7 + 1, near: day.start.addingTimeInterval(86_400))
    }

    func day(before day: Day) -> Day {
        var (year, month, date) = (day.year, day.month, day.day - 1)
        if date < 1 {
            month -= 1
            if month < 1 { month = 12; year -= 1 }
            date = Self.length(ofMonth: month, in: year)
        }
        return self.day(year: year, month: month, day: date, isoWeekday: (day.isoWeekday + 5) % 7 + 1, near: day.start.addingTimeInterval(-86_400))
    }

    /// `near` stands in for the start if Foundation cannot resolve the date (it always can for
    /// real Gregorian dates).
    private func day(year: Int, month: Int, day: Int, isoWeekday: Int, near: Date) -> Day {
        // Midnight resolves to the first instant of the day even where a change skips it.
        let start = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 0, minute: 0)) ?? near
        return Day(year: year, month: month, day: day, isoWeekday: isoWeekday, start: start)
    }

    static func length(ofMonth month: Int, in year: Int) -> Int { CivilDays.inMonth(month, of: year) }

    /// The first instant of the day after `day`, i.e. where `day` ends.
    func end(of day: Day) -> Date { self.day(after: day).start }

    /// The instant a clock in this zone reads `time` on `day`.
    ///
    /// The rule for readings a daylight-saving change makes ambiguous is RFC 5545's (section 3.3.5),
    /// the one phones apply to a recurring event's DTSTART: a reading skipped by a spring-forward
    /// gap means the same reading with the offset before the gap, i.e. it moves forward by the gap
    /// (02:30 on a night that jumps from 02:00 to 03:00 is 03:30); a reading that happens twice on a
    /// fall-back night means its first occurrence. Foundation's Gregorian calendar resolves them
    /// this way; the tests pin it down.
    func instant(on day: Day, at time: TimeOfDay) -> Date {
        instant(on: day, hour: time.hour, minute: time.minute)
    }

    func instant(on day: Day, hour: Int, minute: Int, second: Int = 0) -> Date {
        let parts = DateComponents(year: day.year, month: day.month, day: day.day, hour: hour, minute: minute, second: second)
        return calendar.date(from: parts)
            ?? day.start.addingTimeInterval(Double(hour * 3600 + minute * 60 + second))
    }

    /// The wall-clock reading of `instant` in this zone, to the second.
    func clockReading(of instant: Date) -> (hour: Int, minute: Int, second: Int) {
        let parts = calendar.dateComponents([.hour, .minute, .second], from: instant)
        return (parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
    }

    /// `instant` moved down to the nearest multiple of `step` seconds on the local wall clock
    /// (15-minute steps give :00, :15, :30, :45 even in zones whose offset is not whole hours).
    func alignDown(_ instant: Date, step: TimeInterval) -> Date {
        let offset = Double(timeZone.secondsFromGMT(for: instant))
        let local = instant.timeIntervalSince1970 + offset
        var aligned = Date(timeIntervalSince1970: (local / step).rounded(.down) * step - offset)
        // An offset change between the two instants can land the result on the wrong side.
        if aligned > instant { aligned.addTimeInterval(-step) }
        return aligned
    }

    /// `instant` moved up to the nearest multiple of `step` seconds on the local wall clock.
    func alignUp(_ instant: Date, step: TimeInterval) -> Date {
        var aligned = alignDown(instant, step: step)
        while aligned < instant { aligned.addTimeInterval(step) }
        return aligned
    }
}
