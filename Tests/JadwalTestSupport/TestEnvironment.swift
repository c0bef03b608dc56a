import Foundation
import JadwalCore
import JadwalServer
import JadwalHTTP
import JadwalAPI
import JadwalWeb
import JadwalCalDAV
import JadwalMail
import JadwalPush
import JadwalLLM
import JadwalJobs
import Logging
import PostgresNIO
import Storage

/// The database engines a storage test runs on. PostgreSQL joins when the test command has
/// started a throwaway cluster and exported `JADWAL_TEST_DATABASE_URL`.
public enum TestEngine: String, Sendable, CaseIterable, CustomStringConvertible {
    case sqlite, postgres
    public var description: String { rawValue }
}

public enum TestEnvironment {
    public static var environment: [String: String] { ProcessInfo.processInfo.environment }

    /// In CI a missing outside part (PostgreSQL, Python, the SMTP server) is a failure, never a skip.
    public static var isCI: Bool { !(environment["CI"] ?? "").isEmpty }

    public static var postgresURL: String? { environment["JADWAL_TEST_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 } }

    /// The Python with the test tools (aiosmtpd) installed, exported by the test command.
    public static var python: String? { environment["JADWAL_TEST_PYTHON"].flatMap { $0.isEmpty ? nil : $0 } }

    public static var engines: [TestEngine] { postgresURL == nil ? [.sqlite] : [.sqlite, .postgres] }

    /// The repository root, found from this file's path.
    public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static var logger: Logger {
        var logger = Logger(label: "jadwal-test")
        logger.logLevel = environment["JADWAL_TEST_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .warning
        return logger
    }

    /// A fresh temporary directory.
    public static func temporaryDirectory(_ prefix: String = "jadwal-test") throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// An empty database on `engine`: a new SQLite file, or a new PostgreSQL database created
    /// through the test cluster (so tests never see each other's rows).
    public static func freshDatabase(_ engine: TestEngine) async throws -> DatabaseLocation {
        switch engine {
        case .sqlite:
            return .sqlite(path: try temporaryDirectory().appendingPathComponent("jadwal.sqlite").path)
        case .postgres:
            guard let url = postgresURL, case .postgres(var location) = try DatabaseLocation(url: url) else {
                throw TestSetupError("JADWAL_TEST_DATABASE_URL is not set: run the README's test command (scripts/test.sh)")
            }
            let name = "jadwal_t_\(UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: ""))"
            let connection = try await PostgresConnection.connect(
                configuration: .init(host: location.host, port: location.port, username: location.username,
                                     password: location.password, database: location.database, tls: .disable),
                id: 1, logger: logger
            )
            do {
                try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: logger)
                try await connection.close()
            } catch {
                try? await connection.close()
                throw error
            }
            location.database = name
            return .postgres(location)
        }
    }

    /// A migrated store on a fresh database.
    public static func freshStore(_ engine: TestEngine) async throws -> SQLStore {
        let store = try SQLStore(location: try await freshDatabase(engine), logger: logger)
        try await store.migrate()
        return store
    }

    /// A server configuration for tests: port 0, its own data directory, a fixed secret.
    public static func serverConfiguration(engine: TestEngine) async throws -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.dataDirectory = try temporaryDirectory().path
        configuration.secretKey = Data(repeating: 7, count: 32).base64EncodedString()
        configuration.logLevel = logger.logLevel
        configuration.workers = 1
        // Live chats are read at once unless a test is about the quiet period.
        configuration.chatQuietPeriod = .zero
        if engine == .postgres, case .postgres(let location) = try await freshDatabase(.postgres) {
            let password = location.password.map { ":\($0)" } ?? ""
            configuration.databaseURL = "postgres://\(location.username)\(password)@\(location.host):\(location.port)/\(location.database)"
        }
        return configuration
    }
}

public struct TestSetupError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A clock tests move by hand: token expiry and rate windows without waiting.
public final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    public init(_ start: Date = Date(timeIntervalSince1970: 1_790_000_000)) { current = start }

    public var now: Date { lock.withLock { current } }

    public func advance(by interval: TimeInterval) { lock.withLock { current += interval } }

    public var clock: Clock { Clock { [self] in now } }
}

/// The mail transport tests read from: it keeps what the server sent.
public actor MailOutbox: MailTransport {
    public private(set) var messages: [MailMessage] = []

    public init() {}

    public func send(_ message: MailMessage) async throws { messages.append(message) }

    /// Waits (bounded) until `count` messages to `address` (that pass `filter`) have arrived,
    /// and returns the newest of them.
    public func waitForMessage(
        to address: String, count: Int = 1, timeout: Duration = .seconds(30), where filter: @Sendable (MailMessage) -> Bool = { _ in true }
    ) async throws -> MailMessage {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let matching = messages.filter { message in message.to.contains { $0.email == address } && filter(message) }
            if matching.count >= count, let last = matching.last { return last }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TestSetupError("no email to \(address) within \(timeout)")
    }
}

extension MailOutbox {
    public func magicLinks(to address: String) -> [String] {
        messages.filter { message in message.to.contains { $0.email == address } }.compactMap(\.magicLinkToken)
    }

    /// Waits for the `count`-th sign-in link to `address` and returns its token.
    public func waitForMagicLink(to address: String, count: Int = 1) async throws -> String {
        let message = try await waitForMessage(to: address, count: count) { $0.magicLinkToken != nil }
        guard let token = message.magicLinkToken else { throw TestSetupError("no link in the email") }
        return token
    }
}

extension MailMessage {
    /// The sign-in token in a magic-link email.
    public var magicLinkToken: String? {
        guard let range = textBody.range(of: "/auth/magic?token=") else { return nil }
        return String(textBody[range.upperBound...].prefix { !$0.isWhitespace })
    }
}
