import Foundation
import Testing
@testable import Scheduling

/// When the weekly plan is made: the evening before the person's week begins, in their zone.
@Suite struct WeeklyPlanTimeTests {
    let riyadh = TimeZone(identifier: "Asia/Riyadh")!
    let london = TimeZone(identifier: "Europe/London")!

    func preferences(work: DaysOfWeek?, from: String = "09:00", to: String = "17:00", wake: String = "07:00", sleep: String = "23:00")
        throws -> PlannerPreferences {
        try PlannerPreferences(wake: time(wake), sleep: time(sleep), work: work.map { try WeeklyHours(start: time(from), end: time(to), days: $0) })
    }

    @Test func theWeekBeginsAfterTheLongestBreak() throws {
        #expect(WeeklyPlanTime.weekStart(work: nil) == 1, "no work hours: Monday")
        #expect(WeeklyPlanTime.weekStart(work: .weekdays) == 1)
        #expect(WeeklyPlanTime.weekStart(work: try DaysOfWeek([7, 1, 2, 3, 4])) == 7, "Sunday to Thursday begins on Sunday")
        #expect(WeeklyPlanTime.weekStart(work: try DaysOfWeek([1, 3, 5])) == 1, "after the weekend, not after Tuesday")
        #expect(WeeklyPlanTime.weekStart(work: try DaysOfWeek([6, 7])) == 6, "weekend work begins on Saturday")
        #expect(WeeklyPlanTime.weekStart(work: .daily) == 1, "no break: Monday")
        #expect(WeeklyPlanTime.weekStart(work: try DaysOfWeek([2, 5])) == 2, "two breaks of two days: the one ending first in the week")
        #expect(try WeeklyPlanTime.planDay(work: .weekdays) == 7 && WeeklyPlanTime.planDay(work: DaysOfWeek([7, 1, 2, 3, 4])) == 6)
    }

    @Test func theNextPlanIsAt17OnTheDayBefore() throws {
        // Wednesday 2026-09-23, 10:00 in Riyadh.
        let wednesday = at("2026-09-23 10:00", riyadh)
        #expect(WeeklyPlanTime.next(after: wednesday, preferences: try preferences(work: .weekdays), timeZone: riyadh)
                == at("2026-09-27 17:00", riyadh), "Sunday 17:00 for a Monday-to-Friday week")
        #expect(WeeklyPlanTime.next(after: wednesday, preferences: try preferences(work: try DaysOfWeek([7, 1, 2, 3, 4])), timeZone: riyadh)
                == at("2026-09-26 17:00", riyadh), "Saturday 17:00 for a Sunday-to-Thursday week")
        // On the day itself: later today before 17:00, next week after it.
        let sunday = at("2026-09-27 16:59", riyadh)
        #expect(WeeklyPlanTime.next(after: sunday, preferences: try preferences(work: nil), timeZone: riyadh) == at("2026-09-27 17:00", riyadh))
        #expect(WeeklyPlanTime.next(after: at("2026-09-27 17:00", riyadh), preferences: try preferences(work: nil), timeZone: riyadh)
                == at("2026-10-04 17:00", riyadh), "exactly at the time: a week later")
    }

    @Test func workHoursAndTheNightMoveIt() throws {
        // Work every day until 19:00: the plan waits for the end of work.
        let late = try preferences(work: .daily, from: "10:00", to: "19:00")
        #expect(WeeklyPlanTime.next(after: at("2026-09-23 10:00", riyadh), preferences: late, timeZone: riyadh) == at("2026-09-27 19:00", riyadh))
        // Asleep from 14:00 to 21:30 (night shifts): an hour after waking.
        let nights = try preferences(work: nil, wake: "21:30", sleep: "14:00")
        #expect(WeeklyPlanTime.next(after: at("2026-09-23 10:00", riyadh), preferences: nights, timeZone: riyadh) == at("2026-09-27 22:30", riyadh))
    }

    @Test func itKeepsTheLocalHourAcrossDaylightSaving() throws {
        // London leaves summer time on Sunday 2026-10-25 at 02:00: 17:00 is still 17:00 on the clock.
        let plan = WeeklyPlanTime.next(after: at("2026-10-22 12:00", london), preferences: try preferences(work: nil), timeZone: london)
        #expect(plan == at("2026-10-25 17:00", london))
        #expect(plan.timeIntervalSince(at("2026-10-18 17:00", london)) == 7 * 86_400 + 3600, "that week is an hour longer")
    }
}
