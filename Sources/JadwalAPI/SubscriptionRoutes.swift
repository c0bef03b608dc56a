import Foundation
import Hummingbird
import ICalendar
import JadwalCore
import JadwalHTTP

/// `/api/v1/external-calendars`: calendars that live elsewhere and that Jadwal mirrors, today
/// ICS feeds (`"kind": "ics"`). The rules are `CalendarSubscriptions`'; this only reads bodies
/// and shapes answers.
package struct SubscriptionRoutes: Sendable {
    package let subscriptions: CalendarSubscriptions

    package init(subscriptions: CalendarSubscriptions) {
        self.subscriptions = subscriptions
    }

    package struct CreateRequest: Decodable {
        package let kind: String?
        package let url: String
        package let name: String?
        package let color: String?
        package let refreshMinutes: Int?
        package let busy: Bool?
        package let asTasks: Bool?
    }

    package struct UpdateRequest: Decodable {
        package let name: String?
        package let color: String?
        /// Present and null: follow the feed's interval again.
        package let refreshMinutes: Int??
        package let paused: Bool?
        package let url: String?
        package let busy: Bool?

        enum CodingKeys: String, CodingKey { case name, color, refreshMinutes, paused, url, busy }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decodeIfPresent(String.self, forKey: .name)
            color = try container.decodeIfPresent(String.self, forKey: .color)
            refreshMinutes = container.contains(.refreshMinutes) ? .some(try container.decodeIfPresent(Int.self, forKey: .refreshMinutes)) : nil
            paused = try container.decodeIfPresent(Bool.self, forKey: .paused)
            url = try container.decodeIfPresent(String.self, forKey: .url)
            busy = try container.decodeIfPresent(Bool.self, forKey: .busy)
        }
    }

    package struct SubscriptionView: Encodable, Sendable {
        package struct CalendarSummary: Encodable, Sendable {
            let id: String
            let slug: String
            let name: String
            let color: String?
            let timeZone: String?
        }

        package struct Status: Encodable, Sendable {
            /// `pending` (never fetched yet), `ok`, `failing` or `paused`.
            let state: String
            let lastAttemptAt: Date?
            let lastSuccessAt: Date?
            let nextRefreshAt: Date?
            let lastError: String?
            let failures: Int
            let objects: Int
            let problemCount: Int
            let problems: [ICalendarFeed.Problem]
        }

        let id: String
        let kind: String
        let url: String
        let calendar: CalendarSummary
        let refreshMinutes: Int?
        let effectiveRefreshMinutes: Int
        let busy: Bool
        let asTasks: Bool
        let status: Status

        package init(_ subscribed: CalendarSubscriptions.Subscribed) {
            let subscription = subscribed.subscription
            let calendar = subscribed.calendar
            id = subscription.id.uuidString.lowercased()
            kind = "ics"
            url = subscription.url
            self.calendar = CalendarSummary(
                id: calendar.id.uuidString, slug: calendar.slug, name: calendar.displayName, color: calendar.color, timeZone: calendar.timeZone)
            refreshMinutes = subscription.refreshSeconds.map { $0 / 60 }
            effectiveRefreshMinutes = subscription.refreshInterval / 60
            busy = subscribed.busy
            asTasks = subscription.asTasks
            let state = subscription.pausedAt != nil ? "paused"
                : subscription.failures > 0 ? "failing"
                : subscription.lastSuccessAt == nil ? "pending" : "ok"
            status = Status(
                state: state, lastAttemptAt: subscription.lastAttemptAt, lastSuccessAt: subscription.lastSuccessAt,
                nextRefreshAt: subscription.pausedAt == nil ? subscription.nextRefreshAt : nil, lastError: subscription.lastError,
                failures: subscription.failures, objects: subscription.objectCount, problemCount: subscription.problemCount,
                problems: subscription.problems)
        }
    }

    struct SubscriptionList: Encodable, Sendable { let externalCalendars: [SubscriptionView] }

    package func addRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.get("external-calendars") { _, context in
            let accountID = try context.requireIdentity().account.id
            return JSONResponse(SubscriptionList(externalCalendars: try await subscriptions.all(accountID: accountID).map(SubscriptionView.init)))
        }
        group.get("external-calendars/{id}") { _, context in
            JSONResponse(SubscriptionView(try await own(context)))
        }
        group.post("external-calendars") { request, context in
            let account = try context.requireIdentity().account
            let body = try await request.decodeJSON(as: CreateRequest.self)
            switch body.kind?.lowercased() ?? "ics" {
            case "ics", "webcal": break
            case "caldav":
                throw APIError.badRequest(
                    "unsupported_kind", "Connecting CalDAV accounts is not available on this server yet; subscribe to the calendar's ICS address instead (\"kind\": \"ics\").")
            default:
                throw APIError.badRequest("invalid_field", "Field 'kind' must be \"ics\".")
            }
            var added = try await subscriptions.add(
                CalendarSubscriptions.Draft(
                    url: body.url, name: body.name, color: body.color, refreshMinutes: body.refreshMinutes, asTasks: body.asTasks ?? false),
                account: account)
            if let busy = body.busy, !busy {
                added = try await subscriptions.update(added, with: CalendarSubscriptions.Change(busy: false))
            }
            return JSONResponse(SubscriptionView(added), status: .created)
        }
        group.patch("external-calendars/{id}") { request, context in
            let current = try await own(context)
            let body = try await request.decodeJSON(as: UpdateRequest.self)
            let change = CalendarSubscriptions.Change(
                name: body.name, color: body.color, refreshMinutes: body.refreshMinutes, paused: body.paused, url: body.url, busy: body.busy)
            return JSONResponse(SubscriptionView(try await subscriptions.update(current, with: change)))
        }
        group.delete("external-calendars/{id}") { _, context -> Response in
            try await subscriptions.delete(try await own(context))
            return Response(status: .noContent)
        }
        group.post("external-calendars/{id}/refresh") { _, context -> Response in
            try await subscriptions.refreshSoon(try await own(context))
            return Response(status: .accepted)
        }
    }

    /// The subscription named by `{id}` if it is the signed-in person's; anyone else's is "not found".
    func own(_ context: JadwalRequestContext) async throws -> CalendarSubscriptions.Subscribed {
        let accountID = try context.requireIdentity().account.id
        let notFound = APIError.notFound("No external calendar with that ID.")
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else { throw notFound }
        guard let subscribed = try await subscriptions.own(id: id, accountID: accountID) else { throw notFound }
        return subscribed
    }
}
