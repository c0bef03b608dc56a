import Foundation
import JadwalCore
import JadwalTestSupport
import Storage
import Testing

/// Calendars, objects and the change log behind sync tokens, on every engine.
@Suite("Calendar storage on every engine")
struct CalendarStorageTests {
    static let t0 = Date(timeIntervalSince1970: 1_790_000_000)

    struct Fixture {
        let store: SQLStore
        let account: Account
        let calendar: CalendarCollection

        init(engine: TestEngine) async throws {
            store = try await TestEnvironment.freshStore(engine)
            let account = Account(id: UUID(), email: try EmailAddress("cal@example.com"), name: "", timeZone: "Asia/Riyadh",
                                  language: .english, createdAt: CalendarStorageTests.t0)
            let calendar = CalendarCollection(id: UUID(), accountID: account.id, slug: "personal", displayName: "Personal",
                                              components: [.event], createdAt: CalendarStorageTests.t0)
            try await store.transaction { tx in
                try await tx.insertAccount(account)
                try await tx.insertCalendar(calendar)
            }
            self.account = account
            self.calendar = calendar
        }

        func object(_ name: String, uid: String, start: Date?, end: Date?) -> CalendarObject {
            CalendarObject(calendarID: calendar.id, name: name, uid: uid, component: .event,
                           icalendar: "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n", etag: "\"\(UUID().uuidString)\"",
                           firstStart: start, lastEnd: end, updatedAt: CalendarStorageTests.t0)
        }

        func put(_ object: CalendarObject) async throws -> CalendarObject {
            try await store.transaction { tx in try await tx.putCalendarObject(object) }
        }
    }

    @Test("calendars: create, list in order, update properties, unique slug per account", arguments: TestEnvironment.engines)
    func calendars(engine: TestEngine) async throws {
        let f = try await Fixture(engine: engine)
        let tasks = CalendarCollection(id: UUID(), accountID: f.account.id, slug: "tasks", displayName: "Tasks", order: 1,
                                       components: [.todo], createdAt: Self.t0 + 1)
        try await f.store.transaction { tx in try await tx.insertCalendar(tasks) }
        #expect(try await f.store.read { tx in try await tx.calendars(accountID: f.account.id) }.map(\.slug) == ["tasks", "personal"])
        #expect(try await f.store.read { tx in try await tx.calendar(accountID: f.account.id, slug: "tasks") } == tasks)

        var changed = f.calendar
        changed.displayName = "شخصي"
        changed.color = "#0B6E4FFF"
        changed.order = 0
        let toSave = changed
        let saved = try await f.store.transaction { tx in try await tx.updateCalendarProperties(toSave) }
        #expect(saved.displayName == "شخصي" && saved.color == "#0B6E4FFF" && saved.revision == f.calendar.revision + 1)
        #expect(try await f.store.read { tx in try await tx.calendars(accountID: f.account.id) }.map(\.slug) == ["personal", "tasks"])

        let clash = CalendarCollection(id: UUID(), accountID: f.account.id, slug: "tasks", displayName: "Again", components: [.todo], createdAt: Self.t0)
        await #expect(throws: (any Error).self) { try await f.store.transaction { tx in try await tx.insertCalendar(clash) } }
        try await f.store.shutdown()
    }

    @Test("objects: put assigns revisions and logs changes; one UID per calendar", arguments: TestEnvironment.engines)
    func objects(engine: TestEngine) async throws {
        let f = try await Fixture(engine: engine)
        let a = try await f.put(f.object("a.ics", uid: "uid-a", start: Self.t0, end: Self.t0 + 3600))
        let b = try await f.put(f.object("b.ics", uid: "uid-b", start: nil, end: nil))
        #expect(a.revision == 1 && b.revision == 2)
        var edited = f.object("a.ics", uid: "uid-a", start: Self.t0 + 7200, end: Self.t0 + 9000)
        edited.icalendar = "BEGIN:VCALENDAR\r\nX-EDITED:1\r\nEND:VCALENDAR\r\n"
        let a2 = try await f.put(edited)
        #expect(a2.revision == 3)
        let stored = try await f.store.read { tx in try await tx.calendarObject(calendarID: f.calendar.id, name: "a.ics") }
        #expect(stored?.icalendar.contains("X-EDITED") == true && stored?.revision == 3 && stored?.etag == edited.etag)
        #expect(try await f.store.read { tx in try await tx.calendarObject(calendarID: f.calendar.id, uid: "uid-b") }?.name == "b.ics")

        // The same UID under another name is refused by storage (the server answers no-uid-conflict first).
        let duplicate = f.object("c.ics", uid: "uid-a", start: nil, end: nil)
        await #expect(throws: (any Error).self) { try await f.put(duplicate) }
        #expect(try await f.store.read { tx in try await tx.calendar(id: f.calendar.id) }?.revision == 3, "the failed write left no revision behind")

        let names = try await f.store.read { tx in try await tx.calendarObjects(calendarID: f.calendar.id, names: ["b.ics", "a.ics", "zzz.ics"]) }
        #expect(Set(names.map(\.name)) == ["a.ics", "b.ics"])
        #expect(try await f.store.transaction { tx in try await tx.deleteCalendarObject(calendarID: f.calendar.id, name: "b.ics") })
        #expect(try await f.store.transaction { tx in try await tx.deleteCalendarObject(calendarID: f.calendar.id, name: "b.ics") } == false)

        let log = try await f.store.read { tx in try await tx.calendarChanges(calendarID: f.calendar.id, after: 0) }
        #expect(log?.map(\.revision) == [1, 2, 3, 4])
        let sinceTwo = ChangeSet(changes: try await f.store.read { tx in try await tx.calendarChanges(calendarID: f.calendar.id, after: 2) } ?? [],
                                 currentRevision: 4)
        #expect(sinceTwo.written == ["a.ics"] && sinceTwo.deleted == ["b.ics"])
        #expect(try await f.store.read { tx in try await tx.calendarChanges(calendarID: f.calendar.id, after: 4) } == [])
        try await f.store.shutdown()
    }

    @Test("time-range candidates come from the occurrence index", arguments: TestEnvironment.engines)
    func timeRangeIndex(engine: TestEngine) async throws {
        let f = try await Fixture(engine: engine)
        let hour: TimeInterval = 3600
        _ = try await f.put(f.object("before.ics", uid: "1", start: Self.t0 - 10 * hour, end: Self.t0 - 9 * hour))
        _ = try await f.put(f.object("inside.ics", uid: "2", start: Self.t0 + hour, end: Self.t0 + 2 * hour))
        _ = try await f.put(f.object("touching-end.ics", uid: "3", start: Self.t0 - hour, end: Self.t0))
        _ = try await f.put(f.object("endless.ics", uid: "4", start: Self.t0 - 100 * hour, end: nil))
        _ = try await f.put(f.object("no-time.ics", uid: "5", start: nil, end: nil))
        _ = try await f.put(f.object("after.ics", uid: "6", start: Self.t0 + 24 * hour, end: Self.t0 + 25 * hour))
        let found = try await f.store.read { tx in try await tx.calendarObjects(calendarID: f.calendar.id, overlapping: Self.t0, Self.t0 + 24 * hour) }
        #expect(found.map(\.name) == ["endless.ics", "inside.ics", "no-time.ics"])
        // The index and the in-memory check agree.
        let all = try await f.store.read { tx in try await tx.calendarObjects(calendarID: f.calendar.id) }
        #expect(all.filter { $0.mayOverlap(start: Self.t0, end: Self.t0 + 24 * hour) }.map(\.name) == found.map(\.name))
        try await f.store.shutdown()
    }

    @Test("time-range candidates: spans up to a week and longer ones, also after an edit changes the length", arguments: TestEnvironment.engines)
    func timeRangeSpans(engine: TestEngine) async throws {
        let f = try await Fixture(engine: engine)
        let hour: TimeInterval = 3600, day = 24 * hour
        _ = try await f.put(f.object("week-long.ics", uid: "1", start: Self.t0 - 7 * day + hour, end: Self.t0 + hour))
        _ = try await f.put(f.object("week-before.ics", uid: "2", start: Self.t0 - 7 * day - hour, end: Self.t0 - hour))
        _ = try await f.put(f.object("eight-days.ics", uid: "3", start: Self.t0 - 8 * day, end: Self.t0 + hour))
        _ = try await f.put(f.object("long-before.ics", uid: "4", start: Self.t0 - 20 * day, end: Self.t0 - 10 * day))
        _ = try await f.put(f.object("grows.ics", uid: "5", start: Self.t0 - 30 * day, end: Self.t0 - 29 * day))
        _ = try await f.put(f.object("shrinks.ics", uid: "6", start: Self.t0 - 30 * day, end: Self.t0 + day))
        _ = try await f.put(f.object("grows.ics", uid: "5", start: Self.t0 - 30 * day, end: Self.t0 + hour))
        _ = try await f.put(f.object("shrinks.ics", uid: "6", start: Self.t0 - 30 * day, end: Self.t0 - 29 * day))
        let found = try await f.store.read { tx in try await tx.calendarObjects(calendarID: f.calendar.id, overlapping: Self.t0, Self.t0 + day) }
        #expect(found.map(\.name) == ["eight-days.ics", "grows.ics", "week-long.ics"])
        let all = try await f.store.read { tx in try await tx.calendarObjects(calendarID: f.calendar.id) }
        #expect(all.filter { $0.mayOverlap(start: Self.t0, end: Self.t0 + day) }.map(\.name) == found.map(\.name))
        try await f.store.shutdown()
    }

    @Test("concurrent writers never share a revision", arguments: TestEnvironment.engines)
    func concurrentRevisions(engine: TestEngine) async throws {
        let f = try await Fixture(engine: engine)
        let revisions = try await withThrowingTaskGroup(of: Int64.self) { group in
            for index in 0..<40 {
                let object = f.object("e\(index).ics", uid: "uid-\(index)", start: Self.t0, end: Self.t0 + 60)
                group.addTask { try await f.put(object).revision }
            }
            return try await group.reduce(into: [Int64]()) { $0.append($1) }
        }
        #expect(Set(revisions).count == 40 && revisions.max() == 40)
        #expect(try await f.store.read { tx in try await tx.calendar(id: f.calendar.id) }?.revision == 40)
        try await f.store.shutdown()
    }

    @Test("deleting a calendar removes its objects and log", arguments: TestEnvironment.engines)
    func deleteCalendar(engine: TestEngine) async throws {
        let f = try await Fixture(engine: engine)
        _ = try await f.put(f.object("a.ics", uid: "a", start: nil, end: nil))
        try await f.store.transaction { tx in try await tx.deleteCalendar(id: f.calendar.id) }
        #expect(try await f.store.read { tx in try await tx.calendar(id: f.calendar.id) } == nil)
        #expect(try await f.store.read { tx in try await tx.calendarObjects(calendarID: f.calendar.id) }.isEmpty)
        #expect(try await f.store.read { tx in try await tx.calendarChanges(calendarID: f.calendar.id, after: 0) } == [])
        try await f.store.shutdown()
    }
}
