import DAV
import Foundation
import HTTPTypes
import Hummingbird
import ICalendar
import JadwalCore
import JadwalHTTP
import NIOCore
import Synchronization

/// CalDAV scheduling (RFC 6638): each principal's scheduling Inbox (the messages delivered to
/// them) and Outbox, Schedule-Tags on scheduling object resources with `If-Schedule-Tag-Match`,
/// and busy-time requests POSTed to the Outbox (answered only for people who allow the asker).
/// Invitations, answers and cancellations are sent by the write itself (`CalendarWrites`, Core's
/// implicit scheduling), whichever front door made it.
extension CalDAVService {
    // MARK: - The Inbox's default calendar (RFC 6638 §9.2)

    /// Where invitations are placed (`DefaultCalendars.invitationCalendar`); nil when the account has none.
    package func defaultCalendar(of owner: UUID) async throws -> CalendarCollection? {
        DefaultCalendars.invitationCalendar(among: try await calendars.all(accountID: owner))
    }

    // MARK: - If-Schedule-Tag-Match (RFC 6638 §3.2.10, §8.3)

    /// The conditions a write of `name` must pass: the client's If-Match as sent, and with
    /// `If-Schedule-Tag-Match` (RFC 6638 §3.2.10) the tag, checked here for a clear answer and
    /// again by the write in its transaction. The write is not bound to the ETag seen here:
    /// the server changes an organizer's copy by itself (answers, SCHEDULE-STATUS), and a client
    /// holding the current tag must not lose to that; its answers are kept by the write.
    package func writeCondition(_ call: DAVCall, calendar: CalendarCollection, name: String) async throws
        -> (ifMatch: String?, ifScheduleTag: ScheduleTagCondition?) {
        let ifMatch = Self.ifMatch(call.request)
        guard let wanted = call.request.headers[DAVResponse.ifScheduleTagMatchHeader]?.trimmingCharacters(in: .whitespaces) else { return (ifMatch, nil) }
        guard let current = try await calendars.object(named: name, in: calendar) else {
            throw DAVError.status(412, "If-Schedule-Tag-Match cannot hold: there is no object at \(call.href).")
        }
        guard let tag = DAVPropertySheet(account: call.account, caches: caches).scheduleTag(of: current, in: calendar) else {
            throw DAVError.status(412, "If-Schedule-Tag-Match cannot hold: \(call.href) is not a scheduling object resource (it has no ORGANIZER of yours or no ATTENDEE you are), so it has no Schedule-Tag.")
        }
        guard tag == wanted else {
            throw DAVError.status(412, "The meeting has changed (its Schedule-Tag is now \(tag)); fetch it again before writing.")
        }
        if let ifMatch, !CalendarWrites.ifMatch(ifMatch, holdsFor: current.etag) {
            throw DAVError.status(412, "The resource has changed (its ETag is now \(current.etag)); fetch it again before writing.")
        }
        return (ifMatch, ScheduleTagCondition(tag: wanted, addresses: CalendarUsers.addresses(of: call.account)))
    }

    /// `Schedule-Tag` for a response about `object` (RFC 6638 §3.2.10: every successful GET,
    /// PUT and MOVE of a scheduling object resource carries it); empty for other objects.
    package func scheduleTagHeader(_ object: CalendarObject, in calendar: CalendarCollection, account: Account) -> HTTPFields {
        guard let tag = DAVPropertySheet(account: account, caches: caches).scheduleTag(of: object, in: calendar) else { return [:] }
        return [DAVResponse.scheduleTagHeader: tag]
    }

    // MARK: - POST to the Outbox: busy time (RFC 6638 §5)

    package func post(_ call: DAVCall) async throws -> Response {
        switch call.target {
        case .scheduleOutbox: break
        case .calendar, .home: return try await sharingPost(call)
        default:
            throw DAVError.status(
                405, "POST is for busy-time requests to your scheduling Outbox (\(DAVHref.scheduleOutbox(call.account.id))) and for sharing calendars.")
        }
        if let type = call.request.headers[.contentType], !type.lowercased().hasPrefix("text/calendar") {
            throw DAVError.precondition(.supportedCalendarData, "A scheduling message must be sent as text/calendar (iCalendar 2.0), not \(type).")
        }
        let data = try await body(of: call.request, limit: CalendarObjectContent.maxBytes)
        guard let text = String(validating: data, as: UTF8.self) else {
            throw DAVError.precondition(.supportedCalendarData, "The body is not UTF-8 text.")
        }
        let request = try FreeBusyRequest(text: text)
        let sheet = DAVPropertySheet(account: call.account, caches: caches)
        guard sheet.ownerAddresses.contains(CalendarUserAddress(request.organizer.value)) else {
            throw DAVError.precondition(
                .organizerAllowed,
                "The ORGANIZER must be one of your calendar user addresses (mailto:\(call.account.email.value)), not \(request.organizer.value).")
        }
        var items: [ScheduleResponse.Item] = []
        for attendee in request.attendees {
            items.append(try await freeBusyAnswer(for: attendee, request: request, asker: call.account))
        }
        return DAVResponse.xml(ScheduleResponse(items: items).element, status: .ok)
    }

    /// One recipient's answer: their busy time when the address is an account of this server
    /// that lets the asker see it (`BusyTimeVisibility`), otherwise "invalid calendar user". An
    /// unknown address, a disabled account and one that does not allow the asker are answered
    /// alike, so the answer says nothing about who has an account. Only busy periods leave the
    /// server, never what the time is taken by.
    private func freeBusyAnswer(for attendee: Property, request: FreeBusyRequest, asker: Account) async throws -> ScheduleResponse.Item {
        let address = CalendarUserAddress(attendee.value)
        guard let account = try await account(at: address), !account.isDisabled,
              try await shares.mayReadBusyTime(of: account, asker: asker)
        else {
            return ScheduleResponse.Item(recipient: attendee.value, requestStatus: ScheduleRequestStatus.invalidCalendarUser)
        }
        let busy = try await busyPeriods(of: account, in: request.range)
        return ScheduleResponse.Item(
            recipient: attendee.value, requestStatus: ScheduleRequestStatus.success,
            calendarData: request.reply(for: attendee, busy: busy, stamp: clock.now))
    }

    /// The account a calendar user address names: its email (`mailto:`) or its principal URL.
    func account(at address: CalendarUserAddress) async throws -> Account? {
        try await CalendarUsers.account(at: address, store: store)
    }

    /// Busy time across the account's calendars that count for scheduling (RFC 6638 §9.1: not
    /// those whose `schedule-calendar-transp` is transparent), Prayer Times included, each read
    /// in its own zone as free-busy-query reads it, then merged.
    package func busyPeriods(of account: Account, in range: TimeRange) async throws -> [BusyPeriod] {
        let owner = account.id
        let start = range.start ?? .distantPast, end = range.end ?? .distantFuture
        var sources = try await calendars.eventObjects(accountID: owner, overlapping: start, end, counting: Self.countsAsBusy)
        if let prayer = try await prayerCollection(for: account), Self.countsAsBusy(prayer.collection) {
            sources.append((prayer.collection, try await computedObjects(for: account, overlapping: range)))
        }
        var periods: [BusyPeriod] = []
        for (calendar, objects) in sources where !objects.isEmpty {
            let parsed = objects.compactMap { parsedCalendars.calendar(for: $0) }
            let zone = calendar.timeZone.flatMap(caches.zoneRules.rules) ?? .utc
            periods += FreeBusyCalculator(floatingZone: zone).busyPeriods(parsed, in: range)
        }
        return FreeBusyCalculator.merged(periods)
    }

    /// Whether a calendar's events count as busy for scheduling: `schedule-calendar-transp` is
    /// opaque unless a client set it to transparent.
    package static func countsAsBusy(_ calendar: CalendarCollection) -> Bool {
        if let shared = calendar.sharedWithMe { return shared.countsAsBusy }
        guard let xml = calendar.deadProperties[QualifiedName.scheduleCalendarTransp.description],
              let element = try? XMLReader().read(Data(xml.utf8))
        else { return true }
        return !element.contains(.caldav("transparent"))
    }
}

extension DAVPropertySheet {
    /// The owner's calendar user addresses (RFC 6638 §2.4.1), as calendar-user-address-set lists them.
    package var ownerAddresses: Set<CalendarUserAddress> { CalendarUsers.addresses(of: account) }

    /// The Schedule-Tag of a scheduling object resource of this account; nil for other objects.
    package func scheduleTag(of object: CalendarObject, in calendar: CalendarCollection) -> String? {
        guard !calendar.isComputed, SchedulingObject.mayBeScheduling(object.icalendar), let parsed = caches.parsedCalendars.calendar(for: object),
              let role = SchedulingObject.role(of: parsed, ownerAddresses: ownerAddresses)
        else { return nil }
        return caches.scheduleTags.tag(etag: object.etag + (role == .attendee ? "/attendee" : "")) { ScheduleTags.tag(of: parsed, addresses: ownerAddresses) }
    }

    package static let inboxPrivileges: [QualifiedName] = [
        .read, .readCurrentUserPrivilegeSet, .scheduleDeliver, .scheduleDeliverInvite, .scheduleDeliverReply, .scheduleQueryFreebusy,
    ]
    package static let outboxPrivileges: [QualifiedName] = [
        .read, .readCurrentUserPrivilegeSet, .scheduleSend, .scheduleSendInvite, .scheduleSendReply, .scheduleSendFreebusy,
    ]

    /// Properties of the scheduling Inbox and Outbox (RFC 6638 §2.1–2.2, §6, §9.2). Their owner
    /// holds the RFC's aggregate privileges (RFC 3744 §5.4 lists an aggregate with its parts):
    /// delivery into the Inbox, sending through the Outbox.
    package func mailboxValue(_ name: PropertyName, of resource: DAVResource) -> DAVElement? {
        var inbox = false
        var defaultCalendar: CalendarCollection?
        switch resource {
        case .scheduleInbox(let calendar):
            inbox = true
            defaultCalendar = calendar
        case .scheduleOutbox: break
        default: return nil
        }
        switch name {
        case .resourceType: return PropertyValue.resourceType([.collection, inbox ? .scheduleInbox : .scheduleOutbox])
        case .displayName: return PropertyValue.text(.displayName, inbox ? "Scheduling Inbox" : "Scheduling Outbox")
        case .owner: return PropertyValue.hrefs(.owner, [DAVHref.principal(account.id)])
        case .currentUserPrivilegeSet: return PropertyValue.currentUserPrivilegeSet(inbox ? Self.inboxPrivileges : Self.outboxPrivileges)
        case .scheduleDefaultCalendarURL:
            return defaultCalendar.map { PropertyValue.hrefs(.scheduleDefaultCalendarURL, [DAVHref.calendar(account.id, $0.slug)]) }
        default: return nil
        }
    }
}

/// Schedule-Tags by ETag. The tag is a hash of what the stored bytes say about the meeting, so
/// like the ETag it needs no storage and cannot go stale; python caldav asks for it in every
/// query and multiget, so it is hashed once per version rather than once per answer. Bounded,
/// and emptied when full.
package final class ScheduleTagCache: Sendable {
    private let capacity: Int
    private let table = Mutex<[String: String]>([:])

    package init(capacity: Int) {
        self.capacity = capacity
    }

    package func tag(etag: String, compute: () -> String?) -> String? {
        if let hit = table.withLock({ $0[etag] }) { return hit }
        guard let tag = compute() else { return nil }
        table.withLock { table in
            if table.count >= capacity { table.removeAll(keepingCapacity: true) }
            table[etag] = tag
        }
        return tag
    }
}
