import Foundation
import Hummingbird
import ICalendar
import JadwalCore
import JadwalHTTP
import NIOCore

/// Events as JSON under `/api/v1/calendars/{id}/events`: the web app's way to create, read, edit
/// and delete events. Every write goes through `CalendarWrites`, the path CalDAV PUT takes, so
/// synced devices see the change on their next sync. An edit or delete may name a scope —
/// `?scope=this|following|all&occurrence=<the instance's recurrenceId>` — which
/// `EventSeriesChanges` turns into an override, a split series or the whole series.
package struct EventRoutes: Sendable {
    package let clock: Clock
    /// Where new items' ids come from (`ObjectIdentity`).
    package let random: RandomSource
    package let writes: CalendarWrites
    package let calendars: Calendars
    package let series: EventSeriesChanges
    package let copies: EventCopies

    package init(clock: Clock, random: RandomSource, writes: CalendarWrites, calendars: Calendars, series: EventSeriesChanges, copies: EventCopies) {
        self.clock = clock
        self.random = random
        self.writes = writes
        self.calendars = calendars
        self.series = series
        self.copies = copies
    }

    /// `POST …/events/{name}/duplicate`'s optional body.
    package struct DuplicateRequest: Decodable, Sendable {
        /// Another of the person's calendars to put the copy in.
        package var calendarId: String?
    }

    package struct EventView: Encodable, Sendable {
        package let name: String
        package let uid: String
        package let etag: String
        package let event: EventDraft
    }

    package func addRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.post("calendars/{id}/events") { request, context -> Response in
            let account = try context.requireIdentity().account
            let calendar = try await CalendarRoutes.visibleCalendar(context, calendars: calendars)
            let draft = try await request.decodeJSON(as: EventDraft.self)
            let identity = ObjectIdentity.new(random: random)
            let (uid, name) = (identity.uid, identity.name)
            // A meeting is organised by the calendar's owner, also when a sharee writes into it.
            let organizer = calendar.sharedWithMe.map { EventAttendee(email: $0.ownerEmail.value, name: $0.ownerName) }
                ?? EventAttendee(email: account.email.value, name: account.displayName)
            let text = try Self.validated { () throws(EventDraft.Problem) in
                try draft.icalendar(uid: uid, defaultTimeZone: account.timeZone, now: clock.now, organizer: organizer)
            }
            let saved = try await write(text, name: name, in: calendar, ifMatch: nil, create: true)
            return try JSONResponse(Self.view(saved), status: .created).response(from: request, context: context)
        }
        group.get("calendars/{id}/events/{name}") { _, context in
            let (calendar, name) = try await target(context)
            return JSONResponse(try Self.view(try await existing(name, in: calendar)))
        }
        group.put("calendars/{id}/events/{name}") { request, context -> Response in
            let account = try context.requireIdentity().account
            let (calendar, name) = try await target(context)
            let draft = try await request.decodeJSON(as: EventDraft.self)
            let (scope, occurrence) = try Self.scope(request)
            let change = try await Self.answering(name) {
                try await series.edit(
                    draft, name: name, in: calendar, scope: scope ?? .all, occurrence: occurrence, ifMatch: request.headers[.ifMatch],
                    defaultTimeZone: account.timeZone, source: .api)
            }
            // "This and following" starts a new series: that is what the answer describes.
            if let started = change.newSeries {
                return try JSONResponse(Self.view(started), status: .created).response(from: request, context: context)
            }
            guard let object = change.object else { throw APIError.notFound("No event '\(name)' in this calendar.") }
            return try JSONResponse(Self.view(object)).response(from: request, context: context)
        }
        group.post("calendars/{id}/events/{name}/duplicate") { request, context -> Response in
            let account = try context.requireIdentity().account
            let (calendar, name) = try await target(context)
            // The body is optional: no body copies into the same calendar.
            let body = try await request.body.collect(upTo: 4096)
            var destination: CalendarCollection?
            let asked = body.readableBytes == 0 ? nil : try? JSONDecoder().decode(DuplicateRequest.self, from: Data(body.readableBytesView))
            if body.readableBytes > 0, asked == nil {
                throw APIError.badRequest("invalid_json", "Send no body, or {\"calendarId\": \"<one of your calendars>\"}.")
            }
            if let id = asked?.calendarId {
                guard let uuid = UUID(uuidString: id), let found = try await calendars.own(id: uuid, accountID: account.id) else {
                    throw APIError.badRequest("invalid_field", "'calendarId' must be the id of one of your calendars (GET /api/v1/calendars), not '\(id)'.")
                }
                destination = found
            }
            let copy = try await Self.answering(name) { try await copies.duplicate(name: name, in: calendar, to: destination, source: .api) }
            return try JSONResponse(Self.view(copy), status: .created).response(from: request, context: context)
        }
        group.delete("calendars/{id}/events/{name}") { request, context -> Response in
            let (scope, occurrence) = try Self.scope(request)
            guard scope != nil || occurrence != nil else {
                return try await CalendarObjectRoutes.delete(request, context, calendars: calendars, writes: writes)
            }
            let (calendar, name) = try await target(context)
            _ = try await Self.answering(name) {
                try await series.delete(name: name, in: calendar, scope: scope ?? .all, occurrence: occurrence, ifMatch: request.headers[.ifMatch], source: .api)
            }
            return Response(status: .noContent)
        }
    }

    /// `?scope=` and `?occurrence=`, checked.
    static func scope(_ request: Request) throws -> (SeriesScope?, String?) {
        let query = request.uri.queryParameters
        let occurrence = query.get("occurrence").flatMap { $0.isEmpty ? nil : $0 }
        guard let text = query.get("scope"), !text.isEmpty else { return (nil, occurrence) }
        guard let scope = SeriesScope(rawValue: text.lowercased()) else {
            throw APIError.badRequest("invalid_scope", "'scope' must be this, following or all, not '\(text)'.")
        }
        return (scope, occurrence)
    }

    /// Runs a series change, answering its refusals with the object's name.
    static func answering<T>(_ name: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let refusal as CalendarWrites.Refusal {
            throw APIError(refusal, name: name)
        } catch let problem as EventSeriesChanges.Problem {
            throw APIError(problem, name: name)
        }
    }

    private func target(_ context: JadwalRequestContext) async throws -> (CalendarCollection, String) {
        try await CalendarObjectRoutes.target(context, calendars: calendars)
    }

    private func existing(_ name: String, in calendar: CalendarCollection) async throws -> CalendarObject {
        guard let object = try await calendars.object(named: name, in: calendar) else {
            throw APIError.notFound("No event '\(name)' in this calendar.")
        }
        return object
    }

    private func write(_ text: String, name: String, in calendar: CalendarCollection, ifMatch: String?, create: Bool) async throws -> CalendarObject {
        try await writes.putFromAPI(text, name: name, in: calendar, ifMatch: ifMatch, create: create, invalidCode: "invalid_event")
    }

    package static func view(_ object: CalendarObject) throws -> EventView {
        guard let parsed = try? ICalendarParser().parseCalendar(object.icalendar),
              let master = parsed.master("VEVENT"),
              let draft = EventDraft(event: master)
        else { throw APIError.badRequest("not_an_event", "'\(object.name)' is not an event; read it as iCalendar at …/objects/\(object.name).") }
        return EventView(name: object.name, uid: object.uid, etag: object.etag, event: draft)
    }

    package static func validated(_ body: () throws(EventDraft.Problem) -> String) throws -> String {
        do {
            return try body()
        } catch {
            throw APIError.badRequest("invalid_field", "Field \(error.description).")
        }
    }
}
