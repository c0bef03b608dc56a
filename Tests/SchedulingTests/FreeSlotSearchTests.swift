import Foundation
import Testing
@testable import Scheduling

@Suite struct FreeSlotSearchTests {
    let sleep: Routine
    let awake: Availability

    init() throws {
        sleep = try Routine(id: "sleep", name: "Sleep", start: try time("23:00"), end: try time("07:00"), days: Array(1...7))
        awake = Availability(timeZone: Zones.berlin, sleep: sleep)
    }

    /// Tuesday 2026-03-10 in Berlin: prayers, a meeting 14:00–15:00 and the new event on top of it.
    func tuesday(count: Int = 5) throws -> (FreeSlotSearch, BusyTime, Conflict) {
        let blocks = try [event("meeting", "2026-03-10 14:00", "2026-03-10 15:00"), event("new", "2026-03-10 14:00", "2026-03-10 15:00")]
            + marchPrayers(on: "2026-03-10") + marchPrayers(on: "2026-03-11")
        let busy = BusyTime(blocks, window: try span("2026-03-09 00:00", "2026-03-18 00:00"))
        let conflict = try #require(busy.conflict(for: try event("new", "2026-03-10 14:00", "2026-03-10 15:00")))
        return (try FreeSlotSearch(availability: awake, count: count), busy, conflict)
    }

    @Test func sameDaySlotsRankedByClosenessWithExplanations() throws {
        let (search, busy, conflict) = try tuesday()
        let slots = search.suggestions(for: conflict, busy: busy, now: at("2026-03-10 08:00"))
        #expect(slots.map { berlinClock($0.range.start) } == [
            "2026-03-10 13:00", "2026-03-10 16:00", "2026-03-10 11:30", "2026-03-10 19:00", "2026-03-10 20:30",
        ])
        #expect(slots.allSatisfy { $0.range.duration == 3600 })
        #expect(slots.map(\.explanation) == [
            SlotExplanation(day: .sameDay, offset: -3600, prayer: .after(.dhuhr)),
            SlotExplanation(day: .sameDay, offset: 7200, prayer: .after(.asr)),
            SlotExplanation(day: .sameDay, offset: -9000, prayer: .before(.dhuhr)),
            SlotExplanation(day: .sameDay, offset: 18_000, prayer: .before(.isha)),
            SlotExplanation(day: .sameDay, offset: 23_400, prayer: .after(.isha)),
        ])
        #expect(slots.map(\.explanation.description) == [
            "same day, 1 h earlier, after Dhuhr",
            "same day, 2 h later, after Asr",
            "same day, 2 h 30 min earlier, before Dhuhr",
            "same day, 5 h later, before Isha",
            "same day, 6 h 30 min later, after Isha",
        ])
        #expect(slots.map(\.explanation.arabicDescription) == [
            "في اليوم نفسه، مبكرًا ساعة، بعد صلاة الظهر",
            "في اليوم نفسه، متأخرًا ساعتين، بعد صلاة العصر",
            "في اليوم نفسه، مبكرًا ساعتين و30 دقيقة، قبل صلاة الظهر",
            "في اليوم نفسه، متأخرًا 5 ساعات، قبل صلاة العشاء",
            "في اليوم نفسه، متأخرًا 6 ساعات و30 دقيقة، بعد صلاة العشاء",
        ])
    }

    @Test func nextDayFollowsOnceTheSameDayIsUsedUp() throws {
        let (search, busy, conflict) = try tuesday(count: 7)
        let slots = search.suggestions(for: conflict, busy: busy, now: at("2026-03-10 08:00"))
        #expect(slots.count == 7)
        #expect(slots.suffix(2).map { berlinClock($0.range.start) } == ["2026-03-11 14:00", "2026-03-11 16:00"])
        #expect(slots.suffix(2).map(\.explanation.description) == ["next day, same time, before Asr", "next day, 2 h later, after Asr"])
        #expect(slots[5].explanation.arabicDescription == "في اليوم التالي، في الموعد نفسه، قبل صلاة العصر")
    }

    @Test func neverInThePast() throws {
        let (search, busy, conflict) = try tuesday()
        let now = at("2026-03-10 13:10")
        let slots = search.suggestions(for: conflict, busy: busy, now: now)
        #expect(slots.allSatisfy { $0.range.start >= now })
        // 13:15–14:00 is too short; 11:30 has passed; the next day fills in.
        #expect(slots.map { berlinClock($0.range.start) } == [
            "2026-03-10 16:00", "2026-03-10 19:00", "2026-03-10 20:30", "2026-03-11 14:00", "2026-03-11 16:00",
        ])
        // The whole horizon in the past: nothing.
        #expect(search.suggestions(for: conflict, busy: busy, now: at("2026-03-20 08:00")).isEmpty)
    }

    @Test func theEventsOwnOldPlaceIsFree() throws {
        // "new" moved from 16:00 to 14:00 (on the meeting). Its old place at 16:00 is free again.
        let blocks = try [event("meeting", "2026-03-10 14:00", "2026-03-10 15:00"), event("new", "2026-03-10 16:00", "2026-03-10 17:00")]
            + marchPrayers(on: "2026-03-10")
        let busy = BusyTime(blocks)
        let conflict = try #require(busy.conflict(for: try event("new", "2026-03-10 14:00", "2026-03-10 15:00")))
        let slots = try FreeSlotSearch(availability: awake, count: 2).suggestions(for: conflict, busy: busy, now: at("2026-03-10 08:00"))
        #expect(slots.map { berlinClock($0.range.start) } == ["2026-03-10 13:00", "2026-03-10 16:00"])
    }

    @Test func sleepHoursAcrossMidnightAreNeverOffered() throws {
        let busy = BusyTime(try [event("late", "2026-03-10 19:00", "2026-03-10 23:00")] + marchPrayers(on: "2026-03-10") + marchPrayers(on: "2026-03-11"))
        let conflict = try #require(busy.conflict(for: try event("new", "2026-03-10 22:00", "2026-03-10 23:00")))
        let slots = try FreeSlotSearch(availability: awake, count: 4).suggestions(for: conflict, busy: busy, now: at("2026-03-10 08:00"))
        // Three slots that evening's day; the fourth is the next evening, never 23:00–07:00.
        #expect(slots.map { berlinClock($0.range.start) } == ["2026-03-10 17:30", "2026-03-10 14:30", "2026-03-10 11:30", "2026-03-11 22:00"])
        #expect(slots[0].explanation.description == "same day, 4 h 30 min earlier, before Maghrib")
        #expect(slots[3].explanation.description == "next day, same time, after Isha")

        // No sleep rule: a slot may run past midnight.
        let always = try FreeSlotSearch(availability: .always(in: Zones.berlin), count: 1)
        let night = always.suggestions(for: conflict, busy: busy, now: at("2026-03-10 08:00"))
        #expect(night.map { berlinClock($0.range.start) } == ["2026-03-10 23:00"])
    }

    @Test func workingHoursSkipTheWeekendAndNameTheDay() throws {
        let office = Availability(timeZone: Zones.berlin, sleep: sleep,
                                  workingHours: try WeeklyHours(start: try time("09:00"), end: try time("17:00"), days: .weekdays))
        // Friday 2026-03-13 is full; Saturday and Sunday are not working days.
        let friday = try [
            prayer(.fajr, "2026-03-13 05:00"), prayer(.jumuah, "2026-03-13 12:30", minutes: 60), prayer(.asr, "2026-03-13 15:30"),
            event("morning", "2026-03-13 09:00", "2026-03-13 12:30"), event("afternoon", "2026-03-13 13:30", "2026-03-13 15:30"),
            event("existing", "2026-03-13 16:00", "2026-03-13 17:00"),
        ]
        let busy = BusyTime(friday + (try marchPrayers(on: "2026-03-16")))
        let conflict = try #require(busy.conflict(for: try event("new", "2026-03-13 16:00", "2026-03-13 17:00")))
        let slots = try FreeSlotSearch(availability: office, count: 3).suggestions(for: conflict, busy: busy, now: at("2026-03-13 08:00"))
        #expect(slots.map { berlinClock($0.range.start) } == ["2026-03-16 16:00", "2026-03-16 14:30", "2026-03-16 11:30"])
        #expect(slots[0].explanation == SlotExplanation(day: .later(days: 3, isoWeekday: 1), offset: 0, prayer: .after(.asr)))
        #expect(slots.map(\.explanation.description) == [
            "Monday, same time, after Asr", "Monday, 1 h 30 min earlier, before Asr", "Monday, 4 h 30 min earlier, before Dhuhr",
        ])
        #expect(slots[1].explanation.arabicDescription == "يوم الاثنين، مبكرًا ساعة و30 دقيقة، قبل صلاة العصر")
        #expect(slots.allSatisfy { office.allows($0.range) })
    }

    @Test func jumuahIsNamed() throws {
        let busy = BusyTime(try [
            prayer(.jumuah, "2026-03-13 12:30", minutes: 60), prayer(.asr, "2026-03-13 15:30"),
            event("morning", "2026-03-13 07:00", "2026-03-13 12:30"), event("afternoon", "2026-03-13 14:00", "2026-03-13 15:30"),
            event("existing", "2026-03-13 16:00", "2026-03-13 23:00"),
        ])
        let conflict = try #require(busy.conflict(for: try event("new", "2026-03-13 16:00", "2026-03-13 16:30")))
        // Only 13:30–14:00 is free and long enough that Friday: right after Jumu'ah.
        let slots = try FreeSlotSearch(availability: awake, count: 1).suggestions(for: conflict, busy: busy, now: at("2026-03-13 06:00"))
        #expect(slots.map { berlinClock($0.range.start) } == ["2026-03-13 13:30"])
        #expect(slots[0].explanation.description == "same day, 2 h 30 min earlier, after Jumu'ah")
        #expect(slots[0].explanation.arabicDescription == "في اليوم نفسه، مبكرًا ساعتين و30 دقيقة، بعد صلاة الجمعة")
    }

    @Test func horizonBoundsTheSearch() throws {
        let (_, busy, conflict) = try tuesday()
        let oneDay = try FreeSlotSearch(availability: awake, count: 10, horizonDays: 1)
        let slots = oneDay.suggestions(for: conflict, busy: busy, now: at("2026-03-10 08:00"))
        #expect(slots.count == 5)
        #expect(slots.allSatisfy { $0.explanation.day == .sameDay })
    }

    @Test func settingsAreChecked() throws {
        #expect(throws: SchedulingError.invalidSetting(field: "count", reason: "0 is out of range (expected 1 … 50)")) {
            try FreeSlotSearch(availability: awake, count: 0)
        }
        #expect(throws: SchedulingError.self) { try FreeSlotSearch(availability: awake, horizonDays: 0) }
        #expect(throws: SchedulingError.self) { try FreeSlotSearch(availability: awake, step: 90) }
        #expect(throws: SchedulingError.self) { try FreeSlotSearch(availability: awake, step: 0) }
        #expect(SchedulingError.invalidSetting(field: "step", reason: "x").description == "step: x")
    }

    @Test func arabicCountedNouns() {
        let cases: [(Int, String)] = [
            (1, "دقيقة"), (2, "دقيقتين"), (5, "5 دقائق"), (10, "10 دقائق"), (11, "11 دقيقة"), (30, "30 دقيقة"),
            (60, "ساعة"), (61, "ساعة ودقيقة"), (120, "ساعتين"), (150, "ساعتين و30 دقيقة"), (180, "3 ساعات"), (660, "11 ساعة"),
        ]
        for (minutes, text) in cases { #expect(SlotExplanation.arabicLength(minutes) == text) }
        #expect(SlotExplanation.englishLength(45) == "45 min")
        #expect(SlotExplanation.englishLength(120) == "2 h")
        #expect(SlotExplanation.englishLength(135) == "2 h 15 min")
    }

    @Test func laterDaysAreNamedInBothLanguages() {
        let explanation = SlotExplanation(day: .later(days: 2, isoWeekday: 4), offset: 45 * 60, prayer: .before(.maghrib))
        #expect(explanation.description == "Thursday, 45 min later, before Maghrib")
        #expect(explanation.arabicDescription == "يوم الخميس، متأخرًا 45 دقيقة، قبل صلاة المغرب")
        let quiet = SlotExplanation(day: .nextDay, offset: -90, prayer: nil)
        #expect(quiet.description == "next day, 2 min earlier")
    }
}
