import Foundation
import Hummingbird
import ICalendar
import JadwalCore
import JadwalHTTP
import PrayerTimes
import Scheduling

/// The Tasks screen: the to-do list (the "Tasks" calendar iOS Reminders syncs) with its sort
/// and status filters, the add and edit forms, done/reopen, delete, and "Plan my tasks" with
/// where each task was placed. The forms become a `TaskDraft`, the JSON API's description of a
/// to-do, written through the path CalDAV PUT takes; a problem is shown beside its field.
package enum TaskPages {
    /// The add and edit forms' fields, as posted.
    package struct Form: Decodable {
        package var title: String?
        package var priority: String?
        package var dueDate: String?
        package var dueTime: String?
        /// The zone the due time is shown and typed in.
        package var zone: String?
        package var estimate: String?
        package var notes: String?
        /// Categories separated by commas.
        package var categories: String?
        package var etag: String?
        /// The list's sort and filter, kept across the post.
        package var sort: String?
        package var show: String?
    }

    /// The done/reopen button's fields.
    package struct StatusForm: Decodable {
        package var status: String?
        package var etag: String?
        package var sort: String?
        package var show: String?
    }


    /// The priority words a person picks from; the numbers as Apple's apps write them.
    package static let priorities = ["high", "medium", "low", "none"]

    /// RFC 5545's 1 … 9 as the word the form shows: 1–4 high, 5 medium, 6–9 low, 0 or none undefined.
    package static func word(for priority: Int?) -> String {
        switch priority ?? 0 {
        case 1...4: "high"
        case 5: "medium"
        case 6...9: "low"
        default: "none"
        }
    }

    package static func path(_ name: String) -> String {
        "/tasks/" + WebPage.pathSegment(name)
    }

    /// The list's address with its sort and filter.
    package static func listPath(order: TaskList.Order, filter: TaskList.Filter) -> String {
        "/tasks?sort=\(order.rawValue)&status=\(filter.rawValue)"
    }

    /// The form for a stored to-do: the due shown as a wall time in its own zone (or the
    /// person's, for a UTC or floating one).
    package static func form(_ draft: TaskDraft, etag: String, accountZone: String) -> Form {
        var date = "", time = "", zone = draft.timeZone ?? accountZone
        if let due = draft.due {
            date = String(due.prefix(10))
            if let text = WebFormats.wallClock(utc: due, zone: accountZone) {
                zone = accountZone
                (date, time) = (String(text.prefix(10)), String(text.suffix(5)))
            } else if due.count >= 16 {
                time = String(due.dropFirst(11).prefix(5))
            }
        }
        let priority: String? = switch draft.priority {
        case .number(let number): word(for: number)
        case .word(let word): word
        case nil: "none"
        }
        return Form(
            title: draft.title, priority: priority, dueDate: date, dueTime: time, zone: zone,
            estimate: draft.estimateMinutes.map(String.init) ?? "", notes: draft.notes ?? "",
            categories: (draft.categories ?? []).joined(separator: ", "), etag: etag)
    }

}

extension TaskPages.Form {
    /// The draft this form describes. Editing, `shown` is the form as the stored to-do filled it:
    /// a field left as it was is left out of the draft, so what a phone wrote there (priority 3,
    /// a due time with seconds) is kept; a field emptied is cleared.
    package func draft(shown: TaskPages.Form?) throws(FieldProblem) -> TaskDraft {
        let editing = shown != nil
        func trimmed(_ text: String?) -> String { (text ?? "").trimmingCharacters(in: .whitespacesAndNewlines) }
        var draft = TaskDraft(title: title ?? "")

        let choice = trimmed(priority).isEmpty ? "none" : trimmed(priority)
        if choice != shown?.priority {
            if choice == "none" {
                if editing { draft.cleared.insert(.priority) }
            } else {
                draft.priority = .word(choice)
            }
        }

        let date = trimmed(dueDate), time = trimmed(dueTime), zoneName = trimmed(zone)
        if date.isEmpty, !time.isEmpty { throw FieldProblem(field: "dueDate", key: "tasksErrorDueTimeWithoutDate") }
        if date != trimmed(shown?.dueDate) || time != trimmed(shown?.dueTime) || (editing && zoneName != trimmed(shown?.zone)) {
            if date.isEmpty {
                if editing { draft.cleared.insert(.due) }
            } else {
                draft.due = time.isEmpty ? date : "\(date)T\(time)"
                if !zoneName.isEmpty { draft.timeZone = zoneName }
            }
        }

        let minutes = trimmed(estimate)
        if minutes != trimmed(shown?.estimate) {
            if minutes.isEmpty {
                if editing { draft.cleared.insert(.estimateMinutes) }
            } else if let number = Int(minutes) {
                draft.estimateMinutes = number
            } else {
                throw FieldProblem(field: "estimate", key: "tasksErrorEstimate")
            }
        }

        let labels = (categories ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let shownLabels = (shown?.categories ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if labels != shownLabels {
            if labels.isEmpty {
                if editing { draft.cleared.insert(.categories) }
            } else {
                draft.categories = labels
            }
        }

        // A textarea sends CRLF; the notes keep the person's line breaks as iCalendar's LF.
        let text = trimmed(notes).replacingOccurrences(of: "\r\n", with: "\n")
        if text != trimmed(shown?.notes).replacingOccurrences(of: "\r\n", with: "\n") {
            if text.isEmpty {
                if editing { draft.cleared.insert(.notes) }
            } else {
                draft.notes = text
            }
        }
        return draft
    }
}

extension WebRoutes {
    package func addTaskRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.get("tasks") { request, context -> Response in
            let query = request.uri.queryParameters
            return try await tasksPage(
                request, context, sort: query.get("sort"), show: query.get("status"), form: TaskPages.Form(priority: "none"),
                category: query.get("category").map { String($0) })
        }
        group.post("tasks") { request, context -> Response in
            let account = try context.requireIdentity().account
            let form = try context.form(TaskPages.Form.self)
            let texts = assets.texts(account.language)
            let (order, filter) = Self.listChoice(sort: form.sort, show: form.show)
            let identity = ObjectIdentity.new(random: random)
            let (uid, name) = (identity.uid, identity.name)
            do {
                let draft = try form.draft(shown: nil)
                let text = try Self.taskText { () throws(TaskDraft.Problem) in
                    try draft.icalendar(uid: uid, defaultTimeZone: account.timeZone, now: clock.now)
                }
                let list = try await tasks.list(account: account)
                _ = try await writes.put(try CalendarObjectContent(text: text), name: name, in: list, ifMatch: nil, ifNoneMatch: true, source: .api)
            } catch let problem as FieldProblem {
                return try await tasksPage(request, context, sort: form.sort, show: form.show, form: form, errors: [problem.field: texts.text(problem.key)])
            } catch is TaskList.Missing {
                return try await tasksPage(request, context, sort: form.sort, show: form.show, form: form, errors: ["form": texts.text("tasksErrorNoList")])
            } catch is CalendarWrites.Refusal {
                return try await tasksPage(request, context, sort: form.sort, show: form.show, form: form, errors: ["form": texts.text("tasksErrorNotSaved")])
            }
            return WebPage.redirect(TaskPages.listPath(order: order, filter: filter))
        }
        group.post("tasks/plan") { request, context -> Response in
            let account = try context.requireIdentity().account
            let form = try context.form(TaskPages.StatusForm.self)
            let outcome: TaskPlanner.Outcome
            do {
                outcome = try await planner.plan(account: account)
            } catch is CalendarSlugTaken {
                return try await tasksPage(
                    request, context, sort: form.sort, show: form.show, form: TaskPages.Form(priority: "none"),
                    errors: ["plan": assets.texts(account.language).text("tasksErrorNoTaskTime")])
            }
            return try await tasksPage(request, context, sort: form.sort, show: form.show, form: TaskPages.Form(priority: "none"), outcome: outcome)
        }
        group.get("tasks/{name}") { request, context -> Response in
            let (_, task) = try await storedTask(context)
            let account = try context.requireIdentity().account
            return try await taskFormPage(request, context, task: task, form: TaskPages.form(TaskDraft(todo: task.todo), etag: task.object.etag, accountZone: account.timeZone))
        }
        group.post("tasks/{name}") { request, context -> Response in
            let (list, task) = try await storedTask(context)
            let account = try context.requireIdentity().account
            let texts = assets.texts(account.language)
            let form = try context.form(TaskPages.Form.self)
            let shown = TaskPages.form(TaskDraft(todo: task.todo), etag: task.object.etag, accountZone: account.timeZone)
            do {
                let draft = try form.draft(shown: shown)
                let parsed = tasks.parsed(task.object)
                let text = try Self.taskText { () throws(TaskDraft.Problem) in
                    try draft.icalendar(uid: task.todo.uid, existing: parsed, defaultTimeZone: account.timeZone, now: clock.now)
                }
                _ = try await writes.put(
                    try CalendarObjectContent(text: text), name: task.object.name, in: list, ifMatch: form.etag ?? task.object.etag, ifNoneMatch: false,
                    source: .api)
            } catch let problem as FieldProblem {
                return try await taskFormPage(request, context, task: task, form: form, errors: [problem.field: texts.text(problem.key)])
            } catch let refusal as CalendarWrites.Refusal {
                let key = if case .preconditionFailed = refusal { "tasksErrorChangedElsewhere" } else { "tasksErrorNotSaved" }
                return try await taskFormPage(request, context, task: task, form: form, errors: ["form": texts.text(key)])
            }
            return WebPage.redirect("/tasks")
        }
        group.post("tasks/{name}/status") { request, context -> Response in
            let (list, task) = try await storedTask(context)
            let account = try context.requireIdentity().account
            let form = try context.form(TaskPages.StatusForm.self)
            let (order, filter) = Self.listChoice(sort: form.sort, show: form.show)
            let status = form.status == "completed" ? "completed" : "needs-action"
            let parsed = tasks.parsed(task.object)
            do {
                let text = try Self.taskText { () throws(TaskDraft.Problem) in
                    try TaskDraft(status: status).icalendar(uid: task.todo.uid, existing: parsed, defaultTimeZone: account.timeZone, now: clock.now)
                }
                _ = try await writes.put(
                    try CalendarObjectContent(text: text), name: task.object.name, in: list, ifMatch: form.etag ?? task.object.etag, ifNoneMatch: false,
                    source: .api)
            } catch CalendarWrites.Refusal.preconditionFailed {
                return WebPage.redirect(TaskPages.listPath(order: order, filter: filter) + "&changed=1")
            }
            return WebPage.redirect(TaskPages.listPath(order: order, filter: filter))
        }
        group.post("tasks/{name}/delete") { request, context -> Response in
            let (list, task) = try await storedTask(context)
            let form = try context.form(TaskPages.StatusForm.self)
            do {
                try await writes.delete(name: task.object.name, in: list, ifMatch: form.etag, source: .api)
            } catch CalendarWrites.Refusal.preconditionFailed {
                return WebPage.redirect(TaskPages.path(task.object.name) + "?changed=1")
            }
            return WebPage.redirect("/tasks")
        }
    }

    /// The list's sort and filter from the query or a form; anything unknown is the default
    /// (by due date, open ones), as the API's.
    package static func listChoice(sort: String?, show: String?) -> (TaskList.Order, TaskList.Filter) {
        (sort.flatMap(TaskList.Order.init(rawValue:)) ?? .due, show.flatMap(TaskList.Filter.init(rawValue:)) ?? .open)
    }

    /// The to-do's iCalendar text, or the field its problem belongs beside.
    package static func taskText(_ body: () throws(TaskDraft.Problem) -> String) throws(FieldProblem) -> String {
        do {
            return try body()
        } catch {
            throw FieldProblem(error)
        }
    }

    /// The signed-in person's to-do named in the path; anyone else's is not found.
    private func storedTask(_ context: JadwalRequestContext) async throws -> (CalendarCollection, StoredTask) {
        let account = try context.requireIdentity().account
        guard let name = context.parameters.get("name")?.removingPercentEncoding, CalendarWrites.isValidName(name) else {
            throw HTTPError(.notFound, message: "No such task.")
        }
        let found = try await tasks.task(named: name, account: account)
        guard let (list, object) = found,
              let task = StoredTask(object: object, parsed: tasks.parsed(object), zone: ZoneRules(ianaIdentifier: account.timeZone) ?? .utc)
        else { throw HTTPError(.notFound, message: "No such task: it may have been deleted on another device.") }
        return (list, task)
    }

    private func tasksPage(
        _ request: Request, _ context: JadwalRequestContext, sort: String?, show: String?, form: TaskPages.Form, errors: [String: String] = [:],
        outcome: TaskPlanner.Outcome? = nil, category: String? = nil
    ) async throws -> Response {
        let account = try context.requireIdentity().account
        let viewer = try await viewer(request, context)
        let texts = assets.texts(viewer.language)
        let (order, filter) = Self.listChoice(sort: sort, show: show)
        let model = TaskPageModel(
            formats: WebFormats.shared(language: account.language, zone: TimeZone(identifier: account.timeZone) ?? .gmt), texts: texts, now: clock.now)
        let everything = try await tasks.listed(account: account, order: order, filter: filter)
        // `?category=` narrows the list to one tag; the menu offers the tags of the list.
        let category = category.map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        let listed = category.map { wanted in everything.filter { ItemCategories.matches($0.task.todo.source, wanted) } } ?? everything
        var seen = Set<String>()
        var labels = everything.flatMap { ItemCategories.of($0.task.todo.source) }.filter { seen.insert($0.lowercased()).inserted }
            .sorted { $0.localizedStandardCompare($1) == .orderedAscending }
        if let category, !seen.contains(category.lowercased()) { labels.append(category) }
        var page: [String: Any] = [
            "tasks": listed.map { model.item($0.task, planned: $0.planned ?? [], order: order, filter: filter) },
            "isEmpty": listed.isEmpty,
            "emptyText": texts.text(filter == .completed ? "tasksEmptyCompleted" : "tasksEmpty"),
            "sorts": TaskList.Order.allCases.map { ["value": $0.rawValue, "label": texts.text("tasksSort_\($0.rawValue)"), "selected": $0 == order] as [String: Any] },
            "filters": TaskList.Filter.allCases.map { ["value": $0.rawValue, "label": texts.text("tasksShow_\($0.rawValue)"), "selected": $0 == filter] as [String: Any] },
            "sort": order.rawValue, "show": filter.rawValue,
            "categoryOptions": [["value": "", "label": texts.text("categoryAll"), "selected": category == nil] as [String: Any]]
                + labels.map { ["value": $0, "label": $0, "selected": $0.lowercased() == category?.lowercased()] },
            "hasCategoryOptions": !labels.isEmpty,
            "form": model.formValues(form, zone: account.timeZone),
            "errors": errors, "hasErrors": !errors.isEmpty,
        ]
        if let outcome { page["plan"] = model.plan(outcome) }
        if request.uri.queryParameters.get("changed") != nil { page["notice"] = texts.text("tasksErrorChangedElsewhere") }
        let failed = !errors.isEmpty && errors["plan"] == nil
        return WebPage(
            template: "tasks", title: texts.text("tasksTitle"), page: page, status: failed ? .unprocessableContent : .ok, stylesheets: ["tasks.css"]
        ).response(assets, viewer: viewer)
    }

    private func taskFormPage(
        _ request: Request, _ context: JadwalRequestContext, task: StoredTask, form: TaskPages.Form, errors: [String: String] = [:]
    ) async throws -> Response {
        let account = try context.requireIdentity().account
        let viewer = try await viewer(request, context)
        let texts = assets.texts(viewer.language)
        let model = TaskPageModel(
            formats: WebFormats.shared(language: account.language, zone: TimeZone(identifier: account.timeZone) ?? .gmt), texts: texts, now: clock.now)
        var errors = errors
        if request.uri.queryParameters.get("changed") != nil { errors["form"] = texts.text("tasksErrorChangedElsewhere") }
        let path = TaskPages.path(task.object.name)
        let page: [String: Any] = [
            "form": model.formValues(form, zone: account.timeZone), "errors": errors, "hasErrors": !errors.isEmpty,
            "action": path, "deleteAction": path + "/delete", "etag": form.etag ?? task.object.etag,
        ]
        return WebPage(
            template: "tasks-edit", title: texts.text("tasksEditTitle"), page: page, status: errors.isEmpty ? .ok : .unprocessableContent,
            stylesheets: ["tasks.css"]
        ).response(assets, viewer: viewer)
    }
}

/// The Tasks page's values for the templates: dates, times and lengths in the person's
/// language and zone.
package struct TaskPageModel {
    package let formats: WebFormats
    package let texts: [String: String]
    package let now: Date

    /// "45 min", "2 h", "1 h 30 min".
    package func length(minutes: Int) -> String {
        let hours = minutes / 60, rest = minutes % 60
        if hours == 0 { return texts.text("tasksMinutes", ["count": String(rest)]) }
        if rest == 0 { return texts.text("tasksHours", ["count": String(hours)]) }
        return texts.text("tasksHoursMinutes", ["hours": String(hours), "minutes": String(rest)])
    }

    /// "Tue 22 Sep, 17:00", or the day alone.
    package func when(_ instant: Date, withTime: Bool = true) -> String {
        let day = formats.shortDay(formats.localDay(instant))
        return withTime ? texts.text("tasksDayTime", ["day": day, "time": formats.time(instant)]) : day
    }

    /// A block's day, time, and the calendar week it is in.
    package func block(_ range: TimeRange) -> [String: Any] {
        let day = formats.localDay(range.start)
        return ["day": formats.shortDay(day), "time": formats.timeRange(range.start, range.end), "weekHref": "/calendar?view=week&date=\(day)"]
    }

    package func item(_ task: StoredTask, planned: [PlannedTaskBlock], order: TaskList.Order, filter: TaskList.Filter) -> [String: Any] {
        let todo = task.todo
        let title = (todo.title ?? "").isEmpty ? texts.text("untitled") : todo.title ?? ""
        let done = todo.effectiveStatus == .completed
        let priority = TaskPages.word(for: todo.priority)
        var item: [String: Any] = [
            "title": title, "editHref": TaskPages.path(task.object.name), "statusAction": TaskPages.path(task.object.name) + "/status",
            "etag": task.object.etag, "done": done, "nextStatus": done ? "needs-action" : "completed",
            "checkLabel": texts.text(done ? "tasksReopen" : "tasksMarkDone", ["title": title]),
            "cancelled": todo.effectiveStatus == .cancelled,
            "sort": order.rawValue, "show": filter.rawValue,
            "planned": planned.map { block($0.range) },
            "hasPlanned": !planned.isEmpty,
            "categories": ItemCategories.of(todo.source),
        ]
        if priority != "none" {
            item["priority"] = texts.text("tasksPriority_\(priority)")
            item["priorityClass"] = "priority-\(priority)"
        }
        if let due = task.due, let value = todo.due {
            // A date is due by the end of its day; the instant is the next midnight.
            item["due"] = value.isDate ? formats.shortDay(LocalDate(daysSinceEpoch: value.local.date.daysSinceEpoch)) : when(due)
            item["overdue"] = !done && due <= now
        }
        if let estimate = todo.estimate { item["estimate"] = length(minutes: Int((estimate.totalSeconds + 59) / 60)) }
        if let notes = todo.description, !notes.isEmpty { item["notes"] = notes }
        return item
    }

    /// The form's values, with the choices the selects offer.
    package func formValues(_ form: TaskPages.Form, zone: String) -> [String: Any] {
        let chosen = form.priority ?? "none"
        var values: [String: Any] = [
            "title": form.title ?? "", "dueDate": form.dueDate ?? "", "dueTime": form.dueTime ?? "", "zone": form.zone ?? zone,
            "estimate": form.estimate ?? "", "notes": form.notes ?? "", "categories": form.categories ?? "",
            "priorities": TaskPages.priorities.map { ["value": $0, "label": texts.text("tasksPriority_\($0)"), "selected": $0 == chosen] as [String: Any] },
        ]
        if let shown = form.zone, !shown.isEmpty, shown != zone { values["zoneNote"] = texts.text("tasksZoneNote", ["zone": shown]) }
        return values
    }

    /// What "Plan my tasks" did, in words.
    package func plan(_ outcome: TaskPlanner.Outcome) -> [String: Any] {
        func blocks(_ list: [TaskPlanner.Block]) -> [[String: Any]] {
            list.map { planned in self.block(planned.range).merging(["title": planned.title.isEmpty ? texts.text("untitled") : planned.title]) { first, _ in first } }
        }
        let unplaced = outcome.unplaced.map { task -> [String: Any] in
            ["title": task.task.title, "reason": reason(task.reason)]
        }
        let skipped = outcome.skipped.map { task -> [String: Any] in
            let key = task.reason == "no estimate" ? "tasksSkippedNoEstimate" : "tasksSkippedShortEstimate"
            return ["title": task.title, "reason": texts.text(key)]
        }
        let nothing = outcome.placed.isEmpty && outcome.kept.isEmpty && outcome.removed.isEmpty && unplaced.isEmpty && skipped.isEmpty
        return [
            "placed": blocks(outcome.placed), "hasPlaced": !outcome.placed.isEmpty,
            "kept": blocks(outcome.kept), "hasKept": !outcome.kept.isEmpty,
            "removed": blocks(outcome.removed), "hasRemoved": !outcome.removed.isEmpty,
            "unplaced": unplaced, "hasUnplaced": !unplaced.isEmpty,
            "skipped": skipped, "hasSkipped": !skipped.isEmpty,
            "summary": texts.text("tasksPlanSummary", ["placed": String(outcome.placed.count), "kept": String(outcome.kept.count)]),
            "nothing": nothing,
        ]
    }

    /// Why a task found no time, in the person's language.
    package func reason(_ reason: UnplacedTask.Reason) -> String {
        func shortage(needed: TimeInterval, free: TimeInterval, longest: TimeInterval, before: String) -> String {
            let need = length(minutes: Int((needed / 60).rounded(.up))), have = length(minutes: Int((free / 60).rounded(.down)))
            if free >= needed {
                return texts.text("tasksUnplacedPieces", ["needed": need, "free": have, "before": before, "longest": length(minutes: Int((longest / 60).rounded(.up)))])
            }
            return texts.text("tasksUnplacedNoRoom", ["needed": need, "free": have, "before": before])
        }
        switch reason {
        case .dueDatePassed(let due):
            return texts.text("tasksUnplacedPassed", ["due": when(due)])
        case .noRoomBeforeDue(let due, let needed, let free, let longest):
            return shortage(needed: needed, free: free, longest: longest, before: texts.text("tasksBeforeDue", ["due": when(due)]))
        case .noRoomInHorizon(let end, let needed, let free, let longest):
            return shortage(needed: needed, free: free, longest: longest, before: texts.text("tasksBeforeHorizon", ["end": when(end, withTime: false)]))
        }
    }
}
