import AsyncHTTPClient
import Crypto
import Foundation
import JadwalCore
import JadwalTestSupport
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import Testing

@testable import JadwalServer
@testable import JadwalHTTP
@testable import JadwalAPI
@testable import JadwalWeb
@testable import JadwalCalDAV
@testable import JadwalMail
@testable import JadwalPush
@testable import JadwalLLM
@testable import JadwalJobs

/// A test APNs server and a client configured for it, torn down together whatever the test does.
struct APNsRig {
    static let keyID = "ABC123DEFG"
    static let teamID = "DEF123GHIJ"
    static let topic = "com.example.jadwal"
    static let logger: Logger = {
        var logger = Logger(label: "jadwal.apns.test")
        logger.logLevel = ProcessInfo.processInfo.environment["JADWAL_TEST_APNS_TRACE"] == nil ? .critical : .trace
        return logger
    }()

    let server: APNsTestServer
    let client: APNsClient
    let clock: TestClock
    let key: P256.Signing.PrivateKey

    /// `client.send` with its typed throws widened: `#expect(try await …)` does not take typed throws
    /// inside these closures.
    func send(_ notification: PushNotification, to deviceToken: String) async throws -> PushOutcome {
        try await client.send(notification, to: deviceToken)
    }

    static func deviceToken() -> String {
        (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    }

    /// `adjust` changes the client's configuration (another team, no extra CA, …) before it is made.
    static func run(
        adjust: (inout APNsConfiguration) throws -> Void = { _ in }, _ body: (APNsRig) async throws -> Void
    ) async throws {
        let key = P256.Signing.PrivateKey()
        // Real time: the server checks the JWT's age against the same clock the client signs with.
        let clock = TestClock(Date())
        let server = try await APNsTestServer.start(
            .init(keyID: keyID, teamID: teamID, topic: topic, publicKey: key.publicKey), now: { clock.now })
        var configuration = APNsConfiguration(
            signingKey: key, keyID: keyID, teamID: teamID, topic: topic, endpoint: server.endpoint,
            additionalTrustRoots: [server.certificate.certificate], timeout: .seconds(10))
        do {
            try adjust(&configuration)
        } catch {
            await server.stop()
            throw error
        }
        let client = APNsClient(configuration: configuration, clock: clock.clock, logger: logger)
        let rig = APNsRig(server: server, client: client, clock: clock, key: key)
        let outcome: Result<Void, any Error>
        do {
            try await body(rig)
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        try await client.shutdown()
        await server.stop()
        try outcome.get()
    }

    /// An AsyncHTTPClient that trusts the test server, for requests the APNs client would never make.
    func withRawClient(http1Only: Bool = false, _ body: (HTTPClient) async throws -> Void) async throws {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.additionalTrustRoots = [.certificates([server.certificate.certificate])]
        var configuration = HTTPClient.Configuration()
        configuration.tlsConfiguration = tls
        configuration.httpVersion = http1Only ? .http1Only : .automatic
        configuration.connectionPool.retryConnectionEstablishment = false
        let raw = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
        let outcome: Result<Void, any Error>
        do {
            try await body(raw)
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        try await raw.shutdown()
        try outcome.get()
    }
}

@Suite("APNs client against a local HTTP/2 APNs server")
struct APNsClientTests {
    @Test("an alert is delivered over HTTP/2 with every header APNs documents, a verified JWT, and the alert payload")
    func alertDelivered() async throws {
        try await APNsRig.run { rig in
            let token = APNsRig.deviceToken()
            let notification = APNsSamples.alert()
            let outcome = try await rig.send(notification, to: token.uppercased())
            #expect(outcome == .delivered(apnsID: notification.id))

            let requests = rig.server.requests
            try #require(requests.count == 1)
            let request = requests[0]
            #expect(request.failedCheck == nil && request.status == 200, "\(request.failedCheck ?? "")")
            #expect(request.header(":method") == "POST")
            #expect(request.header(":scheme") == "https")
            #expect(request.header(":path") == "/3/device/\(token)", "lowercase hex")
            #expect(request.header("apns-topic") == APNsRig.topic)
            #expect(request.header("apns-push-type") == "alert")
            #expect(request.header("apns-priority") == "10")
            #expect(request.header("apns-expiration") == "1790100000")
            #expect(request.header("apns-collapse-id") == "event-added:dinner-1")
            #expect(request.header("apns-id") == notification.id.uuidString.lowercased())
            #expect(request.providerTokenHeader == ["alg": "ES256", "kid": APNsRig.keyID], "exactly Apple's header")
            #expect(request.header("authorization")?.hasPrefix("bearer ") == true)

            let alert = try #require(request.aps?["alert"] as? [String: Any])
            #expect(alert["title"] as? String == "Added: Dinner with Sara")
            #expect(alert["body"] as? String == "Thu 20:00 — conflicts with Gym")
            #expect(request.aps?["sound"] as? String == "default")
            #expect(request.aps?["thread-id"] as? String == "conflicts")
            #expect(request.jadwal?["kind"] as? String == "event-added")
            #expect((request.jadwal?["event"] as? [String: Any])?["uid"] as? String == "dinner-1@jadwal")

            // HTTP/2 for real: the server only speaks it after ALPN h2, and client streams are odd.
            #expect(rig.server.connections == 1)
            #expect(rig.server.refusedConnections.isEmpty)
            #expect(request.streamID % 2 == 1, "stream \(request.streamID)")
        }
    }

    @Test("a background push: push type background, priority 5, only content-available, and the whole event")
    func backgroundDelivered() async throws {
        try await APNsRig.run { rig in
            let notification = APNsSamples.background()
            let outcome = try await rig.send(notification, to: APNsRig.deviceToken())
            #expect(outcome == .delivered(apnsID: notification.id))
            let request = try #require(rig.server.requests.first)
            #expect(request.failedCheck == nil && request.status == 200, "\(request.failedCheck ?? "")")
            #expect(request.header("apns-push-type") == "background")
            #expect(request.header("apns-priority") == "5")
            #expect(request.header("apns-expiration") == "0")
            #expect(request.header("apns-collapse-id") == nil)
            let aps = try #require(request.aps)
            #expect(aps.count == 1 && aps["content-available"] as? Int == 1, "\(aps)")
            let event = try #require(request.jadwal?["event"] as? [String: Any])
            #expect(event["uid"] as? String == "dinner-1@jadwal")
            #expect(event["title"] as? String == "Dinner with Sara")
            #expect(event["start"] as? String == "2026-09-21T17:00:00Z")
            #expect(event["end"] as? String == "2026-09-21T19:00:00Z")
            #expect(event["calendar"] as? String == "whatsapp-events")
        }
    }

    @Test("410 Unregistered is .deviceGone with APNs' timestamp")
    func unregistered() async throws {
        try await APNsRig.run { rig in
            let token = APNsRig.deviceToken()
            let since = Date(timeIntervalSince1970: 1_789_000_000.25)
            rig.server.unregister(token, at: since)
            let outcome = try await rig.send(APNsSamples.alert(), to: token)
            #expect(outcome == .deviceGone(reason: "Unregistered", since: since))
            #expect(try await rig.send(APNsSamples.alert(), to: APNsRig.deviceToken()) != outcome, "only that token")
        }
    }

    @Test("an expired provider token is replaced and the send retried once: the server sees the old JWT, then a newer one")
    func expiredProviderTokenRefreshed() async throws {
        try await APNsRig.run { rig in
            let token = APNsRig.deviceToken()
            let before = APNsSamples.alert()
            #expect(try await rig.send(before, to: token) == .delivered(apnsID: before.id))
            rig.clock.advance(by: 5 * 60)
            rig.server.answerNext(.expireProviderToken)
            let notification = APNsSamples.alert()
            #expect(try await rig.send(notification, to: token) == .delivered(apnsID: notification.id))
            let after = APNsSamples.background()
            #expect(try await rig.send(after, to: token) == .delivered(apnsID: after.id))

            let requests = rig.server.requests
            try #require(requests.count == 4)
            #expect(requests.map(\.status) == [200, 403, 200, 200])
            #expect(requests[1].reason == "ExpiredProviderToken")
            #expect(requests.allSatisfy { $0.failedCheck == nil })
            let jwts = requests.map(\.providerToken)
            #expect(jwts[0] == jwts[1], "the refused one is the one in use")
            #expect(jwts[2] != jwts[1], "a new token for the retry")
            #expect(jwts[3] == jwts[2], "and it is kept")
            let first = try #require(requests[1].providerTokenIssuedAt)
            let second = try #require(requests[2].providerTokenIssuedAt)
            #expect(second.timeIntervalSince(first) == 5 * 60)
            #expect(requests[2].header("apns-id") == notification.id.uuidString.lowercased(), "the retry is the same notification")
        }
    }

    @Test("a token APNs keeps refusing is retried once, then .rejected")
    func invalidProviderTokenRejected() async throws {
        try await APNsRig.run(adjust: { $0.teamID = "WRONG12345" }) { rig in
            let outcome = try await rig.send(APNsSamples.alert(), to: APNsRig.deviceToken())
            #expect(outcome == .rejected(reason: "403 InvalidProviderToken"))
            let requests = rig.server.requests
            #expect(requests.count == 2)
            #expect(requests.compactMap(\.failedCheck).allSatisfy { $0.contains("iss is WRONG12345") }, "\(requests.compactMap(\.failedCheck))")
            #expect(Set(requests.compactMap(\.providerToken)).count == 2)
        }
    }

    @Test("a topic the server does not push for is .rejected with APNs' reason")
    func wrongTopic() async throws {
        try await APNsRig.run(adjust: { $0.topic = "com.example.other" }) { rig in
            let outcome = try await rig.send(APNsSamples.alert(), to: APNsRig.deviceToken())
            #expect(outcome == .rejected(reason: "400 TopicDisallowed"))
            #expect(rig.server.requests.count == 1)
        }
    }

    @Test("429 and 5xx are .retryLater")
    func retryLater() async throws {
        try await APNsRig.run { rig in
            rig.server.answerNext(
                .status(429, reason: "TooManyRequests"), .status(500, reason: "InternalServerError"), .status(503, reason: "ServiceUnavailable"))
            var outcomes: [PushOutcome] = []
            for _ in 0..<4 { outcomes.append(try await rig.send(APNsSamples.alert(), to: APNsRig.deviceToken())) }
            #expect(Array(outcomes.prefix(3)) == [
                .retryLater(reason: "TooManyRequests"), .retryLater(reason: "InternalServerError"), .retryLater(reason: "ServiceUnavailable"),
            ])
            #expect(outcomes.last.map { if case .delivered = $0 { true } else { false } } == true)
            #expect(rig.server.requests.allSatisfy { $0.failedCheck == nil })
            #expect(Set(rig.server.requests.compactMap(\.providerToken)).count == 1, "no new token for a busy server")
        }
    }

    @Test("an oversize payload and a long collapse ID are refused before anything is sent; a malformed token never leaves")
    func refusedBeforeSending() async throws {
        try await APNsRig.run { rig in
            var large = APNsSamples.alert()
            large.presentation = .alert(PushAlert(title: "Long", body: String(repeating: "x", count: 5000)))
            await #expect(throws: PushNotificationError.self) { try await rig.send(large, to: APNsRig.deviceToken()) }
            do throws(PushNotificationError) {
                _ = try await rig.client.send(large, to: APNsRig.deviceToken())
            } catch {
                guard case .payloadTooLarge(let bytes, let limit) = error else { Issue.record("\(error)"); return }
                #expect(bytes > 5000 && limit == 4096)
            }
            var collapsing = APNsSamples.alert()
            collapsing.collapseID = String(repeating: "c", count: 65)
            await #expect(throws: PushNotificationError.collapseIDTooLong(bytes: 65)) {
                try await rig.send(collapsing, to: APNsRig.deviceToken())
            }
            #expect(try await rig.send(APNsSamples.alert(), to: "not-a-token") == .deviceGone(reason: "BadDeviceToken", since: nil))
            #expect(rig.server.requests.isEmpty)
            #expect(rig.server.connections == 0)

            // A description long enough to need shortening still goes, within the limit.
            var event = APNsSamples.dinner
            event.description = String(repeating: "Bring the dates. ", count: 400)
            let shortened = APNsSamples.background(event: event)
            #expect(try await rig.send(shortened, to: APNsRig.deviceToken()) == .delivered(apnsID: shortened.id))
            let request = try #require(rig.server.requests.first)
            #expect(request.failedCheck == nil && request.body.count <= 4096, "\(request.body.count)")
        }
    }

    @Test("a server the client does not trust is a connection failure (.retryLater naming TLS), not a crash")
    func untrustedServer() async throws {
        // The system roots only, as in production.
        try await APNsRig.run(adjust: { $0.additionalTrustRoots = [] }) { rig in
            let outcome = try await rig.send(APNsSamples.alert(), to: APNsRig.deviceToken())
            guard case .retryLater(let reason) = outcome else { Issue.record("\(outcome)"); return }
            #expect(reason.contains("TLS") || reason.lowercased().contains("certificate"), "\(reason)")
            #expect(rig.server.requests.isEmpty)
        }
        // Another CA than the server's.
        let stranger = try APNsTestCertificate()
        try await APNsRig.run(adjust: { $0.additionalTrustRoots = [stranger.certificate] }) { rig in
            let outcome = try await rig.send(APNsSamples.alert(), to: APNsRig.deviceToken())
            guard case .retryLater(let reason) = outcome else { Issue.record("\(outcome)"); return }
            #expect(reason.contains("TLS"), "\(reason)")
            #expect(rig.server.requests.isEmpty)
        }
    }

    @Test("nothing listening is .retryLater")
    func unreachable() async throws {
        let closed = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(closed.localAddress?.port)
        try await closed.close()
        let client = APNsClient(
            configuration: APNsConfiguration(
                signingKey: P256.Signing.PrivateKey(), keyID: APNsRig.keyID, teamID: APNsRig.teamID, topic: APNsRig.topic,
                endpoint: "https://127.0.0.1:\(port)", timeout: .seconds(10)),
            logger: APNsRig.logger)
        let outcome = try await client.send(APNsSamples.alert(), to: APNsRig.deviceToken())
        try await client.shutdown()
        guard case .retryLater(let reason) = outcome else { Issue.record("\(outcome)"); return }
        // How fast is not asserted (timed checks flake on shared machines); the client does not
        // retry the connection itself, the job does, with backoff.
        #expect(reason.hasPrefix("cannot connect to https://127.0.0.1:\(port)"), "\(reason)")
    }

    @Test("the JWT is reused across sends and replaced only after 50 minutes, before APNs' hour")
    func providerTokenReused() async throws {
        try await APNsRig.run { rig in
            let token = APNsRig.deviceToken()
            var sent: [String?] = []
            let start = rig.clock.now
            for minutes in [0.0, 10, 19, 30, 49.9, 50.1, 55] {
                rig.clock.advance(by: start.addingTimeInterval(minutes * 60).timeIntervalSince(rig.clock.now))
                let notification = APNsSamples.background()
                let outcome = try await rig.send(notification, to: token)
                #expect(outcome == .delivered(apnsID: notification.id))
                sent.append(rig.server.requests.last?.providerToken)
            }
            #expect(rig.server.requests.allSatisfy { $0.status == 200 && $0.failedCheck == nil })
            #expect(Set(sent.prefix(5)).count == 1, "one JWT for the first 50 minutes")
            #expect(sent[5] != sent[4] && sent[6] == sent[5], "a new one at 50 minutes, then reused")
        }
    }

    @Test("concurrent sends share one HTTP/2 connection (multiplexed streams) and one JWT")
    func multiplexed() async throws {
        try await APNsRig.run { rig in
            let outcomes = try await withThrowingTaskGroup(of: PushOutcome.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        try await rig.send(index % 2 == 0 ? APNsSamples.alert() : APNsSamples.background(), to: APNsRig.deviceToken())
                    }
                }
                return try await group.reduce(into: [PushOutcome]()) { $0.append($1) }
            }
            #expect(outcomes.allSatisfy { if case .delivered = $0 { true } else { false } }, "\(outcomes)")
            let requests = rig.server.requests
            #expect(requests.count == 20)
            #expect(rig.server.connections == 1)
            #expect(Set(requests.map(\.connection)) == [1])
            #expect(Set(requests.map(\.streamID)).count == 20)
            #expect(Set(requests.compactMap(\.providerToken)).count == 1)
        }
    }
}

/// The test server's checks fail requests APNs would fail: without these, a server that
/// accepted anything would pass the suite above.
@Suite("APNs test server refuses what APNs refuses")
struct APNsTestServerChecksTests {
    struct Sent {
        var status: Int
        var reason: String?
        var failedCheck: String?
    }

    static func post(
        _ rig: APNsRig, raw: HTTPClient, get: Bool = false, path: String? = nil, jwt: String? = nil, headers: [String: String?] = [:],
        payload: String = #"{"aps":{"alert":{"title":"t","body":"b"}}}"#
    ) async throws -> Sent {
        var request = HTTPClientRequest(url: rig.server.endpoint + (path ?? "/3/device/\(APNsRig.deviceToken())"))
        request.method = get ? .GET : .POST
        let token = try jwt ?? APNsProviderToken(keyID: APNsRig.keyID, teamID: APNsRig.teamID, issuedAt: rig.clock.now, signingKey: rig.key).value
        var all: [String: String?] = [
            "authorization": "bearer \(token)", "apns-topic": APNsRig.topic, "apns-push-type": "alert", "apns-priority": "10",
            "apns-id": UUID().uuidString.lowercased(), "apns-expiration": "0",
        ]
        all.merge(headers) { $1 }
        for (name, value) in all.sorted(by: { $0.key < $1.key }) { if let value { request.headers.add(name: name, value: value) } }
        if !get { request.body = .bytes(ByteBuffer(string: payload)) }
        let response = try await raw.execute(request, timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 1 << 16)
        #expect(response.version == .http2)
        let reason = (try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any])?["reason"] as? String
        return Sent(status: Int(response.status.code), reason: reason, failedCheck: rig.server.requests.last?.failedCheck)
    }

    @Test("each documented refusal: method, path, token, JWT signature/kid/age, topic, priority, push type, size")
    func refusals() async throws {
        try await APNsRig.run { rig in
            try await rig.withRawClient { raw in
                func expect(_ sent: Sent, _ status: Int, _ reason: String, sourceLocation: SourceLocation = #_sourceLocation) {
                    #expect(sent.status == status && sent.reason == reason, "\(sent)", sourceLocation: sourceLocation)
                    #expect(sent.failedCheck != nil, sourceLocation: sourceLocation)
                }
                let accepted = try await Self.post(rig, raw: raw)
                #expect(accepted.status == 200 && accepted.failedCheck == nil, "\(accepted)")

                let stranger = P256.Signing.PrivateKey()
                let now = rig.clock.now
                expect(try await Self.post(rig, raw: raw, get: true), 405, "MethodNotAllowed")
                expect(try await Self.post(rig, raw: raw, path: "/3/devices/abc"), 404, "BadPath")
                expect(try await Self.post(rig, raw: raw, path: "/3/device/" + String(repeating: "z", count: 64)), 400, "BadDeviceToken")
                expect(try await Self.post(rig, raw: raw, headers: ["authorization": nil]), 403, "MissingProviderToken")
                expect(try await Self.post(rig, raw: raw, jwt: APNsProviderToken(
                    keyID: APNsRig.keyID, teamID: APNsRig.teamID, issuedAt: now, signingKey: stranger).value), 403, "InvalidProviderToken")
                expect(try await Self.post(rig, raw: raw, jwt: APNsProviderToken(
                    keyID: "OTHERKEY12", teamID: APNsRig.teamID, issuedAt: now, signingKey: rig.key).value), 403, "InvalidProviderToken")
                expect(try await Self.post(rig, raw: raw, jwt: APNsProviderToken(
                    keyID: APNsRig.keyID, teamID: APNsRig.teamID, issuedAt: now - 3601, signingKey: rig.key).value), 403, "ExpiredProviderToken")
                expect(try await Self.post(rig, raw: raw, headers: ["apns-topic": nil]), 400, "MissingTopic")
                expect(try await Self.post(rig, raw: raw, headers: ["apns-topic": "com.example.other"]), 400, "TopicDisallowed")
                expect(try await Self.post(rig, raw: raw, headers: ["apns-id": "42"]), 400, "BadMessageId")
                expect(try await Self.post(rig, raw: raw, headers: ["apns-expiration": "tomorrow"]), 400, "BadExpirationDate")
                expect(try await Self.post(rig, raw: raw, headers: ["apns-collapse-id": String(repeating: "c", count: 65)]), 400, "BadCollapseId")
                expect(try await Self.post(rig, raw: raw, headers: ["apns-push-type": nil]), 400, "InvalidPushType")
                expect(try await Self.post(rig, raw: raw, headers: ["apns-priority": "7"]), 400, "BadPriority")
                let background = #"{"aps":{"content-available":1}}"#
                let accepted5 = try await Self.post(rig, raw: raw, headers: ["apns-push-type": "background", "apns-priority": "5"], payload: background)
                #expect(accepted5.status == 200, "\(accepted5)")
                expect(try await Self.post(rig, raw: raw, headers: ["apns-push-type": "background"], payload: background), 400, "BadPriority")
                expect(try await Self.post(
                    rig, raw: raw, headers: ["apns-push-type": "background", "apns-priority": "5"],
                    payload: #"{"aps":{"content-available":1,"alert":"hi"}}"#), 400, "InvalidPushType")
                expect(try await Self.post(
                    rig, raw: raw, headers: ["apns-push-type": "background", "apns-priority": "5"], payload: #"{"aps":{}}"#), 400, "InvalidPushType")
                expect(try await Self.post(rig, raw: raw, payload: #"{"aps":{"content-available":1}}"#), 400, "InvalidPushType")
                expect(try await Self.post(rig, raw: raw, payload: ""), 400, "PayloadEmpty")
                expect(try await Self.post(rig, raw: raw, payload: "{not json"), 400, "BadPayload")
                expect(try await Self.post(
                    rig, raw: raw, payload: #"{"aps":{"alert":"x"},"pad":""# + String(repeating: "x", count: 4100) + #""}"#), 413, "PayloadTooLarge")
            }
        }
    }

    @Test("a client that does not negotiate HTTP/2 gets no answer")
    func http1Refused() async throws {
        try await APNsRig.run { rig in
            try await rig.withRawClient(http1Only: true) { raw in
                var request = HTTPClientRequest(url: rig.server.endpoint + "/3/device/\(APNsRig.deviceToken())")
                request.method = .POST
                request.body = .bytes(ByteBuffer(string: #"{"aps":{"alert":"x"}}"#))
                await #expect(throws: (any Error).self) { _ = try await raw.execute(request, timeout: .seconds(10)) }
            }
            #expect(rig.server.refusedConnections == ["no h2 negotiated by ALPN"])
            #expect(rig.server.requests.isEmpty)
        }
    }
}
