import Foundation
import HTTPTypes
import HummingbirdTesting
import JadwalCore
import JadwalTestSupport
import PrayerTimes
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

@Suite("Web app: settings (profile, Easy Setup, app passwords, devices, notifications, signing out)")
struct WebSettingsTests {
    struct Me: Decodable { let name: String; let timeZone: String; let language: String; let showHijri: Bool }
    struct NotificationChoices: Decodable { let email: [String]; let push: [String]; let quietDuringSleep: Bool; let quietDuringPrayer: Bool }

    /// A browser signed in as `email`, on the settings page, and the page's CSRF token.
    static func onSettings(_ email: String, _ client: any TestClientProtocol, _ harness: ServerHarness) async throws
        -> (browser: TestBrowser, page: TestResponse, csrf: String) {
        var browser = TestBrowser()
        try await browser.signIn(email, client: client, harness: harness)
        let page = try await browser.get(client, "/settings")
        return (browser, page, try #require(TestBrowser.csrf(in: page)))
    }

    static func profile(_ name: String, zone: String, language: String = "en", hijri: Bool = false) -> [(String, String)] {
        [("name", name), ("timeZone", zone), ("language", language)] + (hijri ? [("showHijri", "on")] : [])
    }

    @Test("the profile form: problems beside their fields, then saved through PATCH /me's core; the Hijri preference is stored on both engines",
          arguments: TestEnvironment.engines)
    func profile(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let (signedIn, page, csrf) = try await Self.onSettings("profile@example.com", client, harness)
            var browser = signedIn
            #expect(page.status == .ok && page.text.contains(#"action="/settings/profile""#))
            for other in ["/settings/prayer", "/settings/whatsapp", "/settings/routines"] { #expect(page.text.contains(#"href="\#(other)""#)) }
            #expect(page.text.contains("<option selected>UTC</option>") && page.text.contains("<option>Asia/Riyadh</option>"))

            let badZone = try await browser.post(client, "/settings/profile", Self.profile("Sara", zone: "Mars/Olympus"), csrf: csrf)
            #expect(badZone.status == .unprocessableContent)
            #expect(badZone.text.contains("“Mars/Olympus” is not a time zone") && badZone.text.contains(#"id="timeZone" name="timeZone" aria-describedby="timeZone-hint timeZone-error" aria-invalid="true""#))
            #expect(badZone.text.contains(#"name="name" value="Sara""#), "what was typed is kept")
            let longName = try await browser.post(client, "/settings/profile", Self.profile(String(repeating: "a", count: 201), zone: "UTC"), csrf: csrf)
            #expect(longName.status == .unprocessableContent && longName.text.contains("too long (at most 200 characters)"))
            let control = try await browser.post(client, "/settings/profile", Self.profile("Sa\u{7}ra", zone: "UTC"), csrf: csrf)
            #expect(control.status == .unprocessableContent && control.text.contains("control characters"))
            let language = try await browser.post(client, "/settings/profile", Self.profile("Sara", zone: "UTC", language: "fr"), csrf: csrf)
            #expect(language.status == .unprocessableContent && language.text.contains("Choose English or Arabic"))
            #expect(try await client.send(.get, "/api/v1/me", headers: [.cookie: browser.cookieHeader]).json(Me.self).name == "", "nothing saved")

            // Without the preference the calendar shows no Hijri date, in any view.
            for view in ["month", "week", "day"] {
                #expect(!(try await browser.get(client, "/calendar?view=\(view)&date=2026-09-22").text.contains(#"class="hijri""#)))
            }
            let saved = try await browser.post(client, "/settings/profile", Self.profile("  Sara Ali ", zone: "Asia/Riyadh", hijri: true), csrf: csrf)
            #expect(saved.status == .seeOther && saved.headers[.location] == "/settings?saved=profile#profile")
            let me = try await client.send(.get, "/api/v1/me", headers: [.cookie: browser.cookieHeader]).json(Me.self)
            #expect(me.name == "Sara Ali" && me.timeZone == "Asia/Riyadh" && me.showHijri)
            let after = try await browser.get(client, "/settings?saved=profile")
            #expect(after.text.contains("Your profile is saved.") && after.text.contains("<option selected>Asia/Riyadh</option>"))
            #expect(after.text.contains(#"id="showHijri" name="showHijri" type="checkbox" checked"#))

            // 22 September 2026 is 10 Rabi' al-Thani 1448 (Umm al-Qura).
            let month = try await browser.get(client, "/calendar?view=month&date=2026-09-22")
            #expect(month.text.contains(#"class="hijri""#) && month.text.contains("1448 AH"))
            let week = try await browser.get(client, "/calendar?view=week&date=2026-09-22")
            #expect(week.text.contains(#"class="hijri""#) && week.text.contains("1448 AH"))
            let day = try await browser.get(client, "/calendar?view=day&date=2026-09-22")
            let hijri = try #require(TestBrowser.first(#"<p class="hijri">([^<]+)</p>"#, in: day.text))
            #expect(hijri == HijriDate(gregorian: try LocalDate(year: 2026, month: 9, day: 22))?.description)

            // The API takes the preference too.
            let off = try await client.send(
                .patch, "/api/v1/me", json: #"{"showHijri": false}"#, headers: [.cookie: browser.cookieHeader, .csrfToken: csrf])
            #expect(off.status == .ok)
            #expect(try off.json(Me.self).showHijri == false)
            #expect(!(try await browser.get(client, "/calendar?view=day&date=2026-09-22").text.contains(#"class="hijri""#)))
        }
    }

    @Test("choosing Arabic reloads settings right to left, in Arabic")
    func languageSwitch() async throws {
        try await ServerHarness.run { harness, client in
            let (signedIn, page, csrf) = try await Self.onSettings("lang@example.com", client, harness)
            var browser = signedIn
            #expect(page.text.contains(#"<html lang="en" dir="ltr">"#))
            let saved = try await browser.post(client, "/settings/profile", Self.profile("سارة", zone: "Asia/Riyadh", language: "ar"), csrf: csrf)
            #expect(saved.status == .seeOther)
            let arabic = try await browser.get(client, "/settings")
            #expect(arabic.text.contains(#"<html lang="ar" dir="rtl">"#) && arabic.text.contains("الإعدادات") && arabic.text.contains(#"value="سارة""#))
            #expect(arabic.text.contains(#"<option value="ar" lang="ar" selected>العربية</option>"#))
        }
    }

    @Test("Easy Setup: the page makes a one-time link; its profile downloads once, then the link is gone")
    func easySetup() async throws {
        try await ServerHarness.run(configure: { $0.publicURL = "https://cal.example.com" }) { harness, client in
            let (signedInBrowser, _, csrf) = try await Self.onSettings("setup-web@example.com", client, harness)
            var browser = signedInBrowser
            let tooLong = try await browser.post(client, "/settings/setup", [("name", String(repeating: "x", count: 101))], csrf: csrf)
            #expect(tooLong.status == .unprocessableContent && tooLong.text.contains("at most 100 characters"))

            let made = try await browser.post(client, "/settings/setup", [("name", "Sara's iPhone")], csrf: csrf)
            #expect(made.status == .ok)
            let link = try #require(TestBrowser.first(#"id="setup-url" value="([^"]+)""#, in: made.text))
            #expect(link.hasPrefix("https://cal.example.com/setup/") && link.hasSuffix(".mobileconfig"))
            #expect(made.text.contains(#"id="download-profile" href="\#(link)""#) && made.text.contains("This link works once, until"))
            // The QR code is ours, inline: an SVG named by its title, nothing from the person unescaped.
            #expect(made.text.contains(#"role="img" shape-rendering="crispEdges"><title>QR code of the setup link</title>"#))
            #expect(made.text.components(separatedBy: "<svg").count == 2 && !made.text.contains("Sara's"))
            let path = String(link.dropFirst("https://cal.example.com".count))
            let profile = try await client.send(.get, path)
            #expect(profile.status == .ok && profile.headers[.contentType] == ConfigurationProfile.contentType)
            #expect(profile.text.contains("setup-web@example.com"))
            #expect(try await client.send(.get, path).status == .gone)
            // Downloading made an app password named after the device.
            let listed = try await browser.get(client, "/settings")
            #expect(listed.text.contains("<bdi>Sara&#39;s iPhone</bdi>"))
        }
    }

    @Test("app passwords: created and shown once, work for CalDAV, listed without the secret, revoked; another's is 404")
    func appPasswords() async throws {
        try await ServerHarness.run { harness, client in
            let (signedInBrowser, _, csrf) = try await Self.onSettings("passwords@example.com", client, harness)
            var browser = signedInBrowser
            let empty = try await browser.post(client, "/settings/app-passwords", [("name", "  ")], csrf: csrf)
            #expect(empty.status == .unprocessableContent && empty.text.contains("Name the device in 1 to 100 characters"))
            #expect(empty.text.contains(#"id="password-name" name="name" value="  ""#))

            let created = try await browser.post(client, "/settings/app-passwords", [("name", "Thunderbird")], csrf: csrf)
            #expect(created.status == .ok && created.text.contains("shown only this once"))
            let password = try #require(TestBrowser.first(#"id="new-password" value="([a-z2-9-]+)""#, in: created.text))
            let basic: HTTPFields = [.authorization: "Basic " + Data("passwords@example.com:\(password)".utf8).base64EncodedString()]
            let body = #"<?xml version="1.0"?><propfind xmlns="DAV:"><prop><current-user-principal/></prop></propfind>"#
            #expect(try await client.dav(.propfind, "/dav/", as: nil, body: body, depth: "0", headers: basic).status.code == 207)

            let listed = try await browser.get(client, "/settings")
            #expect(listed.text.contains("<bdi>Thunderbird</bdi>") && !listed.text.contains(password))
            let id = try #require(TestBrowser.first(#"action="/settings/app-passwords/([0-9a-f-]{36})/revoke""#, in: listed.text))

            let (signedInStranger, _, strangerCSRF) = try await Self.onSettings("stranger-pw@example.com", client, harness)
            var stranger = signedInStranger
            #expect(try await stranger.post(client, "/settings/app-passwords/\(id)/revoke", [], csrf: strangerCSRF).status == .notFound)
            #expect(try await client.dav(.propfind, "/dav/", as: nil, body: body, depth: "0", headers: basic).status.code == 207)

            let revoked = try await browser.post(client, "/settings/app-passwords/\(id)/revoke", [], csrf: csrf)
            #expect(revoked.status == .seeOther && revoked.headers[.location] == "/settings?saved=revoked#app-passwords")
            #expect(try await client.dav(.propfind, "/dav/", as: nil, body: body, depth: "0", headers: basic).status == .unauthorized)
            #expect(!(try await browser.get(client, "/settings").text.contains("<bdi>Thunderbird</bdi>")))
            #expect(try await browser.post(client, "/settings/app-passwords/\(id)/revoke", [], csrf: csrf).status == .notFound)
        }
    }

    @Test("signed-in devices: sessions listed with this one marked, another signed out; push devices listed and removed")
    func devices() async throws {
        try await ServerHarness.run { harness, client in
            var browser = TestBrowser()
            try await browser.signIn("devices-web@example.com", client: client, harness: harness)
            let phone = try await client.signIn(
                "devices-web@example.com", harness: harness,
                userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1")
            let accountID = try #require(UUID(uuidString: phone.account.id))
            _ = try await harness.instance.store.transaction { tx in
                try await tx.savePushDevice(PushDevice(id: UUID(), accountID: accountID, token: String(repeating: "ab", count: 32), name: "Sara iPad", createdAt: harness.clock.clock.now))
            }
            let page = try await browser.get(client, "/settings")
            let csrf = try #require(TestBrowser.csrf(in: page))
            #expect(page.text.contains("Safari · iPhone") && page.text.components(separatedBy: #"<span class="tag">This device</span>"#).count == 2)
            #expect(page.text.contains(#"action="/settings/sessions/\#(phone.sessionId.lowercased())/revoke""#))
            #expect(page.text.contains("Devices that get push notifications") && page.text.contains("<bdi>Sara iPad</bdi>"))

            let out = try await browser.post(client, "/settings/sessions/\(phone.sessionId.lowercased())/revoke", [], csrf: csrf)
            #expect(out.status == .seeOther)
            #expect(try await client.send(.get, "/api/v1/me", token: phone.accessToken).status == .unauthorized)
            #expect(try await browser.post(client, "/settings/sessions/\(phone.sessionId.lowercased())/revoke", [], csrf: csrf).status == .notFound)

            let deviceID = try #require(TestBrowser.first(#"action="/settings/devices/([0-9a-f-]{36})/delete""#, in: page.text))
            let (signedInStranger, _, strangerCSRF) = try await Self.onSettings("stranger-dev@example.com", client, harness)
            var stranger = signedInStranger
            #expect(try await stranger.post(client, "/settings/devices/\(deviceID)/delete", [], csrf: strangerCSRF).status == .notFound)
            #expect(try await browser.post(client, "/settings/devices/\(deviceID)/delete", [], csrf: csrf).status == .seeOther)
            #expect(try await harness.instance.store.read { tx in try await tx.pushDevices(accountID: accountID) }.isEmpty)
        }
    }

    @Test("notification choices: every box is the whole state, saved through the API's core")
    func notifications() async throws {
        try await ServerHarness.run { harness, client in
            let (signedIn, page, csrf) = try await Self.onSettings("notify-web@example.com", client, harness)
            var browser = signedIn
            #expect(page.text.contains(#"id="email-conflict" name="email[]" value="conflict" checked"#))
            let saved = try await browser.post(
                client, "/settings/notifications", [("email[]", "conflict"), ("push[]", "reminder"), ("push[]", "setup-done"), ("quietDuringPrayer", "on")],
                csrf: csrf)
            #expect(saved.status == .seeOther)
            let choices = try await client.send(.get, "/api/v1/notifications/settings", headers: [.cookie: browser.cookieHeader]).json(NotificationChoices.self)
            #expect(choices.email == ["conflict"] && choices.push == ["reminder", "setup-done"] && !choices.quietDuringSleep && choices.quietDuringPrayer)
            let none = try await browser.post(client, "/settings/notifications", [], csrf: csrf)
            #expect(none.status == .seeOther)
            let cleared = try await client.send(.get, "/api/v1/notifications/settings", headers: [.cookie: browser.cookieHeader]).json(NotificationChoices.self)
            #expect(cleared.email.isEmpty && cleared.push.isEmpty && !cleared.quietDuringPrayer)
            let unknown = try await browser.post(client, "/settings/notifications", [("email[]", "gossip")], csrf: csrf)
            #expect(unknown.status == .unprocessableContent && unknown.text.contains("not known"))
        }
    }

    @Test("sign out everywhere: a confirmation page, then every session ends, this browser's too")
    func signOutEverywhere() async throws {
        try await ServerHarness.run { harness, client in
            var browser = TestBrowser()
            try await browser.signIn("everywhere@example.com", client: client, harness: harness)
            let phone = try await client.signIn("everywhere@example.com", harness: harness)
            let settings = try await browser.get(client, "/settings")
            #expect(settings.text.contains(#"class="button danger" id="sign-out-everywhere" href="/settings/sign-out-everywhere""#))
            let confirm = try await browser.get(client, "/settings/sign-out-everywhere")
            #expect(confirm.status == .ok && confirm.text.contains(#"action="/signout/everywhere""#) && confirm.text.contains(#"class="danger""#))
            let csrf = try #require(TestBrowser.csrf(in: confirm))
            let kept = browser
            let out = try await browser.post(client, "/signout/everywhere", [], csrf: csrf)
            #expect(out.status == .seeOther && out.headers[.location] == "/" && browser.cookies.isEmpty)
            var replay = kept
            #expect(try await replay.get(client, "/settings").headers[.location] == "/")
            #expect(try await client.send(.get, "/api/v1/me", token: phone.accessToken).status == .unauthorized)
        }
    }

    @Test("every settings form needs this session's CSRF token: without it, 403 and nothing changes")
    func csrf() async throws {
        try await ServerHarness.run { harness, client in
            var browser = TestBrowser()
            try await browser.signIn("csrf-settings@example.com", client: client, harness: harness)
            let forms: [(String, [(String, String)])] = [
                ("/settings/profile", Self.profile("Mallory", zone: "UTC")), ("/settings/app-passwords", [("name", "Mallory")]),
                ("/settings/setup", []), ("/settings/notifications", []),
            ]
            for (path, fields) in forms {
                let refused = try await browser.post(client, path, fields)
                #expect(refused.status == .forbidden && refused.text.contains("out of date"), "\(path)")
            }
            let page = try await browser.get(client, "/settings")
            #expect(!page.text.contains("Mallory") && page.text.contains("No app passwords yet."))
            let out = try await browser.post(client, "/signout/everywhere", [])
            #expect(out.headers[.location] == "/settings")
            #expect(try await browser.get(client, "/settings").status == .ok, "not signed out")
        }
    }
}
