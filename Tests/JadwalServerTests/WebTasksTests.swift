import Foundation
import HTTPTypes
import HummingbirdTesting
import JadwalCore
import Scheduling
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

/// The Tasks screen through its pages, against a live server; what it wrote is read back through
/// the JSON API, which CalDAV clients share.
@Suite("Web app: the Tasks screen")
struct WebTasksTests {
    static func listed(_ client: any TestClientProtocol, token: String) async throws -> [TaskAPITests.TaskJSON] {
        try await TaskAPITests.list(client, "?status=all", token: token)
    }

    /// A signed-in browser and an API token for the same person, in Riyadh's time.
    static func person(_ email: String, harness: ServerHarness, client: any TestClientProtocol, language: String = "en")
        async throws -> (TestBrowser, String, String, UUID) {
        var browser = TestBrowser()
        try await browser.signIn(email, client: client, harness: harness)
        let tokens = try await client.signIn(email, harness: harness)
        let token = tokens.accessToken
        let patched = try await client.send(.patch, "/api/v1/me", json: #"{"timeZone": "Asia/Riyadh", "language": "\#(language)"}"#, token: token)
        try #require(patched.status == .ok, "\(patched.text)")
        let page = try await browser.get(client, "/tasks")
        let csrf = try #require(TestBrowser.csrf(in: page))
        return (browser, token, csrf, try #require(UUID(uuidString: tokens.account.id)))
    }

    /// The message a page shows beside a field.
    static func note(beside field: String, in page: TestResponse) -> String {
        TestBrowser.first(#"<p id="\#(field)-error" class="field-error">([^<]*)</p>"#, in: page.text) ?? ""
    }

    static func add(_ fields: [(String, String)]) -> [(String, String)] {
        let names = Set(fields.map(\.0))
        return fields + [("title", ""), ("priority", "none"), ("dueDate", ""), ("dueTime", ""), ("estimate", ""), ("notes", "")]
            .filter { !names.contains($0.0) }
    }

    @Test("add with bad input answered beside the field; sort; done and reopen; edit keeps what the form cannot show; stale and other people's")
    func tasksList() async throws {
        try await ServerHarness.run { harness, client in
            var (browser, token, csrf, _) = try await Self.person("tasks@example.com", harness: harness, client: client)
            let empty = try await browser.get(client, "/tasks")
            #expect(empty.status == .ok && empty.text.contains("No tasks here") && empty.text.contains(#"href="/tasks" aria-current="page""#))

            for (fields, message, field) in [
                ([("title", "  ")], "Give the task a title", "title"),
                ([("title", "Report"), ("estimate", "an hour")], "whole minutes", "estimate"),
                ([("title", "Report"), ("estimate", "20000")], "whole minutes", "estimate"),
                ([("title", "Report"), ("estimate", "0")], "whole minutes", "estimate"),
                ([("title", "Report"), ("dueDate", "2026-02-30")], "Enter the due date", "dueDate"),
                ([("title", "Report"), ("dueDate", "soon")], "Enter the due date", "dueDate"),
                ([("title", "Report"), ("dueTime", "10:00")], "Choose a due date", "dueDate"),
                ([("title", "Report"), ("priority", "urgent")], "Choose a priority", "priority"),
            ] {
                let refused = try await browser.post(client, "/tasks", Self.add(fields), csrf: csrf)
                #expect(refused.status == .unprocessableContent, "\(fields)")
                let note = WebTasksTests.note(beside: field, in: refused)
                #expect(note.contains(message), "\(fields): \(note)")
                if fields.count > 1 { #expect(refused.text.contains(#"value="Report""#), "what was typed stays") }
            }
            #expect(try await Self.listed(client, token: token).isEmpty, "nothing written by a refusal")

            for fields in [
                [("title", "Pay rent"), ("priority", "low"), ("dueDate", "2026-09-25")],
                [("title", "Write report"), ("priority", "high"), ("dueDate", "2026-09-28"), ("dueTime", "17:00"), ("estimate", "90"), ("notes", "For Huda")],
                [("title", "Call the bank")],
            ] {
                let saved = try await browser.post(client, "/tasks", Self.add(fields + [("sort", "priority"), ("show", "open")]), csrf: csrf)
                #expect(saved.status == .seeOther && saved.headers[.location] == "/tasks?sort=priority&status=open", "\(fields)")
                harness.clock.advance(by: 60)  // so "newest first" has an order to show
            }
            let tasks = Dictionary(uniqueKeysWithValues: try await Self.listed(client, token: token).map { ($0.title, $0) })
            let report = try #require(tasks["Write report"]), rent = try #require(tasks["Pay rent"]), bank = try #require(tasks["Call the bank"])
            #expect(report.priority == 1 && report.estimateMinutes == 90 && report.due == "2026-09-28T17:00:00" && report.timeZone == "Asia/Riyadh")
            #expect(rent.priority == 9 && rent.due == "2026-09-25" && bank.priority == nil && bank.due == nil)

            func order(_ page: TestResponse) -> [String] {
                let positions = ["Write report", "Pay rent", "Call the bank"].compactMap { title in page.text.range(of: ">\(title)</a>").map { (title, $0.lowerBound) } }
                return positions.sorted { $0.1 < $1.1 }.map(\.0)
            }
            let byPriority = try await browser.get(client, "/tasks?sort=priority")
            #expect(order(byPriority) == ["Write report", "Pay rent", "Call the bank"])
            #expect(byPriority.text.contains(#"<option value="priority" selected>"#) && byPriority.text.contains("1 h 30 min") && byPriority.text.contains(">High</span>"))
            #expect(byPriority.text.contains("Mon 28 Sept, 17:00") || byPriority.text.contains("Mon, 28 Sept, 17:00") || byPriority.text.contains("28 Sep"), "due shown in words")
            #expect(order(try await browser.get(client, "/tasks?sort=due")) == ["Pay rent", "Write report", "Call the bank"])
            #expect(order(try await browser.get(client, "/tasks?sort=created")) == ["Call the bank", "Write report", "Pay rent"])
            #expect(try await browser.get(client, "/tasks?sort=sideways&status=nonsense").status == .ok, "an unknown choice is the default")

            // Done, then the old ETag again is refused, then reopened.
            let done = try await browser.post(client, "/tasks/\(rent.name)/status", [("status", "completed"), ("etag", rent.etag), ("sort", "due"), ("show", "open")], csrf: csrf)
            #expect(done.status == .seeOther && done.headers[.location] == "/tasks?sort=due&status=open")
            #expect(try await browser.get(client, "/tasks").text.contains(">Pay rent</a>") == false)
            let finished = try await browser.get(client, "/tasks?status=completed")
            #expect(finished.text.contains(">Pay rent</a>") && finished.text.contains(#"aria-checked="true" aria-label="“Pay rent” is done"#))
            let stale = try await browser.post(client, "/tasks/\(rent.name)/status", [("status", "needs-action"), ("etag", rent.etag)], csrf: csrf)
            #expect(stale.headers[.location]?.hasSuffix("&changed=1") == true)
            #expect(try await browser.get(client, try #require(stale.headers[.location])).text.contains("changed on another device"))
            let completed = try #require(try await Self.listed(client, token: token).first { $0.name == rent.name })
            #expect(completed.status == "completed")
            _ = try await browser.post(client, "/tasks/\(rent.name)/status", [("status", "needs-action"), ("etag", completed.etag)], csrf: csrf)
            #expect(try await Self.listed(client, token: token).first { $0.name == rent.name }?.status == "needs-action")

            // A phone wrote priority 3; the form shows it as high and, left so, keeps the 3.
            let phone = try await client.send(.put, "/api/v1/tasks/\(report.name)", json: #"{"priority": 3}"#, token: token)
            try #require(phone.status == .ok)
            let editing = try await browser.get(client, "/tasks/\(report.name)")
            #expect(editing.status == .ok && editing.text.contains(#"value="Write report""#) && editing.text.contains(#"<option value="high" selected>"#))
            #expect(editing.text.contains(#"name="dueTime" type="time" value="17:00""#) && editing.text.contains("For Huda"))
            let etag = try #require(TestBrowser.first(#"name="etag" value="([^"]+)""#, in: editing.text)).replacingOccurrences(of: "&quot;", with: "\"")
            let fields: [(String, String)] = [
                ("title", "Write the report"), ("priority", "high"), ("dueDate", "2026-09-28"), ("dueTime", "17:00"), ("zone", "Asia/Riyadh"),
                ("estimate", "90"), ("notes", "For Huda"), ("etag", etag),
            ]
            let edited = try await browser.post(client, "/tasks/\(report.name)", fields, csrf: csrf)
            #expect(edited.status == .seeOther)
            let after = try #require(try await Self.listed(client, token: token).first { $0.name == report.name })
            #expect(after.title == "Write the report" && after.priority == 3 && after.estimateMinutes == 90 && after.due == "2026-09-28T17:00:00")
            let badEdit = try await browser.post(client, "/tasks/\(report.name)", fields.map { $0.0 == "estimate" ? ("estimate", "lots") : $0 }, csrf: csrf)
            #expect(badEdit.status == .unprocessableContent && badEdit.text.contains("whole minutes"))
            let staleEdit = try await browser.post(client, "/tasks/\(report.name)", fields, csrf: csrf)
            #expect(staleEdit.status == .unprocessableContent && staleEdit.text.contains("changed on another device"))
            // Emptying a field clears it.
            let cleared = try await browser.post(client, "/tasks/\(report.name)", [
                ("title", "Write the report"), ("priority", "none"), ("dueDate", ""), ("dueTime", ""), ("estimate", ""), ("notes", ""), ("etag", after.etag),
            ], csrf: csrf)
            #expect(cleared.status == .seeOther)
            let plain = try #require(try await Self.listed(client, token: token).first { $0.name == report.name })
            #expect(plain.priority == nil && plain.due == nil && plain.estimateMinutes == nil)

            // Another person finds nothing; without the CSRF token nothing is written.
            var stranger = TestBrowser()
            try await stranger.signIn("stranger@example.com", client: client, harness: harness)
            let strangerCSRF = try #require(TestBrowser.csrf(in: try await stranger.get(client, "/tasks")))
            #expect(try await stranger.get(client, "/tasks/\(bank.name)").status == .notFound)
            #expect(try await stranger.post(client, "/tasks/\(bank.name)", [("title", "mine")], csrf: strangerCSRF).status == .notFound)
            #expect(try await stranger.post(client, "/tasks/\(bank.name)/status", [("status", "completed")], csrf: strangerCSRF).status == .notFound)
            #expect(try await stranger.post(client, "/tasks/\(bank.name)/delete", [], csrf: strangerCSRF).status == .notFound)
            #expect(try await stranger.get(client, "/tasks").text.contains("Call the bank") == false)
            let forged = try await browser.post(client, "/tasks", Self.add([("title", "Sneaky")]))
            #expect(forged.status == .forbidden)
            #expect(try await browser.post(client, "/tasks/\(bank.name)/delete", []).status == .forbidden)

            // Delete: a stale ETag goes back to the form, the current one deletes.
            let staleDelete = try await browser.post(client, "/tasks/\(rent.name)/delete", [("etag", rent.etag)], csrf: csrf)
            #expect(staleDelete.headers[.location] == "/tasks/\(rent.name)?changed=1")
            let current = try #require(try await Self.listed(client, token: token).first { $0.name == rent.name })
            #expect(try await browser.post(client, "/tasks/\(rent.name)/delete", [("etag", current.etag)], csrf: csrf).status == .seeOther)
            #expect(try await browser.get(client, "/tasks/\(rent.name)").status == .notFound)
            #expect(try await Self.listed(client, token: token).map(\.title).sorted() == ["Call the bank", "Write the report"])
        }
    }

    @Test("Plan my tasks: placed clear of the meeting and the prayer, shown by day and time in the person's zone; kept, skipped and unplaced said why")
    func planMyTasks() async throws {
        // The default test clock: Monday 21 September 2026, 14:13:20 UTC, 17:13 in Riyadh.
        try await ServerHarness.run { harness, client in
            var (browser, token, csrf, accountID) = try await Self.person("planner@example.com", harness: harness, client: client)
            let prayers = try await client.send(.put, "/api/v1/prayer-settings", json: #"{"city": "Riyadh"}"#, token: token)
            try #require(prayers.status == .ok, "\(prayers.text)")
            // A meeting from 17:30 to 19:45 Riyadh time, over Maghrib; Isha follows it.
            let meeting = try await browser.post(client, "/events/new", [
                ("title", "Board meeting"), ("startDate", "2026-09-21"), ("startTime", "17:30"), ("endDate", "2026-09-21"), ("endTime", "19:45"),
                ("zone", "Asia/Riyadh"),
            ], csrf: csrf)
            try #require(meeting.status == .seeOther)
            for fields in [
                [("title", "Write report"), ("priority", "high"), ("dueDate", "2026-09-21"), ("estimate", "60")],
                [("title", "Old errand"), ("dueDate", "2026-09-20"), ("estimate", "30")],
                [("title", "Someday idea")],
            ] {
                #expect(try await browser.post(client, "/tasks", Self.add(fields), csrf: csrf).status == .seeOther)
            }

            let plan = try await browser.post(client, "/tasks/plan", [("sort", "due"), ("show", "open")], csrf: csrf)
            #expect(plan.status == .ok && plan.text.contains("Where your tasks were placed"), "\(plan.text)")
            let report = try #require(try await Self.listed(client, token: token).first { $0.title == "Write report" })
            let block = try #require(report.planned?.first, "the report got time")
            let iso = ISO8601DateFormatter()
            let start = try #require(iso.date(from: block.start)), end = try #require(iso.date(from: block.end))
            #expect(end.timeIntervalSince(start) == 3600)
            // After the meeting and clear of Isha (19:3x in Riyadh), before the end of the day it is due.
            let meetingEnd = try #require(iso.date(from: "2026-09-21T16:45:00Z")), dayEnd = try #require(iso.date(from: "2026-09-21T21:00:00Z"))
            #expect(start >= meetingEnd && end <= dayEnd, "\(block)")
            let busy = try await TaskAPITests.busy(harness, accountID: accountID, in: try TimeRange(start: harness.clock.now, end: dayEnd))
            let range = try TimeRange(start: start, end: end)
            #expect(busy.contains { $0.isPrayer } && !busy.contains { $0.range.overlaps(range) }, "\(busy)")

            // The page says where, in Riyadh's time, and why the others were not placed.
            var riyadh = Foundation.Calendar(identifier: .gregorian)
            riyadh.timeZone = try #require(TimeZone(identifier: "Asia/Riyadh"))
            let from = riyadh.dateComponents([.hour, .minute], from: start), to = riyadh.dateComponents([.hour, .minute], from: end)
            let shown = String(format: "%02d:%02d–%02d:%02d", from.hour ?? 0, from.minute ?? 0, to.hour ?? 0, to.minute ?? 0)
            let placed = try #require(TestBrowser.first(#"(?s)<table class="plan-table" id="plan-placed">(.*?)</table>"#, in: plan.text))
            #expect(placed.contains("<td>Write report</td>") && placed.contains("21") && placed.contains(shown), "\(placed) \(shown)")
            let unplaced = try #require(TestBrowser.first(#"(?s)<ul id="plan-unplaced">(.*?)</ul>"#, in: plan.text))
            #expect(unplaced.contains("Old errand") && unplaced.contains("has passed"), "\(unplaced)")
            let skipped = try #require(TestBrowser.first(#"(?s)<ul id="plan-skipped">(.*?)</ul>"#, in: plan.text))
            #expect(skipped.contains("Someday idea") && skipped.contains("no estimate"), "\(skipped)")
            #expect(plan.text.contains("Planned: ") && plan.text.contains(shown), "the list shows the block under its task")

            // The block is in the calendar's week, as a task block; planning again keeps it.
            let week = try await browser.get(client, "/calendar?view=week&date=2026-09-21")
            #expect(week.text.contains("kind-task") && week.text.contains("Write report"))
            let again = try await browser.post(client, "/tasks/plan", [], csrf: csrf)
            let kept = try #require(TestBrowser.first(#"(?s)<table class="plan-table" id="plan-kept">(.*?)</table>"#, in: again.text))
            #expect(kept.contains("Write report") && !again.text.contains(#"id="plan-placed""#))
            #expect(try await browser.post(client, "/tasks/plan", []).status == .forbidden, "no plan without the CSRF token")
        }
    }

    @Test("in Arabic the Tasks page is right to left, in Arabic words, with the plan's reasons in Arabic")
    func arabic() async throws {
        try await ServerHarness.run { harness, client in
            var (browser, _, csrf, _) = try await Self.person("arabic-tasks@example.com", harness: harness, client: client, language: "ar")
            _ = try await browser.post(client, "/tasks", Self.add([("title", "تقرير"), ("priority", "high"), ("dueDate", "2026-09-20"), ("estimate", "45")]), csrf: csrf)
            let page = try await browser.get(client, "/tasks")
            #expect(page.text.contains(#"<html lang="ar" dir="rtl">"#) && page.text.contains("خطّط مهامي") && page.text.contains("45 د"))
            #expect(page.text.contains(">عالية</span>") && page.text.contains("متأخرة"))
            let refused = try await browser.post(client, "/tasks", Self.add([("title", "")]), csrf: csrf)
            #expect(refused.status == .unprocessableContent && refused.text.contains("اكتب عنوانًا للمهمة"))
            let plan = try await browser.post(client, "/tasks/plan", [], csrf: csrf)
            #expect(plan.text.contains("أين وُضعت مهامك") && plan.text.contains("فات موعد استحقاقها"))
        }
    }
}
