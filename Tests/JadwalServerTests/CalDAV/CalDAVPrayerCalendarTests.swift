import DAV
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
import NIOCore
import Testing

@Suite("The read-only Prayer Times calendar over CalDAV")
struct CalDAVPrayerCalendarTests {
    @Test("appears with prayer settings, is read-only, syncs by day and by settings revision")
    func prayerCalendar() async throws {
        // Saturday 21 November 2026, 08:00 in Riyadh.
        let clock = TestClock(Date(timeIntervalSince1970: 1_795_237_200))
        try await ServerHarness.run(clock: clock) { harness, client in
            let user = try await DAVUser.make("prayer@example.com", harness: harness, client: client)
            let calendar = user.calendar("prayer-times")
            #expect(try await client.propfind(calendar, as: user, ["d:displayname"]).status == .notFound, "no settings, no calendar")

            let tokens = try await client.signIn("prayer@example.com", harness: harness)
            #expect(try await client.send(.put, "/api/v1/prayer-settings", json: #"{"city": "Riyadh"}"#, token: tokens.accessToken).status == .ok)

            let home = try ParsedMultistatus(try await client.propfind(user.home, as: user, depth: "1", [
                "d:displayname", "d:current-user-privilege-set", "cs:getctag", "c:supported-calendar-component-set",
            ]))
            let entry = try #require(home[calendar])
            #expect(entry.text(.displayName) == "Prayer Times")
            let privileges = entry.value(.currentUserPrivilegeSet)?.elements.compactMap { $0.elements.first?.name } ?? []
            #expect(privileges.contains(.dav("read")) && !privileges.contains(.dav("write")))

            let listing = try ParsedMultistatus(try await client.propfind(calendar, as: user, depth: "1", ["d:getetag"]))
            let objects = listing.hrefs.filter { $0 != calendar }
            #expect(objects.count == 68 * 5, "a week back, two months ahead, five prayers a day")
            #expect(objects.contains(calendar + "2026-11-21-fajr.ics") && objects.contains(calendar + "2026-11-14-isha.ics"))
            let fajr = try await client.dav(.get, calendar + "2026-11-21-fajr.ics", as: user)
            #expect(fajr.status == .ok && fajr.text.contains("DTSTART;TZID=Asia/Riyadh:20261121T") && !fajr.text.contains("METHOD"))
            let again = try await client.dav(.get, calendar + "2026-11-21-fajr.ics", as: user)
            #expect(again.headers[.eTag] == fajr.headers[.eTag], "stable bytes, stable ETag")

            let put = try await client.putICS(calendar + "mine.ics", as: user, ICS.event(uid: "mine"))
            #expect(put.status == .forbidden && put.davCondition == .needPrivileges)
            #expect(try await client.dav(.delete, calendar + "2026-11-21-fajr.ics", as: user).status == .forbidden)
            #expect(try await client.dav(.delete, calendar, as: user).status == .forbidden)

            // A day's query returns its five prayers.
            let day = try ParsedMultistatus(try await client.dav(.report, calendar, as: user, body: CalDAVQueryTests.query(
                CalDAVQueryTests.eventsIn("20261120T210000Z", "20261121T210000Z")), depth: "1"))
            #expect(day.hrefs.sorted() == ["asr", "dhuhr", "fajr", "isha", "maghrib"].map { calendar + "2026-11-21-\($0).ics" })

            // Any period can be asked for, not only the synced window.
            let later = try ParsedMultistatus(try await client.dav(.report, calendar, as: user, body: CalDAVQueryTests.query(
                CalDAVQueryTests.eventsIn("20270531T210000Z", "20270601T210000Z")), depth: "1"))
            #expect(later.hrefs.sorted() == ["asr", "dhuhr", "fajr", "isha", "maghrib"].map { calendar + "2027-06-01-\($0).ics" })
            #expect(try await client.dav(.get, calendar + "2027-06-01-fajr.ics", as: user).status == .ok)
            #expect(try await client.dav(.get, calendar + "2027-06-01-lunch.ics", as: user).status == .notFound)
            #expect(try await client.dav(.get, calendar + "2199-06-01-fajr.ics", as: user).status == .notFound)

            let initial = try ParsedMultistatus(try await client.dav(.report, calendar, as: user, body: CalDAVSyncTests.sync(nil)))
            #expect(initial.entries.count == 68 * 5)
            let token = try #require(initial.syncToken)
            #expect(try ParsedMultistatus(try await client.dav(.report, calendar, as: user, body: CalDAVSyncTests.sync(token))).entries.isEmpty)

            // A day later the window has moved by one day.
            clock.advance(by: 86_400)
            let moved = try ParsedMultistatus(try await client.dav(.report, calendar, as: user, body: CalDAVSyncTests.sync(token)))
            #expect(moved.entries.filter { $0.status == 404 }.map(\.href).sorted() == ["asr", "dhuhr", "fajr", "isha", "maghrib"].map { calendar + "2026-11-14-\($0).ics" })
            #expect(moved.entries.filter { $0.status == nil }.map(\.href).sorted() == ["asr", "dhuhr", "fajr", "isha", "maghrib"].map { calendar + "2027-01-21-\($0).ics" })

            // New settings rewrite the window.
            let fresh = try await client.signIn("prayer@example.com", harness: harness)
            #expect(try await client.send(.put, "/api/v1/prayer-settings", json: #"{"city": "Jeddah"}"#, token: fresh.accessToken).status == .ok)
            let rewritten = try ParsedMultistatus(try await client.dav(.report, calendar, as: user, body: CalDAVSyncTests.sync(moved.syncToken)))
            #expect(rewritten.entries.filter { $0.status == nil }.count == 68 * 5)
            let bogus = try await client.dav(.report, calendar, as: user, body: CalDAVSyncTests.sync(SyncToken(calendarID: UUID(), revision: 1).description))
            #expect(bogus.davCondition == .validSyncToken)

            let busy = try await client.dav(.report, calendar, as: user, body: """
                <c:free-busy-query xmlns:c="urn:ietf:params:xml:ns:caldav"><c:time-range start="20261122T000000Z" end="20261123T000000Z"/></c:free-busy-query>
                """, depth: "1")
            #expect(busy.text.components(separatedBy: "FREEBUSY").count - 1 >= 4)
        }
    }
}
