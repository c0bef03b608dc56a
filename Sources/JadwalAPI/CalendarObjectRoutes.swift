import Foundation
import Hummingbird
import ICalendar
import JadwalCore
import JadwalHTTP
import NIOCore
import PrayerTimes

/// Calendar objects through the JSON API — `…/calendars/{id}/objects/{name}` as iCalendar text,
/// written through `CalendarWrites` like CalDAV PUT will be — and the integrated view of every
/// calendar, `GET /api/v1/events?start=&end=`, with recurrences expanded.
package struct CalendarObjectRoutes: Sendable {
    package let store: any Store
    package let clock: Clock
    package let writes: CalendarWrites
    package let calendars: Calendars
    package let windows: CalendarWindows

    package init(store: any Store, clock: Clock, writes: CalendarWrites, calendars: Calendars, windows: CalendarWindows) {
        self.store = store
        self.clock = clock
        self.writes = writes
        self.calendars = calendars
        self.windows = windows
    }

    package struct EventInstance: Encodable, Sendable {
        package let calendarId: String
        package let calendarName: String
        package let color: String?
        package let object: String
        package let uid: String
        package let recurrenceId: String?
        package let start: String
        package let end: String
        package let allDay: Bool
        package let summary: String?
        package let location: String?
        package let status: String?
        package let busy: Bool
        /// The event's own colour (RFC 7986 COLOR), beside the calendar's `color`.
        package let eventColor: String?
        package let categories: [String]
        /// A deadline: it ends when it starts (a moment, shown as a marker).
        package let deadline: Bool
        /// Ids of this instance's open conflicts (`/api/v1/conflicts/{id}`).
        package let conflicts: [String]
    }

    /// A to-do due in the window (`include=todos`), as the calendar views show it.
    package struct DueTodoView: Encodable, Sendable {
        package let calendarId: String
        package let calendarName: String
        package let color: String?
        package let object: String
        package let uid: String
        package let etag: String
        package let title: String?
        /// The instant it is due; absent when it is due on a day.
        package let due: Date?
        /// The day it is due in the person's zone.
        package let dueDate: String
        package let done: Bool
        package let categories: [String]
        /// False in a calendar shared with the person to read only.
        package let canComplete: Bool

        init(_ todo: DueTodo) {
            calendarId = todo.calendar.id.uuidString.lowercased()
            calendarName = todo.calendar.displayName
            color = todo.calendar.color
            object = todo.task.object.name
            uid = todo.task.object.uid
            etag = todo.task.object.etag
            title = todo.task.todo.title
            due = todo.dueIsDate ? nil : todo.due
            dueDate = todo.dueDay.description
            done = todo.isDone
            categories = ItemCategories.of(todo.task.todo.source)
            canComplete = todo.canComplete
        }
    }

    package struct EventList: Encodable, Sendable {
        package let start: Date
        package let end: Date
        package let events: [EventInstance]
        /// With `include=todos` only.
        package let todos: [DueTodoView]?
        /// True when more than `maxInstances` instances fall in the window; ask for a shorter one.
        package let truncated: Bool
    }

    package func addRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.get("calendars/{id}/objects/{name}") { _, context -> Response in
            let (calendar, name) = try await target(context)
            guard let object = try await calendars.object(named: name, in: calendar) else {
                throw APIError.notFound("No object '\(name)' in this calendar.")
            }
            return Response(
                status: .ok, headers: [.contentType: "text/calendar; charset=utf-8", .eTag: object.etag],
                body: .init(byteBuffer: ByteBuffer(string: object.icalendar))
            )
        }
        group.put("calendars/{id}/objects/{name}") { request, context -> Response in
            let (calendar, name) = try await target(context)
            let content = try await Self.content(of: request)
            do {
                let (object, created) = try await writes.put(
                    content, name: name, in: calendar, ifMatch: request.headers[.ifMatch], ifNoneMatch: request.headers[.ifNoneMatch] == "*", source: .api)
                return Response(status: created ? .created : .noContent, headers: [.eTag: object.etag])
            } catch let refusal as CalendarWrites.Refusal {
                throw APIError(refusal, name: name)
            }
        }
        group.delete("calendars/{id}/objects/{name}") { request, context -> Response in
            try await Self.delete(request, context, calendars: calendars, writes: writes)
        }
        group.get("events") { request, context in
            JSONResponse(try await events(account: try context.requireIdentity().account, query: request.uri.queryParameters))
        }
    }

    private func target(_ context: JadwalRequestContext) async throws -> (CalendarCollection, String) {
        try await Self.target(context, calendars: calendars)
    }

    /// `DELETE …/{name}`, for objects and JSON events alike.
    package static func delete(_ request: Request, _ context: JadwalRequestContext, calendars: Calendars, writes: CalendarWrites) async throws -> Response {
        let (calendar, name) = try await target(context, calendars: calendars)
        do {
            try await writes.delete(name: name, in: calendar, ifMatch: request.headers[.ifMatch], source: .api)
        } catch let refusal as CalendarWrites.Refusal {
            throw APIError(refusal, name: name)
        }
        return Response(status: .noContent)
    }

    /// The signed-in person's calendar `{id}` and the resource name `{name}` in the path.
    package static func target(_ context: JadwalRequestContext, calendars: Calendars) async throws -> (CalendarCollection, String) {
        let calendar = try await CalendarRoutes.visibleCalendar(context, calendars: calendars)
        guard let name = context.parameters.get("name")?.removingPercentEncoding, CalendarWrites.isValidName(name) else {
            throw APIError(CalendarWrites.Refusal.invalidName, name: "")
        }
        return (calendar, name)
    }

    package static func content(of request: Request) async throws -> CalendarObjectContent {
        if let type = request.headers[.contentType], !type.lowercased().hasPrefix("text/calendar") {
            throw APIError(.unsupportedMediaType, code: "unsupported_media_type", message: "Send the object as iCalendar (Content-Type: text/calendar).")
        }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: CalendarObjectContent.maxBytes)
        } catch is NIOTooManyBytesError {
            throw APIError(.contentTooLarge, code: "body_too_large", message: "A calendar object may be at most \(CalendarObjectContent.maxBytes) bytes.")
        }
        // Decoded strictly: invalid UTF-8 is refused, never silently replaced.
        guard let text = String(validating: buffer.readableBytesView, as: UTF8.self) else {
            throw APIError.badRequest("invalid_icalendar", "The body is not UTF-8 text.")
        }
        do {
            return try CalendarObjectContent(text: text)
        } catch {
            throw APIError.badRequest("invalid_icalendar", error.description.asSentence)
        }
    }

    private func events(account: Account, query: Parameters) async throws -> EventList {
        guard let startText = query.get("start"), let endText = query.get("end") else {
            throw APIError.badRequest("invalid_query", "Give 'start' and 'end', e.g. ?start=2026-03-01&end=2026-04-01 (dates or ISO 8601 instants).")
        }
        guard let start = Self.instant(startText, zone: account.timeZone), let end = Self.instant(endText, zone: account.timeZone) else {
            throw APIError.badRequest("invalid_query", "'start' and 'end' must be dates (2026-03-01) or ISO 8601 instants (2026-03-01T09:00:00Z).")
        }
        guard start < end else { throw APIError.badRequest("invalid_query", "'start' must be before 'end'.") }
        guard end.timeIntervalSince(start) <= Double(IntegratedCalendar.maxWindowDays) * 86_400 else {
            throw APIError.badRequest("invalid_query", "Ask for at most \(IntegratedCalendar.maxWindowDays) days at a time.")
        }
        let shownOnly = try Self.flag(query, "shown")
        var todoDays: ClosedRange<LocalDate>?
        if let include = query.get("include") {
            guard include == "todos" else { throw APIError.badRequest("invalid_query", "'include' takes 'todos' (to-dos due in the window).") }
            // The days the window touches in the person's zone, its end excluded.
            let zone = ZoneRules(ianaIdentifier: account.timeZone) ?? .utc
            let day = { (date: Date) in LocalDate(daysSinceEpoch: zone.local(forUTC: Int64(date.timeIntervalSince1970.rounded(.down))).date.daysSinceEpoch) }
            todoDays = day(start)...max(day(start), day(end.addingTimeInterval(-1)))
        }
        let window = try await windows.window(
            account: account, from: start, to: end, shownOnly: shownOnly, category: try Self.category(query), todosDue: todoDays)
        let (instances, truncated, marks) = (window.instances, window.truncated, window.marks)
        let events = instances.map { instance in
            let occurrence = instance.occurrence
            return EventInstance(
                calendarId: instance.calendar.id.uuidString, calendarName: instance.calendar.displayName, color: instance.calendar.color,
                object: instance.objectName, uid: occurrence.uid, recurrenceId: occurrence.recurrenceId?.iso8601, start: occurrence.start.iso8601,
                end: occurrence.end.iso8601, allDay: occurrence.isAllDay, summary: occurrence.summary,
                location: occurrence.component.first("LOCATION")?.text, status: occurrence.component.first("STATUS")?.value, busy: instance.isBusy,
                eventColor: EventColor.of(occurrence.component), categories: ItemCategories.of(occurrence.component),
                deadline: !occurrence.isAllDay && occurrence.start == occurrence.end,
                conflicts: marks.conflicts(of: instance).map { $0.uuidString.lowercased() })
        }
        return EventList(start: start, end: end, events: events, todos: todoDays.map { _ in window.todos.map(DueTodoView.init) }, truncated: truncated)
    }

    /// A yes-or-no query parameter: `true` or `false`, false when absent.
    static func flag(_ query: Parameters, _ name: String) throws -> Bool {
        switch query.get(name) {
        case nil, "false": return false
        case "true": return true
        case let other?: throw APIError.badRequest("invalid_query", "'\(name)' must be true or false, not '\(other)'.")
        }
    }

    /// `?category=`, the one tag a list is narrowed to; nil when absent or empty.
    package static func category(_ query: Parameters) throws -> String? {
        guard let text = query.get("category")?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        guard text.count <= ItemCategories.maxLength, !text.containsControlCharacters else {
            throw APIError.badRequest("invalid_query", "'category' must be 1 to \(ItemCategories.maxLength) characters without control characters.")
        }
        return text
    }

    /// A date (midnight in the person's zone) or an ISO 8601 instant.
    package static func instant(_ text: String, zone: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        guard text.count == 10 else { return nil }
        formatter.formatOptions = [.withFullDate]
        formatter.timeZone = TimeZone(identifier: zone) ?? .gmt
        return formatter.date(from: text)
    }
}

extension CalendarWrites {
    /// A JSON route's write: the text made from the JSON checked as iCalendar (400 `invalidCode`
    /// naming the problem), then put through the path CalDAV PUT takes.
    package func putFromAPI(_ text: String, name: String, in calendar: CalendarCollection, ifMatch: String?, create: Bool, invalidCode: String) async throws
        -> CalendarObject {
        let content: CalendarObjectContent
        do {
            content = try CalendarObjectContent(text: text)
        } catch {
            throw APIError.badRequest(invalidCode, error.description.asSentence)
        }
        do {
            return try await put(content, name: name, in: calendar, ifMatch: ifMatch, ifNoneMatch: create, source: .api).object
        } catch let refusal as CalendarWrites.Refusal {
            throw APIError(refusal, name: name)
        }
    }
}
