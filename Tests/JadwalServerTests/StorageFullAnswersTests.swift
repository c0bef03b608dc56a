import Foundation
import HTTPTypes
import HummingbirdTesting
import JadwalCore
import JadwalTestSupport
@testable import Storage
import SQLKit
import Testing

/// A database whose disk is full (issue 22, "Faults") is answered 507 at every front door with
/// words a person can act on, never a 500; writes work again once there is room. SQLite's page
/// limit stands in for the disk (`scripts/faults/disk_full.py` fills a real filesystem).
@Suite("A full disk at the front doors")
struct StorageFullAnswersTests {
    /// Sets SQLite's page limit on the writer's connection: `pages` nil is as many as it has now.
    static func limitPages(_ store: any Store, to pages: Int?) async throws {
        try await store.transaction { tx in
            guard let repository = tx as? SQLRepository else { throw TestSetupError("not an SQL store") }
            let now = try await repository.db.raw("PRAGMA page_count").first()?.decode(column: "page_count", as: Int.self) ?? 0
            try await repository.db.raw("PRAGMA max_page_count = \(unsafeRaw: String(pages ?? now))").run()
        }
    }

    @Test("CalDAV, the API and the web app answer 507 saying the disk is full; nothing is kept; writes resume with room")
    func answers() async throws {
        try await ServerHarness.run(configure: { $0.workers = 0 }) { harness, client in
            let user = try await DAVUser.make("fulldisk@example.com", harness: harness, client: client)
            let calendar = user.calendar("personal")
            var browser = TestBrowser()
            try await browser.signIn("fulldisk@example.com", client: client, harness: harness)
            let form = try await browser.get(client, "/events/new?date=2026-09-22")
            let csrf = try #require(TestBrowser.csrf(in: form))
            let tokens = try await client.signIn("fulldisk@example.com", harness: harness)
            let long = String(repeating: "Agenda. ", count: 1000)

            try await Self.limitPages(harness.instance.store, to: nil)
            let dav = try await client.putICS(calendar + "big.ics", as: user, ICS.event(uid: "big", summary: "Big", extra: ["DESCRIPTION:\(long)"]))
            #expect(dav.status.code == 507 && dav.text.contains("run out of disk space"), "\(dav.status) \(dav.text)")
            #expect(try await client.dav(.get, calendar + "big.ics", as: user).status == .notFound, "nothing was kept")

            let personal = try #require(try await client.send(.get, "/api/v1/calendars", token: tokens.accessToken).json(QuotaTests.Calendars.self)
                .calendars.first { $0.slug == "personal" })
            let api = try await client.send(.post, "/api/v1/calendars/\(personal.id)/events",
                                            json: #"{"title": "Lunch", "start": "2026-11-23T13:00", "description": "\#(long)"}"#, token: tokens.accessToken)
            #expect(api.status.code == 507 && api.errorCode == "server_storage_full" && api.text.contains("nothing was saved"), "\(api.status) \(api.text)")

            let web = try await browser.post(client, "/events/new", [
                ("title", "Dinner"), ("startDate", "2026-09-22"), ("startTime", "20:00"), ("endDate", "2026-09-22"), ("endTime", "21:00"),
                ("notes", long),
            ], csrf: csrf)
            #expect(web.status.code == 507 && web.headers[.contentType]?.hasPrefix("text/html") == true, "\(web.status)")
            #expect(web.text.contains("The server has run out of disk space, so nothing was saved."), "\(web.text)")

            try await Self.limitPages(harness.instance.store, to: 1_000_000)
            #expect(try await client.putICS(calendar + "big.ics", as: user, ICS.event(uid: "big", summary: "Big", extra: ["DESCRIPTION:\(long)"])).status == .created)
        }
    }
}
