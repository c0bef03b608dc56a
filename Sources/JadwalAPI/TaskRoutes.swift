import Foundation
import Hummingbird
import ICalendar
import JadwalCore
import JadwalHTTP
import Scheduling

/// To-dos as JSON under `/api/v1/tasks`: the account's task list (the "Tasks" calendar iOS
/// Reminders syncs), and "Plan my tasks". Every write goes through `CalendarWrites`, the path
/// CalDAV PUT takes, so synced devices see the change on their next sync.
package struct TaskRoutes: Sendable {
    package let store: any Store
    package let clock: Clock
    /// Where new items' ids come from (`ObjectIdentity`).
    package let random: RandomSource
    package let writes: CalendarWrites
    package let calendars: Calendars
    package let planner: TaskPlanner
    package let tasks: Tasks

    package init(store: any Store, clock: Clock, random: RandomSource, writes: CalendarWrites, calendars: Calendars, planner: TaskPlanner, tasks: Tasks) {
        self.store = store
        self.clock = clock
        self.random = random
        self.writes = writes
        self.calendars = calendars
        self.planner = planner
        self.tasks = tasks
    }

    /// A to-do: its object, the draft fields, and the time planned for it.
    package struct TaskView: Encodable, Sendable {
        package struct PlannedView: Encodable, Sendable {
            package let start: Date
            package let end: Date
            package let name: String
        }

        package let name: String
        package let uid: String
        package let etag: String
        package let draft: TaskDraft
        package let created: Date?
        package let completedAt: Date?
        package let planned: [PlannedView]?

        package enum Keys: String, CodingKey { case name, uid, etag, created, completedAt, planned }

        // The draft's fields sit beside the object's, not under a key of their own.
        package func encode(to encoder: any Encoder) throws {
            try draft.encode(to: encoder)
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(name, forKey: .name)
            try container.encode(uid, forKey: .uid)
            try container.encode(etag, forKey: .etag)
            try container.encodeIfPresent(created, forKey: .created)
            try container.encodeIfPresent(completedAt, forKey: .completedAt)
            try container.encodeIfPresent(planned, forKey: .planned)
        }
    }

    package struct TaskListView: Encodable, Sendable {
        package let sort: String
        package let status: String
        package let tasks: [TaskView]
    }

    package struct PlanView: Encodable, Sendable {
        package struct BlockView: Encodable, Sendable {
            package let task: String
            package let title: String
            package let start: Date
            package let end: Date
            package let name: String
        }
        package struct UnplacedView: Encodable, Sendable {
            package let task: String
            package let title: String
            /// `due-date-passed`, `no-room-before-due` or `no-room-in-horizon`.
            package let reason: String
            package let message: String
        }
        package struct SkippedView: Encodable, Sendable {
            package let task: String
            package let title: String
            package let reason: String
        }
        package let placed: [BlockView]
        package let kept: [BlockView]
        package let removed: [BlockView]
        package let unplaced: [UnplacedView]
        package let skipped: [SkippedView]
    }

    package func addRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.get("tasks") { request, context in
            let account = try context.requireIdentity().account
            let query = request.uri.queryParameters
            let sortText = query.get("sort") ?? TaskList.Order.due.rawValue
            let statusText = query.get("status") ?? TaskList.Filter.open.rawValue
            guard let order = TaskList.Order(rawValue: sortText) else {
                throw APIError.badRequest("invalid_query", "'sort' must be one of \(Self.accepted(TaskList.Order.allCases)), not '\(sortText)'.")
            }
            guard let filter = TaskList.Filter(rawValue: statusText) else {
                throw APIError.badRequest("invalid_query", "'status' must be one of \(Self.accepted(TaskList.Filter.allCases)), not '\(statusText)'.")
            }
            let category = try CalendarObjectRoutes.category(query)
            let views = try await tasks.listed(account: account, order: order, filter: filter, category: category)
                .map { Self.view($0.task, planned: $0.planned) }
            return JSONResponse(TaskListView(sort: order.rawValue, status: filter.rawValue, tasks: views))
        }

        group.post("tasks/plan") { _, context in
            let account = try context.requireIdentity().account
            do {
                return JSONResponse(Self.view(try await planner.plan(account: account)))
            } catch let taken as CalendarSlugTaken {
                throw APIError(.conflict, code: "calendar_slug_taken", message: taken.description.asSentence)
            }
        }

        group.post("tasks") { request, context -> Response in
            let account = try context.requireIdentity().account
            let draft = try await request.decodeJSON(as: TaskDraft.self)
            let now = clock.now
            let list = try await taskList(account: account)
            let identity = ObjectIdentity.new(random: random)
            let (uid, name) = (identity.uid, identity.name)
            let text = try Self.validated { () throws(TaskDraft.Problem) in
                try draft.icalendar(uid: uid, defaultTimeZone: account.timeZone, now: now)
            }
            let saved = try await write(text, name: name, in: list, ifMatch: nil, create: true)
            return try JSONResponse(try await view(saved, account: account), status: .created).response(from: request, context: context)
        }

        group.get("tasks/{name}") { _, context in
            let account = try context.requireIdentity().account
            let (list, name) = try await target(context, account: account)
            return JSONResponse(try await view(try await existing(name, in: list), account: account))
        }

        group.put("tasks/{name}") { request, context in
            let account = try context.requireIdentity().account
            let (list, name) = try await target(context, account: account)
            let draft = try await request.decodeJSON(as: TaskDraft.self)
            let current = try await existing(name, in: list)
            guard current.component == .todo, let parsed = tasks.parsed(current) else {
                throw APIError.badRequest("not_a_task", "'\(name)' is not a to-do; edit it as iCalendar at /api/v1/calendars/{id}/objects/\(name).")
            }
            let text = try Self.validated { () throws(TaskDraft.Problem) in
                try draft.icalendar(uid: current.uid, existing: parsed, defaultTimeZone: account.timeZone, now: clock.now)
            }
            // Without If-Match, the version just read: a change in between is still refused.
            let ifMatch = request.headers[.ifMatch] ?? current.etag
            let saved = try await write(text, name: name, in: list, ifMatch: ifMatch, create: false)
            return JSONResponse(try await view(saved, account: account))
        }

        group.delete("tasks/{name}") { request, context -> Response in
            let account = try context.requireIdentity().account
            let (list, name) = try await target(context, account: account)
            do {
                try await writes.delete(name: name, in: list, ifMatch: request.headers[.ifMatch], source: .api)
            } catch let refusal as CalendarWrites.Refusal {
                if refusal == .notFound { throw APIError.notFound("No task '\(name)'.") }
                throw APIError(refusal, name: name)
            }
            return Response(status: .noContent)
        }
    }

    package static func accepted(_ values: [some RawRepresentable<String>]) -> String {
        values.map { "'\($0.rawValue)'" }.joined(separator: ", ")
    }

    private func taskList(account: Account) async throws -> CalendarCollection {
        do {
            return try await tasks.list(account: account)
        } catch let missing as TaskList.Missing {
            throw APIError(.conflict, code: "task_list_missing", message: missing.description.asSentence)
        }
    }

    private func target(_ context: JadwalRequestContext, account: Account) async throws -> (CalendarCollection, String) {
        guard let name = context.parameters.get("name")?.removingPercentEncoding, CalendarWrites.isValidName(name) else {
            throw APIError(CalendarWrites.Refusal.invalidName, name: "")
        }
        let list = try await tasks.existingList(account: account)
        guard let list else { throw APIError.notFound("No task '\(name)'.") }
        return (list, name)
    }

    private func existing(_ name: String, in list: CalendarCollection) async throws -> CalendarObject {
        guard let object = try await calendars.object(named: name, in: list) else {
            throw APIError.notFound("No task '\(name)'.")
        }
        return object
    }

    private func write(_ text: String, name: String, in list: CalendarCollection, ifMatch: String?, create: Bool) async throws -> CalendarObject {
        try await writes.putFromAPI(text, name: name, in: list, ifMatch: ifMatch, create: create, invalidCode: "invalid_task")
    }

    private func view(_ object: CalendarObject, account: Account) async throws -> TaskView {
        let zone = ZoneRules(ianaIdentifier: account.timeZone) ?? .utc
        guard let task = StoredTask(object: object, parsed: tasks.parsed(object), zone: zone) else {
            throw APIError.badRequest("not_a_task", "'\(object.name)' is not a to-do; read it as iCalendar at /api/v1/calendars/{id}/objects/\(object.name).")
        }
        return Self.view(task, planned: try await tasks.planned(account: account)[task.todo.uid])
    }

    package static func view(_ task: StoredTask, planned: [PlannedTaskBlock]?) -> TaskView {
        let completedAt = task.todo.completed.flatMap { TaskDue.instant($0, resolver: TimeZoneResolver(), zone: .utc) }
        return TaskView(
            name: task.object.name, uid: task.todo.uid, etag: task.object.etag, draft: TaskDraft(todo: task.todo), created: task.created,
            completedAt: task.todo.completed?.isDate == false ? completedAt : nil,
            planned: planned.map { $0.map { TaskView.PlannedView(start: $0.range.start, end: $0.range.end, name: $0.name) } })
    }

    /// A to-do that does not fit, as "Plan my tasks" and the two-week plan both answer it.
    package static func unplacedView(_ unplaced: UnplacedTask) -> PlanView.UnplacedView {
        unplacedView(id: unplaced.task.id, title: unplaced.task.title, reason: unplaced.reason)
    }

    /// The same for a to-do known by its id and title (as the last plan stored it).
    package static func unplacedView(id: String, title: String, reason: UnplacedTask.Reason) -> PlanView.UnplacedView {
        let code = switch reason {
        case .dueDatePassed: "due-date-passed"
        case .noRoomBeforeDue: "no-room-before-due"
        case .noRoomInHorizon: "no-room-in-horizon"
        }
        return PlanView.UnplacedView(task: id, title: title, reason: code, message: UnplacedTask.description(id: id, title: title, reason: reason))
    }

    package static func view(_ outcome: TaskPlanner.Outcome) -> PlanView {
        func blocks(_ list: [TaskPlanner.Block]) -> [PlanView.BlockView] {
            list.map { PlanView.BlockView(task: $0.task, title: $0.title, start: $0.range.start, end: $0.range.end, name: $0.name) }
        }
        return PlanView(
            placed: blocks(outcome.placed), kept: blocks(outcome.kept), removed: blocks(outcome.removed),
            unplaced: outcome.unplaced.map(unplacedView),
            skipped: outcome.skipped.map { PlanView.SkippedView(task: $0.task, title: $0.title, reason: $0.reason) })
    }

    package static func validated(_ body: () throws(TaskDraft.Problem) -> String) throws -> String {
        do {
            return try body()
        } catch {
            throw APIError.badRequest("invalid_field", "Field \(error.description).")
        }
    }
}
