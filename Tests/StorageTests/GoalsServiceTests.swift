import Foundation
import JadwalCore
import JadwalTestSupport
import Storage
import Testing

/// Goals, the two-week plan and the tracker in process, on a real store: the rules and
/// transactions of `Goals`, `TwoWeekPlanning` and `Tracker`, without HTTP.
@Suite("Goals, the two-week plan and the tracker on every engine")
struct GoalsServiceTests {
    /// Monday 21 September 2026, 17:13 in Riyadh (UTC+3 all year).
    static let t0 = Date(timeIntervalSince1970: 1_790_000_000)
    static let exercise = GoalDraft(title: "Exercise", minutes: 45, perWeek: 3, window: .init(from: "06:00", to: "09:00"))

    /// A person in Riyadh who prays there.
    struct Person: Sendable {
        let store: SQLStore
        let clock: TestClock
        let account: Account
        let goals: Goals
        let planning: TwoWeekPlanning
        let tracker: Tracker
        let writes: CalendarWrites

        init(engine: TestEngine, language: Language = .english) async throws {
            store = try await TestEnvironment.freshStore(engine)
            clock = TestClock(GoalsServiceTests.t0)
            let account = Account(
                id: UUID(), email: try EmailAddress("goals@example.com"), name: "Huda", timeZone: "Asia/Riyadh", language: language, createdAt: GoalsServiceTests.t0)
            self.account = account
            try await store.transaction { [clock] tx in
                try await tx.insertAccountWithDefaultCalendars(account, now: clock.now, random: .system)
                try await tx.savePrayerSettings(
                    PrayerSettings(latitude: 24.6877, longitude: 46.7219, timeZone: "Asia/Riyadh", method: .ummAlQura), accountID: account.id, at: clock.now)
            }
            goals = Goals(store: store, clock: clock.clock, random: .system)
            planning = TwoWeekPlanning(store: store, clock: clock.clock, random: .system)
            tracker = Tracker(store: store, clock: clock.clock, random: .system)
            writes = CalendarWrites(store: store, clock: clock.clock, random: .system)
        }

        func calendar(_ slug: String) async throws -> CalendarCollection {
            let account = account
            return try #require(try await store.read { tx in try await tx.calendar(accountID: account.id, slug: slug) })
        }

        /// An event in `slug` from `start` (UTC) for `minutes`.
        func putEvent(_ name: String, uid: String? = nil, in slug: String = "personal", start: Date, minutes: Int) async throws {
            let text = [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Jadwal Tests//EN", "BEGIN:VEVENT", "UID:\(uid ?? name)", "DTSTAMP:20260901T000000Z",
                "DTSTART:\(GoalsServiceTests.utc(start))", "DTEND:\(GoalsServiceTests.utc(start.addingTimeInterval(TimeInterval(minutes * 60))))",
                "SUMMARY:Event \(name)", "END:VEVENT", "END:VCALENDAR",
            ].joined(separator: "\r\n") + "\r\n"
            _ = try await writes.put(try CalendarObjectContent(text: text), name: name, in: try await calendar(slug), source: .api)
        }

        /// Everything busy over the fortnight, read as the planner reads it.
        func busy() async throws -> [(start: Date, end: Date)] {
            let account = account
            let now = clock.now
            return try await store.read { tx in
                try await AccountBusyTime().blocks(
                    account: account, in: try .init(start: now, duration: 15 * 86_400), tx: tx
                ).map { ($0.range.start, $0.range.end) }
            }
        }
    }

    static func utc(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .gmt
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }

    static var riyadh: Foundation.Calendar {
        var calendar = Foundation.Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Asia/Riyadh") ?? .gmt
        return calendar
    }

    /// The learned model's hour of the week (Monday 00:00 is 0) of `date` in Riyadh.
    static func hourOfWeek(_ date: Date) -> Int {
        let parts = riyadh.dateComponents([.weekday, .hour], from: date)
        let isoWeekday = ((parts.weekday ?? 1) + 5) % 7 + 1
        return (isoWeekday - 1) * 24 + (parts.hour ?? 0)
    }

    static func minutes(_ date: Date) -> Int {
        let parts = riyadh.dateComponents([.hour, .minute], from: date)
        return (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
    }

    @Test("goals are made, read, changed and deleted; a goal that can never be met is refused, naming the API's field",
          arguments: TestEnvironment.engines)
    func goals(engine: TestEngine) async throws {
        let person = try await Person(engine: engine)
        let goals = person.goals
        let account = person.account
        let made = try await goals.create(Self.exercise, account: account)
        #expect(made.goal.title == "Exercise" && made.goal.minutesPerSession == 45 && made.goal.target == .perWeek(3))
        #expect(made.goal.window.days.numbers == [1, 2, 3, 4, 5, 6, 7] && made.goal.category == .other)
        #expect(try await goals.list(account: account).map(\.id) == [made.id])
        #expect(try await goals.goal(id: made.id, account: account) == made)

        // Each refusal names the field as the API spells it.
        var tooShort = Self.exercise
        tooShort.minutes = 0
        await #expect(throws: Goals.Problem.invalid(.minutesOutOfRange(0))) { try await goals.create(tooShort, account: account) }
        #expect(Goals.Problem.invalid(.minutesOutOfRange(0)).field == "minutes")
        #expect(Goals.Problem.invalid(.minutesOutOfRange(0)).description == "minutes: 0 is out of range (expected 1 … 1440)")
        var badWindow = Self.exercise
        badWindow.window.to = "9am"
        await #expect(throws: Goals.Problem.invalid(.invalidTime(field: "to", text: "9am"))) { try await goals.create(badWindow, account: account) }
        #expect(Goals.Problem.invalid(.invalidTime(field: "to", text: "9am")).field == "window.to")
        var tooMany = Self.exercise
        tooMany.perWeek = 40
        await #expect(throws: Goals.Problem.invalid(.tooManyPerWeek(40, fit: 28))) { try await goals.create(tooMany, account: account) }
        var badDay = Self.exercise
        badDay.days = ["MO", "XX"]
        await #expect(throws: Goals.Problem.invalid(.unknownDay("XX"))) { try await goals.create(badDay, account: account) }
        var badCategory = Self.exercise
        badCategory.category = "napping"
        await #expect(throws: Goals.Problem.category("napping")) { try await goals.create(badCategory, account: account) }
        var blank = Self.exercise
        blank.title = "  "
        await #expect(throws: Goals.Problem.invalid(.emptyTitle)) { try await goals.create(blank, account: account) }
        var both = Self.exercise
        both.perDay = 1
        await #expect(throws: Goals.Problem.invalid(.twoTargets)) { try await goals.create(both, account: account) }

        // A change switches the target, keeps what it does not name, and clears with null.
        let daily = try await goals.update(
            id: made.id, GoalChange(perDay: 1, days: .some(["MO", "WE", "FR"]), preferredTime: .some("morning")), account: account)
        #expect(daily.goal.target == .perDay(1) && daily.goal.window.days.iCalendarCodes == ["MO", "WE", "FR"] && daily.goal.preferredTime == .morning)
        #expect(daily.goal.minutesPerSession == 45 && daily.createdAt == made.createdAt)
        let cleared = try await goals.update(
            id: made.id, try JSONDecoder().decode(GoalChange.self, from: Data(#"{"days": null, "preferredTime": null}"#.utf8)), account: account)
        #expect(cleared.goal.window.days.numbers.count == 7 && cleared.goal.preferredTime == nil && cleared.goal.target == .perDay(1))
        await #expect(throws: Goals.Problem.invalid(.twoTargets)) {
            try await goals.update(id: made.id, GoalChange(perWeek: 2, perDay: 1), account: account)
        }
        await #expect(throws: Goals.Problem.invalid(.windowShorterThanSession(windowMinutes: 30, sessionMinutes: 45))) {
            try await goals.update(id: made.id, GoalChange(window: .init(to: "06:30")), account: account)
        }
        #expect(try await goals.goal(id: made.id, account: account) == cleared, "a refused change changes nothing")
        await #expect(throws: Goals.Problem.notFound(id: "nope")) { try await goals.update(id: "nope", GoalChange(title: "x"), account: account) }

        try await goals.delete(id: made.id, account: account)
        await #expect(throws: Goals.Problem.notFound(id: made.id)) { try await goals.goal(id: made.id, account: account) }
        await #expect(throws: Goals.Problem.notFound(id: made.id)) { try await goals.delete(id: made.id, account: account) }
        try await person.store.shutdown()
    }

    @Test("the plan avoids busy time and prayers; accepting writes an event in the Goals calendar, rejecting is remembered, both teach the planner",
          arguments: TestEnvironment.engines)
    func plan(engine: TestEngine) async throws {
        let person = try await Person(engine: engine)
        let account = person.account
        let planning = person.planning
        let goal = try await person.goals.create(Self.exercise, account: account)
        // Tuesday morning is taken from 06:00 to 09:00.
        let tuesday = try #require(Self.riyadh.date(from: DateComponents(year: 2026, month: 9, day: 22, hour: 6)))
        try await person.putEvent("dentist.ics", start: tuesday, minutes: 180)

        let plan = try await planning.propose(account: account)
        #expect(plan.intensity == .full && plan.proposals.count == 6, "3 this week (6 of 7 days left) and 3 next: \(plan.proposals)")
        let busy = try await person.busy()
        #expect(busy.contains { $0.start == tuesday }, "the event is busy time")
        for item in plan.proposals {
            #expect(item.state == .proposed && item.goalID == goal.id && item.title == "Exercise")
            #expect((360...(540 - 45)).contains(Self.minutes(item.range.start)), "inside 06:00–09:00: \(item.range)")
            #expect(!busy.contains { $0.start < item.range.end && item.range.start < $0.end }, "\(item.range) is free")
            let sentence = item.reason.sentence(in: .english)
            #expect(["Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "Monday"].contains { sentence.hasPrefix($0) }, "\(sentence)")
        }
        #expect(try await planning.items(account: account, states: [.proposed]) == plan.proposals)

        // Accept the first: an event in the Goals calendar, made now, linked to the goal.
        let first = plan.proposals[0]
        let accepted = try await planning.accept(id: first.id, account: account)
        #expect(accepted.state == .accepted && accepted.decidedAt == Self.t0)
        let event = try #require(accepted.event)
        let goalsCalendar = try await person.calendar(DefaultCalendars.goalsSlug)
        #expect(event.calendarID == goalsCalendar.id && goalsCalendar.displayName == "Goals")
        let object = try #require(try await person.store.read { tx in try await tx.calendarObject(calendarID: event.calendarID, name: event.name) })
        #expect(object.icalendar.contains("X-JADWAL-GOAL:\(goal.id)") && object.icalendar.contains("SUMMARY:Exercise"))
        #expect(object.icalendar.contains("DTSTART;TZID=Asia/Riyadh:"), "local time, so phones show it as planned")
        let jobs = try await person.store.read { tx in try await tx.jobs(state: .queued, limit: 50) }
        #expect(jobs.contains { $0.kind == ConflictCheck.jobKind }, "checked for conflicts like any event")
        await #expect(throws: TwoWeekPlanning.Refusal.alreadyDecided(id: first.id, state: .accepted)) {
            try await planning.accept(id: first.id, account: account)
        }
        await #expect(throws: TwoWeekPlanning.Refusal.notFound(id: "goal:nope@1")) { try await planning.accept(id: "goal:nope@1", account: account) }

        // Reject the second: remembered, and its hour is proposed less.
        let second = plan.proposals[1]
        let rejected = try await planning.reject(id: second.id, account: account)
        #expect(rejected.state == .rejected)
        var learned = try await planning.learning(account: account)
        let weights = try #require(learned.goals[goal.id]?.weights)
        #expect(weights[Self.hourOfWeek(first.range.start)] > 0 && weights[Self.hourOfWeek(second.range.start)] < 0)

        // Planning again keeps the accepted session, never proposes the rejected slot again,
        // and counts the accepted one towards this week.
        let again = try await planning.propose(account: account)
        #expect(again.accepted.map(\.id) == [first.id])
        #expect(!again.proposals.contains { $0.range.start < second.range.end && second.range.start < $0.range.end })
        #expect(!again.proposals.contains { $0.range.start < first.range.end && first.range.start < $0.range.end })
        #expect(again.proposals.count == 5, "\(again.proposals)")
        #expect(try await planning.items(account: account, states: [.accepted, .rejected]).map(\.id).sorted() == [first.id, second.id].sorted())

        // Something takes a waiting proposal's time: accepting it is refused with the overlap.
        let taken = again.proposals[0]
        try await person.putEvent("meeting.ics", start: taken.range.start, minutes: 30)
        do {
            _ = try await planning.accept(id: taken.id, account: account)
            Issue.record("accepted over an event")
        } catch let TwoWeekPlanning.Refusal.slotTaken(id, overlaps) {
            #expect(id == taken.id && overlaps.map(\.title) == ["Event meeting.ics"])
        }

        // Accept all: the rest become events; the taken one is refused and stays waiting.
        let all = try await planning.acceptAll(account: account)
        #expect(all.accepted.count == 4 && all.refused.count == 1)
        #expect(try await planning.items(account: account, states: [.proposed]).map(\.id) == [taken.id])
        let sessions = try await person.store.read { tx in try await tx.calendarObjects(calendarID: goalsCalendar.id) }
        #expect(sessions.count == 5)

        // Forgetting clears every goal's learning.
        try await planning.forgetLearning(account: account)
        learned = try await planning.learning(account: account)
        #expect(learned.goals.isEmpty)
        await #expect(throws: Goals.Problem.notFound(id: "nope")) { try await planning.forgetLearning(account: account, goalID: "nope") }
        try await person.store.shutdown()
    }

    @Test("a session's event moved on a phone teaches the new hour; one deleted teaches the old hour is unwanted",
          arguments: TestEnvironment.engines)
    func learningFromEvents(engine: TestEngine) async throws {
        let person = try await Person(engine: engine)
        let account = person.account
        let planning = person.planning
        let goal = try await person.goals.create(Self.exercise, account: account)
        let plan = try await planning.propose(account: account)
        let moving = try await planning.accept(id: plan.proposals[0].id, account: account)
        let deleting = try await planning.accept(id: plan.proposals[1].id, account: account)
        try await planning.forgetLearning(account: account)

        // The phone moves the first three hours later and deletes the second.
        let event = try #require(moving.event)
        let object = try #require(try await person.store.read { tx in try await tx.calendarObject(calendarID: event.calendarID, name: event.name) })
        let later = moving.range.start.addingTimeInterval(3 * 3600)
        try await person.putEvent(event.name, uid: object.uid, in: DefaultCalendars.goalsSlug, start: later, minutes: 45)
        let gone = try #require(deleting.event)
        try await person.writes.delete(name: gone.name, in: try await person.calendar(DefaultCalendars.goalsSlug), source: .caldav)

        _ = try await planning.propose(account: account)
        let weights = try #require(try await planning.learning(account: account).goals[goal.id]?.weights)
        #expect(weights[Self.hourOfWeek(later)] == 1.5, "moved here")
        #expect(weights[Self.hourOfWeek(moving.range.start)] < 0, "moved away from")
        #expect(weights[Self.hourOfWeek(deleting.range.start)] < 0, "deleted")
        let accepted = try await planning.items(account: account, states: [.accepted])
        #expect(accepted.map(\.id) == [moving.id] && accepted.first?.range.start == later, "the item follows its event; the deleted one goes")
        try await person.store.shutdown()
    }

    @Test("the questionnaire is checked, skippable, and steers the plan: off proposes nothing", arguments: TestEnvironment.engines)
    func questionnaire(engine: TestEngine) async throws {
        let person = try await Person(engine: engine)
        let account = person.account
        let planning = person.planning
        var exercise = Self.exercise
        exercise.category = "exercise"
        _ = try await person.goals.create(exercise, account: account)
        #expect(try await planning.answers(account: account) == PlannerAnswers(), "nothing answered yet")
        await #expect(throws: PlannerAnswers.Problem.intensity("lots")) { try await planning.saveAnswers(PlannerAnswers(intensity: "lots"), account: account) }
        await #expect(throws: PlannerAnswers.Problem.time(field: "wake", text: "7")) { try await planning.saveAnswers(PlannerAnswers(wake: "7"), account: account) }
        await #expect(throws: PlannerAnswers.Problem.wakeEqualsSleep) {
            try await planning.saveAnswers(PlannerAnswers(wake: "07:00", sleep: "07:00"), account: account)
        }
        await #expect(throws: PlannerAnswers.Problem.dayPart(field: "exerciseTime", text: "dawn")) {
            try await planning.saveAnswers(PlannerAnswers(exerciseTime: "dawn"), account: account)
        }
        let evenings = PlannerAnswers(wake: "06:00", sleep: "23:30", exerciseTime: "morning", intensity: "light")
        #expect(try await planning.saveAnswers(evenings, account: account) == evenings)
        #expect(try await planning.answers(account: account) == evenings)
        let light = try await planning.propose(account: account)
        #expect(light.intensity == .light && !light.proposals.isEmpty)
        #expect(light.proposals.allSatisfy { $0.reason.sentence(in: .english).contains("you prefer mornings") })

        _ = try await planning.saveAnswers(PlannerAnswers(intensity: "off"), account: account)
        let off = try await planning.propose(account: account)
        #expect(off.intensity == .off && off.proposals.isEmpty)
        #expect(try await planning.items(account: account, states: [.proposed]).isEmpty, "the old proposals went with the new plan")
        try await person.store.shutdown()
    }

    @Test("tracker entries are checked, edited and removed; summaries add them up by period with streaks", arguments: TestEnvironment.engines)
    func tracker(engine: TestEngine) async throws {
        let person = try await Person(engine: engine)
        let account = person.account
        let tracker = person.tracker

        // Sleep in wall times of the person's zone: the night counts for the day they woke.
        let night = try await tracker.add(TrackerEntryDraft(metric: "Sleep", bedtime: "2026-09-20T23:10", wake: "2026-09-21T06:40"), account: account)
        #expect(night.metric == "sleep" && night.value == 450 && night.unit == "min")
        #expect(night.start == Date(timeIntervalSince1970: 1_789_935_000) && night.end == Date(timeIntervalSince1970: 1_789_962_000))
        let run = try await tracker.add(TrackerEntryDraft(metric: "exercise", kind: "run", minutes: 30, at: "2026-09-21T03:00:00Z"), account: account)
        #expect(run.value == 30 && run.kind == "run" && run.end == run.start.addingTimeInterval(1800))
        let weight = try await tracker.add(TrackerEntryDraft(metric: "weight", value: 72.5, unit: "kg"), account: account)
        #expect(weight.start == Self.t0 && weight.unit == "kg" && weight.end == nil)

        for (draft, problem) in [
            (TrackerEntryDraft(metric: "sleep", bedtime: "2026-09-20T23:10"), Tracker.Problem.required(field: "wake", metric: "sleep")),
            (TrackerEntryDraft(metric: "sleep", bedtime: "2026-09-21T07:00", wake: "2026-09-21T06:00"), .wakeBeforeBedtime),
            (TrackerEntryDraft(metric: "sleep", bedtime: "2026-09-19T07:00", wake: "2026-09-21T06:00"), .nightTooLong),
            (TrackerEntryDraft(metric: "sleep", bedtime: "yesterday", wake: "2026-09-21T06:00"), .time(field: "bedtime", text: "yesterday")),
            (TrackerEntryDraft(metric: "exercise", minutes: 0), .minutes(0)),
            (TrackerEntryDraft(metric: "exercise"), .required(field: "minutes", metric: "exercise")),
            (TrackerEntryDraft(metric: "blood pressure!", value: 1, unit: "x"), .metric("blood pressure!")),
            (TrackerEntryDraft(metric: "water", value: 3), .unit),
            (TrackerEntryDraft(metric: "water", value: .infinity, unit: "glasses"), .value),
            (TrackerEntryDraft(metric: "water", at: "2026-10-01T00:00", value: 3, unit: "glasses"), .future),
        ] {
            await #expect(throws: problem) { try await tracker.add(draft, account: account) }
        }

        let edited = try await tracker.update(id: run.id, TrackerEntryDraft(metric: "exercise", kind: "swim", minutes: 40, at: "2026-09-21T03:00:00Z"), account: account)
        #expect(edited.value == 40 && edited.kind == "swim" && edited.createdAt == run.createdAt)
        #expect(try await tracker.entries(account: account, metric: "exercise", from: nil, to: nil).map(\.value) == [40])
        #expect(try await tracker.entries(account: account, metric: nil, from: nil, to: nil).count == 3)
        try await tracker.remove(id: weight.id, account: account)
        await #expect(throws: Tracker.Problem.notFound(id: weight.id.uuidString.lowercased())) { try await tracker.remove(id: weight.id, account: account) }

        // Nights woken on 10–13 September (4 in a row), then 19–21 September (3, up to today).
        for day in [10, 11, 12, 13, 19, 20] {
            _ = try await tracker.add(
                TrackerEntryDraft(metric: "sleep", bedtime: String(format: "2026-09-%02dT23:00", day - 1), wake: String(format: "2026-09-%02dT06:00", day)),
                account: account)
        }
        let days = try await tracker.summary(account: account, metric: "sleep", period: .day)
        #expect(days.buckets.count == 14 && days.buckets.last?.date == "2026-09-21" && days.buckets.first?.date == "2026-09-08")
        #expect(days.buckets.last?.total == 450 && days.buckets.last?.count == 1)
        #expect(days.currentStreak == 3 && days.longestStreak == 4)
        let weeks = try await tracker.summary(account: account, metric: "sleep", period: .week, count: 3)
        #expect(weeks.buckets.map(\.date) == ["2026-09-07", "2026-09-14", "2026-09-21"], "weeks start on Monday")
        #expect(weeks.buckets.map(\.count) == [4, 2, 1] && weeks.buckets[1].average == 420 && weeks.unit == "min")
        let years = try await tracker.summary(account: account, metric: "sleep", period: .year)
        #expect(years.buckets.count == 5 && years.buckets.last?.date == "2026-01-01" && years.buckets.last?.count == 7)
        await #expect(throws: Tracker.Problem.count(0)) { try await tracker.summary(account: account, metric: "sleep", period: .day, count: 0) }
        let none = try await tracker.summary(account: account, metric: "reading", period: .month)
        #expect(none.buckets.count == 12 && none.buckets.allSatisfy { $0.count == 0 && $0.average == nil } && none.currentStreak == 0)
        try await person.store.shutdown()
    }
}
