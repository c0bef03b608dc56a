import Foundation
import PropertyBased
import Testing
@testable import Scheduling

/// Random weeks around Berlin's 2026 daylight-saving changes: events, prayers, sleep, maybe
/// working hours, tasks. Whatever they are, plans and suggestions keep their promises.
@Suite struct SchedulingPropertyTests {
    /// One generated situation, in minutes from the first local midnight of a fortnight.
    struct Week: Sendable, CustomStringConvertible {
        var spring: Bool
        var events: [(start: Int, minutes: Int)]
        var sleepStart: Int  // hour, 20…23
        var sleepEnd: Int  // hour, 4…8
        var working: Bool
        var nowMinutes: Int

        var origin: Date { at(spring ? "2026-03-22 00:00" : "2026-10-18 00:00") }
        var now: Date { origin.addingTimeInterval(Double(nowMinutes) * 60) }
        var window: TimeRange { TimeRange(uncheckedStart: origin, end: origin.addingTimeInterval(16 * 86_400)) }

        func availability() throws -> Availability {
            let sleep = try WeeklyHours(start: TimeOfDay(hour: sleepStart), end: TimeOfDay(hour: sleepEnd), days: .daily)
            let office = try WeeklyHours(start: TimeOfDay(hour: 8), end: TimeOfDay(hour: 18), days: .custom([1, 2, 3, 4, 6, 7]))
            return Availability(timeZone: Zones.berlin, asleep: [sleep], working: working ? [office] : [])
        }

        func busy() throws -> BusyTime {
            var blocks: [BusyBlock] = []
            for (index, event) in events.enumerated() {
                let start = origin.addingTimeInterval(Double(event.start) * 60)
                blocks.append(BusyBlock(try TimeRange(start: start, duration: Double(event.minutes) * 60), .event(id: "e\(index)", title: "")))
            }
            // Five prayers a day at fixed clock times, Jumu'ah (an hour) on Fridays.
            let calendar = LocalCalendar(timeZone: Zones.berlin)
            var day = calendar.day(containing: origin)
            for _ in 0..<16 {
                for (name, hour, minute) in [(PrayerName.fajr, 5, 10), (.dhuhr, 13, 5), (.asr, 16, 20), (.maghrib, 19, 10), (.isha, 20, 40)] {
                    let friday = day.isoWeekday == 5 && name == .dhuhr
                    let start = calendar.instant(on: day, hour: hour, minute: minute)
                    blocks.append(BusyBlock(try TimeRange(start: start, duration: friday ? 3600 : 1200), .prayer(friday ? .jumuah : name)))
                }
                day = calendar.day(after: day)
            }
            return BusyTime(blocks, window: window)
        }

        var description: String {
            "\(spring ? "March" : "October") now+\(nowMinutes)m sleep \(sleepStart)–\(sleepEnd) working \(working) events \(events)"
        }
    }

    static let weeks = zip(
        Gen.bool,
        zip(Gen.int(in: 0...(14 * 288 - 1)).map { $0 * 5 }, Gen.int(in: 1...48).map { $0 * 5 }).array(of: 0...80),
        Gen.int(in: 20...23), Gen.int(in: 4...8), Gen.bool, Gen.int(in: 0...(3 * 1440))
    ).map { spring, events, sleepStart, sleepEnd, working, now in
        Week(spring: spring, events: events.map { (start: $0.0, minutes: $0.1) }, sleepStart: sleepStart, sleepEnd: sleepEnd,
             working: working, nowMinutes: now)
    }

    /// Estimate minutes, due minutes from the origin (nil: undated), priority.
    static let taskLists = zip(
        Gen.int(in: 1...60).map { $0 * 5 }, Gen.int(in: 60...(14 * 1440)).optional, Gen.int(in: 0...9)
    ).array(of: 1...30)

    @Test func plannedBlocksKeepEveryPromise() async {
        await propertyCheck(count: 150, input: Self.weeks, Self.taskLists) { week, specs in
            let availability = try week.availability()
            let busy = try week.busy()
            let options = TaskPlan.Options.standard
            let tasks = try specs.enumerated().map { index, spec in
                try PlannableTask(id: "t\(index)", title: "", estimate: Double(spec.0) * 60,
                                  due: spec.1.map { week.origin.addingTimeInterval(Double($0) * 60) }, priority: spec.2,
                                  created: week.origin.addingTimeInterval(Double(index)))
            }
            let plan = TaskPlan(tasks: tasks, busy: busy, availability: availability, now: week.now, options: options)
            let byID = Dictionary(uniqueKeysWithValues: tasks.map { ($0.id, $0) })

            for (index, block) in plan.placed.enumerated() {
                let task = try #require(byID[block.taskID])
                #expect(block.range.start >= week.now, "\(block) starts before now")
                if let due = task.due { #expect(block.range.end <= due, "\(block) ends after its due date") }
                #expect(busy.isFree(block.range), "\(block) overlaps \(busy.blocks(overlapping: block.range))")
                #expect(availability.allows(block.range), "\(block) is outside allowed hours")
                #expect(block.range.duration <= (options.maxBlockLength ?? .infinity))
                if index + 1 < plan.placed.count {
                    #expect(block.range.end <= plan.placed[index + 1].range.start, "\(block) overlaps the next block")
                }
            }
            // Every task is placed whole or reported, never both, never dropped.
            let unplaced = Set(plan.unplaced.map(\.task.id))
            #expect(unplaced.count == plan.unplaced.count)
            for task in tasks {
                let time = plan.placed.filter { $0.taskID == task.id }.reduce(0) { $0 + $1.range.duration }
                if unplaced.contains(task.id) {
                    #expect(time == 0, "\(task.id) is both placed and reported")
                } else {
                    #expect(abs(time - task.estimate) < 0.001, "\(task.id) got \(time) s of \(task.estimate) s")
                }
            }
        }
    }

    @Test func replanningNeverMovesTheStartedAndStillKeepsThePromises() async {
        await propertyCheck(count: 60, input: Self.weeks, Self.taskLists, Gen.int(in: 1...(3 * 1440))) { week, specs, laterMinutes in
            let availability = try week.availability()
            let busy = try week.busy()
            let tasks = try specs.enumerated().map { index, spec in
                try PlannableTask(id: "t\(index)", title: "", estimate: Double(spec.0) * 60,
                                  due: spec.1.map { week.origin.addingTimeInterval(Double($0) * 60) }, priority: spec.2,
                                  created: week.origin)
            }
            let first = TaskPlan(tasks: tasks, busy: busy, availability: availability, now: week.now)
            let later = week.now.addingTimeInterval(Double(laterMinutes) * 60)
            let again = TaskPlan(tasks: tasks, busy: busy.adding(first.placed.map(\.busyBlock)), availability: availability,
                                 now: later, existing: first.placed)
            #expect(Set(again.kept) == Set(first.placed.filter { $0.range.start <= later }))
            #expect(Set(again.removed) == Set(first.placed.filter { $0.range.start > later }))
            let all = again.blocks
            for (index, block) in again.placed.enumerated() {
                #expect(block.range.start >= later)
                #expect(busy.isFree(block.range), "\(block) overlaps busy time")
                #expect(availability.allows(block.range))
                #expect(all.allSatisfy { $0 == block || !$0.range.overlaps(block.range) }, "\(block) overlaps another task block")
                if let due = tasks.first(where: { $0.id == block.taskID })?.due { #expect(block.range.end <= due) }
                _ = index
            }
        }
    }

    /// Blocks the person accepted from the two-week plan are pinned: no re-plan moves or removes
    /// them, wherever they lie; they count towards their to-do, and nothing new overlaps them.
    @Test func pinnedBlocksStayAndCount() async {
        await propertyCheck(count: 80, input: Self.weeks, Self.taskLists, Gen.int(in: 1...(3 * 1440))) { week, specs, laterMinutes in
            let availability = try week.availability()
            let busy = try week.busy()
            let tasks = try specs.enumerated().map { index, spec in
                try PlannableTask(id: "t\(index)", title: "", estimate: Double(spec.0) * 60,
                                  due: spec.1.map { week.origin.addingTimeInterval(Double($0) * 60) }, priority: spec.2,
                                  created: week.origin)
            }
            let first = TaskPlan(tasks: tasks, busy: busy, availability: availability, now: week.now)
            // Every other block is accepted (pinned); the rest stay "Plan my tasks" blocks.
            var pinned: [TaskBlock] = []
            var existing: [TaskBlock] = []
            for (index, block) in first.placed.enumerated() {
                if index % 2 == 0 { pinned.append(block) } else { existing.append(block) }
            }
            let later = week.now.addingTimeInterval(Double(laterMinutes) * 60)
            let again = TaskPlan(tasks: tasks, busy: busy.adding(first.placed.map(\.busyBlock)), availability: availability,
                                 now: later, existing: existing, pinned: pinned)
            let kept = Set(again.kept), removed = Set(again.removed)
            for block in pinned {
                #expect(kept.contains(block), "the pinned \(block) was not kept")
                #expect(!removed.contains(block), "the pinned \(block) was removed")
            }
            for block in again.placed {
                let overlapping = pinned.filter { $0.range.overlaps(block.range) }
                #expect(overlapping.isEmpty, "\(block) overlaps a pinned block")
                #expect(block.range.start >= later)
            }
            var total: [String: TimeInterval] = [:], pinnedTime: [String: TimeInterval] = [:]
            for block in again.blocks { total[block.taskID, default: 0] += block.range.duration }
            for block in pinned { pinnedTime[block.taskID, default: 0] += block.range.duration }
            for task in tasks {
                let limit = max(task.estimate, pinnedTime[task.id] ?? 0) + 0.001
                #expect((total[task.id] ?? 0) <= limit, "\(task.id) got \(total[task.id] ?? 0) s of \(task.estimate) s: pinned time was not counted")
            }
        }
    }

    /// Minutes from the origin and length of the event to move.
    static let moves = zip(Gen.int(in: 0...(10 * 96)).map { $0 * 15 }, Gen.int(in: 1...16).map { $0 * 15 }, Gen.int(in: 1...8))

    @Test func suggestionsNeverOverlapBusyTime() async {
        await propertyCheck(count: 150, input: Self.weeks, Self.moves) { week, move in
            let availability = try week.availability()
            let original = try TimeRange(start: week.origin.addingTimeInterval(Double(move.0) * 60), duration: Double(move.1) * 60)
            // The moved event is in the busy time already, at its old place.
            let busy = try week.busy().adding([BusyBlock(original, .event(id: "moving", title: ""))])
            let search = try FreeSlotSearch(availability: availability, count: move.2)
            let slots = search.suggestions(for: original, excluding: "moving", busy: busy, now: week.now)
            #expect(slots.count <= move.2)
            #expect(Set(slots.map(\.range)).count == slots.count, "a slot is offered twice")
            var lastDay = -1
            for slot in slots {
                #expect(slot.range.duration == original.duration)
                #expect(slot.range.start >= week.now, "\(slot) is in the past")
                #expect(busy.isFree(slot.range, excluding: "moving"), "\(slot) overlaps \(busy.blocks(overlapping: slot.range))")
                #expect(availability.allows(slot.range), "\(slot) is outside allowed hours")
                let day = switch slot.explanation.day { case .sameDay: 0; case .nextDay: 1; case .later(let days, _): days }
                #expect(day >= lastDay, "days out of order")
                lastDay = day
            }
        }
    }

    @Test func conflictsMatchAPlainScan() async {
        await propertyCheck(count: 150, input: Self.weeks, Self.moves) { week, move in
            let busy = try week.busy()
            let range = try TimeRange(start: week.origin.addingTimeInterval(Double(move.0) * 60), duration: Double(move.1) * 60)
            let id = "e\(move.2)"  // sometimes an existing event's own id
            let expected = busy.blocks.compactMap { block -> BusyOverlap? in
                guard block.referenceID != id, let shared = block.range.intersection(range) else { return nil }
                return BusyOverlap(block: block, overlap: shared)
            }
            #expect(busy.conflict(for: BusyBlock(range, .event(id: id, title: "")))?.overlaps ?? [] == expected)
        }
    }
}
