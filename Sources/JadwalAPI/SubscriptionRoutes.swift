import Foundation
import Hummingbird
import ICalendar
import JadwalCore
import JadwalHTTP

/// `/api/v1/external-calendars`: calendars that live elsewhere and that Jadwal mirrors: ICS
/// feeds (`"kind": "ics"`, `CalendarSubscriptions`' rules) and CalDAV accounts (`"kind":
/// "caldav"`, `CalDAVAccounts`'). This only reads bodies and shapes answers; a CalDAV account's
/// password is never in one.
package struct SubscriptionRoutes: Sendable {
    package let subscriptions: CalendarSubscriptions
    package let caldavAccounts: CalDAVAccounts

    package init(subscriptions: CalendarSubscriptions, caldavAccounts: CalDAVAccounts) {
        self.subscriptions = subscriptions
        self.caldavAccounts = caldavAccounts
    }

    package struct CreateRequest: Decodable {
        package let kind: String?
        package let url: String
        package let username: String?
        package let password: String?
        /// CalDAV: the remote calendars' addresses to mirror; all of them when absent.
        package let mirror: [String]?
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
        /// CalDAV: which remote calendars are mirrored (addresses from `remoteCalendars`).
        package let mirror: [String]?

        enum CodingKeys: String, CodingKey { case name, color, refreshMinutes, paused, url, busy, mirror }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decodeIfPresent(String.self, forKey: .name)
            color = try container.decodeIfPresent(String.self, forKey: .color)
            refreshMinutes = container.contains(.refreshMinutes) ? .some(try container.decodeIfPresent(Int.self, forKey: .refreshMinutes)) : nil
            paused = try container.decodeIfPresent(Bool.self, forKey: .paused)
            url = try container.decodeIfPresent(String.self, forKey: .url)
            busy = try container.decodeIfPresent(Bool.self, forKey: .busy)
            mirror = try container.decodeIfPresent([String].self, forKey: .mirror)
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
            status = Status(
                state: subscription.state.rawValue, lastAttemptAt: subscription.lastAttemptAt, lastSuccessAt: subscription.lastSuccessAt,
                nextRefreshAt: subscription.pausedAt == nil ? subscription.nextRefreshAt : nil, lastError: subscription.lastError,
                failures: subscription.failures, objects: subscription.objectCount, problemCount: subscription.problemCount,
                problems: subscription.problems)
        }
    }

    /// A connected CalDAV account: its remote calendars with the ones mirrored, and its status.
    package struct AccountView: Encodable, Sendable {
        package struct Remote: Encodable, Sendable {
            let url: String
            let name: String?
            let color: String?
            let components: [String]
            let supportsSync: Bool
            let mirrored: Bool
            let calendar: SubscriptionView.CalendarSummary?
        }

        package struct Status: Encodable, Sendable {
            let state: String
            let lastAttemptAt: Date?
            let lastSuccessAt: Date?
            let nextSyncAt: Date?
            let lastError: String?
            let failures: Int
        }

        let id: String
        let kind = "caldav"
        let url: String
        let homeUrl: String
        let username: String
        let remoteCalendars: [Remote]
        let status: Status

        package init(_ connected: CalDAVAccounts.Connected) {
            let account = connected.account
            id = account.id.uuidString.lowercased()
            url = account.url
            homeUrl = account.homeURL
            username = account.username
            remoteCalendars = account.remoteCalendars.map { remote in
                let calendar = connected.mirrored[remote.url]
                return Remote(
                    url: remote.url, name: remote.displayName, color: remote.color, components: remote.components, supportsSync: remote.supportsSync,
                    mirrored: calendar != nil,
                    calendar: calendar.map {
                        SubscriptionView.CalendarSummary(id: $0.id.uuidString, slug: $0.slug, name: $0.displayName, color: $0.color, timeZone: $0.timeZone)
                    })
            }
            status = Status(
                state: account.state.rawValue, lastAttemptAt: account.lastAttemptAt, lastSuccessAt: account.lastSuccessAt, nextSyncAt: account.nextSyncAt,
                lastError: account.lastError, failures: account.failures)
        }
    }

    /// One entry of the list: a feed or an account.
    package enum ExternalView: Encodable, Sendable {
        case feed(SubscriptionView)
        case account(AccountView)

        package func encode(to encoder: any Encoder) throws {
            switch self {
            case .feed(let view): try view.encode(to: encoder)
            case .account(let view): try view.encode(to: encoder)
            }
        }
    }

    struct SubscriptionList: Encodable, Sendable { let externalCalendars: [ExternalView] }

    package func addRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.get("external-calendars") { _, context in
            let accountID = try context.requireIdentity().account.id
            let feeds = try await subscriptions.all(accountID: accountID).map { ExternalView.feed(SubscriptionView($0)) }
            let accounts = try await caldavAccounts.all(accountID: accountID).map { ExternalView.account(AccountView($0)) }
            return JSONResponse(SubscriptionList(externalCalendars: feeds + accounts))
        }
        group.get("external-calendars/{id}") { _, context -> JSONResponse<ExternalView> in
            switch try await own(context) {
            case .feed(let subscribed): JSONResponse(ExternalView.feed(SubscriptionView(subscribed)))
            case .account(let connected): JSONResponse(ExternalView.account(AccountView(connected)))
            }
        }
        group.post("external-calendars") { request, context -> JSONResponse<ExternalView> in
            let account = try context.requireIdentity().account
            let body = try await request.decodeJSON(as: CreateRequest.self)
            switch body.kind?.lowercased() ?? "ics" {
            case "ics", "webcal": break
            case "caldav":
                let connected = try await caldavAccounts.connect(
                    url: body.url, username: body.username ?? "", password: body.password ?? "", mirror: body.mirror, account: account)
                return JSONResponse(ExternalView.account(AccountView(connected)), status: .created)
            default:
                throw APIError.badRequest("invalid_field", "Field 'kind' must be \"ics\" or \"caldav\".")
            }
            var added = try await subscriptions.add(
                CalendarSubscriptions.Draft(
                    url: body.url, name: body.name, color: body.color, refreshMinutes: body.refreshMinutes, asTasks: body.asTasks ?? false),
                account: account)
            if let busy = body.busy, !busy {
                added = try await subscriptions.update(added, with: CalendarSubscriptions.Change(busy: false))
            }
            return JSONResponse(ExternalView.feed(SubscriptionView(added)), status: .created)
        }
        group.patch("external-calendars/{id}") { request, context -> JSONResponse<ExternalView> in
            let current = try await own(context)
            let body = try await request.decodeJSON(as: UpdateRequest.self)
            switch current {
            case .feed(let subscribed):
                let change = CalendarSubscriptions.Change(
                    name: body.name, color: body.color, refreshMinutes: body.refreshMinutes, paused: body.paused, url: body.url, busy: body.busy)
                return JSONResponse(ExternalView.feed(SubscriptionView(try await subscriptions.update(subscribed, with: change))))
            case .account(let connected):
                guard let mirror = body.mirror else {
                    throw APIError.badRequest("invalid_field", "Field 'mirror' must list the addresses of the remote calendars to mirror (see remoteCalendars).")
                }
                let account = try context.requireIdentity().account
                return JSONResponse(ExternalView.account(AccountView(try await caldavAccounts.mirror(mirror, of: connected, account: account))))
            }
        }
        group.delete("external-calendars/{id}") { _, context -> Response in
            switch try await own(context) {
            case .feed(let subscribed): try await subscriptions.delete(subscribed)
            case .account(let connected): try await caldavAccounts.disconnect(connected)
            }
            return Response(status: .noContent)
        }
        group.post("external-calendars/{id}/refresh") { _, context -> Response in
            switch try await own(context) {
            case .feed(let subscribed): try await subscriptions.refreshSoon(subscribed)
            case .account(let connected): try await caldavAccounts.syncSoon(connected)
            }
            return Response(status: .accepted)
        }
    }

    enum Owned {
        case feed(CalendarSubscriptions.Subscribed)
        case account(CalDAVAccounts.Connected)
    }

    /// The feed or account named by `{id}` if it is the signed-in person's; anyone else's is "not found".
    func own(_ context: JadwalRequestContext) async throws -> Owned {
        let accountID = try context.requireIdentity().account.id
        let notFound = APIError.notFound("No external calendar with that ID.")
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else { throw notFound }
        if let subscribed = try await subscriptions.own(id: id, accountID: accountID) { return .feed(subscribed) }
        if let connected = try await caldavAccounts.own(id: id, accountID: accountID) { return .account(connected) }
        throw notFound
    }
}
