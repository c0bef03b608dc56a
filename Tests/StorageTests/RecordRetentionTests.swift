import Foundation
import JadwalCore
import JadwalTestSupport
import Storage
import Testing

/// What ages out and what stays (`RecordRetention`), on every engine.
@Suite("Record retention on every engine")
struct RecordRetentionTests {
    @Test("a sweep forgets only what is past its time; the change log keeps a mark below which it cannot answer", arguments: TestEnvironment.engines)
    func sweep(engine: TestEngine) async throws {
        let store = try await TestEnvironment.freshStore(engine)
        // The change log is stamped with the server's own clock, so the sweep's clock runs ahead
        // of it by more than the log's age.
        let now = Date().addingTimeInterval(91 * 86_400)
        let day: TimeInterval = 86_400
        let account = Account(id: UUID(), email: try EmailAddress("keep@example.com"), name: "", timeZone: "Asia/Riyadh",
                              language: .english, createdAt: now - 100 * day)
        let calendar = CalendarCollection(id: UUID(), accountID: account.id, slug: "personal", displayName: "Personal",
                                          components: [.event], createdAt: now - 100 * day)
        @Sendable func object(_ name: String) -> CalendarObject {
            CalendarObject(calendarID: calendar.id, name: name, uid: name, component: .event, icalendar: "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n",
                           etag: "\"\(name)\"", firstStart: nil, lastEnd: nil, updatedAt: now)
        }
        let oldSession = SignInSession(id: UUID(), accountID: account.id, method: .magicLink, createdAt: now - 100 * day,
                                       lastUsedAt: now - 40 * day, expiresAt: now - 31 * day, userAgent: "old", clientAddress: "192.0.2.1")
        let liveSession = SignInSession(id: UUID(), accountID: account.id, method: .magicLink, createdAt: now - 50 * day,
                                        lastUsedAt: now, expiresAt: now + 10 * day, userAgent: "live", clientAddress: "192.0.2.2")
        let rotated = RefreshTokenRecord(digest: TokenDigest(of: "rotated"), sessionID: liveSession.id, createdAt: now - 50 * day, rotatedAt: now - 31 * day)
        let recent = RefreshTokenRecord(digest: TokenDigest(of: "recent"), sessionID: liveSession.id, createdAt: now - 31 * day, rotatedAt: now - 2 * day)
        let current = RefreshTokenRecord(digest: TokenDigest(of: "current"), sessionID: liveSession.id, createdAt: now - 2 * day)
        let email = try EmailAddress("keep@example.com")
        let jobs = (
            oldDone: Job.new("test.done", payload: "{}", maxAttempts: 1, runAt: now - 9 * day, now: now - 9 * day, id: UUID()),
            newDone: Job.new("test.done", payload: "{}", maxAttempts: 1, runAt: now - 2 * day, now: now - 2 * day, id: UUID()),
            oldDead: Job.new("test.dead", payload: "{}", maxAttempts: 1, runAt: now - 40 * day, now: now - 40 * day, id: UUID()),
            newDead: Job.new("test.dead", payload: "{}", maxAttempts: 1, runAt: now - 10 * day, now: now - 10 * day, id: UUID()),
            queued: Job.new("test.queued", payload: "{}", maxAttempts: 1, runAt: now + day, now: now - 40 * day, id: UUID())
        )
        try await store.transaction { tx in
            try await tx.insertAccount(account)
            try await tx.insertCalendar(calendar)
            _ = try await tx.putCalendarObject(object("a.ics"))
            _ = try await tx.putCalendarObject(object("b.ics"))
            _ = try await tx.deleteCalendarObject(calendarID: calendar.id, name: "b.ics")
            try await tx.insertSignInToken(SignInTokenRecord(digest: TokenDigest(of: "spent"), email: email, requester: "192.0.2.9",
                                                             createdAt: now - 3 * day, expiresAt: now - 2 * day))
            try await tx.insertSignInToken(SignInTokenRecord(digest: TokenDigest(of: "fresh"), email: email, requester: nil,
                                                             createdAt: now - 60, expiresAt: now + 600))
            try await tx.insertSession(oldSession)
            try await tx.insertSession(liveSession)
            for token in [rotated, recent, current] { try await tx.insertRefreshToken(token) }
            try await tx.insertSetupToken(SetupToken(digest: TokenDigest(of: "setup-old"), accountID: account.id, deviceName: "Phone",
                                                     createdAt: now - 3 * day, expiresAt: now - 2 * day))
            try await tx.insertSetupToken(SetupToken(digest: TokenDigest(of: "setup-new"), accountID: account.id, deviceName: "Phone",
                                                     createdAt: now - 60, expiresAt: now + 600))
            for job in [jobs.oldDone, jobs.newDone, jobs.oldDead, jobs.newDead, jobs.queued] { try await tx.enqueue(job) }
            try await tx.completeJob(id: jobs.oldDone.id, at: now - 8 * day)
            try await tx.completeJob(id: jobs.newDone.id, at: now - 2 * day)
            try await tx.failJob(id: jobs.oldDead.id, error: "gave up", retryAt: nil, at: now - 31 * day)
            try await tx.failJob(id: jobs.newDead.id, error: "gave up", retryAt: nil, at: now - 10 * day)
        }
        #expect(try await store.read { tx in try await tx.calendarChanges(calendarID: calendar.id, after: 0) }?.count == 3)

        let retention = RecordRetention(store: store, clock: Clock { now })
        let forgotten = try await retention.sweep()
        #expect(forgotten == RecordRetention.Forgotten(signIns: 2, refreshTokens: 1, setupLinks: 1, jobs: 2, changes: 3))

        try await store.read { tx async throws -> Void in
            #expect(try await tx.signInToken(digest: TokenDigest(of: "spent")) == nil)
            #expect(try await tx.signInToken(digest: TokenDigest(of: "fresh")) != nil)
            #expect(try await tx.session(id: oldSession.id) == nil)
            #expect(try await tx.session(id: liveSession.id) != nil)
            #expect(try await tx.refreshToken(digest: rotated.digest) == nil)
            #expect(try await tx.refreshToken(digest: recent.digest) != nil, "a token rotated two days ago still revokes its session if it comes back")
            #expect(try await tx.refreshToken(digest: current.digest) != nil)
            #expect(try await tx.setupToken(digest: TokenDigest(of: "setup-old")) == nil)
            #expect(try await tx.setupToken(digest: TokenDigest(of: "setup-new")) != nil)
            #expect(try await tx.job(id: jobs.oldDone.id) == nil)
            #expect(try await tx.job(id: jobs.oldDead.id) == nil)
            #expect(try await tx.job(id: jobs.newDone.id)?.state == .done)
            #expect(try await tx.job(id: jobs.newDead.id)?.state == .dead, "a dead job stays a month for the operator")
            #expect(try await tx.job(id: jobs.queued.id)?.state == .queued, "a queued job is never forgotten, however old")
            // The objects stay; the log cannot answer from before its mark any more.
            #expect(try await tx.calendarObjects(calendarID: calendar.id).map(\.name) == ["a.ics"])
            #expect(try await tx.calendarChanges(calendarID: calendar.id, after: 0) == nil)
            #expect(try await tx.calendarChanges(calendarID: calendar.id, after: 2) == nil)
            #expect(try await tx.calendarChanges(calendarID: calendar.id, after: 3) == [])
        }
        _ = try await store.transaction { tx in try await tx.putCalendarObject(object("c.ics")) }
        #expect(try await store.read { tx in try await tx.calendarChanges(calendarID: calendar.id, after: 3) }?.map(\.name) == ["c.ics"])

        // A second sweep: only the new row is old enough by the same clock, and the mark moves on.
        #expect(try await retention.sweep() == RecordRetention.Forgotten(changes: 1))
        #expect(try await store.read { tx in try await tx.calendarChanges(calendarID: calendar.id, after: 3) } == nil)
        #expect(try await store.read { tx in try await tx.calendarChanges(calendarID: calendar.id, after: 4) } == [])
        try await store.shutdown()
    }
}
