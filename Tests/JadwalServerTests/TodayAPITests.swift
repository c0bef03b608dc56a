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

/// Today, upcoming reminders and live calendar views over HTTP: `GET /api/v1/today`, marking a
/// to-do done in place, `/api/v1/reminders` (snooze, change, remove, seen by a phone over CalDAV),
/// and the notification stream's `calendar` event when something changes elsewhere.
@Suite("Today, reminders and live views over HTTP")
struct TodayAPITests {
    struct DayJSON: Decodable {
        struct Item: Decodable {
            let kind: String
            let title: String?
            let start: String?
            let untimed: Bool
            let calendarId: String?
            let object: String?
            let conflicts: [String]?
            let prayer: String?
            let dueDate: String?
            let done: Bool?
            let overdue: Bool?
            let etag: String?
            let canComplete: Bool?
        }
        let date: String
        let today: Bool
        let timeZone: String
        let prayerTimes: Bool
        let items: [Item]
    }

    struct ReminderJSON: Decodable {
        let id: String
        let calendarId: String
        let object: String
        let etag: String
        let title: String?
        let fireAt: String
        let minutesBefore: Int?
        let snoozed: Bool
        let repeating: Bool
    }

    struct ReminderListJSON: Decodable { let days: Int; let reminders: [ReminderJSON] }
    struct Written: Decodable { let object: String; let etag: String }
    struct Done: Decodable { let name: String; let etag: String; let done: Bool }
    struct CalendarsJSON: Decodable {
        struct Item: Decodable { let id: String; let slug: String }
        let calendars: [Item]
    }

    static let monday8am = Date(timeIntervalSince1970: 1_795_410_000)

    static func calendarID(_ client: some TestClientProtocol, _ slug: String, token: String) async throws -> String {
        let answer = try await client.send(.get, "/api/v1/calendars", token: token)
        return try #require(try answer.json(CalendarsJSON.self).calendars.first { $0.slug == slug }?.id)
    }

    static func today(_ client: some TestClientProtocol, _ query: String = "", token: String) async throws -> DayJSON {
        let answer = try await client.send(.get, "/api/v1/today" + query, token: token)
        try #require(answer.status == .ok, "\(answer.text)")
        return try answer.json(DayJSON.self)
    }

    @Test("GET /api/v1/today lists the day in order; a to-do is marked done and not done; bad input is a clear 4xx", arguments: TestEnvironment.engines)
    func today(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine, clock: TestClock(Self.monday8am), configure: { $0.workers = 0 }) { harness, client in
            let (user, token) = try await ChatAPITests.omar(harness, client)
            _ = try await client.putICS(user.calendar("personal") + "dinner.ics", as: user, ICS.event(uid: "dinner", summary: "Dinner", start: "20261123T190000"))
            _ = try await client.putICS(user.calendar("personal") + "call.ics", as: user, ICS.event(uid: "call", summary: "Call", start: "20261123T193000"))
            try await ConflictAPITests.runJobs(harness)
            let task = try await TaskAPITests.create(client, #"{"title": "Pay rent", "due": "2026-11-23T17:00"}"#, token: token)
            _ = try await TaskAPITests.create(client, #"{"title": "Renew passport", "due": "2026-11-20"}"#, token: token)
            let put = try await client.send(.put, "/api/v1/prayer-settings", json: #"{"city": "Riyadh"}"#, token: token)
            try #require(put.status == .ok, "\(put.text)")

            let day = try await Self.today(client, token: token)
            #expect(day.date == "2026-11-23" && day.today && day.timeZone == "Asia/Riyadh" && day.prayerTimes)
            #expect(day.items.filter { $0.kind != "prayer" }.map { $0.title ?? "" } == ["Renew passport", "Pay rent", "Dinner", "Call"], "\(day.items.map(\.title))")
            #expect(day.items.filter { $0.kind == "prayer" }.map { $0.prayer ?? "" } == ["fajr", "dhuhr", "asr", "maghrib", "isha"])
            let passport = try #require(day.items.first)
            #expect(passport.kind == "todo" && passport.untimed && passport.overdue == true && passport.dueDate == "2026-11-20" && passport.done == false)
            let callConflicts = day.items.first { $0.title == "Call" }?.conflicts ?? []
            #expect(!callConflicts.isEmpty, "the clash is marked: \(day.items.map { ($0.title, $0.conflicts) })")
            let rent = try #require(day.items.first { $0.title == "Pay rent" })
            #expect(rent.canComplete == true && rent.etag == task.etag)

            // Done, in place: the to-do's calendar and name, under the ETag shown.
            let tasks = try #require(rent.calendarId), name = try #require(rent.object)
            let path = "/api/v1/calendars/\(tasks)/todos/\(name)"
            let done = try await client.send(.patch, path, json: #"{"done": true}"#, token: token, headers: [.ifMatch: task.etag])
            try #require(done.status == .ok, "\(done.text)")
            let answer = try done.json(Done.self)
            #expect(answer.done && answer.etag != task.etag && done.headers[.eTag] == answer.etag)
            #expect(try await client.dav(.get, user.calendar("tasks") + name, as: user).text.contains("STATUS:COMPLETED"), "a phone sees it")
            #expect(try await Self.today(client, token: token).items.first { $0.title == "Pay rent" }?.done == true)
            let stale = try await client.send(.patch, path, json: #"{"done": false}"#, token: token, headers: [.ifMatch: task.etag])
            #expect(stale.status == .preconditionFailed && stale.errorCode == "precondition_failed", "\(stale.text)")
            let undone = try await client.send(.patch, path, json: #"{"done": false}"#, token: token, headers: [.ifMatch: answer.etag])
            #expect(undone.status == .ok && (try? undone.json(Done.self).done) == false)

            // Bad input.
            for query in ["?date=tomorrow", "?date=2026-13-01", "?date=2026-11-31"] {
                let bad = try await client.send(.get, "/api/v1/today" + query, token: token)
                #expect(bad.status == .badRequest && bad.errorCode == "invalid_query" && bad.text.contains("2026-11-23"), "\(query): \(bad.text)")
            }
            let other = try await Self.today(client, "?date=2026-11-24", token: token)
            #expect(!other.today && other.items.allSatisfy { $0.kind == "prayer" })
            for (body, code) in [(#"{"done": "yes"}"#, "invalid_field"), ("{", "malformed_json"), ("{}", "missing_field")] {
                let bad = try await client.send(.patch, path, json: body, token: token)
                #expect(bad.status == .badRequest && bad.errorCode == code, "\(body): \(bad.text)")
            }
            let missing = try await client.send(.patch, "/api/v1/calendars/\(tasks)/todos/nothing.ics", json: #"{"done": true}"#, token: token)
            #expect(missing.status == .notFound, "\(missing.text)")
            let personal = try await Self.calendarID(client, "personal", token: token)
            let event = try await client.send(.patch, "/api/v1/calendars/\(personal)/todos/dinner.ics", json: #"{"done": true}"#, token: token)
            #expect(event.status == .notFound, "an event is not a to-do: \(event.text)")
            // Someone else's calendar is not there for a stranger.
            let (_, stranger) = try await ChatAPITests.omar(harness, client, email: "stranger@example.com")
            #expect(try await client.send(.patch, path, json: #"{"done": true}"#, token: stranger).status == .notFound)
            #expect(try await client.send(.get, "/api/v1/today").status == .unauthorized)
        }
    }

    @Test("/api/v1/reminders lists the next two weeks; snooze, change and remove are written into the event a phone reads", arguments: TestEnvironment.engines)
    func reminders(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine, clock: TestClock(Self.monday8am), configure: { $0.workers = 0 }) { harness, client in
            let (user, token) = try await ChatAPITests.omar(harness, client)
            let personal = try await Self.calendarID(client, "personal", token: token)
            let created = try await client.send(.post, "/api/v1/calendars/\(personal)/events", json: """
                {"title": "Dentist", "start": "2026-11-24T10:00", "end": "2026-11-24T11:00", "alarmMinutesBefore": 15}
                """, token: token)
            try #require(created.status == .created, "\(created.text)")
            let list = try await client.send(.get, "/api/v1/reminders", token: token)
            try #require(list.status == .ok, "\(list.text)")
            let listed = try list.json(ReminderListJSON.self)
            #expect(listed.days == 14 && listed.reminders.count == 1)
            let dentist = try #require(listed.reminders.first)
            #expect(dentist.title == "Dentist" && dentist.fireAt == "2026-11-24T06:45:00Z" && dentist.minutesBefore == 15 && !dentist.snoozed)

            let changed = try await client.send(.patch, "/api/v1/reminders/\(dentist.id)", json: #"{"minutesBefore": 30}"#, token: token,
                                                headers: [.ifMatch: dentist.etag])
            try #require(changed.status == .ok, "\(changed.text)")
            let written = try changed.json(Written.self)
            let phone = try await client.dav(.get, user.calendar("personal") + written.object, as: user)
            #expect(phone.text.contains("TRIGGER:-PT30M") && phone.headers[.eTag] == written.etag, "\(phone.text)")
            let stale = try await client.send(.patch, "/api/v1/reminders/\(dentist.id)", json: #"{"minutesBefore": 20}"#, token: token,
                                              headers: [.ifMatch: dentist.etag])
            #expect(stale.status == .preconditionFailed, "\(stale.text)")

            let current = try #require(try await client.send(.get, "/api/v1/reminders", token: token).json(ReminderListJSON.self).reminders.first)
            for body in ["{}", #"{"minutes": 10, "tomorrow": true}"#, #"{"until": "soon"}"#] {
                let bad = try await client.send(.post, "/api/v1/reminders/\(current.id)/snooze", json: body, token: token)
                #expect(bad.status == .badRequest && bad.errorCode == "invalid_field", "\(body): \(bad.text)")
            }
            for body in [#"{"minutes": 0}"#, #"{"until": "2020-01-01T00:00:00Z"}"#] {
                let bad = try await client.send(.post, "/api/v1/reminders/\(current.id)/snooze", json: body, token: token)
                #expect(bad.status == .badRequest && bad.errorCode == "invalid_field" && bad.text.contains("tomorrow"), "\(body): \(bad.text)")
            }
            let snoozed = try await client.send(.post, "/api/v1/reminders/\(current.id)/snooze", json: #"{"minutes": 10}"#, token: token)
            try #require(snoozed.status == .ok, "\(snoozed.text)")
            let afterSnooze = try await client.dav(.get, user.calendar("personal") + written.object, as: user).text
            #expect(afterSnooze.contains("ACKNOWLEDGED:20261124T063000Z") && afterSnooze.contains("RELATED-TO;RELTYPE=SNOOZE:"), "\(afterSnooze)")
            let snooze = try #require(try await client.send(.get, "/api/v1/reminders", token: token).json(ReminderListJSON.self).reminders.first)
            #expect(snooze.snoozed && snooze.fireAt == "2026-11-24T06:40:00Z" && snooze.minutesBefore == nil)
            let noOffset = try await client.send(.patch, "/api/v1/reminders/\(snooze.id)", json: #"{"minutesBefore": 5}"#, token: token)
            #expect(noOffset.status == .unprocessableContent && noOffset.errorCode == "reminder_is_snoozed", "\(noOffset.text)")
            for body in [#"{"minutesBefore": -5}"#, #"{"minutesBefore": 99999}"#] {
                let bad = try await client.send(.patch, "/api/v1/reminders/\(current.id)", json: body, token: token)
                #expect(bad.status == .badRequest || bad.status == .notFound, "\(body): \(bad.text)")
            }

            let removed = try await client.send(.delete, "/api/v1/reminders/\(snooze.id)", token: token)
            #expect(removed.status == .ok, "\(removed.text)")
            #expect(try await client.send(.get, "/api/v1/reminders", token: token).json(ReminderListJSON.self).reminders.isEmpty)
            let gone = try await client.send(.delete, "/api/v1/reminders/\(snooze.id)", token: token)
            #expect(gone.status == .notFound && gone.text.contains("lists them"), "\(gone.text)")
            #expect(try await client.send(.delete, "/api/v1/reminders/garbage", token: token).status == .notFound)
            let (_, stranger) = try await ChatAPITests.omar(harness, client, email: "stranger@example.com")
            #expect(try await client.send(.post, "/api/v1/reminders/\(current.id)/snooze", json: #"{"minutes": 10}"#, token: stranger).status == .notFound)
        }
    }

    @Test("an open stream hears 'calendar' when a phone, the API or the calendar's owner changes something, without a notification", arguments: TestEnvironment.engines)
    func liveViews(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine, clock: TestClock(Self.monday8am), configure: { $0.workers = 0; $0.streamKeepAlive = .seconds(30) }) { harness, client in
            let (user, token) = try await ChatAPITests.omar(harness, client)
            let port = try #require(client.port)
            let stream = try await EventStreamReader.open(port: port, token: token)
            #expect(await stream.next()?.name == "ready")

            // A phone writes over CalDAV.
            _ = try await client.putICS(user.calendar("personal") + "tea.ics", as: user, ICS.event(uid: "tea", summary: "Tea", start: "20261123T160000"))
            let told = await stream.next(timeout: .seconds(5))
            #expect(told?.name == "calendar" && told?.id == nil, "\(String(describing: told))")
            // Someone shares a calendar with Omar; a change to it reaches his stream too.
            let (_, sara) = try await ChatAPITests.omar(harness, client, email: "sara@example.com")
            let family = try await Self.calendarID(client, "personal", token: sara)
            let shared = try await client.send(.post, "/api/v1/calendars/\(family)/shares", json: #"{"email": "omar@example.com"}"#, token: sara)
            try #require(shared.status == .created, "\(shared.text)")
            struct Share: Decodable { let id: String }
            let shareID = try shared.json(Share.self).id
            #expect(try await client.send(.post, "/api/v1/shares/\(shareID)/accept", json: "{}", token: token).status == .ok)
            var event = await stream.next(timeout: .seconds(5))
            while event?.name == "notification" || event?.name == nil { event = await stream.next(timeout: .seconds(5)) }
            #expect(event?.name == "calendar", "accepting a share changes Omar's views: \(String(describing: event))")
            let made = try await client.send(.post, "/api/v1/calendars/\(family)/events", json: #"{"title": "Family lunch", "start": "2026-11-23T13:00"}"#, token: sara)
            try #require(made.status == .created, "\(made.text)")
            event = await stream.next(timeout: .seconds(5))
            #expect(event?.name == "calendar", "Sara's write to the shared calendar: \(String(describing: event))")
            // Nothing else was sent, and the stream read no notification for it.
            #expect(await stream.next(timeout: .milliseconds(300)) == nil)
            stream.close()
        }
    }
}
