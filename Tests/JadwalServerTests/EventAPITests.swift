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
                (#"{"title": "x", "start": "2026-11-23T13:00", "end": "2026-11-23T12:00"}"#, "'end' must not be before"),
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

    struct Instances: Decodable {
        struct Item: Decodable { let object: String; let recurrenceId: String?; let start: String; let summary: String? }
        let events: [Item]
    }

    @Test("a scoped edit or delete of a repeating event: this (RECURRENCE-ID), following (UNTIL and a new series), all; each reaches sync-collection",
          arguments: TestEnvironment.engines)
    func scopes(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let user = try await DAVUser.make("series@example.com", harness: harness, client: client)
            let token = try await client.signIn("series@example.com", harness: harness).accessToken
            let calendars = try await client.send(.get, "/api/v1/calendars", token: token).json(Calendars.self).calendars
            let personal = try #require(calendars.first { $0.slug == "personal" })
            let base = "/api/v1/calendars/\(personal.id)/events"
            let created = try await client.send(.post, base, json: """
                {"title": "Class", "start": "2026-11-02T18:00", "end": "2026-11-02T19:00", "timeZone": "Asia/Riyadh", "rrule": "FREQ=WEEKLY;COUNT=4"}
                """, token: token).json(View.self)
            let href = user.calendar("personal") + created.name
            func instances() async throws -> [Instances.Item] {
                try await client.send(.get, "/api/v1/events?start=2026-11-01&end=2026-12-31", token: token).json(Instances.self).events
            }
            let before = try await instances()
            #expect(before.map(\.recurrenceId) == ["2026-11-02T15:00:00Z", "2026-11-09T15:00:00Z", "2026-11-16T15:00:00Z", "2026-11-23T15:00:00Z"])
            var syncToken = try #require(try ParsedMultistatus(try await client.dav(.report, user.calendar("personal"), as: user, body: CalDAVSyncTests.sync(nil))).syncToken)
            func changedSince() async throws -> [String] {
                let answer = try ParsedMultistatus(try await client.dav(.report, user.calendar("personal"), as: user, body: CalDAVSyncTests.sync(syncToken)))
                syncToken = try #require(answer.syncToken)
                return answer.hrefs.sorted()
            }

            // This event: the instance of 9 November moves an hour later.
            let one = try await client.send(.put, "\(base)/\(created.name)?scope=this&occurrence=2026-11-09T15:00:00Z", json: """
                {"title": "Class (room 2)", "start": "2026-11-09T19:00", "end": "2026-11-09T20:00", "timeZone": "Asia/Riyadh"}
                """, token: token)
            #expect(one.status == .ok, "\(one.text)")
            #expect(try await changedSince() == [href])
            let ics = try await client.dav(.get, href, as: user).text
            #expect(ics.contains("RECURRENCE-ID;TZID=Asia/Riyadh:20261109T180000") && ics.contains("RRULE:FREQ=WEEKLY;COUNT=4"), "\(ics)")
            #expect(try await instances().map(\.summary) == ["Class", "Class (room 2)", "Class", "Class"])

            // This and following from 16 November: 201 with the new series; both objects reach the next sync.
            let following = try await client.send(.put, "\(base)/\(created.name)?scope=following&occurrence=2026-11-16T15:00:00Z", json: """
                {"title": "Class (new term)", "start": "2026-11-16T17:00", "end": "2026-11-16T18:00", "timeZone": "Asia/Riyadh", "rrule": "FREQ=WEEKLY;COUNT=4"}
                """, token: token)
            #expect(following.status == .created, "\(following.text)")
            let newSeries = try following.json(View.self)
            #expect(newSeries.uid != created.uid && newSeries.event.rrule == "FREQ=WEEKLY;COUNT=2")
            #expect(try await changedSince() == [href, user.calendar("personal") + newSeries.name].sorted())
            #expect(try await client.dav(.get, href, as: user).text.contains("RRULE:FREQ=WEEKLY;UNTIL=20261116T145959Z"))
            #expect(try await instances().map(\.start) == ["2026-11-02T15:00:00Z", "2026-11-09T16:00:00Z", "2026-11-16T14:00:00Z", "2026-11-23T14:00:00Z"])

            // Delete this one (EXDATE), then the old series' following (nothing left before the first: the object goes).
            let deleted = try await client.send(.delete, "\(base)/\(newSeries.name)?scope=this&occurrence=2026-11-23T14:00:00Z", token: token)
            #expect(deleted.status == .noContent, "\(deleted.text)")
            #expect(try await client.dav(.get, user.calendar("personal") + newSeries.name, as: user).text.contains("EXDATE;TZID=Asia/Riyadh:20261123T170000"))
            #expect(try await changedSince() == [user.calendar("personal") + newSeries.name])
            #expect(try await client.send(.delete, "\(base)/\(created.name)?scope=following&occurrence=2026-11-02T15:00:00Z", token: token).status == .noContent)
            #expect(try await client.send(.get, "\(base)/\(created.name)", token: token).status == .notFound)
            #expect(try await instances().map(\.start) == ["2026-11-16T14:00:00Z"])

            // Bad input: each a 400 that says what to send.
            for (method, query, fragment) in [
                (HTTPRequest.Method.put, "?scope=sometimes", "'scope' must be this, following or all"),
                (.put, "?scope=this", "needs 'occurrence'"),
                (.put, "?scope=this&occurrence=2026-11-17T14:00:00Z", "no instance starting at"),
                (.delete, "?scope=following&occurrence=soon", "'occurrence' must be an instant"),
                (.delete, "?scope=everything", "'scope' must be"),
            ] {
                let answer = try await client.send(method, "\(base)/\(newSeries.name)\(query)", json: #"{"title": "x", "start": "2026-11-16T17:00"}"#, token: token)
                #expect(answer.status == .badRequest && answer.text.contains(fragment), "\(query): \(answer.text)")
            }
        }
    }

    @Test("an event's own colour (COLOR) and categories, a deadline (zero length), and the category filter on events and to-dos",
          arguments: TestEnvironment.engines)
    func labels(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let user = try await DAVUser.make("labels@example.com", harness: harness, client: client)
            let token = try await client.signIn("labels@example.com", harness: harness).accessToken
            let calendars = try await client.send(.get, "/api/v1/calendars", token: token).json(Calendars.self).calendars
            let personal = try #require(calendars.first { $0.slug == "personal" })
            let base = "/api/v1/calendars/\(personal.id)/events"

            let match = try await client.send(.post, base, json: """
                {"title": "Match", "start": "2026-11-23T18:00", "timeZone": "Asia/Riyadh", "color": "Turquoise", "categories": ["Family", " Sport ", "family"]}
                """, token: token)
            #expect(match.status == .created, "\(match.text)")
            let matchView = try match.json(View.self)
            #expect(matchView.event.color == "turquoise" && matchView.event.categories == ["Family", "Sport"])
            let ics = try await client.dav(.get, user.calendar("personal") + matchView.name, as: user).text
            #expect(ics.contains("COLOR:turquoise") && ics.contains("CATEGORIES:Family,Sport"), "\(ics)")

            // A deadline: the end is the start. An all-day event still needs a day.
            let deadline = try await client.send(.post, base, json: """
                {"title": "Tax return", "start": "2026-11-24T17:00", "end": "2026-11-24T17:00", "timeZone": "Asia/Riyadh", "categories": ["Work"]}
                """, token: token)
            #expect(deadline.status == .created, "\(deadline.text)")
            #expect(try await client.send(.post, base, json: #"{"title": "x", "start": "2026-11-24", "end": "2026-11-24", "allDay": true}"#, token: token)
                .status == .badRequest)

            struct Events: Decodable {
                struct Item: Decodable { let summary: String?; let eventColor: String?; let categories: [String]; let deadline: Bool; let start: String; let end: String }
                let events: [Item]
            }
            let all = try await client.send(.get, "/api/v1/events?start=2026-11-23&end=2026-11-25", token: token).json(Events.self).events
            #expect(all.map(\.summary) == ["Match", "Tax return"])
            #expect(all.first?.eventColor == "turquoise" && all.first?.deadline == false)
            #expect(all.last?.deadline == true && all.last?.start == all.last?.end && all.last?.start == "2026-11-24T14:00:00Z")
            let family = try await client.send(.get, "/api/v1/events?start=2026-11-23&end=2026-11-25&category=FAMILY", token: token).json(Events.self).events
            #expect(family.map(\.summary) == ["Match"], "categories match without case")
            #expect(try await client.send(.get, "/api/v1/events?start=2026-11-23&end=2026-11-25&category=Chess", token: token).json(Events.self).events.isEmpty)

            // Clearing: an edit without them removes them (the draft describes the whole event).
            let plain = try await client.send(.put, "\(base)/\(matchView.name)", json: #"{"title": "Match", "start": "2026-11-23T18:00"}"#, token: token)
            #expect(try plain.json(View.self).event.color == nil && (try plain.json(View.self).event.categories ?? []).isEmpty)

            for (body, fragment) in [
                (##"{"title": "x", "start": "2026-11-23T13:00", "color": "#ff0000"}"##, "'color' must be a CSS3 colour name"),
                (#"{"title": "x", "start": "2026-11-23T13:00", "categories": [""]}"#, "'categories' must be"),
                (#"{"title": "x", "start": "2026-11-23T13:00", "categories": ["\#(String(repeating: "a", count: 101))"]}"#, "'categories' must be"),
            ] {
                let refused = try await client.send(.post, base, json: body, token: token)
                #expect(refused.status == .badRequest && refused.text.contains(fragment), "\(body): \(refused.text)")
            }
            let long = String(repeating: "x", count: 101)
            #expect(try await client.send(.get, "/api/v1/events?start=2026-11-23&end=2026-11-25&category=\(long)", token: token).status == .badRequest)

            // To-dos: the same categories and filter; null removes them.
            struct Task: Decodable { let name: String; let title: String?; let categories: [String]? }
            struct Tasks: Decodable { let tasks: [Task] }
            let milk = try await client.send(.post, "/api/v1/tasks", json: #"{"title": "Buy milk", "categories": ["Errands"]}"#, token: token)
            #expect(milk.status == .created, "\(milk.text)")
            _ = try await client.send(.post, "/api/v1/tasks", json: #"{"title": "Read"}"#, token: token)
            let errands = try await client.send(.get, "/api/v1/tasks?category=errands", token: token).json(Tasks.self).tasks
            #expect(errands.map(\.title) == ["Buy milk"] && errands.first?.categories == ["Errands"])
            let milkName = try milk.json(Task.self).name
            #expect(try await client.send(.put, "/api/v1/tasks/\(milkName)", json: #"{"categories": null}"#, token: token).status == .ok)
            #expect(try await client.send(.get, "/api/v1/tasks?category=errands", token: token).json(Tasks.self).tasks.isEmpty)
            #expect(try await client.send(.post, "/api/v1/tasks", json: #"{"title": "x", "categories": [" "]}"#, token: token).status == .badRequest)
        }
    }

    @Test("the events list as the calendar views read it: each instance's open conflicts, to-dos due with include=todos, hidden calendars left out with shown=true; calendars say whether they are hidden and what they hold",
          arguments: TestEnvironment.engines)
    func asTheViewsSeeIt(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine, configure: { $0.workers = 0 }) { harness, client in
            let (user, token) = try await ChatAPITests.omar(harness, client)
            struct Listed: Decodable { let id: String; let slug: String; let hidden: Bool; let eventCount: Int; let todoCount: Int; let revision: Int64 }
            struct Listing: Decodable { let calendars: [Listed] }
            func listed(_ slug: String) async throws -> Listed {
                try #require(try await client.send(.get, "/api/v1/calendars", token: token).json(Listing.self).calendars.first { $0.slug == slug })
            }
            #expect(try await client.putICS(user.calendar("personal") + "dinner.ics", as: user, ICS.event(uid: "dinner", summary: "Dinner", start: "20261123T180000")).status == .created)
            #expect(try await client.putICS(user.calendar("personal") + "call.ics", as: user, ICS.event(uid: "call", summary: "Call", start: "20261123T183000")).status == .created)
            #expect(try await client.putICS(user.calendar("tasks") + "dates.ics", as: user, ICS.todo(uid: "dates", summary: "Buy dates", due: "20261123T170000Z")).status == .created)
            #expect(try await client.putICS(user.calendar("tasks") + "later.ics", as: user, ICS.todo(uid: "later", summary: "Later", due: "20261130T170000Z")).status == .created)
            try await ConflictAPITests.runJobs(harness)
            let conflict = try #require(try await ConflictAPITests.conflicts(client, token: token).first)

            struct Events: Decodable {
                struct Item: Decodable { let object: String; let summary: String?; let conflicts: [String] }
                struct Todo: Decodable { let object: String; let title: String?; let dueDate: String; let due: String?; let done: Bool; let canComplete: Bool }
                let events: [Item]
                let todos: [Todo]?
            }
            let day = "/api/v1/events?start=2026-11-23&end=2026-11-24"
            let plain = try await client.send(.get, day, token: token).json(Events.self)
            #expect(plain.events.map(\.object) == ["dinner.ics", "call.ics"] && plain.todos == nil)
            #expect(plain.events.first { $0.object == conflict.event.name }?.conflicts == [conflict.id], "the badge lands on the instance the conflict names")
            let others = plain.events.filter { $0.object != conflict.event.name }
            #expect(others.count == 1 && others.allSatisfy { $0.conflicts.isEmpty })
            let withTodos = try await client.send(.get, day + "&include=todos", token: token).json(Events.self)
            #expect(withTodos.todos?.map(\.object) == ["dates.ics"] && withTodos.todos?.first?.dueDate == "2026-11-23", "only the day's to-do: \(String(describing: withTodos.todos))")
            #expect(withTodos.todos?.first?.due == "2026-11-23T17:00:00Z" && withTodos.todos?.first?.done == false && withTodos.todos?.first?.canComplete == true)

            // Hidden from the views: the calendar and its sync stay as they are.
            let before = try await listed("personal")
            #expect(!before.hidden && before.eventCount == 2 && before.todoCount == 0)
            #expect(try await listed("tasks").todoCount == 2)
            let hidden = try await client.send(.patch, "/api/v1/calendars/\(before.id)", json: #"{"hidden": true}"#, token: token)
            #expect(hidden.status == .ok, "\(hidden.text)")
            let after = try await listed("personal")
            #expect(after.hidden && after.revision == before.revision, "hiding changes no calendar property, so phones have nothing to sync")
            #expect(try await client.send(.get, day + "&shown=true", token: token).json(Events.self).events.isEmpty)
            #expect(try await client.send(.get, day, token: token).json(Events.self).events.count == 2, "the API still lists every calendar unless asked")
            #expect(try await client.send(.patch, "/api/v1/calendars/\(before.id)", json: ##"{"hidden": false, "color": "#FF0000"}"##, token: token).status == .ok)
            let shown = try await listed("personal")
            #expect(!shown.hidden && shown.revision > before.revision)

            for (query, fragment) in [("&shown=yes", "'shown' must be true or false"), ("&include=notes", "'include' takes 'todos'")] {
                let refused = try await client.send(.get, day + query, token: token)
                #expect(refused.status == .badRequest && refused.text.contains("invalid_query") && refused.text.contains(fragment), "\(refused.text)")
            }
        }
    }

    @Test("duplicating an event: a new UID and name, everything else kept (repeats, overrides, alarm, colour), into this or another calendar; it syncs",
          arguments: TestEnvironment.engines)
    func duplicate(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let user = try await DAVUser.make("copies@example.com", harness: harness, client: client)
            let token = try await client.signIn("copies@example.com", harness: harness).accessToken
            let calendars = try await client.send(.get, "/api/v1/calendars", token: token).json(Calendars.self).calendars
            let personal = try #require(calendars.first { $0.slug == "personal" })
            let tasks = try #require(calendars.first { $0.slug == "tasks" })
            let base = "/api/v1/calendars/\(personal.id)/events"
            let original = try await client.send(.post, base, json: """
                {"title": "Lesson", "start": "2026-11-23T16:00", "timeZone": "Asia/Riyadh", "rrule": "FREQ=WEEKLY;COUNT=3", "alarmMinutesBefore": 10,
                 "color": "teal", "categories": ["School"]}
                """, token: token).json(View.self)
            #expect(try await client.send(.put, "\(base)/\(original.name)?scope=this&occurrence=2026-11-30T13:00:00Z",
                                          json: #"{"title": "Lesson (exam)", "start": "2026-11-30T16:00"}"#, token: token).status == .ok)
            let syncToken = try #require(try ParsedMultistatus(try await client.dav(.report, user.calendar("personal"), as: user, body: CalDAVSyncTests.sync(nil))).syncToken)

            let copied = try await client.send(.post, "\(base)/\(original.name)/duplicate", token: token)
            #expect(copied.status == .created, "\(copied.text)")
            let copy = try copied.json(View.self)
            #expect(copy.uid != original.uid && copy.name != original.name)
            #expect(copy.event.title == "Lesson" && copy.event.rrule == "FREQ=WEEKLY;COUNT=3" && copy.event.alarmMinutesBefore == 10)
            #expect(copy.event.color == "teal" && copy.event.categories == ["School"])
            let ics = try await client.dav(.get, user.calendar("personal") + copy.name, as: user).text
            #expect(ics.contains("RECURRENCE-ID;TZID=Asia/Riyadh:20261130T160000") && ics.contains("SUMMARY:Lesson (exam)"), "the override comes along")
            #expect(!ics.contains(original.uid) && !ics.contains("SEQUENCE:"), "\(ics)")
            let changed = try ParsedMultistatus(try await client.dav(.report, user.calendar("personal"), as: user, body: CalDAVSyncTests.sync(syncToken)))
            #expect(changed.hrefs == [user.calendar("personal") + copy.name])

            // Into another calendar: one that holds events; a task list or a stranger's id is refused.
            let work = try await client.send(.post, "/api/v1/calendars", json: #"{"displayName": "Work"}"#, token: token)
            struct Made: Decodable { let id: String }
            let workID = try work.json(Made.self).id
            let moved = try await client.send(.post, "\(base)/\(original.name)/duplicate", json: #"{"calendarId": "\#(workID)"}"#, token: token)
            #expect(moved.status == .created, "\(moved.text)")
            #expect(try await client.send(.get, "/api/v1/calendars/\(workID)/events/\(try moved.json(View.self).name)", token: token).status == .ok)
            #expect(try await client.send(.post, "\(base)/\(original.name)/duplicate", json: #"{"calendarId": "\#(tasks.id)"}"#, token: token).status == .badRequest)
            let stranger = try await client.send(.post, "\(base)/\(original.name)/duplicate", json: #"{"calendarId": "\#(UUID().uuidString)"}"#, token: token)
            #expect(stranger.status == .badRequest && stranger.text.contains("'calendarId'"))
            #expect(try await client.send(.post, "\(base)/\(original.name)/duplicate", json: #"{"calendarId": 7}"#, token: token).status == .badRequest)
            #expect(try await client.send(.post, "\(base)/nothing.ics/duplicate", token: token).status == .notFound)
        }
    }
}
