import DAV
import Foundation
import Hummingbird
import ICalendar
import JadwalCore
import JadwalHTTP

extension CalDAVService {
    // MARK: - PROPFIND (RFC 4918 §9.1)

    package func propfind(_ call: DAVCall) async throws -> Response {
        let depth = try Depth.forPropfind(header: call.request.headers[DAVResponse.depthHeader])
        let propfind = try PropfindRequest(body: try await body(of: call.request), reader: reader)
        guard let resource = try await resource(call.target, account: call.account) else { throw DAVError.notFound(call.request.uri.path) }
        var members = [(href: call.href, resource: resource)]
        if depth == .one { members += try await children(of: resource, target: call.target, account: call.account) }
        let sheet = try await propertySheet(for: call.account, selection: propfind.selection)
        let minimal = Self.prefersMinimal(call.request)
        let responses = members.map { member in
            propertyResponse(sheet: sheet, href: member.href, resource: member.resource, selection: propfind.selection, minimal: minimal)
        }
        return DAVResponse.multistatus(
            Multistatus(responses: responses), headers: minimal ? [DAVResponse.preferenceAppliedHeader: "return=minimal"] : [:])
    }

    /// The members Depth: 1 adds.
    package func children(of resource: DAVResource, target: DAVTarget, account: Account) async throws -> [(href: String, resource: DAVResource)] {
        let owner = account.id
        switch resource {
        case .root, .principals:
            return [(DAVHref.principal(owner), .principal)]
        case .calendarHomes:
            return [(DAVHref.home(owner), .home)]
        case .home:
            var calendars = try await calendars.visibleWithShares(accountID: owner)
            if let prayer = try await prayerCollection(for: account) { calendars.append(prayer.collection) }
            return calendars.map { (DAVHref.calendar(owner, $0.slug), .calendar($0)) }
        case .calendar(let calendar):
            let objects = try await objects(in: calendar, account: account)
            return objects.map { (DAVHref.object(owner, calendar.slug, $0.name), .object(calendar, $0)) }
        case .principal:
            // RFC 6638 §2.1–2.2: the scheduling Inbox and Outbox live under the principal.
            return [
                (DAVHref.scheduleInbox(owner), .scheduleInbox(defaultCalendar: try await defaultCalendar(of: owner))),
                (DAVHref.scheduleOutbox(owner), .scheduleOutbox),
                (DAVHref.notifications(owner), .notifications(try await pendingShares(account))),
            ]
        case .scheduleInbox:
            return try await invitations.inbox(of: account).map { (DAVHref.href(for: .inboxItem(owner, name: $0.name)), .inboxItem($0)) }
        case .notifications(let pending):
            return pending.map { (DAVHref.href(for: .notification(owner, name: Self.notificationName($0))), .notification($0)) }
        case .scheduleOutbox, .object, .inboxItem, .notification:
            return []
        }
    }

    /// A sheet for the account, with the stored size when a quota property may be answered.
    package func propertySheet(for account: Account, selection: PropertySelection) async throws -> DAVPropertySheet {
        var sheet = DAVPropertySheet(account: account, caches: caches)
        let asksQuota: Bool
        switch selection {
        case .properties(let names): asksQuota = names.contains(.quotaUsedBytes) || names.contains(.quotaAvailableBytes)
        case .allProperties(let include): asksQuota = include.contains(.quotaUsedBytes) || include.contains(.quotaAvailableBytes)
        case .propertyNames: asksQuota = false
        }
        if asksQuota {
            sheet.storedBytes = try await calendars.storedUsage(accountID: account.id).bytes
            sheet.quotaBytes = store.accountQuota.bytes
        }
        return sheet
    }

    /// One resource's `<d:response>` for a property selection. `calendarData` replaces the stored
    /// text when a report asked for part of it (partial retrieval, expand).
    package func propertyResponse(
        sheet: DAVPropertySheet, href: String, resource: DAVResource, selection: PropertySelection, minimal: Bool,
        calendarData: (() -> DAVElement?)? = nil
    ) -> Multistatus.Response {
        var builder = Multistatus.PropertyResponseBuilder(href: href)
        func value(_ name: PropertyName) -> DAVElement? {
            if name == .calendarData, let calendarData { return calendarData() }
            return sheet.value(name, of: resource, href: href)
        }
        switch selection {
        case .properties(let names):
            for name in names {
                if let element = value(name) { builder.add(element) } else { builder.addNotFound(name) }
            }
        case .allProperties(let include):
            var names = DAVPropertySheet.allpropNames
            if case .calendar(let calendar) = resource {
                names += calendar.deadProperties.keys.sorted().compactMap(QualifiedName.init(clark:))
            }
            for name in include where !names.contains(name) { names.append(name) }
            // allprop lists what the resource has; absent properties are not errors.
            for name in names { if let element = value(name) { builder.add(element) } }
        case .propertyNames:
            for name in sheet.names(of: resource) { builder.add(DAVElement(name)) }
        }
        return builder.build(minimal: minimal)
    }

    // MARK: - PROPPATCH (RFC 4918 §9.2)

    /// Properties that are computed, never set (RFC 4918 §15 and the CalDAV/sync/ACL ones).
    package static let protectedProperties: Set<PropertyName> = [
        .resourceType, .getETag, .getCTag, .syncToken, .supportedCalendarComponentSet, .supportedCalendarData, .maxResourceSize,
        .currentUserPrincipal, .currentUserPrivilegeSet, .owner, .supportedReportSet, .getContentType, .getContentLength,
        .getLastModified, .creationDate, .quotaUsedBytes, .quotaAvailableBytes, .principalURL, .calendarHomeSet,
        .calendarUserAddressSet, .calendarData, .principalCollectionSet, .dav("lockdiscovery"), .dav("supportedlock"),
        .minDateTime, .maxDateTime, .caldav("max-instances"), .caldav("max-attendees-per-instance"),
        .scheduleTag, .scheduleInboxURL, .scheduleOutboxURL, .scheduleDefaultCalendarURL,
        .invite, .allowedSharingModes, .shareAccess, .sharedURL,
    ]
    package static let maxDeadProperties = 64
    package static let maxDeadPropertyBytes = 16 * 1024

    package func proppatch(_ call: DAVCall) async throws -> Response {
        let update = try ProppatchRequest(body: try await body(of: call.request), reader: reader)
        guard case .calendar = call.target else {
            guard try await resource(call.target, account: call.account) != nil else { throw DAVError.notFound(call.request.uri.path) }
            // Principals, homes and objects have no settable properties here.
            let outcomes = update.instructions.map {
                PropertyUpdateResponse.Outcome(
                    name: $0.propertyName, status: 403, error: DAVElement(.error, elements: [DAVElement(.cannotModifyProtectedProperty)]),
                    responseDescription: "Only calendars have properties that can be changed.")
            }
            return DAVResponse.multistatus(PropertyUpdateResponse.proppatch(href: call.href, outcomes: outcomes))
        }
        let target = try await calendar(for: call)  // 404 or 403 before anything else
        try Self.requireWritable(target)
        if let shared = target.sharedWithMe { return try await proppatchShared(call, calendar: target, shared: shared, update: update) }
        guard case .calendar(let owner, let slug) = call.target else { throw DAVError.notFound(call.request.uri.path) }
        // Read and written in one transaction: the update is atomic and sees the latest values.
        let instructions = update.instructions
        let changed = try await calendars.changeProperties(slug: slug, accountID: owner) { calendar in
            let outcomes = instructions.map { self.apply($0, to: &calendar, creating: false) }
            return (outcomes, PropertyUpdateResponse.succeeded(outcomes))
        }
        guard let outcomes = changed else { throw DAVError.notFound(call.href) }
        return DAVResponse.multistatus(PropertyUpdateResponse.proppatch(href: call.href, outcomes: outcomes))
    }

    /// PROPPATCH on a calendar shared with the caller: its name and colour are theirs (kept on
    /// the share, never the owner's); the order is accepted and not kept; every other property
    /// is the owner's to set.
    private func proppatchShared(_ call: DAVCall, calendar: CalendarCollection, shared: SharedCalendar, update: ProppatchRequest) async throws -> Response {
        var name: String?
        var color: String?
        var outcomes: [PropertyUpdateResponse.Outcome] = []
        for instruction in update.instructions {
            let property = instruction.propertyName
            switch (instruction, property) {
            case (.set(let element), .displayName): name = element.text
            case (.remove, .displayName): name = calendar.displayName
            case (.set(let element), .calendarColor): color = element.trimmedText
            case (.remove, .calendarColor): color = ""
            case (_, .calendarOrder): break
            default:
                outcomes.append(PropertyUpdateResponse.Outcome(
                    name: property, status: 403, error: DAVElement(.error, elements: [DAVElement(.needPrivileges)]),
                    responseDescription: "\(calendar.displayName) is shared with you by \(shared.ownerName): only its name and colour are yours to set."))
                continue
            }
            outcomes.append(PropertyUpdateResponse.Outcome(name: property, status: 200))
        }
        if PropertyUpdateResponse.succeeded(outcomes) {
            do {
                _ = try await shares.updateMine(shareID: shared.shareID, account: call.account, name: name, color: color)
            } catch CalendarShares.Problem.invalidProperty(let problem) {
                outcomes = outcomes.map { PropertyUpdateResponse.Outcome(name: $0.name, status: 409, responseDescription: problem.description.asSentence) }
            }
        }
        return DAVResponse.multistatus(PropertyUpdateResponse.proppatch(href: call.href, outcomes: outcomes))
    }

    /// Applies one set/remove to `calendar`, or says why it cannot be. Shared by PROPPATCH,
    /// MKCALENDAR and extended MKCOL so a value means the same whichever method sets it.
    package func apply(_ instruction: ProppatchRequest.Instruction, to calendar: inout CalendarCollection, creating: Bool) -> PropertyUpdateResponse.Outcome {
        let name = instruction.propertyName
        func failure(_ status: Int, _ message: String, condition: QualifiedName? = nil) -> PropertyUpdateResponse.Outcome {
            PropertyUpdateResponse.Outcome(
                name: name, status: status, error: condition.map { DAVElement(.error, elements: [DAVElement($0)]) }, responseDescription: message)
        }
        let ok = PropertyUpdateResponse.Outcome(name: name, status: 200)
        if creating {
            switch (instruction, name) {
            case (.set(let element), .supportedCalendarComponentSet):
                do {
                    guard case .supportedCalendarComponents(let names)? = try CollectionProperty(element: element) else { return ok }
                    let kinds = names.compactMap(ComponentKind.init(rawValue:))
                    guard !kinds.isEmpty, kinds.count == names.count else {
                        return failure(403, "Jadwal calendars hold VEVENT, VTODO or VJOURNAL, not \(names.joined(separator: ", ")).",
                                       condition: .supportedCalendarComponent)
                    }
                    calendar.components = Set(kinds)
                    return ok
                } catch {
                    return failure(409, error.message)
                }
            case (.set, .resourceType):
                return ok  // checked by makeCalendar before the properties
            default:
                break
            }
        }
        if Self.protectedProperties.contains(name) {
            return failure(403, "\(name.localName) is computed by the server and cannot be changed.", condition: .cannotModifyProtectedProperty)
        }
        var change = CalendarPropertiesChange()
        switch (instruction, name) {
        case (.set(let element), .displayName): change.displayName = element.text
        case (.remove, .displayName): change.displayName = calendar.slug
        case (.set(let element), .calendarDescription): change.description = element.text
        case (.remove, .calendarDescription): change.description = ""
        case (.set(let element), .calendarColor):
            change.color = element.trimmedText
        case (.remove, .calendarColor): change.color = ""
        case (.set(let element), .calendarOrder):
            guard let order = Int(element.trimmedText) else { return failure(409, "calendar-order must be an integer, not \"\(element.trimmedText)\".") }
            change.order = order
        case (.remove, .calendarOrder):
            calendar.order = nil
            return ok
        case (.set(let element), .calendarTimezone):
            guard let zone = Self.ianaZone(fromCalendarTimezone: element.text) else {
                return failure(403, "calendar-timezone must be a VCALENDAR with one VTIMEZONE whose TZID is an IANA zone such as Asia/Riyadh.",
                               condition: .validCalendarTimezone)
            }
            change.timeZone = zone
        case (.set(let element), .calendarTimezoneID):
            change.timeZone = element.trimmedText
        case (.remove, .calendarTimezone), (.remove, .calendarTimezoneID): change.timeZone = ""
        case (.set(let element), _):
            let xml = XMLWriter.document(element)
            guard xml.utf8.count <= Self.maxDeadPropertyBytes else {
                return failure(507, "A property value may be at most \(Self.maxDeadPropertyBytes) bytes.")
            }
            guard calendar.deadProperties[name.description] != nil || calendar.deadProperties.count < Self.maxDeadProperties else {
                return failure(507, "A calendar may carry at most \(Self.maxDeadProperties) custom properties.")
            }
            calendar.deadProperties[name.description] = xml
            return ok
        case (.remove, _):
            calendar.deadProperties[name.description] = nil
            return ok
        }
        do {
            calendar = try change.applied(to: calendar)
            return ok
        } catch {
            if case .timeZone = error { return failure(403, "\(error.description).", condition: .validCalendarTimezone) }
            return failure(409, error.description.asSentence)
        }
    }

    /// The IANA zone of a `calendar-timezone` value: its VTIMEZONE's TZID as the iCalendar
    /// engine resolves TZIDs (IANA names, vendor prefixes such as `/mozilla.org/…/Asia/Riyadh`,
    /// Windows names).
    package static func ianaZone(fromCalendarTimezone text: String) -> String? {
        guard let calendar = try? ICalendarParser().parseCalendar(text),
              let tzid = calendar.components.first(where: { $0.name == "VTIMEZONE" })?.first("TZID")?.value,
              let identifier = TimeZoneResolver.ianaIdentifier(for: tzid), IANATimeZone.isKnown(identifier)
        else { return nil }
        return identifier
    }

    // MARK: - MKCALENDAR (RFC 4791 §5.3.1) and extended MKCOL (RFC 5689)

    package func makeCalendar(_ call: DAVCall, method: CollectionCreationRequest.Method) async throws -> Response {
        guard case .calendar(_, let slug) = call.target else {
            throw DAVError.precondition(
                .calendarCollectionLocationOK, "Calendars are created directly in your calendar home, \(DAVHref.home(call.account.id)).")
        }
        guard CalendarSlug.isValid(slug) else {
            throw DAVError.precondition(
                .calendarCollectionLocationOK,
                "A calendar's name in the URL must be 1 to 128 ASCII letters, digits, '-', '_', '.' or '@', and not '\(CalendarSlug.prayerTimes)'.")
        }
        let creation = try CollectionCreationRequest(method: method, body: try await body(of: call.request), reader: reader)
        if method == .mkcol {
            let types = creation.properties.first { $0.name == .resourceType }?.elements.map(\.name) ?? []
            guard types.contains(.calendar) else {
                throw DAVError.precondition(.validResourceType, "Only calendar collections can be created here; set resourcetype to collection and calendar.")
            }
        }
        var calendar: CalendarCollection
        do {
            calendar = try calendars.validated(Calendars.Draft(slug: slug), account: call.account)
        } catch {
            throw Self.davError(error, href: call.href)
        }
        let outcomes = creation.properties.map { apply(.set($0), to: &calendar, creating: true) }
        guard PropertyUpdateResponse.succeeded(outcomes) else {
            return DAVResponse.xml(PropertyUpdateResponse.collectionCreationFailure(method, outcomes: outcomes), status: .forbidden)
        }
        do {
            _ = try await calendars.create(calendar)
        } catch let problem as Calendars.Problem {
            throw Self.davError(problem, href: call.href)
        }
        return Response(status: .created, headers: [.location: call.href, .cacheControl: "no-cache"])
    }
}
