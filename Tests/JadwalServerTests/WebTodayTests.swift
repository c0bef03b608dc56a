import Foundation
import HTTPTypes
import HummingbirdTesting
import JadwalCore
import JadwalTestSupport
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

/// The Today and upcoming-reminders screens through their pages, the to-dos and conflict badges
/// on the calendar views, and a phone's landing page and first calendar view.
@Suite("Web app: Today, upcoming reminders, to-dos and conflict badges on the views")
struct WebTodayTests {
    static let monday8am = TodayAPITests.monday8am

    @Test("Today lists the day; its to-do is marked done by the form; a stale mark says so; a phone lands here")
    func today() async throws {
        try await ServerHarness.run(clock: TestClock(Self.monday8am), configure: { $0.workers = 0 }) { harness, client in
            var (browser, token, csrf, _) = try await WebTasksTests.person("today@example.com", harness: harness, client: client)
            let personal = try await TodayAPITests.calendarID(client, "personal", token: token)
            for (title, start) in [("Dinner", "2026-11-23T19:00"), ("Call", "2026-11-23T19:30")] {
                let made = try await client.send(.post, "/api/v1/calendars/\(personal)/events", json: #"{"title": "\#(title)", "start": "\#(start)", "end": "\#(start.prefix(11))23:00"}"#, token: token)
                try #require(made.status == .created, "\(made.text)")
            }
            try await ConflictAPITests.runJobs(harness)
            let task = try await TaskAPITests.create(client, #"{"title": "Pay <rent>", "due": "2026-11-23T17:00"}"#, token: token)

            let page = try await browser.get(client, "/today")
            #expect(page.status == .ok && page.text.contains("Pay &lt;rent&gt;") && page.text.contains("Dinner") && page.text.contains("today.js"))
            #expect(page.text.contains(#"<a href="/today" aria-current="page">Today</a>"#), "Today is in the navigation")
            #expect(page.text.contains("/conflicts?conflict="), "a clash carries a badge linked to its conflict")
            #expect(page.text.contains("today-no-prayer"), "no prayer settings: the page says where to set them")
            let action = try #require(TestBrowser.first(#"action="(/today/todos/[^"]+)""#, in: page.text))
            let done = try await browser.post(client, action, [("done", "true"), ("etag", task.etag), ("date", "2026-11-23")], csrf: csrf)
            #expect(done.status == .seeOther && done.headers[.location] == "/today?date=2026-11-23", "\(done.text)")
            let after = try await TaskAPITests.list(client, "?status=all", token: token)
            #expect(after.first?.status == "completed")
            let shown = try await browser.get(client, "/today")
            #expect(shown.text.contains(#"aria-checked="true""#) && shown.text.contains("entry kind-todo"))
            let stale = try await browser.post(client, action, [("done", "false"), ("etag", task.etag)], csrf: csrf)
            #expect(stale.status == .seeOther && stale.headers[.location] == "/today?changed=1")
            #expect(try await browser.get(client, "/today?changed=1").text.contains("changed on another device"))
            let missing = try await browser.post(client, "/today/todos/\(UUID().uuidString)/x.ics", [("done", "true")], csrf: csrf)
            #expect(missing.status == .notFound)
            let noToken = try await browser.post(client, action, [("done", "true")])
            #expect(noToken.status == .forbidden, "a form without this session's token is refused")
            let badDate = try await browser.get(client, "/today?date=someday")
            #expect(badDate.status == .ok && badDate.text.contains("is not a date"))
            #expect(try await browser.get(client, "/today?date=2026-11-24").text.contains("Tuesday"))

            // A phone (marked by the page's script): lands on Today, and the calendar opens at the day.
            browser.cookies[WebScreen.cookie] = "narrow"
            let landing = try await browser.get(client, "/")
            #expect(landing.status == .seeOther && landing.headers[.location] == "/today")
            #expect(try await browser.get(client, "/calendar").text.contains(#"class="calendar view-day" data-default-view"#))
            #expect(try await browser.get(client, "/calendar?view=month").text.contains(#"class="calendar view-month""#))
            browser.cookies[WebScreen.cookie] = "wide"
            #expect(try await browser.get(client, "/").headers[.location] == "/calendar")
            #expect(try await browser.get(client, "/calendar").text.contains(#"class="calendar view-month" data-default-view"#))
        }
    }

    @Test("to-dos on the day, week and agenda views (done ones struck through), not the month; conflict badges with words for screen readers")
    func views() async throws {
        try await ServerHarness.run(clock: TestClock(Self.monday8am), configure: { $0.workers = 0 }) { harness, client in
            var (browser, token, _, _) = try await WebTasksTests.person("views@example.com", harness: harness, client: client)
            let personal = try await TodayAPITests.calendarID(client, "personal", token: token)
            for (title, start) in [("Dinner", "2026-11-23T19:00"), ("Call", "2026-11-23T19:30")] {
                let made = try await client.send(.post, "/api/v1/calendars/\(personal)/events", json: #"{"title": "\#(title)", "start": "\#(start)", "end": "\#(start.prefix(11))21:00"}"#, token: token)
                try #require(made.status == .created, "\(made.text)")
            }
            try await ConflictAPITests.runJobs(harness)
            _ = try await TaskAPITests.create(client, #"{"title": "Pay rent", "due": "2026-11-23T17:00"}"#, token: token)
            let done = try await TaskAPITests.create(client, #"{"title": "Buy dates", "due": "2026-11-24", "status": "completed"}"#, token: token)
            #expect(done.status == "completed")
            for view in ["day", "week", "agenda"] {
                let page = try await browser.get(client, "/calendar?view=\(view)&date=2026-11-23")
                #expect(page.text.contains("kind-todo") && page.text.contains("Pay rent"), "\(view) shows the to-do")
                #expect(page.text.contains("conflict-badge") && page.text.contains("in a scheduling conflict"), "\(view) marks the clash")
                #expect(page.text.contains(#"data-live="calendar""#))
                if view != "day" {
                    #expect(page.text.range(of: #"kind-todo[^"]* done"#, options: .regularExpression) != nil && page.text.contains("Buy dates") && page.text.contains("To-do, done"), "\(view): the done one, struck through")
                }
            }
            let month = try await browser.get(client, "/calendar?view=month&date=2026-11-23")
            #expect(!month.text.contains("kind-todo") && month.text.contains("conflict-badge"))
            // The badge leads to the page of the conflicts list that holds it.
            let href = try #require(TestBrowser.first(#"class="conflict-badge[^"]*" href="([^"]+)""#, in: month.text))
            let conflicts = try await browser.get(client, href.replacingOccurrences(of: "&amp;", with: "&").components(separatedBy: "#")[0])
            let id = try #require(href.components(separatedBy: "#").last)
            #expect(conflicts.status == .ok && conflicts.text.contains(#"id="\#(id)""#))
        }
    }

    @Test("upcoming reminders: listed by day; snooze, change and remove by form; bad minutes are named beside the field")
    func reminders() async throws {
        try await ServerHarness.run(clock: TestClock(Self.monday8am), configure: { $0.workers = 0 }) { harness, client in
            var (browser, token, csrf, _) = try await WebTasksTests.person("reminders@example.com", harness: harness, client: client)
            let personal = try await TodayAPITests.calendarID(client, "personal", token: token)
            let made = try await client.send(.post, "/api/v1/calendars/\(personal)/events", json: """
                {"title": "Dentist", "start": "2026-11-24T10:00", "end": "2026-11-24T11:00", "alarmMinutesBefore": 15}
                """, token: token)
            try #require(made.status == .created, "\(made.text)")
            let page = try await browser.get(client, "/reminders")
            #expect(page.status == .ok && page.text.contains("Dentist") && page.text.contains("15 min before the start"))
            let id = try #require(TestBrowser.first(#"name="id" value="([^"]+)""#, in: page.text))
            let etag = try #require(TestBrowser.first(#"name="etag" value="([^"]+)""#, in: page.text)).replacingOccurrences(of: "&quot;", with: "\"")

            let bad = try await browser.post(client, "/reminders/change", [("id", id), ("etag", etag), ("minutes", "soon")], csrf: csrf)
            #expect(bad.status == .unprocessableContent && bad.text.contains("Enter whole minutes") && bad.text.contains(#"aria-invalid="true""#))
            let tooMany = try await browser.post(client, "/reminders/change", [("id", id), ("etag", etag), ("minutes", "99999")], csrf: csrf)
            #expect(tooMany.status == .unprocessableContent && tooMany.text.contains("Enter whole minutes"))
            let changed = try await browser.post(client, "/reminders/change", [("id", id), ("etag", etag), ("minutes", "45")], csrf: csrf)
            #expect(changed.status == .seeOther && changed.headers[.location] == "/reminders?done=changed")
            #expect(try await browser.get(client, "/reminders?done=changed").text.contains("45 min before the start"))
            let stale = try await browser.post(client, "/reminders/change", [("id", id), ("etag", etag), ("minutes", "20")], csrf: csrf)
            #expect(stale.status == .seeOther && stale.headers[.location] == "/reminders?changed=1")

            let current = try await browser.get(client, "/reminders")
            let currentID = try #require(TestBrowser.first(#"name="id" value="([^"]+)""#, in: current.text))
            let badSnooze = try await browser.post(client, "/reminders/snooze", [("id", currentID), ("by", "forever")], csrf: csrf)
            #expect(badSnooze.status == .unprocessableContent && badSnooze.text.contains("Choose 10 minutes"))
            let snoozed = try await browser.post(client, "/reminders/snooze", [("id", currentID), ("by", "1h")], csrf: csrf)
            #expect(snoozed.status == .seeOther && snoozed.headers[.location] == "/reminders?done=snoozed")
            let afterSnooze = try await browser.get(client, "/reminders")
            #expect(afterSnooze.text.contains("reminder snoozed") && !afterSnooze.text.contains("/reminders/change"), "a snoozed one has no offset form")
            let snoozedID = try #require(TestBrowser.first(#"name="id" value="([^"]+)""#, in: afterSnooze.text))
            let removed = try await browser.post(client, "/reminders/remove", [("id", snoozedID)], csrf: csrf)
            #expect(removed.status == .seeOther)
            #expect(try await browser.get(client, "/reminders").text.contains("No reminders in the next two weeks."))
            let gone = try await browser.post(client, "/reminders/remove", [("id", snoozedID)], csrf: csrf)
            #expect(gone.status == .notFound && gone.text.contains("no longer coming up"))
            let garbage = try await browser.post(client, "/reminders/remove", [("id", "../../etc")], csrf: csrf)
            #expect(garbage.status == .notFound)

            // Arabic, right to left.
            _ = try await client.send(.patch, "/api/v1/me", json: #"{"language": "ar"}"#, token: token)
            let arabic = try await browser.get(client, "/reminders")
            #expect(arabic.text.contains(#"dir="rtl""#) && arabic.text.contains("التذكيرات القادمة"))
            #expect(try await browser.get(client, "/today").text.contains(#"<h1 id="today-title">اليوم</h1>"#))
        }
    }
}
