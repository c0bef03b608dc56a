import Foundation
import HTTPTypes
import HummingbirdTesting
import JadwalCore
import JadwalTestSupport
import NIOCore
import Testing

@testable import JadwalServer
@testable import JadwalWeb

/// The web's first-run guide, Settings → Your account and data, the pages emailed links open,
/// and the privacy page, over HTTP: redirects, forms refused beside their field with a 4xx,
/// downloads, both languages.
@Suite("Web app: first run, your account and data, privacy")
struct WebAccountTests {
    @Test("the first sign-in opens the guide; each step saves or is refused beside its field; skipped, the next sign-in opens the calendar")
    func firstRun() async throws {
        try await ServerHarness.run { harness, client in
            var browser = TestBrowser()
            let before = await harness.outbox.magicLinks(to: "sara@example.com").count
            _ = try await browser.post(client, "/signin/email", [("email", "sara@example.com")])
            let token = try await harness.outbox.waitForMagicLink(to: "sara@example.com", count: before + 1)
            let redeemed = try await browser.post(client, "/auth/magic", [("token", token)])
            #expect(redeemed.headers[.location] == "/welcome")

            let language = try await browser.get(client, "/welcome")
            #expect(language.status == .ok && language.text.contains(#"aria-current="step""#) && language.text.contains("Step 1 of 7"))
            let csrf = try #require(TestBrowser.csrf(in: language))
            let badLanguage = try await browser.post(client, "/welcome/language", [("language", "fr")], csrf: csrf)
            #expect(badLanguage.status == .unprocessableContent && badLanguage.text.contains("Choose English or Arabic"))
            #expect(try await browser.post(client, "/welcome/language", [("language", "en")], csrf: csrf).headers[.location] == "/welcome?step=zone")

            let zone = try await browser.get(client, "/welcome?step=zone")
            #expect(zone.text.contains("welcome.js") && zone.text.contains(#"id="timeZone-proposal""#))
            let badZone = try await browser.post(client, "/welcome/zone", [("timeZone", "Mars/Olympus")], csrf: csrf)
            #expect(badZone.status == .unprocessableContent && badZone.text.contains("is not a time zone") && badZone.text.contains(#"aria-invalid="true""#))
            #expect(try await browser.post(client, "/welcome/zone", [("timeZone", "Asia/Riyadh")], csrf: csrf).headers[.location] == "/welcome?step=place")

            // Proposed from the zone, saved only when confirmed.
            let place = try await browser.get(client, "/welcome?step=place")
            #expect(place.text.contains("Proposed from your time zone (Asia/Riyadh): Riyadh") && place.text.contains(#"value="Riyadh, SA""#))
            #expect(place.text.contains(#"<option value="UmmAlQura" selected>"#))
            let token2 = try await client.signIn("sara@example.com", harness: harness).accessToken
            #expect(try await client.send(.get, "/api/v1/prayer-settings", token: token2).status == .notFound, "nothing saved before confirming")
            let empty = try await browser.post(client, "/welcome/place", [("city", " "), ("method", "")], csrf: csrf)
            #expect(empty.status == .unprocessableContent && empty.text.contains(#"id="city-error""#))
            let unknown = try await browser.post(client, "/welcome/place", [("city", "Atlantis"), ("method", "")], csrf: csrf)
            #expect(unknown.status == .unprocessableContent && unknown.text.contains("Atlantis"), "the typed city stays in the field")
            #expect(try await browser.post(client, "/welcome/place", [("city", "Riyadh, SA"), ("method", "UmmAlQura")], csrf: csrf)
                .headers[.location] == "/welcome?step=phone")
            #expect(try await client.send(.get, "/api/v1/prayer-settings", token: token2).text.contains("Riyadh"))
            // Reopened with a place saved: it is shown, and kept when no city is typed (the method may change).
            #expect(try await browser.get(client, "/welcome?step=place").text.contains("You have a place saved already: Riyadh"))
            let kept = try await browser.post(client, "/welcome/place", [("city", ""), ("method", "MuslimWorldLeague")], csrf: csrf)
            #expect(kept.headers[.location] == "/welcome?step=phone")
            let prayer = try await client.send(.get, "/api/v1/prayer-settings", token: token2).text
            #expect(prayer.contains("Riyadh") && prayer.contains("MuslimWorldLeague"), "\(prayer)")

            let phone = try await browser.post(client, "/welcome/phone", [("name", "Sara's iPhone")], csrf: csrf)
            #expect(phone.status == .ok && phone.text.contains("<svg") && phone.text.contains(".mobileconfig"), "the setup link as a QR code")
            let longName = try await browser.post(client, "/welcome/phone", [("name", String(repeating: "x", count: 101))], csrf: csrf)
            #expect(longName.status == .unprocessableContent)
            #expect(try await browser.get(client, "/welcome?step=chats").text.contains("Chats Jadwal follows now: 0."))
            let notifications = try await browser.get(client, "/welcome?step=notifications")
            #expect(notifications.text.contains(#"id="email-conflict""#) && !notifications.text.contains(#"id="skip-step" href"#))
            let badKind = try await browser.post(client, "/welcome/notifications", [("email[]", "gossip")], csrf: csrf)
            #expect(badKind.status == .unprocessableContent)

            let skipped = try await browser.post(client, "/welcome/skip", [], csrf: csrf)
            #expect(skipped.headers[.location] == "/calendar")
            var again = TestBrowser()
            try await again.signIn("sara@example.com", client: client, harness: harness)
            let page = try await again.get(client, "/settings/account")
            #expect(page.text.contains("You skipped it on") && page.text.contains(#"href="/welcome""#), "it can be opened again")
            // Reopened and finished at its last step.
            let finishing = try await again.get(client, "/welcome?step=notifications")
            let finished = try await again.post(client, "/welcome/notifications", [("email[]", "conflict")], csrf: TestBrowser.csrf(in: finishing))
            #expect(finished.headers[.location] == "/calendar")
            #expect(try await again.get(client, "/settings/account").text.contains("You finished it on"))
        }
    }

    @Test("your account and data: a new address, the export, deletion by typing the address; refusals beside their field")
    func accountPage() async throws {
        try await ServerHarness.run(configure: { $0.workers = 0 }) { harness, client in
            var browser = TestBrowser()
            try await browser.signIn("sara@example.com", client: client, harness: harness)
            let settings = try await browser.get(client, "/settings")
            #expect(settings.text.contains(#"href="/settings/account""#))
            let page = try await browser.get(client, "/settings/account")
            #expect(page.status == .ok && page.text.contains("sara@example.com") && page.text.contains(#"href="/privacy""#))
            let csrf = try #require(TestBrowser.csrf(in: page))

            let invalid = try await browser.post(client, "/settings/account/email", [("email", "nope")], csrf: csrf)
            #expect(invalid.status == .unprocessableContent && invalid.text.contains("Enter an email address") && invalid.text.contains(#"aria-invalid="true""#))
            let same = try await browser.post(client, "/settings/account/email", [("email", "Sara@example.com")], csrf: csrf)
            #expect(same.status == .unprocessableContent && same.text.contains("already your address"))
            let noToken = try await browser.post(client, "/settings/account/email", [("email", "new@example.com")])
            #expect(noToken.status == .forbidden)
            let sent = try await browser.post(client, "/settings/account/email", [("email", "sara.new@example.com")], csrf: csrf)
            #expect(sent.status == .ok && sent.text.contains("a link to confirm is on its way"))
            try await ConflictAPITests.runJobs(harness)
            let mail = try await harness.outbox.waitForMessage(to: "sara.new@example.com")
            let link = try #require(mail.textBody.range(of: "/account/email?token=").map { String(mail.textBody[$0.upperBound...].prefix { !$0.isWhitespace }) })

            // The emailed link, opened in a browser that is not signed in: a page, then a button.
            var phone = TestBrowser()
            let opened = try await phone.get(client, "/account/email?token=\(link)")
            #expect(opened.status == .ok && opened.text.contains("Make sara.new@example.com the sign-in address"))
            let bad = try await phone.get(client, "/account/email?token=nope")
            #expect(bad.status == .badRequest && bad.text.contains("not valid"))
            let changed = try await phone.post(client, "/account/email", [("token", link)])
            #expect(changed.status == .ok && changed.text.contains("Sign in as sara.new@example.com"))
            #expect(try await phone.post(client, "/account/email", [("token", link)]).status == .conflict)

            let zip = try await browser.get(client, "/settings/account/export")
            #expect(zip.status == .ok && zip.headers[.contentType] == "application/zip" && zip.body.readableBytes > 100)

            let delete = try await browser.get(client, "/settings/account/delete")
            #expect(delete.status == .ok && delete.text.contains("3 calendars") && delete.text.contains(#"id="confirm-email""#))
            let mismatch = try await browser.post(client, "/settings/account/delete", [("confirmEmail", "sara@example.com")], csrf: csrf)
            #expect(mismatch.status == .unprocessableContent && mismatch.text.contains("Type sara.new@example.com"), "the address is the new one now")
            let gone = try await browser.post(client, "/settings/account/delete", [("confirmEmail", "sara.new@example.com")], csrf: csrf)
            #expect(gone.status == .ok && gone.text.contains("The account sara.new@example.com and everything in it are gone"))
            #expect(browser.cookies["jadwal_access"] == nil && browser.cookies["jadwal_refresh"] == nil)
            #expect(try await browser.get(client, "/settings").headers[.location] == "/")
        }
    }

    @Test("a deletion link: emailed, a page naming the account, deleted by its button; bad links are refused")
    func deletionLink() async throws {
        try await ServerHarness.run(configure: { $0.workers = 0 }) { harness, client in
            var browser = TestBrowser()
            try await browser.signIn("omar@example.com", client: client, harness: harness)
            let page = try await browser.get(client, "/settings/account/delete")
            let asked = try await browser.post(client, "/settings/account/delete-link", [], csrf: TestBrowser.csrf(in: page))
            #expect(asked.status == .ok && asked.text.contains("is on its way to omar@example.com"))
            try await ConflictAPITests.runJobs(harness)
            let mail = try await harness.outbox.waitForMessage(to: "omar@example.com") { $0.subject.contains("Confirm deleting") }
            let link = try #require(mail.textBody.range(of: "/account/delete?token=").map { String(mail.textBody[$0.upperBound...].prefix { !$0.isWhitespace }) })
            var elsewhere = TestBrowser()
            let opened = try await elsewhere.get(client, "/account/delete?token=\(link)")
            #expect(opened.status == .ok && opened.text.contains("Delete the account omar@example.com"))
            #expect(try await elsewhere.get(client, "/account/delete?token=x").status == .badRequest)
            let deleted = try await elsewhere.post(client, "/account/delete", [("token", link)])
            #expect(deleted.status == .ok && deleted.text.contains("gone from this server"))
            #expect(try await elsewhere.post(client, "/account/delete", [("token", link)]).status == .badRequest, "its account is gone, and the link with it")
            #expect(try await browser.get(client, "/calendar").headers[.location] == "/", "the browser that asked is signed out")
        }
    }

    @Test("the privacy page: for everyone, in both languages, with the retention that applies")
    func privacy() async throws {
        try await ServerHarness.run { harness, client in
            var visitor = TestBrowser()
            let english = try await visitor.get(client, "/privacy")
            #expect(english.status == .ok && english.text.contains(#"<html lang="en" dir="ltr">"#))
            #expect(english.text.contains("at most 14 days after they were sent (the default; from 1 to 365 days"))
            #expect(english.text.contains("stays signed in for 60 days at most"))
            let arabic = try await visitor.get(client, "/privacy?lang=ar")
            #expect(arabic.status == .ok && arabic.text.contains(#"<html lang="ar" dir="rtl">"#) && arabic.text.contains("الخصوصية"))
            #expect(try await visitor.get(client, "/").text.contains(#"href="/privacy""#), "linked from the sign-in page")

            var browser = TestBrowser()
            try await browser.signIn("sara@example.com", client: client, harness: harness)
            let token = try await client.signIn("sara@example.com", harness: harness).accessToken
            #expect(try await client.send(.put, "/api/v1/chats/settings", json: #"{"retentionDays": 3}"#, token: token).status == .ok)
            let own = try await browser.get(client, "/privacy")
            #expect(own.text.contains("at most 3 days after they were sent (your setting") && own.text.contains(#"id="bell""#))
        }
    }
}
