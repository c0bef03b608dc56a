import Foundation
import HTTPTypes
import HummingbirdTesting
import JadwalCore
@testable import JadwalServer
@testable import JadwalHTTP
@testable import JadwalAPI
@testable import JadwalWeb
@testable import JadwalCalDAV
@testable import JadwalMail
@testable import JadwalPush
@testable import JadwalLLM
@testable import JadwalJobs
import JadwalTestSupport
import NIOCore
import ServiceLifecycle
import Testing

/// A running server on a loopback port with its own database, a hand-moved clock and an outbox
/// for the emails it sends.
struct ServerHarness {
    let instance: JadwalServerInstance
    let clock: TestClock
    let outbox: MailOutbox

    static func run<T: Sendable>(
        engine: TestEngine = .sqlite,
        clock: TestClock = TestClock(),
        configure: (inout ServerConfiguration) -> Void = { _ in },
        alsoSendingTo transport: (any MailTransport)? = nil,
        _ body: @Sendable (ServerHarness, any TestClientProtocol) async throws -> T
    ) async throws -> T {
        var configuration = try await TestEnvironment.serverConfiguration(engine: engine)
        configure(&configuration)
        let outbox = MailOutbox()
        let instance = try await buildApplication(
            configuration, dependencies: ServerDependencies(clock: clock.clock, random: .system, mailTransport: transport.map { Tee(outbox, $0) } ?? outbox),
            logger: TestEnvironment.logger
        )
        let harness = ServerHarness(instance: instance, clock: clock, outbox: outbox)
        return try await instance.application.test(.live) { client in
            guard let bridge = instance.whatsAppBridge else { return try await body(harness, client) }
            // As `JadwalServerInstance.run` does: the bridge beside the application, stopped
            // before the HTTP server closes.
            let group = ServiceGroup(configuration: .init(services: [bridge], logger: TestEnvironment.logger))
            async let running: Void = group.run()
            do {
                let value = try await body(harness, client)
                await group.triggerGracefulShutdown()
                try await running
                return value
            } catch {
                await group.triggerGracefulShutdown()
                try? await running
                throw error
            }
        }
    }
}

/// Mail to the outbox the tests read and to another transport (a real SMTP server) alike.
struct Tee: MailTransport {
    let first: any MailTransport
    let second: any MailTransport

    init(_ first: any MailTransport, _ second: any MailTransport) {
        self.first = first
        self.second = second
    }

    func send(_ message: MailMessage) async throws {
        try await first.send(message)
        try await second.send(message)
    }
}

struct SessionTokens: Decodable, Sendable {
    struct AccountJSON: Decodable, Sendable {
        let id: String
        let email: String
        let name: String
        let timeZone: String
        let language: String
    }
    let accessToken: String
    let tokenType: String
    let expiresIn: Int
    let refreshToken: String
    let sessionId: String
    let account: AccountJSON
}

struct ErrorBody: Decodable {
    struct Detail: Decodable { let code: String; let message: String }
    let error: Detail
}

extension TestResponse {
    func json<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(buffer: body))
    }

    var errorCode: String? { (try? json(ErrorBody.self))?.error.code }
    var text: String { String(buffer: body) }
}

extension TestClientProtocol {
    func send(
        _ method: HTTPRequest.Method, _ uri: String, json: String? = nil, token: String? = nil, headers extra: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = extra
        if json != nil, headers[.contentType] == nil { headers[.contentType] = "application/json" }
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await execute(uri: uri, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) }) { $0 }
    }

    /// The whole magic-link flow: ask, read the email, redeem.
    func signIn(_ email: String, harness: ServerHarness, userAgent: String = "tests") async throws -> SessionTokens {
        let address = email.lowercased()
        let before = await harness.outbox.magicLinks(to: address).count
        let asked = try await send(.post, "/api/v1/auth/email", json: #"{"email": "\#(email)"}"#, headers: [.userAgent: userAgent])
        try #require(asked.status == .accepted, "\(asked.text)")
        // Without background workers the test runs the queue itself, the email job with it.
        if harness.instance.configuration.workers == 0 {
            while try await harness.instance.workers.runNextJob(worker: "test") {}
        }
        let token = try await harness.outbox.waitForMagicLink(to: address, count: before + 1)
        let redeemed = try await send(.post, "/api/v1/auth/magic", json: #"{"token": "\#(token)"}"#, headers: [.userAgent: userAgent])
        try #require(redeemed.status == .ok, "\(redeemed.text)")
        return try redeemed.json(SessionTokens.self)
    }
}
