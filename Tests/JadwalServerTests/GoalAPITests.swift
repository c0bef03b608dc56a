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

/// Goals, the two-week plan and the tracker over HTTP: what the routes add to the services
/// (status codes, JSON shapes, every refusal a 4xx that names its field).
@Suite("Goals, plan and tracker over HTTP")
struct GoalAPITests {
    struct Goal: Decodable {
        struct Window: Decodable { let from: String; let to: String }
        let id: String; let title: String; let minutes: Int; let perWeek: Int?; let perDay: Int?; let window: Window; let days: [String]
        let category: String; let minimumGapMinutes: Int; let preferredTime: String?
    }
    struct GoalList: Decodable { let goals: [Goal] }
    struct Item: Decodable {
        struct Event: Decodable { let calendarId: String; let name: String }
        let id: String; let goalId: String?; let title: String; let start: Date; let end: Date; let state: String; let reason: String
        let event: Event?
    }
    struct Plan: Decodable {
        let intensity: String; let proposals: [Item]; let accepted: [Item]
    }
    struct Items: Decodable { let items: [Item] }
    struct ItemStates: Decodable { struct State: Decodable { let state: String }; let items: [State] }
    struct AcceptedAll: Decodable {
        struct Refused: Decodable { let id: String; let code: String; let message: String }
        let accepted: [Item]; let refused: [Refused]
    }
    struct Entry: Decodable { let id: String; let metric: String; let value: Double; let unit: String; let kind: String? }
    struct Summary: Decodable {
        struct Bucket: Decodable { let date: String; let total: Double; let count: Int; let average: Double? }
        struct Streak: Decodable { let current: Int; let longest: Int }
        let metric: String; let unit: String; let period: String; let buckets: [Bucket]; let streak: Streak
    }
    struct FieldError: Decodable {
        struct Body: Decodable { struct Details: Decodable { let field: String }; let code: String; let message: String; let details: Details? }
        let error: Body
    }

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    static func json<T: Decodable>(_ response: TestResponse, _ type: T.Type) throws -> T {
        try decoder().decode(T.self, from: Data(buffer: response.body))
    }

    @Test("goals: the issue's body is accepted; read, changed, deleted; every bad field is a 400 naming it", arguments: TestEnvironment.engines)
    func goals(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine, configure: { $0.workers = 0 }) { harness, client in
            let (_, token) = try await ChatAPITests.omar(harness, client)
            let made = try await client.send(
                .post, "/api/v1/goals", json: #"{"title": "Exercise", "minutes": 45, "perWeek": 3, "window": {"from": "06:00", "to": "09:00"}}"#, token: token)
            try #require(made.status == .created, "\(made.text)")
            let goal = try Self.json(made, Goal.self)
            #expect(goal.title == "Exercise" && goal.minutes == 45 && goal.perWeek == 3 && goal.perDay == nil)
            #expect(goal.window.from == "06:00" && goal.window.to == "09:00" && goal.days == ["MO", "TU", "WE", "TH", "FR", "SA", "SU"])
            harness.clock.advance(by: 1)
            let reading = try await client.send(
                .post, "/api/v1/goals",
                json: #"{"title": "Read", "minutes": 30, "perDay": 1, "window": {"from": "20:00", "to": "23:00"}, "days": ["MO","WE","FR"], "category": "focus"}"#,
                token: token)
            #expect(reading.status == .created, "\(reading.text)")
            #expect(try Self.json(reading, Goal.self).days == ["MO", "WE", "FR"])

            let list = try Self.json(try await client.send(.get, "/api/v1/goals", token: token), GoalList.self)
            #expect(list.goals.map(\.title) == ["Exercise", "Read"])
            #expect(try await client.send(.get, "/api/v1/goals/\(goal.id)", token: token).status == .ok)

            let patched = try await client.send(.patch, "/api/v1/goals/\(goal.id)", json: #"{"perDay": 1, "preferredTime": "morning"}"#, token: token)
            try #require(patched.status == .ok, "\(patched.text)")
            let daily = try Self.json(patched, Goal.self)
            #expect(daily.perDay == 1 && daily.perWeek == nil && daily.preferredTime == "morning" && daily.minutes == 45)

            for (method, path, body, field) in [
                (HTTPRequest.Method.post, "/api/v1/goals", #"{"title": "Run", "minutes": 0, "perWeek": 3, "window": {"from": "06:00", "to": "09:00"}}"#, "minutes"),
                (.post, "/api/v1/goals", #"{"title": "Run", "minutes": 45, "perWeek": 30, "window": {"from": "06:00", "to": "09:00"}}"#, "perWeek"),
                (.post, "/api/v1/goals", #"{"title": "Run", "minutes": 45, "window": {"from": "06:00", "to": "09:00"}}"#, "perWeek"),
                (.post, "/api/v1/goals", #"{"title": "Run", "minutes": 45, "perWeek": 3, "perDay": 1, "window": {"from": "06:00", "to": "09:00"}}"#, "perWeek"),
                (.post, "/api/v1/goals", #"{"title": "Run", "minutes": 45, "perWeek": 3, "window": {"from": "6am", "to": "09:00"}}"#, "window.from"),
                (.post, "/api/v1/goals", #"{"title": "Run", "minutes": 45, "perWeek": 3, "window": {"from": "06:00", "to": "06:30"}}"#, "window.to"),
                (.post, "/api/v1/goals", #"{"title": "Run", "minutes": 45, "perWeek": 3, "window": {"from": "06:00", "to": "09:00"}, "days": ["MO", "XY"]}"#, "days"),
                (.post, "/api/v1/goals", #"{"title": "Run", "minutes": 45, "perWeek": 3, "window": {"from": "06:00", "to": "09:00"}, "days": []}"#, "days"),
                (.post, "/api/v1/goals", #"{"title": "", "minutes": 45, "perWeek": 3, "window": {"from": "06:00", "to": "09:00"}}"#, "title"),
                (.post, "/api/v1/goals", #"{"title": "Run", "minutes": 45, "perWeek": 3, "window": {"from": "06:00", "to": "09:00"}, "category": "x"}"#, "category"),
                (.post, "/api/v1/goals", #"{"title": "Run", "minutes": 45, "perWeek": 3, "window": {"from": "06:00", "to": "09:00"}, "preferredTime": "dusk"}"#, "preferredTime"),
                (.post, "/api/v1/goals", #"{"title": "Run", "minutes": 45, "perWeek": 3, "window": {"from": "06:00", "to": "09:00"}, "minimumGapMinutes": -1}"#, "minimumGapMinutes"),
                (.patch, "/api/v1/goals/\(goal.id)", #"{"perWeek": 2, "perDay": 1}"#, "perWeek"),
                (.patch, "/api/v1/goals/\(goal.id)", #"{"window": {"to": "25:00"}}"#, "window.to"),
            ] {
                let refused = try await client.send(method, path, json: body, token: token)
                #expect(refused.status == .badRequest, "\(body): \(refused.text)")
                let error = try refused.json(FieldError.self).error
                #expect(error.code == "invalid_field" && error.details?.field == field && error.message.contains(field), "\(body): \(refused.text)")
            }
            // Wrong shapes are 400s too, never 500s.
            for body in [#"{"title": "Run", "minutes": "45", "perWeek": 3, "window": {"from": "06:00", "to": "09:00"}}"#,
                         #"{"title": "Run", "minutes": 45, "perWeek": 3}"#, #"{"title": "Run""#, #"[]"#] {
                let refused = try await client.send(.post, "/api/v1/goals", json: body, token: token)
                #expect(refused.status == .badRequest, "\(body): \(refused.text)")
            }
            #expect(try Self.json(try await client.send(.get, "/api/v1/goals", token: token), GoalList.self).goals.count == 2, "nothing written by a refusal")

            // Only the owner sees a goal.
            let (_, other) = try await ChatAPITests.omar(harness, client, email: "someone@example.com")
            #expect(try await client.send(.get, "/api/v1/goals/\(goal.id)", token: other).errorCode == "goal_not_found")
            #expect(try await client.send(.delete, "/api/v1/goals/\(goal.id)", token: other).status == .notFound)

            #expect(try await client.send(.delete, "/api/v1/goals/\(goal.id)", token: token).status == .noContent)
            #expect(try await client.send(.get, "/api/v1/goals/\(goal.id)", token: token).status == .notFound)
            #expect(try await client.send(.patch, "/api/v1/goals/\(goal.id)", json: #"{"title": "x"}"#, token: token).status == .notFound)
        }
    }

    @Test("the plan: proposals with reasons; accept makes an event phones see; reject, accept-all, learning and the questionnaire",
          arguments: TestEnvironment.engines)
    func plan(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine, configure: { $0.workers = 0 }) { harness, client in
            let (user, token) = try await ChatAPITests.omar(harness, client)
            let made = try await client.send(
                .post, "/api/v1/goals", json: #"{"title": "Exercise", "minutes": 45, "perWeek": 3, "window": {"from": "06:00", "to": "09:00"}}"#, token: token)
            let goal = try Self.json(made, Goal.self)

            let planned = try await client.send(.post, "/api/v1/plan/proposals", token: token)
            try #require(planned.status == .ok, "\(planned.text)")
            let plan = try Self.json(planned, Plan.self)
            #expect(plan.intensity == "full" && plan.proposals.count == 6 && plan.accepted.isEmpty)
            #expect(plan.proposals.allSatisfy { $0.goalId == goal.id && $0.state == "proposed" && $0.id.hasPrefix("goal:\(goal.id)@") })
            // Nights are 23:00–07:00 until the questionnaire or a sleep routine says otherwise.
            #expect(plan.proposals[0].reason.hasPrefix("Tuesday 07:00"), "\(plan.proposals[0].reason)")
            let listed = try Self.json(try await client.send(.get, "/api/v1/plan/proposals", token: token), Items.self)
            #expect(listed.items.map(\.id) == plan.proposals.map(\.id))

            // Accept the first, its id escaped as a client may send it: an event in the Goals calendar.
            let first = plan.proposals[0]
            let escaped = first.id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? first.id
            let accepted = try await client.send(.post, "/api/v1/plan/proposals/\(escaped)/accept", token: token)
            try #require(accepted.status == .ok, "\(accepted.text)")
            let item = try Self.json(accepted, Item.self)
            let event = try #require(item.event)
            #expect(item.state == "accepted" && item.id == first.id)
            let phone = try await client.dav(.get, user.calendar("goals") + event.name, as: user)
            #expect(phone.status == .ok && phone.text.contains("SUMMARY:Exercise") && phone.text.contains("X-JADWAL-GOAL:\(goal.id)"), "\(phone.text)")
            let again = try await client.send(.post, "/api/v1/plan/proposals/\(first.id)/accept", token: token)
            #expect(again.status == .conflict && again.errorCode == "already_decided", "\(again.text)")

            let rejected = try await client.send(.post, "/api/v1/plan/proposals/\(plan.proposals[1].id)/reject", token: token)
            #expect(try rejected.status == .ok && Self.json(rejected, Item.self).state == "rejected", "\(rejected.text)")
            #expect(try await client.send(.post, "/api/v1/plan/proposals/goal:nope@1/reject", token: token).errorCode == "proposal_not_found")
            let decided = try Self.json(try await client.send(.get, "/api/v1/plan/proposals?state=all", token: token), Items.self)
            #expect(decided.items.map(\.state).sorted() == ["accepted", "proposed", "proposed", "proposed", "proposed", "rejected"])
            #expect(try await client.send(.get, "/api/v1/plan/proposals?state=maybe", token: token).status == .badRequest)

            // Someone else cannot answer this person's proposals.
            let (_, other) = try await ChatAPITests.omar(harness, client, email: "someone@example.com")
            #expect(try await client.send(.post, "/api/v1/plan/proposals/\(plan.proposals[2].id)/accept", token: other).status == .notFound)

            // A meeting over a waiting proposal: accept-all takes the rest and says why not that one.
            let taken = plan.proposals[2]
            let stamp = ISO8601DateFormatter().string(from: taken.start)
            let calendars = try await client.send(.get, "/api/v1/calendars", token: token).json(EventAPITests.Calendars.self).calendars
            let personal = try #require(calendars.first { $0.slug == "personal" })
            let meeting = try await client.send(
                .post, "/api/v1/calendars/\(personal.id)/events", json: #"{"title": "Meeting", "start": "\#(stamp)", "end": "\#(ISO8601DateFormatter().string(from: taken.end))"}"#,
                token: token)
            try #require(meeting.status == .created, "\(meeting.text)")
            let all = try await client.send(.post, "/api/v1/plan/proposals/accept-all", token: token)
            try #require(all.status == .ok, "\(all.text)")
            let outcome = try Self.json(all, AcceptedAll.self)
            #expect(outcome.accepted.count == 3 && outcome.refused.map(\.code) == ["slot_taken"] && outcome.refused.first?.id == taken.id)
            #expect(outcome.refused.first?.message.contains("Meeting") == true)
            let single = try await client.send(.post, "/api/v1/plan/proposals/\(taken.id)/accept", token: token)
            #expect(single.status == .conflict && single.errorCode == "slot_taken", "\(single.text)")

            #expect(try await client.send(.delete, "/api/v1/plan/learning", token: token).status == .noContent)
            #expect(try await client.send(.delete, "/api/v1/plan/learning?goal=\(goal.id)", token: token).status == .noContent)
            #expect(try await client.send(.delete, "/api/v1/plan/learning?goal=nope", token: token).status == .notFound)

            // The questionnaire: checked, and "off" stops the proposals.
            let refused = try await client.send(.put, "/api/v1/plan/questionnaire", json: #"{"intensity": "lots"}"#, token: token)
            #expect(try refused.status == .badRequest && refused.json(FieldError.self).error.details?.field == "intensity", "\(refused.text)")
            let work = try await client.send(.put, "/api/v1/plan/questionnaire", json: #"{"work": {"start": "09:00", "end": "09:00", "days": "weekdays"}}"#, token: token)
            #expect(try work.status == .badRequest && work.json(FieldError.self).error.details?.field == "work.end", "\(work.text)")
            let saved = try await client.send(.put, "/api/v1/plan/questionnaire", json: #"{"wake": "06:00", "intensity": "off"}"#, token: token)
            #expect(saved.status == .ok && saved.text.contains("\"intensity\":\"off\""), "\(saved.text)")
            #expect(try await client.send(.get, "/api/v1/plan/questionnaire", token: token).text.contains("\"wake\":\"06:00\""))
            let off = try Self.json(try await client.send(.post, "/api/v1/plan/proposals", token: token), Plan.self)
            #expect(off.intensity == "off" && off.proposals.isEmpty && off.accepted.count == 4)
        }
    }

    @Test("tracker: entries added, edited and removed; summaries by period; bad input is a 400 naming its field", arguments: TestEnvironment.engines)
    func tracker(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine, configure: { $0.workers = 0 }) { harness, client in
            let (_, token) = try await ChatAPITests.omar(harness, client)
            let night = try await client.send(
                .post, "/api/v1/tracker/entries", json: #"{"metric": "sleep", "bedtime": "2026-09-20T23:10", "wake": "2026-09-21T06:40"}"#, token: token)
            try #require(night.status == .created, "\(night.text)")
            let entry = try Self.json(night, Entry.self)
            #expect(entry.metric == "sleep" && entry.value == 450 && entry.unit == "min")
            let run = try await client.send(.post, "/api/v1/tracker/entries", json: #"{"metric": "exercise", "kind": "run", "minutes": 30}"#, token: token)
            #expect(run.status == .created, "\(run.text)")

            for (body, field) in [
                (#"{"metric": "sleep", "bedtime": "2026-09-20T23:10"}"#, "wake"),
                (#"{"metric": "sleep", "bedtime": "2026-09-21T23:10", "wake": "2026-09-21T06:40"}"#, "wake"),
                (#"{"metric": "exercise", "minutes": 2000}"#, "minutes"),
                (#"{"metric": "no good", "value": 1, "unit": "x"}"#, "metric"),
                (#"{"metric": "weight", "value": 70}"#, "unit"),
                (#"{"metric": "weight", "value": 70, "unit": "kg", "at": "soon"}"#, "at"),
            ] {
                let refused = try await client.send(.post, "/api/v1/tracker/entries", json: body, token: token)
                #expect(refused.status == .badRequest, "\(body): \(refused.text)")
                let error = try refused.json(FieldError.self).error
                #expect(error.code == "invalid_field" && error.details?.field == field, "\(body): \(refused.text)")
            }
            #expect(try await client.send(.post, "/api/v1/tracker/entries", json: #"{"value": 1}"#, token: token).status == .badRequest)

            let edited = try await client.send(
                .put, "/api/v1/tracker/entries/\(entry.id)", json: #"{"metric": "sleep", "bedtime": "2026-09-20T22:40", "wake": "2026-09-21T06:40"}"#, token: token)
            #expect(try edited.status == .ok && Self.json(edited, Entry.self).value == 480, "\(edited.text)")
            let list = try await client.send(.get, "/api/v1/tracker/entries?metric=sleep", token: token)
            #expect(list.status == .ok && list.text.contains(entry.id), "\(list.text)")
            #expect(try await client.send(.get, "/api/v1/tracker/entries?from=yesterday", token: token).status == .badRequest)

            let summary = try await client.send(.get, "/api/v1/tracker/summary?metric=sleep&period=day&count=7", token: token)
            try #require(summary.status == .ok, "\(summary.text)")
            let days = try Self.json(summary, Summary.self)
            #expect(days.buckets.count == 7 && days.buckets.last?.date == "2026-09-21" && days.buckets.last?.total == 480)
            #expect(days.streak.current == 1 && days.streak.longest == 1 && days.unit == "min")
            for query in ["metric=sleep&period=fortnight", "period=week", "metric=sleep&count=0", "metric=sleep&count=many", "metric=no%20good"] {
                let refused = try await client.send(.get, "/api/v1/tracker/summary?\(query)", token: token)
                #expect(refused.status == .badRequest, "\(query): \(refused.text)")
            }

            let (_, other) = try await ChatAPITests.omar(harness, client, email: "someone@example.com")
            #expect(try await client.send(.delete, "/api/v1/tracker/entries/\(entry.id)", token: other).status == .notFound)
            #expect(try await client.send(.delete, "/api/v1/tracker/entries/\(entry.id)", token: token).status == .noContent)
            #expect(try await client.send(.delete, "/api/v1/tracker/entries/\(entry.id)", token: token).errorCode == "tracker_entry_not_found")
            #expect(try await client.send(.get, "/api/v1/tracker/entries/not-a-uuid", token: token).status == .notFound)
        }
    }
}
