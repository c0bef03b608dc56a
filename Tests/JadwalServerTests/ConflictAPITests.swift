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

/// Conflicts end to end: a phone's CalDAV PUT that overlaps another event becomes a conflict
/// (through the durable job), which the API lists, suggests slots for, and resolves through
/// the write path the phone syncs from.
@Suite("Conflicts over HTTP")
struct ConflictAPITests {
    struct Conflicts: Decodable {
        struct Conflict: Decodable {
            struct Event: Decodable { let name: String; let title: String?; let start: String; let end: String; let etag: String; let recurrenceId: String? }
            struct Overlap: Decodable { let kind: String; let title: String; let overlapMinutes: Int; let name: String?; let prayer: String? }
            struct Day: Decodable {
                struct Block: Decodable { let kind: String; let title: String; let isThisEvent: Bool }
                let date: String
                let blocks: [Block]
            }
            let id: String
            let status: String
            let source: String
            let notify: Bool
            let event: Event
            let overlaps: [Overlap]
            let day: Day?
        }
        let conflicts: [Conflict]
    }

    struct Suggestions: Decodable {
        struct Slot: Decodable { let start: String; let end: String; let explanation: String; let minutesFromOriginal: Int }
        let suggestions: [Slot]
    }

    struct Refusal: Decodable {
        struct Detail: Decodable {
            struct Details: Decodable { let conflict: Conflicts.Conflict?; let currentEtag: String? }
            let code: String
            let message: String
            let details: Details?
        }
        let error: Detail
    }

    /// Runs the queued jobs (the harness has no background workers, so each step is exact).
    static func runJobs(_ harness: ServerHarness) async throws {
        while try await harness.instance.workers.runNextJob(worker: "test") {}
    }

    static func conflicts(_ client: some TestClientProtocol, token: String, all: Bool = false) async throws -> [Conflicts.Conflict] {
        let response = try await client.send(.get, "/api/v1/conflicts" + (all ? "?status=all" : ""), token: token)
        try #require(response.status == .ok, "\(response.text)")
        return try response.json(Conflicts.self).conflicts
    }

    static func resolve(_ client: some TestClientProtocol, _ id: String, _ body: String, token: String) async throws -> TestResponse {
        try await client.send(.post, "/api/v1/conflicts/\(id)/resolve", json: body, token: token)
    }

    @Test("a phone's overlapping PUT is a conflict; suggestions avoid busy time; moving it changes the ETag the phone sees; stale and repeated resolutions are 409s",
          arguments: TestEnvironment.engines)
    func endToEnd(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine, configure: { $0.workers = 0 }) { harness, client in
            let (user, token) = try await ChatAPITests.omar(harness, client)
            let personal = user.calendar("personal")
            #expect(try await client.putICS(personal + "dinner.ics", as: user, ICS.event(uid: "dinner", summary: "Dinner", start: "20261123T180000")).status == .created)
            try await Self.runJobs(harness)
            #expect(try await Self.conflicts(client, token: token).isEmpty, "one event alone conflicts with nothing")

            let put = try await client.putICS(personal + "call.ics", as: user, ICS.event(uid: "call", summary: "Call with Sara", start: "20261123T183000"))
            #expect(put.status == .created)
            let putETag = try #require(put.headers[.eTag])
            #expect(try await Self.conflicts(client, token: token).isEmpty, "found by the job, not by the write")
            try await Self.runJobs(harness)
            let found = try await Self.conflicts(client, token: token)
            try #require(found.count == 1, "\(found)")
            let conflict = found[0]
            #expect(conflict.event.name == "call.ics" && conflict.event.title == "Call with Sara" && conflict.source == "caldav" && !conflict.notify)
            #expect(conflict.overlaps.map(\.title) == ["Dinner"] && conflict.overlaps.first?.overlapMinutes == 30 && conflict.overlaps.first?.name == "dinner.ics")
            #expect(conflict.event.start == "2026-11-23T15:30:00Z" && conflict.status == "open")
            #expect(conflict.day?.date == "2026-11-23" && conflict.day?.blocks.map(\.title) == ["Dinner", "Call with Sara"])
            #expect(conflict.day?.blocks.map(\.isThisEvent) == [false, true])

            // Writing the same event again finds the same conflict, not a second one.
            _ = try await client.putICS(personal + "call.ics", as: user, ICS.event(uid: "call", summary: "Call with Sara", start: "20261123T183000"))
            try await Self.runJobs(harness)
            let again = try await Self.conflicts(client, token: token)
            #expect(again.map(\.id) == [conflict.id])

            let suggestions = try await client.send(.get, "/api/v1/conflicts/\(conflict.id)/suggestions?count=3", token: token)
            try #require(suggestions.status == .ok, "\(suggestions.text)")
            let slots = try suggestions.json(Suggestions.self).suggestions
            #expect(slots.count == 3 && slots.allSatisfy { !$0.explanation.isEmpty }, "\(suggestions.text)")
            // 19:00 local (16:00Z), right after dinner, is the nearest free hour on that day.
            #expect(slots.first?.start == "2026-11-23T16:00:00Z" && slots.first?.end == "2026-11-23T17:00:00Z", "\(suggestions.text)")

            // Bad requests name the problem.
            for (body, code) in [(#"{"action": "snooze"}"#, "invalid_field"), (#"{"action": "move"}"#, "invalid_field"),
                                 (#"{"action": "move", "start": "2026-11-23T20:00:00+03:00", "end": "2026-11-23T19:00:00+03:00"}"#, "invalid_field")] {
                let refused = try await Self.resolve(client, conflict.id, body, token: token)
                #expect(refused.status == .badRequest && refused.errorCode == code, "\(body): \(refused.text)")
            }
            #expect(try await Self.resolve(client, UUID().uuidString, #"{"action": "keep"}"#, token: token).status == .notFound)
            let taken = try await Self.resolve(client, conflict.id, #"{"action": "move", "start": "2026-11-23T18:15:00+03:00", "end": "2026-11-23T19:15:00+03:00"}"#, token: token)
            #expect(taken.status == .conflict && taken.errorCode == "slot_taken" && taken.text.contains("Dinner"), "\(taken.text)")

            let slot = try #require(slots.first)
            let moved = try await Self.resolve(client, conflict.id, #"{"action": "move", "start": "\#(slot.start)", "end": "\#(slot.end)"}"#, token: token)
            try #require(moved.status == .ok, "\(moved.text)")
            #expect(try moved.json(Conflicts.Conflict.self).status == "moved")
            let phone = try await client.dav(.get, personal + "call.ics", as: user)
            #expect(phone.headers[.eTag] != putETag && phone.text.contains("DTSTART;TZID=Asia/Riyadh:20261123T190000"), "\(phone.text)")
            #expect(phone.text.contains("SEQUENCE:1"))
            try await Self.runJobs(harness)
            #expect(try await Self.conflicts(client, token: token).isEmpty)
            #expect(try await Self.conflicts(client, token: token, all: true).map(\.status) == ["moved"])

            let twice = try await Self.resolve(client, conflict.id, #"{"action": "keep"}"#, token: token)
            #expect(twice.status == .conflict && twice.errorCode == "already_resolved", "\(twice.text)")

            // The world changes between finding and resolving: a 409 with the state as it is.
            _ = try await client.putICS(personal + "gym.ics", as: user, ICS.event(uid: "gym", summary: "Gym", start: "20261123T174500"))
            try await Self.runJobs(harness)
            let gym = try #require(try await Self.conflicts(client, token: token).first { $0.event.name == "gym.ics" })
            _ = try await client.putICS(personal + "gym.ics", as: user, ICS.event(uid: "gym", summary: "Gym (shorter)", start: "20261123T174500", duration: "PT30M"))
            let stale = try await Self.resolve(client, gym.id, #"{"action": "cancel"}"#, token: token)
            #expect(stale.status == .conflict, "\(stale.text)")
            let detail = try stale.json(Refusal.self).error
            #expect(detail.code == "event_changed" && detail.details?.conflict?.id == gym.id && detail.details?.currentEtag != gym.event.etag, "\(stale.text)")
            #expect(try await client.dav(.get, personal + "gym.ics", as: user).status == .ok, "nothing was cancelled")

            // Keep: acknowledged, not raised again by the next write of the same event.
            try await Self.runJobs(harness)
            let current = try #require(try await Self.conflicts(client, token: token).first { $0.event.name == "gym.ics" })
            #expect(try await Self.resolve(client, current.id, #"{"action": "keep"}"#, token: token).status == .ok)
            _ = try await client.putICS(personal + "gym.ics", as: user, ICS.event(uid: "gym", summary: "Gym (shorter)", start: "20261123T174500", duration: "PT30M"))
            try await Self.runJobs(harness)
            #expect(try await Self.conflicts(client, token: token).isEmpty)

            // Which sources notify is the person's choice; by default only what Jadwal added itself
            // (from a chat, a feed, or another person's invitation).
            let defaults = try await client.send(.get, "/api/v1/conflicts/settings", token: token)
            #expect(defaults.text.contains(#""notifySources":["chat","feed","invitation"]"#) && defaults.text.contains(#""notifyPrayerOverlaps":true"#), "\(defaults.text)")
            let wrong = try await client.send(.put, "/api/v1/conflicts/settings", json: #"{"notifySources": ["fax"]}"#, token: token)
            #expect(wrong.status == .badRequest, "\(wrong.text)")
            let phones = try await client.send(.put, "/api/v1/conflicts/settings", json: #"{"notifySources": ["caldav", "chat"]}"#, token: token)
            #expect(phones.status == .ok && phones.text.contains(#""notifySources":["caldav","chat"]"#), "\(phones.text)")

            // Cancel removes the event; the phone's next GET finds it gone.
            _ = try await client.putICS(personal + "tea.ics", as: user, ICS.event(uid: "tea", summary: "Tea", start: "20261123T183000"))
            try await Self.runJobs(harness)
            let tea = try #require(try await Self.conflicts(client, token: token).first { $0.event.name == "tea.ics" })
            #expect(tea.notify, "a phone's conflicts notify once the person asked for it")
            #expect(try await Self.resolve(client, tea.id, #"{"action": "cancel"}"#, token: token).status == .ok)
            #expect(try await client.dav(.get, personal + "tea.ics", as: user).status == .notFound)

            // Another person sees none of it.
            let (_, other) = try await ChatAPITests.omar(harness, client, email: "someone@example.com")
            #expect(try await Self.conflicts(client, token: other, all: true).isEmpty)
            #expect(try await Self.resolve(client, tea.id, #"{"action": "keep"}"#, token: other).status == .notFound)
        }
    }

    @Test("over a prayer: a conflict to notify; a repeating event's instance is moved with an override, another cancelled with an EXDATE", arguments: TestEnvironment.engines)
    func prayerAndRecurring(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine, configure: { $0.workers = 0 }) { harness, client in
            let (user, token) = try await ChatAPITests.omar(harness, client)
            let settings = try await client.send(.put, "/api/v1/prayer-settings", json: #"{"city": "Riyadh"}"#, token: token)
            try #require(settings.status == .ok, "\(settings.text)")
            // Maghrib in Riyadh on 23 November 2026 is about 17:10; a weekly 17:00 class runs into it.
            let put = try await client.putICS(
                user.calendar("personal") + "class.ics", as: user,
                ICS.event(uid: "class", summary: "Arabic class", start: "20261123T170000", rrule: "FREQ=WEEKLY;COUNT=3"))
            #expect(put.status == .created)
            try await Self.runJobs(harness)
            let found = try await Self.conflicts(client, token: token)
            #expect(found.count == 3, "\(found.map(\.event.start))")
            let first = try #require(found.first)
            #expect(first.notify && first.overlaps.map(\.kind) == ["prayer"] && first.overlaps.first?.prayer == "maghrib")
            #expect(first.event.recurrenceId == "2026-11-23T14:00:00Z")

            // Moving one instance writes an override, as a calendar app does; the series stays.
            let move = try await Self.resolve(client, first.id, #"{"action": "move", "start": "2026-11-23T20:00:00+03:00", "end": "2026-11-23T21:00:00+03:00"}"#, token: token)
            try #require(move.status == .ok, "\(move.text)")
            #expect(try move.json(Conflicts.Conflict.self).status == "moved")
            var ics = try await client.dav(.get, user.calendar("personal") + "class.ics", as: user).text
            #expect(ics.contains("RECURRENCE-ID;TZID=Asia/Riyadh:20261123T170000") && ics.contains("DTSTART;TZID=Asia/Riyadh:20261123T200000"), "\(ics)")
            #expect(ics.components(separatedBy: "RRULE:").count == 2 && ics.components(separatedBy: "BEGIN:VEVENT").count == 3, "\(ics)")
            try await Self.runJobs(harness)
            let left = try await Self.conflicts(client, token: token)
            #expect(left.count == 2 && !left.contains { $0.event.recurrenceId == "2026-11-23T14:00:00Z" }, "\(left.map(\.event.start))")

            // Cancelling another instance excludes it.
            let second = try #require(left.first)
            #expect(try await Self.resolve(client, second.id, #"{"action": "cancel"}"#, token: token).status == .ok)
            ics = try await client.dav(.get, user.calendar("personal") + "class.ics", as: user).text
            #expect(ics.contains("EXDATE;TZID=Asia/Riyadh:20261130T170000"), "\(ics)")
            try await Self.runJobs(harness)
            #expect(try await Self.conflicts(client, token: token).count == 1)
        }
    }
}
