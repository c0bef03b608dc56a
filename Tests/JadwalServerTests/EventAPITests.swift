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

@Suite("Events as JSON")
struct EventAPITests {
    struct Calendars: Decodable { struct Item: Decodable { let id: String; let slug: String }; let calendars: [Item] }
    struct View: Decodable { let name: String; let uid: String; let etag: String; let event: EventDraft }

    @Test("create, read, edit and delete events as JSON; CalDAV clients see the same objects", arguments: TestEnvironment.engines)
    func lifecycle(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let user = try await DAVUser.make("json@example.com", harness: harness, client: client)
            let tokens = try await client.signIn("json@example.com", harness: harness)
            let token = tokens.accessToken
            let calendars = try await client.send(.get, "/api/v1/calendars", token: token).json(Calendars.self).calendars
            let personal = try #require(calendars.first { $0.slug == "personal" })
            let base = "/api/v1/calendars/\(personal.id)/events"
            let sync = try ParsedMultistatus(try await client.dav(.report, user.calendar("personal"), as: user, body: CalDAVSyncTests.sync(nil)))
            let syncToken = try #require(sync.syncToken)

            let created = try await client.send(.post, base, json: """
                {"title": "Team lunch", "start": "2026-11-23T13:00", "end": "2026-11-23T14:30", "timeZone": "Asia/Riyadh",
                 "location": "Kitchen", "rrule": "FREQ=WEEKLY;COUNT=3", "alarmMinutesBefore": 15}
                """, token: token)
            #expect(created.status == .created, "\(created.text)")
            let view = try created.json(View.self)
            #expect(view.event.title == "Team lunch" && view.event.start == "2026-11-23T13:00:00" && view.event.end == "2026-11-23T14:30:00")
            #expect(view.event.timeZone == "Asia/Riyadh" && view.event.rrule == "FREQ=WEEKLY;COUNT=3" && view.event.alarmMinutesBefore == 15)

            // It is an ordinary calendar object: iCalendar for CalDAV, with its zone and alarm.
            let ics = try await client.dav(.get, user.calendar("personal") + view.name, as: user).text
            #expect(ics.contains("DTSTART;TZID=Asia/Riyadh:20261123T130000") && ics.contains("BEGIN:VTIMEZONE"))
            #expect(ics.contains("TRIGGER:-PT15M") && ics.contains("RRULE:FREQ=WEEKLY;COUNT=3"))
            let changed = try ParsedMultistatus(try await client.dav(.report, user.calendar("personal"), as: user, body: CalDAVSyncTests.sync(syncToken)))
            #expect(changed.hrefs == [user.calendar("personal") + view.name])

            struct Events: Decodable { struct Item: Decodable { let start: String; let summary: String? }; let events: [Item] }
            let range = try await client.send(.get, "/api/v1/events?start=2026-11-20&end=2026-12-20", token: token).json(Events.self)
            #expect(range.events.map(\.start) == ["2026-11-23T10:00:00Z", "2026-11-30T10:00:00Z", "2026-12-07T10:00:00Z"])

            // Editing keeps what a CalDAV client added that the JSON does not describe.
            let withExtra = ics.replacingOccurrences(of: "END:VEVENT", with: "X-APPLE-TRAVEL-ADVISORY-BEHAVIOR:AUTOMATIC\r\nEND:VEVENT")
            #expect(try await client.putICS(user.calendar("personal") + view.name, as: user, withExtra).status == .noContent)
            let edited = try await client.send(.put, "\(base)/\(view.name)", json: """
                {"title": "Team lunch (moved)", "start": "2026-11-24T12:00", "busy": false}
                """, token: token)
            #expect(edited.status == .ok, "\(edited.text)")
            let editedView = try edited.json(View.self)
            #expect(editedView.event.title == "Team lunch (moved)" && editedView.event.busy == false && editedView.event.end == "2026-11-24T13:00:00")
            #expect(editedView.uid == view.uid)
            let after = try await client.dav(.get, user.calendar("personal") + view.name, as: user).text
            #expect(after.contains("X-APPLE-TRAVEL-ADVISORY-BEHAVIOR:AUTOMATIC") && after.contains("TRANSP:TRANSPARENT") && after.contains("SEQUENCE:1"))
            #expect(!after.contains("RRULE"), "the edit said no rrule")
            #expect(try await client.send(.put, "\(base)/\(view.name)", json: #"{"title": "x", "start": "2026-11-24T12:00"}"#, token: token,
                                          headers: [.ifMatch: view.etag]).status == .preconditionFailed)

            let allDay = try await client.send(.post, base, json: #"{"title": "National Day", "start": "2026-09-23", "allDay": true}"#, token: token)
            let allDayView = try allDay.json(View.self)
            #expect(allDayView.event.allDay == true && allDayView.event.end == "2026-09-24")
            #expect(try await client.dav(.get, user.calendar("personal") + allDayView.name, as: user).text.contains("DTSTART;VALUE=DATE:20260923"))

            for (body, fragment) in [
                (#"{"title": "", "start": "2026-11-23T13:00"}"#, "'title'"),
                (#"{"title": "x", "start": "tomorrow"}"#, "'start'"),
                (#"{"title": "x", "start": "2026-11-23T13:00", "end": "2026-11-23T12:00"}"#, "'end' must be after"),
                (#"{"title": "x", "start": "2026-11-23T13:00", "timeZone": "Mars/Olympus"}"#, "'timeZone'"),
                (#"{"title": "x", "start": "2026-11-23T13:00", "rrule": "FREQ=SOMETIMES"}"#, "'rrule'"),
                (#"{"title": "x", "start": "2026-11-23T13:00", "status": "maybe"}"#, "'status'"),
                (#"{"title": "x", "start": "2026-02-30T13:00"}"#, "'start'"),
            ] {
                let refused = try await client.send(.post, base, json: body, token: token)
                #expect(refused.status == .badRequest && refused.text.contains(fragment), "\(body): \(refused.text)")
            }
            let tasks = try #require(calendars.first { $0.slug == "tasks" })
            #expect(try await client.send(.post, "/api/v1/calendars/\(tasks.id)/events", json: #"{"title": "x", "start": "2026-11-23T13:00"}"#, token: token).status == .badRequest)

            #expect(try await client.send(.delete, "\(base)/\(view.name)", token: token).status == .noContent)
            #expect(try await client.send(.get, "\(base)/\(view.name)", token: token).status == .notFound)
        }
    }
}
