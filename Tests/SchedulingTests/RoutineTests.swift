import Foundation
import Testing
@testable import Scheduling

@Suite struct RoutineValidationTests {
    @Test func endEqualToStartIsRefused() throws {
        let seven = try time("07:00")
        #expect(throws: SchedulingError.endEqualsStart(seven)) {
            try Routine(id: "r", name: "Walk", start: seven, end: seven, days: [1])
        }
        let error = SchedulingError.endEqualsStart(seven)
        #expect(error.field == "end")
        #expect(error.description == "end: must differ from start (both 07:00); hours that end when they start last no time")
    }

    @Test(arguments: [0, 8, -1, 70])
    func daysOutsideOneToSevenAreRefused(day: Int) throws {
        #expect(throws: SchedulingError.dayOutOfRange(day)) {
            try Routine(id: "r", name: "Walk", start: try time("07:00"), end: try time("08:00"), days: [1, day])
        }
        #expect(SchedulingError.dayOutOfRange(day).field == "days")
        #expect(SchedulingError.dayOutOfRange(day).description == "days: \(day) is not a day of the week (expected 1 = Monday … 7 = Sunday)")
    }

    @Test func noDaysIsRefused() throws {
        #expect(throws: SchedulingError.noDays) {
            try Routine(id: "r", name: "Walk", start: try time("07:00"), end: try time("08:00"), days: [])
        }
        #expect(SchedulingError.noDays.description == "days: choose at least one day of the week")
    }

    @Test func nameAndReminderAreChecked() throws {
        let hours = try WeeklyHours(start: try time("07:00"), end: try time("08:00"), days: .daily)
        #expect(throws: SchedulingError.emptyName(field: "name")) { try Routine(id: "r", name: "  ", hours: hours) }
        #expect(throws: SchedulingError.reminderOutOfRange(-5)) { try Routine(id: "r", name: "Walk", hours: hours, reminderMinutes: -5) }
        #expect(throws: SchedulingError.reminderOutOfRange(10_081)) { try Routine(id: "r", name: "Walk", hours: hours, reminderMinutes: 10_081) }
        #expect(SchedulingError.reminderOutOfRange(-5).description == "reminderMinutes: -5 is out of range (expected 0 … 10080, or none)")
        let walk = try Routine(id: "r", name: "Walk", hours: hours, reminderMinutes: 10)
        #expect(walk.alarmTrigger == "-PT10M")
        #expect(try Routine(id: "r", name: "Walk", hours: hours, reminderMinutes: 0).alarmTrigger == "PT0S")
        #expect(try Routine(id: "r", name: "Walk", hours: hours).alarmTrigger == nil)
    }

    @Test(arguments: ["24:00", "7:5", "07:60", "0730", "", "07:30:00", "-1:00", "+7:00", "٠٧:٣٠", "07: 30"])
    func clockTimesMustBeHHMM(text: String) {
        #expect(throws: SchedulingError.invalidTimeOfDay(field: "start", text: text)) { try TimeOfDay(parsing: text, field: "start") }
    }

    @Test func clockTimesParse() throws {
        #expect(try TimeOfDay(parsing: "07:30") == TimeOfDay(hour: 7, minute: 30))
        #expect(try TimeOfDay(parsing: "7:30").description == "07:30")
        #expect(try TimeOfDay(parsing: "23:59").minutesSinceMidnight == 1439)
        #expect(throws: SchedulingError.invalidTimeOfDay(field: "end", text: "24:0")) { try TimeOfDay(hour: 24, minute: 0, field: "end") }
        #expect(SchedulingError.invalidTimeOfDay(field: "end", text: "24:00").description
            == "end: \"24:00\" is not a time of day (expected HH:MM, 00:00 … 23:59)")
    }
}

@Suite struct DaysOfWeekTests {
    @Test func helpersUseISONumbering() throws {
        #expect(DaysOfWeek.daily.numbers == [1, 2, 3, 4, 5, 6, 7])
        #expect(DaysOfWeek.weekdays.numbers == [1, 2, 3, 4, 5])
        #expect(DaysOfWeek.weekends.numbers == [6, 7])
        #expect(try DaysOfWeek.custom([5, 6, 5]).numbers == [5, 6])
        #expect(try DaysOfWeek([7, 1]) == DaysOfWeek([1, 7]))
        #expect(DaysOfWeek.weekends.contains(7) && !DaysOfWeek.weekends.contains(5) && !DaysOfWeek.daily.contains(0))
    }

    @Test func recurrenceRuleParts() throws {
        let weekdays = try Routine(id: "r", name: "Work", start: try time("09:00"), end: try time("17:00"), days: [1, 2, 3, 4, 5])
        #expect(weekdays.recurrence.rule == "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")
        #expect(weekdays.recurrence.frequency == "WEEKLY")
        #expect(weekdays.recurrence.byDay == ["MO", "TU", "WE", "TH", "FR"])
        #expect(RoutineRecurrence(days: .daily).rule == "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR,SA,SU")
        #expect(RoutineRecurrence(days: try .custom([6, 5])).rule == "FREQ=WEEKLY;BYDAY=FR,SA")
        #expect(RoutineRecurrence(days: .weekends).rule == "FREQ=WEEKLY;BYDAY=SA,SU")
    }

    @Test func iCalendarCodesReadBack() throws {
        #expect(try DaysOfWeek(iCalendarCodes: ["fr", "SA"]) == DaysOfWeek.custom([5, 6]))
        #expect(try DaysOfWeek(iCalendarCodes: DaysOfWeek.weekdays.iCalendarCodes) == .weekdays)
        #expect(throws: SchedulingError.unknownDayCode("1MO")) { try DaysOfWeek(iCalendarCodes: ["1MO"]) }
        #expect(throws: SchedulingError.noDays) { try DaysOfWeek(iCalendarCodes: []) }
    }
}

@Suite struct RoutineOccurrenceTests {
    @Test func sleepCrossesMidnight() throws {
        let sleep = try Routine(id: "sleep", name: "Sleep", start: try time("23:00"), end: try time("07:00"), days: Array(1...7))
        #expect(sleep.hours.crossesMidnight && sleep.hours.clockLength == 8 * 3600)
        let blocks = sleep.occurrences(in: try span("2026-03-10 00:00", "2026-03-12 00:00"), timeZone: Zones.berlin)
        #expect(blocks.map(\.range) == [
            try span("2026-03-09 23:00", "2026-03-10 07:00"),  // begun before the window: whole
            try span("2026-03-10 23:00", "2026-03-11 07:00"),
            try span("2026-03-11 23:00", "2026-03-12 07:00"),
        ])
        #expect(blocks.allSatisfy { $0.kind == .routine(id: "sleep", name: "Sleep") })
    }

    @Test func daysAreTheDaysTheRoutineStartsOn() throws {
        // Friday-night sleep in (2026-03-13 is a Friday) ends on Saturday morning.
        let lateFriday = try Routine(id: "s", name: "Sleep in", start: try time("01:00"), end: try time("10:00"), days: [6])
        let friday = try Routine(id: "f", name: "Late night", start: try time("23:30"), end: try time("09:00"), days: [5])
        let saturday = try span("2026-03-14 00:00", "2026-03-15 00:00")
        #expect(friday.occurrences(in: saturday, timeZone: Zones.berlin).map(\.range) == [try span("2026-03-13 23:30", "2026-03-14 09:00")])
        #expect(lateFriday.occurrences(in: saturday, timeZone: Zones.berlin).map(\.range) == [try span("2026-03-14 01:00", "2026-03-14 10:00")])
    }

    @Test func weekdaysOnly() throws {
        let gym = try Routine(id: "gym", name: "Gym", hours: WeeklyHours(start: try time("18:00"), end: try time("19:00"), days: .weekdays))
        // Monday 2026-03-09 to Sunday 2026-03-15.
        let week = gym.occurrences(in: try span("2026-03-09 00:00", "2026-03-16 00:00"), timeZone: Zones.berlin)
        #expect(week.map { berlinClock($0.range.start) } == [
            "2026-03-09 18:00", "2026-03-10 18:00", "2026-03-11 18:00", "2026-03-12 18:00", "2026-03-13 18:00",
        ])
    }

    /// The rule chosen for daylight-saving days (see ``WeeklyHours``), on Berlin's 2026 changes.
    @Test func springForwardMovesSkippedReadingsForward() throws {
        let window = try span("2026-03-28 00:00", "2026-03-31 00:00")
        // A half-hour night prayer at 02:30: on the 29th 02:30 does not exist; it is 03:30 CEST,
        // and the routine keeps its half hour instead of vanishing.
        let tahajjud = try Routine(id: "t", name: "Tahajjud", start: try time("02:30"), end: try time("03:00"), days: Array(1...7))
        #expect(tahajjud.occurrences(in: window, timeZone: Zones.berlin).map(\.range) == [
            try TimeRange(start: utc("2026-03-28 01:30"), end: utc("2026-03-28 02:00")),  // 02:30–03:00 CET
            try TimeRange(start: utc("2026-03-29 01:30"), end: utc("2026-03-29 02:00")),  // 03:30–04:00 CEST
            try TimeRange(start: utc("2026-03-30 00:30"), end: utc("2026-03-30 01:00")),  // 02:30–03:00 CEST
        ])
        // Across the gap: 01:30 CET to 03:30 CEST, one real hour.
        let across = try WeeklyHours(start: try time("01:30"), end: try time("02:30"), days: .daily)
        let night = across.occurrences(in: try span("2026-03-29 00:00", "2026-03-29 12:00"), timeZone: Zones.berlin)
        #expect(night == [try TimeRange(start: utc("2026-03-29 00:30"), end: utc("2026-03-29 01:30"))])
        // Sleep that night ends at 07:00 on the clock, so it is 7 real hours.
        let sleep = try WeeklyHours(start: try time("23:00"), end: try time("07:00"), days: .daily)
        let nights = sleep.occurrences(in: try span("2026-03-29 00:00", "2026-03-29 12:00"), timeZone: Zones.berlin)
        #expect(nights == [try TimeRange(start: utc("2026-03-28 22:00"), end: utc("2026-03-29 05:00"))])
        #expect(nights[0].duration == 7 * 3600)
    }

    @Test func fallBackTakesTheFirstOfARepeatedReading() throws {
        // 2026-10-25: 03:00 CEST falls back to 02:00 CET. 02:30 is the first (CEST) one; 03:00
        // happens once, in CET: the half hour on the clock lasts an hour and a half.
        let tahajjud = try WeeklyHours(start: try time("02:30"), end: try time("03:00"), days: .daily)
        let blocks = tahajjud.occurrences(in: try span("2026-10-25 00:00", "2026-10-25 12:00"), timeZone: Zones.berlin)
        #expect(blocks == [try TimeRange(start: utc("2026-10-25 00:30"), end: utc("2026-10-25 02:00"))])
        let sleep = try WeeklyHours(start: try time("23:00"), end: try time("07:00"), days: .daily)
        let night = sleep.occurrences(in: try span("2026-10-25 00:00", "2026-10-25 12:00"), timeZone: Zones.berlin)
        #expect(night.map(\.duration) == [9 * 3600])
    }

    @Test func otherZonesUseTheirOwnChanges() throws {
        // New York springs forward on 2026-03-08 at 02:00; Riyadh has no daylight saving.
        let early = try WeeklyHours(start: try time("02:15"), end: try time("02:45"), days: .daily)
        let ny = early.occurrences(in: try span("2026-03-08 00:00", "2026-03-08 12:00", Zones.newYork), timeZone: Zones.newYork)
        #expect(ny == [try TimeRange(start: utc("2026-03-08 07:15"), end: utc("2026-03-08 07:45"))])  // 03:15–03:45 EDT
        let riyadh = early.occurrences(in: try span("2026-03-08 00:00", "2026-03-08 12:00", Zones.riyadh), timeZone: Zones.riyadh)
        #expect(riyadh == [try TimeRange(start: utc("2026-03-07 23:15"), end: utc("2026-03-07 23:45"))])
    }
}

@Suite struct LocalCalendarTests {
    /// Stepping day by day (plain date arithmetic plus the zone's midnight) agrees with Foundation
    /// over leap years, month ends and every daylight-saving change, midnight ones included
    /// (America/Santiago moves its clocks at midnight).
    @Test(arguments: ["Europe/Berlin", "America/New_York", "Asia/Riyadh", "America/Santiago", "Australia/Lord_Howe"])
    func steppingMatchesFoundation(zoneName: String) throws {
        let zone = try #require(TimeZone(identifier: zoneName))
        let calendar = LocalCalendar(timeZone: zone)
        var day = calendar.day(containing: utc("2023-12-20 12:00"))
        for _ in 0..<900 {
            let next = calendar.day(after: day)
            #expect(next == calendar.day(containing: day.start.addingTimeInterval(30 * 3600)), "after \(day)")
            #expect(next.start == calendar.calendar.startOfDay(for: day.start.addingTimeInterval(30 * 3600)))
            #expect(calendar.day(before: next) == day)
            day = next
        }
        #expect(day.year == 2026 && day.month == 6 && day.day == 7)
    }

    @Test func alignmentFollowsTheWallClock() throws {
        let calendar = LocalCalendar(timeZone: try #require(TimeZone(identifier: "Asia/Kathmandu")))  // UTC+5:45
        let instant = utc("2026-03-10 04:20")  // 10:05 in Kathmandu
        #expect(calendar.alignUp(instant, step: 900) == utc("2026-03-10 04:30"))  // 10:15
        #expect(calendar.alignDown(instant, step: 900) == utc("2026-03-10 04:15"))  // 10:00
        #expect(calendar.alignUp(instant, step: 1800) == utc("2026-03-10 04:45"))  // 10:30, not 04:30Z
        #expect(calendar.alignUp(utc("2026-03-10 04:15"), step: 900) == utc("2026-03-10 04:15"))  // on the grid already
    }
}
