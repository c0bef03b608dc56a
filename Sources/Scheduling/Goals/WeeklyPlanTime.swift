import Foundation

/// When a person's weekly plan is made: in the evening before their week begins, so the next two
/// weeks are waiting for them when it does.
///
/// - The week begins on the first work day after the longest run of days without work hours
///   (Monday to Friday begins on Monday; Sunday to Thursday on Sunday; Monday, Wednesday and
///   Friday on Monday, after the weekend). Among equally long breaks the one ending earliest in
///   the ISO week counts. Without work hours, or with work every day, the week begins on Monday.
/// - The plan is made at ``hour``:00 on the day before. When that falls in the day's work hours,
///   at their end; when it falls in the night (sleep → wake), ``afterWaking`` after waking.
public enum WeeklyPlanTime {
    /// The usual hour of the day before the week begins.
    public static let hour = 17
    /// How long after waking a plan is made when ``hour`` is in the person's night.
    public static let afterWaking: TimeInterval = 3600

    /// The ISO weekday (1 = Monday … 7 = Sunday) the person's week begins on.
    public static func weekStart(work: DaysOfWeek?) -> Int {
        guard let work, work.numbers.count < 7 else { return 1 }
        var best = 1, longest = -1
        for day in 1...7 where work.contains(day) {
            // Days off just before `day`.
            var off = 0
            var previous = (day + 5) % 7 + 1
            while !work.contains(previous) {
                off += 1
                previous = (previous + 5) % 7 + 1
            }
            if off > longest {
                (best, longest) = (day, off)
            }
        }
        return best
    }

    /// The ISO weekday the plan is made on: the day before the week begins.
    public static func planDay(work: DaysOfWeek?) -> Int {
        (weekStart(work: work) + 5) % 7 + 1
    }

    /// The first time after `now` the weekly plan is due for a person with `preferences`, in
    /// `timeZone`.
    public static func next(after now: Date, preferences: PlannerPreferences, timeZone: TimeZone) -> Date {
        let calendar = LocalCalendar(timeZone: timeZone)
        let planDay = planDay(work: preferences.work?.days)
        var day = calendar.day(containing: now)
        // At most eight days ahead: today may be the day, with its time already gone.
        for _ in 0..<9 {
            if day.isoWeekday == planDay {
                let at = time(on: day, preferences: preferences, calendar: calendar)
                if at > now { return at }
            }
            day = calendar.day(after: day)
        }
        return now.addingTimeInterval(7 * 86_400)  // unreachable: one of nine days is the plan day
    }

    /// ``hour`` on `day`, moved past work hours and the night.
    static func time(on day: LocalCalendar.Day, preferences: PlannerPreferences, calendar: LocalCalendar) -> Date {
        var at = calendar.instant(on: day, hour: hour, minute: 0)
        let moment = TimeRange(uncheckedStart: at, end: at.addingTimeInterval(1))
        if let work = preferences.work, let running = work.occurrences(in: moment, calendar: calendar).first {
            at = running.end
        }
        let now = TimeRange(uncheckedStart: at, end: at.addingTimeInterval(1))
        if let night = preferences.night.occurrences(in: now, calendar: calendar).first {
            at = night.end.addingTimeInterval(afterWaking)
        }
        return at
    }
}
