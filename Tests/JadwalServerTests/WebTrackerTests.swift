import Foundation
import HTTPTypes
import HummingbirdTesting
import JadwalCore
import JadwalTestSupport
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

/// The tracker page (charts as SVG with their numbers as a table, entries, the Health upload),
/// the questionnaire page, and sessions marked on the plan page, against a live server.
@Suite("Web app: tracker, questionnaire, sessions")
struct WebTrackerTests {
    static func upload(_ browser: inout TestBrowser, _ client: any TestClientProtocol, _ data: Data, csrf: String?) async throws -> TestResponse {
        let boundary = "----jadwalTrackerTest7d1"
        var body = ByteBuffer(string: "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"export.zip\"\r\nContent-Type: application/zip\r\n\r\n")
        body.writeBytes(data)
        body.writeString("\r\n--\(boundary)--\r\n")
        let response = try await client.execute(
            uri: "/tracker/import" + (csrf.map { "?_csrf=\($0)" } ?? ""), method: .post,
            headers: [.contentType: "multipart/form-data; boundary=\(boundary)", .cookie: browser.cookieHeader], body: body) { $0 }
        browser.absorb(response)
        return response
    }

    @Test("the tracker: a chart with a title, a description and its table; entries added with problems beside their fields; the Health upload; Arabic reads right to left")
    func tracker() async throws {
        let clock = TestClock(HealthExportSample.t0)
        try await ServerHarness.run(clock: clock) { harness, client in
            var (browser, token, csrf, _) = try await WebTasksTests.person("tracker@example.com", harness: harness, client: client)
            let empty = try await browser.get(client, "/tracker")
            #expect(empty.status == .ok && empty.text.contains(#"href="/tracker" aria-current="page""#), "\(empty.text)")
            #expect(empty.text.contains(#"role="img" aria-labelledby="chart-metric-title chart-metric-desc""#))
            #expect(empty.text.contains(#"<title id="chart-metric-title">"#) && empty.text.contains(#"<desc id="chart-metric-desc">"#))
            #expect(empty.text.contains(#"id="chart-tasks""#) && empty.text.contains(#"id="entries-empty""#))

            // A night, with problems first: a wake before bedtime, and a number that is not one.
            let backwards = try await browser.post(client, "/tracker/entries", [("form", "sleep"), ("bedtime", "2026-09-21T06:00"), ("wake", "2026-09-20T23:00")], csrf: csrf)
            #expect(backwards.status == .unprocessableContent)
            #expect(WebTasksTests.note(beside: "sleepWake", in: backwards).contains("after going to bed"), "\(backwards.text)")
            let notNumber = try await browser.post(client, "/tracker/entries", [("form", "exercise"), ("kind", "run"), ("minutes", "lots")], csrf: csrf)
            #expect(WebTasksTests.note(beside: "exerciseMinutes", in: notNumber) == "Enter a number.")
            let noUnit = try await browser.post(client, "/tracker/entries", [("form", "measure"), ("metric", "weight"), ("value", "72,5")], csrf: csrf)
            #expect(WebTasksTests.note(beside: "measureUnit", in: noUnit).contains("unit"), "\(noUnit.text)")
            let reserved = try await browser.post(client, "/tracker/entries", [("form", "measure"), ("metric", "tasks"), ("value", "3"), ("unit", "x")], csrf: csrf)
            #expect(WebTasksTests.note(beside: "measureMetric", in: reserved).contains("not tasks"))

            for (night, wake) in [("2026-09-18T23:00", "2026-09-19T06:30"), ("2026-09-19T23:30", "2026-09-20T06:00"), ("2026-09-20T22:45", "2026-09-21T06:15")] {
                let added = try await browser.post(client, "/tracker/entries", [("form", "sleep"), ("bedtime", night), ("wake", wake)], csrf: csrf)
                #expect(added.status == .seeOther && added.headers[.location] == "/tracker?added=1#entries")
            }
            #expect(try await browser.post(client, "/tracker/entries", [("form", "measure"), ("metric", "weight"), ("value", "72,5"), ("unit", "kg")], csrf: csrf).status == .seeOther)
            let page = try await browser.get(client, "/tracker?metric=sleep&period=day")
            #expect(page.text.contains("Days in a row: 3 now, 3 at most."), "\(page.text)")
            #expect(page.text.contains(#"<rect class="chart-bar current""#) && page.text.contains("7 h 30"), "the last night as a bar and in words")
            #expect(page.text.contains(#"id="chart-metric-table""#) && page.text.contains("<th scope=\"row\">"))
            #expect(page.text.contains("72.5 kg") && page.text.contains(#"id="entry-list""#))

            // The Health upload through the page's form.
            let zip = try TrackerAPITests.zipped(HealthExportSample.export(nights: [("2026-09-15 23:30:00", "2026-09-16 06:30:00")]))
            let imported = try await Self.upload(&browser, client, zip, csrf: csrf)
            #expect(imported.status == .ok && imported.text.contains(#"id="import-report""#) && imported.text.contains("Imported 1 nights"), "\(imported.text)")
            let wrong = try await Self.upload(&browser, client, try TrackerAPITests.zipped("<?xml version=\"1.0\"?>\n<kml/>\n"), csrf: csrf)
            #expect(wrong.status == .unprocessableContent && wrong.text.contains(#"id="import-error""#) && wrong.text.contains("line 2"), "\(wrong.text)")
            #expect(try await Self.upload(&browser, client, zip, csrf: nil).status == .forbidden, "no token, no import")

            // Delete an entry.
            let delete = try #require(TestBrowser.first(#"action="(/tracker/entries/[^"]+/delete)""#, in: page.text))
            #expect(try await browser.post(client, delete, [], csrf: csrf).status == .seeOther)

            let arabic = try await client.send(.patch, "/api/v1/me", json: #"{"language": "ar"}"#, token: token)
            #expect(arabic.status == .ok)
            let rtl = try await browser.get(client, "/tracker?metric=sleep&period=week")
            #expect(rtl.text.contains(#"dir="rtl""#) && rtl.text.contains("المتابعة") && rtl.text.contains(#"direction="ltr""#), "\(rtl.text)")
            #expect(rtl.text.contains("س") && rtl.text.contains("أسبوع"), "durations and weeks in Arabic")
        }
    }

    @Test("the questionnaire: from Settings and the plan, saved with problems beside their fields, skipped back to where it was asked")
    func questionnaire() async throws {
        try await ServerHarness.run { harness, client in
            var (browser, token, csrf, _) = try await WebTasksTests.person("questions@example.com", harness: harness, client: client)
            let settings = try await browser.get(client, "/settings")
            #expect(settings.text.contains(#"href="/settings/questionnaire""#))
            let plan = try await browser.get(client, "/plan")
            #expect(plan.text.contains(#"href="/settings/questionnaire?next=/plan""#))

            let page = try await browser.get(client, "/settings/questionnaire?next=/calendar")
            #expect(page.status == .ok && page.text.contains(#"name="next" value="/calendar""#) && page.text.contains(#"id="skip-questionnaire""#))
            let fields: [(String, String)] = [("wake", "06:00"), ("sleep", "06:00"), ("workStart", "09:00"), ("workEnd", "17:00"), ("workDays", "weekdays"),
                                              ("exerciseTime", "morning"), ("focusTime", ""), ("intensity", "light"), ("next", "/calendar")]
            let same = try await browser.post(client, "/settings/questionnaire", fields, csrf: csrf)
            #expect(same.status == .unprocessableContent && WebTasksTests.note(beside: "sleep", in: same).contains("different times"))
            let noDays = try await browser.post(client, "/settings/questionnaire",
                                                fields.map { $0.0 == "sleep" ? ("sleep", "22:30") : $0.0 == "workDays" ? ("workDays", "custom") : $0 }, csrf: csrf)
            #expect(WebTasksTests.note(beside: "workDays", in: noDays).contains("at least one day"), "\(noDays.text)")
            let saved = try await browser.post(client, "/settings/questionnaire", fields.map { $0.0 == "sleep" ? ("sleep", "22:30") : $0 }, csrf: csrf)
            #expect(saved.status == .seeOther && saved.headers[.location] == "/calendar")
            let answers = try await client.send(.get, "/api/v1/plan/questionnaire", token: token).text
            #expect(answers.contains(#""wake":"06:00""#) && answers.contains(#""intensity":"light""#) && answers.contains(#""exerciseTime":"morning""#), "\(answers)")
            let shown = try await browser.get(client, "/settings/questionnaire")
            #expect(shown.text.contains(#"value="22:30""#) && shown.text.contains(#"id="intensity-light" name="intensity" value="light" aria-describedby="intensity-light-hint" checked"#))

            // Skipping keeps the answers and goes back; a next that leaves the site is ignored.
            let skip = try await browser.post(client, "/settings/questionnaire", [("skip", "1"), ("next", "//evil.example/")], csrf: csrf)
            #expect(skip.status == .seeOther && skip.headers[.location] == "/plan")
            #expect(try await client.send(.get, "/api/v1/plan/questionnaire", token: token).text.contains(#""wake":"06:00""#))
            // The routine form starts from the answers.
            let sleepRoutine = try await browser.get(client, "/settings/routines/new?kind=sleep")
            #expect(sleepRoutine.text.contains(#"value="22:30""#) && sleepRoutine.text.contains(#"value="06:00""#), "\(sleepRoutine.text)")

            _ = try await client.send(.patch, "/api/v1/me", json: #"{"language": "ar"}"#, token: token)
            let arabic = try await browser.get(client, "/settings/questionnaire")
            #expect(arabic.text.contains("عن أيامك") && arabic.text.contains(#"dir="rtl""#))
        }
    }

    @Test("the plan page marks a begun session done or skipped; the tracker's goals show it")
    func sessions() async throws {
        let clock = TestClock(HealthExportSample.t0)
        try await ServerHarness.run(clock: clock) { harness, client in
            var (browser, _, csrf, _) = try await WebTasksTests.person("sessions@example.com", harness: harness, client: client)
            #expect(try await browser.post(client, "/plan/goals", WebPlanTests.exercise, csrf: csrf).status == .seeOther)
            #expect(try await browser.post(client, "/plan/propose", [], csrf: csrf).status == .seeOther)
            let planned = try await browser.get(client, "/plan")
            let accept = try #require(TestBrowser.first(#"action="(/plan/proposals/[^"]+/accept)""#, in: planned.text))
            #expect(try await browser.post(client, accept, [], csrf: csrf).status == .seeOther)
            #expect(try await browser.get(client, "/plan").text.contains(#"id="sessions-empty""#), "nothing has begun yet")

            clock.advance(by: 2 * 86_400)
            let page = try await browser.get(client, "/plan")
            let done = try #require(TestBrowser.first(#"action="(/plan/proposals/[^"]+/done)""#, in: page.text), "\(page.text)")
            #expect(try await browser.post(client, done, [], csrf: csrf).headers[.location] == "/plan#sessions")
            let after = try await browser.get(client, "/plan")
            #expect(after.text.contains(#"<span class="tag">done</span>"#) && after.text.contains(#"aria-pressed="true""#), "\(after.text)")
            let tracker = try await browser.get(client, "/tracker")
            #expect(tracker.text.contains("1 of 3 done"), "\(tracker.text)")
        }
    }
}
