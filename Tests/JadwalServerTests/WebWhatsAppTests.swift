import Foundation
import HTTPTypes
import HummingbirdTesting
import JadwalCore
import NIOCore
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

/// Settings → Connect WhatsApp through the pages: the form's server-side import (what a browser
/// without the script does), chats, settings, connector tokens.
@Suite("Web app: Connect WhatsApp")
struct WebWhatsAppTests {
    /// The chats the API's tests import, from the harness clock's afternoon (2026-09-21, Riyadh).
    static let dinner = ChatAPITests.dinner
    static let arabic = ChatAPITests.arabic

    /// The upload form as a browser without the script posts it: multipart, the token in the action URL.
    static func upload(
        _ browser: inout TestBrowser, _ client: any TestClientProtocol, file: String, me: String = "", csrf: String?, filename: String = "WhatsApp Chat.txt"
    ) async throws -> TestResponse {
        let boundary = "----jadwalWebTest8d3f"
        var body = "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(filename)\"\r\nContent-Type: text/plain\r\n\r\n\(file)\r\n"
        body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"me\"\r\n\r\n\(me)\r\n--\(boundary)--\r\n"
        let path = "/settings/whatsapp/import" + (csrf.map { "?_csrf=\($0)" } ?? "")
        let response = try await client.execute(
            uri: path, method: .post,
            headers: [.contentType: "multipart/form-data; boundary=\(boundary)", .cookie: browser.cookieHeader],
            body: ByteBuffer(string: body)) { $0 }
        browser.absorb(response)
        return response
    }

    /// A browser signed in as Omar in Riyadh, with an API token for checking.
    static func omar(_ harness: ServerHarness, _ client: any TestClientProtocol, email: String, name: String = "Omar") async throws -> (TestBrowser, String) {
        var browser = TestBrowser()
        try await browser.signIn(email, client: client, harness: harness)
        let token = try await client.signIn(email, harness: harness).accessToken
        let patched = try await client.send(.patch, "/api/v1/me", json: #"{"name": "\#(name)", "timeZone": "Asia/Riyadh"}"#, token: token)
        try #require(patched.status == .ok)
        return (browser, token)
    }

    @Test("the form imports an export on the server: the summary names the agreed dinner and links to its week, which shows it")
    func importWithoutScript() async throws {
        try await ServerHarness.run { harness, client in
            var (browser, token) = try await Self.omar(harness, client, email: "wa@example.com")
            let page = try await browser.get(client, "/settings/whatsapp")
            #expect(page.status == .ok && page.text.contains("No chats yet") && page.text.contains(#"enctype="multipart/form-data""#))
            let csrf = try #require(TestBrowser.csrf(in: page))
            #expect(page.text.contains("/settings/whatsapp/import?_csrf=\(csrf)"))

            let imported = try await Self.upload(&browser, client, file: Self.dinner, csrf: csrf)
            #expect(imported.status == .ok, "\(imported.text)")
            #expect(imported.text.contains("What was found") && imported.text.contains("3 messages read: 3 new"))
            #expect(imported.text.contains("Sara Ahmed: <strong>Agreed</strong>") && imported.text.contains("Added: <a href=\"/calendar?view=week&amp;date=2026-09-22\">Dinner"))
            // The chat is listed; the event is on the calendar the link leads to.
            #expect(imported.text.contains("<th scope=\"row\">Sara Ahmed"))
            let week = try await browser.get(client, "/calendar?view=week&date=2026-09-22")
            #expect(week.text.contains("Dinner"))
            let api = try await client.send(.get, "/api/v1/chats", token: token)
            #expect(api.text.contains("HAS_EVENT_AGREED"))

            // Without the token in the action URL: refused, nothing imported.
            var other = try await Self.omar(harness, client, email: "wa-other@example.com").0
            let forged = try await Self.upload(&other, client, file: Self.dinner, csrf: nil)
            #expect(forged.status == .forbidden)
            let wrong = try await Self.upload(&other, client, file: Self.dinner, csrf: csrf)  // someone else's token
            #expect(wrong.status == .forbidden)
            #expect(try await other.get(client, "/settings/whatsapp").text.contains("No chats yet"))
        }
    }

    @Test("when no participant has the account's name the page lists them to choose from; choosing imports it")
    func meRequired() async throws {
        try await ServerHarness.run { harness, client in
            var (browser, _) = try await Self.omar(harness, client, email: "who@example.com", name: "Omar Al-Harbi")
            let csrf = try #require(TestBrowser.csrf(in: try await browser.get(client, "/settings/whatsapp")))
            let asked = try await Self.upload(&browser, client, file: Self.dinner, csrf: csrf)
            #expect(asked.status == .conflict)
            #expect(asked.text.contains("none has your profile") && asked.text.contains("Choose your name above"))
            #expect(asked.text.contains(#"<input type="radio" id="me-0" name="me" value="Sara Ahmed">"#))
            #expect(asked.text.contains(#"<input type="radio" id="me-1" name="me" value="Omar">"#))
            let wrongName = try await Self.upload(&browser, client, file: Self.dinner, me: "Layla", csrf: csrf)
            #expect(wrongName.status == .unprocessableContent && wrongName.text.contains("did not write in this chat"))
            let chosen = try await Self.upload(&browser, client, file: Self.dinner, me: "Omar", csrf: csrf)
            #expect(chosen.status == .ok && chosen.text.contains("you are <bdi>Omar</bdi>") && chosen.text.contains("Agreed"))
            let notAnExport = try await Self.upload(&browser, client, file: "just some notes\nnothing else", csrf: csrf)
            #expect(notAnExport.status == .unprocessableContent && notAnExport.text.contains("not a WhatsApp chat export"))
        }
    }

    @Test("chat settings, tokens and forgetting a chat from the page; another person's chat and token are not found")
    func settingsTokensAndPrivacy() async throws {
        try await ServerHarness.run { harness, client in
            var (owner, token) = try await Self.omar(harness, client, email: "owner-wa@example.com")
            let csrf = try #require(TestBrowser.csrf(in: try await owner.get(client, "/settings/whatsapp")))
            _ = try await Self.upload(&owner, client, file: Self.dinner, csrf: csrf)
            let page = try await owner.get(client, "/settings/whatsapp")
            let delete = try #require(TestBrowser.first(#"action="(/settings/whatsapp/chats/[0-9a-f-]{36}/delete)""#, in: page.text))

            // Settings: bad retention answered beside the field; good values saved.
            let bad = try await owner.post(client, "/settings/whatsapp/settings", [("retentionDays", "900"), ("meName", "")], csrf: csrf)
            #expect(bad.status == .unprocessableContent && bad.text.contains(#"id="retentionDays-error" class="field-error">Enter a whole number"#))
            let badNumber = try await owner.post(
                client, "/settings/whatsapp/settings", [("retentionDays", "7"), ("cloudAPIPhoneNumberID", "+966 50")], csrf: csrf)
            #expect(badNumber.status == .unprocessableContent && badNumber.text.contains("digits only (it is not the phone number)"))
            let saved = try await owner.post(
                client, "/settings/whatsapp/settings", [("extractionPaused", "on"), ("retentionDays", "7"), ("meName", "Omar H")], csrf: csrf)
            #expect(saved.status == .seeOther)
            let settings = try await client.send(.get, "/api/v1/chats/settings", token: token).json(ChatSettings.self)
            #expect(settings.extractionPaused && !settings.allowGroups && settings.retentionDays == 7 && settings.meName == "Omar H")

            // Tokens: the secret is shown once, then only the name; it delivers; revoked it does not.
            let badToken = try await owner.post(client, "/settings/whatsapp/tokens", [("name", "  ")], csrf: csrf)
            #expect(badToken.status == .unprocessableContent && badToken.text.contains("Name the bridge"))
            let made = try await owner.post(client, "/settings/whatsapp/tokens", [("name", "laptop bridge")], csrf: csrf)
            let secret = try #require(TestBrowser.first(#"id="new-token" value="(jadwal_ct_[^"]+)""#, in: made.text))
            #expect(made.text.contains("Bearer \(secret)"))
            let listed = try await owner.get(client, "/settings/whatsapp")
            #expect(listed.text.contains("laptop bridge") && !listed.text.contains(secret) && listed.text.contains("The webhook is not set up"))
            let revoke = try #require(TestBrowser.first(#"action="(/settings/whatsapp/tokens/[0-9a-f-]{36}/revoke)""#, in: listed.text))

            var stranger = TestBrowser()
            try await stranger.signIn("stranger-wa@example.com", client: client, harness: harness)
            let strangerCSRF = try #require(TestBrowser.csrf(in: try await stranger.get(client, "/settings/whatsapp")))
            #expect(try await stranger.post(client, delete, [], csrf: strangerCSRF).status == .notFound)
            #expect(try await stranger.post(client, revoke, [], csrf: strangerCSRF).status == .notFound)
            #expect(try await owner.post(client, delete, [], csrf: nil).status == .forbidden)

            #expect(try await owner.post(client, revoke, [], csrf: csrf).headers[.location] == "/settings/whatsapp?revoked=1#connector")
            #expect(try await owner.get(client, "/settings/whatsapp").text.contains("laptop bridge") == false)
            let forgotten = try await owner.post(client, delete, [], csrf: csrf)
            #expect(forgotten.status == .seeOther)
            let after = try await owner.get(client, "/settings/whatsapp?deleted=1")
            #expect(after.text.contains("The chat was forgotten") && after.text.contains("No chats yet"))
            // The event it made stays.
            #expect(try await owner.get(client, "/calendar?view=week&date=2026-09-22").text.contains("Dinner"))
        }
    }

    @Test("in Arabic the page is right to left and an Arabic export's summary is in Arabic")
    func arabic() async throws {
        try await ServerHarness.run { harness, client in
            var (browser, token) = try await Self.omar(harness, client, email: "ar-wa@example.com", name: "عمر")
            _ = try await client.send(.patch, "/api/v1/me", json: #"{"language": "ar"}"#, token: token)
            let page = try await browser.get(client, "/settings/whatsapp")
            #expect(page.text.contains(#"<html lang="ar" dir="rtl">"#) && page.text.contains("ربط واتساب"))
            let csrf = try #require(TestBrowser.csrf(in: page))
            let imported = try await Self.upload(&browser, client, file: Self.arabic, csrf: csrf, filename: "WhatsApp Chat with أبو فهد.txt")
            #expect(imported.status == .ok, "\(imported.text)")
            #expect(imported.text.contains("ما وُجد") && imported.text.contains("أبو فهد: <strong>متفق عليه</strong>") && imported.text.contains("أُضيف"))
        }
    }
}
