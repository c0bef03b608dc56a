import AsyncHTTPClient
import Foundation
import HTTPTypes
import HummingbirdTesting
import JadwalCore
@testable import JadwalAPI
@testable import JadwalServer
import JadwalTestSupport
import NIOCore
import Testing

/// `/api/v1/whatsapp/link` and the bridge's loopback routes over real HTTP; the test itself is
/// the bridge here (no process), so every answer of the routes can be asked for.
@Suite("WhatsApp link API over HTTP")
struct WhatsAppLinkAPITests {
    struct LinkJSON: Decodable {
        let state: String
        let reason: String?
        let code: String?
        let expiresAt: Date?
        let phone: String
        let linkedAs: String?
        let historyDays: Int
    }

    struct WorkJSON: Decodable {
        struct Item: Decodable {
            let accountId: String
            let attempt: String
            let phone: String
            let state: String
            let session: String?
        }
        let links: [Item]
    }

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    @Test("without the bridge: linking says so, and the bridge's routes do not exist")
    func bridgeOff() async throws {
        try await ServerHarness.run { harness, client in
            let token = try await client.signIn("omar@example.com", harness: harness).accessToken
            let asked = try await client.send(.post, "/api/v1/whatsapp/link", json: #"{"phone": "+966501234567"}"#, token: token)
            #expect(asked.status == .serviceUnavailable && asked.errorCode == "whatsapp_bridge_off", "\(asked.text)")
            #expect(try await client.send(.get, "/api/v1/whatsapp/link", token: token).status == .notFound)
            #expect(try await client.send(.get, "/internal/whatsapp/links", token: "anything").status == .notFound)
        }
    }

    @Test("code, link, session, messages, unlink; the bridge's token and answers", arguments: TestEnvironment.engines)
    func flow(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine, configure: { configuration in
            var bridge = WhatsAppBridgeConfiguration()
            bridge.startsProcess = false
            configuration.whatsAppBridge = bridge
        }) { harness, client in
            let bridgeToken = try #require(harness.instance.whatsAppBridgeToken)
            let session = try await client.signIn("omar@example.com", harness: harness)
            let token = session.accessToken
            let account = session.account.id.lowercased()

            #expect(try await client.send(.get, "/internal/whatsapp/links").status == .unauthorized)
            #expect(try await client.send(.get, "/internal/whatsapp/links", token: token).errorCode == "invalid_bridge_token", "a person's token is not the bridge's")
            #expect(try await client.send(.get, "/api/v1/whatsapp/link", token: token).status == .notFound)
            let wrong = try await client.send(.post, "/api/v1/whatsapp/link", json: #"{"phone": "0501234567"}"#, token: token)
            #expect(wrong.status == .badRequest && wrong.errorCode == "invalid_phone")

            // The bridge's side, as it would run, on its own connection while the POST waits for
            // the code: sees the waiting link, brings WhatsApp's code.
            let base = "http://127.0.0.1:\(try #require(client.port))/internal/whatsapp"
            async let bridged: Void = {
                for _ in 0..<100 {
                    var request = HTTPClientRequest(url: base + "/links")
                    request.headers.add(name: "Authorization", value: "Bearer \(bridgeToken)")
                    let work = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
                    let items = try Self.decoder().decode(WorkJSON.self, from: Data(buffer: try await work.body.collect(upTo: 1 << 20))).links
                    if let item = items.first {
                        #expect(item.accountId == account && item.phone == "966501234567" && item.state == "waiting" && item.session == nil)
                        var post = HTTPClientRequest(url: base + "/accounts/\(account)/events")
                        post.method = .POST
                        post.headers.add(name: "Authorization", value: "Bearer \(bridgeToken)")
                        post.headers.add(name: "Content-Type", value: "application/json")
                        post.body = .bytes(ByteBuffer(string: #"{"event": "code", "code": "ABCDEFGH"}"#))
                        let posted = try await HTTPClient.shared.execute(post, timeout: .seconds(10))
                        #expect(posted.status == .noContent)
                        return
                    }
                    try await Task.sleep(for: .milliseconds(50))
                }
                Issue.record("the waiting link never reached the bridge")
            }()
            let asked = try await client.send(.post, "/api/v1/whatsapp/link", json: #"{"phone": "+966 50 123 4567", "historyDays": 3}"#, token: token)
            try await bridged
            #expect(asked.status == .created, "\(asked.text)")
            let waiting = try Self.decoder().decode(LinkJSON.self, from: Data(buffer: asked.body))
            #expect(waiting.state == "waiting" && waiting.code == "ABCD-EFGH" && waiting.expiresAt != nil && waiting.phone == "+966501234567" && waiting.historyDays == 3)

            let bad = try await client.send(.post, "/internal/whatsapp/accounts/\(account)/events", json: #"{"event": "teleported"}"#, token: bridgeToken)
            #expect(bad.status == .badRequest)
            let early = try await client.send(
                .post, "/internal/whatsapp/accounts/\(account)/messages",
                json: #"{"messages": [{"chatId": "966500000002@s.whatsapp.net", "messageId": "M0", "sender": "966500000002@s.whatsapp.net", "fromMe": false, "timestamp": 1789999000, "text": "hi", "isGroup": false}]}"#,
                token: bridgeToken)
            #expect(early.status == .conflict && early.errorCode == "whatsapp_not_linked", "nothing is read before the link")

            let store = Data("SQLite format 3\0whatsmeow device".utf8).base64EncodedString()
            #expect(try await client.send(.put, "/internal/whatsapp/accounts/\(account)/session", json: #"{"session": "\#(store)"}"#, token: bridgeToken).status == .noContent)
            #expect(try await client.send(.put, "/internal/whatsapp/accounts/\(account)/session", json: #"{"session": "@@@"}"#, token: bridgeToken).errorCode == "invalid_session")
            let linked = try await client.send(
                .post, "/internal/whatsapp/accounts/\(account)/events", json: #"{"event": "linked", "jid": "966501234567@s.whatsapp.net"}"#, token: bridgeToken)
            #expect(linked.status == .noContent)
            let shown = try Self.decoder().decode(LinkJSON.self, from: Data(buffer: try await client.send(.get, "/api/v1/whatsapp/link", token: token).body))
            #expect(shown.state == "linked" && shown.linkedAs == "966501234567@s.whatsapp.net" && shown.code == nil && shown.expiresAt == nil)
            let again = try await client.send(.post, "/api/v1/whatsapp/link", json: #"{"phone": "+966501234567"}"#, token: token)
            #expect(again.status == .conflict && again.errorCode == "whatsapp_already_linked")

            let work = try Self.decoder().decode(WorkJSON.self, from: Data(buffer: try await client.send(.get, "/internal/whatsapp/links", token: bridgeToken).body))
            #expect(work.links.map(\.session) == [store], "the bridge gets the session back, opened")

            let refused = try await client.send(
                .post, "/internal/whatsapp/accounts/\(account)/messages", json: #"{"messages": [{"chatId": "x"}]}"#, token: bridgeToken)
            #expect(refused.status == .badRequest, "the connector's validation: \(refused.text)")
            let delivered = try await client.send(
                .post, "/internal/whatsapp/accounts/\(account)/messages",
                json: #"{"messages": [{"chatId": "966500000002@s.whatsapp.net", "messageId": "M1", "sender": "966500000002@s.whatsapp.net", "fromMe": false, "timestamp": 1789999000, "text": "Dinner tomorrow at 8pm?", "isGroup": false}]}"#,
                token: bridgeToken)
            #expect(delivered.status == .ok, "\(delivered.text)")
            #expect(try await client.send(.get, "/api/v1/chats", token: token).text.contains("966500000002@s.whatsapp.net"))

            // Deleted for everyone: the bridge takes the message back by its id.
            struct DeliveryJSON: Decodable { struct Messages: Decodable { let retracted: Int }; let messages: Messages }
            let retracted = try await client.send(
                .post, "/internal/whatsapp/accounts/\(account)/messages",
                json: #"{"messages": [{"chatId": "966500000002@s.whatsapp.net", "messageId": "M1", "deleted": true}]}"#, token: bridgeToken)
            #expect(retracted.status == .ok && (try? retracted.json(DeliveryJSON.self).messages.retracted) == 1, "\(retracted.text)")
            let notAFlag = try await client.send(
                .post, "/internal/whatsapp/accounts/\(account)/messages",
                json: #"{"messages": [{"chatId": "966500000002@s.whatsapp.net", "messageId": "M1", "deleted": "yes"}]}"#, token: bridgeToken)
            #expect(notAFlag.status == .badRequest && notAFlag.text.contains("messages[0].deleted"), "\(notAFlag.text)")

            let unlinked = try Self.decoder().decode(LinkJSON.self, from: Data(buffer: try await client.send(.delete, "/api/v1/whatsapp/link", token: token).body))
            #expect(unlinked.state == "cancelled" && unlinked.reason == "unlinked")
            let after = try Self.decoder().decode(WorkJSON.self, from: Data(buffer: try await client.send(.get, "/internal/whatsapp/links", token: bridgeToken).body))
            #expect(after.links.isEmpty)
            #expect(try await client.send(.delete, "/api/v1/whatsapp/link", token: token).status == .notFound)
        }
    }

    @Test("linking with a QR code: the QR the bridge brings, as JSON and as an image; history days from the chat settings", arguments: TestEnvironment.engines)
    func qr(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine, configure: { configuration in
            var bridge = WhatsAppBridgeConfiguration()
            bridge.startsProcess = false
            configuration.whatsAppBridge = bridge
        }) { harness, client in
            let bridgeToken = try #require(harness.instance.whatsAppBridgeToken)
            let session = try await client.signIn("omar@example.com", harness: harness)
            let token = session.accessToken
            let account = session.account.id.lowercased()
            #expect(try await client.send(.put, "/api/v1/chats/settings", json: #"{"whatsAppHistoryDays": 31}"#, token: token).status.code / 100 == 4)
            #expect(try await client.send(.put, "/api/v1/chats/settings", json: #"{"whatsAppHistoryDays": 12}"#, token: token).status == .ok)
            let odd = try await client.send(.post, "/api/v1/whatsapp/link", json: #"{"method": "fax"}"#, token: token)
            #expect(odd.status == .badRequest && odd.text.contains("method"))
            #expect(try await client.send(.get, "/api/v1/whatsapp/link/qr.svg", token: token).status == .notFound)

            struct QRWork: Decodable { struct Item: Decodable { let method: String; let phone: String; let historyDays: Int }; let links: [Item] }
            let base = "http://127.0.0.1:\(try #require(client.port))/internal/whatsapp"
            async let bridged: Void = {
                for _ in 0..<100 {
                    var request = HTTPClientRequest(url: base + "/links")
                    request.headers.add(name: "Authorization", value: "Bearer \(bridgeToken)")
                    let work = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
                    if let item = try JSONDecoder().decode(QRWork.self, from: Data(buffer: try await work.body.collect(upTo: 1 << 20))).links.first {
                        #expect(item.method == "qr" && item.phone.isEmpty && item.historyDays == 12, "\(item)")
                        var post = HTTPClientRequest(url: base + "/accounts/\(account)/events")
                        post.method = .POST
                        post.headers.add(name: "Authorization", value: "Bearer \(bridgeToken)")
                        post.headers.add(name: "Content-Type", value: "application/json")
                        post.body = .bytes(ByteBuffer(string: #"{"event": "qr", "qr": "2@Zm9vYmFy,cmVm,aWQ=,c2Vj"}"#))
                        #expect(try await HTTPClient.shared.execute(post, timeout: .seconds(10)).status == .noContent)
                        return
                    }
                    try await Task.sleep(for: .milliseconds(50))
                }
                Issue.record("the waiting QR link never reached the bridge")
            }()
            let asked = try await client.send(.post, "/api/v1/whatsapp/link", json: #"{"method": "qr"}"#, token: token)
            try await bridged
            #expect(asked.status == .created, "\(asked.text)")
            struct QRJSON: Decodable { let state: String; let method: String; let qr: String?; let phone: String?; let historyDays: Int }
            let waiting = try asked.json(QRJSON.self)
            #expect(waiting.state == "waiting" && waiting.method == "qr" && waiting.qr == "2@Zm9vYmFy,cmVm,aWQ=,c2Vj" && waiting.phone == nil && waiting.historyDays == 12)
            let image = try await client.send(.get, "/api/v1/whatsapp/link/qr.svg", token: token)
            #expect(image.status == .ok && image.headers[.contentType] == "image/svg+xml" && image.text.hasPrefix("<svg"), "\(image.text.prefix(80))")

            // A pairing-code report for a QR link, or a QR for nothing, is refused.
            let wrong = try await client.send(.post, "/internal/whatsapp/accounts/\(account)/events", json: #"{"event": "qr"}"#, token: bridgeToken)
            #expect(wrong.status == .badRequest)
            #expect(try await client.send(
                .post, "/internal/whatsapp/accounts/\(account)/events", json: #"{"event": "linked", "jid": "966501234567@s.whatsapp.net"}"#, token: bridgeToken
            ).status == .noContent)
            let linked = try await client.send(.get, "/api/v1/whatsapp/link", token: token).json(QRJSON.self)
            #expect(linked.state == "linked" && linked.qr == nil)
            #expect(try await client.send(.get, "/api/v1/whatsapp/link/qr.svg", token: token).status == .notFound)
            let late = try await client.send(.post, "/internal/whatsapp/accounts/\(account)/events", json: #"{"event": "qr", "qr": "2@late"}"#, token: bridgeToken)
            #expect(late.status.code / 100 == 4, "a linked device shows no QR: \(late.text)")
        }
    }

    @Test("only loopback addresses reach the bridge's routes")
    func loopback() throws {
        #expect(WhatsAppBridgeRoutes.isLoopback(try SocketAddress(ipAddress: "127.0.0.1", port: 1)))
        #expect(WhatsAppBridgeRoutes.isLoopback(try SocketAddress(ipAddress: "::1", port: 1)))
        #expect(!WhatsAppBridgeRoutes.isLoopback(try SocketAddress(ipAddress: "192.168.1.5", port: 1)))
        #expect(!WhatsAppBridgeRoutes.isLoopback(try SocketAddress(ipAddress: "::ffff:10.0.0.1", port: 1)))
    }
}
