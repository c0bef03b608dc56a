import Foundation
import Testing
@testable import Scheduling

@Suite struct TaskPlanTests {
    let awake: Availability
    let prayers: [BusyBlock]

    init() throws {
        let sleep = try Routine(id: "sleep", name: "Sleep", start: try time("23:00"), end: try time("07:00"), days: Array(1...7))
        awake = Availability(timeZone: Zones.berlin, sleep: sleep)
        prayers = try ["2026-03-09", "2026-03-10", "2026-03-11"].flatMap(marchPrayers(on:))
    }

    func task(_ id: String, minutes: Double, due: String?, priority: Int = 0, created: String = "2026-03-01 10:00") throws -> PlannableTask {
        try PlannableTask(id: id, title: id.capitalized, estimate: minutes * 60, due: due.map { at($0) }, priority: priority, created: at(created))
    }

    /// Monday 2026-03-09 in Berlin, a meeting 09:00–12:00, prayers, sleep 23:00–07:00.
    func mondayTasks() throws -> [PlannableTask] {
        try [
            task("report", minutes: 90, due: "2026-03-09 17:00", priority: 5),
            task("slides", minutes: 60, due: "2026-03-09 17:00", priority: 1),
            task("taxes", minutes: 300, due: "2026-03-11 12:00"),
            task("read", minutes: 30, due: nil, priority: 9),
            task("overdue", minutes: 30, due: "2026-03-08 18:00"),
            task("impossible", minutes: 240, due: "2026-03-09 13:00"),
        ]
    }

    @Test func earliestDeadlineThenPriorityAsEarlyAsItFits() throws {
        let busy = BusyTime(try [event("meeting", "2026-03-09 09:00", "2026-03-09 12:00")] + prayers)
        let plan = TaskPlan(tasks: try mondayTasks(), busy: busy, availability: awake, now: at("2026-03-09 08:05"))
        #expect(plan.placed.map { "\($0.taskID) \(berlinClock($0.range.start))–\(berlinClock($0.range.end).suffix(5))" } == [
            "read 2026-03-09 08:15–08:45",  // undated, last in order, but fits the morning's leftover
            "slides 2026-03-09 13:00–14:00",  // priority 1 before "report" with the same due date
            "report 2026-03-09 14:00–15:30",
            "taxes 2026-03-09 16:00–17:45",  // 5 h in three parts no longer than 2 h
            "taxes 2026-03-09 20:30–22:15",
            "taxes 2026-03-10 07:00–08:30",  // after the night, never 23:00–07:00
        ])
        #expect(plan.kept.isEmpty && plan.removed.isEmpty)
        #expect(plan.unplaced.map(\.task.id) == ["overdue", "impossible"])
        #expect(plan.unplaced[0].reason == .dueDatePassed(at("2026-03-08 18:00")))
        let shortage = UnplacedTask.Reason.noRoomBeforeDue(due: at("2026-03-09 13:00"), needed: 14_400, free: 5100, longestBlock: 7200)
        #expect(plan.unplaced[1].reason == shortage)
        #expect(plan.unplaced[0].description == "task overdue \"Overdue\": its due date 2026-03-08T17:00:00Z has passed")
        #expect(plan.unplaced[1].description
            == "task impossible \"Impossible\": needs 4 h before it is due at 2026-03-09T12:00:00Z, but only 1 h 25 min is free in allowed hours")
        #expect(plan.placed[0].busyBlock.kind == .plannedTask(taskID: "read", title: "Read"))
    }

    @Test func replanningKeepsStartedBlocksAndMovesFutureOnes() throws {
        let first = TaskPlan(tasks: try mondayTasks(), busy: BusyTime(try [event("meeting", "2026-03-09 09:00", "2026-03-09 12:00")] + prayers),
                             availability: awake, now: at("2026-03-09 08:05"))
        // At 14:30 a dentist appointment appears at 16:00. "read" is done (no longer open); the
        // busy time read from the calendars still holds every planned block.
        let busy = BusyTime(try [event("meeting", "2026-03-09 09:00", "2026-03-09 12:00"), event("dentist", "2026-03-09 16:00", "2026-03-09 17:00")]
            + prayers + first.placed.map(\.busyBlock))
        let open = try mondayTasks().filter { ["report", "slides", "taxes"].contains($0.id) }
        let plan = TaskPlan(tasks: open, busy: busy, availability: awake, now: at("2026-03-09 14:30"), existing: first.placed)
        #expect(plan.kept.map(\.taskID) == ["read", "slides", "report"])  // over, or started (report 14:00–15:30)
        #expect(plan.removed.map(\.taskID) == ["taxes", "taxes", "taxes"])
        // Slides and report are covered by their kept blocks; taxes is planned afresh, into the
        // places its own old blocks held as well.
        #expect(plan.placed.map { "\($0.taskID) \(berlinClock($0.range.start))–\(berlinClock($0.range.end).suffix(5))" } == [
            "taxes 2026-03-09 20:30–22:15",
            "taxes 2026-03-10 07:00–08:45",
            "taxes 2026-03-10 09:00–10:30",
        ])
        #expect(plan.unplaced.isEmpty)
        #expect(plan.blocks.count == 6)
    }

    @Test func keptTimeCountsAgainstTheEstimate() throws {
        let busy = BusyTime(prayers)
        let earlier = TaskBlock(taskID: "essay", title: "Essay", range: try span("2026-03-09 08:00", "2026-03-09 09:00"))
        let plan = TaskPlan(tasks: [try task("essay", minutes: 90, due: "2026-03-09 18:00")], busy: busy, availability: awake,
                            now: at("2026-03-09 10:00"), existing: [earlier])
        #expect(plan.kept == [earlier])
        #expect(plan.placed.map(\.range) == [try span("2026-03-09 10:00", "2026-03-09 10:30")])
    }

    @Test func partsAreAsEvenAsTheGridAllows() throws {
        let standard = TaskPlan.Options.standard
        func minutes(_ values: TimeInterval...) -> [TimeInterval] { values.map { $0 * 60 } }
        #expect(TaskPlan.parts(of: 300 * 60, options: standard) == minutes(105, 105, 90))
        #expect(TaskPlan.parts(of: 120 * 60, options: standard) == minutes(120))
        #expect(TaskPlan.parts(of: 121 * 60, options: standard) == minutes(60, 61))
        #expect(TaskPlan.parts(of: 245 * 60, options: standard) == minutes(90, 75, 80))
        let whole = try TaskPlan.Options(maxBlockLength: nil)
        #expect(TaskPlan.parts(of: 600 * 60, options: whole) == minutes(600))
    }

    @Test func oneBlockTasksReportFragmentedTime() throws {
        // Two free hours before the deadline, but in pieces of 1 h 20 and 40 min; no splitting.
        let busy = BusyTime(try [
            event("a", "2026-03-09 07:00", "2026-03-09 08:00"), event("b", "2026-03-09 09:20", "2026-03-09 10:00"),
        ])
        let options = try TaskPlan.Options(maxBlockLength: nil)
        let plan = TaskPlan(tasks: [try task("deep", minutes: 120, due: "2026-03-09 10:40")], busy: busy, availability: awake,
                            now: at("2026-03-09 08:00"), options: options)
        #expect(plan.placed.isEmpty)
        #expect(plan.unplaced.map(\.reason) == [.noRoomBeforeDue(due: at("2026-03-09 10:40"), needed: 7200, free: 7200, longestBlock: 7200)])
        #expect(plan.unplaced[0].description
            == "task deep \"Deep\": needs one free stretch of 2 h before it is due at 2026-03-09T09:40:00Z; 2 h is free in allowed hours, but in shorter pieces")
    }

    @Test func undatedTasksStayWithinTheHorizon() throws {
        let everything = try event("busy", "2026-03-09 00:00", "2026-03-20 00:00")
        let options = try TaskPlan.Options(horizon: 86_400)
        let plan = TaskPlan(tasks: [try task("someday", minutes: 30, due: nil)], busy: BusyTime([everything]), availability: awake,
                            now: at("2026-03-09 08:00"), options: options)
        #expect(plan.unplaced.map(\.reason) == [.noRoomInHorizon(end: at("2026-03-10 08:00"), needed: 1800, free: 0, longestBlock: 1800)])
    }

    @Test func workingHoursLimitPlacement() throws {
        let office = Availability(timeZone: Zones.berlin, asleep: awake.asleep,
                                  working: [try WeeklyHours(start: try time("09:00"), end: try time("17:00"), days: .weekdays)])
        // Friday 2026-03-13 at 16:00: one working hour left this week, then Monday.
        let tasks = try [task("memo", minutes: 180, due: "2026-03-17 12:00"), task("note", minutes: 45, due: "2026-03-16 10:00")]
        let plan = TaskPlan(tasks: tasks, busy: BusyTime([]), availability: office, now: at("2026-03-13 16:00"))
        #expect(plan.placed.map { "\($0.taskID) \(berlinClock($0.range.start))" } == [
            "note 2026-03-13 16:00", "memo 2026-03-16 09:00", "memo 2026-03-16 10:45",
        ])
        #expect(plan.placed.map(\.range.duration) == [2700, 5400, 5400])
    }

    @Test func inputsAreChecked() throws {
        #expect(throws: SchedulingError.invalidEstimate(taskID: "t", seconds: 30)) {
            try PlannableTask(id: "t", title: "T", estimate: 30, created: at("2026-03-01 10:00"))
        }
        #expect(throws: SchedulingError.invalidPriority(taskID: "t", priority: 10)) {
            try PlannableTask(id: "t", title: "T", estimate: 600, priority: 10, created: at("2026-03-01 10:00"))
        }
        #expect(SchedulingError.invalidPriority(taskID: "t", priority: 10).description
            == "priority: task t has priority 10 (expected 0 = undefined, 1 = highest … 9 = lowest)")
        #expect(throws: SchedulingError.self) { try TaskPlan.Options(maxBlockLength: 100 * 60) }
        #expect(throws: SchedulingError.self) { try TaskPlan.Options(breakBetweenParts: -1) }
        #expect(throws: SchedulingError.self) { try TaskPlan.Options(horizon: 3600) }
        #expect(try TaskPlan.Options() == .standard)
    }
}
