import Foundation
import HTTPTypes
import HummingbirdTesting
import JadwalCore
@testable import JadwalServer
@testable import JadwalHTTP
@testable import JadwalAPI
@testable import JadwalCalDAV
@testable import JadwalJobs
import JadwalTestSupport
import NIOCore
import NIOPosix
import NIOSSL
import Testing

/// ICS feeds a person subscribes to, fetched over real HTTP from a host on loopback: the
/// events reach the API, a phone's sync and the conflict check; refreshes write only what
/// changed; failures are shown and told; addresses the server must not reach are refused.
@Suite("Subscribed ICS feeds")
struct FeedSubscriptionTests {
    struct Subscription: Decodable {
        struct Calendar: Decodable { let id: String; let slug: String; let name: String; let color: String?; let timeZone: String? }
        struct Status: Decodable {
            struct Problem: Decodable { let line: Int; let component: String; let reason: String; let skipped: Bool }
            let state: String
            let lastError: String?
            let failures: Int
            let objects: Int
            let problemCount: Int
            let problems: [Problem]
        }
        let id: String
        let url: String
        let calendar: Calendar
        let busy: Bool
        let effectiveRefreshMinutes: Int
        let status: Status
    }

    /// A university timetable as published feeds look: its own VTIMEZONE under an Outlook name,
    /// LF line ends, a weekly lecture with a moved instance, one event with no DTSTAMP, one broken
    /// event, and a name and colour. Monday 21 September 2026 is the harness's today.
    static func timetable(lectureHour: Int = 20, withSeminar: Bool = true, extraTalk: Bool = false) -> String {
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//University//Timetable//EN", "X-WR-CALNAME:KSU Timetable", "COLOR:teal",
            "X-PUBLISHED-TTL:PT6H",
            "BEGIN:VTIMEZONE", "TZID:Arab Standard Time", "BEGIN:STANDARD", "DTSTART:16010101T000000", "TZOFFSETFROM:+0300", "TZOFFSETTO:+0300",
            "END:STANDARD", "END:VTIMEZONE",
            "BEGIN:VEVENT", "UID:lecture-ai@ksu.edu.sa", "DTSTAMP:20260901T000000Z", "SUMMARY:Artificial Intelligence lecture",
            "DTSTART;TZID=Arab Standard Time:20260922T\(lectureHour)0000", "DTEND;TZID=Arab Standard Time:20260922T\(lectureHour + 1)3000",
            "RRULE:FREQ=WEEKLY;COUNT=10", "LOCATION:Building 31", "END:VEVENT",
            "BEGIN:VEVENT", "UID:lecture-ai@ksu.edu.sa", "DTSTAMP:20260901T000000Z", "RECURRENCE-ID;TZID=Arab Standard Time:20260929T\(lectureHour)0000",
            "SUMMARY:Artificial Intelligence lecture (room change)", "DTSTART;TZID=Arab Standard Time:20260929T\(lectureHour)0000",
            "DTEND;TZID=Arab Standard Time:20260929T\(lectureHour + 1)3000", "LOCATION:Building 6", "END:VEVENT",
            "BEGIN:VEVENT", "UID:broken@ksu.edu.sa", "DTSTAMP:20260901T000000Z", "SUMMARY:Broken", "DTSTART:2026-09-23 10:00", "END:VEVENT",
        ]
        if withSeminar {
            lines += ["BEGIN:VEVENT", "UID:seminar@ksu.edu.sa", "SUMMARY:Research seminar", "DTSTART:20260924T090000Z", "DTEND:20260924T100000Z", "END:VEVENT"]
        }
        if extraTalk {
            lines += ["BEGIN:VEVENT", "UID:talk@ksu.edu.sa", "DTSTAMP:20260901T000000Z", "SUMMARY:Guest talk", "DTSTART:20260925T090000Z",
                      "DTEND:20260925T100000Z", "END:VEVENT"]
        }
        lines.append("END:VCALENDAR")
        return lines.joined(separator: "\n") + "\n"
    }

    static func subscribe(_ client: some TestClientProtocol, _ body: String, token: String) async throws -> TestResponse {
        try await client.send(.post, "/api/v1/external-calendars", json: body, token: token)
    }

    static func status(_ client: some TestClientProtocol, _ id: String, token: String) async throws -> Subscription {
        let response = try await client.send(.get, "/api/v1/external-calendars/\(id)", token: token)
        try #require(response.status == .ok, "\(response.text)")
        return try response.json(Subscription.self)
    }

    /// Runs the refresh (and the checks it queues) now: queued refreshes wait for their time.
    static func refresh(_ harness: ServerHarness, _ client: some TestClientProtocol, _ id: String, token: String) async throws {
        let asked = try await client.send(.post, "/api/v1/external-calendars/\(id)/refresh", token: token)
        try #require(asked.status == .accepted, "\(asked.text)")
        try await ConflictAPITests.runJobs(harness)
    }

    @Test("a feed becomes a read-only calendar; refreshes write only what changed; phones and the API see it", arguments: TestEnvironment.engines)
    func subscribeAndRefresh(engine: TestEngine) async throws {
        try await FeedServer.run { feeds in
            try await ServerHarness.run(engine: engine, configure: { $0.workers = 0; $0.allowPrivateFetch = true }) { harness, client in
                let (user, token) = try await ChatAPITests.omar(harness, client)
                await feeds.host.set("timetable.ics", .calendar(Self.timetable()))
                let created = try await Self.subscribe(client, #"{"kind": "ics", "url": "\#(feeds.url("timetable.ics"))"}"#, token: token)
                #expect(created.status == .created, "\(created.text)")
                let pending = try created.json(Subscription.self)
                #expect(pending.status.state == "pending" && pending.busy)
                try await ConflictAPITests.runJobs(harness)

                // Taken leniently: the broken event is skipped and said, the one without DTSTAMP kept.
                let first = try await Self.status(client, pending.id, token: token)
                #expect(first.status.state == "ok" && first.status.objects == 2, "\(first)")
                #expect(first.status.problems.contains { $0.component.contains("broken@ksu.edu.sa") && $0.skipped }, "\(first.status.problems)")
                #expect(first.calendar.name == "KSU Timetable" && first.calendar.color == "#008080")
                #expect(first.effectiveRefreshMinutes == 360, "X-PUBLISHED-TTL is respected")

                // Phones see it through the one Jadwal account, read-only.
                let calendar = user.calendar(first.calendar.slug)
                let synced = try ParsedMultistatus(try await client.dav(.report, calendar, as: user, body: CalDAVSyncTests.sync(nil)))
                #expect(synced.hrefs.count == 2)
                let token1 = try #require(synced.syncToken)
                let lecture = try #require(synced.hrefs.first)
                let body = try await client.dav(.get, lecture, as: user).text
                let refused = try await client.putICS(calendar + "mine.ics", as: user, ICS.event(uid: "mine", summary: "Mine", start: "20260922T100000", duration: "PT1H"))
                #expect(refused.status == .forbidden && refused.text.contains("need-privileges"), "\(refused.text)")
                #expect(try await client.dav(.delete, lecture, as: user).status == .forbidden)
                #expect(try await client.send(.delete, "/api/v1/calendars/\(first.calendar.id)/objects/\(lecture.split(separator: "/").last ?? "")", token: token)
                    .errorCode == "read_only")
                #expect(!body.isEmpty)

                // The lecture is in the person's week, with its moved instance.
                let week = try await client.send(.get, "/api/v1/events?start=2026-09-21&end=2026-10-03", token: token).text
                #expect(week.contains("Artificial Intelligence lecture") && week.contains("room change") && week.contains("Research seminar"), "\(week)")

                // Unchanged: the server answers 304 to the ETag; the calendar does not move.
                try await Self.refresh(harness, client, first.id, token: token)
                #expect(await feeds.host.requests.last?.ifNoneMatch != nil)
                let quiet = try ParsedMultistatus(try await client.dav(.report, calendar, as: user, body: CalDAVSyncTests.sync(token1)))
                #expect(quiet.entries.isEmpty && quiet.syncToken == token1)

                // The same body again from a server without validators: a hash, no writes.
                await feeds.host.set("timetable.ics", .calendar(Self.timetable(), etag: false))
                try await Self.refresh(harness, client, first.id, token: token)
                try await Self.refresh(harness, client, first.id, token: token)
                let still = try ParsedMultistatus(try await client.dav(.report, calendar, as: user, body: CalDAVSyncTests.sync(token1)))
                #expect(still.entries.isEmpty, "\(still.hrefs)")

                // A real change: the lecture moves, the seminar goes, a talk comes. Exactly those sync.
                await feeds.host.set("timetable.ics", .calendar(Self.timetable(lectureHour: 18, withSeminar: false, extraTalk: true)))
                try await Self.refresh(harness, client, first.id, token: token)
                let changed = try ParsedMultistatus(try await client.dav(.report, calendar, as: user, body: CalDAVSyncTests.sync(token1)))
                #expect(changed.hrefs.count == 3, "\(changed.hrefs)")
                #expect(changed.entries.filter { $0.status == 404 }.count == 1)
                #expect(try await Self.status(client, first.id, token: token).status.objects == 2)

                // The person names it; later refreshes keep their name.
                let renamed = try await client.send(.patch, "/api/v1/external-calendars/\(first.id)", json: #"{"name": "Lectures", "refreshMinutes": 30}"#, token: token)
                #expect(renamed.status == .ok, "\(renamed.text)")
                await feeds.host.set("timetable.ics", .calendar(Self.timetable(lectureHour: 17)))
                try await Self.refresh(harness, client, first.id, token: token)
                let after = try await Self.status(client, first.id, token: token)
                #expect(after.calendar.name == "Lectures" && after.effectiveRefreshMinutes == 30)

                // Removing it removes its calendar.
                #expect(try await client.send(.delete, "/api/v1/external-calendars/\(first.id)", token: token).status == .noContent)
                #expect(try await client.send(.get, "/api/v1/external-calendars/\(first.id)", token: token).status == .notFound)
                #expect(try await client.dav(.propfind, calendar, as: user, depth: "0").status == .notFound)
            }
        }
    }

    @Test("a dinner on top of a lecture from a feed is a conflict of the dinner's, whichever came first; a free feed clashes with nothing",
          arguments: TestEnvironment.engines)
    func feedEventsMeetConflicts(engine: TestEngine) async throws {
        try await FeedServer.run { feeds in
            try await ServerHarness.run(engine: engine, configure: { $0.workers = 0; $0.allowPrivateFetch = true }) { harness, client in
                let (user, token) = try await ChatAPITests.omar(harness, client)
                // The dinner is there first; the feed brings a lecture on top of it.
                let dinner = ICS.event(uid: "dinner", summary: "Dinner with Sara", start: "20260922T200000", duration: "PT2H")
                #expect(try await client.putICS(user.calendar("personal") + "dinner.ics", as: user, dinner).status == .created)
                try await ConflictAPITests.runJobs(harness)
                harness.clock.advance(by: 60)
                await feeds.host.set("timetable.ics", .calendar(Self.timetable()))
                let created = try await Self.subscribe(client, #"{"url": "\#(feeds.url("timetable.ics"))"}"#, token: token).json(Subscription.self)
                try await ConflictAPITests.runJobs(harness)
                var conflicts = try await ConflictAPITests.conflicts(client, token: token)
                #expect(conflicts.count == 1, "\(conflicts)")
                #expect(conflicts.first?.event.title == "Dinner with Sara" && conflicts.first?.overlaps.first?.title == "Artificial Intelligence lecture")
                #expect(conflicts.first?.source == "feed" && conflicts.first?.notify == true)

                // A plan made after the feed: its own check finds the lecture (never the lecture's conflict).
                harness.clock.advance(by: 60)
                let coffee = ICS.event(uid: "coffee", summary: "Coffee", start: "20260929T203000", duration: "PT1H")
                #expect(try await client.putICS(user.calendar("personal") + "coffee.ics", as: user, coffee).status == .created)
                try await ConflictAPITests.runJobs(harness)
                conflicts = try await ConflictAPITests.conflicts(client, token: token)
                #expect(Set(conflicts.map(\.event.title)) == ["Dinner with Sara", "Coffee"], "\(conflicts.map(\.event.title))")
                #expect(conflicts.allSatisfy { $0.event.name == "dinner.ics" || $0.event.name == "coffee.ics" })

                // Suggestions for the dinner avoid the lectures too.
                let dinnerConflict = try #require(conflicts.first { $0.event.name == "dinner.ics" })
                let suggestions = try await client.send(.get, "/api/v1/conflicts/\(dinnerConflict.id)/suggestions?count=3", token: token)
                #expect(suggestions.status == .ok, "\(suggestions.text)")

                // Set free (a holidays feed would be): the clashes retire.
                let free = try await client.send(.patch, "/api/v1/external-calendars/\(created.id)", json: #"{"busy": false}"#, token: token)
                #expect(free.status == .ok, "\(free.text)")
                #expect(try free.json(Subscription.self).busy == false)
                try await ConflictAPITests.runJobs(harness)
                #expect(try await ConflictAPITests.conflicts(client, token: token).isEmpty)
            }
        }
    }

    @Test("failures are shown on the feed, told once after three, and cleared when it recovers; redirects are followed; bad bodies named",
          arguments: [TestEngine.sqlite])
    func failuresAndRecovery(engine: TestEngine) async throws {
        try await FeedServer.run { feeds in
            try await ServerHarness.run(engine: engine, configure: { $0.workers = 0; $0.allowPrivateFetch = true }) { harness, client in
                let (_, token) = try await ChatAPITests.omar(harness, client)
                await feeds.host.set("moved.ics", .redirect(feeds.url("timetable.ics")))
                await feeds.host.set("timetable.ics", .calendar(Self.timetable()))
                let created = try await Self.subscribe(client, #"{"url": "\#(feeds.url("moved.ics").replacingOccurrences(of: "http://", with: "webcal://"))"}"#, token: token)
                #expect(created.status == .created, "\(created.text)")
                let id = try created.json(Subscription.self).id
                #expect(try created.json(Subscription.self).url.hasPrefix("https://"), "webcal:// is read as https://")
                // The webcal address was read as https, which this host does not speak: a failure
                // named on the feed. Point it at http.
                try await ConflictAPITests.runJobs(harness)
                #expect(try await Self.status(client, id, token: token).status.state == "failing")
                let patched = try await client.send(.patch, "/api/v1/external-calendars/\(id)", json: #"{"url": "\#(feeds.url("moved.ics"))"}"#, token: token)
                #expect(patched.status == .ok, "\(patched.text)")
                try await ConflictAPITests.runJobs(harness)
                let redirected = try await Self.status(client, id, token: token)
                #expect(redirected.status.state == "ok" && redirected.status.objects == 2, "the redirect is followed: \(redirected)")

                // Three failures in a row: the error is on the feed and the person is told once.
                await feeds.host.set("timetable.ics", .html)
                try await Self.refresh(harness, client, id, token: token)
                let html = try await Self.status(client, id, token: token)
                #expect(html.status.state == "failing" && html.status.lastError?.contains("web page") == true, "\(html.status)")
                await feeds.host.set("timetable.ics", .status(500))
                try await Self.refresh(harness, client, id, token: token)
                await feeds.host.set("timetable.ics", .oversized(21 << 20))
                try await Self.refresh(harness, client, id, token: token)
                let big = try await Self.status(client, id, token: token)
                #expect(big.status.failures == 3 && big.status.lastError?.contains("larger than 20 MiB") == true, "\(big.status)")
                await feeds.host.set("timetable.ics", .status(410))
                try await Self.refresh(harness, client, id, token: token)
                #expect(try await Self.status(client, id, token: token).status.lastError?.contains("410") == true)
                let told = try await NotificationAPITests.feed(client, token: token).notifications.filter { $0.kind == "feed-failed" }
                #expect(told.count == 1, "\(told.map(\.title))")
                // Nothing was half-applied: the last good events are still there.
                #expect(try await Self.status(client, id, token: token).status.objects == 2)

                // It recovers by itself, and the error clears.
                await feeds.host.set("timetable.ics", .calendar(Self.timetable(extraTalk: true)))
                try await Self.refresh(harness, client, id, token: token)
                let recovered = try await Self.status(client, id, token: token)
                #expect(recovered.status.state == "ok" && recovered.status.lastError == nil && recovered.status.objects == 3, "\(recovered.status)")
            }
        }
    }

    /// A course site's calendar feed as Canvas publishes it: assignments as events at their due time.
    static func canvas(essayDue: String = "20261001T205900Z") -> String {
        [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Instructure//Canvas//EN", "X-WR-CALNAME:Canvas: CS 101",
            "BEGIN:VEVENT", "UID:event-assignment-101", "DTSTAMP:20260920T000000Z", "DTSTART:\(essayDue)", "DTEND:\(essayDue)",
            "SUMMARY:Essay 1 [CS 101]", "URL;VALUE=URI:https://canvas.example.edu/courses/1/assignments/101", "END:VEVENT",
            "BEGIN:VEVENT", "UID:event-assignment-102", "DTSTAMP:20260920T000000Z", "DTSTART;VALUE=DATE:20261008", "DTEND;VALUE=DATE:20261008",
            "SUMMARY:Quiz 2 [CS 101]", "END:VEVENT", "END:VCALENDAR",
        ].joined(separator: "\r\n") + "\r\n"
    }

    @Test("a course feed taken as to-dos: due dates follow the feed, and a to-do marked done stays done", arguments: TestEnvironment.engines)
    func courseFeedAsTasks(engine: TestEngine) async throws {
        try await FeedServer.run { feeds in
            try await ServerHarness.run(engine: engine, configure: { $0.workers = 0; $0.allowPrivateFetch = true }) { harness, client in
                let (user, token) = try await ChatAPITests.omar(harness, client)
                await feeds.host.set("canvas.ics", .calendar(Self.canvas()))
                let created = try await Self.subscribe(client, #"{"url": "\#(feeds.url("canvas.ics"))", "asTasks": true}"#, token: token)
                #expect(created.status == .created, "\(created.text)")
                let subscription = try created.json(Subscription.self)
                try await ConflictAPITests.runJobs(harness)
                let calendar = user.calendar(subscription.calendar.slug)
                let listed = try ParsedMultistatus(try await client.dav(.report, calendar, as: user, body: CalDAVSyncTests.sync(nil)))
                #expect(listed.hrefs.count == 2)
                let essayHref = try #require(listed.hrefs.first { href in href.hasSuffix(CalendarSubscriptions.objectName(forUID: "event-assignment-101")) })
                let essay = try await client.dav(.get, essayHref, as: user).text
                #expect(essay.contains("BEGIN:VTODO") && essay.contains("DUE:20261001T205900Z") && !essay.contains("BEGIN:VEVENT"), "\(essay)")

                // Marked done on the phone: the same to-do with STATUS and COMPLETED. Anything more is refused.
                let done = essay.replacingOccurrences(of: "END:VTODO", with: "STATUS:COMPLETED\r\nCOMPLETED:20260925T120000Z\r\nEND:VTODO")
                #expect(try await client.putICS(essayHref, as: user, done).status == .noContent)
                let renamed = done.replacingOccurrences(of: "SUMMARY:Essay 1", with: "SUMMARY:My essay")
                #expect(try await client.putICS(essayHref, as: user, renamed).status == .forbidden)

                // The course moves the due date: it moves here, and the to-do stays done.
                await feeds.host.set("canvas.ics", .calendar(Self.canvas(essayDue: "20261003T205900Z")))
                try await Self.refresh(harness, client, subscription.id, token: token)
                let moved = try await client.dav(.get, essayHref, as: user).text
                #expect(moved.contains("DUE:20261003T205900Z") && moved.contains("STATUS:COMPLETED"), "\(moved)")
                // An unchanged feed leaves the done to-do as it is.
                let token1 = try #require(try ParsedMultistatus(try await client.dav(.report, calendar, as: user, body: CalDAVSyncTests.sync(nil))).syncToken)
                await feeds.host.set("canvas.ics", .calendar(Self.canvas(essayDue: "20261003T205900Z"), etag: false))
                try await Self.refresh(harness, client, subscription.id, token: token)
                await feeds.host.set("canvas.ics", .calendar(Self.canvas(essayDue: "20261003T205900Z") + "\r\n", etag: false))
                try await Self.refresh(harness, client, subscription.id, token: token)
                #expect(try ParsedMultistatus(try await client.dav(.report, calendar, as: user, body: CalDAVSyncTests.sync(token1))).entries.isEmpty)
            }
        }
    }

    @Test("a server that may not fetch from its own network refuses loopback and private addresses, and a redirect to one",
          arguments: [TestEngine.sqlite])
    func privateAddressesRefused(engine: TestEngine) async throws {
        try await FeedServer.run { feeds in
            // Only the feed host's own address is allowed (the operator's CIDR list); the rest of
            // loopback and every private range stay closed.
            try await ServerHarness.run(engine: engine, configure: { $0.workers = 0; $0.fetchAllowList = ["127.0.0.1/32"] }) { harness, client in
                let (_, token) = try await ChatAPITests.omar(harness, client)
                await feeds.host.set("timetable.ics", .calendar(Self.timetable()))
                for url in ["http://127.0.0.2:\(feeds.port)/feeds/timetable.ics", "http://10.1.2.3/cal.ics", "http://192.168.1.1/cal.ics",
                            "http://169.254.169.254/latest/meta-data", "http://100.64.0.1/cal.ics", "http://[::1]:\(feeds.port)/feeds/timetable.ics",
                            "http://[fd00::1]/cal.ics", "http://[::ffff:10.0.0.1]/x.ics", "webcal://0.0.0.0/x.ics"] {
                    let refused = try await Self.subscribe(client, #"{"url": "\#(url)"}"#, token: token)
                    #expect(refused.status == .unprocessableContent && refused.errorCode == "address_not_allowed", "\(url): \(refused.text)")
                    #expect(refused.text.contains("--allow-private-fetch"), "the refusal names the rule: \(refused.text)")
                }
                for (body, field) in [(#"{"url": "file:///etc/passwd"}"#, "url"), (#"{"url": "ftp://example.com/cal.ics"}"#, "url"),
                                      (#"{"url": ""}"#, "url"), (#"{"url": "https://example.com/c.ics", "refreshMinutes": 1}"#, "refreshMinutes"),
                                      (#"{"url": "https://user:secret@example.com/c.ics"}"#, "url")] {
                    let refused = try await Self.subscribe(client, body, token: token)
                    #expect(refused.status == .badRequest && refused.text.contains(field), "\(body): \(refused.text)")
                }
                #expect(await feeds.host.requests.isEmpty, "nothing was fetched")

                // The allowed host redirects to a closed address: the redirect is checked like the first hop.
                await feeds.host.set("moved.ics", .redirect("http://127.0.0.2:\(feeds.port)/feeds/timetable.ics"))
                let created = try await Self.subscribe(client, #"{"url": "\#(feeds.url("moved.ics"))"}"#, token: token)
                #expect(created.status == .created, "\(created.text)")
                try await ConflictAPITests.runJobs(harness)
                let status = try await Self.status(client, try created.json(Subscription.self).id, token: token)
                #expect(status.status.state == "failing" && status.status.lastError?.contains("private or local address") == true, "\(status.status)")
                #expect(await feeds.host.requests.map(\.path) == ["moved.ics"])
            }
        }
    }

    @Test("the server's own public address is never fetched, by its name or by another name for the same address, even where private fetches are allowed")
    func ownAddressRefused() async throws {
        try await FeedServer.run { feeds in
            // The feed host stands in for the server's public address.
            try await ServerHarness.run(configure: { $0.workers = 0; $0.allowPrivateFetch = true; $0.publicURL = "http://localhost:\(feeds.port)" }) { harness, client in
                let (_, token) = try await ChatAPITests.omar(harness, client)
                await feeds.host.set("timetable.ics", .calendar(Self.timetable()))
                for url in ["http://localhost:\(feeds.port)/feeds/timetable.ics", "http://127.0.0.1:\(feeds.port)/feeds/timetable.ics"] {
                    let refused = try await Self.subscribe(client, #"{"url": "\#(url)"}"#, token: token)
                    #expect(refused.status == .unprocessableContent && refused.errorCode == "address_not_allowed", "\(url): \(refused.text)")
                    #expect(refused.text.contains("own address"), "\(refused.text)")
                }
                #expect(await feeds.host.requests.isEmpty, "nothing was fetched")
            }
        }
    }

    /// Waits (real time, at most `seconds`) until `condition` holds; false if it never did.
    static func eventually(seconds: Double = 30, _ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return try await condition()
    }

    @Test("one person's slow feeds hold one job worker at most: another person's feed is fetched while theirs still wait for an answer")
    func slowFeedsDelayNobodyElse() async throws {
        try await FeedServer.run { feeds in
            try await ServerHarness.run(configure: { $0.workers = 2; $0.allowPrivateFetch = true }) { harness, client in
                await feeds.host.set("slow-1.ics", .held(Self.timetable()))
                await feeds.host.set("slow-2.ics", .held(Self.canvas()))
                await feeds.host.set("fast.ics", .calendar(Self.timetable(withSeminar: false)))
                let (_, omar) = try await ChatAPITests.omar(harness, client)
                let (_, sara) = try await ChatAPITests.omar(harness, client, email: "sara@example.com")
                // Omar's two feeds answer only when the test says; both are asked for at once.
                var slow: [String] = []
                for name in ["slow-1.ics", "slow-2.ics"] {
                    let created = try await Self.subscribe(client, #"{"url": "\#(feeds.url(name))"}"#, token: omar)
                    #expect(created.status == .created, "\(created.text)")
                    slow.append(try created.json(Subscription.self).id)
                }
                #expect(try await Self.eventually { await feeds.host.holding == 1 }, "one of Omar's feeds is being fetched")
                // Sara's feed, added after both of his: fetched while his are still held.
                let created = try await Self.subscribe(client, #"{"url": "\#(feeds.url("fast.ics"))"}"#, token: sara)
                let fast = try created.json(Subscription.self).id
                let fetched = try await Self.eventually { try await Self.status(client, fast, token: sara).status.state == "ok" }
                #expect(fetched, "Sara's feed is fetched while Omar's slow feed holds its answer")
                let holding = await feeds.host.holding
                let asked = await feeds.host.count("slow-1.ics") + feeds.host.count("slow-2.ics")
                #expect(holding == 1 && asked == 1, "Omar's second feed waits for his turn instead of a worker (\(holding) held, \(asked) asked)")
                // His feeds answer: the first is applied, the second is fetched on its next try (a few seconds later).
                await feeds.host.release()
                harness.clock.advance(by: ExternalFetchTurns.retryAfter + 1)
                for id in slow {
                    let done = try await Self.eventually { try await Self.status(client, id, token: omar).status.state == "ok" }
                    #expect(done, "Omar's feed \(id) is fetched once its turn comes")
                }
            }
        }
    }

    @Test("a feed whose server's certificate is not trusted fails with the certificate named, and nothing is applied")
    func certificateRefused() async throws {
        let certificate = try APNsTestCertificate()
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: [.certificate(certificate.certificate)], privateKey: .privateKey(certificate.privateKey))
        configuration.minimumTLSVersion = .tlsv12
        let context = try NIOSSLContext(configuration: configuration)
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context)) }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(listener.localAddress?.port)
        do {
            try await ServerHarness.run(configure: { $0.workers = 0; $0.allowPrivateFetch = true }) { harness, client in
                let (_, token) = try await ChatAPITests.omar(harness, client)
                let created = try await Self.subscribe(client, #"{"url": "https://127.0.0.1:\#(port)/calendar.ics"}"#, token: token)
                #expect(created.status == .created, "\(created.text)")
                let id = try created.json(Subscription.self).id
                try await ConflictAPITests.runJobs(harness)
                let status = try await Self.status(client, id, token: token).status
                #expect(status.state == "failing" && status.objects == 0, "\(status)")
                #expect(status.lastError?.contains("certificate of 127.0.0.1 was not accepted") == true, "\(status.lastError ?? "no error")")
            }
        } catch {
            try? await listener.close()
            throw error
        }
        try await listener.close()
    }

    @Test("a feed gone (404) for a week is paused, says so, and is not fetched again until the person asks")
    func goneForAWeekPauses() async throws {
        try await FeedServer.run { feeds in
            try await ServerHarness.run(configure: { $0.workers = 0; $0.allowPrivateFetch = true }) { harness, client in
                var (_, token) = try await ChatAPITests.omar(harness, client)
                await feeds.host.set("timetable.ics", .calendar(Self.timetable()))
                let created = try await Self.subscribe(client, #"{"url": "\#(feeds.url("timetable.ics"))"}"#, token: token)
                let id = try created.json(Subscription.self).id
                try await ConflictAPITests.runJobs(harness)
                #expect(try await Self.status(client, id, token: token).status.state == "ok")

                // The address goes away: failing, and still failing (not paused) after six days of retries.
                await feeds.host.set("timetable.ics", .status(404))
                try await Self.refresh(harness, client, id, token: token)
                for _ in 0..<6 {
                    harness.clock.advance(by: 86_400)
                    try await ConflictAPITests.runJobs(harness)
                }
                // Days later the access token has expired: sign in again to look.
                token = try await client.signIn("omar@example.com", harness: harness).accessToken
                let failing = try await Self.status(client, id, token: token)
                #expect(failing.status.state == "failing" && failing.status.lastError?.contains("404") == true, "\(failing.status)")
                // A week after the first 404: paused, with the last good events kept.
                harness.clock.advance(by: 86_400 + 3600)
                try await ConflictAPITests.runJobs(harness)
                token = try await client.signIn("omar@example.com", harness: harness).accessToken
                let paused = try await Self.status(client, id, token: token)
                #expect(paused.status.state == "paused" && paused.status.objects == 2, "\(paused.status)")
                let asked = await feeds.host.count("timetable.ics")
                harness.clock.advance(by: 7 * 86_400)
                try await ConflictAPITests.runJobs(harness)
                #expect(await feeds.host.count("timetable.ics") == asked, "a paused feed is not fetched")
                token = try await client.signIn("omar@example.com", harness: harness).accessToken
                // The person asks for a refresh: it resumes, and recovers once the address is back.
                await feeds.host.set("timetable.ics", .calendar(Self.timetable()))
                try await Self.refresh(harness, client, id, token: token)
                #expect(try await Self.status(client, id, token: token).status.state == "ok")
            }
        }
    }
}
