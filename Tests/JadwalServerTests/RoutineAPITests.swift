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
import Testing

/// Routines over HTTP: each is one weekly series in the Routine calendar that phones sync; its
/// hours are busy time; a sleep routine and working hours bound the suggested slots.
@Suite("Routines over HTTP")
struct RoutineAPITests {
    struct Routine: Decodable {
        let id: String; let name: String; let start: String; let end: String; let days: [Int]; let reminderMinutes: Int?
        let kind: String; let timeZone: String; let uid: String; let etag: String; let rrule: String
    }
    struct List: Decodable {
        struct Other: Decodable { let name: String; let title: String?; let reason: String }
        let routines: [Routine]
        let otherEvents: [Other]
    }
    struct FieldError: Decodable {
        struct Body: Decodable { struct Details: Decodable { let field: String }; let code: String; let message: String; let details: Details? }
        let error: Body
    }

    static func list(_ client: some TestClientProtocol, token: String) async throws -> List {
        let response = try await client.send(.get, "/api/v1/routines", token: token)
        try #require(response.status == .ok, "\(response.text)")
        return try response.json(List.self)
    }

    static func create(_ client: some TestClientProtocol, _ body: String, token: String) async throws -> Routine {
        let response = try await client.send(.post, "/api/v1/routines", json: body, token: token)
        try #require(response.status == .created, "\(response.text)")
        return try response.json(Routine.self)
    }

    @Test("a routine is one weekly series over CalDAV; editing changes the series in place; bad input names its field",
          arguments: TestEnvironment.engines)
    func lifecycle(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine, configure: { $0.workers = 0 }) { harness, client in
            let (user, token) = try await ChatAPITests.omar(harness, client)
            #expect(try await Self.list(client, token: token).routines.isEmpty)

            // The test clock reads Monday 21 September 2026, 17:13 in Riyadh.
            let gym = try await Self.create(
                client, #"{"name": "Gym", "start": "18:00", "end": "19:30", "days": "weekdays", "reminderMinutes": 15}"#, token: token)
            #expect(gym.days == [1, 2, 3, 4, 5] && gym.kind == "routine" && gym.timeZone == "Asia/Riyadh" && gym.reminderMinutes == 15)
            #expect(gym.rrule == "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")
            let path = user.calendar("routines") + gym.id + ".ics"
            let phone = try await client.dav(.get, path, as: user)
            #expect(phone.status == .ok && phone.headers[.eTag] == gym.etag)
            for line in ["RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "DTSTART;TZID=Asia/Riyadh:20260921T180000", "DTEND;TZID=Asia/Riyadh:20260921T193000",
                         "TRIGGER:-PT15M", "X-JADWAL-ROUTINE:ROUTINE", "SUMMARY:Gym", "BEGIN:VTIMEZONE"] {
                #expect(phone.text.contains(line), "\(line) in \(phone.text)")
            }
            #expect(!phone.text.contains("DURATION"))

            // A night routine ends the next day; Friday and Saturday only.
            let night = try await Self.create(client, #"{"name": "Qiyam", "start": "23:30", "end": "00:15", "days": [5, 6], "kind": "routine"}"#, token: token)
            let nightICS = try await client.dav(.get, user.calendar("routines") + night.id + ".ics", as: user).text
            #expect(nightICS.contains("DTSTART;TZID=Asia/Riyadh:20260925T233000") && nightICS.contains("DTEND;TZID=Asia/Riyadh:20260926T001500"), "\(nightICS)")
            #expect(try await Self.list(client, token: token).routines.map(\.name) == ["Gym", "Qiyam"], "sorted by start")

            // Editing replaces the series: same object and UID, SEQUENCE up, a new ETag.
            let edited = try await client.send(
                .put, "/api/v1/routines/\(gym.id)", json: #"{"name": "Gym", "start": "07:00", "end": "08:00", "days": "weekends"}"#, token: token)
            try #require(edited.status == .ok, "\(edited.text)")
            let after = try edited.json(Routine.self)
            #expect(after.uid == gym.uid && after.etag != gym.etag && after.days == [6, 7] && after.reminderMinutes == nil)
            let editedICS = try await client.dav(.get, path, as: user).text
            #expect(editedICS.contains("RRULE:FREQ=WEEKLY;BYDAY=SA,SU") && editedICS.contains("DTSTART;TZID=Asia/Riyadh:20260926T070000"), "\(editedICS)")
            #expect(editedICS.contains("SEQUENCE:1") && !editedICS.contains("BEGIN:VALARM"), "\(editedICS)")
            #expect(try await Self.list(client, token: token).routines.count == 2, "edited in place, not copied")

            let stale = try await client.send(
                .put, "/api/v1/routines/\(gym.id)", json: #"{"name": "Gym", "start": "07:00", "end": "08:30", "days": "weekends"}"#, token: token,
                headers: [.ifMatch: gym.etag])
            #expect(stale.status == .preconditionFailed, "\(stale.text)")

            for (body, field) in [
                (#"{"name": "Nap", "start": "14:00", "end": "14:00", "days": "daily"}"#, "end"),
                (#"{"name": "Nap", "start": "14:00", "end": "15:00", "days": [0, 8]}"#, "days"),
                (#"{"name": "Nap", "start": "14:00", "end": "15:00", "days": "weekdayz"}"#, "days"),
                (#"{"name": "Nap", "start": "14:00", "end": "15:00", "days": []}"#, "days"),
                (#"{"name": "Nap", "start": "25:00", "end": "15:00", "days": "daily"}"#, "start"),
                (#"{"name": "  ", "start": "14:00", "end": "15:00", "days": "daily"}"#, "name"),
                (#"{"name": "Nap", "start": "14:00", "end": "15:00", "days": "daily", "reminderMinutes": -5}"#, "reminderMinutes"),
                (#"{"name": "Nap", "start": "14:00", "end": "15:00", "days": "daily", "kind": "siesta"}"#, "kind"),
                (#"{"name": "Nap", "start": "14:00", "end": "15:00", "days": "daily", "timeZone": "Mars/Base"}"#, "timeZone"),
            ] {
                let refused = try await client.send(.post, "/api/v1/routines", json: body, token: token)
                #expect(refused.status == .badRequest, "\(body): \(refused.text)")
                let error = try refused.json(FieldError.self).error
                #expect(error.code == "invalid_field" && error.details?.field == field && error.message.contains(field), "\(body): \(refused.text)")
            }
            #expect(try await client.send(.post, "/api/v1/routines", json: #"{"name": "Nap"}"#, token: token).status == .badRequest)
            #expect(try await Self.list(client, token: token).routines.count == 2, "nothing written by a refusal")

            // A phone makes the event monthly: listed as another event, with the reason.
            let monthly = editedICS.replacingOccurrences(of: "RRULE:FREQ=WEEKLY;BYDAY=SA,SU", with: "RRULE:FREQ=MONTHLY")
            #expect(try await client.putICS(path, as: user, monthly).status == .noContent)
            let listed = try await Self.list(client, token: token)
            #expect(listed.routines.map(\.name) == ["Qiyam"] && listed.otherEvents.map(\.title) == ["Gym"], "\(listed)")
            #expect(listed.otherEvents.first?.reason.contains("monthly") == true)
            let unreadable = try await client.send(.get, "/api/v1/routines/\(gym.id)", token: token)
            #expect(unreadable.status == .unprocessableContent && unreadable.errorCode == "not_a_routine", "\(unreadable.text)")

            // Only the owner sees or changes a routine.
            let (_, other) = try await ChatAPITests.omar(harness, client, email: "someone@example.com")
            #expect(try await client.send(.get, "/api/v1/routines/\(night.id)", token: other).errorCode == "routine_not_found")
            #expect(try await client.send(.delete, "/api/v1/routines/\(night.id)", token: other).status == .notFound)

            #expect(try await client.send(.delete, "/api/v1/routines/\(night.id)", token: token).status == .noContent)
            #expect(try await client.send(.get, "/api/v1/routines/\(night.id)", token: token).status == .notFound)
            #expect(try await client.dav(.get, user.calendar("routines") + night.id + ".ics", as: user).status == .notFound)
        }
    }

    @Test("routine hours are busy; sleep and working hours bound suggestions; a calendar can count transparent events as busy",
          arguments: TestEnvironment.engines)
    func busyTime(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine, configure: { $0.workers = 0 }) { harness, client in
            let (user, token) = try await ChatAPITests.omar(harness, client)
            let personal = user.calendar("personal")
            _ = try await Self.create(client, #"{"name": "Gym", "start": "17:00", "end": "18:00", "days": "daily"}"#, token: token)
            try await ConflictAPITests.runJobs(harness)
            harness.clock.advance(by: 1)  // the event is written after the routine: the conflict is the event's

            // An event over the gym hour runs into the routine.
            #expect(try await client.putICS(personal + "call.ics", as: user, ICS.event(uid: "call", summary: "Call", start: "20261123T173000")).status == .created)
            try await ConflictAPITests.runJobs(harness)
            let conflict = try #require(try await ConflictAPITests.conflicts(client, token: token).first { $0.event.name == "call.ics" })
            #expect(conflict.overlaps.map(\.kind) == ["routine"] && conflict.overlaps.first?.title == "Gym" && conflict.overlaps.first?.overlapMinutes == 30)

            // Working hours on weekdays and a sleep routine: every suggestion is inside both.
            let settings = try await client.send(
                .put, "/api/v1/conflicts/settings", json: #"{"workingHours": {"start": "09:00", "end": "17:00", "days": "weekdays"}}"#, token: token)
            try #require(settings.status == .ok, "\(settings.text)")
            #expect(settings.text.contains(#""workingHours":{"#) && settings.text.contains(#""start":"09:00""#), "\(settings.text)")
            let suggestions = try await client.send(.get, "/api/v1/conflicts/\(conflict.id)/suggestions?count=5", token: token)
            try #require(suggestions.status == .ok, "\(suggestions.text)")
            let slots = try suggestions.json(ConflictAPITests.Suggestions.self).suggestions
            #expect(slots.count == 5)
            let formatter = ISO8601DateFormatter()
            var riyadh = Calendar(identifier: .gregorian)
            riyadh.timeZone = try #require(TimeZone(identifier: "Asia/Riyadh"))
            for slot in slots {
                let start = try #require(formatter.date(from: slot.start)), end = try #require(formatter.date(from: slot.end))
                let weekday = riyadh.component(.weekday, from: start)  // 1 = Sunday, 7 = Saturday
                let from = riyadh.component(.hour, from: start), to = riyadh.component(.hour, from: end) * 60 + riyadh.component(.minute, from: end)
                #expect((2...6).contains(weekday) && from >= 9 && to <= 17 * 60, "\(slot.start)–\(slot.end) outside working hours")
            }
            // Without working hours, the evening is offered, but never during sleep (21:00–06:00 here).
            #expect(try await client.send(.put, "/api/v1/conflicts/settings", json: #"{"workingHours": null}"#, token: token).status == .ok)
            _ = try await Self.create(client, #"{"name": "Sleep", "start": "21:00", "end": "06:00", "days": "daily", "kind": "sleep"}"#, token: token)
            let evening = try await client.send(.get, "/api/v1/conflicts/\(conflict.id)/suggestions?count=10", token: token)
            let eveningSlots = try evening.json(ConflictAPITests.Suggestions.self).suggestions
            #expect(!eveningSlots.isEmpty, "\(evening.text)")
            for slot in eveningSlots {
                let start = try #require(formatter.date(from: slot.start))
                let hour = riyadh.component(.hour, from: start)
                #expect(hour >= 6 && hour < 21 && !(17..<18).contains(hour), "\(slot.start): asleep or at the gym")
            }

            // A transparent event is free, unless its calendar says transparent events are busy.
            let calendars = try await client.send(.get, "/api/v1/calendars", token: token).json(CalendarAPITests.List.self).calendars
            let personalID = try #require(calendars.first { $0.slug == "personal" }?.id)
            #expect(try await client.putICS(personal + "focus.ics", as: user, ICS.event(
                uid: "focus", summary: "Focus", start: "20261124T100000", extra: ["TRANSP:TRANSPARENT"])).status == .created)
            #expect(try await client.putICS(personal + "meet.ics", as: user, ICS.event(uid: "meet", summary: "Meet", start: "20261124T103000")).status == .created)
            try await ConflictAPITests.runJobs(harness)
            #expect(try await ConflictAPITests.conflicts(client, token: token).allSatisfy { $0.event.name != "meet.ics" })
            let policy = try await client.send(
                .put, "/api/v1/conflicts/settings", json: #"{"busyPolicies": {"\#(personalID)": {"transparent": true}}}"#, token: token)
            try #require(policy.status == .ok, "\(policy.text)")
            #expect(policy.text.contains(personalID.lowercased()), "\(policy.text)")
            _ = try await client.putICS(personal + "meet.ics", as: user, ICS.event(uid: "meet", summary: "Meet", start: "20261124T103000"))
            try await ConflictAPITests.runJobs(harness)
            let meet = try #require(try await ConflictAPITests.conflicts(client, token: token).first { $0.event.name == "meet.ics" })
            #expect(meet.overlaps.map(\.title) == ["Focus"])

            for body in [#"{"busyPolicies": {"\#(UUID().uuidString)": {"transparent": true}}}"#, #"{"busyPolicies": {"nope": null}}"#,
                         #"{"workingHours": {"start": "09:00", "end": "09:00", "days": "weekdays"}}"#] {
                let refused = try await client.send(.put, "/api/v1/conflicts/settings", json: body, token: token)
                #expect(refused.status == .badRequest && refused.errorCode == "invalid_field", "\(body): \(refused.text)")
            }
        }
    }
}
