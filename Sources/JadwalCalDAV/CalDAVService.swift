import DAV
import Foundation
import HTTPTypes
import Hummingbird
import JadwalCore
import JadwalHTTP
import Logging
import NIOCore
import PrayerTimes

/// The CalDAV server (RFC 4918, 4791, 6578, 6764): one entry point that authenticates, resolves
/// the path to a resource of the signed-in account and dispatches on the method. It sits in
/// front of the router because WebDAV methods and paths do not fit route patterns.
package struct CalDAVService: Sendable {
    package let store: any Store
    package let clock: Clock
    package let writes: CalendarWrites
    package let calendars: Calendars
    package let shares: CalendarShares
    /// The scheduling Inbox's messages.
    package let invitations: Invitations
    package let authentication: DAVAuthentication
    /// Calendars held in memory for time-range queries (`CalendarMirror`).
    package let mirrors: CalendarMirrors
    package let caches: CalDAVCaches
    /// Stored objects' parsed forms, by ETag.
    package var parsedCalendars: ParsedCalendarCache { caches.parsedCalendars }
    package let reader = XMLReader()

    package init(
        store: any Store, clock: Clock, random: RandomSource, writes: CalendarWrites, calendars: Calendars, authentication: DAVAuthentication,
        caches: CalDAVCaches, directory: PrincipalDirectory = .related
    ) {
        self.store = store
        self.clock = clock
        self.writes = writes
        self.calendars = calendars
        shares = CalendarShares(store: store, clock: clock, random: random, directory: directory)
        invitations = Invitations(store: store, clock: clock, random: random)
        self.authentication = authentication
        self.caches = caches
        mirrors = CalendarMirrors(parsedCalendars: caches.parsedCalendars)
    }

    /// Methods answered on `/`, where clients start discovery from a bare server URL; other
    /// methods there belong to the web app.
    package static let rootMethods: Set<String> = ["PROPFIND", "OPTIONS", "REPORT", "PROPPATCH"]

    package func handles(_ request: Request) -> Bool {
        let path = request.uri.path
        if path == "/.well-known/caldav" || path == "/.well-known/caldav/" || path == "/dav" || path.hasPrefix(DAVTarget.prefix) { return true }
        return path == "/" && Self.rootMethods.contains(request.method.rawValue)
    }

    package func respond(to request: Request, context: JadwalRequestContext) async -> Response {
        do {
            return try await dispatch(request, context: context)
        } catch {
            return Self.answer(for: error, logger: context.logger)
        }
    }

    private func dispatch(_ request: Request, context: JadwalRequestContext) async throws -> Response {
        let path = request.uri.path
        if path.hasPrefix("/.well-known/caldav") {
            // RFC 6764 §5: the context path, where PROPFIND finds current-user-principal.
            return Response(status: .movedPermanently, headers: [.location: DAVHref.root])
        }
        let method = request.method.rawValue
        if method == "OPTIONS" {
            // Unauthenticated on purpose: clients probe capabilities before they have credentials.
            return Response(status: .ok, headers: [DAVResponse.davHeader: DAVResponse.compliance, .allow: DAVResponse.allowedMethods])
        }
        let account: Account
        switch try await authentication.caller(for: request, clientAddress: context.clientAddress) {
        case .account(let signedIn): account = signedIn
        case .anonymous: return DAVResponse.unauthorized
        case .throttled(let seconds): return DAVResponse.throttled(retryAfterSeconds: seconds)
        }
        guard let target = DAVTarget(path: path) else { throw DAVError.notFound(path) }
        context.coreContext.endpointPath.value = target.metricsPath
        // Another account's paths look exactly like paths that do not exist.
        if let owner = target.owner, owner != account.id { throw DAVError.notFound(path) }
        let call = DAVCall(request: request, target: target, account: account)
        switch method {
        case "PROPFIND": return try await propfind(call)
        case "PROPPATCH": return try await proppatch(call)
        case "REPORT": return try await report(call)
        case "MKCALENDAR": return try await makeCalendar(call, method: .mkcalendar)
        case "MKCOL": return try await makeCalendar(call, method: .mkcol)
        case "GET": return try await get(call, includeBody: true)
        case "HEAD": return try await get(call, includeBody: false)
        case "PUT": return try await put(call)
        case "DELETE": return try await delete(call)
        case "MOVE": return try await move(call)
        case "POST": return try await post(call)
        default:
            throw DAVError.status(405, "\(method) is not supported here; the server allows \(DAVResponse.allowedMethods).")
        }
    }

    // MARK: - Resolving paths

    /// The resource at `target`, or nil when there is none.
    package func resource(_ target: DAVTarget, account: Account) async throws -> DAVResource? {
        switch target {
        case .root: return .root
        case .principals: return .principals
        case .calendarHomes: return .calendarHomes
        case .principal: return .principal
        case .scheduleInbox(let owner): return .scheduleInbox(defaultCalendar: try await defaultCalendar(of: owner))
        case .scheduleOutbox: return .scheduleOutbox
        case .inboxItem(_, let name): return try await invitations.inboxMessage(named: name, of: account).map(DAVResource.inboxItem)
        case .notifications: return .notifications(try await pendingShares(account))
        case .notification(_, let name): return try await notification(named: name, account: account).map(DAVResource.notification)
        case .home: return .home
        case .calendar(let owner, let slug):
            if slug == CalendarSlug.prayerTimes { return try await prayerCollection(for: account).map { .calendar($0.collection) } }
            return try await calendars.calendarWithShares(accountID: owner, slug: slug).map(DAVResource.calendar)
        case .object(let owner, let slug, let name):
            if slug == CalendarSlug.prayerTimes {
                guard let prayer = try await prayerCollection(for: account), let object = try Self.computed({ () throws(PrayerTimesError) in try prayer.object(named: name) })
                else { return nil }
                return .object(prayer.collection, object)
            }
            return try await calendars.object(named: name, slug: slug, accountID: owner).map { DAVResource.object($0.0, $0.1) }
        }
    }

    /// The calendar a target names (itself, or the parent of an object), or a 404/409.
    package func calendar(for call: DAVCall) async throws -> CalendarCollection {
        let slug: String
        switch call.target {
        case .calendar(_, let value), .object(_, let value, _): slug = value
        default: throw DAVError.status(405, "\(call.request.method) is not allowed on \(call.request.uri.path); it is not in a calendar.")
        }
        let owner = call.account.id
        if slug == CalendarSlug.prayerTimes, let prayer = try await prayerCollection(for: call.account) { return prayer.collection }
        guard let calendar = try await calendars.calendar(accountID: owner, slug: slug) else {
            if case .object = call.target {
                throw DAVError.status(409, "The calendar \(DAVHref.calendar(owner, slug)) does not exist; create it with MKCALENDAR first.")
            }
            throw DAVError.notFound(call.request.uri.path)
        }
        return calendar
    }

    /// The computed prayer-times calendar, when the account has prayer settings.
    package func prayerCollection(for account: Account) async throws -> PrayerCollection? {
        try await PrayerCollection.of(account, now: clock.now, store: store)
    }

    package static func prayerObjects(_ prayer: PrayerCollection) throws -> [CalendarObject] {
        try computed { () throws(PrayerTimesError) in try prayer.objects() }
    }

    /// Runs a prayer computation; settings that no longer compute are the person's to fix.
    package static func computed<T>(_ body: () throws(PrayerTimesError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw DAVError.status(409, "The saved prayer settings cannot be used (\(error)); save them again in Jadwal.")
        }
    }

    /// A computed calendar's objects that may touch a range: any period, not only the synced window.
    package func computedObjects(for account: Account, overlapping range: TimeRange?) async throws -> [CalendarObject] {
        guard let prayer = try await prayerCollection(for: account) else { return [] }
        guard let range else { return try Self.prayerObjects(prayer) }
        let start = range.start ?? Date(timeIntervalSince1970: 0)
        let end = range.end ?? Date(timeIntervalSince1970: 4_102_444_800)
        return try Self.computed { () throws(PrayerTimesError) in try prayer.objects(overlapping: start, end) }
    }

    /// Every object of a calendar, stored or computed.
    package func objects(in calendar: CalendarCollection, account: Account) async throws -> [CalendarObject] {
        if calendar.isComputed {
            guard let prayer = try await prayerCollection(for: account) else { return [] }
            return try Self.prayerObjects(prayer)
        }
        return try await calendars.objects(in: calendar)
    }

    /// Refuses changes to calendars Jadwal computes (their properties included).
    package static func requireWritable(_ calendar: CalendarCollection) throws {
        guard !calendar.isComputed else {
            throw DAVError.precondition(.needPrivileges, "\(calendar.displayName) is computed from your prayer settings and is read-only.")
        }
    }

    /// Refuses writes to what a calendar holds when Jadwal computes it or a subscription fills it.
    package static func requireWritableContent(_ calendar: CalendarCollection) throws {
        try requireWritable(calendar)
        guard !calendar.isSubscribed else {
            throw DAVError.precondition(.needPrivileges, "\(calendar.displayName) is a subscription: its events come from the feed and are read-only here.")
        }
        guard !calendar.isReadOnlyShare else { throw davError(.sharedReadOnly) }
    }

    /// What the signed-in person may do with a calendar (`current-user-privilege-set`): a
    /// subscription's name and colour are theirs to change, not its content; a calendar shared
    /// with them to read likewise (the name and colour they give it are theirs alone).
    package static func privileges(of calendar: CalendarCollection) -> [QualifiedName] {
        if calendar.isComputed { return DAVPropertySheet.readPrivileges }
        if calendar.isReadOnlyShare { return DAVPropertySheet.readPrivileges + [.writeProperties] }
        if calendar.isSubscribed {
            // A task subscription's to-dos may be marked done (a PUT of the same to-do), nothing more.
            return DAVPropertySheet.readPrivileges + [.writeProperties] + (calendar.components == [.todo] ? [.writeContent] : [])
        }
        return DAVPropertySheet.readPrivileges + DAVPropertySheet.writePrivileges
    }

    // MARK: - Bodies

    package func body(of request: Request, limit: Int = XMLReader.Limits.standard.maxBytes) async throws -> Data {
        do {
            let buffer = try await request.body.collect(upTo: limit)
            return Data(buffer.readableBytesView)
        } catch is NIOTooManyBytesError {
            throw DAVError(kind: .bodyTooLarge, status: 413, message: "The request body is larger than \(limit) bytes.")
        }
    }

    /// `Prefer: return=minimal` (RFC 8144) or the older `Brief: t`, which iOS and macOS send.
    package static func prefersMinimal(_ request: Request) -> Bool {
        if let prefer = request.headers[DAVResponse.preferHeader], prefer.lowercased().contains("return=minimal") { return true }
        return request.headers[DAVResponse.briefHeader]?.lowercased() == "t"
    }

    /// An `If-Match` value as one ETag; `*` is kept as is.
    package static func ifMatch(_ request: Request) -> String? {
        request.headers[.ifMatch]?.trimmingCharacters(in: .whitespaces)
    }

}

/// One authenticated DAV request and what its path names.
package struct DAVCall: Sendable {
    package let request: Request
    package let target: DAVTarget
    package let account: Account

    package var href: String { DAVHref.href(for: target) }
}

/// Routes every CalDAV request to `CalDAVService` and everything else on to the router.
package struct CalDAVMiddleware: RouterMiddleware {
    package typealias Context = JadwalRequestContext
    package let service: CalDAVService

    package init(service: CalDAVService) {
        self.service = service
    }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard service.handles(request) else { return try await next(request, context) }
        return await service.respond(to: request, context: context)
    }
}

