import Foundation
import JadwalTestSupport
@testable import Storage
import Testing

/// A store on PostgreSQL used the moment it is made (as `serve` migrates at once) leases a
/// connection only once its client runs: PostgresNIO warned "run() hasn't been called yet" on
/// some starts otherwise (20 times in one run of the test command, at random).
@Suite("PostgreSQL client start")
struct PostgresClientStartTests {
    @Test("a store used as soon as it is made never leases before its client runs", .enabled(if: TestEnvironment.postgresURL != nil))
    func noLeaseBeforeRun() async throws {
        let captured = CapturingLogHandler.Store()
        let location = try await TestEnvironment.freshDatabase(.postgres)
        for _ in 0..<40 {
            let store = try SQLStore(location: location, logger: captured.logger)
            try await store.migrate()
            try await store.shutdown()
        }
        let early = captured.records.filter { $0.message.contains("hasn't been called") }
        #expect(early.isEmpty, "\(early.count) leases before the client ran")
    }
}
