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

@Suite("CalDAV writes: objects, calendars, properties")
struct CalDAVWriteTests {
    @Test("PUT/GET/DELETE with strong ETags and conditional requests; CalDAV preconditions", arguments: TestEnvironment.engines)
    func objects(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let user = try await DAVUser.make("writer@example.com", harness: harness, client: client)
            let path = user.calendar("personal") + "standup.ics"
            let ics = ICS.event(uid: "standup@example.com", summary: "Standup")

            let created = try await client.putICS(path, as: user, ics, headers: [.ifNoneMatch: "*"])
            #expect(created.status == .created, "\(created.text)")
            let etag = try #require(created.headers[.eTag])
            #expect(etag.hasPrefix("\"") && !etag.hasPrefix("W/"))

            let fetched = try await client.dav(.get, path, as: user)
            #expect(fetched.status == .ok && fetched.text == ics && fetched.headers[.eTag] == etag)
            #expect(fetched.headers[.contentType]?.hasPrefix("text/calendar") == true)
            #expect(try await client.dav(.get, path, as: user, headers: [.ifNoneMatch: etag]).status == .notModified)
            let head = try await client.dav(.head, path, as: user)
            #expect(head.status == .ok && head.body.readableBytes == 0 && head.headers[.eTag] == etag)

            #expect(try await client.putICS(path, as: user, ics, headers: [.ifNoneMatch: "*"]).status == .preconditionFailed)
            let edited = ics.replacingOccurrences(of: "SUMMARY:Standup", with: "SUMMARY:Standup (moved)")
            #expect(try await client.putICS(path, as: user, edited, headers: [.ifMatch: "\"stale\""]).status == .preconditionFailed)
            let updated = try await client.putICS(path, as: user, edited, headers: [.ifMatch: etag])
            #expect(updated.status == .noContent && updated.headers[.eTag] != etag)

            // Preconditions, each with its named condition and nothing written.
            let clash = try await client.putICS(user.calendar("personal") + "other.ics", as: user, ics)
            #expect(clash.status == .forbidden && clash.davCondition == .noUIDConflict)
            #expect(clash.text.contains(path), "no-uid-conflict names the object holding the UID")
            let invalid = try await client.putICS(user.calendar("personal") + "bad.ics", as: user, "BEGIN:VCALENDAR\r\nEND:VEVENT\r\n")
            #expect(invalid.status == .forbidden && invalid.davCondition == .validCalendarData)
            #expect(invalid.text.contains("not valid"))
            let twoUIDs = ics.replacingOccurrences(
                of: "END:VCALENDAR", with: "BEGIN:VEVENT\r\nUID:second\r\nDTSTAMP:20261101T000000Z\r\nDTSTART:20261124T100000Z\r\nEND:VEVENT\r\nEND:VCALENDAR")
            let mixed = try await client.putICS(user.calendar("personal") + "two.ics", as: user, twoUIDs)
            #expect(mixed.status == .forbidden && mixed.davCondition == .validCalendarObjectResource)
            let todo = try await client.putICS(user.calendar("personal") + "todo.ics", as: user, ICS.todo(uid: "todo-1"))
            #expect(todo.status == .forbidden && todo.davCondition == .supportedCalendarComponent)
            let wrongType = try await client.dav(.put, user.calendar("personal") + "x.ics", as: user, body: "{}", contentType: "application/json")
            #expect(wrongType.status == .forbidden && wrongType.davCondition == .supportedCalendarData)
            let huge = ICS.event(uid: "huge", extra: ["DESCRIPTION:" + String(repeating: "a", count: CalendarObjectContent.maxBytes)])
            let tooLarge = try await client.putICS(user.calendar("personal") + "huge.ics", as: user, huge)
            #expect(tooLarge.status == .contentTooLarge && tooLarge.davCondition == .maxResourceSize)
            #expect(try await client.putICS(user.calendar("nowhere") + "x.ics", as: user, ICS.event(uid: "x")).status == .conflict)
            #expect(try await client.putICS(user.calendar("tasks") + "todo.ics", as: user, ICS.todo(uid: "todo-1")).status == .created)

            let names = try ParsedMultistatus(try await client.propfind(user.calendar("personal"), as: user, depth: "1", ["d:getetag"])).hrefs
            #expect(names == [user.calendar("personal"), path], "refused writes left nothing behind")

            #expect(try await client.dav(.delete, path, as: user, headers: [.ifMatch: etag]).status == .preconditionFailed)
            #expect(try await client.dav(.delete, path, as: user).status == .noContent)
            #expect(try await client.dav(.get, path, as: user).status == .notFound)
            #expect(try await client.dav(.delete, path, as: user).status == .notFound)
        }
    }

    @Test("MOVE between calendars keeps the object and logs both sides; Overwrite: F is honoured")
    func move() async throws {
        try await ServerHarness.run { harness, client in
            let user = try await DAVUser.make("mover@example.com", harness: harness, client: client)
            let source = user.calendar("personal") + "trip.ics"
            #expect(try await client.putICS(source, as: user, ICS.event(uid: "trip")).status == .created)
            let before = try ParsedMultistatus(try await client.propfind(user.calendar("whatsapp-events"), as: user, ["d:sync-token"]))
            let token = try #require(before.entries.first?.text(.syncToken))

            let destination = "http://localhost" + user.calendar("whatsapp-events") + "trip-moved.ics"
            let moved = try await client.dav(.move, source, as: user, headers: [HTTPField.Name("Destination")!: destination])
            #expect(moved.status == .created, "\(moved.text)")
            #expect(try await client.dav(.get, source, as: user).status == .notFound)
            #expect(try await client.dav(.get, user.calendar("whatsapp-events") + "trip-moved.ics", as: user).text.contains("UID:trip"))

            let sync = try ParsedMultistatus(try await client.dav(.report, user.calendar("whatsapp-events"), as: user, body: """
                <d:sync-collection xmlns:d="DAV:"><d:sync-token>\(token)</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>
                """))
            #expect(sync.hrefs == [user.calendar("whatsapp-events") + "trip-moved.ics"])

            #expect(try await client.putICS(source, as: user, ICS.event(uid: "other")).status == .created)
            let refused = try await client.dav(.move, source, as: user, headers: [
                HTTPField.Name("Destination")!: user.calendar("whatsapp-events") + "trip-moved.ics", HTTPField.Name("Overwrite")!: "F",
            ])
            #expect(refused.status == .preconditionFailed)
            let toTasks = try await client.dav(.move, source, as: user, headers: [HTTPField.Name("Destination")!: user.calendar("tasks") + "x.ics"])
            #expect(toTasks.status == .forbidden && toTasks.davCondition == .supportedCalendarComponent)
            let outside = try await client.dav(.move, source, as: user, headers: [HTTPField.Name("Destination")!: "/elsewhere/x.ics"])
            #expect(outside.status == .forbidden)
        }
    }

    @Test("MKCALENDAR with properties, PROPPATCH applied atomically, dead properties kept, extended MKCOL", arguments: TestEnvironment.engines)
    func collections(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let user = try await DAVUser.make("maker@example.com", harness: harness, client: client)
            let slug = "6C0A37E2-5B1F-4E3A-9F5B-1D2C3B4A5E6F"
            let london = ["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VTIMEZONE", "TZID:Europe/London", "END:VTIMEZONE", "END:VCALENDAR"]
                .joined(separator: "&#13;\n")
            let made = try await client.dav(.mkcalendar, user.calendar(slug), as: user, body: """
                <c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:ical="http://apple.com/ns/ical/">
                  <d:set><d:prop>
                    <d:displayname>Family</d:displayname>
                    <ical:calendar-color>#FF2968FF</ical:calendar-color>
                    <ical:calendar-order>4</ical:calendar-order>
                    <c:supported-calendar-component-set><c:comp name="VEVENT"/></c:supported-calendar-component-set>
                    <c:calendar-timezone>\(london)</c:calendar-timezone>
                  </d:prop></d:set>
                </c:mkcalendar>
                """)
            #expect(made.status == .created, "\(made.text)")
            #expect(try await client.dav(.mkcalendar, user.calendar(slug), as: user).status == .methodNotAllowed)

            let props = try ParsedMultistatus(try await client.propfind(user.calendar(slug), as: user, [
                "d:displayname", "ical:calendar-color", "ical:calendar-order", "c:supported-calendar-component-set", "c:calendar-timezone",
            ])).entries[0]
            #expect(props.text(.displayName) == "Family" && props.text(.calendarColor) == "#FF2968FF" && props.text(.calendarOrder) == "4")
            #expect(props.text(.calendarTimezone)?.contains("TZID:Europe/London") == true)

            // One bad value fails the whole PROPPATCH: the good one is 424 and nothing changes.
            let patch = try await client.dav(.proppatch, user.calendar(slug), as: user, body: """
                <d:propertyupdate xmlns:d="DAV:" xmlns:ical="http://apple.com/ns/ical/" xmlns:x="urn:example">
                  <d:set><d:prop><d:displayname>Renamed</d:displayname><ical:calendar-color>greenish</ical:calendar-color></d:prop></d:set>
                </d:propertyupdate>
                """)
            let failed = try ParsedMultistatus(patch).entries[0]
            #expect(failed.properties[.displayName]?.status == 424 && failed.properties[.calendarColor]?.status == 409)
            let protected = try ParsedMultistatus(try await client.dav(.proppatch, user.calendar(slug), as: user, body: """
                <d:propertyupdate xmlns:d="DAV:" xmlns:cs="http://calendarserver.org/ns/"><d:set><d:prop><cs:getctag>1</cs:getctag></d:prop></d:set></d:propertyupdate>
                """)).entries[0]
            #expect(protected.properties[.getCTag]?.status == 403)

            let good = try ParsedMultistatus(try await client.dav(.proppatch, user.calendar(slug), as: user, body: """
                <d:propertyupdate xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:x="urn:example">
                  <d:set><d:prop><d:displayname>Renamed</d:displayname><x:note lang="en">keep <x:b>this</x:b></x:note></d:prop></d:set>
                  <d:remove><d:prop><c:calendar-description/></d:prop></d:remove>
                </d:propertyupdate>
                """)).entries[0]
            #expect(good.properties[.displayName]?.status == 200 && good.properties[QualifiedName("urn:example", "note")]?.status == 200)
            let after = try ParsedMultistatus(try await client.propfind(user.calendar(slug), as: user, ["d:displayname", "x:note xmlns:x=\"urn:example\""])).entries[0]
            #expect(after.text(.displayName) == "Renamed")
            let note = try #require(after.value(QualifiedName("urn:example", "note")))
            #expect(note.attribute("lang") == "en" && note.first(QualifiedName("urn:example", "b"))?.text == "this")

            let mkcol = try await client.dav(.mkcol, user.calendar("work"), as: user, body: """
                <d:mkcol xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:set><d:prop>
                  <d:resourcetype><d:collection/><c:calendar/></d:resourcetype><d:displayname>Work</d:displayname>
                  <c:supported-calendar-component-set><c:comp name="VTODO"/></c:supported-calendar-component-set>
                </d:prop></d:set></d:mkcol>
                """)
            #expect(mkcol.status == .created, "\(mkcol.text)")
            #expect(try await client.putICS(user.calendar("work") + "t.ics", as: user, ICS.todo(uid: "t")).status == .created)
            let plain = try await client.dav(.mkcol, user.calendar("folder"), as: user)
            #expect(plain.status == .forbidden && plain.davCondition == .validResourceType)
            let badComponents = try await client.dav(.mkcalendar, user.calendar("cards"), as: user, body: """
                <c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:set><d:prop>
                <c:supported-calendar-component-set><c:comp name="VCARD"/></c:supported-calendar-component-set></d:prop></d:set></c:mkcalendar>
                """)
            #expect(badComponents.status == .forbidden && badComponents.text.contains("mkcalendar-response"))
            #expect(try await client.dav(.mkcalendar, user.calendar("prayer-times"), as: user).status == .forbidden)
            #expect(try await client.dav(.mkcalendar, user.calendar("personal") + "nested/", as: user).status == .notFound)

            #expect(try await client.dav(.delete, user.calendar("work"), as: user).status == .noContent)
            #expect(try await client.propfind(user.calendar("work"), as: user, ["d:displayname"]).status == .notFound)
            #expect(try await client.dav(.delete, user.home, as: user).status == .forbidden)
        }
    }
}
