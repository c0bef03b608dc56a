import Foundation
import HTTPTypes
import HummingbirdTesting
import JadwalCore
@testable import JadwalServer
@testable import JadwalHTTP
@testable import JadwalAPI
@testable import JadwalWeb
@testable import JadwalCalDAV
@testable import JadwalMail
@testable import JadwalPush
@testable import JadwalLLM
@testable import JadwalJobs
import JadwalTestSupport
import Scheduling
import Testing

/// The conflicts screen: conflicts found by the check job (run by hand here, the harness has no
/// workers), drawn with their day and suggested times, and resolved through the same
/// `ConflictResolution` the JSON API uses.
@Suite("Web app: the conflicts screen")
struct WebConflictsTests {
    /// A person signed in both as a phone (CalDAV) and as a browser, in Riyadh.
    struct Person {
        var browser: TestBrowser
        let user: DAVUser
        let token: String
        let csrf: String
    }

    static func person(_ harness: ServerHarness, _ client: some TestClientProtocol, email: String = "omar@example.com") async throws -> Person {
        let (user, token) = try await ChatAPITests.omar(harness, client, email: email)
        var browser = TestBrowser()
        try await browser.signIn(email, client: client, harness: harness)
        let csrf = try #require(TestBrowser.csrf(in: try await browser.get(client, "/conflicts")))
        return Person(browser: browser, user: user, token: token, csrf: csrf)
    }

    /// Dinner at 18:00 and, written after it, a call at 18:30 on 23 November 2026 (Riyadh): the
    /// call is the conflict.
    static func overlappingEvents(_ harness: ServerHarness, _ client: some TestClientProtocol, _ person: Person) async throws -> String {
        let personal = person.user.calendar("personal")
        #expect(try await client.putICS(personal + "dinner.ics", as: person.user, ICS.event(uid: "dinner", summary: "Dinner", start: "20261123T180000")).status == .created)
        #expect(try await client.putICS(personal + "call.ics", as: person.user, ICS.event(uid: "call", summary: "Call with Sara", start: "20261123T183000")).status == .created)
        try await ConflictAPITests.runJobs(harness)
        let conflicts = try await ConflictAPITests.conflicts(client, token: person.token)
        try #require(conflicts.count == 1, "\(conflicts)")
        return conflicts[0].id
    }

    static func resolve(_ client: some TestClientProtocol, _ person: inout Person, _ id: String, _ fields: [(String, String)], csrf: String? = nil)
        async throws -> TestResponse {
        try await person.browser.post(client, "/conflicts/\(id)/resolve", fields, csrf: csrf ?? person.csrf)
    }

    @Test("with nothing open the page says so; a conflict is listed with its timeline, what it runs into and suggested times")
    func listed() async throws {
        try await ServerHarness.run(configure: { $0.workers = 0 }) { harness, client in
            var person = try await Self.person(harness, client)
            let empty = try await person.browser.get(client, "/conflicts")
            #expect(empty.status == .ok && empty.text.contains("No scheduling conflicts ✓") && empty.text.contains(#"aria-current="page">Conflicts"#))

            let id = try await Self.overlappingEvents(harness, client, person)
            let page = try await person.browser.get(client, "/conflicts")
            #expect(page.status == .ok && !page.text.contains("No scheduling conflicts ✓"))
            #expect(page.text.contains("Call with Sara") && page.text.contains("Monday, 23 November 2026") && page.text.contains("18:30–19:30"))
            #expect(page.text.contains("<strong>Dinner</strong>") && page.text.contains("18:00–19:00") && page.text.contains("30 min overlap"))
            // The timeline: an image with a title and a description, both events drawn and labelled, the shared half hour shaded.
            #expect(page.text.contains(#"role="img" aria-labelledby="timeline-title-\#(id) timeline-desc-\#(id)""#))
            #expect(page.text.contains(#"<title id="timeline-title-\#(id)">The hours around “Call with Sara”</title>"#))
            #expect(page.text.contains("“Call with Sara”, 18:30–19:30, runs into: Dinner (18:00–19:00)."))
            #expect(page.text.contains(#"<g class="tl-block tl-this">"#) && page.text.contains(#"<g class="tl-block tl-event">"#))
            #expect(page.text.contains(#"class="tl-overlap""#) && page.text.contains(#"id="preview-rect-\#(id)""#))
            // 16:00 to 21:00 is drawn: the two events and the suggestions on their day (17:00 and 19:00), half an hour around;
            // the suggestions on the following days are listed, not drawn.
            #expect(page.text.contains(">16:00</text>") && page.text.contains(">21:00</text>"))
            #expect(!page.text.contains(">15:00</text>") && !page.text.contains(">22:00</text>"))
            #expect(page.text.contains(#"data-label="Tue 24 Nov · 18:30–19:30">"#), "no place on the timeline for the next day")
            #expect(page.text.contains("Preview: moved to Tue 24 Nov · 18:30–19:30, outside the hours drawn."))
            // Suggested times as radio buttons, nearest first, each placed on the timeline for the preview.
            let first = try #require(TestBrowser.first(#"<input type="radio" id="slot-[^"]+-0" name="slot" value="([^"]+)""#, in: page.text))
            #expect(first == "2026-11-23T16:00:00Z/2026-11-23T17:00:00Z")
            #expect(page.text.contains(#"data-label="19:00–20:00" data-y="#) && page.text.contains("Preview: moved to 19:00–20:00."))
            #expect(page.text.contains("/static/conflicts.js?v=") && page.text.contains("/static/conflicts.css?v="))
            #expect(page.text.contains(#"data-confirm="Cancel “Call with Sara”? It is removed from your calendar on every device.""#))
            #expect(!page.text.contains("style=\""), "no inline styles: the CSP forbids them")
        }
    }

    @Test("moving to a suggested time rewrites the event where phones read it and resolves the conflict; a taken or missing slot is said on the card")
    func move() async throws {
        try await ServerHarness.run(configure: { $0.workers = 0 }) { harness, client in
            var person = try await Self.person(harness, client)
            let id = try await Self.overlappingEvents(harness, client, person)

            let missing = try await Self.resolve(client, &person, id, [("action", "move")])
            #expect(missing.status == .unprocessableContent && missing.text.contains("Choose one of the suggested times first."))
            let garbled = try await Self.resolve(client, &person, id, [("action", "move"), ("slot", "tomorrow/later")])
            #expect(garbled.status == .unprocessableContent && garbled.text.contains("That time could not be read."))
            let taken = try await Self.resolve(client, &person, id, [("action", "move"), ("slot", "2026-11-23T15:15:00Z/2026-11-23T16:15:00Z")])
            #expect(taken.status == .conflict && taken.text.contains("That time now runs into “Dinner”. Choose another time."), "\(taken.text)")
            #expect(taken.text.contains(#"id="conflict-\#(id)""#), "the card is still there, with the message on it")

            let moved = try await Self.resolve(client, &person, id, [("action", "move"), ("slot", "2026-11-23T16:00:00Z/2026-11-23T17:00:00Z")])
            #expect(moved.status == .seeOther && moved.headers[.location] == "/conflicts?done=moved")
            let after = try await person.browser.get(client, "/conflicts?done=moved")
            #expect(after.text.contains("Moved. Your phones and computers see the new time") && after.text.contains("No scheduling conflicts ✓"))
            let phone = try await client.dav(.get, person.user.calendar("personal") + "call.ics", as: person.user)
            #expect(phone.text.contains("DTSTART;TZID=Asia/Riyadh:20261123T190000"), "\(phone.text)")
            try await ConflictAPITests.runJobs(harness)
            #expect(try await ConflictAPITests.conflicts(client, token: person.token, all: true).map(\.status) == ["moved"])
            let day = try await person.browser.get(client, "/calendar?view=day&date=2026-11-23")
            #expect(day.text.contains("Call with Sara") && day.text.contains("19:00–20:00"))
        }
    }

    @Test("keep marks the conflict known, so writing the event again raises nothing; cancel deletes the event")
    func keepAndCancel() async throws {
        try await ServerHarness.run(configure: { $0.workers = 0 }) { harness, client in
            var person = try await Self.person(harness, client)
            let id = try await Self.overlappingEvents(harness, client, person)
            let kept = try await Self.resolve(client, &person, id, [("action", "keep")])
            #expect(kept.status == .seeOther && kept.headers[.location] == "/conflicts?done=kept")
            #expect(try await person.browser.get(client, "/conflicts?done=kept").text.contains("Kept both."))
            _ = try await client.putICS(
                person.user.calendar("personal") + "call.ics", as: person.user, ICS.event(uid: "call", summary: "Call with Sara", start: "20261123T183000"))
            try await ConflictAPITests.runJobs(harness)
            #expect(try await person.browser.get(client, "/conflicts").text.contains("No scheduling conflicts ✓"))

            _ = try await client.putICS(person.user.calendar("personal") + "tea.ics", as: person.user, ICS.event(uid: "tea", summary: "Tea", start: "20261123T181500"))
            try await ConflictAPITests.runJobs(harness)
            let tea = try #require(try await ConflictAPITests.conflicts(client, token: person.token).first { $0.event.name == "tea.ics" })
            let cancelled = try await Self.resolve(client, &person, tea.id, [("action", "cancel")])
            #expect(cancelled.status == .seeOther && cancelled.headers[.location] == "/conflicts?done=cancelled")
            #expect(try await person.browser.get(client, "/conflicts?done=cancelled").text.contains("Cancelled. The event is removed"))
            #expect(try await client.dav(.get, person.user.calendar("personal") + "tea.ics", as: person.user).status == .notFound)
        }
    }

    @Test("more than ten conflicts are paged ten at a time, with links both ways; a page past the end shows the last")
    func paging() async throws {
        try await ServerHarness.run(configure: { $0.workers = 0 }) { harness, client in
            var person = try await Self.person(harness, client)
            let personal = person.user.calendar("personal")
            for day in 10...21 {
                #expect(try await client.putICS(personal + "dinner-\(day).ics", as: person.user, ICS.event(uid: "dinner-\(day)", summary: "Dinner \(day)", start: "202610\(day)T180000")).status == .created)
                #expect(try await client.putICS(personal + "call-\(day).ics", as: person.user, ICS.event(uid: "call-\(day)", summary: "Call \(day)", start: "202610\(day)T183000")).status == .created)
            }
            try await ConflictAPITests.runJobs(harness)
            func cards(_ text: String) -> Int { text.components(separatedBy: #"<li class="card conflict""#).count - 1 }

            let first = try await person.browser.get(client, "/conflicts")
            #expect(first.text.contains("Unresolved: 12") && first.text.contains("Showing 1–10 of 12."))
            #expect(cards(first.text) == 10)
            #expect(first.text.contains(#"href="/conflicts?from=10" rel="next""#) && !first.text.contains(#"rel="prev""#))
            let second = try await person.browser.get(client, "/conflicts?from=10")
            #expect(second.status == .ok && second.text.contains("Showing 11–12 of 12.") && cards(second.text) == 2)
            #expect(second.text.contains(#"href="/conflicts?from=0" rel="prev""#) && !second.text.contains(#"rel="next""#))
            let beyond = try await person.browser.get(client, "/conflicts?from=500")
            #expect(beyond.text.contains("Showing 11–12 of 12."))
            for odd in ["-3", "abc", "7"] {
                #expect(try await person.browser.get(client, "/conflicts?from=\(odd)").text.contains("Showing 1–10 of 12."), "from=\(odd)")
            }
        }
    }

    @Test("stale, unknown and other people's conflicts are answered on the page; a form without the CSRF token is refused")
    func refusals() async throws {
        try await ServerHarness.run(configure: { $0.workers = 0 }) { harness, client in
            var person = try await Self.person(harness, client)
            let id = try await Self.overlappingEvents(harness, client, person)

            let forged = try await person.browser.post(client, "/conflicts/\(id)/resolve", [("action", "cancel")])
            #expect(forged.status == .forbidden)
            let unknown = try await Self.resolve(client, &person, UUID().uuidString.lowercased(), [("action", "keep")])
            #expect(unknown.status == .notFound && unknown.text.contains("This conflict was not found.") && unknown.text.contains(#"id="conflict-\#(id)""#))
            let malformed = try await Self.resolve(client, &person, "not-a-conflict", [("action", "keep")])
            #expect(malformed.status == .notFound && malformed.text.contains("<html"))
            let nonsense = try await Self.resolve(client, &person, id, [("action", "snooze")])
            #expect(nonsense.status == .unprocessableContent && nonsense.text.contains("Choose to keep both, move or cancel."))

            var stranger = try await Self.person(harness, client, email: "stranger@example.com")
            let theirs = try await Self.resolve(client, &stranger, id, [("action", "cancel")])
            #expect(theirs.status == .notFound && !theirs.text.contains("Call with Sara"))
            #expect(try await client.dav(.get, person.user.calendar("personal") + "call.ics", as: person.user).status == .ok, "nothing was cancelled")

            // The phone changes the event before the person acts on the page: nothing is overwritten.
            _ = try await client.putICS(
                person.user.calendar("personal") + "call.ics", as: person.user,
                ICS.event(uid: "call", summary: "Call with Sara (short)", start: "20261123T183000", duration: "PT45M"))
            let stale = try await Self.resolve(client, &person, id, [("action", "cancel")])
            #expect(stale.status == .conflict && stale.text.contains("The event was changed or deleted since this conflict was found"), "\(stale.text)")
            #expect(try await client.dav(.get, person.user.calendar("personal") + "call.ics", as: person.user).status == .ok)

            try await ConflictAPITests.runJobs(harness)
            let current = try #require(try await ConflictAPITests.conflicts(client, token: person.token).first)
            #expect(try await Self.resolve(client, &person, current.id, [("action", "keep")]).status == .seeOther)
            let twice = try await Self.resolve(client, &person, current.id, [("action", "keep")])
            #expect(twice.status == .conflict && twice.text.contains("This conflict was already resolved.") && twice.text.contains("No scheduling conflicts ✓"))
        }
    }

    @Test("in Arabic: right to left, the timeline mirrored, prayers and suggestions in Arabic")
    func arabic() async throws {
        try await ServerHarness.run(configure: { $0.workers = 0 }) { harness, client in
            var person = try await Self.person(harness, client)
            _ = try await client.send(.patch, "/api/v1/me", json: #"{"language": "ar"}"#, token: person.token)
            #expect(try await client.send(.put, "/api/v1/prayer-settings", json: #"{"city": "Riyadh"}"#, token: person.token).status == .ok)
            // Maghrib in Riyadh on 23 November 2026 is about 17:10: a class at 17:00 runs into it.
            _ = try await client.putICS(
                person.user.calendar("personal") + "class.ics", as: person.user, ICS.event(uid: "class", summary: "درس عربي", start: "20261123T170000"))
            try await ConflictAPITests.runJobs(harness)
            let page = try await person.browser.get(client, "/conflicts")
            #expect(page.status == .ok && page.text.contains(#"<html lang="ar" dir="rtl">"#) && page.text.contains("تعارضات المواعيد"))
            #expect(page.text.contains("درس عربي") && page.text.contains("<strong>المغرب</strong>") && page.text.contains("صلاة"))
            #expect(page.text.contains("أبقِ الاثنين") && page.text.contains("انقله إلى وقت فارغ") && page.text.contains("في اليوم نفسه"), "the slot's reason in Arabic")
            // Mirrored: the hour labels sit at the right edge, the event's column on the right.
            #expect(page.text.contains(#"class="tl-hour-label" x="542.0""#))
            #expect(page.text.contains(#"<g class="tl-block tl-this"><rect x="360.0""#))
            #expect(page.text.contains(#"<g class="tl-block tl-prayer">"#))
            let id = try #require(TestBrowser.first(#"id="conflict-([0-9a-f-]{36})""#, in: page.text))
            let refused = try await Self.resolve(client, &person, id, [("action", "move")])
            #expect(refused.status == .unprocessableContent && refused.text.contains("اختر أولًا أحد الأوقات المقترحة."))
        }
    }

    @Test("the timeline's window: whole hours around the overlap, widened for near suggestions only, mirrored in Arabic")
    func timelineGeometry() throws {
        let zone = try #require(TimeZone(identifier: "Asia/Riyadh"))
        func at(_ hour: Double) -> Date { Date(timeIntervalSince1970: 1_795_381_200 + hour * 3600) }  // 2026-11-23T00:00+03:00
        let event = try TimeRange(start: at(18.5), end: at(19.5))
        let dinner = try TimeRange(start: at(18), end: at(19))
        let near = try TimeRange(start: at(19.5), end: at(20.5)), nextDay = try TimeRange(start: at(33), end: at(34))
        let timeline = ConflictsTimeline(event: event, around: [dinner], suggestions: [near, nextDay], zone: zone, rightToLeft: false)
        #expect(timeline.window.start == at(17) && timeline.window.end == at(21))
        #expect(timeline.preview(near)?.y == ConflictsTimeline.header + 150 * ConflictsTimeline.perMinute)
        #expect(timeline.preview(nextDay) == nil)
        #expect(timeline.hours { _ in "" }.count == 5)
        let mirrored = ConflictsTimeline(event: event, around: [dinner], suggestions: [], zone: zone, rightToLeft: true)
        #expect(mirrored.window.end.timeIntervalSince(mirrored.window.start) == 3 * 3600)
        let drawn = mirrored.event(.init(kind: .this, title: "A very long title that cannot fit in the column at all", range: event), time: "18:30–19:30")
        #expect(drawn.x == ConflictsTimeline.width - ConflictsTimeline.columnStarts.event - ConflictsTimeline.columnWidth)
        #expect(drawn.textX == drawn.x + drawn.width - 6 && drawn.label?.hasSuffix("…") == true && drawn.time == "18:30–19:30")
        let busy = timeline.busy([.init(kind: .event, title: "Dinner", range: dinner), .init(kind: .prayer, title: "Maghrib", range: try TimeRange(start: at(18.2), end: at(18.6)))]) { _ in "" }
        #expect(busy.count == 2 && busy[0].width == busy[1].width && busy[0].x != busy[1].x, "overlapping neighbours side by side")
    }
}
