import Foundation
import HTTPTypes
import HummingbirdTesting
import JadwalCore
import JadwalTestSupport
import NIOCore
import Testing
import ZIPFoundation

@testable import JadwalServer
@testable import JadwalWeb

/// Settings → Calendars over real HTTP: the list with sources and counts, each form (CSRF
/// included), show/hide in the calendar views, deleting after the page that names what goes,
/// subscribing to a feed on loopback and looking after it, importing a file and downloading.
@Suite("Web app: Settings → Calendars")
struct WebCalendarsTests {
    static let path = "/settings/calendars"

    struct CalendarList: Decodable {
        struct Calendar: Decodable { let id: String; let slug: String; let displayName: String; let color: String? }
        let calendars: [Calendar]
    }

    static func calendars(_ client: any TestClientProtocol, token: String) async throws -> [CalendarList.Calendar] {
        let response = try await client.send(.get, "/api/v1/calendars", token: token)
        try #require(response.status == .ok, "\(response.text)")
        return try response.json(CalendarList.self).calendars
    }

    static func id(_ slug: String, _ client: any TestClientProtocol, token: String) async throws -> String {
        try #require(try await calendars(client, token: token).first { $0.slug == slug }).id.lowercased()
    }

    /// The page's calendar rows, in order, by the names in their headings.
    static func rowNames(_ page: TestResponse) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: #"<h3 id="calendar-[0-9a-f-]+-name"><bdi>([^<]*)</bdi></h3>"#) else { return [] }
        let text = page.text
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    /// The import form as a browser posts it: multipart, the token in the action URL.
    static func upload(
        _ browser: inout TestBrowser, _ client: any TestClientProtocol, file: String?, calendar: String, existing: String = "update", csrf: String?
    ) async throws -> TestResponse {
        let boundary = "----jadwalCalendarsTest51c2"
        var body = ""
        if let file {
            body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"google.ics\"\r\nContent-Type: text/calendar\r\n\r\n\(file)\r\n"
        }
        body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"calendar\"\r\n\r\n\(calendar)\r\n"
        body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"existing\"\r\n\r\n\(existing)\r\n--\(boundary)--\r\n"
        let response = try await client.execute(
            uri: path + "/import" + (csrf.map { "?_csrf=\($0)" } ?? ""), method: .post,
            headers: [.contentType: "multipart/form-data; boundary=\(boundary)", .cookie: browser.cookieHeader],
            body: ByteBuffer(string: body)) { $0 }
        browser.absorb(response)
        return response
    }

    @Test("the list shows each calendar with its source and counts; create, rename, recolour and reorder, with problems beside their fields",
          arguments: TestEnvironment.engines)
    func listAndEdit(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            var (browser, token) = try await WebWhatsAppTests.omar(harness, client, email: "calendars@example.com")
            let page = try await browser.get(client, Self.path)
            let csrf = try #require(TestBrowser.csrf(in: page))
            #expect(page.status == .ok, "\(page.text)")
            #expect(Self.rowNames(page) == ["Personal", "WhatsApp Events", "Tasks"], "\(Self.rowNames(page))")
            #expect(page.text.contains("Kept in Jadwal") && page.text.contains("events: 0") && page.text.contains("to-dos: 0"))
            #expect(!page.text.contains(#"aria-invalid="true""#), "no field is marked before anything was sent")
            #expect(page.text.contains(#"<input id="feed-url" name="url" type="url""#) && page.text.contains(#"enctype="multipart/form-data""#))
            // Linked from settings and from the calendar views.
            #expect(try await browser.get(client, "/settings").text.contains(#"href="/settings/calendars""#))
            #expect(try await browser.get(client, "/calendar").text.contains(#"href="/settings/calendars""#))

            // A form without this session's token is refused, and nothing is made.
            let forged = try await browser.post(client, Self.path, [("name", "Forged")])
            #expect(forged.status == .forbidden)

            let unnamed = try await browser.post(client, Self.path, [("name", "  "), ("color", "#336699")], csrf: csrf)
            #expect(unnamed.status == .unprocessableContent)
            #expect(unnamed.text.contains(#"id="new-name" name="name" value="  " maxlength="200" required dir="auto" aria-describedby="newName-error" aria-invalid="true""#))
            #expect(unnamed.text.contains("Give the calendar a name of 1 to 200 characters"))
            let created = try await browser.post(client, Self.path, [("name", "Family"), ("color", "#336699"), ("holds", "events")], csrf: csrf)
            #expect(created.status == .seeOther && created.headers[.location] == Self.path + "?done=created#calendars")
            harness.clock.advance(by: 60)
            // The same name again is another calendar (the slug is only in URLs).
            let twice = try await browser.post(client, Self.path, [("name", "Family"), ("color", "#993366"), ("holds", "todos")], csrf: csrf)
            #expect(twice.status == .seeOther)
            let listed = try await Self.calendars(client, token: token)
            #expect(Set(listed.filter { $0.displayName == "Family" }.map(\.color)) == ["#336699", "#993366"], "\(listed.map(\.displayName))")
            let family = try #require(listed.first { $0.displayName == "Family" && $0.color == "#336699" }).id.lowercased()
            #expect(try await browser.get(client, Self.path + "?done=created").text.contains("The calendar is made."))

            // Rename and recolour; a bad colour (a hand-made post) is answered beside its field in that row.
            let badColor = try await browser.post(client, "\(Self.path)/\(family)", [("name", "Family trips"), ("color", "#12345")], csrf: csrf)
            #expect(badColor.status == .unprocessableContent)
            #expect(badColor.text.contains(##"id="color-\##(family)" name="color" type="color" value="#12345" aria-describedby="color-\##(family)-error" aria-invalid="true""##))
            let renamed = try await browser.post(client, "\(Self.path)/\(family)", [("name", "Family trips"), ("color", "#0b6e4f")], csrf: csrf)
            #expect(renamed.status == .seeOther && renamed.headers[.location] == "\(Self.path)?done=saved#calendar-\(family)")
            let after = try await Self.calendars(client, token: token).first { $0.id.lowercased() == family }
            #expect(after?.displayName == "Family trips" && after?.color == "#0B6E4F")

            // Reorder: the new calendar moves up past Tasks; the first cannot move up.
            let up = try await browser.post(client, "\(Self.path)/\(family)/move", [("choice", "up")], csrf: csrf)
            #expect(up.status == .seeOther)
            let personal = try await Self.id("personal", client, token: token)
            #expect(try await browser.post(client, "\(Self.path)/\(personal)/move", [("choice", "up")], csrf: csrf).status == .seeOther)
            let ordered = try await browser.get(client, Self.path)
            #expect(Self.rowNames(ordered) == ["Personal", "WhatsApp Events", "Family trips", "Tasks", "Family"], "\(Self.rowNames(ordered))")
            #expect(try await Self.calendars(client, token: token).map(\.displayName) == ["Personal", "WhatsApp Events", "Family trips", "Tasks", "Family"],
                    "the API (and phones) see the same order")
            #expect(ordered.text.contains(#"aria-label="Move “Personal” up" disabled"#))

            // Another person's calendar is not found, exactly like one that never existed.
            var other = TestBrowser()
            try await other.signIn("someone-else@example.com", client: client, harness: harness)
            let otherCSRF = try #require(TestBrowser.csrf(in: try await other.get(client, Self.path)))
            #expect(try await other.post(client, "\(Self.path)/\(family)", [("name", "Mine now")], csrf: otherCSRF).status == .notFound)
            #expect(try await other.get(client, "\(Self.path)/\(family)/delete").status == .notFound)
            #expect(try await other.get(client, "\(Self.path)/\(family)/export").status == .notFound)
        }
    }

    @Test("a calendar hidden from the views leaves the week and month but not the API; deleting names what goes",
          arguments: TestEnvironment.engines)
    func hideAndDelete(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine, configure: { $0.workers = 0 }) { harness, client in
            var (browser, token) = try await WebWhatsAppTests.omar(harness, client, email: "hide@example.com")
            let csrf = try #require(TestBrowser.csrf(in: try await browser.get(client, Self.path)))
            let personal = try await Self.id("personal", client, token: token)
            let imported = try await Self.upload(&browser, client, file: CalendarTransferTests.googleExport(), calendar: personal, csrf: csrf)
            #expect(imported.status == .ok && imported.text.contains("Added: 2."), "\(imported.text)")
            try await ConflictAPITests.runJobs(harness)
            let counted = try await browser.get(client, Self.path)
            #expect(counted.text.contains("events: 2"))

            let week = "/calendar?view=week&date=2026-09-22"
            #expect(try await browser.get(client, week).text.contains("Standup"))
            let hidden = try await browser.post(client, "\(Self.path)/\(personal)/visibility", [("choice", "hide")], csrf: csrf)
            #expect(hidden.status == .seeOther && hidden.headers[.location] == "\(Self.path)?done=hidden#calendar-\(personal)")
            let listed = try await browser.get(client, Self.path + "?done=hidden")
            #expect(listed.text.contains("Hidden from the calendar views") && listed.text.contains(#"aria-label="Show in views: “Personal”""#))
            let hiddenWeek = try await browser.get(client, week).text
            #expect(!hiddenWeek.contains("Standup"), "hidden from the week")
            #expect(hiddenWeek.contains("Calendars hidden from these views: 1."), "the view says calendars are hidden")
            #expect(!(try await browser.get(client, "/calendar?view=month&date=2026-09-22").text.contains("Standup")), "and the month")
            let api = try await client.send(.get, "/api/v1/events?start=2026-09-21&end=2026-10-01", token: token).text
            #expect(api.contains("Standup"), "the API still lists every calendar")
            // Remembered for the person: another session sees it hidden too.
            var phone = TestBrowser()
            try await phone.signIn("hide@example.com", client: client, harness: harness)
            #expect(!(try await phone.get(client, week).text.contains("Standup")))
            #expect(try await browser.post(client, "\(Self.path)/\(personal)/visibility", [("choice", "show")], csrf: csrf).status == .seeOther)
            let shownWeek = try await browser.get(client, week).text
            #expect(shownWeek.contains("Standup") && !shownWeek.contains("hidden from these views"))
            #expect(try await browser.post(client, "\(Self.path)/\(personal)/visibility", [("choice", "maybe")], csrf: csrf).status == .badRequest)

            // Deleting asks first, naming what goes; then the calendar and its events are gone.
            let ask = try await browser.get(client, "\(Self.path)/\(personal)/delete")
            #expect(ask.status == .ok && ask.text.contains("Delete “Personal”?") && ask.text.contains("events: 2"), "\(ask.text)")
            #expect(ask.text.contains(#"action="/settings/calendars/\#(personal)/delete""#))
            let deleted = try await browser.post(client, "\(Self.path)/\(personal)/delete", [], csrf: csrf)
            #expect(deleted.status == .seeOther && deleted.headers[.location] == "\(Self.path)?done=deleted#calendars")
            #expect(!(try await Self.calendars(client, token: token).contains { $0.slug == "personal" }))
            #expect(!(try await client.send(.get, "/api/v1/events?start=2026-09-21&end=2026-10-01", token: token).text.contains("Standup")))
            #expect(try await browser.get(client, "\(Self.path)/\(personal)/delete").status == .notFound)
        }
    }

    @Test("import an .ics into a chosen calendar and see the report; bad files are answered beside the field; download one and all")
    func importAndDownload() async throws {
        try await ServerHarness.run(configure: { $0.workers = 0 }) { harness, client in
            var (browser, token) = try await WebWhatsAppTests.omar(harness, client, email: "import-web@example.com")
            let csrf = try #require(TestBrowser.csrf(in: try await browser.get(client, Self.path)))
            let personal = try await Self.id("personal", client, token: token)

            let first = try await Self.upload(&browser, client, file: CalendarTransferTests.googleExport(), calendar: personal, csrf: csrf)
            #expect(first.status == .ok)
            #expect(first.text.contains("Imported google.ics into “Personal”") && first.text.contains("In the file: 4. Added: 2. Updated: 0."), "\(first.text)")
            #expect(first.text.contains("Problems in the file:") && first.text.contains("broken@google.com"))
            let skipped = try await Self.upload(
                &browser, client, file: CalendarTransferTests.googleExport(standupSummary: "Daily"), calendar: personal, existing: "skip", csrf: csrf)
            #expect(skipped.text.contains("Unchanged: 1. Kept as they were: 1."), "\(skipped.text)")
            let updated = try await Self.upload(&browser, client, file: CalendarTransferTests.googleExport(standupSummary: "Daily"), calendar: personal, csrf: csrf)
            #expect(updated.text.contains("Updated: 1."))

            let page = "<html><body>Sign in</body></html>"
            let notCalendar = try await Self.upload(&browser, client, file: page, calendar: personal, csrf: csrf)
            #expect(notCalendar.status == .unprocessableContent && notCalendar.text.contains("That file is not a calendar Jadwal can read"))
            #expect(notCalendar.text.contains(#"aria-describedby="import-file-hint file-error" aria-invalid="true""#))
            let noFile = try await Self.upload(&browser, client, file: nil, calendar: personal, csrf: csrf)
            #expect(noFile.status == .badRequest && noFile.text.contains("Choose an .ics file to import."))
            let nowhere = try await Self.upload(&browser, client, file: CalendarTransferTests.googleExport(), calendar: UUID().uuidString, csrf: csrf)
            #expect(nowhere.status == .unprocessableContent && nowhere.text.contains("Choose one of your calendars"))
            #expect(try await Self.upload(&browser, client, file: CalendarTransferTests.googleExport(), calendar: personal, csrf: nil).status == .forbidden)

            let one = try await browser.get(client, "\(Self.path)/\(personal)/export")
            #expect(one.status == .ok && one.headers[.contentType] == "text/calendar; charset=utf-8")
            #expect(one.headers[.contentDisposition] == #"attachment; filename="personal.ics""#)
            #expect(one.text.contains("X-WR-CALNAME:Personal") && one.text.contains("SUMMARY:Daily") && one.text.contains("Saudi National Day"))
            let all = try await browser.get(client, "\(Self.path)/export")
            #expect(all.status == .ok && all.headers[.contentType] == "application/zip")
            let archive = try Archive(data: Data(buffer: all.body), accessMode: .read)
            #expect(Set(archive.map(\.path)) == ["personal.ics", "whatsapp-events.ics", "tasks.ics"])
            #expect(try await client.send(.get, "\(Self.path)/export").status == .seeOther, "signed out, it goes to sign-in")
        }
    }

    @Test("subscribe to a feed on loopback: its status, problems, refresh now, pause, free and remove; bad and private addresses beside the field")
    func subscriptions() async throws {
        try await FeedServer.run { feeds in
            try await ServerHarness.run(configure: { $0.workers = 0; $0.allowPrivateFetch = true }) { harness, client in
                var (browser, token) = try await WebWhatsAppTests.omar(harness, client, email: "feeds-web@example.com")
                let csrf = try #require(TestBrowser.csrf(in: try await browser.get(client, Self.path)))
                let bad = try await browser.post(client, Self.path + "/subscriptions", [("url", "ftp://example.com/cal.ics"), ("name", "")], csrf: csrf)
                #expect(bad.status == .unprocessableContent && bad.text.contains("only https://, http:// and webcal:// addresses"), "\(bad.text)")
                #expect(bad.text.contains(#"value="ftp://example.com/cal.ics" required dir="ltr""#) && bad.text.contains(#"aria-describedby="feed-url-hint url-error" aria-invalid="true""#))

                await feeds.host.set("timetable.ics", .calendar(FeedSubscriptionTests.timetable()))
                let added = try await browser.post(client, Self.path + "/subscriptions", [("url", feeds.url("timetable.ics")), ("name", "")], csrf: csrf)
                #expect(added.status == .seeOther)
                let location = try #require(added.headers[.location])
                #expect(location.hasPrefix(Self.path + "?done=subscribed#calendar-"))
                let calendarID = String(location.split(separator: "#calendar-").last ?? "")
                let pending = try await browser.get(client, location)
                #expect(pending.text.contains("Waiting for its first refresh") && pending.text.contains(feeds.url("timetable.ics")))
                try await ConflictAPITests.runJobs(harness)

                let fetched = try await browser.get(client, Self.path)
                #expect(fetched.text.contains("KSU Timetable") && fetched.text.contains("Up to date") && fetched.text.contains("Last refreshed"), "\(fetched.text)")
                #expect(fetched.text.contains("Problems in the feed: 1") && fetched.text.contains("broken@ksu.edu.sa"))
                #expect(fetched.text.contains("Subscribed feed:") && fetched.text.contains("events: 2"))
                // Read-only: it is not offered as a place to import into.
                #expect(!fetched.text.contains(#"<option value="\#(calendarID)""#))
                let intoFeed = try await Self.upload(&browser, client, file: CalendarTransferTests.googleExport(), calendar: calendarID, csrf: csrf)
                #expect(intoFeed.status == .unprocessableContent && intoFeed.text.contains("That calendar is filled by a subscription"), "a hand-made post is refused")
                let subscription = try #require(TestBrowser.first(#"action="/settings/calendars/subscriptions/([0-9a-f-]+)""#, in: fetched.text))
                let action = "\(Self.path)/subscriptions/\(subscription)"

                // Free: its events stop counting as busy (the API says so).
                #expect(try await browser.post(client, action, [("choice", "free")], csrf: csrf).headers[.location] == "\(Self.path)?done=free#calendar-\(calendarID)")
                #expect(try await FeedSubscriptionTests.status(client, subscription, token: token).busy == false)
                #expect(try await browser.get(client, Self.path).text.contains("Its events do not count as busy."))
                #expect(try await browser.post(client, action, [("choice", "busy")], csrf: csrf).status == .seeOther)
                #expect(try await FeedSubscriptionTests.status(client, subscription, token: token).busy)

                // A failing feed shows why; refresh now fetches again.
                await feeds.host.set("timetable.ics", .status(500))
                #expect(try await browser.post(client, action, [("choice", "refresh")], csrf: csrf).status == .seeOther)
                try await ConflictAPITests.runJobs(harness)
                let failing = try await browser.get(client, Self.path)
                #expect(failing.text.contains("Failing") && failing.text.contains("The last refresh failed:") && failing.text.contains("500"), "\(failing.text)")

                #expect(try await browser.post(client, action, [("choice", "pause")], csrf: csrf).status == .seeOther)
                let paused = try await browser.get(client, Self.path)
                #expect(paused.text.contains("state-paused") && paused.text.contains(#"aria-label="Resume “KSU Timetable”""#))
                #expect(try await FeedSubscriptionTests.status(client, subscription, token: token).status.state == "paused")
                await feeds.host.set("timetable.ics", .calendar(FeedSubscriptionTests.timetable()))
                #expect(try await browser.post(client, action, [("choice", "resume")], csrf: csrf).status == .seeOther)
                try await ConflictAPITests.runJobs(harness)
                #expect(try await FeedSubscriptionTests.status(client, subscription, token: token).status.state == "ok")

                // Renamed by the person: the feed's name no longer replaces it.
                #expect(try await browser.post(client, "\(Self.path)/\(calendarID)", [("name", "Lectures"), ("color", "#008080")], csrf: csrf).status == .seeOther)
                #expect(try await FeedSubscriptionTests.status(client, subscription, token: token).calendar.name == "Lectures")

                let ask = try await browser.get(client, "\(Self.path)/\(calendarID)/delete")
                #expect(ask.text.contains("Remove the subscription “Lectures”?") && ask.text.contains("events: 2"))
                #expect(try await browser.post(client, "\(Self.path)/\(calendarID)/delete", [], csrf: csrf).status == .seeOther)
                #expect(try await client.send(.get, "/api/v1/external-calendars/\(subscription)", token: token).status == .notFound)
                #expect(!(try await browser.get(client, Self.path).text.contains("Lectures")))
            }
        }
    }

    @Test("without private fetch allowed, a loopback feed is refused beside the field; Arabic speaks right to left")
    func refusedAndArabic() async throws {
        try await ServerHarness.run { harness, client in
            var (browser, token) = try await WebWhatsAppTests.omar(harness, client, email: "private-web@example.com")
            let csrf = try #require(TestBrowser.csrf(in: try await browser.get(client, Self.path)))
            let refused = try await browser.post(client, Self.path + "/subscriptions", [("url", "http://127.0.0.1:9/feed.ics"), ("name", "Mine")], csrf: csrf)
            #expect(refused.status == .unprocessableContent && refused.text.contains("Jadwal will not fetch from that address"), "\(refused.text)")
            #expect(refused.text.contains(#"id="feed-name" name="name" value="Mine""#), "what was typed is kept")
            #expect(!(try await client.send(.get, "/api/v1/external-calendars", token: token).text.contains("127.0.0.1")), "nothing subscribed")

            #expect(try await client.send(.patch, "/api/v1/me", json: #"{"language": "ar"}"#, token: token).status == .ok)
            let arabic = try await browser.get(client, Self.path)
            #expect(arabic.text.contains(#"<html lang="ar" dir="rtl">"#) && arabic.text.contains("<h1>التقاويم</h1>") && arabic.text.contains("الأحداث: 0"))
        }
    }

    @Test("sharing from the calendars page: a bad address is 422 beside its field; another person's calendar or share is not found; invitations answered; busy time", arguments: TestEnvironment.engines)
    func sharing(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            var (browser, token) = try await WebWhatsAppTests.omar(harness, client, email: "owner@example.com")
            let csrf = try #require(TestBrowser.csrf(in: try await browser.get(client, Self.path)))
            let personal = try #require(try await Self.calendars(client, token: token).first { $0.slug == "personal" }?.id).lowercased()

            let bad = try await browser.post(client, "\(Self.path)/\(personal)/shares", [("email", "nobody"), ("access", "read")], csrf: csrf)
            #expect(bad.status == .unprocessableContent && bad.text.contains("Enter the email address") && bad.text.contains(#"aria-invalid="true""#))
            let own = try await browser.post(client, "\(Self.path)/\(personal)/shares", [("email", "owner@example.com")], csrf: csrf)
            #expect(own.status == .unprocessableContent && own.text.contains("your own address"))
            let shared = try await browser.post(client, "\(Self.path)/\(personal)/shares", [("email", "friend@example.com"), ("access", "read-write")], csrf: csrf)
            #expect(shared.status == .seeOther)
            let listed = try await browser.get(client, Self.path)
            #expect(listed.text.contains("friend@example.com") && listed.text.contains("Can view and edit") && listed.text.contains("invited"))

            // The friend sees the invitation, a stranger can touch neither the calendar nor the share.
            var friend = TestBrowser()
            try await friend.signIn("friend@example.com", client: client, harness: harness)
            let friendPage = try await friend.get(client, Self.path)
            let friendCSRF = try #require(TestBrowser.csrf(in: friendPage))
            #expect(friendPage.text.contains("(owner@example.com)") && friendPage.text.contains("share-accept"))
            let shareID = try #require(friendPage.text.range(of: #"/settings/calendars/incoming/([0-9a-f-]{36})"#, options: .regularExpression)
                .map { String(friendPage.text[$0].suffix(36)) })
            var stranger = TestBrowser()
            try await stranger.signIn("stranger@example.com", client: client, harness: harness)
            let strangerCSRF = try #require(TestBrowser.csrf(in: try await stranger.get(client, Self.path)))
            #expect(try await stranger.post(client, "\(Self.path)/\(personal)/shares", [("email", "x@example.com")], csrf: strangerCSRF).status == .notFound)
            #expect(try await stranger.post(client, "\(Self.path)/incoming/\(shareID)", [("choice", "accept")], csrf: strangerCSRF).status == .notFound)
            #expect(try await stranger.post(client, "\(Self.path)/shares/\(shareID)", [("choice", "revoke")], csrf: strangerCSRF).status == .notFound)
            #expect(try await friend.post(client, "\(Self.path)/incoming/\(shareID)", [("choice", "maybe")], csrf: friendCSRF).status == .badRequest)
            #expect(try await friend.post(client, "\(Self.path)/incoming/\(shareID)", [("choice", "accept")], csrf: friendCSRF).status == .seeOther)
            #expect(try await friend.get(client, Self.path).text.contains("Leave"))
            // The owner's events show in the friend's views marked as someone else's calendar.
            let made = try await client.send(.post, "/api/v1/calendars/\(personal)/events", json: #"{"title": "Family dinner", "start": "2026-11-23T19:00", "timeZone": "Asia/Riyadh"}"#, token: token)
            #expect(made.status == .created, "\(made.text)")
            let week = try await friend.get(client, "/calendar?view=week&date=2026-11-23").text
            #expect(week.contains("Family dinner") && week.contains("(shared by "), "the chip says whose calendar it is")
            #expect(!(try await browser.get(client, "/calendar?view=week&date=2026-11-23").text.contains("(shared by ")), "the owner's own calendar is just theirs")

            // Busy time: a bad address named beside the list; then saved.
            let badList = try await browser.post(client, "\(Self.path)/busy-time", [("audience", "named"), ("allowed", "friend@example.com\r\nnope")], csrf: csrf)
            #expect(badList.status == .unprocessableContent && badList.text.contains("&quot;nope&quot; is not an email address"), "\(badList.text)")
            #expect(try await browser.post(client, "\(Self.path)/busy-time", [("audience", "named"), ("allowed", "friend@example.com\r\nFriend@example.com")], csrf: csrf).status == .seeOther)
            let saved = try await client.send(.get, "/api/v1/free-busy/sharing", token: token)
            #expect(saved.text == #"{"allow":["friend@example.com"]}"#, "\(saved.text)")
        }
    }
}

