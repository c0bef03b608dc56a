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

/// A browser as far as the server can tell: a cookie jar, and forms posted with the page's CSRF token.
struct TestBrowser {
    var cookies: [String: String] = [:]

    var cookieHeader: String { cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }

    mutating func absorb(_ response: TestResponse) {
        for line in response.headers[values: .setCookie] {
            let pair = line.split(separator: ";").first.map(String.init) ?? ""
            guard let equals = pair.firstIndex(of: "=") else { continue }
            let name = String(pair[..<equals]), value = String(pair[pair.index(after: equals)...])
            if line.contains("Max-Age=0") || value.isEmpty { cookies[name] = nil } else { cookies[name] = value }
        }
    }

    mutating func get(_ client: any TestClientProtocol, _ path: String) async throws -> TestResponse {
        let response = try await client.send(.get, path, headers: cookies.isEmpty ? [:] : [.cookie: cookieHeader])
        absorb(response)
        return response
    }

    /// A form post; `csrf` nil leaves the token out.
    mutating func post(
        _ client: any TestClientProtocol, _ path: String, _ fields: [(String, String)], csrf: String? = nil, headers extra: HTTPFields = [:]
    ) async throws -> TestResponse {
        var all = fields
        if let csrf { all.append(("_csrf", csrf)) }
        let body = all.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
        var headers = extra
        headers[.contentType] = "application/x-www-form-urlencoded"
        if !cookies.isEmpty { headers[.cookie] = cookieHeader }
        let response = try await client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(string: body)) { $0 }
        absorb(response)
        return response
    }

    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "-._~"))) ?? ""
    }

    /// Signs in through the pages: ask for a link, open it, press the button.
    mutating func signIn(_ email: String, client: any TestClientProtocol, harness: ServerHarness) async throws {
        let before = await harness.outbox.magicLinks(to: email).count
        let asked = try await post(client, "/signin/email", [("email", email)])
        #expect(asked.status == .ok && asked.text.contains(email))
        // Without background workers the test runs the queue itself, the email job with it.
        if harness.instance.configuration.workers == 0 { try await ConflictAPITests.runJobs(harness) }
        let token = try await harness.outbox.waitForMagicLink(to: email, count: before + 1)
        let opened = try await get(client, "/auth/magic?token=\(token)")
        #expect(opened.status == .ok && opened.text.contains(#"name="token" value="\#(token)""#))
        let redeemed = try await post(client, "/auth/magic", [("token", token)])
        // A first sign-in opens the first-run guide (WebAccountTests), later ones the calendar.
        #expect(redeemed.status == .seeOther && ["/calendar", "/welcome"].contains(redeemed.headers[.location] ?? ""))
    }

    static func csrf(in page: TestResponse) -> String? {
        first(#"<meta name="csrf-token" content="([^"]+)">"#, in: page.text)
    }

    static func first(_ pattern: String, in text: String) -> String? {
        guard let regex = try? NSRegularExpression(pattern: pattern),
              let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)), match.numberOfRanges > 1,
              let range = Range(match.range(at: 1), in: text) else { return nil }
        return String(text[range])
    }
}

@Suite("Web app: sign-in, sessions in cookies, CSRF, calendar views, the event form")
struct WebAppTests {
    @Test("a browser signs in with the emailed link and gets HTTP-only session cookies; signed out, pages send it to sign-in")
    func signIn() async throws {
        try await ServerHarness.run { harness, client in
            var browser = TestBrowser()
            let home = try await browser.get(client, "/")
            #expect(home.status == .ok && home.text.contains(#"action="/signin/email""#))
            #expect(home.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
            let away = try await browser.get(client, "/calendar")
            #expect(away.status == .seeOther && away.headers[.location] == "/")

            let bad = try await browser.post(client, "/signin/email", [("email", "not an email")])
            #expect(bad.status == .badRequest && bad.text.contains("Enter an email address") && bad.text.contains(#"aria-invalid="true""#))

            try await browser.signIn("web@example.com", client: client, harness: harness)
            let cookies = try await client.send(.get, "/calendar", headers: [.cookie: browser.cookieHeader])
            #expect(cookies.status == .ok)
            #expect(browser.cookies["jadwal_access"] != nil && browser.cookies["jadwal_refresh"] != nil)
            let page = try await browser.get(client, "/calendar")
            #expect(page.text.contains(#"<html lang="en" dir="ltr">"#) && TestBrowser.csrf(in: page) != nil)
            #expect(try await browser.get(client, "/").headers[.location] == "/calendar")

            // The magic link page is only a button: opening it again shows the page, spending nothing;
            // pressing it again says the link was used.
            let token = try await harness.outbox.waitForMagicLink(to: "web@example.com")
            var other = TestBrowser()
            let reused = try await other.post(client, "/auth/magic", [("token", token)])
            #expect(reused.status == .unauthorized && reused.text.contains("already used") && other.cookies.isEmpty)
        }
    }

    @Test("the sign-in cookies are HttpOnly, SameSite=Lax, and Secure when the public URL is https")
    func cookieAttributes() async throws {
        try await ServerHarness.run(configure: { $0.publicURL = "https://cal.example.com" }) { harness, client in
            _ = try await client.send(.post, "/signin/email", headers: [.contentType: "application/x-www-form-urlencoded"])
            var browser = TestBrowser()
            _ = try await browser.post(client, "/signin/email", [("email", "secure@example.com")])
            let token = try await harness.outbox.waitForMagicLink(to: "secure@example.com")
            let redeemed = try await browser.post(client, "/auth/magic", [("token", token)])
            // The session's two; the mark of the browser that asked for the link is cleared beside them.
            let lines = redeemed.headers[values: .setCookie].filter { !$0.hasPrefix(BrowserSession.askedCookie + "=") }
            #expect(lines.count == 2)
            for line in lines {
                #expect(line.contains("HttpOnly") && line.contains("SameSite=Lax") && line.contains("Secure") && line.contains("Path=/"))
            }
        }
    }

    @Test("forms and API calls from the browser need this session's CSRF token and a same-origin request")
    func csrf() async throws {
        try await ServerHarness.run { harness, client in
            var browser = TestBrowser()
            try await browser.signIn("csrf@example.com", client: client, harness: harness)
            let page = try await browser.get(client, "/events/new?date=2026-09-22")
            let csrf = try #require(TestBrowser.csrf(in: page))
            let fields = [("title", "Dinner"), ("startDate", "2026-09-22"), ("startTime", "20:00"), ("endDate", "2026-09-22"), ("endTime", "21:00")]

            let missing = try await browser.post(client, "/events/new", fields)
            #expect(missing.status == .forbidden && missing.text.contains("out of date"))
            let forged = try await browser.post(client, "/events/new", fields, csrf: "AAAA" + csrf.dropFirst(4))
            #expect(forged.status == .forbidden)
            let crossSite = try await browser.post(client, "/events/new", fields, csrf: csrf, headers: [.origin: "https://evil.example"])
            #expect(crossSite.status == .forbidden)
            let saved = try await browser.post(client, "/events/new", fields, csrf: csrf)
            #expect(saved.status == .seeOther)

            // The JSON API with the browser's cookies: reads freely, writes only with the header.
            let me = try await client.send(.get, "/api/v1/me", headers: [.cookie: browser.cookieHeader])
            #expect(me.status == .ok && me.text.contains("csrf@example.com"))
            let noHeader = try await client.send(.post, "/api/v1/notifications/read-all", headers: [.cookie: browser.cookieHeader])
            #expect(noHeader.status == .forbidden && noHeader.errorCode == "csrf_failed")
            let withHeader = try await client.send(
                .post, "/api/v1/notifications/read-all", headers: [.cookie: browser.cookieHeader, .csrfToken: csrf])
            #expect(withHeader.status == .ok)
        }
    }

    @Test("an expired access cookie is renewed from the refresh cookie; a sibling request within 30 s is not a replay, a later one is")
    func renewal() async throws {
        try await ServerHarness.run { harness, client in
            var browser = TestBrowser()
            try await browser.signIn("renew@example.com", client: client, harness: harness)
            let original = browser
            harness.clock.advance(by: 6 * 60)  // past the access token's 5 minutes
            let renewed = try await browser.get(client, "/calendar")
            #expect(renewed.status == .ok && renewed.headers[values: .setCookie].count == 2)
            #expect(browser.cookies["jadwal_refresh"] != original.cookies["jadwal_refresh"])

            // A request that left with the old cookies at the same moment still gets through, and renews nothing.
            var sibling = original
            let parallel = try await sibling.get(client, "/calendar")
            #expect(parallel.status == .ok && parallel.headers[values: .setCookie].isEmpty)

            // Much later, the old refresh token again is a replay: the session ends everywhere.
            harness.clock.advance(by: 6 * 60)
            var thief = original
            let replay = try await thief.get(client, "/calendar")
            #expect(replay.status == .seeOther)
            let owner = try await browser.get(client, "/calendar")
            #expect(owner.status == .seeOther && owner.headers[.location] == "/")
        }
    }

    @Test("a renewal is delivered even on an error answer, so the browser never keeps a spent refresh token")
    func renewalOnError() async throws {
        try await ServerHarness.run { harness, client in
            var browser = TestBrowser()
            try await browser.signIn("errors@example.com", client: client, harness: harness)
            harness.clock.advance(by: 6 * 60)
            let missing = try await browser.get(client, "/events/\(UUID().uuidString.lowercased())/nothing.ics")
            #expect(missing.status == .notFound && missing.headers[values: .setCookie].count == 2)
            #expect(missing.headers[.contentType]?.hasPrefix("text/html") == true && missing.text.contains("does not exist"))
            harness.clock.advance(by: 60)
            #expect(try await browser.get(client, "/calendar").status == .ok)
        }
    }

    @Test("the event form: errors beside their fields, then saved through CalDAV's path, shown in month, week, day and agenda, edited and deleted")
    func eventForm() async throws {
        try await ServerHarness.run { harness, client in
            var browser = TestBrowser()
            try await browser.signIn("form@example.com", client: client, harness: harness)
            let form = try await browser.get(client, "/events/new?date=2026-09-23")
            #expect(form.status == .ok && form.text.contains(#"name="startDate" type="date" value="2026-09-23""#))
            let csrf = try #require(TestBrowser.csrf(in: form))
            let calendar = try #require(TestBrowser.first(#"<option value="([0-9a-f-]{36})" selected>"#, in: form.text))

            let untitled = try await browser.post(client, "/events/new", [
                ("title", "  "), ("startDate", "2026-09-23"), ("startTime", "18:00"), ("endDate", "2026-09-23"), ("endTime", "19:00"),
                ("calendar", calendar),
            ], csrf: csrf)
            #expect(untitled.status == .unprocessableContent && untitled.text.contains("Give the event a title."))
            let backwards = try await browser.post(client, "/events/new", [
                ("title", "Call"), ("startDate", "2026-09-23"), ("startTime", "18:00"), ("endDate", "2026-09-23"), ("endTime", "17:00"),
                ("calendar", calendar),
            ], csrf: csrf)
            #expect(backwards.status == .unprocessableContent && backwards.text.contains("The end cannot be before the start."))
            #expect(backwards.text.contains(#"value="Call""#))  // what was typed stays

            let saved = try await browser.post(client, "/events/new", [
                ("title", "Dinner with Sara"), ("location", "Najd Village"), ("startDate", "2026-09-23"), ("startTime", "20:00"),
                ("endDate", "2026-09-23"), ("endTime", "21:30"), ("calendar", calendar), ("repeat", "weekly"), ("reminder", "30"),
                ("notes", "Table for 4"),
            ], csrf: csrf)
            #expect(saved.status == .seeOther && saved.headers[.location] == "/calendar?view=week&date=2026-09-23")

            for view in ["month", "week", "day", "agenda"] {
                let page = try await browser.get(client, "/calendar?view=\(view)&date=2026-09-23")
                #expect(page.status == .ok && page.text.contains("Dinner with Sara"), "\(view)")
            }
            let nextWeek = try await browser.get(client, "/calendar?view=week&date=2026-09-30")
            #expect(nextWeek.text.contains("Dinner with Sara"))  // weekly

            // The same event through the JSON API: written where CalDAV clients read.
            let token = try await client.signIn("form@example.com", harness: harness).accessToken
            let listed = try await client.send(.get, "/api/v1/events?start=2026-09-23&end=2026-09-24", token: token)
            #expect(listed.text.contains("Dinner with Sara") && listed.text.contains("Najd Village"))

            let week = try await browser.get(client, "/calendar?view=week&date=2026-09-23")
            let edit = try #require(TestBrowser.first(#"href="(/events/[0-9a-f-]{36}/[^"]+)""#, in: week.text))
            let editing = try await browser.get(client, edit)
            #expect(editing.status == .ok && editing.text.contains(#"value="Dinner with Sara""#) && editing.text.contains(#"<option value="weekly" selected>"#))
            #expect(editing.text.contains(#"<option value="30" selected>"#) && editing.text.contains("Table for 4"))
            let etag = try #require(TestBrowser.first(#"name="etag" value="([^"]+)""#, in: editing.text))
            let fields: [(String, String)] = [
                ("title", "Dinner with Sara and Omar"), ("startDate", "2026-09-23"), ("startTime", "20:30"), ("endDate", "2026-09-23"),
                ("endTime", "22:00"), ("repeat", "weekly"), ("reminder", "30"), ("etag", etag.replacingOccurrences(of: "&quot;", with: "\"")),
            ]
            let changed = try await browser.post(client, edit, fields, csrf: csrf)
            #expect(changed.status == .seeOther)
            #expect(try await browser.get(client, "/calendar?view=day&date=2026-09-23").text.contains("Dinner with Sara and Omar"))
            let stale = try await browser.post(client, edit, fields, csrf: csrf)
            #expect(stale.status == .unprocessableContent && stale.text.contains("changed on another device"))

            let current = try await browser.get(client, edit)
            let fresh = try #require(TestBrowser.first(#"name="etag" value="([^"]+)""#, in: current.text)).replacingOccurrences(of: "&quot;", with: "\"")
            // The chip opens the instance (`?occurrence=`); the event's own page is the path.
            let eventPage = String(edit.prefix { $0 != "?" })
            #expect(edit.contains("?occurrence=2026-09-23T"), "a repeating event's chip names its instance")
            let deleted = try await browser.post(client, eventPage + "/delete", [("etag", fresh)], csrf: csrf)
            #expect(deleted.status == .seeOther)
            #expect(try await browser.get(client, eventPage).status == .notFound)
            #expect(try await browser.get(client, "/calendar?view=week&date=2026-09-23").text.contains("Dinner with Sara") == false)
        }
    }

    @Test("another person's event is not found; an all-day event shows on each of its days")
    func privacyAndAllDay() async throws {
        try await ServerHarness.run { harness, client in
            var owner = TestBrowser()
            try await owner.signIn("owner@example.com", client: client, harness: harness)
            let form = try await owner.get(client, "/events/new?date=2026-09-24")
            let csrf = try #require(TestBrowser.csrf(in: form))
            _ = try await owner.post(client, "/events/new", [
                ("title", "Umrah trip"), ("allDay", "on"), ("startDate", "2026-09-24"), ("endDate", "2026-09-26"),
            ], csrf: csrf)
            let month = try await owner.get(client, "/calendar?view=month&date=2026-09-01")
            #expect(month.text.components(separatedBy: "Umrah trip").count - 1 == 3)  // 24, 25 and 26 September
            let edit = try #require(TestBrowser.first(#"href="(/events/[0-9a-f-]{36}/[^"]+)""#, in: month.text))
            let editing = try await owner.get(client, edit)
            #expect(editing.text.contains(#"name="endDate" type="date" value="2026-09-26""#))  // the last day, not iCalendar's day after

            var stranger = TestBrowser()
            try await stranger.signIn("stranger@example.com", client: client, harness: harness)
            #expect(try await stranger.get(client, edit).status == .notFound)
            let csrfB = try #require(TestBrowser.csrf(in: try await stranger.get(client, "/calendar")))
            #expect(try await stranger.post(client, edit, [("title", "mine now")], csrf: csrfB).status == .notFound)
            #expect(try await stranger.post(client, edit + "/delete", [], csrf: csrfB).status == .notFound)
            #expect(try await owner.get(client, edit).status == .ok)
        }
    }

    @Test("in Arabic the page is right to left, weeks start on Sunday, and prayer times sit in the week view")
    func arabicAndPrayers() async throws {
        try await ServerHarness.run { harness, client in
            var browser = TestBrowser()
            try await browser.signIn("arabic@example.com", client: client, harness: harness)
            let token = try await client.signIn("arabic@example.com", harness: harness).accessToken
            _ = try await client.send(.patch, "/api/v1/me", json: #"{"language": "ar", "timeZone": "Asia/Riyadh", "showHijri": true}"#, token: token)
            _ = try await client.send(.put, "/api/v1/prayer-settings", json: #"{"city": "Riyadh"}"#, token: token)
            let month = try await browser.get(client, "/calendar?view=month&date=2026-09-01")
            #expect(month.text.contains(#"<html lang="ar" dir="rtl">"#) && month.text.contains("سبتمبر"))
            #expect(TestBrowser.first(#"<th scope="col">([^<]+)</th>"#, in: month.text) == "أحد")  // ICU's short name for Sunday
            let week = try await browser.get(client, "/calendar?view=week&date=2026-09-22")
            #expect(week.text.contains("prayer-band") && week.text.contains("الفجر"))
            let day = try await browser.get(client, "/calendar?view=day&date=2026-09-22")
            #expect(day.text.contains("هـ"))  // the Hijri date beside the Gregorian one
            let bad = try await browser.get(client, "/calendar?date=yesterday")
            #expect(bad.status == .ok && bad.text.contains("yesterday"))
        }
    }

    @Test("static files are versioned, cached for a year and answer If-None-Match; the scripts stay under 100 KB")
    func staticFiles() async throws {
        try await ServerHarness.run { harness, client in
            let page = try await client.send(.get, "/")
            let script = try #require(TestBrowser.first(#"src="(/static/app\.js\?v=[0-9a-f]{16})""#, in: page.text))
            let js = try await client.send(.get, script)
            #expect(js.status == .ok && js.headers[.contentType]?.hasPrefix("text/javascript") == true)
            #expect(js.headers[.cacheControl]?.contains("immutable") == true)
            let etag = try #require(js.headers[.eTag])
            #expect(try await client.send(.get, script, headers: [.ifNoneMatch: etag]).status == .notModified)
            #expect(try await client.send(.get, "/static/nothing.js").status == .notFound)
            #expect(try await client.send(.get, "/static/..%2FPackage.swift").status == .notFound)
            let assets = try await WebAssets.bundled()
            let scriptBytes = assets.files.filter { $0.key.hasSuffix(".js") }.map(\.value.bytes.count).reduce(0, +)
            #expect(scriptBytes < 100 * 1024)
        }
    }
}

@Suite("Web app texts")
struct WebTextTests {
    @Test("English and Arabic have the same texts, and every text a template names exists")
    func textsMatch() async throws {
        let assets = try await WebAssets.bundled()
        let english = try #require(assets.texts[.english]), arabic = try #require(assets.texts[.arabic])
        #expect(Set(english.keys) == Set(arabic.keys))
        let root = try #require(WebAssets.bundledRoot)
        let folder = root.appendingPathComponent("templates")
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            let regex = try NSRegularExpression(pattern: #"\{\{t\.([A-Za-z0-9_-]+)\}\}"#)
            for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let key = (text as NSString).substring(with: match.range(at: 1))
                #expect(english[key] != nil, "\(name) uses t.\(key)")
            }
        }
    }
}
