import Foundation
import JadwalCore
import JadwalTestSupport
import Scheduling
import Storage
import Testing

/// The plan's jobs in process, on a real store: the weekly plan (when it is queued, that it plans
/// once a week and says so), the re-plan a conflict check queues when an event takes a waiting
/// proposal's time, and the to-dos the last plan could not place.
@Suite("The weekly plan and re-planning on every engine")
struct PlanJobsServiceTests {
    typealias Person = GoalsServiceTests.Person

    static func at(_ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0) -> Date {
        GoalsServiceTests.riyadh.date(from: DateComponents(year: 2026, month: month, day: day, hour: hour, minute: minute)) ?? .distantPast
    }

    static func queued(_ person: Person, _ kind: JobKind) async throws -> [Job] {
        try await person.store.read { tx in try await tx.jobs(state: .queued, limit: 1000) }.filter { $0.kind == kind }
    }

    static func notices(_ person: Person) async throws -> [AccountNotification] {
        let account = person.account
        return try await person.store.read { tx in
            try await tx.notifications(accountID: account.id, deliveredBy: .distantFuture, beforeSequence: nil, unreadOnly: false, limit: 100)
        }
    }

    static func waiting(_ person: Person) async throws -> [PlanItem] {
        try await person.planning.items(account: person.account, states: [.proposed])
    }

    /// The conflict check a write queues, run as the worker runs it.
    static func check(_ person: Person, _ name: String, in slug: String = "personal") async throws {
        let calendar = try await person.calendar(slug)
        let check = ConflictCheck(store: person.store, clock: person.clock.clock, random: .system)
        _ = try await check.runCoalesced(ConflictCheck.Request(accountID: person.account.id, calendarID: calendar.id, objectName: name, source: .api))
    }

    @Test("an event over a waiting proposal queues a re-plan that moves only that proposal to a free slot, never an accepted one, and says so once",
          arguments: TestEnvironment.engines)
    func replan(engine: TestEngine) async throws {
        let person = try await Person(engine: engine)
        let account = person.account
        let planning = person.planning
        let goal = try await person.goals.create(GoalsServiceTests.exercise, account: account)
        let plan = try await planning.propose(account: account)
        #expect(plan.proposals.count == 6)
        let accepted = try await planning.accept(id: plan.proposals[0].id, account: account)
        let broken = plan.proposals[2]
        let others = plan.proposals.dropFirst().filter { $0.id != broken.id }.map(\.id)

        // An event that touches no proposal queues nothing.
        let evening = Self.at(9, 22, 20)
        try await person.putEvent("dinner.ics", start: evening, minutes: 90)
        try await Self.check(person, "dinner.ics")
        #expect(try await Self.queued(person, TwoWeekPlanning.replanJob).isEmpty, "dinner overlaps no proposal")

        // One over a waiting proposal, and one over the accepted session.
        try await person.putEvent("meeting.ics", start: broken.range.start.addingTimeInterval(15 * 60), minutes: 60)
        try await person.putEvent("call.ics", start: accepted.range.start, minutes: 30)
        try await Self.check(person, "meeting.ics")
        try await Self.check(person, "call.ics")
        let jobs = try await Self.queued(person, TwoWeekPlanning.replanJob)
        #expect(jobs.count == 1, "one re-plan waits, however many writes broke the plan")
        #expect(try TwoWeekPlanning.account(of: try #require(jobs.first)) == account.id)

        // The re-plan runs during a prayer: its notice waits for the prayer to end.
        let busy = try await person.store.read { tx in
            try await AccountBusyTime().blocks(account: account, in: try TimeRange(start: GoalsServiceTests.t0, duration: 86_400), tx: tx)
        }
        let prayer = try #require(busy.first { if case .prayer = $0.kind { return true } else { return false } })
        person.clock.move(to: prayer.range.start.addingTimeInterval(60))
        let replan = try #require(try await planning.replan(accountID: account.id))
        #expect(replan.replacements.map(\.broken.id) == [broken.id], "only the proposal under the meeting is broken")
        let replacement = try #require(replan.replacements.first?.replacement)
        #expect(replacement.goalID == goal.id && replacement.state == .proposed && replacement.range.duration == 45 * 60)
        #expect((360...(540 - 45)).contains(GoalsServiceTests.minutes(replacement.range.start)), "inside 06:00–09:00: \(replacement.range)")
        let busyNow = try await person.busy()
        #expect(!busyNow.contains { $0.start < replacement.range.end && replacement.range.start < $0.end }, "\(replacement.range) is free")

        let after = try await Self.waiting(person)
        #expect(Set(after.map(\.id)) == Set(others + [replacement.id]), "the other proposals stay as they were")
        #expect(!after.contains { $0.id == broken.id })
        let stillAccepted = try await planning.items(account: account, states: [.accepted])
        #expect(stillAccepted == [accepted], "the accepted session is never moved, even with an event over it")

        let notice = try #require(replan.notification)
        #expect(notice.kind == .progress && notice.reasonKey.hasPrefix("plan-replan:") && !notice.urgent)
        #expect(notice.title == "Your plan changed: an event took a proposal's time")
        #expect(notice.body.hasPrefix("Exercise on ") && notice.body.contains("is taken now; proposed"), "\(notice.body)")
        #expect(notice.deliverAfter == prayer.range.end, "held by the prayer, as quiet hours hold every notice that is not urgent")
        #expect(notice.links["url"] == "/plan#plan")

        // Nothing else is broken: a second run changes nothing and says nothing.
        #expect(try await planning.replan(accountID: account.id) == nil)
        #expect(try await Self.notices(person).filter { $0.reasonKey.hasPrefix("plan-replan:") }.count == 1)
        let last = try #require(try await planning.lastPlan(account: account))
        #expect(last.run.trigger == .replan && last.run.plannedAt == person.clock.now)
        try await person.store.shutdown()
    }

    @Test("a proposal with no other free time is dropped and the notice says no other time fits", arguments: TestEnvironment.engines)
    func replanWithoutRoom(engine: TestEngine) async throws {
        let person = try await Person(engine: engine)
        let account = person.account
        // Once a week, on Tuesdays 21:00–22:00 only.
        let once = GoalDraft(title: "Swim", minutes: 60, perWeek: 1, window: .init(from: "21:00", to: "22:00"), days: ["TU"])
        _ = try await person.goals.create(once, account: account)
        let plan = try await person.planning.propose(account: account)
        let tuesday = try #require(plan.proposals.first { $0.range.start < Self.at(9, 23, 0) })
        try await person.putEvent("early.ics", start: tuesday.range.start, minutes: 60)
        try await Self.check(person, "early.ics")
        #expect(try await Self.queued(person, TwoWeekPlanning.replanJob).count == 1)
        let replan = try #require(try await person.planning.replan(accountID: account.id))
        #expect(replan.replacements.count == 1 && replan.replacements[0].replacement == nil)
        #expect(try await Self.waiting(person).map(\.id) == plan.proposals.filter { $0.id != tuesday.id }.map(\.id), "next week's stays")
        #expect(replan.notification?.body.hasSuffix("is taken now, and no other time fits.") == true, "\(replan.notification?.body ?? "")")
        try await person.store.shutdown()
    }

    @Test("the weekly plan is queued for the evening before the week begins, planned once a week with one notice, and stops without goals",
          arguments: TestEnvironment.engines)
    func weekly(engine: TestEngine) async throws {
        let person = try await Person(engine: engine, language: .arabic)
        let account = person.account
        let planning = person.planning
        #expect(try await Self.queued(person, TwoWeekPlanning.weeklyJob).isEmpty, "nothing before the first goal")

        let goal = try await person.goals.create(GoalsServiceTests.exercise, account: account)
        var jobs = try await Self.queued(person, TwoWeekPlanning.weeklyJob)
        #expect(jobs.map(\.runAt) == [Self.at(9, 27, 17)], "no work hours: the week begins on Monday, so Sunday 17:00")

        // Work from Sunday to Thursday: the week begins on Sunday, so Saturday 17:00.
        let work = HoursDraft(start: "08:00", end: "16:00", days: .numbers([7, 1, 2, 3, 4]))
        _ = try await planning.saveAnswers(PlannerAnswers(work: work), account: account)
        jobs = try await Self.queued(person, TwoWeekPlanning.weeklyJob)
        #expect(jobs.map(\.runAt) == [Self.at(9, 26, 17)], "one job, moved to Saturday")

        person.clock.move(to: Self.at(9, 26, 17))
        let run = try await planning.runWeekly(accountID: account.id)
        let plan = try #require(run.plan)
        #expect(!plan.proposals.isEmpty && plan.proposals.allSatisfy { $0.goalID == goal.id })
        let notice = try #require(run.notification)
        #expect(notice.title == "خطتك للأسبوعين القادمين جاهزة" && notice.kind == .progress && !notice.urgent, "in the person's language")
        #expect(notice.body.contains("اقتراحات") || notice.body.contains("اقتراحًا"), "\(notice.body)")
        #expect(run.next == Self.at(10, 3, 17), "next Saturday")
        #expect(try await Self.queued(person, TwoWeekPlanning.weeklyJob).map(\.runAt) == [Self.at(10, 3, 17)])
        let last = try #require(try await planning.lastPlan(account: account))
        #expect(last.run.trigger == .weekly && last.run.weeklyAt == Self.at(9, 26, 17))

        // The job runs again at once (a worker died after the commit): once a week it is.
        person.clock.move(to: Self.at(9, 26, 17, 5))
        let again = try await planning.runWeekly(accountID: account.id)
        #expect(again.plan == nil && again.notification == nil && again.next == Self.at(10, 3, 17))
        #expect(try await Self.notices(person).filter { $0.reasonKey.hasPrefix("plan-weekly:") }.count == 1)

        // The server was down over the next Saturday: the sweep queues it at once, not a week later.
        person.clock.move(to: Self.at(10, 5, 9))
        #expect(try await planning.sweepWeekly() == 1)
        #expect(try await Self.queued(person, TwoWeekPlanning.weeklyJob).map(\.runAt) == [Self.at(10, 5, 9)])
        #expect(try await Self.queued(person, TwoWeekPlanning.weeklySweepJob).map(\.runAt) == [Self.at(10, 6, 9)])

        // The planner switched off: the week passes with no plan and no notice.
        _ = try await planning.saveAnswers(PlannerAnswers(work: work, intensity: "off"), account: account)
        let off = try await planning.runWeekly(accountID: account.id)
        #expect(off.plan == nil && off.notification == nil && off.next == Self.at(10, 10, 17))

        // Without goals there is no weekly plan, and the sweep leaves the account alone.
        try await person.goals.delete(id: goal.id, account: account)
        person.clock.move(to: Self.at(10, 10, 17))
        let none = try await planning.runWeekly(accountID: account.id)
        #expect(none.plan == nil && none.next == nil)
        #expect(try await planning.sweepWeekly() == 0)
        try await person.store.shutdown()
    }

    @Test("the last plan keeps the to-dos it could not place, with why, while they are open", arguments: TestEnvironment.engines)
    func unplaced(engine: TestEngine) async throws {
        let person = try await Person(engine: engine)
        let account = person.account
        #expect(try await person.planning.lastPlan(account: account) == nil, "no plan yet")
        // Three hours of work due in one hour: no room.
        try await TrackerServiceTests.putTask(person, uid: "report", title: "Report", minutes: 180,
                                              due: GoalsServiceTests.t0.addingTimeInterval(3600))
        let plan = try await person.planning.propose(account: account)
        #expect(plan.unplacedTasks.map(\.task.id) == ["report"])
        let last = try #require(try await person.planning.lastPlan(account: account))
        #expect(last.run.trigger == .asked && last.run.plannedAt == GoalsServiceTests.t0 && last.run.weeklyAt == nil)
        let stored = try #require(last.unplacedTasks.first)
        #expect(stored.taskID == "report" && stored.title == "Report")
        guard case .noRoomBeforeDue(let due, let needed, _, _) = stored.reason else {
            Issue.record("not 'no room before due': \(stored.reason)")
            return
        }
        #expect(due == GoalsServiceTests.t0.addingTimeInterval(3600) && needed == 180 * 60)

        // Deleted (or done): no longer listed, though the plan still has it.
        try await person.writes.delete(name: "report.ics", in: try await person.calendar(DefaultCalendars.tasksSlug), source: .api)
        let later = try #require(try await person.planning.lastPlan(account: account))
        #expect(later.unplacedTasks.isEmpty && later.run.unplacedTasks.count == 1)
        try await person.store.shutdown()
    }
}

private extension TestClock {
    func move(to date: Date) { advance(by: date.timeIntervalSince(now)) }
}
