import Foundation
import ICalendar
import JadwalCore
import JadwalTestSupport
import Scheduling
import Storage
import Testing
import ZIPFoundation

/// What issue 25 added after goals and the plan, in process on a real store: to-dos in the
/// two-week plan, sessions marked done or skipped (by the app or on a phone), the Apple Health
/// import, the questionnaire as everybody's default, and progress notices.
@Suite("Tracker, sessions, to-dos in the plan and progress on every engine")
struct TrackerServiceTests {
    typealias Person = GoalsServiceTests.Person
    static let t0 = GoalsServiceTests.t0
    static let riyadh = GoalsServiceTests.riyadh

    static func local(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0) -> Date {
        riyadh.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute)) ?? .distantPast
    }

    /// A to-do in the person's task list with an estimate and a due time.
    static func putTask(_ person: Person, uid: String, title: String, minutes: Int, due: Date) async throws {
        let text = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Jadwal Tests//EN", "BEGIN:VTODO", "UID:\(uid)", "DTSTAMP:20260901T000000Z",
            "CREATED:20260901T000000Z", "SUMMARY:\(title)", "DUE:\(GoalsServiceTests.utc(due))", "X-JADWAL-ESTIMATED-DURATION:PT\(minutes)M",
            "END:VTODO", "END:VCALENDAR",
        ].joined(separator: "\r\n") + "\r\n"
        _ = try await person.writes.put(try CalendarObjectContent(text: text), name: "\(uid).ics", in: try await person.calendar(DefaultCalendars.tasksSlug),
                                        source: .api)
    }

    static func object(_ person: Person, _ reference: PlanItem.EventReference) async throws -> CalendarObject {
        try #require(try await person.store.read { tx in try await tx.calendarObject(calendarID: reference.calendarID, name: reference.name) })
    }

    @Test("to-dos are proposed before they are due, in work hours, accepted into Task Time, and kept there by Plan my tasks",
          arguments: TestEnvironment.engines)
    func todos(engine: TestEngine) async throws {
        let person = try await Person(engine: engine)
        let account = person.account
        let planning = person.planning
        _ = try await planning.saveAnswers(PlannerAnswers(work: HoursDraft(start: "09:00", end: "17:00", days: .named("weekdays"))), account: account)
        // Given its time by Plan my tasks already: not proposed again.
        try await Self.putTask(person, uid: "planned", title: "Planned already", minutes: 60, due: Self.local(2026, 9, 30, 12))
        let planner = TaskPlanner(store: person.store, clock: person.clock.clock, random: .system)
        let first = try await planner.plan(account: account)
        #expect(first.placed.filter { $0.task == "planned" }.count == 1)
        // Due Thursday 12:00, two and a half hours of work: two parts.
        let due = Self.local(2026, 9, 24, 12)
        try await Self.putTask(person, uid: "report", title: "Write the report", minutes: 150, due: due)

        let plan = try await planning.propose(account: account)
        let parts = plan.proposals.filter { $0.subject == .task(id: "report") }
        #expect(parts.count == 2 && parts.map(\.range.duration).reduce(0, +) == 150 * 60, "\(plan.proposals)")
        #expect(!plan.proposals.contains { $0.subject == .task(id: "planned") }, "its time is given already")
        for part in parts {
            #expect(part.range.end <= due)
            let hour = Self.riyadh.component(.hour, from: part.range.start)
            #expect((9..<17).contains(hour), "in work hours: \(part.range)")
            #expect(part.reason.sentence(in: .english).contains("due Thursday 12:00"), "\(part.reason.sentence(in: .english))")
        }

        // Accepted: an event in Task Time linked to the to-do, which the to-do list shows.
        let accepted = try await planning.accept(id: parts[0].id, account: account)
        let event = try #require(accepted.event)
        #expect(event.calendarID == (try await person.calendar(DefaultCalendars.plannedTasksSlug)).id)
        let object = try await Self.object(person, event)
        #expect(object.icalendar.contains("RELATED-TO:report") && object.icalendar.contains("X-JADWAL-PLAN-ITEM:task:report@"))

        // Plan my tasks keeps the accepted block where it is and gives the to-do only the rest.
        let replanned = try await planner.plan(account: account)
        #expect(replanned.kept.contains { $0.name == event.name && $0.range == accepted.range }, "\(replanned.kept)")
        #expect(!replanned.removed.contains { $0.name == event.name })
        let rest = replanned.placed.filter { $0.task == "report" }.map(\.range.duration).reduce(0, +)
        #expect(rest == 150 * 60 - accepted.range.duration, "only what is left is planned: \(replanned.placed)")

        // The next plan counts both blocks: nothing more for the report.
        let again = try await planning.propose(account: account)
        #expect(!again.proposals.contains { $0.subject == .task(id: "report") }, "\(again.proposals)")

        // A to-do whose time cannot be found before it is due is reported, not proposed.
        try await Self.putTask(person, uid: "impossible", title: "Too big", minutes: 20 * 60, due: Self.local(2026, 9, 22, 12))
        let third = try await planning.propose(account: account)
        #expect(third.unplacedTasks.map(\.task.id) == ["impossible"])
        try await person.store.shutdown()
    }

    @Test("a session marked done or skipped in the app: a tracker entry, and the event says it as a phone would",
          arguments: TestEnvironment.engines)
    func markedInTheApp(engine: TestEngine) async throws {
        let person = try await Person(engine: engine)
        let account = person.account
        let planning = person.planning
        var draft = GoalsServiceTests.exercise
        draft.category = "exercise"
        let goal = try await person.goals.create(draft, account: account)
        let plan = try await planning.propose(account: account)
        let session = try await planning.accept(id: plan.proposals[0].id, account: account)

        await #expect(throws: TwoWeekPlanning.Refusal.notStarted(id: session.id, start: session.range.start)) {
            try await planning.mark(id: session.id, .done, account: account)
        }
        await #expect(throws: TwoWeekPlanning.Refusal.notASession(id: plan.proposals[1].id, state: .proposed)) {
            try await planning.mark(id: plan.proposals[1].id, .done, account: account)
        }
        await #expect(throws: TwoWeekPlanning.Refusal.minutes(0)) { try await planning.mark(id: session.id, .done, minutes: 0, account: account) }

        person.clock.advance(by: session.range.end.timeIntervalSince(person.clock.now) + 60)
        let done = try await planning.mark(id: session.id, .done, minutes: 40, account: account)
        #expect(done.entry.metric == "exercise" && done.entry.value == 40 && done.entry.outcome == .done && done.entry.goalID == goal.id)
        #expect(done.entry.kind == "Exercise" && done.entry.source == .plan && done.entry.planItemID == session.id)
        let event = try #require(session.event)
        var object = try await Self.object(person, event)
        #expect(object.icalendar.contains("SUMMARY:✓ Exercise") && object.icalendar.contains("X-JADWAL-SESSION:done"), "\(object.icalendar)")
        #expect(try await planning.outcomes(account: account) == [session.id: .done])
        let week = try #require(try await person.tracker.goalWeeks(account: account).first)
        #expect(week.done == 1 && week.target == 3 && !week.met)

        // Changed to skipped: the same entry, no time counted, and the title says ✗.
        let skipped = try await planning.mark(id: session.id, .skipped, account: account)
        #expect(skipped.entry.id == done.entry.id && skipped.entry.value == 0 && skipped.entry.outcome == .skipped)
        object = try await Self.object(person, event)
        #expect(object.icalendar.contains("SUMMARY:✗ Exercise") && object.icalendar.contains("X-JADWAL-SESSION:skipped"))
        let summary = try await person.tracker.summary(account: account, metric: "exercise", period: .day)
        #expect(summary.buckets.allSatisfy { $0.count == 0 }, "a skipped session counts in no sum or streak")
        // Jadwal's own write does not ask for the phone's changes to be read.
        let jobs = try await person.store.read { tx in try await tx.jobs(state: .queued, limit: 100) }
        #expect(!jobs.contains { $0.kind == TwoWeekPlanning.sessionsJob })
        #expect(jobs.contains { $0.kind == TrackerProgress.checkJob })
        try await person.store.shutdown()
    }

    @Test("a phone marks a session by its title (✓, ✗, done, تم), by the property, or cancels it; taking the mark off clears it",
          arguments: TestEnvironment.engines)
    func markedOnAPhone(engine: TestEngine) async throws {
        let person = try await Person(engine: engine)
        let account = person.account
        let planning = person.planning
        let goal = try await person.goals.create(GoalDraft(title: "Read books", minutes: 30, perDay: 1, window: .init(from: "20:00", to: "22:00"),
                                                           category: "focus"), account: account)
        let plan = try await planning.propose(account: account)
        let session = try await planning.accept(id: plan.proposals[0].id, account: account)
        let event = try #require(session.event)
        let calendar = try await person.calendar(DefaultCalendars.goalsSlug)
        let original = try await Self.object(person, event)

        /// The phone writes the event back with `change` applied to its VEVENT.
        func phone(_ change: (inout Component) -> Void) async throws {
            let current = try await Self.object(person, event)
            var parsed = try ICalendarParser().parseCalendar(current.icalendar)
            let index = try #require(parsed.masterIndex("VEVENT"))
            change(&parsed.components[index])
            _ = try await person.writes.put(try CalendarObjectContent(text: ICalendarSerializer().serialize(parsed)), name: event.name, in: calendar,
                                            source: .caldav)
            let jobs = try await person.store.read { tx in try await tx.jobs(state: .queued, limit: 100) }
            #expect(jobs.filter { $0.kind == TwoWeekPlanning.sessionsJob }.count == 1, "one read queued, however many writes")
            try await planning.readSessions(accountID: try TwoWeekPlanning.account(of: try #require(jobs.first { $0.kind == TwoWeekPlanning.sessionsJob })))
        }
        func entry() async throws -> TrackerEntry? {
            try await person.store.read { tx in try await tx.trackerEntry(planItemID: session.id, accountID: account.id) }
        }

        // Before it begins, a mark is not read (the session has not happened).
        try await phone { $0.set("SUMMARY", Property(name: "SUMMARY", text: "✓ Read books")) }
        #expect(try await entry() == nil)

        person.clock.advance(by: session.range.start.timeIntervalSince(person.clock.now) + 600)
        try await phone { $0.set("SUMMARY", Property(name: "SUMMARY", text: "✓ Read books")) }
        var recorded = try #require(try await entry())
        #expect(recorded.outcome == .done && recorded.metric == "read-books" && recorded.value == 30 && recorded.goalID == goal.id)

        for (title, outcome) in [("skip: Read books", TrackerEntry.Outcome.skipped), ("done - Read books", .done), ("❌ Read books", .skipped),
                                 ("تم قراءة", .done), ("Doneness of steak", nil)] {
            try await phone { $0.set("SUMMARY", Property(name: "SUMMARY", text: title)) }
            #expect(try await entry()?.outcome == outcome, "\(title)")
        }
        // Clients that set properties: X-JADWAL-SESSION.
        try await phone { $0.set(SessionMark.property, Property(name: SessionMark.property, value: "skipped")) }
        #expect(try await entry()?.outcome == .skipped)
        try await phone { $0.remove(SessionMark.property) }
        #expect(try await entry() == nil, "no mark left: neither done nor skipped")

        // Cancelled once begun (Thunderbird, DAVx5): skipped, and the session stays.
        try await phone { $0.set("STATUS", Property(name: "STATUS", value: "CANCELLED")) }
        recorded = try #require(try await entry())
        #expect(recorded.outcome == .skipped)
        #expect(try await planning.items(account: account, states: [.accepted]).map(\.id) == [session.id])
        _ = original
        try await person.store.shutdown()
    }

    static func export(nights: [(String, String)], workouts: [(String, String, String)] = []) -> String {
        HealthExportSample.export(nights: nights, workouts: workouts)
    }

    static func write(_ text: String, zipped: Bool) throws -> URL {
        try HealthExportSample.write(text, zipped: zipped)
    }

    @Test("Apple Health: nights and workouts imported from the zip; twice adds nothing; a later export replaces the nights it knows better",
          arguments: TestEnvironment.engines)
    func healthImport(engine: TestEngine) async throws {
        let person = try await Person(engine: engine)
        let account = person.account
        let importer = HealthImport(store: person.store, clock: person.clock.clock, random: .system)
        let nights = [("2026-09-18 23:30:00", "2026-09-19 06:30:00"), ("2026-09-19 23:00:00", "2026-09-20 06:00:00"),
                      ("2026-09-20 23:45:00", "2026-09-21 06:15:00")]
        let workouts = [("HKWorkoutActivityTypeRunning", "2026-09-19 06:45:00", "2026-09-19 07:15:00"),
                        ("HKWorkoutActivityTypeCycling", "2026-09-20 17:00:00", "2026-09-20 17:30:00")]
        let zip = try Self.write(Self.export(nights: nights, workouts: workouts), zipped: true)
        defer { try? FileManager.default.removeItem(at: zip) }
        let first = try await importer.importFile(at: zip, account: account)
        #expect(first.file == "apple_health_export/export.xml" && first.nights == 3 && first.workouts == 2 && first.added == 5 && first.unchanged == 0)
        let second = try await importer.importFile(at: zip, account: account)
        #expect(second.added == 0 && second.unchanged == 5 && second.replaced == 0, "importing twice adds nothing")
        var entries = try await person.tracker.entries(account: account, metric: nil, from: Self.local(2026, 9, 1, 0), to: nil)
        #expect(entries.count == 5)
        #expect(entries.filter { $0.metric == "exercise" }.map(\.kind) == ["running", "cycling"])
        #expect(entries.filter { $0.metric == "sleep" }.map(\.value) == [420, 420, 390])
        #expect(entries.allSatisfy { $0.source == .appleHealth })

        // A later export: the last night got an extra stretch from another source; the others are the same.
        let later = nights.dropLast() + [("2026-09-20 23:15:00", "2026-09-21 06:15:00")]
        let xml = try Self.write(Self.export(nights: Array(later), workouts: workouts), zipped: false)
        defer { try? FileManager.default.removeItem(at: xml) }
        let third = try await importer.importFile(at: xml, account: account)
        #expect(third.added == 1 && third.replaced == 1 && third.unchanged == 4)
        entries = try await person.tracker.entries(account: account, metric: "sleep", from: Self.local(2026, 9, 1, 0), to: nil)
        #expect(entries.map(\.value) == [420, 420, 420], "the night is there once, as the later export knows it")
        let summary = try await person.tracker.summary(account: account, metric: "sleep", period: .day, count: 3)
        #expect(summary.buckets.map(\.count) == [1, 1, 1] && summary.currentStreak == 3)

        // Not an export: refused with the file and the line.
        let wrong = try Self.write("<?xml version=\"1.0\"?>\n<gpx>\n</gpx>\n", zipped: true)
        defer { try? FileManager.default.removeItem(at: wrong) }
        await #expect(throws: HealthImport.Problem.malformed(
            file: "apple_health_export/export.xml", line: 2, reason: "the first element is <gpx>, not <HealthData>: this is not the export.xml of Apple Health")) {
            try await importer.importFile(at: wrong, account: account)
        }
        let jobs = try await person.store.read { tx in try await tx.jobs(state: .queued, limit: 100) }
        #expect(jobs.filter { $0.kind == TrackerProgress.checkJob }.count == 1, "one progress check, whatever the batches")
        try await person.store.shutdown()
    }

    @Test("the questionnaire's night and work hours are everyone's default until a routine or working hours are set",
          arguments: TestEnvironment.engines)
    func questionnaireDefaults(engine: TestEngine) async throws {
        let person = try await Person(engine: engine)
        let account = person.account
        let store = person.store
        #expect(try await person.planning.questionnaire(account: account).savedAt == nil)
        func availability() async throws -> Availability {
            try await store.read { tx in try await AccountAvailability.availability(for: account, tx: tx) }
        }
        var before = try await availability()
        #expect(before.asleep.map(\.description) == ["23:00–07:00 MO,TU,WE,TH,FR,SA,SU"] && before.working.isEmpty)

        _ = try await person.planning.saveAnswers(PlannerAnswers(
            wake: "05:30", sleep: "22:00", work: HoursDraft(start: "08:00", end: "15:00", days: .named("weekdays"))), account: account)
        #expect(try await person.planning.questionnaire(account: account).savedAt == Self.t0)
        before = try await availability()
        #expect(before.asleep.map(\.description) == ["22:00–05:30 MO,TU,WE,TH,FR,SA,SU"])
        #expect(before.working.map(\.description) == ["08:00–15:00 MO,TU,WE,TH,FR"])

        // Quiet hours follow: a notice at 23:00 waits for 05:30 (prayer blocks aside).
        let night = Self.local(2026, 9, 21, 23)
        let settings = try await store.read { tx in try await tx.notificationSettings(accountID: account.id) }
        let delivery = try await store.read { tx in
            try await QuietHours.deliveryTime(now: night, account: account, settings: NotificationSettings(
                emailKinds: settings.emailKinds, pushKinds: settings.pushKinds, quietDuringSleep: true, quietDuringPrayer: false), tx: tx)
        }
        #expect(delivery == Self.local(2026, 9, 22, 5, 30))
        try await store.shutdown()
    }

    @Test("progress: a goal met this week, a streak, and three short nights with a wind-down block proposed before bed",
          arguments: TestEnvironment.engines)
    func progress(engine: TestEngine) async throws {
        let person = try await Person(engine: engine)
        let account = person.account
        let progress = TrackerProgress(store: person.store, clock: person.clock.clock, random: .system)
        _ = try await person.planning.saveAnswers(PlannerAnswers(wake: "06:00"), account: account)
        _ = try await person.goals.create(GoalDraft(title: "Sleep", minutes: 450, perDay: 1, window: .init(from: "21:30", to: "07:00"), category: "sleep"),
                                          account: account)
        var walk = GoalDraft(title: "Walk", minutes: 20, perWeek: 2, window: .init(from: "06:00", to: "20:00"))
        walk.category = "exercise"
        _ = try await person.goals.create(walk, account: account)

        // Three nights of six hours, ending Saturday, Sunday and Monday mornings.
        for day in [19, 20, 21] {
            _ = try await person.tracker.add(TrackerEntryDraft(
                metric: "sleep", bedtime: "2026-09-\(String(format: "%02d", day - 1))T23:50", wake: "2026-09-\(day)T05:50"), account: account)
        }
        // Two walks this week (Monday), tracked by hand: the goal is met.
        for hour in [7, 12] {
            _ = try await person.tracker.add(TrackerEntryDraft(metric: "exercise", kind: "walk", minutes: 25, at: "2026-09-21T\(String(format: "%02d", hour)):00"),
                                             account: account)
        }
        let posted = try await progress.check(accountID: account.id)
        let keys = Set(posted.map(\.reasonKey))
        #expect(keys.contains { $0.hasPrefix("goal-met:") }, "\(keys)")
        #expect(keys.contains("streak:sleep:3:2026-09-19"), "\(keys)")
        #expect(keys.contains("sleep-short:2026-09-21"), "\(keys)")
        #expect(posted.allSatisfy { $0.kind == .progress && !$0.urgent })
        let short = try #require(posted.first { $0.reasonKey.hasPrefix("sleep-short") })
        #expect(short.title == "Under your sleep goal 3 nights running" && short.body.contains("6 h, 6 h, 6 h") && short.body.contains("7 h 30"))

        // The wind-down: waiting on the plan, ending at the bedtime the goal needs (06:00 − 7 h 30 =
        // 22:30), moved earlier past Isha if it is there, never over busy time.
        let waiting = try await person.planning.items(account: account, states: [.proposed])
        let windDown = try #require(waiting.first { if case .windDown = $0.subject { true } else { false } })
        #expect(windDown.range.duration == 30 * 60 && windDown.range.end <= Self.local(2026, 9, 21, 22, 30))
        #expect(windDown.range.start > Self.t0)
        let busy = try await person.busy()
        #expect(!busy.contains { $0.start < windDown.range.end && windDown.range.start < $0.end }, "free time: \(windDown.range)")
        #expect(windDown.reason.sentence(in: .english).contains("you slept under 7 h 30 the last 3 nights"))
        #expect(short.body.contains("winding down"))

        // Said once: a second check posts nothing new and proposes no second block.
        #expect(try await progress.check(accountID: account.id).isEmpty)
        #expect(try await person.planning.items(account: account, states: [.proposed]).filter { if case .windDown = $0.subject { true } else { false } }.count == 1)
        // A new plan keeps it waiting; accepting it writes "Wind down" in the Goals calendar.
        _ = try await person.planning.propose(account: account)
        let accepted = try await person.planning.accept(id: windDown.id, account: account)
        let object = try await Self.object(person, try #require(accepted.event))
        #expect(object.icalendar.contains("SUMMARY:Wind down"))
        // Held through quiet hours like any notice that is not urgent.
        #expect(posted.allSatisfy { $0.deliverAfter >= $0.createdAt })
        try await person.store.shutdown()
    }

    @Test("to-dos done per week are counted from the task list", arguments: TestEnvironment.engines)
    func tasksDone(engine: TestEngine) async throws {
        let person = try await Person(engine: engine)
        let account = person.account
        for (uid, completed) in [("a", "20260915T100000Z"), ("b", "20260921T080000Z"), ("c", "20260921T090000Z")] {
            let text = [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Jadwal Tests//EN", "BEGIN:VTODO", "UID:\(uid)", "DTSTAMP:20260901T000000Z",
                "SUMMARY:Task \(uid)", "STATUS:COMPLETED", "COMPLETED:\(completed)", "END:VTODO", "END:VCALENDAR",
            ].joined(separator: "\r\n") + "\r\n"
            _ = try await person.writes.put(try CalendarObjectContent(text: text), name: "\(uid).ics",
                                            in: try await person.calendar(DefaultCalendars.tasksSlug), source: .api)
        }
        let summary = try await person.tracker.summary(account: account, metric: Tracker.tasksMetric, period: .week, count: 2)
        #expect(summary.buckets.map(\.total) == [1, 2] && summary.unit == "to-dos")
        await #expect(throws: Tracker.Problem.metric("tasks")) {
            try await person.tracker.add(TrackerEntryDraft(metric: "tasks", value: 3, unit: "x"), account: account)
        }
        try await person.store.shutdown()
    }
}
