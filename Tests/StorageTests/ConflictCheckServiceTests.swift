import Foundation
import JadwalCore
import JadwalTestSupport
@testable import Storage
import SQLKit
import Testing

/// Conflict checks in process, on a real store: a bulk write's queued checks, coalesced into
/// passes, leave exactly what one check per write leaves.
@Suite("Conflict checks coalesced on every engine")
struct ConflictCheckServiceTests {
    /// 2026-09-21 17:13 in Riyadh.
    static let t0 = Date(timeIntervalSince1970: 1_790_000_000)

    /// One event of the bulk: when, how long, how it repeats, and who wrote it.
    struct Write: Sendable {
        var name: String
        var slug: String
        var start: String
        var minutes: Int
        var rule: String? = nil
        var transparent = false
        var allDay = false
        var source: WriteSource = .caldav

        var content: CalendarObjectContent {
            get throws {
                var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Jadwal Tests//EN", "BEGIN:VEVENT", "UID:\(name)", "DTSTAMP:20260901T000000Z"]
                if allDay {
                    lines.append("DTSTART;VALUE=DATE:\(start.prefix(8))")
                } else {
                    lines += ["DTSTART;TZID=Asia/Riyadh:\(start)", "DURATION:PT\(minutes)M"]
                }
                lines.append("SUMMARY:Event \(name)")
                if let rule { lines.append("RRULE:\(rule)") }
                if transparent { lines.append("TRANSP:TRANSPARENT") }
                lines += ["END:VEVENT", "END:VCALENDAR"]
                return try CalendarObjectContent(text: lines.joined(separator: "\r\n") + "\r\n")
            }
        }
    }

    /// The same pseudo-random fortnight every time: 07:00–22:00 in Riyadh (so prayers are hit),
    /// 30 to 120 minutes, some weekly series, one transparent, one all-day, one in the past, over
    /// two calendars and two sources.
    static func bulk(count: Int, prefix: String, seed: UInt64) -> [Write] {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        return (0..<count).map { index in
            let day = 22 + next(14)  // 2026-09-22 … 2026-10-05
            let month = day > 30 ? 10 : 9
            let start = String(format: "2026%02d%02dT%02d%02d00", month, day > 30 ? day - 30 : day, 7 + next(15), [0, 15, 30, 45][next(4)])
            var write = Write(
                name: "\(prefix)\(index).ics", slug: next(3) == 0 ? "work" : "personal", start: start, minutes: [30, 45, 60, 90, 120][next(5)],
                rule: next(10) == 0 ? "FREQ=WEEKLY;COUNT=4" : nil, source: next(3) == 0 ? .api : .caldav)
            if index == 3 { write.transparent = true }
            if index == 5 { write.allDay = true }
            if index == 7 { write.start = "20260801T100000" }  // before the check's horizon starts
            return write
        }
    }

    /// A person in Riyadh who prays there, told about conflicts of events written over the API.
    struct Person: Sendable {
        let store: SQLStore
        let clock: TestClock
        let account: Account
        let calendars: [String: CalendarCollection]
        let writes: CalendarWrites
        let check: ConflictCheck

        /// `indexed`: the checks keep each calendar's instances between runs (`BusyTimeIndex`), as
        /// the server's do; without, every check reads and expands its window afresh.
        init(engine: TestEngine, clock: TestClock, indexed: Bool = true) async throws {
            store = try await TestEnvironment.freshStore(engine)
            self.clock = clock
            let account = Account(
                id: UUID(), email: try EmailAddress("bulk@example.com"), name: "Huda", timeZone: "Asia/Riyadh", language: .english, createdAt: clock.now)
            self.account = account
            try await store.transaction { tx in
                try await tx.insertAccountWithDefaultCalendars(account, now: clock.now, random: .system)
                try await tx.savePrayerSettings(
                    PrayerSettings(latitude: 24.6877, longitude: 46.7219, timeZone: "Asia/Riyadh", method: .ummAlQura), accountID: account.id, at: clock.now)
                try await tx.saveConflictSettings(ConflictSettings(notifySources: [.api]), accountID: account.id, at: clock.now)
            }
            let work = try await Calendars(store: store, clock: clock.clock, random: .system).create(
                try Calendars(store: store, clock: clock.clock, random: .system).validated(Calendars.Draft(slug: "work"), account: account))
            let personal = try #require(try await store.read { tx in try await tx.calendar(accountID: account.id, slug: "personal") })
            calendars = ["work": work, "personal": personal]
            writes = CalendarWrites(store: store, clock: clock.clock, random: .system)
            check = ConflictCheck(store: store, clock: clock.clock, random: .system, busyTime: AccountBusyTime(index: indexed ? BusyTimeIndex() : nil))
        }

        func put(_ write: Write) async throws {
            clock.advance(by: 1)
            let calendar = try #require(calendars[write.slug])
            _ = try await writes.put(try write.content, name: write.name, in: calendar, source: write.source)
        }

        func delete(_ write: Write) async throws {
            clock.advance(by: 1)
            try await writes.delete(name: write.name, in: try #require(calendars[write.slug]), source: write.source)
        }

        /// Runs every due job until none is left, the way the server's workers do: conflict checks
        /// alone or coalesced; other jobs (reminders, notices) are only marked done. How many
        /// check runs it took.
        @discardableResult
        func drain(coalesced: Bool) async throws -> Int {
            var runs = 0
            while let job = try await store.transaction({ [clock] tx in try await tx.claimNextJob(worker: "test", now: clock.now, lease: .seconds(300)) }) {
                if job.kind == ConflictCheck.jobKind {
                    let request = try JSONDecoder().decode(ConflictCheck.Request.self, from: Data(job.payload.utf8))
                    _ = coalesced ? try await check.runCoalesced(request) : try await check.run(request)
                    runs += 1
                }
                try await store.transaction { [clock] tx in try await tx.completeJob(id: job.id, at: clock.now) }
            }
            return runs
        }

        /// Every conflict and notification, in words that do not depend on ids or on when the
        /// checks ran.
        func outcome(openOnly: Bool = false, withSource: Bool = true) async throws -> (conflicts: [String], notifications: [String]) {
            let slugs = Dictionary(uniqueKeysWithValues: calendars.values.map { ($0.id, $0.slug) })
            func place(_ calendarID: UUID?, _ name: String?) -> String { "\(calendarID.flatMap { slugs[$0] } ?? "-")/\(name ?? "-")" }
            let account = account
            let conflicts = try await store.read { tx in try await tx.conflicts(accountID: account.id, includeResolved: !openOnly) }.map { conflict in
                let overlaps = conflict.overlaps.map { overlap in
                    "\(overlap.kind) \(overlap.title) \(overlap.start)–\(overlap.end) shared \(overlap.overlapStart)–\(overlap.overlapEnd) "
                        + "\(place(overlap.calendarID, overlap.objectName)) \(overlap.prayer ?? "")"
                }
                return "\(place(conflict.event.calendarID, conflict.event.objectName)) \(conflict.event.start)–\(conflict.event.end) "
                    + "\(conflict.event.recurrenceID ?? "") \(conflict.status) " + (withSource ? "\(conflict.source) notify \(conflict.notify) " : "")
                    + "resolved \(conflict.resolvedAt != nil) [\(overlaps.joined(separator: "; "))]"
            }
            let notifications = try await store.read { tx in
                try await tx.notifications(accountID: account.id, deliveredBy: .distantFuture, beforeSequence: nil, unreadOnly: false, limit: 10_000)
            }.map { notice in
                "\(notice.kind) \(notice.title) | \(notice.body) | \(place(notice.links["calendarId"].flatMap(UUID.init(uuidString:)), notice.links["objectName"]))"
            }
            return (conflicts.sorted(), notifications.sorted())
        }

        /// The conflict check jobs not done (queued, running or dead), and those done more than once.
        func unfinishedChecks() async throws -> (left: Int, repeated: Int) {
            let jobs = try await store.read { tx in try await tx.jobs(state: nil, limit: 100_000) }.filter { $0.kind == ConflictCheck.jobKind }
            return (jobs.filter { $0.state != .done }.count, jobs.filter { $0.attempts != 1 }.count)
        }
    }

    /// What both ways write: events checked before the bulk (a dentist visit and a standup on
    /// top of it, whose conflict the person kept), then the bulk in two halves with edits and
    /// deletions in the second, moving the dentist visit away so the standup's conflict ends.
    static let before = [
        Write(name: "dentist.ics", slug: "personal", start: "20260923T100000", minutes: 60),
        Write(name: "standup.ics", slug: "work", start: "20260923T103000", minutes: 30),
        Write(name: "review.ics", slug: "work", start: "20260924T100000", minutes: 60),
        Write(name: "call.ics", slug: "personal", start: "20260924T103000", minutes: 60, source: .api),
    ]
    static let firstHalf = bulk(count: 60, prefix: "a", seed: 11)
    static let secondHalf = bulk(count: 60, prefix: "b", seed: 12) + edits
        + [Write(name: "dentist.ics", slug: "personal", start: "20260923T080000", minutes: 60)]
    /// Eight events of the first half, moved.
    static let edits = bulk(count: 8, prefix: "x", seed: 13).enumerated().map { index, write in
        var moved = write
        moved.name = firstHalf[index * 5].name
        moved.slug = firstHalf[index * 5].slug
        return moved
    }

    static func writeBefore(_ person: Person, coalesced: Bool) async throws {
        for write in before { try await person.put(write) }
        try await person.drain(coalesced: coalesced)
        // The person keeps the call's conflict: found again, it is not raised again.
        try await person.store.transaction { [account = person.account] tx in
            for var conflict in try await tx.conflicts(accountID: account.id, includeResolved: false) where conflict.event.objectName == "call.ics" {
                conflict.status = .kept
                try await tx.updateConflict(conflict)
            }
        }
    }

    @Test("a bulk write checked in coalesced passes leaves the same conflicts, notifications and rechecks as one check per write",
          arguments: TestEnvironment.engines)
    func coalescedMatchesOneByOne(engine: TestEngine) async throws {
        var results: [(conflicts: [String], notifications: [String])] = []
        var runs: [Int] = []
        // One check per write reading busy time afresh, the same with the busy-time index, and
        // coalesced passes with the index: all three must leave the same.
        for (coalesced, indexed) in [(false, false), (false, true), (true, true)] {
            let person = try await Person(engine: engine, clock: TestClock(Self.t0), indexed: indexed)
            try await Self.writeBefore(person, coalesced: coalesced)
            var checkRuns = 0
            for write in Self.firstHalf { try await person.put(write) }
            checkRuns += try await person.drain(coalesced: coalesced)
            for write in Self.secondHalf { try await person.put(write) }
            for write in Self.firstHalf.suffix(3) { try await person.delete(write) }
            checkRuns += try await person.drain(coalesced: coalesced)

            let unfinished = try await person.unfinishedChecks()
            #expect(unfinished.left == 0, "every queued check ran")
            #expect(unfinished.repeated == 0, "and ran once")
            results.append(try await person.outcome())
            runs.append(checkRuns)
            try await person.store.shutdown()
        }
        let (alone, indexed, coalesced) = (results[0], results[1], results[2])
        #expect(alone.conflicts.count > 40 && alone.notifications.count > 10, "the bulk is dense enough to test something")
        #expect(alone.conflicts.contains { $0.hasPrefix("work/standup.ics") && $0.contains("obsolete") },
                "moving the dentist visit rechecked the standup, whose conflict ended")
        #expect(alone.conflicts.contains { $0.hasPrefix("personal/call.ics") && $0.contains("kept") })
        #expect(indexed.conflicts == alone.conflicts)
        #expect(indexed.notifications == alone.notifications)
        #expect(coalesced.conflicts == alone.conflicts)
        #expect(coalesced.notifications == alone.notifications)
        #expect(runs[2] < runs[0] / 10, "the coalesced checks ran in a few passes (\(runs[2]) against \(runs[0]))")
    }

    @Test("checks queued while passes run are taken by a later pass: none is lost, none runs twice",
          arguments: TestEnvironment.engines)
    func writesDuringPasses(engine: TestEngine) async throws {
        let alone = try await Person(engine: engine, clock: TestClock(Self.t0), indexed: false)
        try await Self.writeBefore(alone, coalesced: false)
        for write in Self.firstHalf + Self.secondHalf { try await alone.put(write) }
        try await alone.drain(coalesced: false)
        let expected = try await alone.outcome(openOnly: true, withSource: false)
        try await alone.store.shutdown()

        let person = try await Person(engine: engine, clock: TestClock(Self.t0))
        try await Self.writeBefore(person, coalesced: true)
        // The writes and the passes run side by side, as a phone's sync beside the workers.
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for write in Self.firstHalf + Self.secondHalf { try await person.put(write) }
            }
            group.addTask {
                for _ in 0..<20 {
                    try await person.drain(coalesced: true)
                    await Task.yield()
                }
            }
            try await group.waitForAll()
        }
        try await person.drain(coalesced: true)
        let unfinished = try await person.unfinishedChecks()
        #expect(unfinished.left == 0 && unfinished.repeated == 0)
        // A check that ran before a later write may have raised a conflict that a recheck then
        // retired, or found one first with the earlier write's source (as one check per write
        // would in the same order), so what stands at the end is compared, without sources.
        let found = try await person.outcome(openOnly: true, withSource: false)
        #expect(found.conflicts == expected.conflicts)
        try await person.store.shutdown()
    }

    @Test("a pass that cannot read a check's payload ends that job as dead and checks the rest", arguments: TestEnvironment.engines)
    func unreadablePayload(engine: TestEngine) async throws {
        let person = try await Person(engine: engine, clock: TestClock(Self.t0))
        for write in Self.before { try await person.put(write) }
        let broken = Job.new(ConflictCheck.jobKind, payload: "{not json", runAt: person.clock.now, now: person.clock.now, id: UUID(),
                             subject: ConflictCheck.Request.subject(accountID: person.account.id))
        try await person.store.transaction { tx in try await tx.enqueue(broken) }
        let runs = try await person.drain(coalesced: true)
        #expect(runs == 1, "one pass took every check")
        let dead = try await person.store.read { tx in try await tx.job(id: broken.id) }
        #expect(dead?.state == .dead)
        let open = try await person.store.read { [account = person.account] tx in try await tx.conflicts(accountID: account.id, includeResolved: false) }
        #expect(Set(open.map(\.event.objectName)) == ["standup.ics", "call.ics"])
        try await person.store.shutdown()
    }

    @Test("what open conflicts run into is kept beside them, and migration 31 derives the same from the conflicts alone",
          arguments: TestEnvironment.engines)
    func conflictOverlapsKept(engine: TestEngine) async throws {
        let person = try await Person(engine: engine, clock: TestClock(Self.t0))
        try await Self.writeBefore(person, coalesced: true)
        for write in Self.firstHalf + Self.secondHalf { try await person.put(write) }
        try await person.drain(coalesced: true)

        func rows() async throws -> [String] {
            try await person.store.read { tx in
                guard let repository = tx as? SQLRepository else { throw TestSetupError("not the SQL store") }
                return try await repository.db.raw("SELECT conflict_id, account_id, calendar_id, object_name FROM conflict_overlaps").all().map { row in
                    try ["conflict_id", "account_id", "calendar_id", "object_name"].map { try row.decode(column: $0, as: String.self) }.joined(separator: " ")
                }.sorted()
            }
        }
        let kept = try await rows()
        // Every open conflict's events, read the long way.
        let open = try await person.store.read { [account = person.account] tx in try await tx.conflicts(accountID: account.id, includeResolved: false) }
        let expected = Set(open.flatMap { conflict in
            conflict.overlaps.compactMap { overlap in
                overlap.calendarID.flatMap { id in overlap.objectName.map { "\(conflict.id.uuidString) \(id.uuidString)/\($0)" } }
            }
        })
        #expect(!expected.isEmpty)
        #expect(Set(kept.map { row in
            let parts = row.split(separator: " ")
            return "\(parts[0]) \(parts[2])/\(parts[3])"
        }) == expected)

        // The events whose open conflicts name a given object, as the checks ask.
        let named = try #require(open.first { $0.overlaps.contains { $0.objectName != nil } }?.overlaps.first { $0.objectName != nil })
        let asked = try await person.store.read { [account = person.account] tx in
            try await tx.eventsWithOpenConflicts(accountID: account.id, naming: [try #require(named.calendarID): [try #require(named.objectName)]])
        }
        let long = open.filter { $0.overlaps.contains { $0.calendarID == named.calendarID && $0.objectName == named.objectName } }
        #expect(Set(asked) == Set(long.map { ConflictedEvent(calendarID: $0.event.calendarID, objectName: $0.event.objectName, source: $0.source) }))

        // A database migrated from before the table existed fills it from its open conflicts.
        let sqlEngine: SQLEngine = engine == .sqlite ? .sqlite : .postgres
        try await person.store.transaction { tx in
            guard let repository = tx as? SQLRepository else { throw TestSetupError("not the SQL store") }
            try await repository.db.raw("DELETE FROM conflict_overlaps").run()
            for statement in Migrations.v31ConflictOverlaps.statements(sqlEngine) where statement.hasPrefix("INSERT") {
                try await repository.db.raw(SQLQueryString(statement)).run()
            }
        }
        #expect(try await rows() == kept)
        try await person.store.shutdown()
    }
}
