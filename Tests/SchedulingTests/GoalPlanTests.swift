import Foundation
import Testing
@testable import Scheduling

/// The two-week planner's rules, one situation each, in London (Monday 2026-03-09 onwards, and
/// the spring-forward week of 2026-03-29).
@Suite struct GoalPlanTests {
    let london = TimeZone(identifier: "Europe/London")!

    /// Five prayers a day, 20 minutes each, from `first` for `days` days.
    func prayers(from first: Int = 9, days: Int = 16, month: Int = 3) throws -> [BusyBlock] {
        var blocks: [BusyBlock] = []
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = london
        for offset in 0..<days {
            guard let date = calendar.date(from: DateComponents(year: 2026, month: month, day: first + offset, hour: 12)) else { continue }
            let c = calendar.dateComponents([.year, .month, .day], from: date)
            let day = String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
            blocks += try [prayer(.fajr, "\(day) 05:02", london), prayer(.dhuhr, "\(day) 12:15", london),
                           prayer(.asr, "\(day) 15:20", london), prayer(.maghrib, "\(day) 18:05", london),
                           prayer(.isha, "\(day) 19:30", london)]
        }
        return blocks
    }

    func preferences(work: Bool = false, exercise: DayPart? = .morning, focus: DayPart? = nil,
                     intensity: PlannerIntensity = .full) throws -> PlannerPreferences {
        try PlannerPreferences(wake: time("06:00"), sleep: time("23:00"),
                               work: work ? WeeklyHours(start: time("09:00"), end: time("17:00"), days: .weekdays) : nil,
                               exerciseTime: exercise, focusTime: focus, intensity: intensity)
    }

    func exercise(gapHours: Int = 20) throws -> Goal {
        try Goal(id: "exercise", title: "Exercise", category: .exercise, minutesPerSession: 45, perWeek: 3, from: "05:00", to: "09:00",
                 minimumGapMinutes: gapHours * 60 - 45)
    }

    func read(from: String = "06:00", to: String = "23:00") throws -> Goal {
        try Goal(id: "read", title: "Read", category: .focus, minutesPerSession: 30, perDay: 1, from: from, to: to)
    }

    func plan(_ goals: [Goal], tasks: [PlannableTask] = [], extra: [BusyBlock] = [], now: String = "2026-03-09 05:00",
              accepted: [ItemPlacement] = [], rejected: [ItemPlacement] = [], preferences: PlannerPreferences? = nil,
              learned: LearnedPreferences = LearnedPreferences(), horizonDays: Int = 14) throws -> TwoWeekPlan {
        let input = try TwoWeekPlan.Input(now: at(now, london), timeZone: london, horizonDays: horizonDays, goals: goals, tasks: tasks,
                                          busy: BusyTime(try prayers() + extra), accepted: accepted, rejected: rejected,
                                          preferences: preferences ?? self.preferences(), learned: learned)
        return TwoWeekPlan(input)
    }

    func clock(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = london
        let c = calendar.dateComponents([.month, .day, .hour, .minute], from: date)
        return String(format: "%02d-%02d %02d:%02d", c.month!, c.day!, c.hour!, c.minute!)
    }

    func starts(_ plan: TwoWeekPlan, _ id: String) -> [String] {
        plan.proposals.filter { $0.subject == .goal(id: id) }.map { clock($0.range.start) }
    }

    // MARK: Goals

    @Test func threeMorningSessionsAWeekSpreadAcrossTheWeek() throws {
        let plan = try plan([exercise()])
        // The night is closed until 06:00, Fajr ends 05:22: each session at 06:00, three days apart
        // where the week allows; the second week keeps its distance from the first week's Sunday.
        #expect(starts(plan, "exercise") == ["03-09 06:00", "03-12 06:00", "03-15 06:00", "03-18 06:00", "03-21 06:00", "03-16 06:00"].sorted())
        #expect(plan.proposals[0].reason.sentence(in: .english) == "Monday 06:00 — you prefer mornings; Fajr is at 05:02; free until 12:15")
        #expect(plan.proposals[1].reason.sentence(in: .english)
            == "Thursday 06:00 — you prefer mornings; 3 days after the last session; Fajr is at 05:02; free until 12:15")
        #expect(plan.proposals[0].reason.sentence(in: .arabic)
            == "الاثنين 06:00 — وقتك المفضّل: الصباح؛ صلاة الفجر الساعة 05:02؛ متاح حتى 12:15")
        #expect(plan.shortfalls.isEmpty && plan.unplacedTasks.isEmpty)
        #expect(plan.proposals.allSatisfy { $0.title == "Exercise" && $0.range.duration == 45 * 60 })
    }

    @Test func withoutAPreferredTimeTheEarliestFreeStartWinsAndPrayersAreAvoided() throws {
        let plan = try plan([exercise()], preferences: preferences(exercise: nil))
        #expect(starts(plan, "exercise").first == "03-09 06:00")
        #expect(!plan.proposals[0].reason.factors.contains { if case .preferredTime = $0 { true } else { false } })
        // A 05:00–09:00 window with an open night: Fajr (05:02–05:22) pushes the start to 05:30.
        let early = try PlannerPreferences(wake: time("04:00"), sleep: time("23:00"))
        #expect(starts(try self.plan([exercise()], preferences: early), "exercise").first == "03-09 05:30")
    }

    @Test func busyTimeIsNeverUsed() throws {
        let meetings = try [event("gym-closed", "2026-03-09 05:30", "2026-03-09 08:30", london),
                            event("call", "2026-03-12 06:00", "2026-03-12 06:30", london)]
        let plan = try plan([exercise()], extra: meetings)
        let busy = BusyTime(try prayers() + meetings)
        #expect(plan.proposals.allSatisfy { busy.isFree($0.range) })
        // Monday's only room is 08:30, late in the window: Tuesday 06:00 scores more.
        #expect(starts(plan, "exercise").prefix(2) == ["03-10 06:00", "03-13 06:00"])
    }

    @Test func aDailyGoalGetsOneSessionEachDayAndWeekdayGoalsOnlyWeekdays() throws {
        let study = try Goal(id: "study", title: "Study", category: .focus, minutesPerSession: 60, perDay: 1, from: "20:00", to: "22:00",
                             days: ["MO", "TU", "WE", "TH", "FR"])
        let plan = try plan([try read(), study], preferences: preferences(focus: .evening))
        let reads = plan.proposals.filter { $0.subject == .goal(id: "read") }
        #expect(reads.count == 14)
        #expect(Set(reads.map { clock($0.range.start).prefix(5) }).count == 14)
        let studies = plan.proposals.filter { $0.subject == .goal(id: "study") }
        #expect(studies.count == 10)
        #expect(studies.allSatisfy { (1...5).contains($0.reason.isoWeekday) && $0.reason.start == (try? time("20:00")) })
        // Reading goes to the evening the questionnaire prefers for focus, before Maghrib.
        #expect(reads.allSatisfy { $0.reason.start == (try? time("17:00")) })
        #expect(reads[0].reason.factors.first == .preferredTime(.evening, source: .questionnaire))
    }

    @Test func sleepIsPlacedInTheNightThatOtherGoalsCannotUse() throws {
        let sleep = try Goal(id: "sleep", title: "Sleep", category: .sleep, minutesPerSession: 450, perDay: 1, from: "21:30", to: "07:00")
        let late = try read(from: "21:00", to: "23:30")
        let plan = try plan([late, sleep])
        let nights = plan.proposals.filter { $0.subject == .goal(id: "sleep") }
        #expect(nights.count == 14)
        #expect(nights.allSatisfy { $0.reason.start == (try? time("21:30")) })
        // Reading squeezes in before sleep, never in the questionnaire's night (from 23:00).
        #expect(plan.proposals.filter { $0.subject == .goal(id: "read") }.allSatisfy { $0.reason.start == (try? time("21:00")) })
        #expect(plan.proposals.filter { $0.subject == .goal(id: "read") }.count == 14)
    }

    @Test func workHoursAreClosedToExerciseButOpenToFocus() throws {
        let exercise = try Goal(id: "exercise", title: "Exercise", category: .exercise, minutesPerSession: 60, perDay: 1, from: "09:00", to: "18:00")
        let study = try Goal(id: "study", title: "Study", category: .focus, minutesPerSession: 60, perDay: 1, from: "09:00", to: "18:00")
        let plan = try plan([exercise, study], preferences: preferences(work: true, exercise: nil))
        let weekdayExercise = plan.proposals.filter { $0.subject == .goal(id: "exercise") && $0.reason.isoWeekday <= 5 }
        #expect(weekdayExercise.allSatisfy { $0.reason.start == (try? time("17:00")) })
        let weekdayStudy = plan.proposals.filter { $0.subject == .goal(id: "study") && $0.reason.isoWeekday <= 5 }
        #expect(weekdayStudy.count == 10 && weekdayStudy.allSatisfy { $0.reason.start == (try? time("09:00")) })
    }

    @Test func aWeekAlreadyBegunAsksForItsShare() throws {
        // Saturday: 2 of 7 days left, so 1 of 3 sessions this week; next week all 3.
        let plan = try plan([exercise()], now: "2026-03-14 10:00")
        #expect(starts(plan, "exercise").filter { $0 < "03-16" }.count == 1)
        #expect(starts(plan, "exercise").filter { $0 >= "03-16" && $0 < "03-23" }.count == 3)
        // The horizon ends on Friday 27: that week has 5 of 7 days, so ceil(3 × 5 / 7) = 3.
        #expect(starts(plan, "exercise").filter { $0 >= "03-23" }.count == 3)
    }

    @Test func periodsThatCannotBeMetAreReported() throws {
        // Wednesday 11's mornings are taken: the daily goal falls short that day only.
        let busy = try event("offsite", "2026-03-11 05:00", "2026-03-11 10:00", london)
        let plan = try plan([try read(from: "06:00", to: "09:00")], extra: [busy])
        #expect(plan.shortfalls == [GoalShortfall(goalID: "read", periodStart: at("2026-03-11 00:00", london), wanted: 1, proposed: 0)])
        #expect(plan.shortfalls[0].description.hasSuffix("0 of 1"))
    }

    // MARK: Accepting and rejecting

    @Test func aRejectedSlotIsNeverProposedAgain() throws {
        let first = try plan([exercise()])
        let rejected = first.proposals[0].placement
        let again = try plan([exercise()], rejected: [rejected])
        #expect(!again.proposals.contains { $0.subject == rejected.subject && $0.range.overlaps(rejected.range) })
        #expect(starts(again, "exercise").first == "03-10 06:00")  // Monday 06:45 is later in the window
        // Another goal may still use that time.
        let other = try plan([try read(from: "06:00", to: "07:00")], rejected: [rejected])
        #expect(starts(other, "read").first == "03-09 06:00")
    }

    @Test func acceptedItemsStayPutAndCountTowardsTheirTargets() throws {
        let first = try plan([exercise()])
        let accepted = [first.proposals[0].placement, first.proposals[1].placement]
        let again = try plan([exercise()], now: "2026-03-09 10:00", accepted: accepted)
        #expect(!again.proposals.contains { proposal in accepted.contains { $0.range.overlaps(proposal.range) } })
        // Two accepted this week: one more; none within 20 hours of an accepted one.
        #expect(starts(again, "exercise").filter { $0 < "03-16" } == ["03-15 06:00"])
        let sessions = accepted.map(\.range) + again.proposals.map(\.range)
        for a in sessions {
            for b in sessions where a.start < b.start { #expect(b.start.timeIntervalSince(a.start) >= 20 * 3600) }
        }
        // An accepted item is busy for every other subject too.
        let read = try plan([try read(from: "06:00", to: "07:00")], accepted: accepted)
        #expect(!read.proposals.contains { proposal in accepted.contains { $0.range.overlaps(proposal.range) } })
        #expect(starts(read, "read").prefix(3) == ["03-10 06:00", "03-11 06:00", "03-13 06:00"])
        #expect(read.shortfalls.map(\.periodStart) == [at("2026-03-09 00:00", london), at("2026-03-12 00:00", london)])
    }

    // MARK: To-dos

    @Test func todosGoBeforeTheirDueDateInWorkHoursAndTheImpossibleIsReported() throws {
        let created = at("2026-03-01 10:00", london)
        let tasks = try [
            PlannableTask(id: "report", title: "Report", estimate: 90 * 60, due: at("2026-03-10 12:00", london), created: created),
            PlannableTask(id: "taxes", title: "Taxes", estimate: 5 * 3600, due: at("2026-03-12 17:00", london), created: created),
            PlannableTask(id: "late", title: "Late", estimate: 3600, due: at("2026-03-08 12:00", london), created: created),
            PlannableTask(id: "huge", title: "Huge", estimate: 40 * 3600, due: at("2026-03-10 17:00", london), created: created),
        ]
        let plan = try plan([], tasks: tasks, preferences: preferences(work: true))
        #expect(plan.proposals.map { "\($0.subject) \(clock($0.range.start))–\(clock($0.range.end).suffix(5))" } == [
            "task:report 03-09 09:00–10:30",
            "task:taxes 03-09 10:30–12:15",
            "task:taxes 03-09 12:45–14:30",  // after Dhuhr, on the grid
            "task:taxes 03-10 09:00–10:30",  // Asr and the end of work hours leave no 90 minutes on Monday
        ])
        #expect(plan.proposals.allSatisfy { $0.range.end <= at("2026-03-12 17:00", london) })
        #expect(plan.unplacedTasks.map(\.task.id) == ["late", "huge"])
        #expect(plan.unplacedTasks[0].reason == .dueDatePassed(at("2026-03-08 12:00", london)))
        #expect(plan.proposals[1].reason.sentence(in: .english)
            == "Monday 10:30 — part 1 of 3; due Thursday 17:00; the earliest free time; Dhuhr is at 12:15; free until 12:15")
        // Accepted blocks count towards the estimate: 90 minutes of the report accepted, no more proposed.
        let accepted = [ItemPlacement(subject: .task(id: "report"), range: plan.proposals[0].range)]
        let again = try self.plan([], tasks: Array(tasks.prefix(1)), accepted: accepted, preferences: preferences(work: true))
        #expect(again.proposals.isEmpty && again.unplacedTasks.isEmpty)
    }

    @Test func aRejectedTodoSlotIsNotProposedAgain() throws {
        let task = try PlannableTask(id: "report", title: "Report", estimate: 3600, created: at("2026-03-01 10:00", london))
        let first = try plan([], tasks: [task], now: "2026-03-09 09:00")
        let again = try plan([], tasks: [task], now: "2026-03-09 09:00", rejected: [first.proposals[0].placement])
        #expect(clock(first.proposals[0].range.start) == "03-09 09:00")
        #expect(clock(again.proposals[0].range.start) == "03-09 10:00")
        #expect(again.proposals[0].reason.factors.prefix(2) == [.noDueDate, .earliestFreeTime])
    }

    // MARK: Intensity

    @Test func offProposesNothingAndLightKeepsRoomAndFewItems() throws {
        let created = at("2026-03-01 10:00", london)
        let tasks = try (0..<6).map { try PlannableTask(id: "t\($0)", title: "T", estimate: 3600, created: created) }
        let goals = [try exercise(), try read()]
        let off = try plan(goals, tasks: tasks, preferences: preferences(intensity: .off))
        #expect(off.proposals.isEmpty && off.shortfalls.isEmpty && off.unplacedTasks.isEmpty)

        let meeting = try event("meeting", "2026-03-09 07:00", "2026-03-09 08:00", london)
        let light = try plan(goals, tasks: tasks, extra: [meeting], preferences: preferences(intensity: .light))
        let busy = BusyTime(try prayers() + [meeting])
        var perDay: [String: Int] = [:]
        for proposal in light.proposals {
            perDay[String(clock(proposal.range.start).prefix(5)), default: 0] += 1
            let padded = TimeRange(uncheckedStart: proposal.range.start.addingTimeInterval(-900), end: proposal.range.end.addingTimeInterval(900))
            #expect(busy.isFree(padded), "\(proposal) is within 15 minutes of busy time")
            #expect(light.proposals.allSatisfy { $0 == proposal || !$0.range.overlaps(padded) })
        }
        #expect(perDay.values.allSatisfy { $0 <= 2 })
        #expect(light.proposals.count < (try plan(goals, tasks: tasks, extra: [meeting])).proposals.count)
        // To-dos come first; the day's limit then leaves the goals short that day.
        #expect(light.proposals.filter { $0.subject == .task(id: "t0") }.count == 1)
        #expect(!light.shortfalls.isEmpty)
    }

    // MARK: Learning

    @Test func anAcceptedTuesdayMorningPullsSessionsThereAndSaysWhy() throws {
        var learned = LearnedPreferences()
        learned.record(.accepted(at("2026-03-03 07:30", london)), goalID: "exercise", timeZone: london)
        let plan = try plan([exercise()], learned: learned)
        #expect(starts(plan, "exercise").contains("03-10 07:00"))
        #expect(starts(plan, "exercise").contains("03-17 07:00"))
        let tuesday = try #require(plan.proposals.first { clock($0.range.start) == "03-10 07:00" })
        #expect(tuesday.reason.sentence(in: .english) == "Tuesday 07:00 — you accepted Tuesday mornings before; you prefer mornings; "
            + "Fajr is at 05:02; free until 12:15")
    }

    @Test func aWeeklyGoalTakesASecondSessionOnADayOnlyWhenNoOtherDayHasRoom() throws {
        // The person loves Monday mornings, but two sessions on one Monday is not a spread week.
        var learned = LearnedPreferences()
        for hour in ["06:00", "07:00", "08:00"] { learned.record(.accepted(at("2026-03-02 \(hour)", london)), goalID: "walk", timeZone: london) }
        let walk = try Goal(id: "walk", title: "Walk", minutesPerSession: 30, perWeek: 2, from: "06:00", to: "09:00")
        let plan = try plan([walk], learned: learned)
        // 07:00 shares in all three accepts; the second walk goes as far from Monday as the week allows.
        #expect(starts(plan, "walk").filter { $0 < "03-16" } == ["03-09 07:00", "03-13 06:00"])
        // With only Monday allowed, both go on Monday.
        let mondays = try Goal(id: "walk", title: "Walk", minutesPerSession: 30, perWeek: 2, from: "06:00", to: "09:00", days: ["MO"])
        let monday = try self.plan([mondays], learned: learned)
        #expect(starts(monday, "walk").filter { $0 < "03-16" } == ["03-09 07:00", "03-09 07:30"])
    }

    @Test func rejectedHoursAreAvoidedAndMovedToHoursPreferred() throws {
        var learned = LearnedPreferences()
        // Reading was rejected at 17:00 on Monday and moved to 20:00 on Thursday.
        learned.record(.rejected(at("2026-03-02 17:00", london)), goalID: "read", timeZone: london)
        learned.record(.moved(from: at("2026-03-05 17:00", london), to: at("2026-03-05 20:00", london)), goalID: "read", timeZone: london)
        let before = try plan([try read()], preferences: preferences(focus: .evening))
        let after = try plan([try read()], preferences: preferences(focus: .evening), learned: learned)
        #expect(starts(before, "read").contains("03-09 17:00") && starts(before, "read").contains("03-12 17:00"))
        #expect(!starts(after, "read").contains("03-09 17:00"))
        #expect(starts(after, "read").contains("03-09 19:00"))  // still evening, outside the rejected hour's reach
        #expect(starts(after, "read").contains("03-12 20:00"))
        let thursday = try #require(after.proposals.first { clock($0.range.start) == "03-12 20:00" })
        #expect(thursday.reason.sentence(in: .arabic).contains("نقلت جلسات إلى مساء الخميس من قبل"))
    }

    // MARK: Determinism, time zones, input

    @Test func theSameInputGivesTheSamePlanWhateverTheOrder() throws {
        let goals = [try exercise(), try read(), try Goal(id: "walk", title: "Walk", minutesPerSession: 30, perWeek: 4, from: "12:00", to: "20:00")]
        let created = at("2026-03-01 10:00", london)
        let tasks = try (0..<5).map { try PlannableTask(id: "t\($0)", title: "T", estimate: 2700, created: created) }
        let one = try plan(goals, tasks: tasks)
        let two = try plan(goals.reversed(), tasks: tasks.reversed())
        #expect(one.proposals == two.proposals)
        #expect(one.proposals.map(\.id) == two.proposals.map(\.id))
        #expect(Set(one.proposals.map(\.id)).count == one.proposals.count)
        let data = try JSONEncoder().encode(one.proposals)
        #expect(try JSONDecoder().decode([Proposal].self, from: data) == one.proposals)
    }

    @Test func theSpringForwardWeekKeepsClockTimes() throws {
        // London 2026-03-29: 01:00 GMT becomes 02:00 BST. Sessions stay at 06:00 on the clock.
        let input = try TwoWeekPlan.Input(now: at("2026-03-26 05:00", london), timeZone: london, horizonDays: 7,
                                          goals: [try read(from: "06:00", to: "07:00")], busy: BusyTime(try prayers(from: 26, days: 8)),
                                          preferences: preferences())
        let plan = TwoWeekPlan(input)
        #expect(starts(plan, "read") == ["03-26", "03-27", "03-28", "03-29", "03-30", "03-31", "04-01"].map { "\($0) 06:00" })
        #expect(plan.proposals.allSatisfy { $0.reason.start == (try? time("06:00")) })
        #expect(plan.horizon?.end == at("2026-04-02 00:00", london))
    }

    @Test func inputsOutOfRangeAreRefused() throws {
        let busy = BusyTime([])
        #expect(throws: SchedulingError.invalidSetting(field: "horizonDays", reason: "0 is out of range (expected 1 … 28)")) {
            try TwoWeekPlan.Input(now: .now, timeZone: london, horizonDays: 0, goals: [], busy: busy, preferences: preferences())
        }
        #expect(throws: SchedulingError.invalidSetting(field: "goals", reason: "two goals have the same id")) {
            try TwoWeekPlan.Input(now: .now, timeZone: london, goals: [try read(), try read()], busy: busy, preferences: preferences())
        }
        #expect(throws: SchedulingError.endEqualsStart(try time("06:00"))) {
            try PlannerPreferences(wake: time("06:00"), sleep: time("06:00"))
        }
    }
}
