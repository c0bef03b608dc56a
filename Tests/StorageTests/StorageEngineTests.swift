import Foundation
import JadwalCore
import JadwalTestSupport
import SQLKit
@testable import Storage
import Testing

/// The storage suite: every test runs on SQLite and, when the test command started one, on PostgreSQL.
@Suite("Storage on every engine")
struct StorageEngineTests {
    static let t0 = Date(timeIntervalSince1970: 1_790_000_000)

    static func account(_ email: String, at date: Date = t0) throws -> Account {
        Account(id: UUID(), email: try EmailAddress(email), name: "", timeZone: "UTC", language: .english, createdAt: date)
    }

    @Test("PostgreSQL is part of the run in CI")
    func postgresConfiguredInCI() {
        if TestEnvironment.isCI {
            #expect(TestEnvironment.postgresURL != nil, "CI must run the storage suite on PostgreSQL too (scripts/test.sh exports JADWAL_TEST_DATABASE_URL)")
        }
    }

    @Test("migrations apply once and are recorded", arguments: TestEnvironment.engines)
    func migrations(engine: TestEngine) async throws {
        let store = try SQLStore(location: try await TestEnvironment.freshDatabase(engine), logger: TestEnvironment.logger)
        defer { Task { try? await store.shutdown() } }
        let first = try await store.migrate()
        // Every migration once, in order; versions may leave gaps (numbers reserved for other branches).
        #expect(first == Migrations.all.sorted { $0.version < $1.version }.map { "\($0.version) \($0.name)" })
        #expect(try await store.migrate().isEmpty)
        #expect(try await store.schemaVersion == SQLStore.latestSchemaVersion)
        try await store.checkReady()
        try await store.shutdown()
    }

    @Test("a migration numbered below one already applied (merged later) is still applied", arguments: TestEnvironment.engines)
    func lowerNumberedMigrationApplied(engine: TestEngine) async throws {
        let store = try SQLStore(location: try await TestEnvironment.freshDatabase(engine), logger: TestEnvironment.logger)
        try await store.migrate()
        // As if v20 had been merged after the versions above it were applied.
        try await store.transaction { tx in
            guard let repository = tx as? SQLRepository else { throw TestSetupError("not the SQL store") }
            try await repository.db.raw("DROP TABLE hidden_calendars").run()
            try await repository.db.raw("DELETE FROM schema_migrations WHERE version = 20").run()
        }
        await #expect(throws: StorageError.schemaBehind(database: 19, binary: SQLStore.latestSchemaVersion)) { try await store.checkReady() }
        #expect(try await store.migrate() == ["20 calendars hidden from the views"])
        #expect(try await store.migrate().isEmpty)
        try await store.checkReady()
        try await store.shutdown()
    }

    @Test("a schema newer than the binary is refused with a clear message", arguments: TestEnvironment.engines)
    func newerSchemaRefused(engine: TestEngine) async throws {
        let location = try await TestEnvironment.freshDatabase(engine)
        let store = try SQLStore(location: location, logger: TestEnvironment.logger)
        try await store.migrate()
        try await store.insertSchemaVersionForTesting(999)
        await #expect(throws: StorageError.schemaNewerThanBinary(database: 999, binary: SQLStore.latestSchemaVersion)) {
            try await store.migrate()
        }
        await #expect(throws: StorageError.self) { try await store.checkReady() }
        let message = StorageError.schemaNewerThanBinary(database: 999, binary: SQLStore.latestSchemaVersion).description
        #expect(message.contains("999") && message.contains("newer jadwal"))
        try await store.shutdown()
    }

    @Test("accounts: insert, find by email and id, update, list", arguments: TestEnvironment.engines)
    func accounts(engine: TestEngine) async throws {
        let store = try await TestEnvironment.freshStore(engine)
        var sara = try Self.account("Sara@Example.com")
        sara.name = "سارة"
        let created = sara
        try await store.transaction { tx in try await tx.insertAccount(created) }
        let byEmail = try await store.read { tx in try await tx.account(email: try EmailAddress("sara@example.com")) }
        #expect(byEmail == created)
        var renamed = created
        renamed.timeZone = "Asia/Riyadh"
        renamed.language = .arabic
        let changed = renamed
        try await store.transaction { tx in try await tx.updateAccount(changed) }
        #expect(try await store.read { tx in try await tx.account(id: created.id) } == changed)
        let duplicate = try Self.account("sara@example.com")
        await #expect(throws: (any Error).self) { try await store.transaction { tx in try await tx.insertAccount(duplicate) } }
        #expect(try await store.read { tx in try await tx.accounts() }.count == 1)
        try await store.shutdown()
    }

    @Test("a failed transaction leaves nothing behind, jobs included", arguments: TestEnvironment.engines)
    func rollback(engine: TestEngine) async throws {
        struct Boom: Error {}
        let store = try await TestEnvironment.freshStore(engine)
        let account = try Self.account("rollback@example.com")
        await #expect(throws: Boom.self) {
            try await store.transaction { tx in
                try await tx.insertAccount(account)
                try await tx.enqueue(Job.new("email.send", payload: "{}", runAt: Self.t0, now: Self.t0, id: UUID()))
                throw Boom()
            }
        }
        #expect(try await store.read { tx in try await tx.account(id: account.id) } == nil)
        #expect(try await store.read { tx in try await tx.jobs(state: nil, limit: 10) }.isEmpty)
        try await store.shutdown()
    }

    /// SQLite's transactions run on the writer's own thread (`SQLiteWriterThread`): many at once
    /// still queue and all commit, one failing among them leaves only itself out, and once the
    /// store is shut down a write is refused rather than left waiting for a thread that is gone.
    @Test("many writers at once all commit; after shutdown a write is refused, not hung", .timeLimit(.minutes(1)))
    func concurrentWritesAndShutdown() async throws {
        struct Boom: Error {}
        let store = try await TestEnvironment.freshStore(.sqlite)
        let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<64 {
                group.addTask {
                    let account = try Self.account("writer\(index)@example.com")
                    do {
                        try await store.transaction { tx in
                            try await tx.insertAccount(account)
                            if index == 13 { throw Boom() }
                        }
                        return true
                    } catch is Boom {
                        return false
                    }
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 63)
        let stored = try await store.read { tx in try await tx.accounts() }
        #expect(stored.count == 63)
        #expect(!stored.contains { $0.email.value == "writer13@example.com" })
        try await store.shutdown()
        let late = try Self.account("late@example.com")
        await #expect(throws: StorageError.closed) { try await store.transaction { tx in try await tx.insertAccount(late) } }
    }

    /// The writer's thread stops at shutdown, so shutdown first waits for the transaction in
    /// flight (a job worker's, say): it commits, and its connection is closed, not dropped open.
    @Test("shutdown waits for the write in flight, which commits", .timeLimit(.minutes(1)))
    func shutdownDuringWrite() async throws {
        let location = try await TestEnvironment.freshDatabase(.sqlite)
        let store = try SQLStore(location: location, logger: TestEnvironment.logger)
        try await store.migrate()
        let first = try Self.account("first@example.com"), second = try Self.account("second@example.com")
        let (started, begin) = AsyncStream.makeStream(of: Void.self)
        let writing = Task {
            try await store.transaction { tx in
                try await tx.insertAccount(first)
                begin.yield()
                // Long enough for shutdown to begin while this transaction is open.
                try await Task.sleep(for: .milliseconds(300))
                try await tx.insertAccount(second)
            }
        }
        for await _ in started { break }
        try await store.shutdown()
        try await writing.value
        let reopened = try SQLStore(location: location, logger: TestEnvironment.logger)
        #expect(try await reopened.read { tx in try await tx.accounts() }.count == 2)
        try await reopened.shutdown()
    }

    /// A test that stops early drops its store unshut; SQLiteNIO traps (in debug builds) on an
    /// open connection going away, which took the whole test run down with it.
    @Test("a SQLite store dropped without shutdown closes its connections")
    func droppedWithoutShutdown() async throws {
        var store: SQLStore? = try await TestEnvironment.freshStore(.sqlite)
        #expect(try await store?.read { tx in try await tx.accounts() }.isEmpty == true)
        store = nil
        #expect(store == nil)
    }

    @Test("a sign-in token is used once, even by two racing requests", arguments: TestEnvironment.engines)
    func signInTokenSingleUse(engine: TestEngine) async throws {
        let store = try await TestEnvironment.freshStore(engine)
        let token = SecretToken(random: .system)
        let record = SignInTokenRecord(digest: token.digest, email: try EmailAddress("a@example.com"), requester: "127.0.0.1",
                                       createdAt: Self.t0, expiresAt: Self.t0 + 900)
        try await store.transaction { tx in try await tx.insertSignInToken(record) }
        #expect(try await store.read { tx in try await tx.signInToken(digest: token.digest) } == record)
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask { try await store.transaction { tx in try await tx.markSignInTokenUsed(digest: token.digest, at: Self.t0) } }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.filter { $0 }.count == 1)
        let requests = try await store.read { tx in try await tx.signInRequests(email: record.email, since: Self.t0 - 1) }
        #expect(requests == [Self.t0])
        #expect(try await store.read { tx in try await tx.signInRequests(requester: "127.0.0.1", since: Self.t0 + 1) }.isEmpty)
        try await store.shutdown()
    }

    @Test("sessions and refresh tokens: rotate once, revoke", arguments: TestEnvironment.engines)
    func sessions(engine: TestEngine) async throws {
        let store = try await TestEnvironment.freshStore(engine)
        let account = try Self.account("s@example.com")
        let session = SignInSession(id: UUID(), accountID: account.id, method: .magicLink, createdAt: Self.t0, lastUsedAt: Self.t0,
                                    expiresAt: Self.t0 + 86400, userAgent: "iPhone", clientAddress: "127.0.0.1")
        let refresh = SecretToken(random: .system)
        try await store.transaction { tx in
            try await tx.insertAccount(account)
            try await tx.insertSession(session)
            try await tx.insertRefreshToken(RefreshTokenRecord(digest: refresh.digest, sessionID: session.id, createdAt: Self.t0))
        }
        #expect(try await store.read { tx in try await tx.session(id: session.id) } == session)
        #expect(try await store.transaction { tx in try await tx.markRefreshTokenRotated(digest: refresh.digest, at: Self.t0) })
        #expect(try await store.transaction { tx in try await tx.markRefreshTokenRotated(digest: refresh.digest, at: Self.t0) } == false)
        #expect(try await store.read { tx in try await tx.refreshToken(digest: refresh.digest) }?.rotatedAt == Self.t0)
        #expect(try await store.read { tx in try await tx.activeSessions(accountID: account.id, at: Self.t0) }.map(\.id) == [session.id])
        try await store.transaction { tx in try await tx.revokeSessions(accountID: account.id, at: Self.t0, reason: "test") }
        #expect(try await store.read { tx in try await tx.activeSessions(accountID: account.id, at: Self.t0) }.isEmpty)
        #expect(try await store.read { tx in try await tx.session(id: session.id) }?.revokedReason == "test")
        try await store.shutdown()
    }
}

extension SQLStore {
    /// Simulates a database migrated by a newer binary.
    func insertSchemaVersionForTesting(_ version: Int) async throws {
        try await transaction { tx in
            guard let repository = tx as? SQLRepository else { throw TestSetupError("not the SQL store") }
            try await repository.db.raw(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (\(bind: version), 'from the future', 0)").run()
        }
    }
}
