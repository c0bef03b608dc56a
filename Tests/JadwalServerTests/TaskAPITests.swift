import Foundation
import HTTPTypes
import HummingbirdTesting
import ICalendar
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
import Scheduling
import Testing

/// To-dos over HTTP: the JSON API over the Tasks calendar (what iOS Reminders syncs), and
/// "Plan my tasks" writing time blocks into Task Time that phones see.
@Suite("Tasks over HTTP")
struct TaskAPITests {
    struct TaskJSON: Decodable {
        struct Planned: Decodable { let start: String; let end: String; let name: String }
        let name: String
        let uid: String
        let etag: String
        let title: String
        let notes: String?
        let due: String?
        let timeZone: String?
        let priority: Int?
        let estimateMinutes: Int?
        let status: String
        let alarmMinutesBefore: Int?
        let created: String?
        let completedAt: String?
        let planned: [Planned]?
    }

    struct TaskListJSON: Decodable { let sort: String; let status: String; let tasks: [TaskJSON] }

    struct PlanJSON: Decodable {
        struct Block: Decodable { let task: String; let title: String; let start: String; let end: String; let name: String }
        struct Unplaced: Decodable { let task: String; let title: String; let reason: String; let message: String }
        struct Skipped: Decodable { let task: String; let title: String; let reason: String }
        let placed: [Block]
        let kept: [Block]
        let removed: [Block]
        let unplaced: [Unplaced]
        let skipped: [Skipped]
    }

    /// Monday 23 November 2026, 08:00 in Riyadh.
    static let monday8am = Date(timeIntervalSince1970: 1_795_410_000)

    static func create(_ client: some TestClientProtocol, _ json: String, token: String) async throws -> TaskJSON {
        let response = try await client.send(.post, "/api/v1/tasks", json: json, token: token)
        try #require(response.status == .created, "\(json): \(response.text)")
        return try response.json(TaskJSON.self)
    }

    static func list(_ client: some TestClientProtocol, _ query: String = "", token: String) async throws -> [TaskJSON] {
        let response = try await client.send(.get, "/api/v1/tasks" + query, token: token)
        try #require(response.status == .ok, "\(query): \(response.text)")
        return try response.json(TaskListJSON.self).tasks
    }

    static func plan(_ client: some TestClientProtocol, token: String) async throws -> PlanJSON {
        let response = try await client.send(.post, "/api/v1/tasks/plan", token: token)
        try #require(response.status == .ok, "\(response.text)")
        return try response.json(PlanJSON.self)
    }

    static func instant(_ text: String) throws -> Date {
        try #require(ISO8601DateFormatter().date(from: text), "\(text) is not an ISO 8601 instant")
    }

    @Test("create, read, edit, complete, reopen and delete to-dos as JSON; CalDAV clients see the same VTODOs", arguments: TestEnvironment.engines)
    func lifecycle(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine, clock: TestClock(Self.monday8am), configure: { $0.workers = 0 }) { harness, client in
            let (user, token) = try await ChatAPITests.omar(harness, client)
            let created = try await Self.create(client, """
                {"title": "  Write report ", "notes": "Sections 2 and 3", "due": "2026-11-25T17:00", "priority": "high",
                 "estimateMinutes": 90, "alarmMinutesBefore": 30}
                """, token: token)
            #expect(created.title == "Write report" && created.notes == "Sections 2 and 3" && created.status == "needs-action")
            #expect(created.due == "2026-11-25T17:00:00" && created.timeZone == "Asia/Riyadh" && created.priority == 1)
            #expect(created.estimateMinutes == 90 && created.alarmMinutesBefore == 30 && created.planned == nil)
            #expect(created.created == "2026-11-23T05:00:00Z" && created.completedAt == nil)

            // An ordinary VTODO in the Tasks calendar, as a phone would have written it.
            let path = user.calendar("tasks") + created.name
            let phone = try await client.dav(.get, path, as: user)
            #expect(phone.status == .ok && phone.headers[.eTag] == created.etag)
            for line in ["BEGIN:VTODO", "DUE;TZID=Asia/Riyadh:20261125T170000", "BEGIN:VTIMEZONE", "PRIORITY:1", "STATUS:NEEDS-ACTION",
                         "X-JADWAL-ESTIMATED-DURATION:PT1H30M", "TRIGGER;RELATED=END:-PT30M", "DESCRIPTION:Sections 2 and 3"] {
                #expect(phone.text.contains(line), "\(line) in \(phone.text)")
            }

            // The phone adds its own property; the API's edits keep it.
            let withSortOrder = phone.text.replacingOccurrences(of: "END:VTODO", with: "X-APPLE-SORT-ORDER:780123456\r\nEND:VTODO")
            let phonePut = try await client.putICS(path, as: user, withSortOrder, headers: [.ifMatch: created.etag])
            try #require(phonePut.status == .noContent, "\(phonePut.text)")

            let stale = try await client.send(.put, "/api/v1/tasks/\(created.name)", json: #"{"status": "completed"}"#, token: token,
                                              headers: [.ifMatch: created.etag])
            #expect(stale.status == .preconditionFailed && stale.errorCode == "precondition_failed", "\(stale.text)")

            harness.clock.advance(by: 120)
            let done = try await client.send(.put, "/api/v1/tasks/\(created.name)", json: #"{"status": "completed"}"#, token: token)
            try #require(done.status == .ok, "\(done.text)")
            let completed = try done.json(TaskJSON.self)
            #expect(completed.status == "completed" && completed.completedAt == "2026-11-23T05:02:00Z" && completed.title == "Write report")
            #expect(completed.priority == 1 && completed.estimateMinutes == 90 && completed.due == "2026-11-25T17:00:00", "unmentioned fields stay")
            let completedICS = try await client.dav(.get, path, as: user).text
            for line in ["STATUS:COMPLETED", "COMPLETED:20261123T050200Z", "PERCENT-COMPLETE:100", "X-APPLE-SORT-ORDER:780123456", "SEQUENCE:1"] {
                #expect(completedICS.contains(line), "\(line) in \(completedICS)")
            }
            #expect(try await Self.list(client, token: token).isEmpty, "open tasks by default")
            #expect(try await Self.list(client, "?status=completed", token: token).map(\.name) == [created.name])

            let reopened = try await client.send(.put, "/api/v1/tasks/\(created.name)", json: #"{"status": "in-process", "due": null, "notes": null}"#, token: token)
            try #require(reopened.status == .ok, "\(reopened.text)")
            let open = try reopened.json(TaskJSON.self)
            #expect(open.status == "in-process" && open.completedAt == nil && open.due == nil && open.notes == nil && open.alarmMinutesBefore == nil)
            let reopenedICS = try await client.dav(.get, path, as: user).text
            #expect(!reopenedICS.contains("COMPLETED:") && !reopenedICS.contains("PERCENT-COMPLETE") && !reopenedICS.contains("DUE"))
            #expect(!reopenedICS.contains("BEGIN:VALARM"), "a reminder before the due date goes with it")
            #expect(reopenedICS.contains("X-APPLE-SORT-ORDER:780123456"))
            #expect(try await Self.list(client, token: token).map(\.status) == ["in-process"])

            let fetched = try await client.send(.get, "/api/v1/tasks/\(created.name)", token: token)
            #expect(fetched.status == .ok && (try? fetched.json(TaskJSON.self).etag) == open.etag)

            // A to-do a phone made is listed too.
            let reminder = """
                BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Apple Inc.//iOS 18.4//EN\r\nBEGIN:VTODO\r\nUID:phone-todo-1\r\nDTSTAMP:20261120T080000Z\r\n\
                CREATED:20261120T080000Z\r\nSUMMARY:Renew passport\r\nDUE;VALUE=DATE:20261130\r\nSTATUS:NEEDS-ACTION\r\nEND:VTODO\r\nEND:VCALENDAR\r\n
                """
            #expect(try await client.putICS(user.calendar("tasks") + "phone-todo-1.ics", as: user, reminder).status == .created)
            let listed = try await Self.list(client, token: token)
            #expect(listed.map(\.title) == ["Renew passport", "Write report"], "dated first")
            #expect(listed.first?.due == "2026-11-30" && listed.first?.created == "2026-11-20T08:00:00Z" && listed.first?.priority == nil)

            #expect(try await client.send(.delete, "/api/v1/tasks/\(created.name)", token: token).status == .noContent)
            #expect(try await client.send(.get, "/api/v1/tasks/\(created.name)", token: token).status == .notFound)
            #expect(try await client.send(.delete, "/api/v1/tasks/\(created.name)", token: token).status == .notFound)
            #expect(try await client.send(.put, "/api/v1/tasks/nothing.ics", json: #"{"title": "x"}"#, token: token).status == .notFound)
            #expect(try await client.dav(.get, path, as: user).status == .notFound)

            // Another person sees none of it.
            let (_, other) = try await ChatAPITests.omar(harness, client, email: "someone@example.com")
            #expect(try await Self.list(client, "?status=all", token: other).isEmpty)
            #expect(try await client.send(.get, "/api/v1/tasks/phone-todo-1.ics", token: other).status == .notFound)
            #expect(try await client.send(.delete, "/api/v1/tasks/phone-todo-1.ics", token: other).status == .notFound)
        }
    }

    @Test("sorted by priority, due date or creation; filtered by status", arguments: TestEnvironment.engines)
    func sorting(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine, clock: TestClock(Self.monday8am), configure: { $0.workers = 0 }) { harness, client in
            let (user, token) = try await ChatAPITests.omar(harness, client)
            let phone = """
                BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Apple Inc.//iOS 18.4//EN\r\nBEGIN:VTODO\r\nUID:passport\r\nDTSTAMP:20261101T080000Z\r\n\
                CREATED:20261101T080000Z\r\nSUMMARY:Renew passport\r\nDUE;VALUE=DATE:20261124\r\nPRIORITY:0\r\nEND:VTODO\r\nEND:VCALENDAR\r\n
                """
            #expect(try await client.putICS(user.calendar("tasks") + "passport.ics", as: user, phone).status == .created)
            var names: [String: String] = [:]
            for body in [#"{"title": "Taxes", "priority": 1, "due": "2026-12-01"}"#,
                         #"{"title": "Groceries", "due": "2026-11-24T18:00"}"#,
                         #"{"title": "Gift", "priority": "low"}"#,
                         #"{"title": "Dentist", "priority": "Medium", "due": "2026-11-24"}"#,
                         #"{"title": "Call mum", "priority": 1}"#] {
                harness.clock.advance(by: 10)
                let task = try await Self.create(client, body, token: token)
                names[task.title] = task.name
            }
            #expect(try await Self.list(client, "?sort=priority", token: token).map(\.title)
                == ["Taxes", "Call mum", "Dentist", "Gift", "Groceries", "Renew passport"])
            #expect(try await Self.list(client, "?sort=due", token: token).map(\.title)
                == ["Groceries", "Dentist", "Renew passport", "Taxes", "Call mum", "Gift"])
            #expect(try await Self.list(client, "?sort=created", token: token).map(\.title)
                == ["Call mum", "Dentist", "Gift", "Groceries", "Taxes", "Renew passport"])
            #expect(try await Self.list(client, token: token).map(\.title) == ["Groceries", "Dentist", "Renew passport", "Taxes", "Call mum", "Gift"],
                    "by due date unless asked")

            let gift = try #require(names["Gift"]), dentist = try #require(names["Dentist"])
            #expect(try await client.send(.put, "/api/v1/tasks/\(gift)", json: #"{"status": "completed"}"#, token: token).status == .ok)
            #expect(try await client.send(.put, "/api/v1/tasks/\(dentist)", json: #"{"status": "cancelled"}"#, token: token).status == .ok)
            #expect(try await Self.list(client, "?sort=priority", token: token).map(\.title) == ["Taxes", "Call mum", "Groceries", "Renew passport"])
            #expect(try await Self.list(client, "?status=completed", token: token).map(\.title) == ["Gift"])
            let all = try await client.send(.get, "/api/v1/tasks?status=all&sort=created", token: token)
            let allList = try all.json(TaskListJSON.self)
            #expect(allList.sort == "created" && allList.status == "all")
            #expect(allList.tasks.map(\.title) == ["Call mum", "Dentist", "Gift", "Groceries", "Taxes", "Renew passport"])
            #expect(allList.tasks.map(\.status) == ["needs-action", "cancelled", "completed", "needs-action", "needs-action", "needs-action"])
        }
    }

    @Test("bad input is a 400 naming the field or the accepted values", arguments: TestEnvironment.engines)
    func badInput(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine, clock: TestClock(Self.monday8am), configure: { $0.workers = 0 }) { harness, client in
            let (_, token) = try await ChatAPITests.omar(harness, client)
            let cases: [(String, String, String)] = [
                ("{}", "invalid_field", "'title' is required"),
                (#"{"title": "   "}"#, "invalid_field", "'title'"),
                (#"{"title": "x", "priority": 12}"#, "invalid_field", "'priority'"),
                (#"{"title": "x", "priority": "urgent"}"#, "invalid_field", "'priority'"),
                (#"{"title": "x", "priority": true}"#, "invalid_field", "'priority'"),
                (#"{"title": "x", "estimateMinutes": 0}"#, "invalid_field", "'estimateMinutes'"),
                (#"{"title": "x", "estimateMinutes": 10081}"#, "invalid_field", "'estimateMinutes'"),
                (#"{"title": "x", "estimateMinutes": "lots"}"#, "invalid_field", "'estimateMinutes'"),
                (#"{"title": "x", "due": "tomorrow"}"#, "invalid_field", "'due'"),
                (#"{"title": "x", "due": "2026-02-30"}"#, "invalid_field", "'due'"),
                (#"{"title": "x", "due": "2026-11-25T17:00", "timeZone": "Mars/Olympus"}"#, "invalid_field", "'timeZone'"),
                (#"{"title": "x", "status": "done"}"#, "invalid_field", "'status'"),
                (#"{"title": "x", "alarmMinutesBefore": 30}"#, "invalid_field", "'alarmMinutesBefore' needs a 'due'"),
                (#"{"title": "x", "due": "2026-11-25", "alarmMinutesBefore": -5}"#, "invalid_field", "'alarmMinutesBefore'"),
                (#"{"title": "x", "notes": "\#(String(repeating: "n", count: 10_001))"}"#, "invalid_field", "'notes'"),
                ("{\"title\": ", "malformed_json", "not valid JSON"),
            ]
            for (body, code, fragment) in cases {
                let response = try await client.send(.post, "/api/v1/tasks", json: body, token: token)
                #expect(response.status == .badRequest && response.errorCode == code, "\(body.prefix(80)): \(response.text)")
                #expect(response.text.contains(fragment), "\(body.prefix(80)): \(response.text)")
            }
            let task = try await Self.create(client, #"{"title": "Valid"}"#, token: token)
            for (body, fragment) in [(#"{"title": null}"#, "'title' cannot be null"), (#"{"status": null}"#, "'status' cannot be null")] {
                let response = try await client.send(.put, "/api/v1/tasks/\(task.name)", json: body, token: token)
                #expect(response.status == .badRequest && response.text.contains(fragment), "\(body): \(response.text)")
            }
            let sort = try await client.send(.get, "/api/v1/tasks?sort=size", token: token)
            #expect(sort.status == .badRequest && sort.errorCode == "invalid_query" && sort.text.contains("'priority', 'due', 'created'"), "\(sort.text)")
            let status = try await client.send(.get, "/api/v1/tasks?status=done", token: token)
            #expect(status.status == .badRequest && status.text.contains("'open', 'completed', 'all'"), "\(status.text)")
            #expect(try await client.send(.get, "/api/v1/tasks").status == .unauthorized)
            #expect(try await client.send(.post, "/api/v1/tasks/plan").status == .unauthorized)
            #expect(try await Self.list(client, token: token).map(\.title) == ["Valid"], "nothing else was written")
        }
    }

    static func isEvent(_ block: BusyBlock, _ title: String) -> Bool {
        if case .event(_, let name) = block.kind { return name == title }
        return false
    }

    /// The busy time the planner must respect, read the way the server reads it, without the
    /// planner's own blocks.
    static func busy(_ harness: ServerHarness, accountID: UUID, in window: TimeRange) async throws -> [BusyBlock] {
        try await harness.instance.store.read { tx in
            guard let account = try await tx.account(id: accountID) else { return [] }
            return try await AccountBusyTime().blocks(account: account, in: window, tx: tx).filter {
                if case .plannedTask = $0.kind { return false }
                return true
            }
        }
    }

    @Test("Plan my tasks: blocks clear of events and prayers, before the due date; re-planning moves only future blocks",
          arguments: TestEnvironment.engines)
    func plan(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine, clock: TestClock(Self.monday8am), configure: { $0.workers = 0 }) { harness, client in
            let (user, firstToken) = try await ChatAPITests.omar(harness, client)
            var token = firstToken
            let settings = try await client.send(.put, "/api/v1/prayer-settings", json: #"{"city": "Riyadh"}"#, token: token)
            try #require(settings.status == .ok, "\(settings.text)")
            // A morning of meetings, 09:00–12:00 in Riyadh.
            #expect(try await client.putICS(user.calendar("personal") + "meeting.ics", as: user,
                                            ICS.event(uid: "meeting", summary: "Board meeting", start: "20261123T090000", duration: "PT3H")).status == .created)

            let report = try await Self.create(client, #"{"title": "Write report", "estimateMinutes": 120, "due": "2026-11-24T12:00", "priority": "high"}"#, token: token)
            let paper = try await Self.create(client, #"{"title": "Read paper", "estimateMinutes": 60, "due": "2026-11-23", "priority": 5}"#, token: token)
            let slides = try await Self.create(client, #"{"title": "Prepare slides", "estimateMinutes": 60, "due": "2026-11-24T18:00"}"#, token: token)
            let late = try await Self.create(client, #"{"title": "Old errand", "estimateMinutes": 30, "due": "2026-11-22T10:00:00Z"}"#, token: token)
            let thesis = try await Self.create(client, #"{"title": "Thesis chapter", "estimateMinutes": 600, "due": "2026-11-23T20:00"}"#, token: token)
            let idea = try await Self.create(client, #"{"title": "Someday idea"}"#, token: token)
            let finished = try await Self.create(client, #"{"title": "Done already", "estimateMinutes": 30, "status": "completed"}"#, token: token)

            let first = try await Self.plan(client, token: token)
            #expect(first.kept.isEmpty && first.removed.isEmpty)
            #expect(Set(first.placed.map(\.task)) == [report.uid, paper.uid, slides.uid], "\(first.placed)")
            #expect(!first.placed.contains { $0.task == finished.uid })
            #expect(first.skipped.map(\.task) == [idea.uid] && first.skipped.first?.reason == "no estimate")
            let unplaced = Dictionary(uniqueKeysWithValues: first.unplaced.map { ($0.task, $0) })
            #expect(unplaced[late.uid]?.reason == "due-date-passed" && unplaced[late.uid]?.message.contains("has passed") == true, "\(first.unplaced)")
            #expect(unplaced[thesis.uid]?.reason == "no-room-before-due" && unplaced[thesis.uid]?.message.contains("Thesis chapter") == true)
            #expect(unplaced.count == 2)

            // Against the busy time set up: the meeting and the day's prayers.
            let due = [report.uid: "2026-11-24T09:00:00Z", paper.uid: "2026-11-23T21:00:00Z", slides.uid: "2026-11-24T15:00:00Z"]
            let now = harness.clock.now
            let window = try TimeRange(start: now, end: now.addingTimeInterval(3 * 86_400))
            let busy = try await Self.busy(harness, accountID: user.accountID, in: window)
            #expect(busy.contains { $0.isPrayer } && busy.contains { Self.isEvent($0, "Board meeting") }, "\(busy)")
            var riyadh = Foundation.Calendar(identifier: .gregorian)
            riyadh.timeZone = try #require(TimeZone(identifier: "Asia/Riyadh"))
            var ranges: [TimeRange] = []
            for block in first.placed {
                let range = try TimeRange(start: try Self.instant(block.start), end: try Self.instant(block.end))
                #expect(range.start >= now)
                #expect(range.end <= (try Self.instant(try #require(due[block.task]))), "\(block.title) ends after its due date")
                #expect(!busy.contains { $0.range.overlaps(range) }, "\(block.title) \(range) overlaps \(busy.filter { $0.range.overlaps(range) })")
                #expect(!ranges.contains { $0.overlaps(range) }, "blocks overlap each other")
                let hour = riyadh.component(.hour, from: range.start)
                #expect((7..<23).contains(hour), "\(block.title) starts at \(hour):00, asleep")
                ranges.append(range)
            }

            // Phones see the blocks as events in Task Time, linked to their to-do.
            let reportBlock = try #require(first.placed.first { $0.task == report.uid })
            let event = try await client.dav(.get, user.calendar("planned-tasks") + reportBlock.name, as: user)
            #expect(event.status == .ok, "\(event.text)")
            for line in ["RELATED-TO:\(report.uid)", "X-JADWAL-TASK-PLAN:1", "SUMMARY:Write report", "DTSTART;TZID=Asia/Riyadh:", "BEGIN:VTIMEZONE"] {
                #expect(event.text.contains(line), "\(line) in \(event.text)")
            }
            let listed = try await Self.list(client, token: token)
            #expect(listed.first { $0.uid == report.uid }?.planned?.map(\.name) == [reportBlock.name])
            #expect(listed.first { $0.uid == idea.uid }?.planned == nil)

            // Planning again with nothing changed writes nothing.
            let again = try await Self.plan(client, token: token)
            #expect(again.placed.isEmpty && again.removed.isEmpty, "\(again.placed) \(again.removed)")
            #expect(again.kept.map(\.name).sorted() == first.placed.map(\.name).sorted())
            #expect(try await client.dav(.get, user.calendar("planned-tasks") + reportBlock.name, as: user).headers[.eTag] == event.headers[.eTag])

            // Time passes into the report's block; then something new lands on the slides' block.
            let reportStart = try Self.instant(reportBlock.start)
            harness.clock.advance(by: reportStart.timeIntervalSince(now) + 30 * 60)
            token = try await client.signIn(user.email, harness: harness).accessToken
            let slidesBlock = try #require(first.placed.first { $0.task == slides.uid })
            let slidesStart = try Self.instant(slidesBlock.start)
            try #require(slidesStart > harness.clock.now, "the slides come after the report")
            let clash = riyadh.dateComponents([.year, .month, .day, .hour, .minute], from: slidesStart)
            let clashStart = String(format: "%04d%02d%02dT%02d%02d00", clash.year ?? 0, clash.month ?? 0, clash.day ?? 0, clash.hour ?? 0, clash.minute ?? 0)
            #expect(try await client.putICS(user.calendar("personal") + "call.ics", as: user,
                                            ICS.event(uid: "call", summary: "Call with Sara", start: clashStart, duration: "PT1H")).status == .created)

            let replanned = try await Self.plan(client, token: token)
            let keptNames = Set(replanned.kept.map(\.name))
            #expect(keptNames.contains(reportBlock.name), "a started block stays: \(replanned.kept)")
            #expect(keptNames.contains(try #require(first.placed.first { $0.task == paper.uid }).name), "so does one that is over")
            #expect(replanned.removed.map(\.name) == [slidesBlock.name], "\(replanned.removed)")
            let moved = try #require(replanned.placed.first { $0.task == slides.uid }, "\(replanned.placed)")
            #expect(replanned.placed.count == 1, "the report is not planned twice: \(replanned.placed)")
            let movedRange = try TimeRange(start: try Self.instant(moved.start), end: try Self.instant(moved.end))
            let newBusy = try await Self.busy(harness, accountID: user.accountID, in: window)
            #expect(newBusy.contains { Self.isEvent($0, "Call with Sara") })
            #expect(!newBusy.contains { $0.range.overlaps(movedRange) } && movedRange.start >= harness.clock.now)
            #expect(movedRange.end <= (try Self.instant("2026-11-24T15:00:00Z")))
            #expect(try await client.dav(.get, user.calendar("planned-tasks") + reportBlock.name, as: user).headers[.eTag] == event.headers[.eTag])
            #expect(try await client.dav(.get, user.calendar("planned-tasks") + slidesBlock.name, as: user).status == .notFound)

            // Done with the slides: their future block goes; nothing else moves.
            #expect(try await client.send(.put, "/api/v1/tasks/\(slides.name)", json: #"{"status": "completed"}"#, token: token).status == .ok)
            let afterDone = try await Self.plan(client, token: token)
            #expect(afterDone.removed.map(\.name) == [moved.name] && afterDone.placed.isEmpty, "\(afterDone.removed) \(afterDone.placed)")
            #expect(try await client.dav(.get, user.calendar("planned-tasks") + moved.name, as: user).status == .notFound)
            #expect(try await client.dav(.get, user.calendar("planned-tasks") + reportBlock.name, as: user).status == .ok)

            // A deleted to-do's future block goes too.
            let chores = try await Self.create(client, #"{"title": "Chores", "estimateMinutes": 45}"#, token: token)
            let choresBlock = try #require(try await Self.plan(client, token: token).placed.first { $0.task == chores.uid })
            #expect(try await client.send(.delete, "/api/v1/tasks/\(chores.name)", token: token).status == .noContent)
            #expect(try await Self.plan(client, token: token).removed.map(\.name) == [choresBlock.name])
        }
    }

    @Test("Plan my tasks keeps to working hours and routines", arguments: TestEnvironment.engines)
    func planWithinWorkingHours(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine, clock: TestClock(Self.monday8am), configure: { $0.workers = 0 }) { harness, client in
            let (_, token) = try await ChatAPITests.omar(harness, client)
            let gym = try await client.send(.post, "/api/v1/routines", json: #"{"name": "Gym", "start": "13:00", "end": "14:00", "days": "daily"}"#, token: token)
            try #require(gym.status == .created, "\(gym.text)")
            let settings = try await client.send(
                .put, "/api/v1/conflicts/settings", json: #"{"workingHours": {"start": "12:00", "end": "16:00", "days": "weekdays"}}"#, token: token)
            try #require(settings.status == .ok, "\(settings.text)")
            let task = try await Self.create(client, #"{"title": "Budget", "estimateMinutes": 120}"#, token: token)
            let plan = try await Self.plan(client, token: token)
            // 12:00–13:00 is too short and 13:00–14:00 is the gym: 14:00–16:00 in Riyadh, not 08:00.
            #expect(plan.placed.map(\.task) == [task.uid] && plan.placed.first?.start == "2026-11-23T11:00:00Z"
                && plan.placed.first?.end == "2026-11-23T13:00:00Z", "\(plan.placed)")
        }
    }

    @Test("the python caldav client sees a JSON-made to-do as a VTODO in Tasks, and the API lists one it made")
    func pythonCalDAVClient() async throws {
        guard let python = TestEnvironment.python else {
            if TestEnvironment.isCI { Issue.record("JADWAL_TEST_PYTHON is not set: CI must run the caldav client check") }
            return
        }
        try await ServerHarness.run(clock: TestClock(Self.monday8am), configure: { $0.workers = 0 }) { harness, client in
            let (user, token) = try await ChatAPITests.omar(harness, client)
            let port = try #require(client.port)
            let made = try await Self.create(client, #"{"title": "Buy dates", "due": "2026-11-25T17:00", "estimateMinutes": 20, "priority": 1}"#, token: token)
            let script = """
                import json, sys, caldav
                url, user, password, uid = sys.argv[1:5]
                client = caldav.DAVClient(url=url, username=user, password=password, timeout=60)
                tasks = [c for c in client.principal().calendars() if str(c.url).rstrip('/').endswith('/tasks')]
                assert len(tasks) == 1, [str(c.url) for c in client.principal().calendars()]
                todos = {str(t.icalendar_component['UID']): t.icalendar_component for t in tasks[0].get_todos(include_completed=True)}
                assert uid in todos, list(todos)
                todo = todos[uid]
                tasks[0].add_todo('\\r\\n'.join([
                    'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//python caldav test//EN', 'BEGIN:VTODO', 'UID:from-python-1',
                    'DTSTAMP:20261123T050000Z', 'SUMMARY:Call the plumber', 'PRIORITY:3', 'DUE:20261124T090000Z',
                    'ESTIMATED-DURATION:PT45M', 'END:VTODO', 'END:VCALENDAR', '']))
                print(json.dumps({'summary': str(todo['SUMMARY']), 'due': todo.decoded('DUE').isoformat(),
                                  'estimate': str(todo.get('X-JADWAL-ESTIMATED-DURATION')), 'priority': str(todo['PRIORITY'])}))
                """
            let (status, output) = try await Self.run(python, ["-c", script, "http://127.0.0.1:\(port)/", user.email, user.password, made.uid])
            try #require(status == 0, "python caldav: \(output)")
            let lastLine = try #require(output.split(separator: "\n").last, "python printed nothing")
            let seen = try JSONDecoder().decode([String: String].self, from: Data(lastLine.utf8))
            #expect(seen["summary"] == "Buy dates" && seen["due"] == "2026-11-25T17:00:00+03:00", "\(output)")
            #expect(seen["estimate"] == "PT20M" && seen["priority"] == "1", "\(output)")
            let listed = try await Self.list(client, token: token)
            let plumber = try #require(listed.first { $0.uid == "from-python-1" }, "\(listed.map(\.uid))")
            #expect(plumber.title == "Call the plumber" && plumber.priority == 3 && plumber.estimateMinutes == 45 && plumber.due == "2026-11-24T09:00:00Z")
            #expect(listed.map(\.uid) == ["from-python-1", made.uid])
        }
    }

    /// Runs a process without holding a thread of the server's pool while it works.
    static func run(_ executable: String, _ arguments: [String]) async throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = try TestEnvironment.temporaryDirectory("jadwal-python").appendingPathComponent("out.txt")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = handle
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        try handle.close()
        return (status, try String(contentsOf: output, encoding: .utf8))
    }
}
