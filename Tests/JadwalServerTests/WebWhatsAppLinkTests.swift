import AsyncHTTPClient
import Foundation
import HTTPTypes
import HummingbirdTesting
import JadwalCore
import JadwalTestSupport
import NIOCore
import NIOHTTP1
import Testing

@testable import JadwalServer
@testable import JadwalWeb

/// Settings → Connect WhatsApp → Link with phone number through the pages, with the test as the
/// bridge on its own connection: the code and the steps, the state the script follows, linked,
/// logged out.
@Suite("Web app: link WhatsApp with a pairing code")
struct WebWhatsAppLinkTests {
    /// A call of the bridge's loopback routes, on a connection of its own.
    static func bridge(_ port: Int, _ token: String, _ method: HTTPMethod, _ path: String, _ body: String? = nil) async throws -> (UInt, String) {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/internal/whatsapp" + path)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        return (response.status.code, String(buffer: try await response.body.collect(upTo: 1 << 20)))
    }

    @Test("without the bridge the section says so and refuses to link")
    func off() async throws {
        try await ServerHarness.run { harness, client in
            var (browser, _) = try await WebWhatsAppTests.omar(harness, client, email: "off@example.com")
            let page = try await browser.get(client, "/settings/whatsapp")
            #expect(page.status == .ok && page.text.contains("does not run the WhatsApp bridge") && !page.text.contains(#"id="link-form""#))
            let csrf = try #require(TestBrowser.csrf(in: page))
            #expect(try await browser.post(client, "/settings/whatsapp/link", [("phone", "+966501234567")], csrf: csrf).status == .notFound)
        }
    }

    @Test("number, code and steps, followed to linked, then logged out from the phone")
    func flow() async throws {
        try await ServerHarness.run(configure: { configuration in
            var bridge = WhatsAppBridgeConfiguration()
            bridge.startsProcess = false
            configuration.whatsAppBridge = bridge
        }) { harness, client in
            let token = try #require(harness.instance.whatsAppBridgeToken)
            let port = try #require(client.port)
            var (browser, _) = try await WebWhatsAppTests.omar(harness, client, email: "link@example.com")
            var page = try await browser.get(client, "/settings/whatsapp")
            #expect(page.text.contains("Link with phone number") && page.text.contains(#"id="link-form""#) && page.text.contains("unofficial client"))
            let csrf = try #require(TestBrowser.csrf(in: page))

            let wrong = try await browser.post(client, "/settings/whatsapp/link", [("phone", "0501234567"), ("historyDays", "7")], csrf: csrf)
            #expect(wrong.status == .unprocessableContent && wrong.text.contains("with its country code") && wrong.text.contains(#"aria-invalid="true""#))
            #expect(wrong.text.contains(#"value="0501234567""#), "what was typed stays")

            async let bridged: Void = {
                for _ in 0..<100 {
                    let (_, work) = try await Self.bridge(port, token, .GET, "/links")
                    if let account = TestBrowser.first(#""accountId":"([^"]+)""#, in: work) {
                        let (status, _) = try await Self.bridge(port, token, .POST, "/accounts/\(account)/events", #"{"event": "code", "code": "JDWLCODE"}"#)
                        #expect(status == 204)
                        return
                    }
                    try await Task.sleep(for: .milliseconds(50))
                }
                Issue.record("the waiting link never reached the bridge")
            }()
            let asked = try await browser.post(client, "/settings/whatsapp/link", [("phone", "+966 50 123 4567"), ("historyDays", "3")], csrf: csrf)
            try await bridged
            #expect(asked.status == .seeOther && asked.headers[.location] == "/settings/whatsapp#link")

            page = try await browser.get(client, "/settings/whatsapp")
            #expect(page.text.contains(#"data-state="waiting""#) && page.text.contains("JDWL-CODE") && page.text.contains("Link with phone number instead"))
            // The harness clock is 17:13:20 in Riyadh; the code lasts three minutes.
            #expect(page.text.contains(#"id="link-expires">17:16</time>"#), "the expiry in the person's zone")
            #expect(try await browser.get(client, "/settings/whatsapp/link/state").text == #"{"state":"waiting"}"#)

            let (_, work) = try await Self.bridge(port, token, .GET, "/links")
            let account = try #require(TestBrowser.first(#""accountId":"([^"]+)""#, in: work))
            #expect(try await Self.bridge(port, token, .POST, "/accounts/\(account)/events", #"{"event": "linked", "jid": "966501234567@s.whatsapp.net"}"#).0 == 204)
            #expect(try await browser.get(client, "/settings/whatsapp/link/state").text == #"{"state":"linked"}"#, "the script reloads on this")
            page = try await browser.get(client, "/settings/whatsapp")
            #expect(page.text.contains("Linked to WhatsApp +966501234567") && page.text.contains(#"id="link-unlink""#))

            #expect(try await Self.bridge(port, token, .POST, "/accounts/\(account)/events", #"{"event": "logged_out", "reason": "logged_out"}"#).0 == 204)
            page = try await browser.get(client, "/settings/whatsapp")
            #expect(page.text.contains("WhatsApp logged this device out") && page.text.contains("Try again") && page.text.contains(#"id="link-form""#))
        }
    }

    @Test("the Arabic page has every text of the section")
    func arabic() throws {
        let texts = [String: String](uniqueKeysWithValues: try ["en", "ar"].map { language in
            let url = TestEnvironment.repositoryRoot.appendingPathComponent("Sources/JadwalWeb/Assets/text/\(language)/whatsapp.json")
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: String] ?? [:]
            return (language, object.keys.filter { $0.hasPrefix("whatsappLink") }.sorted().joined(separator: ","))
        })
        #expect(texts["en"] == texts["ar"] && (texts["en"]?.isEmpty == false))
    }
}
