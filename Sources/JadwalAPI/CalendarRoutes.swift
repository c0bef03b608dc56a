import Foundation
import Hummingbird
import JadwalCore
import JadwalHTTP

/// `/api/v1/calendars`: the signed-in person's calendars (the web app's list; CalDAV clients
/// see the same collections).
package struct CalendarRoutes: Sendable {
    package let calendars: Calendars

    package init(calendars: Calendars) {
        self.calendars = calendars
    }

    package struct CreateRequest: Decodable {
        package let displayName: String
        package let slug: String?
        package let description: String?
        package let color: String?
        package let order: Int?
        package let timeZone: String?
        /// `["VEVENT"]` for a calendar, `["VTODO"]` for a task list; every kind when absent.
        package let components: [String]?
    }

    package struct UpdateRequest: Decodable {
        package let displayName: String?
        package let description: String?
        package let color: String?
        package let order: Int?
        package let timeZone: String?
        /// Kept out of the person's calendar views (the web's, and `/api/v1/events?shown=true`).
        package let hidden: Bool?
    }

    package struct CalendarView: Encodable, Sendable {
        package let id: String
        package let slug: String
        package let displayName: String
        package let description: String
        package let color: String?
        package let order: Int?
        package let timeZone: String?
        package let components: [String]
        /// Changes whenever the calendar or anything in it changes (CalDAV's getctag).
        package let revision: Int64
        package let createdAt: Date
        /// The external calendar that fills it (`/api/v1/external-calendars/{id}`); its events are read-only.
        package let subscriptionId: String?
        package let readOnly: Bool
        /// Kept out of the person's calendar views; still busy time, still on phones and in the API.
        package let hidden: Bool
        /// What deleting it removes.
        package let eventCount: Int
        package let todoCount: Int

        package init(_ listed: Calendars.Listed) {
            let calendar = listed.calendar
            id = calendar.id.uuidString
            slug = calendar.slug
            displayName = calendar.displayName
            description = calendar.description
            color = calendar.color
            order = calendar.order
            timeZone = calendar.timeZone
            components = calendar.components.sorted().map(\.rawValue)
            revision = calendar.revision
            createdAt = calendar.createdAt
            subscriptionId = calendar.subscriptionID?.uuidString.lowercased()
            readOnly = calendar.isComputed || calendar.isSubscribed
            hidden = listed.hidden
            eventCount = listed.events
            todoCount = listed.todos
        }

        /// A calendar just made: shown, and empty.
        package init(_ calendar: CalendarCollection) {
            self.init(Calendars.Listed(calendar: calendar, counts: [:], hidden: false))
        }
    }

    package struct CalendarList: Encodable, Sendable { let calendars: [CalendarView] }

    package func addRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.get("calendars") { _, context in
            let accountID = try context.requireIdentity().account.id
            return JSONResponse(CalendarList(calendars: try await calendars.listed(accountID: accountID).map(CalendarView.init)))
        }
        group.get("calendars/{id}") { _, context in
            JSONResponse(try await listed(try await Self.ownCalendar(context, calendars: calendars)))
        }
        group.post("calendars") { request, context in
            let account = try context.requireIdentity().account
            let body = try await request.decodeJSON(as: CreateRequest.self)
            let draft = try Self.draft(body)
            do {
                let created = try await calendars.create(try calendars.validated(draft, account: account))
                return JSONResponse(CalendarView(created), status: .created)
            } catch let problem as Calendars.Problem {
                throw APIError(problem)
            }
        }
        group.patch("calendars/{id}") { request, context in
            let current = try await Self.ownCalendar(context, calendars: calendars)
            let body = try await request.decodeJSON(as: UpdateRequest.self)
            let change = CalendarPropertiesChange(
                displayName: body.displayName, description: body.description, color: body.color, order: body.order, timeZone: body.timeZone)
            var saved = current
            // Hiding alone changes only the person's views: the calendar, and so its phones' sync, stays as it is.
            let onlyHidden = [body.displayName, body.description, body.color, body.timeZone].allSatisfy { $0 == nil } && body.order == nil && body.hidden != nil
            do {
                if !onlyHidden { saved = try await calendars.update(current, with: change) }
            } catch let problem as Calendars.Problem {
                throw APIError(problem)
            }
            if let hidden = body.hidden { try await calendars.setHidden(hidden, calendar: saved) }
            return JSONResponse(try await listed(saved))
        }
        group.delete("calendars/{id}") { _, context -> Response in
            let calendar = try await Self.ownCalendar(context, calendars: calendars)
            do {
                try await calendars.delete(calendar)
            } catch let problem as Calendars.Problem {
                throw APIError(problem)
            }
            return Response(status: .noContent)
        }
    }

    /// The calendar as the list shows it, with its counts and whether it is hidden.
    private func listed(_ calendar: CalendarCollection) async throws -> CalendarView {
        let found = try await calendars.listed(accountID: calendar.accountID).first { $0.calendar.id == calendar.id }
        return found.map(CalendarView.init) ?? CalendarView(calendar)
    }

    /// The calendar named by `{id}` in the path if it is the signed-in person's; anyone else's is "not found".
    package static func ownCalendar(_ context: JadwalRequestContext, calendars: Calendars) async throws -> CalendarCollection {
        let accountID = try context.requireIdentity().account.id
        let notFound = APIError.notFound("No calendar with that ID.")
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else { throw notFound }
        guard let calendar = try await calendars.own(id: id, accountID: accountID) else { throw notFound }
        return calendar
    }

    /// The calendar `{id}` when the person may see what it holds: their own, or one shared with
    /// them (whose writes `CalendarWrites` refuses when the share is read-only).
    package static func visibleCalendar(_ context: JadwalRequestContext, calendars: Calendars) async throws -> CalendarCollection {
        let accountID = try context.requireIdentity().account.id
        let notFound = APIError.notFound("No calendar with that ID.")
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else { throw notFound }
        guard let calendar = try await calendars.visible(id: id, accountID: accountID) else { throw notFound }
        return calendar
    }

    /// The request as a draft: only the component names are read here; every other rule is the service's.
    package static func draft(_ body: CreateRequest) throws -> Calendars.Draft {
        var components: Set<ComponentKind>?
        if let names = body.components {
            let parsed = names.compactMap { ComponentKind(rawValue: $0.uppercased()) }
            guard !names.isEmpty, parsed.count == names.count else {
                throw APIError.badRequest("invalid_field", "Field 'components' must list VEVENT, VTODO or VJOURNAL, e.g. [\"VTODO\"] for a task list.")
            }
            components = Set(parsed)
        }
        return Calendars.Draft(
            slug: body.slug,
            properties: CalendarPropertiesChange(
                displayName: body.displayName, description: body.description, color: body.color, order: body.order, timeZone: body.timeZone),
            components: components)
    }

}
