import Foundation
import ICalendar
import JadwalCore
import JadwalTestSupport
import Storage
import Testing

/// The upcoming reminders in process on a real store: what the next two weeks hold, and snooze,
/// change and remove written into the objects (RFC 9074's snooze for phones to read), with
/// Jadwal's own queued firings following each change.
@Suite("Upcoming reminders on every engine")
struct UpcomingRemindersServiceTests {
    /// Monday 23 November 2026, 08:00 in Riyadh.
    static let monday8am = DayAgendaServiceTests.monday8am

    struct Setup {
        let store: SQLStore
        let clock: TestClock
        let omar: Account
        let bob: Account
        let personal: CalendarCollection
        let writes: CalendarWrites
        let reminders: UpcomingReminders

        @discardableResult
        func put(_ lines: [String], _ name: String, in calendar: CalendarCollection? = nil) async throws -> CalendarObject {
            try await writes.put(try DayAgendaServiceTests.content(lines), name: name, in: calendar ?? personal, source: .caldav).object
        }

        func text(_ name: String) async throws -> String {
            try #require(try await store.read { tx in try await tx.calendarObject(calendarID: personal.id, name: name) }).icalendar
        }

        /// The `reminder.fire` jobs queued for an object, by when they run.
        func queued(_ name: String) async throws -> [Date] {
            let subject = ReminderQueue.Target(accountID: omar.id, calendarID: personal.id, objectName: name).subject
            let schedule = ReminderQueue(store: store, clock: clock.clock, random: .system)
            // The write queued a schedule job; run it as the worker would.
            _ = try await schedule.schedule(ReminderQueue.Target(accountID: omar.id, calendarID: personal.id, objectName: name))
            return try await store.read { tx in try await tx.jobs(state: .queued, limit: 1000) }
                .filter { $0.kind == ReminderQueue.fireJob && $0.subject == subject }.map(\.runAt).sorted()
        }
    }

    static func setUp(_ engine: TestEngine) async throws -> Setup {
        let base = try await DayAgendaServiceTests.setUp(engine)
        let personal = try await base.calendar(base.omar, "personal")
        return Setup(
            store: base.store, clock: base.clock, omar: base.omar, bob: base.bob, personal: personal, writes: base.writes,
            reminders: UpcomingReminders(store: base.store, clock: base.clock.clock, random: .system))
    }

    static func event(_ uid: String, _ summary: String, start: String, minutes: Int, extra: [String] = [], alarm: [String] = []) -> [String] {
        ["BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20261101T000000Z", "DTSTART;TZID=Asia/Riyadh:\(start)", "DURATION:PT1H", "SUMMARY:\(summary)"] + extra
            + ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:\(summary)", "TRIGGER:-PT\(minutes)M"] + alarm + ["END:VALARM", "END:VEVENT"]
    }

    static func instant(_ text: String) throws -> Date { try #require(ISO8601DateFormatter().date(from: text)) }

    @Test("the next two weeks of reminders; change, snooze (twice) and remove one event's reminder", arguments: TestEnvironment.engines)
    func single(engine: TestEngine) async throws {
        let s = try await Self.setUp(engine)
        try await s.put(Self.event("dentist", "Dentist", start: "20261124T100000", minutes: 15), "dentist.ics")
        try await s.put(Self.event("far", "Far away", start: "20261215T100000", minutes: 15), "far.ics")
        try await s.put(DayAgendaServiceTests.event("plain", "No alarm", start: "20261124T120000", end: "20261124T130000"), "plain.ics")
        let tasks = try #require(try await s.store.read { tx in try await tx.calendar(accountID: s.omar.id, slug: "tasks") })
        try await s.writes.put(try DayAgendaServiceTests.content(DayAgendaServiceTests.todo("rent", "Pay rent", due: "20261125T170000", extra: [
            "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Rent", "TRIGGER;RELATED=END:-PT30M", "END:VALARM",
        ])), name: "rent.ics", in: tasks, source: .caldav)
        // Bob's reminders are his: not on Omar's list, even from a calendar shared with him.
        let bobs = try #require(try await s.store.read { tx in try await tx.calendar(accountID: s.bob.id, slug: "personal") })
        try await s.put(Self.event("bob", "Bob's meeting", start: "20261124T110000", minutes: 10), "bob.ics", in: bobs)
        let shares = CalendarShares(store: s.store, clock: s.clock.clock, random: .system)
        _ = try await shares.accept(shareID: try await shares.share(calendarID: bobs.id, owner: s.bob, with: s.omar.email, access: .readWrite).id, account: s.omar)

        let listed = try await s.reminders.list(account: s.omar)
        #expect(listed.map { $0.reminder.title ?? "" } == ["Dentist", "Pay rent"], "only the next 14 days, only Omar's own")
        let dentist = try #require(listed.first)
        #expect(dentist.reminder.fireAt == (try Self.instant("2026-11-24T06:45:00Z")) && dentist.minutesBefore == 15 && !dentist.relatedToEnd)
        #expect(!dentist.isSnooze && !dentist.isRepeating && dentist.calendar.id == s.personal.id)
        #expect(listed[1].reminder.isTodo && listed[1].minutesBefore == 30 && listed[1].relatedToEnd)
        #expect(UpcomingReminders.ReminderID(dentist.id.description) == dentist.id, "the id reads back from its text")

        // Change: 30 minutes before; the phone sees it in the object, the queue follows it.
        #expect(try await s.queued("dentist.ics") == [try Self.instant("2026-11-24T06:45:00Z")])
        let changed = try await s.reminders.change(dentist.id, minutesBefore: 30, account: s.omar, ifMatch: dentist.etag)
        #expect(changed.icalendar.contains("TRIGGER:-PT30M") && !changed.icalendar.contains("TRIGGER:-PT15M"))
        #expect(try await s.queued("dentist.ics") == [try Self.instant("2026-11-24T06:30:00Z")])
        await #expect(throws: CalendarWrites.Refusal.preconditionFailed(currentETag: changed.etag)) {
            try await s.reminders.change(dentist.id, minutesBefore: 45, account: s.omar, ifMatch: dentist.etag)
        }
        for bad in [-1, UpcomingReminders.maxMinutesBefore + 1] {
            await #expect(throws: UpcomingReminders.Problem.invalidMinutes) { try await s.reminders.change(dentist.id, minutesBefore: bad, account: s.omar, ifMatch: nil) }
        }

        // Snooze 10 minutes: acknowledged up to its firing, a snooze alarm 10 minutes later.
        let current = try #require(try await s.reminders.list(account: s.omar).first)
        let snoozed = try await s.reminders.snooze(current.id, by: .minutes(10), account: s.omar, ifMatch: nil)
        let parsed = try ICalendarParser().parseCalendar(snoozed.icalendar)
        let alarms = try #require(parsed.master("VEVENT")).components(named: "VALARM")
        #expect(alarms.count == 2)
        let original = try #require(alarms.first), snooze = try #require(alarms.last)
        #expect(original.first("ACKNOWLEDGED")?.value == "20261124T063000Z" && original.first("UID") != nil)
        #expect(snooze.first("TRIGGER")?.value == "20261124T064000Z" && snooze.first("TRIGGER")?.parameter("VALUE") == "DATE-TIME")
        #expect(snooze.first("RELATED-TO")?.parameter("RELTYPE") == "SNOOZE" && snooze.first("RELATED-TO")?.value == original.first("UID")?.value)
        let afterSnooze = try await s.reminders.list(account: s.omar)
        #expect(afterSnooze.first?.reminder.fireAt == (try Self.instant("2026-11-24T06:40:00Z")) && afterSnooze.first?.isSnooze == true)
        #expect(afterSnooze.filter { $0.reminder.title == "Dentist" }.count == 1, "the acknowledged firing is gone")
        #expect(try await s.queued("dentist.ics") == [try Self.instant("2026-11-24T06:40:00Z")])
        // A snoozed one has no offset to change; snoozing it again moves it (an hour after its time).
        let again = try #require(afterSnooze.first)
        await #expect(throws: UpcomingReminders.Problem.snoozeHasNoOffset) { try await s.reminders.change(again.id, minutesBefore: 5, account: s.omar, ifMatch: nil) }
        let moved = try await s.reminders.snooze(again.id, by: .minutes(60), account: s.omar, ifMatch: nil)
        #expect(moved.icalendar.contains("TRIGGER;VALUE=DATE-TIME:20261124T074000Z") && moved.icalendar.components(separatedBy: "BEGIN:VALARM").count == 3)
        await #expect(throws: UpcomingReminders.Problem.invalidSnooze) { try await s.reminders.snooze(again.id, by: .until(s.clock.now.addingTimeInterval(-60)), account: s.omar, ifMatch: nil) }

        // Remove: the snooze alarm goes; the acknowledged one has nothing left to fire.
        let last = try #require(try await s.reminders.list(account: s.omar).first { $0.reminder.title == "Dentist" })
        _ = try await s.reminders.remove(last.id, account: s.omar, ifMatch: nil)
        #expect(try await s.reminders.list(account: s.omar).map { $0.reminder.title ?? "" } == ["Pay rent"])
        #expect(try await s.text("dentist.ics").components(separatedBy: "BEGIN:VALARM").count == 2)
        await #expect(throws: UpcomingReminders.Problem.notFound) { try await s.reminders.remove(last.id, account: s.omar, ifMatch: nil) }
        // Bob cannot touch Omar's reminders; an unknown id reads as nothing.
        let rent = try #require(try await s.reminders.list(account: s.omar).first)
        await #expect(throws: UpcomingReminders.Problem.notFound) { try await s.reminders.remove(rent.id, account: s.bob, ifMatch: nil) }
        #expect(UpcomingReminders.ReminderID("not-an-id") == nil)
        // Tomorrow: the same time on the next day.
        let tomorrow = try await s.reminders.snooze(rent.id, by: .tomorrow, account: s.omar, ifMatch: nil)
        #expect(tomorrow.icalendar.contains("TRIGGER;VALUE=DATE-TIME:20261126T133000Z"), "\(tomorrow.icalendar)")
    }

    @Test("a repeating event: snoozing one instance overrides that instance only; change and remove reach the series", arguments: TestEnvironment.engines)
    func series(engine: TestEngine) async throws {
        let s = try await Self.setUp(engine)
        try await s.put(Self.event("standup", "Standup", start: "20261124T090000", minutes: 10, extra: ["RRULE:FREQ=DAILY;COUNT=5"]), "standup.ics")
        let listed = try await s.reminders.list(account: s.omar)
        #expect(listed.count == 5 && listed.allSatisfy(\.isRepeating))
        let second = listed[1]
        #expect(second.reminder.recurrenceID == "2026-11-25T06:00:00Z")
        _ = try await s.reminders.snooze(second.id, by: .minutes(60), account: s.omar, ifMatch: nil)
        let text = try await s.text("standup.ics")
        #expect(text.contains("RECURRENCE-ID;TZID=Asia/Riyadh:20261125T090000"), "\(text)")
        let after = try await s.reminders.list(account: s.omar)
        #expect(after.map(\.reminder.fireAt) == [
            "2026-11-24T05:50:00Z", "2026-11-25T06:50:00Z", "2026-11-26T05:50:00Z", "2026-11-27T05:50:00Z", "2026-11-28T05:50:00Z",
        ].map { try! Self.instant($0) }, "the other days keep theirs")
        #expect(after[1].isSnooze && !after[0].isSnooze && !after[2].isSnooze)

        // Change the series' alarm (from the first day): every instance but the snoozed override follows.
        _ = try await s.reminders.change(after[0].id, minutesBefore: 5, account: s.omar, ifMatch: nil)
        let changed = try await s.reminders.list(account: s.omar)
        #expect(changed.map(\.reminder.fireAt) == [
            "2026-11-24T05:55:00Z", "2026-11-25T06:50:00Z", "2026-11-26T05:55:00Z", "2026-11-27T05:55:00Z", "2026-11-28T05:55:00Z",
        ].map { try! Self.instant($0) })
        // Remove the series' alarm: only the snoozed instance keeps a reminder.
        _ = try await s.reminders.remove(changed[2].id, account: s.omar, ifMatch: nil)
        #expect(try await s.reminders.list(account: s.omar).map(\.isSnooze) == [true])
    }
}
