import DAV
import Foundation
import Hummingbird
import ICalendar
import JadwalCore
import JadwalHTTP
import NIOCore
import PrayerTimes

extension CalDAVService {
    /// REPORT (RFC 3253 §3.6): the CalDAV queries and RFC 6578 sync.
    package func report(_ call: DAVCall) async throws -> Response {
        let report = try Report(body: try await body(of: call.request), reader: reader)
        let minimal = Self.prefersMinimal(call.request)
        let result: Multistatus
        switch report {
        case .syncCollection(let sync): result = try await syncCollection(call, sync, minimal: minimal)
        case .calendarMultiget(let multiget): result = try await calendarMultiget(call, multiget, minimal: minimal)
        case .calendarQuery(let query): result = try await calendarQuery(call, query, minimal: minimal)
        case .freeBusyQuery(let query): return try await freeBusy(call, query)
        case .principalPropertySearch(let search): result = try await principalSearch(call, search, minimal: minimal)
        }
        return DAVResponse.multistatus(result, headers: minimal ? [DAVResponse.preferenceAppliedHeader: "return=minimal"] : [:])
    }

    /// The calendar a report is addressed to; reports on other resources are not supported.
    private func reportCalendar(_ call: DAVCall, _ name: QualifiedName) async throws -> CalendarCollection {
        switch call.target {
        case .calendar, .object: return try await calendar(for: call)
        default:
            throw DAVError.precondition(.supportedReport, "The \(name.localName) report is supported on calendars, not on \(call.href).")
        }
    }

    // MARK: - sync-collection (RFC 6578)

    package func syncCollection(_ call: DAVCall, _ sync: SyncCollectionReport, minimal: Bool) async throws -> Multistatus {
        guard case .calendar = call.target else {
            throw DAVError.precondition(.supportedReport, "sync-collection is supported on calendars, not on \(call.href).")
        }
        let calendar = try await calendar(for: call)
        if calendar.isComputed { return try await computedSync(call, sync, calendar: calendar, minimal: minimal) }
        let since: Int64?
        if let text = sync.syncToken {
            guard let token = SyncToken(text), token.calendarID == calendar.id, token.revision <= calendar.revision else {
                throw DAVError.precondition(.validSyncToken, "This sync token is not one this calendar issued; sync again from scratch.")
            }
            since = token.revision
        } else {
            since = nil
        }
        let owner = call.account.id
        guard let (revision, changes, objects) = try await calendars.sync(calendar, after: since).map({ ($0.revision, $0.changes, $0.objects) }) else {
            // RFC 6578 §3.2: the log no longer reaches back that far (RecordRetention).
            throw DAVError.precondition(.validSyncToken, "This sync token is older than the changes Jadwal keeps; sync again from scratch.")
        }
        let answer = ObjectResponses(
            service: self, sheet: try await propertySheet(for: call.account, selection: sync.properties), calendar: calendar,
            selection: sync.properties, calendarData: sync.calendarData, minimal: minimal)
        var responses: [Multistatus.Response] = []
        var token = max(revision, changes.last?.revision ?? revision)
        if since == nil {
            var included = objects
            if let limit = sync.limit, objects.count > limit {
                // Oldest writes first: every object left out was written later than the token,
                // so syncing from it returns exactly the rest.
                included = Array(objects.sorted { $0.revision < $1.revision }.prefix(limit))
                token = included.last?.revision ?? token
            }
            responses = included.map { answer.response(for: $0) }
            if included.count < objects.count {
                responses.append(Multistatus.Response(
                    href: call.href, content: .status(507), error: DAVElement(.error, elements: [DAVElement(.numberOfMatchesWithinLimits)])))
            }
        } else {
            var included = changes
            var truncated = false
            if let limit = sync.limit, changes.count > limit {
                included = Array(changes.prefix(limit))
                token = included.last?.revision ?? token
                truncated = true
            }
            let byName = Dictionary(objects.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            for change in included {
                let href = DAVHref.object(owner, calendar.slug, change.name)
                if change.kind == .written, let object = byName[change.name] {
                    responses.append(answer.response(for: object))
                } else {
                    responses.append(.status(href, 404))
                }
            }
            if truncated {
                // RFC 6578 §3.6: more changes remain; the client syncs again from this token.
                responses.append(Multistatus.Response(
                    href: call.href, content: .status(507), error: DAVElement(.error, elements: [DAVElement(.numberOfMatchesWithinLimits)])))
            }
        }
        return Multistatus(responses: responses, syncToken: SyncToken(calendarID: calendar.id, revision: token).description)
    }

    /// sync-collection on the prayer-times calendar: changes are computed from the token's
    /// settings revision and window, not read from a log.
    private func computedSync(_ call: DAVCall, _ sync: SyncCollectionReport, calendar: CalendarCollection, minimal: Bool) async throws -> Multistatus {
        guard let prayer = try await prayerCollection(for: call.account) else { throw DAVError.notFound(call.href) }
        let written: [CalendarObject]
        var deleted: [String] = []
        if let text = sync.syncToken {
            let invalid = DAVError.precondition(.validSyncToken, "This sync token is not one this calendar issued; sync again from scratch.")
            guard let token = SyncToken(text), token.calendarID == calendar.id else { throw invalid }
            let changes: (written: [CalendarObject], deleted: [String])?
            do {
                changes = try prayer.changes(since: token.revision)
            } catch {
                throw DAVError.status(409, "The saved prayer settings cannot be used (\(error)); save them again in Jadwal.")
            }
            guard let changes else { throw invalid }
            (written, deleted) = changes
        } else {
            written = try Self.prayerObjects(prayer)
        }
        let answer = ObjectResponses(
            service: self, sheet: try await propertySheet(for: call.account, selection: sync.properties), calendar: calendar,
            selection: sync.properties, calendarData: sync.calendarData, minimal: minimal)
        var responses = written.map { answer.response(for: $0) }
        responses += deleted.map { .status(DAVHref.object(call.account.id, calendar.slug, $0), 404) }
        return Multistatus(responses: responses, syncToken: SyncToken(calendarID: calendar.id, revision: prayer.revision).description)
    }

    // MARK: - principal-property-search (RFC 3744 §9.4)

    /// Answers with the requesting principal and the people they may find that match
    /// (`CalendarShares.findablePeople`): those they share calendars with, either way, and the
    /// rest of the server only when the operator opened a server-wide directory.
    package func principalSearch(_ call: DAVCall, _ search: PrincipalPropertySearchReport, minimal: Bool) async throws -> Multistatus {
        switch call.target {
        case .root, .principals, .principal: break
        default: throw DAVError.precondition(.supportedReport, "principal-property-search is supported on \(DAVHref.principals), not on \(call.href).")
        }
        var responses: [Multistatus.Response] = []
        for person in [call.account] + (try await shares.findablePeople(of: call.account, matching: search.searches.map(\.match))) {
            var sheet = DAVPropertySheet(account: person, caches: caches)
            // Quota is the caller's own business only.
            if person.id == call.account.id { sheet = try await propertySheet(for: call.account, selection: search.properties) }
            let href = DAVHref.principal(person.id)
            func matches(_ one: PrincipalPropertySearchReport.Search) -> Bool {
                let needle = one.match.lowercased()
                return one.properties.contains { name in
                    guard let value = sheet.value(name, of: .principal, href: href) else { return false }
                    let texts = value.elements.isEmpty ? [value.text] : value.elements.map(\.text)
                    return texts.contains { needle.isEmpty || $0.lowercased().contains(needle) }
                }
            }
            let found = search.searches.isEmpty || (search.anyOf ? search.searches.contains(where: matches) : search.searches.allSatisfy(matches))
            if found {
                responses.append(propertyResponse(sheet: sheet, href: href, resource: .principal, selection: search.properties, minimal: minimal))
            }
        }
        return Multistatus(responses: responses)
    }

    // MARK: - calendar-multiget (RFC 4791 §7.9)

    package func calendarMultiget(_ call: DAVCall, _ multiget: CalendarMultigetReport, minimal: Bool) async throws -> Multistatus {
        switch call.target {
        case .calendar, .object, .home: break
        default: throw DAVError.precondition(.supportedReport, "calendar-multiget is supported on calendars, not on \(call.href).")
        }
        let owner = call.account.id
        // Hrefs grouped by calendar, in the order asked; anything that is not one of this
        // account's objects is answered 404 in place.
        var wanted: [(href: String, slug: String, name: String)?] = []
        for href in multiget.hrefs {
            if case .object(let account, let slug, let name)? = DAVTarget(path: DAVHref.path(of: href)), account == owner {
                wanted.append((href, slug, name))
            } else {
                wanted.append(nil)
            }
        }
        var slugs = Set(wanted.compactMap { $0?.slug })
        let requested = wanted
        var computed: [String: (CalendarCollection, [String: CalendarObject])] = [:]
        if slugs.remove(CalendarSlug.prayerTimes) != nil, let prayer = try await prayerCollection(for: call.account) {
            let names = wanted.compactMap { $0?.slug == CalendarSlug.prayerTimes ? $0?.name : nil }
            let objects = try names.compactMap { name in try Self.computed { () throws(PrayerTimesError) in try prayer.object(named: name) } }
            computed[CalendarSlug.prayerTimes] = (prayer.collection, Dictionary(objects.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }))
        }
        let asked = Dictionary(uniqueKeysWithValues: slugs.map { slug in (slug, requested.compactMap { $0?.slug == slug ? $0?.name : nil }) })
        let stored = try await calendars.objects(named: asked, accountID: owner)
        let found = stored.merging(computed) { first, _ in first }
        let sheet = try await propertySheet(for: call.account, selection: multiget.properties)
        let answers = found.mapValues { calendar, _ in
            ObjectResponses(
                service: self, sheet: sheet, calendar: calendar, selection: multiget.properties, calendarData: multiget.calendarData, minimal: minimal)
        }
        var responses: [Multistatus.Response] = []
        for (index, item) in wanted.enumerated() {
            guard let item, let (_, objects) = found[item.slug], let object = objects[item.name], let answer = answers[item.slug] else {
                responses.append(.status(multiget.hrefs[index], 404))
                continue
            }
            responses.append(answer.response(for: object))
        }
        return Multistatus(responses: responses)
    }
}

extension CalDAVService {
    // MARK: - calendar-query (RFC 4791 §7.8)

    package func calendarQuery(_ call: DAVCall, _ query: CalendarQueryReport, minimal: Bool) async throws -> Multistatus {
        let calendar = try await reportCalendar(call, .calendarQuery)
        let zone = try floatingZone(query: query, calendar: calendar)
        let types = query.filter.componentTypes
        let range = query.filter.componentTimeRange
        let onlyName: String? = if case .object(_, _, let name) = call.target { name } else { nil }
        let evaluator = CalendarQueryEvaluator(floatingZone: zone)
        // Instance indexes are kept per zone name; rules a query brings in its own <timezone>
        // may differ from the zone of that name, so such queries are evaluated in full.
        let indexZone = query.timezone == nil ? zone : nil
        let now = clock.now
        let answer = ObjectResponses(
            service: self, sheet: try await propertySheet(for: call.account, selection: query.properties), calendar: calendar,
            selection: query.properties, calendarData: query.calendarData, minimal: minimal, floatingZone: zone)
        var responses: [Multistatus.Response] = []
        let kinds = Set(ComponentKind.allCases.filter { types.isEmpty || types.contains($0.rawValue) })
        func consider(_ object: CalendarMirror.Object) {
            guard kinds.contains(object.stored.component) else { return }
            let parsed = object.parsed
            // Stored objects were validated on the way in; one that no longer parses cannot match.
            let matches = evaluator.matches(
                query.filter, calendar: { parsed.calendar }, events: { indexZone.flatMap { parsed.events(floatingZone: $0, now: now) } })
            if matches { responses.append(answer.response(for: object.stored, parsed: parsed)) }
        }
        // The index (first and last occurrence) narrows by time; the evaluator then decides
        // exactly, recurrences included.
        if !calendar.isComputed, onlyName == nil, let mirror = try await mirrors.mirror(of: calendar, calendars: calendars) {
            for position in mirror.positions(overlapping: range) { consider(mirror.objects[position]) }
            return Multistatus(responses: responses)
        }
        let candidates = try await calendar.isComputed
            ? computedObjects(for: call.account, overlapping: range).filter { onlyName == nil || $0.name == onlyName }
            : storedCandidates(in: calendar, named: onlyName, overlapping: range)
        for object in candidates { consider(CalendarMirror.Object(object, parsedBy: parsedCalendars)) }
        return Multistatus(responses: responses)
    }

    /// The stored objects a calendar-query looks at: the one it names, else those the index
    /// puts in its range, else all.
    private func storedCandidates(in calendar: CalendarCollection, named name: String?, overlapping range: TimeRange?) async throws -> [CalendarObject] {
        if let name { return try await calendars.object(named: name, in: calendar).map { [$0] } ?? [] }
        if let range { return try await calendars.objects(in: calendar, overlapping: range.start ?? .distantPast, range.end ?? .distantFuture) }
        return try await calendars.objects(in: calendar)
    }

    /// The zone floating times and dates are read in (RFC 4791 §9.8, RFC 7809): the query's
    /// own, else the calendar's, else UTC.
    package func floatingZone(query: CalendarQueryReport, calendar: CalendarCollection) throws -> ZoneRules {
        if let text = query.timezone {
            guard let parsed = try? ICalendarParser().parseCalendar(text),
                  let vtimezone = parsed.components.first(where: { $0.name == "VTIMEZONE" }),
                  let rules = try? ZoneRules(vtimezone: vtimezone)
            else {
                throw DAVError.precondition(.validCalendarTimezone, "The query's <timezone> must be a VCALENDAR holding one valid VTIMEZONE.")
            }
            return rules
        }
        if let identifier = query.timezoneID {
            guard let rules = caches.zoneRules.rules(identifier) else {
                throw DAVError.precondition(.caldav("valid-timezone"), "Unknown time zone \"\(identifier)\"; use an IANA name such as Asia/Riyadh.")
            }
            return rules
        }
        return calendar.timeZone.flatMap(caches.zoneRules.rules) ?? .utc
    }

    package func renderedCalendarData(
        _ object: CalendarObject, calendar: CalendarCollection, request: CalendarDataRequest, parsed: Component?, floatingZone: ZoneRules?
    ) -> String? {
        guard let parsed = parsed ?? parsedCalendars.calendar(for: object) else { return nil }
        let zone = floatingZone ?? calendar.timeZone.flatMap(caches.zoneRules.rules) ?? .utc
        return CalendarDataRenderer(floatingZone: zone).render(parsed, originalText: object.icalendar, request: request)
    }

    // MARK: - free-busy-query (RFC 4791 §7.10)

    package func freeBusy(_ call: DAVCall, _ query: FreeBusyQueryReport) async throws -> Response {
        guard case .calendar = call.target else {
            throw DAVError.precondition(.supportedReport, "free-busy-query is supported on calendars, not on \(call.href).")
        }
        let calendar = try await calendar(for: call)
        let range = query.timeRange
        let objects = try await calendar.isComputed
            ? computedObjects(for: call.account, overlapping: range)
            : calendars.objects(in: calendar, overlapping: range.start ?? .distantPast, range.end ?? .distantFuture)
        let parsed = objects.compactMap { parsedCalendars.calendar(for: $0) }
        let zone = calendar.timeZone.flatMap(caches.zoneRules.rules) ?? .utc
        let text = FreeBusyCalculator(floatingZone: zone).render(parsed, range: range, stamp: clock.now)
        return Response(
            status: .ok, headers: [.contentType: "text/calendar; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
