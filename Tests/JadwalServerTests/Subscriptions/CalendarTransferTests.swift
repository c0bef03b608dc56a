import Foundation
import HTTPTypes
import HummingbirdTesting
import JadwalCore
@testable import JadwalServer
@testable import JadwalAPI
import JadwalTestSupport
import NIOCore
import Testing
import ZIPFoundation

/// `.ics` files in and out: an export of another calendar app imported over the API and with
/// `jadwal import-ics`, and every calendar exported as a zip.
@Suite("Importing and exporting .ics files", .serialized)
struct CalendarTransferTests {
    struct Report: Decodable {
        struct Problem: Decodable { let line: Int; let component: String; let reason: String; let skipped: Bool }
        let components: Int
        let created: Int
        let updated: Int
        let unchanged: Int
        let skippedExisting: Int
        let problemCount: Int
        let problems: [Problem]
    }

    /// A Google Calendar export as its "Export" button writes it: X-WR-* headers, a zone, a
    /// weekly event with a moved instance, an all-day event, one event whose DTSTART is broken.
    static func googleExport(standupSummary: String = "Standup") -> String {
        """
        BEGIN:VCALENDAR
        PRODID:-//Google Inc//Google Calendar 70.9054//EN
        VERSION:2.0
        CALSCALE:GREGORIAN
        METHOD:PUBLISH
        X-WR-CALNAME:omar@example.com
        X-WR-TIMEZONE:Asia/Riyadh
        BEGIN:VTIMEZONE
        TZID:Asia/Riyadh
        X-LIC-LOCATION:Asia/Riyadh
        BEGIN:STANDARD
        TZOFFSETFROM:+0300
        TZOFFSETTO:+0300
        TZNAME:+03
        DTSTART:19700101T000000
        END:STANDARD
        END:VTIMEZONE
        BEGIN:VEVENT
        DTSTART;TZID=Asia/Riyadh:20260922T090000
        DTEND;TZID=Asia/Riyadh:20260922T093000
        RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=6
        DTSTAMP:20260920T100000Z
        UID:4pq9d2c8@google.com
        SUMMARY:\(standupSummary)
        END:VEVENT
        BEGIN:VEVENT
        DTSTART;TZID=Asia/Riyadh:20260929T100000
        DTEND;TZID=Asia/Riyadh:20260929T103000
        DTSTAMP:20260920T100000Z
        UID:4pq9d2c8@google.com
        RECURRENCE-ID;TZID=Asia/Riyadh:20260929T090000
        SUMMARY:\(standupSummary) (late)
        END:VEVENT
        BEGIN:VEVENT
        DTSTART;VALUE=DATE:20260923
        DTEND;VALUE=DATE:20260924
        DTSTAMP:20260920T100000Z
        UID:national-day@google.com
        SUMMARY:Saudi National Day
        TRANSP:TRANSPARENT
        END:VEVENT
        BEGIN:VEVENT
        DTSTART;TZID=Asia/Riyadh:2026-09-24 20:00
        DTSTAMP:20260920T100000Z
        UID:broken@google.com
        SUMMARY:Broken
        END:VEVENT
        END:VCALENDAR

        """.replacingOccurrences(of: "\n", with: "\r\n")
    }

    static func importFile(_ client: some TestClientProtocol, calendarID: String, _ text: String, token: String, query: String = "",
                           contentType: String = "text/calendar") async throws -> TestResponse {
        try await client.execute(
            uri: "/api/v1/calendars/\(calendarID)/import\(query)", method: .post,
            headers: [.contentType: contentType, .authorization: "Bearer \(token)"], body: ByteBuffer(string: text)) { $0 }
    }

    struct CalendarList: Decodable { struct Calendar: Decodable { let id: String; let slug: String }; let calendars: [Calendar] }

    static func personalID(_ client: some TestClientProtocol, token: String) async throws -> String {
        let list = try await client.send(.get, "/api/v1/calendars", token: token).text
        let calendars = try JSONDecoder().decode(CalendarList.self, from: Data(list.utf8)).calendars
        return try #require(calendars.first { $0.slug == "personal" }).id
    }

    @Test("an export imports into a calendar, again changes nothing, updates or keeps what is there, meets conflicts, and exports back",
          arguments: TestEnvironment.engines)
    func importAndExport(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine, configure: { $0.workers = 0 }) { harness, client in
            let (user, token) = try await ChatAPITests.omar(harness, client)
            let personal = try await Self.personalID(client, token: token)
            // Something the standup will run into.
            let call = ICS.event(uid: "call", summary: "Call with Khalid", start: "20260922T091500", duration: "PT30M")
            #expect(try await client.putICS(user.calendar("personal") + "call.ics", as: user, call).status == .created)
            try await ConflictAPITests.runJobs(harness)
            harness.clock.advance(by: 60)

            let first = try await Self.importFile(client, calendarID: personal, Self.googleExport(), token: token)
            #expect(first.status == .ok, "\(first.text)")
            let report = try first.json(Report.self)
            #expect(report.components == 4 && report.created == 2 && report.updated == 0, "\(first.text)")
            #expect(report.problems.contains { $0.component.contains("broken@google.com") && $0.skipped }, "\(report.problems)")
            try await ConflictAPITests.runJobs(harness)
            let week = try await client.send(.get, "/api/v1/events?start=2026-09-21&end=2026-10-01", token: token).text
            #expect(week.contains("Standup (late)") && week.contains("Saudi National Day"), "\(week)")
            let conflicts = try await ConflictAPITests.conflicts(client, token: token)
            #expect(conflicts.map(\.event.title) == ["Standup"], "the imported standup is the newer event: \(conflicts.map(\.event.title))")

            // The same file again: nothing changes, so a phone's sync sees nothing.
            let synced = try ParsedMultistatus(try await client.dav(.report, user.calendar("personal"), as: user, body: CalDAVSyncTests.sync(nil)))
            let again = try await Self.importFile(client, calendarID: personal, Self.googleExport(), token: token).json(Report.self)
            #expect(again.unchanged == 2 && again.created == 0 && again.updated == 0)
            let quiet = try ParsedMultistatus(try await client.dav(.report, user.calendar("personal"), as: user, body: CalDAVSyncTests.sync(synced.syncToken)))
            #expect(quiet.entries.isEmpty)

            // A changed item is updated, or kept with existing=skip.
            let kept = try await Self.importFile(client, calendarID: personal, Self.googleExport(standupSummary: "Daily"), token: token, query: "?existing=skip")
                .json(Report.self)
            #expect(kept.skippedExisting == 1 && kept.unchanged == 1)
            let updated = try await Self.importFile(client, calendarID: personal, Self.googleExport(standupSummary: "Daily"), token: token).json(Report.self)
            #expect(updated.updated == 1 && updated.unchanged == 1)

            // Bad input: a clear 4xx each time, nothing written.
            let html = try await Self.importFile(client, calendarID: personal, "<html><body>Sign in</body></html>", token: token)
            #expect(html.status == .unprocessableContent && html.errorCode == "not_a_calendar" && html.text.contains("web page"), "\(html.text)")
            let json = try await Self.importFile(client, calendarID: personal, "{}", token: token, contentType: "application/json")
            #expect(json.status == .unsupportedMediaType, "\(json.text)")
            let wrongQuery = try await Self.importFile(client, calendarID: personal, Self.googleExport(), token: token, query: "?existing=merge")
            #expect(wrongQuery.status == .badRequest)
            #expect(try await Self.importFile(client, calendarID: UUID().uuidString, Self.googleExport(), token: token).status == .notFound)

            // Everything out as a zip of one .ics per calendar.
            let export = try await client.send(.get, "/api/v1/export", token: token)
            #expect(export.status == .ok && export.headers[.contentType] == "application/zip")
            let archive = try Archive(data: Data(buffer: export.body), accessMode: .read)
            let names = archive.map(\.path)
            #expect(names.contains("personal.ics"), "\(names)")
            var text = Data()
            if let entry = archive["personal.ics"] { _ = try archive.extract(entry) { text.append($0) } }
            let personalText = String(decoding: text, as: UTF8.self)
            #expect(personalText.contains("SUMMARY:Daily") && personalText.contains("SUMMARY:Call with Khalid") && personalText.contains("BEGIN:VTIMEZONE"))
        }
    }

    @Test("jadwal import-ics imports a file for an account and names the file and line of what it left out")
    func importCommand() async throws {
        let dir = try TestEnvironment.temporaryDirectory("jadwal-import-ics")
        let file = dir.appendingPathComponent("calendar.ics")
        try Data(Self.googleExport().utf8).write(to: file)
        let commands = ChatCommandTests()
        _ = try await commands.run(["user", "create", "omar@example.com", "--name", "Omar", "--time-zone", "Asia/Riyadh"], in: dir)
        let output = try await commands.run(["import-ics", file.path, "--user", "omar@example.com", "--calendar", "personal"], in: dir)
        #expect(output.contains("4 items in the file; 2 added") && output.contains("calendar.ics:") && output.contains("broken@google.com"), "\(output)")
        #expect(output.contains("(left out)"))
        let again = try await commands.run(["import-ics", file.path, "--user", "omar@example.com", "--calendar", "personal"], in: dir)
        #expect(again.contains("0 added, 0 updated, 2 unchanged"), "\(again)")
        let missing = try await commands.run(["import-ics", file.path, "--user", "omar@example.com", "--calendar", "work"], in: dir, expectSuccess: false)
        #expect(missing.contains("has no calendar 'work'"), "\(missing)")
        let unreadable = try await commands.run(["import-ics", dir.appendingPathComponent("nope.ics").path, "--user", "omar@example.com", "--calendar", "personal"],
                                                in: dir, expectSuccess: false)
        #expect(unreadable.contains("cannot read"), "\(unreadable)")
    }
}
