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

@Suite("CalDAV sync-collection and multiget")
struct CalDAVSyncTests {
    static func sync(_ token: String?, limit: Int? = nil, props: String = "<d:getetag/>") -> String {
        """
        <d:sync-collection xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
          <d:sync-token>\(token ?? "")</d:sync-token><d:sync-level>1</d:sync-level>
          \(limit.map { "<d:limit><d:nresults>\($0)</d:nresults></d:limit>" } ?? "")
          <d:prop>\(props)</d:prop>
        </d:sync-collection>
        """
    }

    @Test("initial sync, then only what changed: writes, deletes, each resource once; invalid tokens refused", arguments: TestEnvironment.engines)
    func syncCollection(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let user = try await DAVUser.make("syncer@example.com", harness: harness, client: client)
            let calendar = user.calendar("personal")
            for index in 1...3 {
                #expect(try await client.putICS(calendar + "e\(index).ics", as: user, ICS.event(uid: "e\(index)")).status == .created)
            }
            let initial = try ParsedMultistatus(try await client.dav(.report, calendar, as: user, body: Self.sync(nil)))
            #expect(Set(initial.hrefs) == Set((1...3).map { calendar + "e\($0).ics" }))
            #expect(initial.entries.allSatisfy { $0.text(.getETag)?.hasPrefix("\"") == true })
            let token = try #require(initial.syncToken)

            let nothing = try ParsedMultistatus(try await client.dav(.report, calendar, as: user, body: Self.sync(token)))
            #expect(nothing.entries.isEmpty && nothing.syncToken == token)

            // e1 edited twice, e2 deleted, e4 created then deleted, e5 created.
            #expect(try await client.putICS(calendar + "e1.ics", as: user, ICS.event(uid: "e1", summary: "A")).status == .noContent)
            #expect(try await client.putICS(calendar + "e1.ics", as: user, ICS.event(uid: "e1", summary: "B")).status == .noContent)
            #expect(try await client.dav(.delete, calendar + "e2.ics", as: user).status == .noContent)
            #expect(try await client.putICS(calendar + "e4.ics", as: user, ICS.event(uid: "e4")).status == .created)
            #expect(try await client.dav(.delete, calendar + "e4.ics", as: user).status == .noContent)
            #expect(try await client.putICS(calendar + "e5.ics", as: user, ICS.event(uid: "e5")).status == .created)

            let changes = try ParsedMultistatus(try await client.dav(
                .report, calendar, as: user, body: Self.sync(token, props: "<d:getetag/><c:calendar-data/>")))
            #expect(changes.hrefs == [calendar + "e1.ics", calendar + "e2.ics", calendar + "e4.ics", calendar + "e5.ics"])
            #expect(changes[calendar + "e1.ics"]?.text(.calendarData)?.contains("SUMMARY:B") == true)
            #expect(changes[calendar + "e2.ics"]?.status == 404 && changes[calendar + "e4.ics"]?.status == 404)
            let next = try #require(changes.syncToken)
            #expect(next != token)

            // A limit returns the oldest changes, a 507 for the collection and a token to go on from.
            let limited = try ParsedMultistatus(try await client.dav(.report, calendar, as: user, body: Self.sync(token, limit: 2)))
            #expect(limited.hrefs == [calendar + "e1.ics", calendar + "e2.ics", calendar])
            #expect(limited[calendar]?.status == 507)
            let rest = try ParsedMultistatus(try await client.dav(.report, calendar, as: user, body: Self.sync(limited.syncToken)))
            #expect(rest.hrefs == [calendar + "e4.ics", calendar + "e5.ics"])

            // An initial sync with a limit pages through the calendar by age, missing nothing.
            let firstPage = try ParsedMultistatus(try await client.dav(.report, calendar, as: user, body: Self.sync(nil, limit: 2)))
            #expect(firstPage.hrefs == [calendar + "e3.ics", calendar + "e1.ics", calendar], "oldest writes first, then the 507")
            let secondPage = try ParsedMultistatus(try await client.dav(.report, calendar, as: user, body: Self.sync(firstPage.syncToken)))
            #expect(Set(secondPage.entries.filter { $0.status == nil }.map(\.href)) == [calendar + "e5.ics"])

            // getctag follows the same revision.
            let ctag = try ParsedMultistatus(try await client.propfind(calendar, as: user, ["cs:getctag"])).entries[0].text(.getCTag)
            #expect(ctag == next)

            for bad in ["http://example.com/other", SyncToken(calendarID: UUID(), revision: 1).description, next.replacingOccurrences(of: "/\(next.split(separator: "/").last ?? "")", with: "/999999")] {
                let refused = try await client.dav(.report, calendar, as: user, body: Self.sync(bad))
                #expect(refused.status == .forbidden && refused.davCondition == .validSyncToken, "\(bad)")
            }
            let onHome = try await client.dav(.report, user.home, as: user, body: Self.sync(nil))
            #expect(onHome.status == .forbidden && onHome.davCondition == .supportedReport)
        }
    }

    @Test("a token older than the kept change log is refused with valid-sync-token; a sync from scratch goes on", arguments: TestEnvironment.engines)
    func prunedChangeLog(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let user = try await DAVUser.make("pruned@example.com", harness: harness, client: client)
            let calendar = user.calendar("personal")
            #expect(try await client.putICS(calendar + "a.ics", as: user, ICS.event(uid: "a")).status == .created)
            let old = try #require(try ParsedMultistatus(try await client.dav(.report, calendar, as: user, body: Self.sync(nil))).syncToken)
            #expect(try await client.putICS(calendar + "b.ics", as: user, ICS.event(uid: "b")).status == .created)
            #expect(try await client.dav(.delete, calendar + "a.ics", as: user).status == .noContent)
            let recent = try #require(try ParsedMultistatus(try await client.dav(.report, calendar, as: user, body: Self.sync(old))).syncToken)

            // The log is kept 90 days: a sweep whose clock is past that forgets all of it.
            let later = Date().addingTimeInterval(91 * 86_400)
            let forgotten = try await RecordRetention(store: harness.instance.store, clock: Clock { later }).sweep()
            #expect(forgotten.changes >= 3)
            let refused = try await client.dav(.report, calendar, as: user, body: Self.sync(old))
            #expect(refused.status == .forbidden && refused.davCondition == .validSyncToken, "a token from before the mark is refused, not answered short")
            let unchanged = try ParsedMultistatus(try await client.dav(.report, calendar, as: user, body: Self.sync(recent)))
            #expect(unchanged.entries.isEmpty && unchanged.syncToken == recent, "a token at the mark still answers: nothing changed since")
            let fresh = try ParsedMultistatus(try await client.dav(.report, calendar, as: user, body: Self.sync(nil)))
            #expect(fresh.hrefs == [calendar + "b.ics"])
            #expect(try await client.putICS(calendar + "c.ics", as: user, ICS.event(uid: "c")).status == .created)
            let after = try ParsedMultistatus(try await client.dav(.report, calendar, as: user, body: Self.sync(fresh.syncToken)))
            #expect(after.hrefs == [calendar + "c.ics"], "syncing goes on from the new token")
        }
    }

    @Test("calendar-multiget returns the asked objects in order and a 404 for each unknown href")
    func multiget() async throws {
        try await ServerHarness.run { harness, client in
            let user = try await DAVUser.make("multi@example.com", harness: harness, client: client)
            let other = try await DAVUser.make("other@example.com", harness: harness, client: client)
            let calendar = user.calendar("personal")
            #expect(try await client.putICS(calendar + "a.ics", as: user, ICS.event(uid: "a")).status == .created)
            #expect(try await client.putICS(calendar + "b%20c.ics", as: user, ICS.event(uid: "b")).status == .created)
            #expect(try await client.putICS(other.calendar("personal") + "z.ics", as: other, ICS.event(uid: "z")).status == .created)
            let hrefs = [calendar + "b%20c.ics", calendar + "missing.ics", calendar + "a.ics", other.calendar("personal") + "z.ics"]
            let result = try ParsedMultistatus(try await client.dav(.report, calendar, as: user, body: """
                <c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
                  <d:prop><d:getetag/><c:calendar-data/></d:prop>
                  \(hrefs.map { "<d:href>\($0)</d:href>" }.joined())
                </c:calendar-multiget>
                """, depth: "1"))
            #expect(result.hrefs == hrefs)
            #expect(result[calendar + "b%20c.ics"]?.text(.calendarData)?.contains("UID:b") == true)
            #expect(result[calendar + "missing.ics"]?.status == 404)
            #expect(result[other.calendar("personal") + "z.ics"]?.status == 404, "another account's object is not found")
        }
    }
}
