import Foundation
import Hummingbird
import JadwalCore
import JadwalHTTP

/// `/api/v1/reminders`: every reminder that fires in the next two weeks (`UpcomingReminders`),
/// and snoozing, changing or removing one. Each change is written into the event or to-do
/// through the path CalDAV PUT takes, so phones see it; `If-Match` takes the ETag listed.
package struct ReminderRoutes: Sendable {
    package let reminders: UpcomingReminders

    package init(reminders: UpcomingReminders) {
        self.reminders = reminders
    }

    package struct ReminderView: Encodable, Sendable {
        let id: String
        let calendarId: String
        let calendarName: String
        let object: String
        let etag: String
        let uid: String
        let recurrenceId: String?
        let title: String?
        let fireAt: Date
        let start: Date?
        let allDay: Bool
        let todo: Bool
        let action: String
        let minutesBefore: Int?
        let relatedToEnd: Bool
        let snoozed: Bool
        let repeating: Bool

        init(_ item: UpcomingReminders.Item) {
            id = item.id.description
            calendarId = item.calendar.id.uuidString.lowercased()
            calendarName = item.calendar.displayName
            object = item.objectName
            etag = item.etag
            uid = item.reminder.uid
            recurrenceId = item.reminder.recurrenceID
            title = item.reminder.title
            fireAt = item.reminder.fireAt
            start = item.reminder.instanceStart
            allDay = item.reminder.isAllDay
            todo = item.reminder.isTodo
            action = item.reminder.action.rawValue.lowercased()
            minutesBefore = item.minutesBefore
            relatedToEnd = item.relatedToEnd
            snoozed = item.isSnooze
            repeating = item.isRepeating
        }
    }

    struct ReminderList: Encodable, Sendable {
        let days: Int
        let reminders: [ReminderView]
    }

    /// `{"minutes": 10}`, `{"tomorrow": true}` or `{"until": "2026-11-23T09:00:00Z"}`: exactly one.
    struct SnoozeRequest: Decodable, Sendable {
        let minutes: Int?
        let tomorrow: Bool?
        let until: String?
    }

    struct ChangeRequest: Decodable, Sendable {
        let minutesBefore: Int
    }

    struct Written: Encodable, Sendable {
        let object: String
        let etag: String
    }

    package func addRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.get("reminders") { _, context in
            let account = try context.requireIdentity().account
            return JSONResponse(ReminderList(days: UpcomingReminders.days, reminders: try await reminders.list(account: account).map(ReminderView.init)))
        }
        group.post("reminders/{id}/snooze") { request, context -> Response in
            let account = try context.requireIdentity().account
            let id = try Self.id(context)
            let body = try await request.decodeJSON(as: SnoozeRequest.self)
            let snooze: UpcomingReminders.Snooze
            switch (body.minutes, body.tomorrow, body.until) {
            case (let minutes?, nil, nil): snooze = .minutes(minutes)
            case (nil, true?, nil): snooze = .tomorrow
            case (nil, nil, let text?):
                guard let date = Date(iso8601Instant: text) else {
                    throw APIError.badRequest("invalid_field", "Field 'until' must be an instant such as 2026-11-23T09:00:00Z, not '\(text)'.")
                }
                snooze = .until(date)
            default:
                throw APIError.badRequest("invalid_field", "Send one of {\"minutes\": 10}, {\"tomorrow\": true} or {\"until\": \"2026-11-23T09:00:00Z\"}.")
            }
            let object = try await reminders.snooze(id, by: snooze, account: account, ifMatch: request.headers[.ifMatch])
            return try Self.written(object, request, context)
        }
        group.patch("reminders/{id}") { request, context -> Response in
            let account = try context.requireIdentity().account
            let id = try Self.id(context)
            let body = try await request.decodeJSON(as: ChangeRequest.self)
            let object = try await reminders.change(id, minutesBefore: body.minutesBefore, account: account, ifMatch: request.headers[.ifMatch])
            return try Self.written(object, request, context)
        }
        group.delete("reminders/{id}") { request, context -> Response in
            let account = try context.requireIdentity().account
            let id = try Self.id(context)
            let object = try await reminders.remove(id, account: account, ifMatch: request.headers[.ifMatch])
            return try Self.written(object, request, context)
        }
    }

    static func id(_ context: JadwalRequestContext) throws -> UpcomingReminders.ReminderID {
        guard let text = context.parameters.get("id"), let id = UpcomingReminders.ReminderID(text) else {
            throw APIError.notFound("No such reminder; GET /api/v1/reminders lists them with their ids.")
        }
        return id
    }

    static func written(_ object: CalendarObject, _ request: Request, _ context: JadwalRequestContext) throws -> Response {
        var response = try JSONResponse(Written(object: object.name, etag: object.etag)).response(from: request, context: context)
        response.headers[.eTag] = object.etag
        return response
    }
}
