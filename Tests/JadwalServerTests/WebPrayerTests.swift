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

/// Settings → Prayer times through the pages, checked against the JSON API the phone apps use.
@Suite("Web app: prayer times settings")
struct WebPrayerTests {
    struct Times: Decodable {
        struct Day: Decodable { let date: String; let times: [String: String] }
        let placeName: String?
        let method: String
        let days: [Day]
    }

    static func fields(_ overrides: [(String, String)]) -> [(String, String)] {
        var fields: [(String, String)] = [
            ("place", "city"), ("city", ""), ("latitude", ""), ("longitude", ""), ("timeZone", ""), ("method", ""), ("madhab", "Shafi"),
            ("highLatitudeRule", "MiddleOfTheNight"), ("blockFajr", "20"), ("blockDhuhr", "20"), ("blockAsr", "20"), ("blockMaghrib", "20"),
            ("blockIsha", "20"), ("blockJumuah", "60"),
        ]
        for (name, value) in overrides {
            if let index = fields.firstIndex(where: { $0.0 == name }) { fields[index].1 = value } else { fields.append((name, value)) }
        }
        return fields
    }

    static func datetimes(in html: String, section: String) -> [String] {
        guard let start = html.range(of: section) else { return [] }
        let rest = String(html[start.upperBound...])
        let end = rest.range(of: "</ol>")?.lowerBound ?? rest.endIndex
        let regex = try? NSRegularExpression(pattern: #"<time datetime="([^"]+)">"#)
        let part = String(rest[..<end])
        return regex?.matches(in: part, range: NSRange(part.startIndex..., in: part)).compactMap { match in
            Range(match.range(at: 1), in: part).map { String(part[$0]) }
        } ?? []
    }

    @Test("saving a city and a method through the form shows today's times exactly as GET /api/v1/prayer-times, and the week")
    func saveAndPreview() async throws {
        try await ServerHarness.run { harness, client in
            var browser = TestBrowser()
            try await browser.signIn("prayer@example.com", client: client, harness: harness)
            let empty = try await browser.get(client, "/settings/prayer")
            #expect(empty.status == .ok && empty.text.contains("You have not said where you pray yet"))
            #expect(empty.text.contains(#"<option value="UmmAlQura">Umm al-Qura, Makkah</option>"#))
            let csrf = try #require(TestBrowser.csrf(in: empty))

            let saved = try await browser.post(
                client, "/settings/prayer", Self.fields([("city", "Jeddah"), ("method", "UmmAlQura"), ("madhab", "Hanafi"), ("blockJumuah", "75")]),
                csrf: csrf)
            #expect(saved.status == .seeOther && saved.headers[.location] == "/settings/prayer?saved=1")
            let page = try await browser.get(client, "/settings/prayer?saved=1")
            #expect(page.status == .ok && page.text.contains("Saved.") && page.text.contains("Jeddah"))
            #expect(page.text.contains(#"<option value="Hanafi" selected>"#) && page.text.contains(#"name="blockJumuah" type="number" min="0" max="240" value="75""#))

            let token = try await client.signIn("prayer@example.com", harness: harness).accessToken
            let api = try await client.send(.get, "/api/v1/prayer-times", token: token).json(Times.self)
            #expect(api.method == "UmmAlQura" && api.placeName?.hasPrefix("Jeddah") == true)
            let today = try #require(api.days.first)
            let expected = ["fajr", "sunrise", "dhuhr", "asr", "maghrib", "isha"].compactMap { today.times[$0] }
            #expect(expected.count == 6)
            #expect(Self.datetimes(in: page.text, section: #"id="prayer-today""#) == expected)
            // The week: seven rows, today's first, with the Hijri date.
            #expect(page.text.components(separatedBy: "<th scope=\"row\">").count - 1 == 7)
            #expect(page.text.contains(#"<tr class="today">"#) && page.text.contains(" AH"))

            // A second save with coordinates keeps the method and shows the new place.
            let moved = try await browser.post(
                client, "/settings/prayer",
                Self.fields([("place", "coordinates"), ("latitude", "51.5074"), ("longitude", "-0.1278"), ("timeZone", "Europe/London"),
                             ("method", "MoonsightingCommittee"), ("highLatitudeRule", "SeventhOfTheNight")]), csrf: csrf)
            #expect(moved.status == .seeOther)
            let london = try await client.send(.get, "/api/v1/prayer-settings", token: token).text
            #expect(london.contains("Europe/London") && london.contains("MoonsightingCommittee") && london.contains("SeventhOfTheNight"))
        }
    }

    @Test("bad input is answered on the form with 422 beside the field, and nothing is saved")
    func badInput() async throws {
        try await ServerHarness.run { harness, client in
            var browser = TestBrowser()
            try await browser.signIn("bad-prayer@example.com", client: client, harness: harness)
            let csrf = try #require(TestBrowser.csrf(in: try await browser.get(client, "/settings/prayer")))
            let cases: [([(String, String)], String, String)] = [
                ([("city", "Atlantis")], "city-error", "No city of that name"),
                ([("city", "")], "city-error", "Enter a city"),
                ([("place", "coordinates"), ("latitude", "200"), ("longitude", "10"), ("timeZone", "Asia/Riyadh")], "latitude-error", "from −90 to 90"),
                ([("place", "coordinates"), ("latitude", "north"), ("longitude", "10"), ("timeZone", "Asia/Riyadh")], "latitude-error", "from −90 to 90"),
                ([("place", "coordinates"), ("latitude", "21"), ("longitude", "39"), ("timeZone", "Mars/Olympus")], "timeZone-error", "not a time zone"),
                ([("place", "coordinates"), ("latitude", "21"), ("longitude", "39"), ("timeZone", "")], "latitude-error", "together"),
                ([("city", "Riyadh"), ("method", "Astrology")], "method-error", "Choose a method"),
                ([("city", "Riyadh"), ("madhab", "Zahiri")], "madhab-error", "or Hanafi"),
                ([("city", "Riyadh"), ("blockFajr", "500")], "blocks-error", "from 0 to 240"),
                ([("city", "Riyadh"), ("blockFajr", "ten")], "blocks-error", "from 0 to 240"),
            ]
            for (overrides, field, message) in cases {
                let answer = try await browser.post(client, "/settings/prayer", Self.fields(overrides), csrf: csrf)
                #expect(answer.status == .unprocessableContent, "\(overrides)")
                let shown = TestBrowser.first(#"id="\#(field)" class="field-error">([^<]*)<"#, in: answer.text) ?? ""
                #expect(shown.contains(message), "\(overrides): \(shown)")
                // What was typed stays in the form.
                if let typed = overrides.first(where: { $0.0 == "city" })?.1, !typed.isEmpty {
                    #expect(answer.text.contains(#"name="city" value="\#(typed)""#))
                }
            }
            let token = try await client.signIn("bad-prayer@example.com", harness: harness).accessToken
            #expect(try await client.send(.get, "/api/v1/prayer-settings", token: token).status == .notFound)

            let forged = try await browser.post(client, "/settings/prayer", Self.fields([("city", "Riyadh")]))
            #expect(forged.status == .forbidden)
            #expect(try await client.send(.get, "/api/v1/prayer-settings", token: token).status == .notFound)
        }
    }

    @Test("the city search lists matches in both languages and picking one fills the form")
    func citySearch() async throws {
        try await ServerHarness.run { harness, client in
            var browser = TestBrowser()
            try await browser.signIn("search@example.com", client: client, harness: harness)
            let found = try await browser.get(client, "/settings/prayer?city=Jed")
            #expect(found.status == .ok && found.text.contains(#"href="/settings/prayer?pick=Jeddah%2C%20SA">Jeddah</a>"#))
            #expect(found.text.contains("جدة"))
            let arabic = try await browser.get(client, "/settings/prayer?city=%D8%A7%D9%84%D8%B1%D9%8A%D8%A7%D8%B6")  // الرياض
            #expect(arabic.text.contains("pick=Riyadh%2C%20SA"))
            let none = try await browser.get(client, "/settings/prayer?city=Qwxyz")
            #expect(none.text.contains("No city in the list matches"))
            let picked = try await browser.get(client, "/settings/prayer?pick=Jeddah%2C%20SA")
            #expect(picked.text.contains(#"name="city" value="Jeddah, SA""#))
            let csrf = try #require(TestBrowser.csrf(in: picked))
            let saved = try await browser.post(client, "/settings/prayer", Self.fields([("city", "Jeddah, SA")]), csrf: csrf)
            #expect(saved.status == .seeOther)
            // No method chosen: the country's usual one.
            #expect(try await browser.get(client, "/settings/prayer").text.contains(#"<option value="UmmAlQura" selected>"#))
        }
    }

    @Test("the subscription link is made on request, serves the feed, and a new one stops the old one")
    func subscription() async throws {
        try await ServerHarness.run { harness, client in
            var browser = TestBrowser()
            try await browser.signIn("feed@example.com", client: client, harness: harness)
            let csrf = try #require(TestBrowser.csrf(in: try await browser.get(client, "/settings/prayer")))
            let early = try await browser.post(client, "/settings/prayer/feed", [], csrf: csrf)
            #expect(early.status == .unprocessableContent && early.text.contains("Save where you pray first"))
            _ = try await browser.post(client, "/settings/prayer", Self.fields([("city", "Riyadh")]), csrf: csrf)
            let made = try await browser.post(client, "/settings/prayer/feed", [], csrf: csrf)
            #expect(made.status == .ok)
            let https = try #require(TestBrowser.first(#"id="feed-https" value="([^"]+)""#, in: made.text))
            let webcal = try #require(TestBrowser.first(#"id="feed-webcal" value="([^"]+)""#, in: made.text))
            #expect(webcal.hasPrefix("webcal://") && https.hasSuffix(".ics") && webcal.hasSuffix(String(https.split(separator: "/").last ?? "")))
            let path = "/feeds/" + (https.split(separator: "/").last.map(String.init) ?? "")
            let feed = try await client.send(.get, path)
            #expect(feed.status == .ok && feed.text.contains("BEGIN:VCALENDAR") && feed.text.contains("Fajr"))
            let again = try await browser.post(client, "/settings/prayer/feed", [], csrf: csrf)
            #expect(again.status == .ok)
            #expect(try await client.send(.get, path).status == .notFound)
        }
    }

    @Test("in Arabic the page, the method names and the times are Arabic and right to left")
    func arabic() async throws {
        try await ServerHarness.run { harness, client in
            var browser = TestBrowser()
            try await browser.signIn("arabic-prayer@example.com", client: client, harness: harness)
            let token = try await client.signIn("arabic-prayer@example.com", harness: harness).accessToken
            _ = try await client.send(.patch, "/api/v1/me", json: #"{"language": "ar"}"#, token: token)
            let csrf = try #require(TestBrowser.csrf(in: try await browser.get(client, "/settings/prayer")))
            let saved = try await browser.post(client, "/settings/prayer", Self.fields([("city", "الرياض")]), csrf: csrf)
            #expect(saved.status == .seeOther)
            let page = try await browser.get(client, "/settings/prayer")
            #expect(page.text.contains(#"<html lang="ar" dir="rtl">"#) && page.text.contains("مواقيت الصلاة"))
            #expect(page.text.contains("أم القرى، مكة المكرمة") && page.text.contains("الفجر") && page.text.contains(#"name="city" value="الرياض""#))
            #expect(page.text.contains("هـ"))
            let bad = try await browser.post(client, "/settings/prayer", Self.fields([("city", "أطلانتس")]), csrf: csrf)
            #expect(bad.status == .unprocessableContent && bad.text.contains("لا توجد مدينة بهذا الاسم"))
        }
    }
}
