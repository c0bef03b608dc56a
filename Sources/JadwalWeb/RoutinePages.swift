import Foundation
import HTTPTypes
import Hummingbird
import JadwalCore
import JadwalHTTP
import PrayerTimes
import Scheduling

/// Settings › Routines: the daily routines (each one recurring event in the Routine calendar
/// phones sync), the calendar's events that are no routine and why, and the form to add, edit
/// and delete one. Everything goes through `RoutineCalendar`, as the JSON API's routes do.
package enum RoutinePages {
    package static let root = "/settings/routines"

    /// The form's fields, as posted. Days are seven check boxes (`day1` = Monday … `day7` =
    /// Sunday), used when `preset` is `custom`.
    package struct Form: Decodable {
        package var name: String?
        package var kind: String?
        package var preset: String?
        package var day1: String?
        package var day2: String?
        package var day3: String?
        package var day4: String?
        package var day5: String?
        package var day6: String?
        package var day7: String?
        package var start: String?
        package var end: String?
        package var reminder: String?
        package var timeZone: String?
        package var etag: String?

        package var checkedDays: [Int] {
            [day1, day2, day3, day4, day5, day6, day7].enumerated().compactMap { $0.element == nil ? nil : $0.offset + 1 }
        }
    }

    package struct DeleteForm: Decodable {
        package var etag: String?
    }


    /// The day presets, as `DaysOfWeek` names them, and "chosen days".
    package static let presets = ["daily", "weekdays", "weekends", "custom"]

    package static func path(_ id: String) -> String {
        root + "/" + WebPage.pathSegment(id)
    }

    /// The preset a set of days is, or `custom`.
    package static func preset(for days: DaysOfWeek) -> String {
        switch days {
        case .daily: "daily"
        case .weekdays: "weekdays"
        case .weekends: "weekends"
        default: "custom"
        }
    }

    /// The form for a stored routine.
    package static func form(_ stored: StoredRoutine) -> Form {
        let routine = stored.fields.routine
        let days = Set(routine.days.numbers)
        func on(_ day: Int) -> String? { days.contains(day) ? "on" : nil }
        return Form(
            name: routine.name, kind: stored.fields.kind.rawValue, preset: preset(for: routine.days), day1: on(1), day2: on(2), day3: on(3), day4: on(4),
            day5: on(5), day6: on(6), day7: on(7), start: routine.start.description, end: routine.end.description,
            reminder: routine.reminderMinutes.map(String.init) ?? "", timeZone: stored.fields.timeZone, etag: stored.etag)
    }

}

extension RoutinePages.Form {
    /// The routine this form describes; the core checks it (`RoutineDraft.fields`).
    package func draft() throws(FieldProblem) -> RoutineDraft {
        func trimmed(_ text: String?) -> String { (text ?? "").trimmingCharacters(in: .whitespacesAndNewlines) }
        let choice = trimmed(preset)
        let days: HoursDraft.Days = ["daily", "weekdays", "weekends"].contains(choice) ? .named(choice) : .numbers(checkedDays)
        var minutes: Int?
        let reminderText = trimmed(reminder)
        if !reminderText.isEmpty {
            guard let number = Int(reminderText) else { throw FieldProblem(field: "reminder", key: "routinesErrorReminder") }
            minutes = number
        }
        let zone = trimmed(timeZone)
        return RoutineDraft(
            name: name ?? "", start: trimmed(start), end: trimmed(end), days: days, reminderMinutes: minutes, kind: trimmed(kind).isEmpty ? nil : trimmed(kind),
            timeZone: zone.isEmpty ? nil : zone)
    }
}

extension WebRoutes {
    package func addRoutinePages(to group: RouterGroup<JadwalRequestContext>) {
        group.get("settings/routines") { request, context -> Response in
            try await routineListPage(request, context, routines: routines)
        }
        group.get("settings/routines/new") { request, context -> Response in
            let account = try context.requireIdentity().account
            // The questionnaire's answers are the defaults: a sleep routine from bedtime to waking,
            // any other starting when the person wakes.
            let answers = try? (try await planning.answers(account: account)).checked()
            let form: RoutinePages.Form
            if request.uri.queryParameters.get("kind") == RoutineKind.sleep.rawValue {
                let texts = assets.texts(account.language)
                form = RoutinePages.Form(
                    name: texts.text("routinesKind_sleep"), kind: RoutineKind.sleep.rawValue, preset: "daily",
                    start: answers?.sleep?.description ?? "23:00", end: answers?.wake?.description ?? "07:00", timeZone: account.timeZone)
            } else {
                let start = answers?.wake ?? (try? TimeOfDay(hour: 7))
                let end = start.flatMap { try? TimeOfDay(hour: ($0.hour + 1) % 24, minute: $0.minute) }
                form = RoutinePages.Form(kind: "routine", preset: "daily", start: start?.description ?? "07:00", end: end?.description ?? "08:00",
                                         timeZone: account.timeZone)
            }
            return try await routineFormPage(request, context, form: form, editing: nil)
        }
        group.post("settings/routines/new") { request, context -> Response in
            let account = try context.requireIdentity().account
            let form = try context.form(RoutinePages.Form.self)
            return try await saveRoutine(request, context, form: form, editing: nil) {
                _ = try await routines.create(try form.draft(), account: account)
            }
        }
        group.get("settings/routines/{id}") { request, context -> Response in
            let account = try context.requireIdentity().account
            let id = try context.parameters.require("id")
            let stored: StoredRoutine
            do {
                stored = try await routines.routine(id: id, account: account)
            } catch let refusal as RoutineCalendar.Refusal {
                return try await routineMissing(refusal, request, context)
            }
            return try await routineFormPage(request, context, form: RoutinePages.form(stored), editing: id)
        }
        group.post("settings/routines/{id}") { request, context -> Response in
            let account = try context.requireIdentity().account
            let id = try context.parameters.require("id")
            let form = try context.form(RoutinePages.Form.self)
            return try await saveRoutine(request, context, form: form, editing: id) {
                // The ETag the page was made with: a phone's edit since then is not overwritten.
                _ = try await routines.update(id: id, try form.draft(), account: account, ifMatch: form.etag.flatMap { $0.isEmpty ? nil : $0 })
            }
        }
        group.post("settings/routines/{id}/delete") { request, context -> Response in
            let account = try context.requireIdentity().account
            let id = try context.parameters.require("id")
            let form = try context.form(RoutinePages.DeleteForm.self)
            do {
                try await routines.delete(id: id, account: account, ifMatch: form.etag.flatMap { $0.isEmpty ? nil : $0 })
            } catch let refusal as RoutineCalendar.Refusal {
                return try await routineMissing(refusal, request, context)
            } catch CalendarWrites.Refusal.preconditionFailed {
                return WebPage.redirect(RoutinePages.path(id) + "?changed=1")
            }
            return WebPage.redirect(RoutinePages.root)
        }
    }

    /// Saves with `write`, answering a refusal on the form beside its field.
    private func saveRoutine(
        _ request: Request, _ context: JadwalRequestContext, form: RoutinePages.Form, editing: String?, write: () async throws -> Void
    ) async throws -> Response {
        let texts = assets.texts(try context.requireIdentity().account.language)
        let problem: FieldProblem
        do {
            try await write()
            return WebPage.redirect(RoutinePages.root)
        } catch let found as FieldProblem {
            problem = found
        } catch let refusal as RoutineCalendar.Refusal {
            guard case .invalid(let draftProblem) = refusal else { return try await routineMissing(refusal, request, context) }
            problem = FieldProblem(draftProblem)
        } catch let refusal as CalendarWrites.Refusal {
            let key = if case .preconditionFailed = refusal { "routinesErrorChangedElsewhere" } else { "routinesErrorNotSaved" }
            problem = FieldProblem(field: "form", key: key)
        } catch is CalendarSlugTaken {
            problem = FieldProblem(field: "form", key: "routinesErrorNoCalendar")
        }
        return try await routineFormPage(request, context, form: form, editing: editing, errors: [problem.field: texts.text(problem.key)])
    }

    /// Another person's routine, or one deleted meanwhile: not found, said on a page.
    private func routineMissing(_ refusal: RoutineCalendar.Refusal, _ request: Request, _ context: JadwalRequestContext) async throws -> Response {
        let viewer = try await viewer(request, context)
        let texts = assets.texts(viewer.language)
        let (status, message): (HTTPResponse.Status, String) = switch refusal {
        case .notARoutine(_, let reason): (.unprocessableContent, texts.text("routinesNotARoutine", ["reason": reason]))
        case .notFound, .invalid: (.notFound, texts.text("routinesNotFound"))
        }
        return WebPage(template: "problem", title: texts.text("errorTitle"), page: ["message": message, "back": RoutinePages.root], status: status)
            .response(assets, viewer: viewer)
    }

    private func routineListPage(_ request: Request, _ context: JadwalRequestContext, routines: RoutineCalendar) async throws -> Response {
        let account = try context.requireIdentity().account
        let viewer = try await viewer(request, context)
        let texts = assets.texts(viewer.language)
        let (list, others) = try await routines.list(account: account)
        let model = RoutinePageModel(language: account.language, texts: texts)
        let page: [String: Any] = [
            "routines": list.map { model.item($0, accountZone: account.timeZone) }, "isEmpty": list.isEmpty,
            "others": others.map { other -> [String: Any] in
                ["title": other.title ?? texts.text("untitled"), "reason": other.reason,
                 "deleteAction": RoutinePages.path(RoutineCalendar.id(of: other.objectName)) + "/delete"]
            },
            "hasOthers": !others.isEmpty,
        ]
        return WebPage(template: "routines", title: texts.text("routinesTitle"), page: page, stylesheets: ["tasks.css"]).response(assets, viewer: viewer)
    }

    private func routineFormPage(
        _ request: Request, _ context: JadwalRequestContext, form: RoutinePages.Form, editing: String?, errors: [String: String] = [:]
    ) async throws -> Response {
        let account = try context.requireIdentity().account
        let viewer = try await viewer(request, context)
        let texts = assets.texts(viewer.language)
        let model = RoutinePageModel(language: account.language, texts: texts)
        var errors = errors
        if request.uri.queryParameters.get("changed") != nil { errors["form"] = texts.text("routinesErrorChangedElsewhere") }
        var page = model.formValues(form)
        page["errors"] = errors
        page["hasErrors"] = !errors.isEmpty
        page["isNew"] = editing == nil
        page["action"] = editing.map(RoutinePages.path) ?? RoutinePages.root + "/new"
        if let editing { page["deleteAction"] = RoutinePages.path(editing) + "/delete" }
        let title = texts.text(editing == nil ? "routinesAddTitle" : "routinesEditTitle")
        return WebPage(
            template: "routines-form", title: title, page: page, status: errors.isEmpty ? .ok : .unprocessableContent, scripts: ["routines.js"],
            stylesheets: ["tasks.css"]
        ).response(assets, viewer: viewer)
    }
}

/// The routine pages' values: days and times in the person's language.
package struct RoutinePageModel {
    package let language: Language
    package let texts: [String: String]
    /// Clock times formatted on a UTC day, so they read as typed whatever the person's zone.
    private let clock: WebFormats

    package init(language: Language, texts: [String: String]) {
        self.language = language
        self.texts = texts
        clock = WebFormats.shared(language: language, zone: .gmt)
    }

    /// Monday 2026-09-21 and the six days after it: ISO days 1 … 7.
    private static let monday = 20_717

    package func dayName(_ isoDay: Int) -> String { clock.weekday(LocalDate(daysSinceEpoch: Self.monday + isoDay - 1)) }

    package func time(_ time: TimeOfDay) -> String { clock.time(Date(timeIntervalSince1970: TimeInterval(time.minutesSinceMidnight * 60))) }

    package func days(_ days: DaysOfWeek) -> String {
        let preset = RoutinePages.preset(for: days)
        if preset != "custom" { return texts.text("routinesDays_\(preset)") }
        return days.numbers.map(dayName).joined(separator: texts.text("routinesListSeparator"))
    }

    package func reminder(_ minutes: Int?) -> String {
        guard let minutes else { return texts.text("routinesNoReminder") }
        return minutes == 0 ? texts.text("routinesReminderAtStart") : texts.text("routinesReminderBefore", ["count": String(minutes)])
    }

    package func item(_ stored: StoredRoutine, accountZone: String) -> [String: Any] {
        let routine = stored.fields.routine
        var item: [String: Any] = [
            "name": routine.name, "editHref": RoutinePages.path(stored.id), "kind": stored.fields.kind.rawValue,
            "kindLabel": texts.text("routinesKind_\(stored.fields.kind.rawValue)"), "days": days(routine.days),
            "hours": "\(time(routine.start))–\(time(routine.end))", "reminder": reminder(routine.reminderMinutes),
        ]
        if stored.fields.timeZone != accountZone { item["zone"] = stored.fields.timeZone }
        return item
    }

    package func formValues(_ form: RoutinePages.Form) -> [String: Any] {
        let chosenPreset = form.preset ?? "custom"
        // A preset's days are shown ticked, so switching to "chosen days" starts from them.
        let presetDays = chosenPreset == "custom" ? nil : (try? DaysOfWeek(named: chosenPreset))?.numbers
        let checked = Set(presetDays ?? form.checkedDays)
        return [
            "name": form.name ?? "", "start": form.start ?? "", "end": form.end ?? "", "reminder": form.reminder ?? "",
            "timeZone": form.timeZone ?? "", "etag": form.etag ?? "",
            "kinds": RoutineKind.allCases.map { ["value": $0.rawValue, "label": texts.text("routinesKind_\($0.rawValue)"), "selected": $0.rawValue == form.kind] as [String: Any] },
            "presets": RoutinePages.presets.map { preset -> [String: Any] in
                ["value": preset, "label": texts.text("routinesDays_\(preset)"), "checked": preset == chosenPreset,
                 "days": preset == "custom" ? "" : (try? DaysOfWeek(named: preset))?.numbers.map(String.init).joined(separator: " ") ?? ""]
            },
            "days": (1...7).map { ["number": $0, "label": dayName($0), "checked": checked.contains($0)] as [String: Any] },
        ]
    }
}
