import Foundation
import Hummingbird
import JadwalCore
import JadwalHTTP
import PrayerTimes

/// The Today screen: one day as one ordered list (`DayAgenda`) — events of every shown calendar,
/// routines, planned task time, prayer times and the to-dos due (and, today, overdue), each to-do
/// marked done or not done where it stands. The page's script marks through the JSON API and
/// keeps the page as it is; without a script the form posts here and comes back to the same place.
package enum TodayPage {
    /// The done / not-done button's fields.
    package struct DoneForm: Decodable {
        package var done: String?
        package var etag: String?
        package var date: String?
    }

    package static func todoPath(calendarID: UUID, name: String) -> String {
        "/today/todos/\(calendarID.uuidString.lowercased())/" + WebPage.pathSegment(name)
    }

    /// The id an entry's row has, so a form post comes back to it.
    package static func anchor(_ entry: DayAgenda.Entry) -> String {
        let name = (entry.objectName ?? "").unicodeScalars.map { CharacterSet.alphanumerics.contains($0) ? String($0) : "-" }.joined()
        return "\(entry.kind.rawValue)-\(name)\(entry.recurrenceID.map { "-" + $0.filter(\.isNumber) } ?? "")"
    }

    /// The link of a conflict badge: the conflicts page at that conflict.
    package static func conflictHref(_ id: UUID) -> String {
        let text = id.uuidString.lowercased()
        return "/conflicts?conflict=\(text)#conflict-\(text)"
    }
}

extension WebRoutes {
    package func addTodayRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.get("today") { request, context -> Response in
            try await todayPage(request, context)
        }
        group.post("today/todos/{calendar}/{name}") { request, context -> Response in
            let account = try context.requireIdentity().account
            let form = try context.form(TodayPage.DoneForm.self)
            guard let calendarID = context.parameters.get("calendar").flatMap(UUID.init(uuidString:)),
                  let name = context.parameters.get("name")?.removingPercentEncoding, CalendarWrites.isValidName(name)
            else { throw HTTPError(.notFound, message: assets.texts(account.language).text("errorNotFound")) }
            let back = "/today" + (form.date.flatMap { Self.day($0) }.map { "?date=\($0)" } ?? "")
            do {
                _ = try await tasks.setDone(form.done == "true", name: name, calendarID: calendarID, account: account, ifMatch: form.etag)
            } catch is Tasks.CompletionProblem {
                throw HTTPError(.notFound, message: assets.texts(account.language).text("errorNotFound"))
            } catch CalendarWrites.Refusal.preconditionFailed {
                return WebPage.redirect(back + (back.contains("?") ? "&" : "?") + "changed=1")
            } catch CalendarWrites.Refusal.sharedReadOnly {
                return WebPage.redirect(back + (back.contains("?") ? "&" : "?") + "readOnly=1")
            }
            return WebPage.redirect(back)
        }
    }

    private func todayPage(_ request: Request, _ context: JadwalRequestContext) async throws -> Response {
        let account = try context.requireIdentity().account
        let viewer = try await viewer(request, context)
        let texts = assets.texts(account.language)
        let zone = TimeZone(identifier: account.timeZone) ?? .gmt
        let formats = WebFormats.shared(language: account.language, zone: zone)
        let query = request.uri.queryParameters
        var notice: String?
        var asked: LocalDate?
        if let text = query.get("date"), !text.isEmpty {
            if let parsed = Self.day(text) { asked = parsed } else { notice = texts.text("errorBadDate", ["value": text]) }
        }
        if query.get("changed") != nil { notice = texts.text("todayChangedElsewhere") }
        if query.get("readOnly") != nil { notice = texts.text("todayReadOnly") }
        let day = try await agenda.day(account: account, date: asked)
        var colors = CalendarColors()
        let entries = day.entries.map { entry in
            TodayEntryView(entry: entry, day: day, formats: formats, texts: texts, colors: &colors).values
        }
        let date = day.date
        var page: [String: Any] = [
            "heading": day.isToday ? texts.text("todayHeading") : formats.fullDay(date),
            "dateLabel": formats.fullDay(date), "isToday": day.isToday,
            "previousHref": "/today?date=\(date.adding(days: -1))", "nextHref": "/today?date=\(date.adding(days: 1))",
            "dayHref": "/calendar?view=day&date=\(date)", "date": date.description,
            "entries": entries, "empty": entries.isEmpty, "noPrayer": !day.hasPrayerSettings,
        ]
        if !day.isToday { page["todayHref"] = "/today" }
        if account.showHijri, let hijri = formats.hijri(date) { page["hijri"] = hijri }
        if let notice { page["notice"] = notice }
        if day.truncated { page["notice"] = texts.text("calendarTruncated") }
        return WebPage(
            template: "today", title: texts.text("todayTitle"), page: page, style: colors.css, scripts: ["today.js"], stylesheets: ["today.css"]
        ).response(assets, viewer: viewer)
    }
}

/// One row of the Today list, as the template draws it.
private struct TodayEntryView {
    let values: [String: Any]

    init(entry: DayAgenda.Entry, day: DayAgenda.Day, formats: WebFormats, texts: [String: String], colors: inout CalendarColors) {
        let title = (entry.title ?? "").isEmpty ? texts.text("untitled") : entry.title ?? ""
        // Absent keys are false: Mustache would otherwise look them up in the enclosing page.
        var values: [String: Any] = [
            "id": TodayPage.anchor(entry), "kind": entry.kind.rawValue, "title": title, "kindLabel": texts.text("todayKind_\(entry.kind.rawValue)"),
            "href": false, "location": false, "calendarName": false, "cancelled": false, "deadline": false, "conflicts": false,
            "todo": false, "overdue": false, "time": false, "colorClass": "", "eventColor": "",
        ]
        if let calendar = entry.calendar {
            values["colorClass"] = colors.cssClass(for: calendar)
            values["calendarName"] = texts.calendarLabel(calendar)
        }
        if let color = entry.eventColor.flatMap({ colors.eventColor($0) }) { values["eventColor"] = " ev-color \(color)" }
        if let location = entry.location, !location.isEmpty { values["location"] = location }
        if entry.isCancelled { values["cancelled"] = texts.text("cancelled") }
        if entry.isDeadline { values["deadline"] = texts.text("deadline") }
        switch entry.kind {
        case .prayer:
            if let start = entry.start { values["time"] = formats.time(start) }
        case .todo:
            guard let todo = entry.todo, let calendar = entry.calendar, let name = entry.objectName else { break }
            if entry.isOverdue {
                values["time"] = texts.text("todayOverdueSince", ["day": formats.shortDay(todo.dueDay)])
                values["overdue"] = true
            } else if let start = entry.start {
                values["time"] = texts.text("todayDueAt", ["time": formats.time(start)])
            } else {
                values["time"] = texts.text("todayDueToday")
            }
            if calendar.slug == DefaultCalendars.tasksSlug, calendar.sharing == nil { values["href"] = TaskPages.path(name) }
            values["todo"] = [
                "action": TodayPage.todoPath(calendarID: calendar.id, name: name),
                "api": "/api/v1/calendars/\(calendar.id.uuidString.lowercased())/todos/" + WebPage.pathSegment(name),
                "etag": todo.task.object.etag, "done": todo.isDone, "next": todo.isDone ? "false" : "true", "date": day.date.description,
                "label": texts.text(todo.isDone ? "tasksReopen" : "tasksMarkDone", ["title": title]),
                "labelDone": texts.text("tasksReopen", ["title": title]), "labelOpen": texts.text("tasksMarkDone", ["title": title]),
                "canComplete": todo.canComplete,
            ] as [String: Any]
        case .event, .routine, .taskTime:
            if entry.isAllDay {
                values["time"] = texts.text("allDay")
            } else if let start = entry.start, let end = entry.end {
                let from = start < day.start ? texts.text("todayContinues") : formats.time(start)
                let to = end > day.end ? texts.text("todayContinuesAfter") : formats.time(end)
                values["time"] = entry.isDeadline ? formats.time(start) : "\(from)–\(to)"
            }
            if let calendar = entry.calendar, let name = entry.objectName {
                values["href"] = EventPages.editPath(calendarID: calendar.id, objectName: name, occurrence: entry.recurrenceID)
            }
            if let first = entry.conflicts.first {
                values["conflicts"] = ["href": TodayPage.conflictHref(first), "label": texts.text("conflictBadgeLabel", ["title": title])]
            }
        }
        self.values = values
    }
}
