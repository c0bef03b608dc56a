import Foundation
import HTTPTypes
import HummingbirdTesting
import JadwalCore
import JadwalTestSupport
import NIOCore
import Testing

@testable import JadwalJobs
@testable import JadwalServer

/// Web Push end to end: browsers subscribe over the API, a prayer alert is posted through the
/// durable queue, and what Jadwal sends is decrypted and its VAPID JWT verified by the push
/// service stand-in with PyPI's http_ece and py_vapid. A subscription the push service calls
/// gone is forgotten; one it asks to retry gets the message once, on the retry.
@Suite("Web Push delivery (RFC 8030/8291/8292) to a push service stand-in", .serialized)
struct WebPushDeliveryTests {
    struct KeyView: Decodable { let publicKey: String }
    struct SubscriptionView: Decodable { let id: String; let name: String; let endpoint: String; let current: Bool }
    struct SubscriptionList: Decodable { let publicKey: String; let subscriptions: [SubscriptionView] }
    struct AlertsView: Decodable {
        struct Upcoming: Decodable { let prayer: String; let day: String; let alertAt: Date; let prayerTime: Date }
        let prayers: [String]
        let minutesBefore: Int
        let upcoming: [Upcoming]
    }

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    static func runJobs(_ harness: ServerHarness) async throws {
        while try await harness.instance.workers.runNextJob(worker: "test") {}
    }

    @Test("subscribe, a prayer alert pushed, decrypted and verified independently; 410 drops, 429 retries once", arguments: TestEnvironment.engines)
    func delivery(engine: TestEngine) async throws {
        guard let python = PushServiceStandIn.python else { return }
        try await PushServiceStandIn.run(python: python, subscriptions: ["ok", "gone", "busy"]) { service in
            // The push service checks the VAPID JWT's expiry against its own (real) clock, as real ones do.
            try await ServerHarness.run(engine: engine, clock: TestClock(Date()), configure: {
                $0.workers = 0
                $0.allowPrivateFetch = true  // the stand-in listens on loopback
                $0.webPushCAFile = service.caFile
                $0.vapidSubject = "mailto:ops@jadwal.test"
            }) { harness, client in
                let session = try await client.signIn("alice@example.com", harness: harness)
                let token = session.accessToken
                let key = try await client.send(.get, "/api/v1/web-push/key", token: token).json(KeyView.self).publicKey
                #expect(Data(base64URLEncoded: key)?.count == 65)

                for (name, subscription) in service.subscriptions.sorted(by: { $0.key < $1.key }) {
                    let body = String(decoding: try JSONEncoder().encode(subscription), as: UTF8.self)
                        .dropLast() + #","name":"\#(name)","applicationServerKey":"\#(key)"}"#
                    let created = try await client.send(.post, "/api/v1/web-push/subscriptions", json: String(body), token: token)
                    #expect(created.status == .created, "\(created.text)")
                }
                var list = try await client.send(.get, "/api/v1/web-push/subscriptions", token: token).json(SubscriptionList.self)
                #expect(list.subscriptions.map(\.name).sorted() == ["busy", "gone", "ok"])
                #expect(list.subscriptions.allSatisfy { $0.current })
                // The same browser subscribing again renews its row rather than adding one.
                let again = String(decoding: try JSONEncoder().encode(service.subscriptions["ok"]), as: UTF8.self).dropLast() + #","name":"ok"}"#
                #expect(try await client.send(.post, "/api/v1/web-push/subscriptions", json: String(again), token: token).status == .created)
                #expect(try await client.send(.get, "/api/v1/web-push/subscriptions", token: token).json(SubscriptionList.self).subscriptions.count == 3)

                // Prayer alerts for Riyadh, five minutes before each prayer (the next is at most
                // half a day away, so the JWT signed then still expires within 24 hours of now).
                #expect(try await client.send(.put, "/api/v1/prayer-settings", json: #"{"city": "Riyadh"}"#, token: token).status == .ok)
                let saved = try await client.send(
                    .put, "/api/v1/prayer-alerts", json: #"{"prayers": ["fajr", "dhuhr", "asr", "maghrib", "isha"], "minutesBefore": 5}"#, token: token)
                #expect(saved.status == .ok, "\(saved.text)")
                try await Self.runJobs(harness)
                let alerts = try Self.decoder().decode(AlertsView.self, from: Data(buffer: try await client.send(.get, "/api/v1/prayer-alerts", token: token).body))
                let first = try #require(alerts.upcoming.first)
                #expect(first.alertAt == first.prayerTime.addingTimeInterval(-300))
                #expect(["fajr", "dhuhr", "asr", "maghrib", "isha", "jumuah"].contains(first.prayer))
                let name = first.prayer == "jumuah" ? "Jumu'ah" : first.prayer.prefix(1).uppercased() + first.prayer.dropFirst()

                harness.clock.advance(by: first.alertAt.timeIntervalSince(harness.clock.now) + 1)
                try await Self.runJobs(harness)
                // The busy subscription was given back for a retry with backoff (at most 5 s).
                harness.clock.advance(by: 10)
                try await Self.runJobs(harness)

                let received = try service.received()
                let bySubscription = Dictionary(grouping: received, by: { $0.subscription ?? "?" })
                #expect(received.allSatisfy { $0.error == nil }, "\(received.compactMap(\.error))")
                #expect(bySubscription["ok"]?.map(\.status) == [201])
                #expect(bySubscription["gone"]?.map(\.status) == [410])
                #expect(bySubscription["busy"]?.map(\.status) == [429, 201])
                for record in received {
                    let message = try #require(record.message)
                    #expect(message.kind == "prayer")
                    #expect(message.title.hasPrefix(name + " at "), "\(message.title)")
                    #expect(message.body == "In 5 min.")
                    #expect(message.url == "/calendar?view=day&date=\(first.day)")
                    #expect(message.urgent && message.lang == "en" && message.dir == "ltr")
                    #expect(record.vapid?.claims.aud == service.url)
                    #expect(record.vapid?.claims.sub == "mailto:ops@jadwal.test")
                    #expect(record.vapid?.k == key)
                    #expect(record.headers["Urgency"] == "high")
                    #expect(record.headers["Content-Encoding"] == "aes128gcm")
                }
                // One message id for all three browsers and both tries.
                #expect(Set(received.compactMap(\.message?.id)).count == 1)

                // 410 forgot that browser; the others stay and were used. (Hours passed on the
                // clock: the first access token has expired, so Alice signs in again.)
                let fresh = try await client.signIn("alice@example.com", harness: harness).accessToken
                list = try await client.send(.get, "/api/v1/web-push/subscriptions", token: fresh).json(SubscriptionList.self)
                #expect(list.subscriptions.map(\.name).sorted() == ["busy", "ok"])

                // Removing one, and nobody else can remove another's.
                let other = try await client.signIn("bob@example.com", harness: harness)
                let okID = try #require(list.subscriptions.first { $0.name == "ok" }?.id)
                #expect(try await client.send(.delete, "/api/v1/web-push/subscriptions/\(okID)", token: other.accessToken).status == .notFound)
                #expect(try await client.send(.delete, "/api/v1/web-push/subscriptions/\(okID)", token: fresh).status == .noContent)
                #expect(try await client.send(.delete, "/api/v1/web-push/subscriptions/\(okID)", token: fresh).status == .notFound)
            }
        }
    }

    @Test("bad subscriptions are refused with a message naming the field; private endpoints only when the operator allows them")
    func refusals() async throws {
        try await ServerHarness.run(configure: { $0.workers = 0 }) { harness, client in
            let token = try await client.signIn("carol@example.com", harness: harness).accessToken
            let key = try await client.send(.get, "/api/v1/web-push/key", token: token).json(KeyView.self).publicKey
            let browser = P256Keys()
            func post(_ endpoint: String, p256dh: String? = nil, auth: String? = nil, serverKey: String? = nil) async throws -> TestResponse {
                let json = """
                    {"endpoint": "\(endpoint)", "keys": {"p256dh": "\(p256dh ?? browser.publicKey)", "auth": "\(auth ?? browser.auth)"}\
                    \(serverKey.map { #", "applicationServerKey": "\#($0)""# } ?? "")}
                    """
                return try await client.send(.post, "/api/v1/web-push/subscriptions", json: json, token: token)
            }
            func message(_ response: TestResponse) -> String { (try? response.json(ErrorBody.self))?.error.message ?? response.text }
            let plain = try await post("http://push.example.com/abc")
            #expect(plain.status == .badRequest && message(plain).contains("https://"), "\(plain.text)")
            let loopback = try await post("https://127.0.0.1:9/abc")
            #expect(loopback.status == .unprocessableContent && loopback.errorCode == "endpoint_refused", "\(loopback.text)")
            let privateRange = try await post("https://10.1.2.3/abc")
            #expect(privateRange.status == .unprocessableContent, "\(privateRange.text)")
            let badKey = try await post("https://203.0.113.9/abc", p256dh: "AAAA")
            #expect(badKey.status == .badRequest && message(badKey).contains("p256dh"), "\(badKey.text)")
            let badAuth = try await post("https://push.example.com/abc", auth: "c2hvcnQ")
            #expect(badAuth.status == .badRequest && message(badAuth).contains("keys.auth"), "\(badAuth.text)")
            let otherKey = try await post("https://push.example.com/abc", serverKey: P256Keys().publicKey)
            #expect(otherKey.status == .badRequest && message(otherKey).contains("another server key"), "\(otherKey.text)")
            let notJSON = try await client.send(.post, "/api/v1/web-push/subscriptions", json: "{", token: token)
            #expect(notJSON.status == .badRequest)
            #expect(try await client.send(.get, "/api/v1/web-push/subscriptions", token: token).json(SubscriptionList.self).subscriptions.isEmpty)
            #expect(try await client.send(.delete, "/api/v1/web-push/subscriptions/nope", token: token).status == .notFound)
            #expect(try await client.send(.get, "/api/v1/web-push/subscriptions").status == .unauthorized)
            _ = key
        }
    }

    @Test("the VAPID key is made on first start in the data directory with mode 0600, and kept across restarts")
    func keyFile() async throws {
        var configuration = try await TestEnvironment.serverConfiguration(engine: .sqlite)
        configuration.workers = 0
        let first = try WebPushKey.load(configuration, random: .system)
        let path = configuration.vapidKeyPath
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try WebPushKey.load(configuration, random: .system).rawRepresentation == first.rawRepresentation)
        // A configured key wins over the file; a wrong one stops the server with the variable named.
        let given = P256KeysSigning()
        configuration.vapidPrivateKey = given.rawBase64URL
        #expect(try WebPushKey.load(configuration, random: .system).rawRepresentation == given.key.rawRepresentation)
        configuration.vapidPrivateKey = "not a key"
        #expect(throws: (any Error).self) { try WebPushKey.load(configuration, random: .system) }
        configuration.vapidPrivateKey = nil
        try Data(repeating: 1, count: 5).write(to: URL(fileURLWithPath: path))
        #expect { try WebPushKey.load(configuration, random: .system) } throws: { "\($0)".contains("exactly 32 bytes") }
    }
}

import Crypto

/// A browser's keys, as `pushManager.subscribe` makes them.
struct P256Keys {
    let key = P256.KeyAgreement.PrivateKey()
    let authBytes = Data((0..<16).map { _ in UInt8.random(in: 0...255) })
    var publicKey: String { key.publicKey.x963Representation.base64URLEncodedString() }
    var auth: String { authBytes.base64URLEncodedString() }
}

struct P256KeysSigning {
    let key = P256.Signing.PrivateKey()
    var rawBase64URL: String { key.rawRepresentation.base64URLEncodedString() }
}
