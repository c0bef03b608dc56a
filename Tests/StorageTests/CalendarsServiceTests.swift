import Foundation
import JadwalCore
import JadwalTestSupport
import Storage
import Testing

/// The calendars service in process, on a real store: one rule for new calendars whichever
/// front door asks, and a deletion that leaves nothing of the calendar behind to list or fire.
@Suite("Calendars service on every engine")
struct CalendarsServiceTests {
    /// 2026-09-21 17:13 in Riyadh.
    static let t0 = Date(timeIntervalSince1970: 1_790_000_000)

    static func event(_ uid: String, _ summary: String, start: String, alarm: Bool = false) throws -> CalendarObjectContent {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Jadwal Tests//EN", "BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20260901T000000Z",
                     "DTSTART;TZID=Asia/Riyadh:\(start)", "DURATION:PT1H", "SUMMARY:\(summary)"]
        if alarm { lines += ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:\(summary)", "TRIGGER:-PT10M", "END:VALARM"] }
        lines += ["END:VEVENT", "END:VCALENDAR"]
        return try CalendarObjectContent(text: lines.joined(separator: "\r\n") + "\r\n")
    }

    @Test("a new calendar takes every kind of item and the account's zone unless told; a taken slug and bad fields are refused",
          arguments: TestEnvironment.engines)
    func create(engine: TestEngine) async throws {
        let store = try await TestEnvironment.freshStore(engine)
        let clock = TestClock(Self.t0)
        let account = Account(id: UUID(), email: try EmailAddress("cal@example.com"), name: "Omar", timeZone: "Asia/Riyadh", language: .english, createdAt: Self.t0)
        try await store.transaction { tx in try await tx.insertAccountWithDefaultCalendars(account, now: Self.t0, random: .system) }
        let calendars = Calendars(store: store, clock: clock.clock, random: .system)

        let work = try await calendars.create(try calendars.validated(
            Calendars.Draft(properties: CalendarPropertiesChange(displayName: "Work Stuff")), account: account))
        #expect(work.slug == "work-stuff" && work.displayName == "Work Stuff" && work.components == [.event, .todo, .journal])
        #expect(work.timeZone == "Asia/Riyadh", "the account's zone, as for a calendar a phone makes")
        let byURL = try calendars.validated(Calendars.Draft(slug: "trips"), account: account)
        #expect(byURL.displayName == "trips" && byURL.components == Calendars.defaultComponents && byURL.timeZone == "Asia/Riyadh")
        let tasks = try calendars.validated(Calendars.Draft(slug: "chores", components: [.todo]), account: account)
        #expect(tasks.components == [.todo])

        await #expect(throws: Calendars.Problem.slugTaken("work-stuff")) {
            try await calendars.create(try calendars.validated(Calendars.Draft(properties: CalendarPropertiesChange(displayName: "work stuff")), account: account))
        }
        #expect(throws: Calendars.Problem.invalidSlug) { try calendars.validated(Calendars.Draft(slug: "Bad Slug!"), account: account) }
        #expect(throws: Calendars.Problem.invalidSlug) { try calendars.validated(Calendars.Draft(slug: CalendarSlug.prayerTimes), account: account) }
        #expect(throws: Calendars.Problem.noComponents) { try calendars.validated(Calendars.Draft(slug: "none", components: []), account: account) }
        #expect(throws: Calendars.Problem.self) {
            try calendars.validated(Calendars.Draft(slug: "moon", properties: CalendarPropertiesChange(timeZone: "Moon/Base")), account: account)
        }
        try await store.shutdown()
    }

    @Test("deleting a calendar retires its events' conflicts, rechecks the events that clashed with them, and cancels their reminders",
          arguments: TestEnvironment.engines)
    func delete(engine: TestEngine) async throws {
        let store = try await TestEnvironment.freshStore(engine)
        let clock = TestClock(Self.t0)
        let account = Account(id: UUID(), email: try EmailAddress("del@example.com"), name: "Omar", timeZone: "Asia/Riyadh", language: .english, createdAt: Self.t0)
        try await store.transaction { tx in try await tx.insertAccountWithDefaultCalendars(account, now: Self.t0, random: .system) }
        let calendars = Calendars(store: store, clock: clock.clock, random: .system)
        let work = try await calendars.create(try calendars.validated(Calendars.Draft(slug: "work"), account: account))
        let personal = try #require(try await store.read { tx in try await tx.calendar(accountID: account.id, slug: "personal") })
        let writes = CalendarWrites(store: store, clock: clock.clock, random: .system)
        let check = ConflictCheck(store: store, clock: clock.clock, random: .system)

        // Wednesday: a dentist visit (personal), then a standup (work, with an alarm) on top of it.
        // Thursday: a review (work), then a call (personal) on top of it.
        _ = try await writes.put(try Self.event("dentist", "Dentist", start: "20260923T100000"), name: "dentist.ics", in: personal, source: .caldav)
        clock.advance(by: 60)
        _ = try await writes.put(try Self.event("standup", "Standup", start: "20260923T103000", alarm: true), name: "standup.ics", in: work, source: .caldav)
        clock.advance(by: 60)
        _ = try await writes.put(try Self.event("review", "Review", start: "20260924T100000"), name: "review.ics", in: work, source: .caldav)
        clock.advance(by: 60)
        _ = try await writes.put(try Self.event("call", "Call", start: "20260924T103000"), name: "call.ics", in: personal, source: .caldav)
        for (calendar, name) in [(personal, "dentist.ics"), (work, "standup.ics"), (work, "review.ics"), (personal, "call.ics")] {
            _ = try await check.run(ConflictCheck.Request(accountID: account.id, calendarID: calendar.id, objectName: name, source: .caldav))
        }
        let open = try await store.read { tx in try await tx.conflicts(accountID: account.id, includeResolved: false) }
        #expect(Set(open.map(\.event.objectName)) == ["standup.ics", "call.ics"], "the newer event of each pair holds the conflict")
        let standupReminders = ReminderQueue.Target(accountID: account.id, calendarID: work.id, objectName: "standup.ics").subject
        let reminderJobs = try await store.read { tx in try await tx.jobs(state: .queued, limit: 100) }.filter { $0.subject == standupReminders }
        #expect(!reminderJobs.isEmpty, "the standup's alarm queued its reminders")
        let checksBefore = try await store.read { tx in try await tx.queuedJobCount(kind: ConflictCheck.jobKind) }

        try await calendars.delete(work)

        let after = try await store.read { tx in try await tx.conflicts(accountID: account.id, includeResolved: true) }
        let standup = try #require(after.first { $0.event.objectName == "standup.ics" })
        #expect(standup.status == .obsolete && standup.resolvedAt == clock.now, "a deleted event's conflict retires")
        let jobs = try await store.read { tx in try await tx.jobs(state: .queued, limit: 100) }
        #expect(!jobs.contains { $0.subject == standupReminders }, "nothing of the deleted calendar is left to fire")
        #expect(try await store.read { tx in try await tx.queuedJobCount(kind: ConflictCheck.jobKind) } == checksBefore + 1,
                "the call, which clashed with the deleted review, is checked again")
        let rechecks = try jobs.filter { $0.kind == ConflictCheck.jobKind }
            .map { try JSONDecoder().decode(ConflictCheck.Request.self, from: Data($0.payload.utf8)) }.filter { !$0.recheckOthers }
        let request = try #require(rechecks.first { $0.objectName == "call.ics" })
        #expect(request.calendarID == personal.id)
        _ = try await check.run(request)
        #expect(try await store.read { tx in try await tx.conflicts(accountID: account.id, includeResolved: false) }.isEmpty)

        let prayer = CalendarCollection(id: UUID(), accountID: account.id, slug: CalendarSlug.prayerTimes, displayName: "Prayer Times", components: [.event], createdAt: Self.t0)
        await #expect(throws: Calendars.Problem.computed) { try await calendars.delete(prayer) }
        try await store.shutdown()
    }

    @Test("the calendars screen: counts per kind, hidden calendars left out of the integrated views only, and moves that keep every place",
          arguments: TestEnvironment.engines)
    func screen(engine: TestEngine) async throws {
        let store = try await TestEnvironment.freshStore(engine)
        let clock = TestClock(Self.t0)
        let account = Account(id: UUID(), email: try EmailAddress("screen@example.com"), name: "Omar", timeZone: "Asia/Riyadh", language: .english, createdAt: Self.t0)
        try await store.transaction { tx in try await tx.insertAccountWithDefaultCalendars(account, now: Self.t0, random: .system) }
        let calendars = Calendars(store: store, clock: clock.clock, random: .system)
        let writes = CalendarWrites(store: store, clock: clock.clock, random: .system)
        let work = try await calendars.create(try calendars.validated(Calendars.Draft(slug: "work"), account: account))
        clock.advance(by: 60)
        let trips = try await calendars.create(try calendars.validated(Calendars.Draft(slug: "trips"), account: account))
        _ = try await writes.put(try Self.event("standup", "Standup", start: "20260923T103000"), name: "standup.ics", in: work, source: .caldav)
        _ = try await writes.put(try Self.event("review", "Review", start: "20260924T100000"), name: "review.ics", in: work, source: .caldav)

        var listed = try await calendars.listed(accountID: account.id)
        #expect(listed.map(\.calendar.slug) == ["personal", "whatsapp-events", "tasks", "work", "trips"])
        let counted = try #require(listed.first { $0.calendar.id == work.id })
        #expect(counted.events == 2 && counted.todos == 0 && counted.objects == 2 && !counted.hidden)

        // Hidden: out of the views that ask for shown calendars only, still in the rest; per person, and undone.
        let integrated = IntegratedCalendar(store: store, parse: { try? CalendarObjectContent(text: $0.icalendar).calendar })
        let week = (Self.t0, Self.t0.addingTimeInterval(7 * 86_400))
        try await calendars.setHidden(true, calendar: work)
        try await calendars.setHidden(true, calendar: work)
        #expect(try await calendars.hiddenIDs(accountID: account.id) == [work.id])
        #expect(try await integrated.instances(account: account, from: week.0, to: week.1, shownOnly: true).instances.isEmpty)
        #expect(try await integrated.instances(account: account, from: week.0, to: week.1).instances.count == 2)
        #expect(try await calendars.listed(accountID: account.id).first { $0.calendar.id == work.id }?.hidden == true)
        try await calendars.setHidden(false, calendar: work)
        #expect(try await integrated.instances(account: account, from: week.0, to: week.1, shownOnly: true).instances.count == 2)

        // Moving: calendars without an order keep their places behind the others; the ends do not move further.
        #expect(try await calendars.move(trips, by: -2))
        listed = try await calendars.listed(accountID: account.id)
        #expect(listed.map(\.calendar.slug) == ["personal", "whatsapp-events", "trips", "tasks", "work"])
        #expect(listed.map(\.calendar.order) == [0, 1, 2, 3, 4])
        #expect(try await calendars.move(listed[0].calendar, by: -1) == false)
        #expect(try await calendars.move(listed[4].calendar, by: 1) == false)

        // A hidden calendar's row goes with it.
        try await calendars.setHidden(true, calendar: trips)
        try await calendars.delete(trips)
        #expect(try await calendars.hiddenIDs(accountID: account.id).isEmpty)
        try await store.shutdown()
    }
}
