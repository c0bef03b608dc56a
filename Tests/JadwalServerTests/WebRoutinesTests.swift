import Foundation
import HTTPTypes
import HummingbirdTesting
import JadwalCore
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

/// Settings › Routines through its pages, against a live server; what it wrote is read back
/// through the JSON API and the calendar's week.
@Suite("Web app: the Routines editor")
struct WebRoutinesTests {
    static let gym: [(String, String)] = [
        ("name", "Gym"), ("kind", "routine"), ("preset", "custom"), ("day1", "on"), ("day3", "on"), ("day5", "on"), ("start", "18:00"), ("end", "19:30"),
        ("reminder", "15"), ("timeZone", "Asia/Riyadh"),
    ]

    static func replacing(_ fields: [(String, String)], _ changes: [String: String?]) -> [(String, String)] {
        var result = fields.compactMap { field -> (String, String)? in
            guard let change = changes[field.0] else { return field }
            return change.map { (field.0, $0) }
        }
        for (name, value) in changes where !fields.contains(where: { $0.0 == name }) { if let value { result.append((name, value)) } }
        return result
    }

    @Test("add with bad input beside the field, list, see it in the week, edit, a stale ETag, delete; another person's is not found")
    func routines() async throws {
        try await ServerHarness.run { harness, client in
            var (browser, token, csrf, _) = try await WebTasksTests.person("routines@example.com", harness: harness, client: client)
            let empty = try await browser.get(client, "/settings/routines")
            #expect(empty.status == .ok && empty.text.contains("No routines yet.") && empty.text.contains(#"href="/settings" aria-current="page""#))
            let new = try await browser.get(client, "/settings/routines/new")
            #expect(new.status == .ok && new.text.contains(#"name="timeZone" value="Asia/Riyadh""#), "the zone defaults to the account's")
            #expect(new.text.contains(#"value="daily" data-days="1 2 3 4 5 6 7" checked"#))

            for (changes, field, message) in [
                (["name": "  "], "name", "Give the routine a name"),
                (["day1": nil, "day3": nil, "day5": nil], "days", "Choose at least one day"),
                (["preset": "fortnightly", "day1": nil, "day3": nil, "day5": nil], "days", "Choose at least one day"),
                (["start": "25:00"], "start", "Enter a time such as"),
                (["end": "half past"], "end", "Enter a time such as"),
                (["end": "18:00"], "end", "must differ from the start"),
                (["reminder": "soon"], "reminder", "whole minutes"),
                (["reminder": "99999"], "reminder", "whole minutes"),
                (["kind": "siesta"], "kind", "routine or sleep"),
                (["timeZone": "Mars/Base"], "timeZone", "time zone such as"),
            ] as [([String: String?], String, String)] {
                let refused = try await browser.post(client, "/settings/routines/new", Self.replacing(Self.gym, changes), csrf: csrf)
                #expect(refused.status == .unprocessableContent, "\(changes)")
                let note = WebTasksTests.note(beside: field, in: refused)
                #expect(note.contains(message), "\(changes): \(note)")
            }
            #expect(try await RoutineAPITests.list(client, token: token).routines.isEmpty, "nothing written by a refusal")

            #expect(try await browser.post(client, "/settings/routines/new", Self.gym, csrf: csrf).headers[.location] == "/settings/routines")
            let sleep: [(String, String)] = [("name", "Sleep"), ("kind", "sleep"), ("preset", "daily"), ("start", "23:00"), ("end", "06:30"), ("timeZone", "")]
            #expect(try await browser.post(client, "/settings/routines/new", sleep, csrf: csrf).status == .seeOther)
            let listed = try await RoutineAPITests.list(client, token: token).routines
            let gym = try #require(listed.first { $0.name == "Gym" }), night = try #require(listed.first { $0.name == "Sleep" })
            #expect(gym.days == [1, 3, 5] && gym.start == "18:00" && gym.end == "19:30" && gym.reminderMinutes == 15 && gym.kind == "routine")
            #expect(night.days == [1, 2, 3, 4, 5, 6, 7] && night.kind == "sleep" && night.timeZone == "Asia/Riyadh" && night.reminderMinutes == nil)

            let list = try await browser.get(client, "/settings/routines")
            #expect(list.text.contains(">Gym</a>") && list.text.contains("Mon, Wed, Fri") && list.text.contains("18:00–19:30"))
            #expect(list.text.contains("Reminder 15 minutes before") && list.text.contains("Every day") && list.text.contains("kind-sleep"))
            // Monday 21 September 2026 is a gym day: the week view shows it as a routine.
            let week = try await browser.get(client, "/calendar?view=week&date=2026-09-21")
            #expect(week.text.contains("kind-routine") && week.text.contains("Gym"))

            let editing = try await browser.get(client, "/settings/routines/\(gym.id)")
            #expect(editing.status == .ok && editing.text.contains(#"value="Gym""#) && editing.text.contains(#"id="day3" name="day3" value="on" checked"#))
            #expect(editing.text.contains(#"value="custom" data-days="" checked"#) && !editing.text.contains(#"id="day2" name="day2" value="on" checked"#))
            let etag = try #require(TestBrowser.first(#"name="etag" value="([^"]+)""#, in: editing.text)).replacingOccurrences(of: "&quot;", with: "\"")
            let changed = Self.replacing(Self.gym, ["end": "20:00", "preset": "weekdays", "reminder": "", "etag": etag])
            #expect(try await browser.post(client, "/settings/routines/\(gym.id)", changed, csrf: csrf).status == .seeOther)
            let edited = try #require(try await RoutineAPITests.list(client, token: token).routines.first { $0.id == gym.id })
            #expect(edited.end == "20:00" && edited.days == [1, 2, 3, 4, 5] && edited.reminderMinutes == nil)
            let stale = try await browser.post(client, "/settings/routines/\(gym.id)", changed, csrf: csrf)
            #expect(stale.status == .unprocessableContent && stale.text.contains("changed on another device") && stale.text.contains(#"value="20:00""#))
            let badEdit = try await browser.post(client, "/settings/routines/\(gym.id)", Self.replacing(changed, ["etag": edited.etag, "start": "7"]), csrf: csrf)
            #expect(badEdit.status == .unprocessableContent && badEdit.text.contains("Enter a time such as"))

            // Another person: not found, whatever they try; no token, no write.
            var stranger = TestBrowser()
            try await stranger.signIn("stranger@example.com", client: client, harness: harness)
            let strangerCSRF = try #require(TestBrowser.csrf(in: try await stranger.get(client, "/settings/routines")))
            #expect(try await stranger.get(client, "/settings/routines/\(gym.id)").status == .notFound)
            #expect(try await stranger.post(client, "/settings/routines/\(gym.id)", Self.gym, csrf: strangerCSRF).status == .notFound)
            #expect(try await stranger.post(client, "/settings/routines/\(gym.id)/delete", [], csrf: strangerCSRF).status == .notFound)
            #expect(try await browser.post(client, "/settings/routines/new", Self.gym).status == .forbidden)
            #expect(try await browser.post(client, "/settings/routines/\(gym.id)/delete", [("etag", edited.etag)]).status == .forbidden)
            #expect(try await RoutineAPITests.list(client, token: token).routines.count == 2)

            // Delete: a stale ETag goes back to the form; the current one deletes.
            let staleDelete = try await browser.post(client, "/settings/routines/\(gym.id)/delete", [("etag", gym.etag)], csrf: csrf)
            #expect(staleDelete.headers[.location] == "/settings/routines/\(gym.id)?changed=1")
            #expect(try await browser.get(client, try #require(staleDelete.headers[.location])).text.contains("changed on another device"))
            #expect(try await browser.post(client, "/settings/routines/\(gym.id)/delete", [("etag", edited.etag)], csrf: csrf).status == .seeOther)
            #expect(try await browser.get(client, "/settings/routines/\(gym.id)").status == .notFound)
            #expect(try await RoutineAPITests.list(client, token: token).routines.map(\.name) == ["Sleep"])
        }
    }

    @Test("an event a phone made monthly is listed with its reason and can be deleted; in Arabic the page is right to left")
    func otherEventsAndArabic() async throws {
        try await ServerHarness.run { harness, client in
            var (browser, token, csrf, _) = try await WebTasksTests.person("routines-ar@example.com", harness: harness, client: client)
            #expect(try await browser.post(client, "/settings/routines/new", Self.gym, csrf: csrf).status == .seeOther)
            let gym = try #require(try await RoutineAPITests.list(client, token: token).routines.first)
            let user = try await DAVUser.make("routines-ar@example.com", harness: harness, client: client)
            let path = user.calendar("routines") + gym.id + ".ics"
            let ics = try await client.dav(.get, path, as: user).text
            let monthly = ics.replacingOccurrences(of: "RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR", with: "RRULE:FREQ=MONTHLY")
            #expect(monthly != ics)
            #expect(try await client.putICS(path, as: user, monthly).status == .noContent)

            let list = try await browser.get(client, "/settings/routines")
            let others = try #require(TestBrowser.first(#"(?s)<section class="card other-events"(.*?)</section>"#, in: list.text))
            #expect(others.contains("<strong>Gym</strong>") && others.contains("monthly"), "\(others)")
            let opened = try await browser.get(client, "/settings/routines/\(gym.id)")
            #expect(opened.status == .unprocessableContent && opened.text.contains("no longer a routine"))

            let patched = try await client.send(.patch, "/api/v1/me", json: #"{"language": "ar"}"#, token: token)
            try #require(patched.status == .ok)
            #expect(try await browser.post(client, "/settings/routines/new", Self.gym, csrf: csrf).status == .seeOther)
            let arabic = try await browser.get(client, "/settings/routines")
            #expect(arabic.text.contains(#"<html lang="ar" dir="rtl">"#) && arabic.text.contains("الروتين اليومي") && arabic.text.contains("تذكير قبل 15 دقيقة"))
            #expect(arabic.text.contains("الاثنين") || arabic.text.contains("اثنين"), "day names in Arabic")
            let form = try await browser.get(client, "/settings/routines/new")
            #expect(form.text.contains("كل يوم") && form.text.contains("نوم"))
            let refused = try await browser.post(client, "/settings/routines/new", Self.replacing(Self.gym, ["name": ""]), csrf: csrf)
            #expect(refused.status == .unprocessableContent && refused.text.contains("اكتب اسمًا للروتين"))

            // The other event goes with its delete button.
            #expect(try await browser.post(client, "/settings/routines/\(gym.id)/delete", [], csrf: csrf).status == .seeOther)
            #expect(try await RoutineAPITests.list(client, token: token).otherEvents.isEmpty)
        }
    }
}
