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

@Suite("Calendar objects and the integrated view")
struct CalendarObjectAPITests {
    struct Calendar: Decodable { let id: String; let slug: String }
    struct Calendars: Decodable { let calendars: [Calendar] }
    struct Instance: Decodable { let calendarId: String; let uid: String; let start: String; let end: String; let allDay: Bool; let summary: String?; let recurrenceId: String?; let busy: Bool }
    struct Events: Decodable { let events: [Instance]; let truncated: Bool }

    static func ics(uid: String, summary: String, start: String, rrule: String? = nil, extra: String = "") -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//EN", "BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20260101T000000Z",
                     "DTSTART;TZID=Asia/Riyadh:\(start)", "DURATION:PT1H", "SUMMARY:\(summary)"]
        if let rrule { lines.append("RRULE:\(rrule)") }
        if !extra.isEmpty { lines.append(extra) }
        lines += ["END:VEVENT", "END:VCALENDAR"]
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    static func put(_ client: some TestClientProtocol, _ path: String, _ body: String, token: String, headers extra: HTTPFields = [:]) async throws -> TestResponse {
        var headers = extra
        headers[.contentType] = "text/calendar; charset=utf-8"
        headers[.authorization] = "Bearer \(token)"
        return try await client.execute(uri: path, method: .put, headers: headers, body: ByteBuffer(string: body)) { $0 }
    }

    @Test("put, get, conditional writes, UID rules, delete; the range view expands recurrences", arguments: TestEnvironment.engines)
    func objects(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let tokens = try await client.signIn("objects@example.com", harness: harness)
            let calendars = try await client.send(.get, "/api/v1/calendars", token: tokens.accessToken).json(Calendars.self).calendars
            let personal = try #require(calendars.first { $0.slug == "personal" })
            let tasks = try #require(calendars.first { $0.slug == "tasks" })
            let base = "/api/v1/calendars/\(personal.id)/objects"

            let weekly = Self.ics(uid: "gym@example.com", summary: "Gym", start: "20260302T180000", rrule: "FREQ=WEEKLY;BYDAY=MO,WE;COUNT=6")
            let created = try await Self.put(client, "\(base)/gym.ics", weekly, token: tokens.accessToken, headers: [.ifNoneMatch: "*"])
            #expect(created.status == .created, "\(created.text)")
            let etag = try #require(created.headers[.eTag])
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""))

            let fetched = try await client.send(.get, "\(base)/gym.ics", token: tokens.accessToken)
            #expect(fetched.text == weekly && fetched.headers[.eTag] == etag)

            // If-None-Match: * on an existing object, and a stale If-Match, are refused.
            #expect(try await Self.put(client, "\(base)/gym.ics", weekly, token: tokens.accessToken, headers: [.ifNoneMatch: "*"]).status == .preconditionFailed)
            let edited = weekly.replacingOccurrences(of: "SUMMARY:Gym", with: "SUMMARY:Gym (leg day)")
            #expect(try await Self.put(client, "\(base)/gym.ics", edited, token: tokens.accessToken, headers: [.ifMatch: "\"stale\""]).status == .preconditionFailed)
            let updated = try await Self.put(client, "\(base)/gym.ics", edited, token: tokens.accessToken, headers: [.ifMatch: etag])
            #expect(updated.status == .noContent && updated.headers[.eTag] != etag)

            // One UID per calendar; the calendar's component types are enforced.
            let clash = try await Self.put(client, "\(base)/other.ics", weekly, token: tokens.accessToken)
            #expect(clash.status == .conflict && clash.errorCode == "uid_conflict")
            let todo = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//T//EN\r\nBEGIN:VTODO\r\nUID:t1\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:Buy dates\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
            #expect(try await Self.put(client, "\(base)/todo.ics", todo, token: tokens.accessToken).errorCode == "unsupported_component")
            #expect(try await Self.put(client, "/api/v1/calendars/\(tasks.id)/objects/todo.ics", todo, token: tokens.accessToken).status == .created)

            let dinner = Self.ics(uid: "dinner@example.com", summary: "Dinner with Sara", start: "20260304T200000", extra: "TRANSP:TRANSPARENT")
            #expect(try await Self.put(client, "\(base)/dinner.ics", dinner, token: tokens.accessToken).status == .created)

            let view = try await client.send(.get, "/api/v1/events?start=2026-03-01&end=2026-03-08", token: tokens.accessToken)
            #expect(view.status == .ok, "\(view.text)")
            let events = try view.json(Events.self)
            #expect(!events.truncated)
            #expect(events.events.map(\.summary) == ["Gym (leg day)", "Gym (leg day)", "Dinner with Sara"])
            #expect(events.events[0].start == "2026-03-02T15:00:00Z" && events.events[0].end == "2026-03-02T16:00:00Z")
            #expect(events.events[1].start == "2026-03-04T15:00:00Z" && events.events[1].recurrenceId != nil)
            #expect(events.events[0].busy && !events.events[2].busy)

            #expect(try await client.send(.delete, "\(base)/gym.ics", token: tokens.accessToken, headers: [.ifMatch: "\"stale\""]).status == .preconditionFailed)
            #expect(try await client.send(.delete, "\(base)/gym.ics", token: tokens.accessToken).status == .noContent)
            #expect(try await client.send(.delete, "\(base)/gym.ics", token: tokens.accessToken).status == .notFound)
            let after = try await client.send(.get, "/api/v1/events?start=2026-03-01&end=2026-03-08", token: tokens.accessToken).json(Events.self)
            #expect(after.events.map(\.summary) == ["Dinner with Sara"])
        }
    }

    @Test("invalid calendar objects and queries are 4xx with a reason")
    func badInput() async throws {
        try await ServerHarness.run { harness, client in
            let tokens = try await client.signIn("badobj@example.com", harness: harness)
            let personal = try #require(try await client.send(.get, "/api/v1/calendars", token: tokens.accessToken).json(Calendars.self).calendars.first)
            let path = "/api/v1/calendars/\(personal.id)/objects/x.ics"
            let bad = [
                "not iCalendar at all",
                "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20260230T100000Z\r\n",
                "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nEND:VCALENDAR\r\n",
                "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nDTSTART:20260301T100000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
                "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20260301T100000Z\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:b\r\nDTSTART:20260301T100000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
                "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20260301T100000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
                "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20260301T100000Z\r\nRRULE:FREQ=SOMETIMES\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
            ]
            for body in bad {
                let response = try await Self.put(client, path, body, token: tokens.accessToken)
                #expect(response.status == .badRequest && response.errorCode == "invalid_icalendar", "\(body.prefix(60)): \(response.text)")
            }
            var headers: HTTPFields = [.contentType: "text/calendar", .authorization: "Bearer \(tokens.accessToken)"]
            let invalidUTF8 = try await client.execute(uri: path, method: .put, headers: headers, body: ByteBuffer(bytes: [0x42, 0xFF, 0xFE])) { $0 }
            #expect(invalidUTF8.status == .badRequest)
            let huge = try await client.execute(uri: path, method: .put, headers: headers,
                                                body: ByteBuffer(repeating: UInt8(ascii: "a"), count: CalendarObjectContent.maxBytes + 10)) { $0 }
            #expect(huge.status == .contentTooLarge)
            headers[.contentType] = "application/json"
            #expect(try await client.execute(uri: path, method: .put, headers: headers, body: ByteBuffer(string: "{}")) { $0 }.status == .unsupportedMediaType)
            #expect(try await client.send(.get, path, token: tokens.accessToken).status == .notFound)
            for query in ["", "?start=2026-03-01", "?start=yesterday&end=2026-03-02", "?start=2026-03-02&end=2026-03-01", "?start=2026-01-01&end=2027-06-01"] {
                let response = try await client.send(.get, "/api/v1/events\(query)", token: tokens.accessToken)
                #expect(response.status == .badRequest && response.errorCode == "invalid_query", "\(query)")
            }
            let stranger = try await client.signIn("stranger2@example.com", harness: harness)
            #expect(try await Self.put(client, path, CalendarObjectAPITests.ics(uid: "s", summary: "x", start: "20260301T100000"), token: stranger.accessToken).status == .notFound)
        }
    }
}
