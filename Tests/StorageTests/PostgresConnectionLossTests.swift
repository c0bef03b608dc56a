import Foundation
import JadwalCore
import JadwalTestSupport
import SQLKit
@testable import Storage
import Testing

/// A PostgreSQL connection lost in the middle of a transaction (the database stopped or
/// restarted): the caller hears `StoreUnavailable` at once, and the next transaction works. The
/// server ends the connection here itself (`pg_terminate_backend`), as a fast shutdown does.
@Suite("PostgreSQL connection lost mid-transaction", .timeLimit(.minutes(1)))
struct PostgresConnectionLossTests {
    static var postgres: [TestEngine] { TestEnvironment.engines.filter { $0 == .postgres } }

    @Test("a statement after the connection was ended fails at once as StoreUnavailable, not a wait for ever", arguments: postgres)
    func statementAfterLoss(engine: TestEngine) async throws {
        let store = try SQLStore(location: try await TestEnvironment.freshDatabase(engine), logger: TestEnvironment.logger)
        try await store.migrate()
        let account = Account(id: UUID(), email: try EmailAddress("lost@example.com"), name: "", timeZone: "UTC", language: .english, createdAt: Date())
        let began = ContinuousClock.now
        await #expect(throws: StoreUnavailable.self) {
            try await store.transaction { tx in
                guard let repository = tx as? SQLRepository else { throw TestSetupError("not the SQL store") }
                try await tx.insertAccount(account)
                // The server ends this session; its answer is an error, and the channel closes.
                _ = try? await repository.db.raw("SELECT pg_terminate_backend(pg_backend_pid())").run()
                try await Task.sleep(for: .milliseconds(300))
                // Written to a closed channel, this was never answered (and ROLLBACK after it neither).
                try await repository.db.raw("SELECT 1").run()
            }
        }
        #expect(ContinuousClock.now - began < .seconds(10))
        // Nothing of the lost transaction is kept, and the store goes on with a new connection.
        #expect(try await store.read { tx in try await tx.account(id: account.id) } == nil)
        try await store.transaction { tx in try await tx.insertAccount(account) }
        #expect(try await store.read { tx in try await tx.account(id: account.id) }?.email == account.email)
        try await store.shutdown()
    }

    @Test("a read whose connection was ended fails as StoreUnavailable, and the next read works", arguments: postgres)
    func readAfterLoss(engine: TestEngine) async throws {
        let store = try SQLStore(location: try await TestEnvironment.freshDatabase(engine), logger: TestEnvironment.logger)
        try await store.migrate()
        await #expect(throws: StoreUnavailable.self) {
            try await store.read { tx in
                guard let repository = tx as? SQLRepository else { throw TestSetupError("not the SQL store") }
                _ = try? await repository.db.raw("SELECT pg_terminate_backend(pg_backend_pid())").run()
                try await Task.sleep(for: .milliseconds(300))
                try await repository.db.raw("SELECT 1").run()
            }
        }
        #expect(try await store.read { tx in try await tx.accounts() }.isEmpty)
        try await store.shutdown()
    }
}
