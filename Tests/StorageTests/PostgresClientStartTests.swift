import Foundation
import JadwalTestSupport
import Logging
import Synchronization
@testable import Storage
import Testing

/// A store on PostgreSQL used the moment it is made (as `serve` migrates at once) leases a
/// connection only once its client runs: PostgresNIO warned "run() hasn't been called yet" on
/// some starts otherwise (20 times in one run of the test command, at random).
@Suite("PostgreSQL client start")
struct PostgresClientStartTests {
    /// Keeps every message logged through it.
    final class Captured: Sendable {
        let messages = Mutex<[String]>([])

        struct Handler: LogHandler {
            let captured: Captured
            var metadata: Logger.Metadata = [:]
            var logLevel: Logger.Level = .trace
            subscript(metadataKey key: String) -> Logger.Metadata.Value? {
                get { metadata[key] }
                set { metadata[key] = newValue }
            }
            func log(event: LogEvent) {
                captured.messages.withLock { $0.append(event.message.description) }
            }
        }

        var logger: Logger { Logger(label: "jadwal-test-capture") { _ in Handler(captured: self) } }
    }

    @Test("a store used as soon as it is made never leases before its client runs", .enabled(if: TestEnvironment.postgresURL != nil))
    func noLeaseBeforeRun() async throws {
        let captured = Captured()
        let location = try await TestEnvironment.freshDatabase(.postgres)
        for _ in 0..<40 {
            let store = try SQLStore(location: location, logger: captured.logger)
            try await store.migrate()
            try await store.shutdown()
        }
        let early = captured.messages.withLock { $0.filter { $0.contains("hasn't been called") } }
        #expect(early.isEmpty, "\(early.count) leases before the client ran")
    }
}
