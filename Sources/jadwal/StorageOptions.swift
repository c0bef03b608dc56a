import ArgumentParser
import Foundation
import JadwalCore
import JadwalServer
import Logging
import Storage

/// The options every command that touches the database shares. Each falls back to its
/// `JADWAL_*` environment variable, then to the default.
struct StorageOptions: ParsableArguments {
    @Option(name: .customLong("data-dir"), help: "Data directory (env JADWAL_DATA_DIR, default ./jadwal-data).")
    var dataDirectory: String?

    @Option(name: .customLong("database-url"), help: "postgres://user:password@host:port/db (env JADWAL_DATABASE_URL; default: SQLite in the data directory).")
    var databaseURL: String?

    func apply(to configuration: inout ServerConfiguration, environment: [String: String]) {
        if let value = dataDirectory ?? environment["JADWAL_DATA_DIR"] { configuration.dataDirectory = value }
        if let value = databaseURL ?? environment["JADWAL_DATABASE_URL"], !value.isEmpty { configuration.databaseURL = value }
    }

    /// Opens the store, migrated, for an operator command; closes it after `body`.
    func withStore<T>(migrating: Bool = true, _ body: (SQLStore) async throws -> T) async throws -> T {
        var configuration = ServerConfiguration()
        apply(to: &configuration, environment: ProcessInfo.processInfo.environment)
        // An operator's import is held to the same quota as the server's writes.
        configuration.accountQuota = try ConfigurationValue.accountQuota(environment: ProcessInfo.processInfo.environment)
        var logger = Logger(label: "jadwal")
        logger.logLevel = .warning
        let store = try openStore(configuration, logger: logger)
        do {
            if migrating { try await store.migrate() }
            let result = try await body(store)
            try await store.shutdown()
            return result
        } catch {
            try? await store.shutdown()
            throw error
        }
    }
}
