import Foundation
import PropertyBased
import Testing
@testable import Scheduling

/// Random goals, busy calendars, to-dos and zones, over fortnights that hold a daylight-saving
/// change (Europe/London and Europe/Berlin at the end of March or October): whatever they are,
/// the plan keeps every promise, and re-planning after accepting and rejecting keeps them too.
@Suite struct GoalPropertyTests {
    static let zones = ["Europe/London", "Europe/Berlin", "America/New_York", "Asia/Riyadh"].compactMap(TimeZone.init(identifier:))

    struct GoalSpec: Sendable, CustomStringConvertible {
        var category: Int, minutes: Int, weekly: Bool, count: Int, fromHalfHour: Int, windowHours: Int, daysMask: Int, gapHours: Int, part: Int

        func goal(_ index: Int) -> Goal? {
            let from = fromHalfHour / 2, fromMinute = fromHalfHour % 2 * 30
            let to = (from + windowHours) % 24
            let days = (1...7).filter { daysMask & (1 << ($0 - 1)) != 0 }.map { DaysOfWeek.codes[$0 - 1] }
            return try? Goal(id: "g\(index)", title: "Goal \(index)", category: GoalCategory.allCases[category], minutesPerSession: minutes,
                             perWeek: weekly ? count : nil, perDay: weekly ? nil : count,
                             from: String(format: "%02d:%02d", from, fromMinute), to: String(format: "%02d:%02d", to, fromMinute),
                             days: days, minimumGapMinutes: gapHours * 60, preferredTime: part < 4 ? DayPart.allCases[part] : nil)
        }

        var description: String {
            "\(GoalCategory.allCases[category]) \(minutes)m \(weekly ? "perWeek" : "perDay") \(count) from \(fromHalfHour)/2h +\(windowHours)h days \(daysMask) gap \(gapHours)h"
        }
    }

    static let goalSpecs = zip(
        Gen.int(in: 0...3), Gen.int(in: 1...12).map { $0 * 15 }, Gen.bool, Gen.int(in: 1...4), Gen.int(in: 0...47),
        Gen.int(in: 1...14), Gen.int(in: 1...127), Gen.int(in: 0...30), Gen.int(in: 0...4)
    ).map { GoalSpec(category: $0, minutes: $1, weekly: $2, count: $3, fromHalfHour: $4, windowHours: $5, daysMask: $6, gapHours: $7, part: $8) }

    struct Situation: Sendable, CustomStringConvertible {
        var zone: Int, spring: Bool, events: [(start: Int, minutes: Int)], nowMinutes: Int, wake: Int, sleep: Int, work: Bool, light: Bool

        var timeZone: TimeZone { GoalPropertyTests.zones[zone] }
        /// A Monday a week before the change (2026-03-29 and 2026-10-25 in Europe).
        var origin: Date { at(spring ? "2026-03-23 00:00" : "2026-10-19 00:00", timeZone) }
        var now: Date { origin.addingTimeInterval(Double(nowMinutes) * 60) }

        func preferences() throws -> PlannerPreferences {
            try PlannerPreferences(wake: TimeOfDay(hour: wake), sleep: TimeOfDay(hour: sleep),
                                   work: work ? WeeklyHours(start: TimeOfDay(hour: 9), end: TimeOfDay(hour: 17), days: .weekdays) : nil,
                                   exerciseTime: .morning, focusTime: .evening, intensity: light ? .light : .full)
        }

        /// Events, then five prayers a day at fixed clock times (Jumu'ah, an hour, on Fridays).
        func busy() throws -> BusyTime {
            var blocks = try events.enumerated().map { index, event in
                BusyBlock(try TimeRange(start: origin.addingTimeInterval(Double(event.start) * 60), duration: Double(event.minutes) * 60),
                          .event(id: "e\(index)", title: ""))
            }
            let calendar = LocalCalendar(timeZone: timeZone)
            var day = calendar.day(containing: origin)
            for _ in 0..<20 {
                for (name, hour, minute) in [(PrayerName.fajr, 5, 10), (.dhuhr, 13, 5), (.asr, 16, 20), (.maghrib, 19, 10), (.isha, 20, 40)] {
                    let friday = day.isoWeekday == 5 && name == .dhuhr
                    blocks.append(BusyBlock(try TimeRange(start: calendar.instant(on: day, hour: hour, minute: minute), duration: friday ? 3600 : 1200),
                                            .prayer(friday ? .jumuah : name)))
                }
                day = calendar.day(after: day)
            }
            return BusyTime(blocks)
        }

        var description: String {
            "\(timeZone.identifier) \(spring ? "March" : "October") now+\(nowMinutes)m wake \(wake) sleep \(sleep) work \(work) light \(light) events \(events)"
        }
    }

    static let situations = zip(
        Gen.int(in: 0...3), Gen.bool,
        zip(Gen.int(in: 0...(16 * 96)).map { $0 * 15 }, Gen.int(in: 1...16).map { $0 * 15 }).array(of: 0...60),
        Gen.int(in: 0...(3 * 1440)), Gen.int(in: 4...8), Gen.int(in: 20...23), Gen.bool, Gen.bool
    ).map { zone, spring, events, now, wake, sleep, work, light in
        Situation(zone: zone, spring: spring, events: events.map { (start: $0.0, minutes: $0.1) }, nowMinutes: now, wake: wake,
                  sleep: sleep, work: work, light: light)
    }

    /// Estimate (minutes), due (minutes from the origin, or none), priority.
    static let taskSpecs = zip(Gen.int(in: 1...16).map { $0 * 15 }, Gen.int(in: 60...(16 * 1440)).optional, Gen.int(in: 0...9)).array(of: 0...6)

    func tasks(_ specs: [(Int, Int?, Int)], _ situation: Situation) throws -> [PlannableTask] {
        try specs.enumerated().map { index, spec in
            try PlannableTask(id: "t\(index)", title: "Task \(index)", estimate: Double(spec.0) * 60,
                              due: spec.1.map { situation.origin.addingTimeInterval(Double($0) * 60) }, priority: spec.2,
                              created: situation.origin.addingTimeInterval(Double(index)))
        }
    }

    // MARK: The promises

    /// Checks every rule the plan promises; returns nothing, records issues.
    func checkPromises(_ plan: TwoWeekPlan, _ input: TwoWeekPlan.Input, _ situation: Situation) {
        let calendar = LocalCalendar(timeZone: input.timeZone)
        let proposals = plan.proposals
        guard let horizon = plan.horizon else { #expect(proposals.isEmpty); return }
        let span = TimeRange(uncheckedStart: horizon.start.addingTimeInterval(-8 * 86_400), end: horizon.end.addingTimeInterval(86_400))
        let night = input.preferences.night.occurrences(in: span, timeZone: input.timeZone)
        let work = input.preferences.work?.occurrences(in: span, timeZone: input.timeZone) ?? []
        let light = input.preferences.intensity == .light
        let pad: TimeInterval = light ? 900 : 0

        for (index, proposal) in proposals.enumerated() {
            let range = proposal.range
            #expect(range.start >= input.now && range.start < horizon.end, "\(proposal) starts outside the horizon")
            #expect(calendar.alignDown(range.start, step: 900) == range.start, "\(proposal) is off the 15-minute grid")
            let padded = TimeRange(uncheckedStart: range.start.addingTimeInterval(-pad), end: range.end.addingTimeInterval(pad))
            #expect(input.busy.isFree(padded), "\(proposal) overlaps \(input.busy.blocks(overlapping: padded))")
            #expect(!input.accepted.contains { $0.range.overlaps(padded) }, "\(proposal) overlaps an accepted item")
            #expect(!input.rejected.contains { $0.subject == proposal.subject && $0.range.overlaps(range) }, "\(proposal) was rejected before")
            if index + 1 < proposals.count {
                #expect(range.end.addingTimeInterval(pad) <= proposals[index + 1].range.start, "\(proposal) overlaps \(proposals[index + 1])")
            }
            switch proposal.subject {
            case .goal(let id):
                guard let goal = input.goals.first(where: { $0.id == id }) else { Issue.record("unknown goal \(id)"); continue }
                #expect(goal.window.occurrences(in: range, timeZone: input.timeZone).contains { $0.contains(range) },
                        "\(proposal) is outside the window \(goal.window)")
                #expect(range.duration == goal.sessionLength)
                if goal.category != .sleep { #expect(!night.contains { $0.overlaps(range) }, "\(proposal) is in the night") }
                if goal.category != .focus { #expect(!work.contains { $0.overlaps(range) }, "\(proposal) is in work hours") }
            case .task(let id):
                guard let task = input.tasks.first(where: { $0.id == id }) else { Issue.record("unknown task \(id)"); continue }
                #expect(range.end <= min(task.due ?? horizon.end, horizon.end), "\(proposal) ends after its due date")
                #expect(!night.contains { $0.overlaps(range) }, "\(proposal) is in the night")
                if input.preferences.work != nil { #expect(work.contains { $0.contains(range) }, "\(proposal) is outside work hours") }
            case .windDown:
                Issue.record("the planner never proposes a wind-down block itself: \(proposal)")
            }
        }

        // Counts per day or ISO week, and gaps, with accepted sessions counted.
        var iso = Calendar(identifier: .iso8601)
        iso.timeZone = input.timeZone
        for goal in input.goals {
            let subject = ProposalSubject.goal(id: goal.id)
            let sessions = (input.accepted.filter { $0.subject == subject }.map(\.range) + proposals.filter { $0.subject == subject }.map(\.range))
                .sorted { $0.start < $1.start }
            let occurrences = goal.window.occurrences(in: span, timeZone: input.timeZone)
            var perPeriod: [String: Int] = [:]
            for session in sessions {
                let opening = occurrences.first { $0.contains(session.start) }?.start ?? session.start
                let c = iso.dateComponents([.yearForWeekOfYear, .weekOfYear, .year, .month, .day], from: opening)
                let key: String
                if case .perWeek = goal.target { key = "\(c.yearForWeekOfYear!)-W\(c.weekOfYear!)" } else { key = "\(c.year!)-\(c.month!)-\(c.day!)" }
                perPeriod[key, default: 0] += 1
            }
            for (period, count) in perPeriod { #expect(count <= goal.target.count, "goal \(goal.id) has \(count) sessions in \(period)") }
            for (a, b) in zip(sessions, sessions.dropFirst()) {
                #expect(b.start >= a.end.addingTimeInterval(goal.minimumGap), "goal \(goal.id): \(a) and \(b) are closer than the gap")
            }
        }

        // Each to-do is placed whole (its estimate less accepted time) or reported, never both.
        let unplaced = Set(plan.unplacedTasks.map(\.task.id))
        for task in input.tasks {
            let subject = ProposalSubject.task(id: task.id)
            let done = input.accepted.filter { $0.subject == subject }.reduce(0) { $0 + $1.range.duration }
            let time = proposals.filter { $0.subject == subject }.reduce(0) { $0 + $1.range.duration }
            if unplaced.contains(task.id) {
                #expect(time == 0, "\(task.id) is both placed and reported")
            } else {
                #expect(abs(time - max(0, task.estimate - done)) < 0.001, "\(task.id) got \(time) s of \(task.estimate - done) s")
            }
        }

        if light {
            var perDay: [Date: Int] = [:]
            for item in input.accepted.map(\.range) + proposals.map(\.range) where horizon.contains(item.start) || item.start < horizon.end && item.start >= calendar.day(containing: input.now).start {
                perDay[calendar.day(containing: item.start).start, default: 0] += 1
            }
            #expect(perDay.values.allSatisfy { $0 <= TwoWeekPlan.lightDailyLimit }, "more than \(TwoWeekPlan.lightDailyLimit) items on a day: \(perDay.values.sorted())")
        }
    }

    @Test func everyPlanKeepsEveryPromise() async {
        await propertyCheck(count: 120, input: Self.situations, Self.goalSpecs.array(of: 1...4), Self.taskSpecs) { situation, specs, taskSpecs in
            let goals = specs.enumerated().compactMap { $1.goal($0) }
            let input = try TwoWeekPlan.Input(now: situation.now, timeZone: situation.timeZone, goals: goals, tasks: tasks(taskSpecs, situation),
                                              busy: situation.busy(), preferences: situation.preferences())
            let plan = TwoWeekPlan(input)
            checkPromises(plan, input, situation)
            // Deterministic, whatever the order of goals and to-dos.
            let again = TwoWeekPlan(try TwoWeekPlan.Input(now: input.now, timeZone: input.timeZone, goals: goals.reversed(), tasks: input.tasks.reversed(),
                                                          busy: input.busy, preferences: input.preferences))
            #expect(again.proposals == plan.proposals)
        }
    }

    @Test func replanningAfterAcceptingAndRejectingKeepsEveryPromise() async {
        await propertyCheck(count: 80, input: Self.situations, Self.goalSpecs.array(of: 1...4), Self.taskSpecs,
                            zip(Gen.int(in: 0...Int(UInt16.max)), Gen.int(in: 0...Int(UInt16.max)), Gen.int(in: 0...(2 * 1440)))) { situation, specs, taskSpecs, choice in
            let goals = specs.enumerated().compactMap { $1.goal($0) }
            let first = try TwoWeekPlan.Input(now: situation.now, timeZone: situation.timeZone, goals: goals, tasks: tasks(taskSpecs, situation),
                                              busy: situation.busy(), preferences: situation.preferences())
            let plan = TwoWeekPlan(first)
            // Accept and reject some goal proposals (to-dos are accepted whole or not at all).
            var accepted: [ItemPlacement] = [], rejected: [ItemPlacement] = []
            for (index, proposal) in plan.proposals.enumerated() {
                let bit = 1 << (index % 16)
                if case .task = proposal.subject {
                    if choice.0 & 1 != 0 { accepted.append(proposal.placement) }
                } else if choice.0 & bit != 0 {
                    accepted.append(proposal.placement)
                } else if choice.1 & bit != 0 {
                    rejected.append(proposal.placement)
                }
            }
            let later = situation.now.addingTimeInterval(Double(choice.2) * 60)
            let second = try TwoWeekPlan.Input(now: later, timeZone: situation.timeZone, goals: goals, tasks: first.tasks, busy: first.busy,
                                               accepted: accepted, rejected: rejected, preferences: first.preferences)
            let again = TwoWeekPlan(second)
            checkPromises(again, second, situation)
            // Accepted items are inputs, never outputs.
            #expect(!again.proposals.contains { proposal in accepted.contains { $0.range.overlaps(proposal.range) } })
        }
    }

    // MARK: Learning

    /// Every grid start where a session of `goal` could go, by the rules alone, in each window
    /// occurrence: within the horizon, free of busy time and the night.
    func freeStarts(_ goal: Goal, _ input: TwoWeekPlan.Input, horizon: TimeRange) -> [(occurrence: TimeRange, starts: [Date])] {
        let calendar = LocalCalendar(timeZone: input.timeZone)
        let span = TimeRange(uncheckedStart: horizon.start.addingTimeInterval(-86_400), end: horizon.end)
        let night = input.preferences.night.occurrences(in: span.shifted(by: 0), timeZone: input.timeZone)
            + input.preferences.night.occurrences(in: TimeRange(uncheckedStart: horizon.end, end: horizon.end.addingTimeInterval(86_400)), timeZone: input.timeZone)
        return goal.window.occurrences(in: span, timeZone: input.timeZone).map { occurrence in
            var starts: [Date] = []
            var start = calendar.alignUp(max(occurrence.start, horizon.start), step: 900)
            while start.addingTimeInterval(goal.sessionLength) <= occurrence.end, start < horizon.end {
                let range = TimeRange(uncheckedStart: start, end: start.addingTimeInterval(goal.sessionLength))
                if input.busy.isFree(range), !night.contains(where: { $0.overlaps(range) }) { starts.append(start) }
                start.addTimeInterval(900)
            }
            return (occurrence, starts)
        }
    }

    /// One daily focus goal, no gap: each day's session is free to go anywhere in its window.
    static let dailyGoals = zip(Gen.int(in: 1...6).map { $0 * 15 }, Gen.int(in: 0...47), Gen.int(in: 2...14), Gen.int(in: 0...4))
        .map { GoalSpec(category: 1, minutes: $0, weekly: false, count: 1, fromHalfHour: $1, windowHours: $2, daysMask: 127, gapHours: 0, part: $3) }

    @Test func aRejectedHourIsAvoidedWheneverTheDayHasAnotherFreeStart() async {
        await propertyCheck(count: 120, input: Self.situations, Self.dailyGoals, Gen.int(in: 0...(14 * 24 - 1))) { situation, spec, hourOffset in
            guard let goal = spec.goal(0) else { return }
            var learned = LearnedPreferences()
            let rejectedAt = situation.origin.addingTimeInterval(Double(hourOffset) * 3600)
            learned.record(.rejected(rejectedAt), goalID: goal.id, timeZone: situation.timeZone)
            let rejectedHour = HourOfWeek(rejectedAt, timeZone: situation.timeZone)
            var situation = situation
            situation.light = false
            let input = try TwoWeekPlan.Input(now: situation.now, timeZone: situation.timeZone, goals: [goal], busy: situation.busy(),
                                              preferences: PlannerPreferences(wake: TimeOfDay(hour: situation.wake), sleep: TimeOfDay(hour: situation.sleep)),
                                              learned: learned)
            let plan = TwoWeekPlan(input)
            guard let horizon = plan.horizon else { return }
            for (occurrence, starts) in freeStarts(goal, input, horizon: horizon) {
                guard let proposal = plan.proposals.first(where: { occurrence.contains($0.range) }) else { continue }
                let hour = HourOfWeek(proposal.range.start, timeZone: situation.timeZone)
                let elsewhere = starts.contains { HourOfWeek($0, timeZone: situation.timeZone) != rejectedHour }
                #expect(hour != rejectedHour || !elsewhere, "\(proposal) is in the rejected hour \(rejectedHour.index) though the day had other room")
            }
        }
    }

    @Test func aMovedToHourIsChosenWheneverItIsFree() async {
        await propertyCheck(count: 120, input: Self.situations, Self.dailyGoals, Gen.int(in: 0...(14 * 24 - 1))) { situation, spec, hourOffset in
            guard let goal = spec.goal(0) else { return }
            var learned = LearnedPreferences()
            let movedTo = situation.origin.addingTimeInterval(Double(hourOffset) * 3600 + 2 * 86_400)
            learned.record(.moved(from: movedTo.addingTimeInterval(-2 * 86_400), to: movedTo), goalID: goal.id, timeZone: situation.timeZone)
            let target = HourOfWeek(movedTo, timeZone: situation.timeZone)
            let input = try TwoWeekPlan.Input(now: situation.now, timeZone: situation.timeZone, goals: [goal], busy: situation.busy(),
                                              preferences: PlannerPreferences(wake: TimeOfDay(hour: situation.wake), sleep: TimeOfDay(hour: situation.sleep)),
                                              learned: learned)
            let plan = TwoWeekPlan(input)
            guard let horizon = plan.horizon else { return }
            for (occurrence, starts) in freeStarts(goal, input, horizon: horizon)
            where starts.contains(where: { HourOfWeek($0, timeZone: situation.timeZone) == target }) {
                let proposal = plan.proposals.first { occurrence.contains($0.range) }
                #expect(proposal.map { HourOfWeek($0.range.start, timeZone: situation.timeZone) } == target,
                        "the window \(occurrence) had room at the moved-to hour \(target.index) but got \(proposal.map(\.description) ?? "nothing")")
                if let proposal { #expect(proposal.reason.factors.contains { if case .learned(.movedHere, _, _) = $0 { true } else { false } }) }
            }
        }
    }
}
