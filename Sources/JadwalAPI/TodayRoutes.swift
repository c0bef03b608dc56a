import Foundation
import Hummingbird
import JadwalCore
import JadwalHTTP
import PrayerTimes

/// `GET /api/v1/today[?date=]`: one day as one ordered list (`DayAgenda`), and
/// `PATCH /api/v1/calendars/{id}/todos/{name} {"done": true|false}`: marking one of its to-dos
/// done or not done in whichever calendar holds it.
package struct TodayRoutes: Sendable {
    package let agenda: DayAgenda
    package let tasks: Tasks
    package let calendars: Calendars

    package init(agenda: DayAgenda, tasks: Tasks, calendars: Calendars) {
        self.agenda = agenda
        self.tasks = tasks
        self.calendars = calendars
    }

    package struct DayView: Encodable, Sendable {
        let date: String
        let today: Bool
        let timeZone: String
        let start: Date
        let end: Date
        /// False when the person has set no place for prayer times (the list then has none).
        let prayerTimes: Bool
        let truncated: Bool
        let items: [ItemView]
    }

    package struct ItemView: Encodable, Sendable {
        let kind: DayAgenda.Entry.Kind
        let title: String?
        let start: Date?
        let end: Date?
        let allDay: Bool
        let untimed: Bool
        let calendarId: String?
        let calendarName: String?
        let color: String?
        let object: String?
        let recurrenceId: String?
        let location: String?
        let cancelled: Bool?
        let deadline: Bool?
        let eventColor: String?
        let categories: [String]?
        let conflicts: [String]?
        let prayer: String?
        let jumuah: Bool?
        let due: Date?
        let dueDate: String?
        let done: Bool?
        let overdue: Bool?
        let etag: String?
        let canComplete: Bool?

        init(_ entry: DayAgenda.Entry) {
            kind = entry.kind
            title = entry.title
            start = entry.start
            end = entry.kind == .todo ? nil : entry.end
            allDay = entry.isAllDay
            untimed = entry.untimed
            calendarId = entry.calendar?.id.uuidString.lowercased()
            calendarName = entry.calendar?.displayName
            color = entry.calendar?.color
            object = entry.objectName
            recurrenceId = entry.recurrenceID
            location = entry.location
            let isEvent = entry.kind != .todo && entry.kind != .prayer
            cancelled = isEvent ? entry.isCancelled : nil
            deadline = isEvent ? entry.isDeadline : nil
            eventColor = entry.eventColor
            categories = entry.kind == .prayer ? nil : entry.categories
            conflicts = isEvent ? entry.conflicts.map { $0.uuidString.lowercased() } : nil
            prayer = entry.prayer?.rawValue
            jumuah = entry.prayer == nil ? nil : entry.isJumuah
            due = entry.todo?.due.flatMap { entry.todo?.dueIsDate == true ? nil : $0 }
            dueDate = entry.todo.map { $0.dueDay.description }
            done = entry.todo?.isDone
            overdue = entry.todo == nil ? nil : entry.isOverdue
            etag = entry.todo?.task.object.etag
            canComplete = entry.todo?.canComplete
        }
    }

    package struct DoneRequest: Decodable, Sendable {
        let done: Bool
    }

    package struct DoneView: Encodable, Sendable {
        let name: String
        let etag: String
        let done: Bool
    }

    package func addRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.get("today") { request, context in
            let account = try context.requireIdentity().account
            let date = try Self.date(request.uri.queryParameters.get("date"))
            let day = try await agenda.day(account: account, date: date)
            return JSONResponse(DayView(
                date: day.date.description, today: day.isToday, timeZone: account.timeZone, start: day.start, end: day.end,
                prayerTimes: day.hasPrayerSettings, truncated: day.truncated, items: day.entries.map(ItemView.init)))
        }
        group.patch("calendars/{id}/todos/{name}") { request, context -> Response in
            let account = try context.requireIdentity().account
            let (calendar, name) = try await CalendarObjectRoutes.target(context, calendars: calendars)
            let body = try await request.decodeJSON(as: DoneRequest.self)
            let object: CalendarObject
            do {
                object = try await tasks.setDone(body.done, name: name, calendarID: calendar.id, account: account, ifMatch: request.headers[.ifMatch])
            } catch let refusal as CalendarWrites.Refusal {
                throw APIError(refusal, name: name)
            }
            var response = try JSONResponse(DoneView(name: object.name, etag: object.etag, done: body.done)).response(from: request, context: context)
            response.headers[.eTag] = object.etag
            return response
        }
    }

    /// `?date=2026-11-23`; nil (today) when absent.
    static func date(_ text: String?) throws -> LocalDate? {
        guard let text, !text.isEmpty else { return nil }
        guard let date = try? LocalDate(iso8601: text), date.year >= 1900, date.year <= 2200 else {
            throw APIError.badRequest("invalid_query", "'date' must be a day written 2026-11-23, not '\(text)'.")
        }
        return date
    }
}
