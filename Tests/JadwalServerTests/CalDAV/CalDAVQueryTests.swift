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

@Suite("CalDAV calendar-query and free-busy")
struct CalDAVQueryTests {
    static func query(_ filter: String, props: String = "<d:getetag/>") -> String {
        """
        <c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
          <d:prop>\(props)</d:prop>
          <c:filter><c:comp-filter name="VCALENDAR">\(filter)</c:comp-filter></c:filter>
        </c:calendar-query>
        """
    }

    static func eventsIn(_ start: String, _ end: String) -> String {
        #"<c:comp-filter name="VEVENT"><c:time-range start="\#(start)" end="\#(end)"/></c:comp-filter>"#
    }

    /// Weekly on Mondays 09:00 Riyadh (06:00Z) from 2 Nov 2026; 16 Nov removed, 23 Nov moved to Tuesday 24th.
    static let series = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Jadwal Tests//EN",
        "BEGIN:VEVENT", "UID:weekly", "DTSTAMP:20261101T000000Z", "DTSTART;TZID=Asia/Riyadh:20261102T090000", "DURATION:PT1H",
        "SUMMARY:Weekly review", "RRULE:FREQ=WEEKLY;BYDAY=MO", "EXDATE;TZID=Asia/Riyadh:20261116T090000", "END:VEVENT",
        "BEGIN:VEVENT", "UID:weekly", "DTSTAMP:20261101T000000Z", "RECURRENCE-ID;TZID=Asia/Riyadh:20261123T090000",
        "DTSTART;TZID=Asia/Riyadh:20261124T090000", "DURATION:PT1H", "SUMMARY:Weekly review (moved)", "END:VEVENT",
        "END:VCALENDAR",
    ].joined(separator: "\r\n") + "\r\n"

    /// Time-range queries answer from a calendar held in memory (`CalendarMirror`); it must follow
    /// every write, including ones this CalDAV service never saw: another server instance on the
    /// same database writes through `CalendarWrites` on the store, as the chat and the API do here.
    @Test("queries follow every write: overwrite, DELETE, MOVE, PROPPATCH and writes from elsewhere", arguments: TestEnvironment.engines)
    func queriesFollowWrites(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let user = try await DAVUser.make("mirror@example.com", harness: harness, client: client)
            let personal = user.calendar("personal"), other = user.calendar("whatsapp-events")
            let weekOne = Self.eventsIn("20261123T000000Z", "20261130T000000Z"), weekTwo = Self.eventsIn("20261130T000000Z", "20261207T000000Z")
            func matches(_ calendar: String, _ filter: String) async throws -> [String] {
                try ParsedMultistatus(try await client.dav(.report, calendar, as: user, body: Self.query(filter), depth: "1")).hrefs.sorted()
            }
            for (name, start) in [("a", "20261124T100000"), ("b", "20261125T100000"), ("c", "20261201T100000")] {
                #expect(try await client.putICS(personal + "\(name).ics", as: user, ICS.event(uid: name, start: start)).status == .created)
            }
            #expect(try await matches(personal, weekOne) == [personal + "a.ics", personal + "b.ics"])

            #expect(try await client.putICS(personal + "a.ics", as: user, ICS.event(uid: "a", start: "20261202T100000")).status == .noContent)
            #expect(try await matches(personal, weekOne) == [personal + "b.ics"])
            #expect(try await matches(personal, weekTwo) == [personal + "a.ics", personal + "c.ics"])

            #expect(try await client.dav(.delete, personal + "b.ics", as: user).status == .noContent)
            #expect(try await matches(personal, weekOne) == [])

            let moved = try await client.dav(.move, personal + "c.ics", as: user, headers: [HTTPField.Name("Destination")!: other + "c.ics"])
            #expect(moved.status == .created)
            #expect(try await matches(personal, weekTwo) == [personal + "a.ics"])
            #expect(try await matches(other, weekTwo) == [other + "c.ics"])

            // A property change moves the revision without logging an object change.
            let patched = try await client.dav(.proppatch, personal, as: user, body: """
                <d:propertyupdate xmlns:d="DAV:"><d:set><d:prop><d:displayname>Mine</d:displayname></d:prop></d:set></d:propertyupdate>
                """)
            #expect(patched.status.code == 207)
            #expect(try await matches(personal, weekTwo) == [personal + "a.ics"])

            // Writes made beside this service: a few (caught up from the change log), then many
            // (read afresh), then a deletion.
            let store = harness.instance.store
            let writes = CalendarWrites(store: store, clock: harness.clock.clock, random: .system)
            let calendar = try #require(try await store.read { tx in try await tx.calendar(accountID: user.accountID, slug: "personal") })
            _ = try await writes.put(try CalendarObjectContent(text: ICS.event(uid: "d", start: "20261126T080000")), name: "d.ics", in: calendar, source: .api)
            #expect(try await matches(personal, weekOne) == [personal + "d.ics"])
            for number in 0..<80 {
                let content = try CalendarObjectContent(text: ICS.event(uid: "bulk-\(number)", start: "20261127T0\(number % 10)0000"))
                _ = try await writes.put(content, name: "bulk-\(number).ics", in: calendar, source: .api)
            }
            #expect(try await matches(personal, weekOne).count == 81)
            try await writes.delete(name: "d.ics", in: calendar, source: .api)
            #expect(try await matches(personal, weekOne).count == 80)
            #expect(try await matches(personal, weekTwo) == [personal + "a.ics"])
        }
    }

    @Test("time ranges are right for recurring events: EXDATEs, moved instances, expand", arguments: TestEnvironment.engines)
    func recurring(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let user = try await DAVUser.make("query@example.com", harness: harness, client: client)
            let calendar = user.calendar("personal")
            #expect(try await client.putICS(calendar + "weekly.ics", as: user, Self.series).status == .created)
            #expect(try await client.putICS(calendar + "lunch.ics", as: user, ICS.event(uid: "lunch", summary: "Lunch with Sara", start: "20261117T130000")).status == .created)
            #expect(try await client.putICS(calendar + "old.ics", as: user, ICS.event(uid: "old", summary: "Old", start: "20250101T100000")).status == .created)

            func matches(_ filter: String) async throws -> [String] {
                try ParsedMultistatus(try await client.dav(.report, calendar, as: user, body: Self.query(filter), depth: "1")).hrefs.sorted()
            }
            // The week of 16 Nov: the series' instance is excluded, so only lunch.
            #expect(try await matches(Self.eventsIn("20261116T000000Z", "20261123T000000Z")) == [calendar + "lunch.ics"])
            // The week of 23 Nov: the moved instance (Tuesday) matches the series.
            #expect(try await matches(Self.eventsIn("20261124T000000Z", "20261125T000000Z")) == [calendar + "weekly.ics"])
            // Monday 23 Nov itself is empty: its instance moved away.
            #expect(try await matches(Self.eventsIn("20261123T000000Z", "20261124T000000Z")) == [])
            // Far in the future, an endless series still answers.
            #expect(try await matches(Self.eventsIn("20400102T000000Z", "20400103T000000Z")) == [calendar + "weekly.ics"])
            #expect(try await matches(#"<c:comp-filter name="VEVENT"/>"#) == [calendar + "lunch.ics", calendar + "old.ics", calendar + "weekly.ics"])
            // A time-range on VCALENDAR itself (python caldav without a component type): any component.
            #expect(try await matches(#"<c:time-range start="20261116T000000Z" end="20261123T000000Z"/>"#) == [calendar + "lunch.ics"])
            let byText = #"<c:comp-filter name="VEVENT"><c:prop-filter name="SUMMARY"><c:text-match collation="i;unicode-casemap">SARA</c:text-match></c:prop-filter></c:comp-filter>"#
            #expect(try await matches(byText) == [calendar + "lunch.ics"])

            // Expanded: each instance in the range on its own, in UTC, with its RECURRENCE-ID.
            let expanded = try ParsedMultistatus(try await client.dav(.report, calendar, as: user, body: Self.query(
                Self.eventsIn("20261109T000000Z", "20261201T000000Z"),
                props: #"<c:calendar-data><c:expand start="20261109T000000Z" end="20261201T000000Z"/></c:calendar-data>"#), depth: "1"))
            let data = try #require(expanded[calendar + "weekly.ics"]?.text(.calendarData))
            #expect(data.components(separatedBy: "BEGIN:VEVENT").count - 1 == 3, "9, 24 (moved) and 30 Nov; 16 Nov is excluded\n\(data)")
            #expect(data.contains("DTSTART:20261109T060000Z") && data.contains("DTSTART:20261124T060000Z") && data.contains("DTSTART:20261130T060000Z"))
            #expect(!data.contains("RRULE") && !data.contains("VTIMEZONE") && !data.contains("20261116T060000Z"))

            // Partial retrieval: only the asked properties.
            let partial = try ParsedMultistatus(try await client.dav(.report, calendar, as: user, body: Self.query(
                Self.eventsIn("20261117T000000Z", "20261118T000000Z"),
                props: #"<c:calendar-data><c:comp name="VCALENDAR"><c:prop name="VERSION"/><c:comp name="VEVENT"><c:prop name="SUMMARY"/><c:prop name="UID"/></c:comp></c:comp></c:calendar-data>"#),
                depth: "1"))
            let lunch = try #require(partial[calendar + "lunch.ics"]?.text(.calendarData))
            #expect(lunch.contains("SUMMARY:Lunch with Sara") && !lunch.contains("DTSTART") && !lunch.contains("PRODID"))
        }
    }

    @Test("tasks by due date for Reminders; filters on the wrong component match nothing; bad filters are 403")
    func tasks() async throws {
        try await ServerHarness.run { harness, client in
            let user = try await DAVUser.make("tasks@example.com", harness: harness, client: client)
            let tasks = user.calendar("tasks")
            #expect(try await client.putICS(tasks + "soon.ics", as: user, ICS.todo(uid: "soon", due: "20261125T170000Z")).status == .created)
            #expect(try await client.putICS(tasks + "undated.ics", as: user, ICS.todo(uid: "undated", due: nil)).status == .created)
            func matches(_ filter: String) async throws -> [String] {
                try ParsedMultistatus(try await client.dav(.report, tasks, as: user, body: Self.query(filter), depth: "1")).hrefs.sorted()
            }
            #expect(try await matches(#"<c:comp-filter name="VTODO"><c:time-range start="20261125T000000Z" end="20261126T000000Z"/></c:comp-filter>"#) == [tasks + "soon.ics", tasks + "undated.ics"])
            // A VTODO with neither DTSTART nor DUE matches any range (RFC 4791 §9.9).
            #expect(try await matches(#"<c:comp-filter name="VTODO"><c:time-range start="20300101T000000Z" end="20300102T000000Z"/></c:comp-filter>"#) == [tasks + "undated.ics"])
            #expect(try await matches(#"<c:comp-filter name="VTODO"><c:prop-filter name="COMPLETED"><c:is-not-defined/></c:prop-filter></c:comp-filter>"#).count == 2)
            #expect(try await matches(Self.eventsIn("20261101T000000Z", "20261201T000000Z")) == [])

            let bad = try await client.dav(.report, tasks, as: user, body: Self.query(#"<c:comp-filter name="VTODO"><c:time-range start="tomorrow"/></c:comp-filter>"#), depth: "1")
            #expect(bad.status == .forbidden && bad.davCondition == .validFilter)
            let collation = try await client.dav(.report, tasks, as: user, body: Self.query(
                #"<c:comp-filter name="VTODO"><c:prop-filter name="SUMMARY"><c:text-match collation="i;klingon">x</c:text-match></c:prop-filter></c:comp-filter>"#), depth: "1")
            #expect(collation.status == .forbidden && collation.davCondition == .supportedCollation)
        }
    }

    @Test("free-busy-query merges busy time, skips transparent and cancelled events")
    func freeBusy() async throws {
        try await ServerHarness.run { harness, client in
            let user = try await DAVUser.make("busy@example.com", harness: harness, client: client)
            let calendar = user.calendar("personal")
            #expect(try await client.putICS(calendar + "a.ics", as: user, ICS.event(uid: "a", start: "20261123T100000")).status == .created)
            #expect(try await client.putICS(calendar + "b.ics", as: user, ICS.event(uid: "b", start: "20261123T103000")).status == .created)
            #expect(try await client.putICS(calendar + "free.ics", as: user, ICS.event(uid: "free", start: "20261123T140000", extra: ["TRANSP:TRANSPARENT"])).status == .created)
            #expect(try await client.putICS(calendar + "off.ics", as: user, ICS.event(uid: "off", start: "20261123T160000", extra: ["STATUS:CANCELLED"])).status == .created)
            let response = try await client.dav(.report, calendar, as: user, body: """
                <c:free-busy-query xmlns:c="urn:ietf:params:xml:ns:caldav"><c:time-range start="20261123T000000Z" end="20261124T000000Z"/></c:free-busy-query>
                """, depth: "1")
            #expect(response.status == .ok && response.headers[.contentType]?.hasPrefix("text/calendar") == true)
            let body = response.text
            #expect(body.contains("BEGIN:VFREEBUSY") && body.contains("DTSTART:20261123T000000Z"))
            let periods = body.components(separatedBy: "\r\n").filter { $0.hasPrefix("FREEBUSY") }
            #expect(periods.count == 1 && periods[0].contains("20261123T070000Z/"), "10:00–11:30 Riyadh merged into one period: \(periods)")
        }
    }
}
