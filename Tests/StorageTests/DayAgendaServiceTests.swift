import Foundation
import ICalendar
import JadwalCore
import JadwalTestSupport
import PrayerTimes
import Storage
import Synchronization
import Testing

/// The Today list in process on a real store: every kind of thing a day holds, in order, from
/// the person's own calendars, a calendar shared with them and their task lists; what is left out
/// (hidden calendars, other days, cancelled and long-done to-dos); conflict marks; and marking a
/// to-do done or not done through the write path.
@Suite("One day as one list (Today) on every engine")
struct DayAgendaServiceTests {
    /// Monday 23 November 2026, 08:00 in Riyadh.
    static let monday8am = Date(timeIntervalSince1970: 1_795_410_000)

    struct Setup {
        let store: SQLStore
        let clock: TestClock
        let omar: Account
        let bob: Account
        let writes: CalendarWrites
        let agenda: DayAgenda
        let tasks: Tasks
        let calendars: Calendars

        func calendar(_ account: Account, _ slug: String) async throws -> CalendarCollection {
            try #require(try await store.read { tx in try await tx.calendar(accountID: account.id, slug: slug) })
        }

        @discardableResult
        func put(_ lines: [String], _ name: String, in calendar: CalendarCollection) async throws -> CalendarObject {
            try await writes.put(try DayAgendaServiceTests.content(lines), name: name, in: calendar, source: .caldav).object
        }
    }

    static func content(_ lines: [String]) throws -> CalendarObjectContent {
        try CalendarObjectContent(text: (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Jadwal Tests//EN"] + lines + ["END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n")
    }

    static func event(_ uid: String, _ summary: String, start: String, end: String) -> [String] {
        let date = start.count == 8
        return ["BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20261101T000000Z",
                date ? "DTSTART;VALUE=DATE:\(start)" : "DTSTART;TZID=Asia/Riyadh:\(start)",
                date ? "DTEND;VALUE=DATE:\(end)" : "DTEND;TZID=Asia/Riyadh:\(end)", "SUMMARY:\(summary)", "END:VEVENT"]
    }

    static func todo(_ uid: String, _ summary: String, due: String, extra: [String] = []) -> [String] {
        ["BEGIN:VTODO", "UID:\(uid)", "DTSTAMP:20261101T000000Z", due.count == 8 ? "DUE;VALUE=DATE:\(due)" : "DUE;TZID=Asia/Riyadh:\(due)",
         "SUMMARY:\(summary)"] + extra + ["END:VTODO"]
    }

    static func setUp(_ engine: TestEngine) async throws -> Setup {
        let store = try await TestEnvironment.freshStore(engine)
        let clock = TestClock(monday8am)
        let omar = Account(id: UUID(), email: try EmailAddress("omar@example.com"), name: "Omar", timeZone: "Asia/Riyadh", language: .english, createdAt: monday8am)
        let bob = Account(id: UUID(), email: try EmailAddress("bob@example.com"), name: "Bob", timeZone: "Asia/Riyadh", language: .english, createdAt: monday8am)
        try await store.transaction { tx in
            try await tx.insertAccountWithDefaultCalendars(omar, now: monday8am, random: .system)
            try await tx.insertAccountWithDefaultCalendars(bob, now: monday8am, random: .system)
        }
        let parse: @Sendable (CalendarObject) -> Component? = { try? ICalendarParser().parseCalendar($0.icalendar) }
        let integrated = IntegratedCalendar(store: store, parse: parse)
        let tasks = Tasks(store: store, clock: clock.clock, random: .system, busyTime: AccountBusyTime(), parse: parse)
        return Setup(
            store: store, clock: clock, omar: omar, bob: bob, writes: CalendarWrites(store: store, clock: clock.clock, random: .system),
            agenda: DayAgenda(store: store, clock: clock.clock, integrated: integrated, tasks: tasks), tasks: tasks,
            calendars: Calendars(store: store, clock: clock.clock, random: .system))
    }

    @Test("events, routines, task time, prayers and to-dos in one ordered list; what is left out", arguments: TestEnvironment.engines)
    func day(engine: TestEngine) async throws {
        let s = try await Self.setUp(engine)
        let personal = try await s.calendar(s.omar, "personal")
        try await s.put(Self.event("standup", "Standup", start: "20261123T090000", end: "20261123T093000"), "standup.ics", in: personal)
        try await s.put(Self.event("dentist", "Dentist", start: "20261123T091500", end: "20261123T100000"), "dentist.ics", in: personal)
        try await s.put(Self.event("holiday", "National holiday", start: "20261123", end: "20261124"), "holiday.ics", in: personal)
        try await s.put(Self.event("late", "Late show", start: "20261122T230000", end: "20261123T010000"), "late.ics", in: personal)
        try await s.put(Self.event("tomorrow", "Tomorrow's lunch", start: "20261124T130000", end: "20261124T140000"), "tomorrow.ics", in: personal)
        // Routines and planned task time: their own calendars, their own kinds.
        let routines = try await s.calendars.create(try s.calendars.validated(
            Calendars.Draft(slug: DefaultCalendars.routinesSlug, properties: CalendarPropertiesChange(displayName: "Routine"), components: [.event]), account: s.omar))
        try await s.put(Self.event("gym", "Gym", start: "20261123T180000", end: "20261123T190000"), "gym.ics", in: routines)
        let taskTime = try await s.calendars.create(try s.calendars.validated(
            Calendars.Draft(slug: DefaultCalendars.plannedTasksSlug, properties: CalendarPropertiesChange(displayName: "Task Time"), components: [.event]), account: s.omar))
        try await s.put(Self.event("block", "Write report", start: "20261123T130000", end: "20261123T140000"), "block.ics", in: taskTime)
        // A hidden calendar's event is not on the list.
        let hidden = try await s.calendars.create(try s.calendars.validated(
            Calendars.Draft(properties: CalendarPropertiesChange(displayName: "Hidden"), components: [.event, .todo]), account: s.omar))
        try await s.put(Self.event("secret", "Hidden meeting", start: "20261123T120000", end: "20261123T123000"), "secret.ics", in: hidden)
        try await s.put(Self.todo("hidden-todo", "Hidden to-do", due: "20261123"), "hidden-todo.ics", in: hidden)
        try await s.calendars.setHidden(true, calendar: hidden)
        // To-dos of the task list.
        let list = try await s.calendar(s.omar, "tasks")
        try await s.put(Self.todo("rent", "Pay rent", due: "20261123T170000"), "rent.ics", in: list)
        try await s.put(Self.todo("mum", "Call mum", due: "20261123"), "mum.ics", in: list)
        try await s.put(Self.todo("passport", "Renew passport", due: "20261120"), "passport.ics", in: list)
        try await s.put(Self.todo("old", "Long done", due: "20261120", extra: ["STATUS:COMPLETED", "COMPLETED:20261121T090000Z"]), "old.ics", in: list)
        try await s.put(Self.todo("early", "Done this morning", due: "20261122", extra: ["STATUS:COMPLETED", "COMPLETED:20261123T030000Z"]), "early.ics", in: list)
        try await s.put(Self.todo("later", "Next week", due: "20261130"), "later.ics", in: list)
        try await s.put(Self.todo("dropped", "Dropped", due: "20261123", extra: ["STATUS:CANCELLED"]), "dropped.ics", in: list)
        // Bob's calendar, shared with Omar to read: its event and to-do are on Omar's list.
        let bobs = try await s.calendars.create(try s.calendars.validated(
            Calendars.Draft(properties: CalendarPropertiesChange(displayName: "Family"), components: [.event, .todo]), account: s.bob))
        try await s.put(Self.event("visit", "Visit grandma", start: "20261123T150000", end: "20261123T160000"), "visit.ics", in: bobs)
        try await s.put(Self.todo("cake", "Buy cake", due: "20261123T140000"), "cake.ics", in: bobs)
        let shares = CalendarShares(store: s.store, clock: s.clock.clock, random: .system)
        let share = try await shares.share(calendarID: bobs.id, owner: s.bob, with: s.omar.email, access: .read)
        _ = try await shares.accept(shareID: share.id, account: s.omar)
        // Prayer times for Riyadh.
        _ = try await PrayerPreferences(store: s.store, clock: s.clock.clock, random: .system, publicURL: "http://localhost")
            .save(PrayerSettingsChange(city: "Riyadh"), accountID: s.omar.id)
        // The dentist runs into the standup: a conflict, found by the check every write queues.
        _ = try await ConflictCheck(store: s.store, clock: s.clock.clock, random: .system).run(
            ConflictCheck.Request(accountID: s.omar.id, calendarID: personal.id, objectName: "dentist.ics", source: .caldav))

        let day = try await s.agenda.day(account: s.omar)
        #expect(day.isToday && day.date.description == "2026-11-23" && day.hasPrayerSettings && !day.truncated)
        #expect(day.start == Date(timeIntervalSince1970: 1_795_381_200) && day.end == Date(timeIntervalSince1970: 1_795_467_600), "Riyadh's midnights")
        let titles = day.entries.map { $0.title ?? "" }
        let untimed = day.entries.prefix { $0.untimed }.map { $0.title ?? "" }
        #expect(untimed == ["Renew passport", "Late show", "National holiday", "Call mum", "Done this morning"], "\(untimed)")
        let timed = day.entries.drop { $0.untimed }
        #expect(zip(timed, timed.dropFirst()).allSatisfy { ($0.start ?? .distantPast) <= ($1.start ?? .distantPast) }, "timed entries by start: \(titles)")
        #expect(timed.filter { $0.kind != .prayer }.map { $0.title ?? "" } == [
            "Standup", "Dentist", "Write report", "Buy cake", "Visit grandma", "Pay rent", "Gym",
        ], "\(titles)")
        #expect(timed.filter { $0.kind == .prayer }.map(\.prayer) == [.fajr, .dhuhr, .asr, .maghrib, .isha])
        for left in ["Hidden meeting", "Hidden to-do", "Tomorrow's lunch", "Long done", "Next week", "Dropped"] {
            #expect(!titles.contains(left), "\(left) is not on the list")
        }
        func entry(_ title: String) throws -> DayAgenda.Entry { try #require(day.entries.first { $0.title == title }) }
        #expect(try entry("Gym").kind == .routine && entry("Write report").kind == .taskTime && entry("Visit grandma").kind == .event)
        #expect(try entry("Pay rent").kind == .todo && entry("Pay rent").start == Date(timeIntervalSince1970: 1_795_442_400))
        #expect(try entry("Renew passport").isOverdue && !entry("Call mum").isOverdue)
        #expect(try entry("Done this morning").todo?.isDone == true && entry("Pay rent").todo?.isDone == false)
        #expect(try entry("Buy cake").todo?.canComplete == false && entry("Pay rent").todo?.canComplete == true, "a calendar shared to read")
        #expect(try entry("National holiday").isAllDay && entry("Late show").untimed && !entry("Late show").isAllDay)
        // The conflict is marked on the dentist (the event the check was about), not on others.
        let conflicts = try await s.store.read { tx in try await tx.conflicts(accountID: s.omar.id, includeResolved: false) }
        #expect(try entry("Dentist").conflicts == conflicts.filter { $0.event.objectName == "dentist.ics" }.map(\.id) && !entry("Dentist").conflicts.isEmpty)
        #expect(try entry("Gym").conflicts.isEmpty)

        // Another day: its own things; nothing overdue is carried there.
        let tomorrow = try await s.agenda.day(account: s.omar, date: try LocalDate(iso8601: "2026-11-24"))
        let tomorrowTitles = tomorrow.entries.filter { $0.kind != .prayer }.map { $0.title ?? "" }
        #expect(!tomorrow.isToday && tomorrowTitles == ["Tomorrow's lunch"], "\(tomorrowTitles)")
        // No prayer settings: no prayers, and the day says so.
        let bobsDay = try await s.agenda.day(account: s.bob)
        #expect(!bobsDay.hasPrayerSettings && !bobsDay.entries.contains { $0.kind == .prayer })
    }

    @Test("marking a to-do done and not done writes the VTODO; a stale ETag, a read-only share and a stranger are refused", arguments: TestEnvironment.engines)
    func completion(engine: TestEngine) async throws {
        let s = try await Self.setUp(engine)
        let list = try await s.calendar(s.omar, "tasks")
        let rent = try await s.put(Self.todo("rent", "Pay rent", due: "20261123T170000", extra: ["X-APPLE-SORT-ORDER:12"]), "rent.ics", in: list)
        let done = try await s.tasks.setDone(true, name: "rent.ics", calendarID: list.id, account: s.omar, ifMatch: rent.etag)
        #expect(done.etag != rent.etag)
        for line in ["STATUS:COMPLETED", "PERCENT-COMPLETE:100", "COMPLETED:20261123T050000Z", "X-APPLE-SORT-ORDER:12"] {
            #expect(done.icalendar.contains(line), "\(line) in \(done.icalendar)")
        }
        #expect(try await s.agenda.day(account: s.omar).entries.first { $0.title == "Pay rent" }?.todo?.isDone == true)
        await #expect(throws: CalendarWrites.Refusal.preconditionFailed(currentETag: done.etag)) {
            try await s.tasks.setDone(false, name: "rent.ics", calendarID: list.id, account: s.omar, ifMatch: rent.etag)
        }
        let reopened = try await s.tasks.setDone(false, name: "rent.ics", calendarID: list.id, account: s.omar, ifMatch: nil)
        #expect(reopened.icalendar.contains("STATUS:NEEDS-ACTION") && !reopened.icalendar.contains("COMPLETED:"))
        // Bob cannot mark Omar's to-do: it is not found for him.
        await #expect(throws: Tasks.CompletionProblem.notFound) {
            try await s.tasks.setDone(true, name: "rent.ics", calendarID: list.id, account: s.bob, ifMatch: nil)
        }
        // Shared to read: Omar sees Bob's to-do but may not mark it.
        let bobs = try await s.calendar(s.bob, "tasks")
        try await s.put(Self.todo("cake", "Buy cake", due: "20261123"), "cake.ics", in: bobs)
        let shares = CalendarShares(store: s.store, clock: s.clock.clock, random: .system)
        let share = try await shares.share(calendarID: bobs.id, owner: s.bob, with: s.omar.email, access: .read)
        _ = try await shares.accept(shareID: share.id, account: s.omar)
        await #expect(throws: CalendarWrites.Refusal.sharedReadOnly) {
            try await s.tasks.setDone(true, name: "cake.ics", calendarID: bobs.id, account: s.omar, ifMatch: nil)
        }
        _ = try await shares.change(shareID: share.id, owner: s.bob, access: .readWrite)
        let marked = try await s.tasks.setDone(true, name: "cake.ics", calendarID: bobs.id, account: s.omar, ifMatch: nil)
        #expect(marked.icalendar.contains("STATUS:COMPLETED"), "read-write: the sharee marks it in the owner's calendar")
        // An event is not a to-do to mark.
        let personal = try await s.calendar(s.omar, "personal")
        try await s.put(Self.event("standup", "Standup", start: "20261123T090000", end: "20261123T093000"), "standup.ics", in: personal)
        await #expect(throws: Tasks.CompletionProblem.notFound) {
            try await s.tasks.setDone(true, name: "standup.ics", calendarID: personal.id, account: s.omar, ifMatch: nil)
        }
    }

    @Test("the store tells its observers what a committed transaction changed for calendar views, and who sees it", arguments: TestEnvironment.engines)
    func viewChanges(engine: TestEngine) async throws {
        let s = try await Self.setUp(engine)
        let seen = ChangesSeen()
        s.store.observeViewChanges { seen.add($0) }
        let personal = try await s.calendar(s.omar, "personal")
        try await s.put(Self.event("standup", "Standup", start: "20261123T090000", end: "20261123T093000"), "standup.ics", in: personal)
        #expect(seen.all.last == CalendarViewChanges(calendars: [personal.id: s.omar.id]))
        // A rolled-back transaction tells nobody.
        let before = seen.all.count
        struct Abandoned: Error {}
        await #expect(throws: Abandoned.self) {
            try await s.store.transaction { tx in
                _ = try await s.writes.put(try Self.content(Self.event("x", "X", start: "20261123T100000", end: "20261123T110000")), name: "x.ics",
                                           in: personal, source: .api, transaction: tx)
                throw Abandoned()
            }
        }
        #expect(seen.all.count == before)
        // Prayer settings and hiding a calendar change the person's views; reading changes nothing.
        _ = try await PrayerPreferences(store: s.store, clock: s.clock.clock, random: .system, publicURL: "http://localhost")
            .save(PrayerSettingsChange(city: "Riyadh"), accountID: s.omar.id)
        #expect(seen.all.last == CalendarViewChanges(accounts: [s.omar.id]))
        _ = try await s.agenda.day(account: s.omar)
        #expect(seen.all.last == CalendarViewChanges(accounts: [s.omar.id]) && seen.all.count == before + 1)
        // A calendar shared with Omar: a change to it reaches him through one read.
        let family = try await s.calendars.create(try s.calendars.validated(
            Calendars.Draft(properties: CalendarPropertiesChange(displayName: "Family"), components: [.event]), account: s.bob))
        let shares = CalendarShares(store: s.store, clock: s.clock.clock, random: .system)
        let share = try await shares.share(calendarID: family.id, owner: s.bob, with: s.omar.email, access: .read)
        _ = try await shares.accept(shareID: share.id, account: s.omar)
        try await s.put(Self.event("visit", "Visit", start: "20261123T150000", end: "20261123T160000"), "visit.ics", in: family)
        let change = try #require(seen.all.last)
        #expect(change == CalendarViewChanges(calendars: [family.id: s.bob.id]))
        let audience = CalendarAudience(store: s.store)
        #expect(CalendarAudience.direct(change) == [s.bob.id])
        #expect(try await audience.sharees(of: change) == [s.omar.id])
        // Deleting a calendar still names its owner.
        try await s.calendars.delete(family)
        #expect(seen.all.last?.calendars[family.id] == s.bob.id)
    }
}

/// What an observer was told, in order.
final class ChangesSeen: Sendable {
    private let changes = Mutex<[CalendarViewChanges]>([])
    func add(_ change: CalendarViewChanges) { changes.withLock { $0.append(change) } }
    var all: [CalendarViewChanges] { changes.withLock { $0 } }
}
