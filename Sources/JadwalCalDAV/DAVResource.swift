import DAV
import Foundation
import ICalendar
import JadwalCore
import JadwalHTTP

/// A resource found at a DAV path, with what its properties are computed from.
package enum DAVResource: Sendable {
    case root
    case principals
    case principal
    /// The scheduling Inbox (RFC 6638 §2.2), with the calendar invitations would land in.
    case scheduleInbox(defaultCalendar: CalendarCollection?)
    case scheduleOutbox
    case calendarHomes
    case home
    case calendar(CalendarCollection)
    case object(CalendarCollection, CalendarObject)
    /// A message the server delivered into the person's Inbox.
    case inboxItem(SchedulingMessage)
    /// The notification collection, with the share invitations waiting for an answer.
    case notifications([CalendarShareEntry])
    /// One of them (`ShareNotification`).
    case notification(CalendarShareEntry)

    package var isCollection: Bool {
        switch self {
        case .object, .inboxItem, .notification: false
        default: true
        }
    }
}

/// The properties of one resource, for PROPFIND and for the reports that return properties.
/// Live properties are computed here; a calendar's dead properties are returned as stored.
package struct DAVPropertySheet: Sendable {
    package let account: Account
    /// Schedule-Tags are hashed once per object version.
    package let caches: CalDAVCaches
    /// Bytes stored by the account, when a quota property was asked for.
    package var storedBytes: Int64?
    /// The bytes the account may store (`AccountQuota.bytes`).
    package var quotaBytes: Int64 = AccountQuota().bytes

    package static let readPrivileges: [QualifiedName] = [.read, .readCurrentUserPrivilegeSet, .readFreeBusy]
    package static let writePrivileges: [QualifiedName] = [.write, .writeProperties, .writeContent, .bind, .unbind]
    package static let calendarReports: [QualifiedName] = [.calendarQuery, .calendarMultiget, .syncCollection, .freeBusyQuery]

    /// Properties `allprop` returns (RFC 4918 §9.1: the live properties it defines, plus dead ones).
    package static let allpropNames: [PropertyName] = [
        .resourceType, .displayName, .getETag, .getContentType, .getContentLength, .getLastModified, .creationDate,
    ]

    /// Names the resource has, for `propname`.
    package func names(of resource: DAVResource) -> [PropertyName] {
        var names: [PropertyName] = [
            .resourceType, .displayName, .currentUserPrincipal, .currentUserPrivilegeSet, .principalCollectionSet, .supportedReportSet,
        ]
        switch resource {
        case .root, .principals, .calendarHomes:
            break
        case .principal:
            names += [
                .principalURL, .calendarHomeSet, .calendarUserAddressSet, .emailAddressSet, .calendarUserType, .scheduleInboxURL,
                .scheduleOutboxURL, .notificationURL,
            ]
        case .scheduleInbox(let calendar):
            names += [.owner] + (calendar == nil ? [] : [.scheduleDefaultCalendarURL])
        case .scheduleOutbox:
            names += [.owner]
        case .home:
            names += [.owner, .quotaAvailableBytes, .quotaUsedBytes]
        case .calendar(let calendar):
            names += [
                .owner, .calendarDescription, .calendarColor, .calendarOrder, .calendarTimezone, .calendarTimezoneID, .supportedCalendarComponentSet,
                .supportedCalendarData, .maxResourceSize, .getCTag, .syncToken, .creationDate, .scheduleCalendarTransp,
            ]
            if !calendar.isComputed { names += [.invite, .allowedSharingModes, .shareAccess] }
            if calendar.sharedWithMe != nil { names.append(.sharedURL) }
            names += calendar.deadProperties.keys.sorted().compactMap(QualifiedName.init(clark:))
        case .object:
            names.removeAll { $0 == .displayName }  // objects have none
            names += [.owner, .getETag, .getContentType, .getContentLength, .getLastModified, .calendarData]
            if case .object(let calendar, let object) = resource, scheduleTag(of: object, in: calendar) != nil { names.append(.scheduleTag) }
        case .inboxItem:
            names.removeAll { $0 == .displayName }
            names += [.owner, .getETag, .getContentType, .getContentLength, .getLastModified, .calendarData]
        case .notifications:
            names += [.owner, .getCTag]
        case .notification:
            names.removeAll { $0 == .displayName }
            names += [.owner, .getETag, .getContentType, .getContentLength, .notificationType]
        }
        return names
    }

    /// The value of `name` on `resource`, or nil when the resource does not have it (a 404 propstat).
    package func value(_ name: PropertyName, of resource: DAVResource, href: String) -> DAVElement? {
        if let common = commonValue(name, of: resource) { return common }
        switch resource {
        case .root, .principals, .calendarHomes:
            switch name {
            case .resourceType: return PropertyValue.resourceType([.collection])
            case .displayName: return PropertyValue.text(.displayName, "Jadwal")
            default: return nil
            }
        case .principal:
            return principalValue(name)
        case .scheduleInbox, .scheduleOutbox:
            return mailboxValue(name, of: resource)
        case .home:
            switch name {
            case .resourceType: return PropertyValue.resourceType([.collection])
            case .displayName: return PropertyValue.text(.displayName, account.displayName)
            case .owner: return PropertyValue.hrefs(.owner, [DAVHref.principal(account.id)])
            case .quotaUsedBytes: return storedBytes.map { PropertyValue.text(.quotaUsedBytes, String($0)) }
            case .quotaAvailableBytes: return storedBytes.map { PropertyValue.text(.quotaAvailableBytes, String(max(0, quotaBytes - $0))) }
            case .currentUserPrivilegeSet: return PropertyValue.currentUserPrivilegeSet(Self.readPrivileges + Self.writePrivileges)
            default: return nil
            }
        case .calendar(let calendar):
            return calendarValue(name, calendar)
        case .object(let calendar, let object):
            switch name {
            case .resourceType: return PropertyValue.resourceType([])
            case .getETag: return PropertyValue.etag(object.etag)
            case .getContentType: return PropertyValue.text(.getContentType, Self.contentType(object.component))
            case .getContentLength: return PropertyValue.text(.getContentLength, String(object.icalendar.utf8.count))
            case .getLastModified: return PropertyValue.text(.getLastModified, DAVDate.http(object.updatedAt))
            case .calendarData: return PropertyValue.calendarData(object.icalendar)
            case .scheduleTag: return scheduleTag(of: object, in: calendar).map { PropertyValue.text(.scheduleTag, $0) }
            case .owner: return PropertyValue.hrefs(.owner, [DAVHref.principal(account.id)])
            case .currentUserPrivilegeSet:
                return PropertyValue.currentUserPrivilegeSet(CalDAVService.privileges(of: calendar))
            default: return nil
            }
        case .inboxItem(let message):
            switch name {
            case .resourceType: return PropertyValue.resourceType([])
            case .getETag: return PropertyValue.etag(message.etag)
            case .getContentType: return PropertyValue.text(.getContentType, Self.contentType(.event))
            case .getContentLength: return PropertyValue.text(.getContentLength, String(message.icalendar.utf8.count))
            case .getLastModified: return PropertyValue.text(.getLastModified, DAVDate.http(message.createdAt))
            case .calendarData: return PropertyValue.calendarData(message.icalendar)
            case .owner: return PropertyValue.hrefs(.owner, [DAVHref.principal(account.id)])
            // Read, and deleted once dealt with (RFC 6638 §2.2: unbind on the Inbox).
            case .currentUserPrivilegeSet: return PropertyValue.currentUserPrivilegeSet(Self.readPrivileges + [.unbind])
            default: return nil
            }
        case .notifications(let pending):
            switch name {
            case .resourceType: return PropertyValue.resourceType([.collection, .notification])
            case .displayName: return PropertyValue.text(.displayName, "Notifications")
            case .owner: return PropertyValue.hrefs(.owner, [DAVHref.principal(account.id)])
            case .getCTag: return PropertyValue.text(.getCTag, ShareNotification.ctag(pending))
            case .currentUserPrivilegeSet: return PropertyValue.currentUserPrivilegeSet(Self.readPrivileges + [.unbind])
            default: return nil
            }
        case .notification(let entry):
            let bytes = ShareNotification(entry).bytes
            switch name {
            case .resourceType: return PropertyValue.resourceType([])
            case .getETag: return PropertyValue.etag(ShareNotification.etag(of: bytes))
            case .getContentType: return PropertyValue.text(.getContentType, ShareNotification.contentType)
            case .getContentLength: return PropertyValue.text(.getContentLength, String(bytes.count))
            case .notificationType:
                return DAVElement(.notificationType, elements: [DAVElement(.inviteNotification, attributes: [QualifiedName("", "shared-type"): "calendar"])])
            case .owner: return PropertyValue.hrefs(.owner, [DAVHref.principal(account.id)])
            // Read, and dismissed by deleting it.
            case .currentUserPrivilegeSet: return PropertyValue.currentUserPrivilegeSet(Self.readPrivileges + [.unbind])
            default: return nil
            }
        }
    }

    package static func contentType(_ component: ComponentKind) -> String {
        "text/calendar; charset=utf-8; component=\(component.rawValue.lowercased())"
    }

    private func commonValue(_ name: PropertyName, of resource: DAVResource) -> DAVElement? {
        switch name {
        case .currentUserPrincipal: return PropertyValue.hrefs(.currentUserPrincipal, [DAVHref.principal(account.id)])
        case .principalCollectionSet: return PropertyValue.hrefs(.principalCollectionSet, [DAVHref.principals])
        case .supportedReportSet:
            switch resource {
            case .calendar: return PropertyValue.supportedReportSet(Self.calendarReports)
            case .object: return PropertyValue.supportedReportSet([.calendarQuery, .calendarMultiget])
            case .home: return PropertyValue.supportedReportSet([.calendarMultiget])
            case .root, .principals, .principal: return PropertyValue.supportedReportSet([.principalPropertySearch])
            default: return PropertyValue.supportedReportSet([])
            }
        case .currentUserPrivilegeSet:
            switch resource {
            case .root, .principals, .calendarHomes, .principal: return PropertyValue.currentUserPrivilegeSet([.read, .readCurrentUserPrivilegeSet])
            default: return nil
            }
        default: return nil
        }
    }

    private func principalValue(_ name: PropertyName) -> DAVElement? {
        switch name {
        case .resourceType: PropertyValue.resourceType([.collection, .principal])
        case .displayName: PropertyValue.text(.displayName, account.displayName)
        case .principalURL: PropertyValue.hrefs(.principalURL, [DAVHref.principal(account.id)])
        case .calendarHomeSet: PropertyValue.hrefs(.calendarHomeSet, [DAVHref.home(account.id)])
        case .calendarUserAddressSet:
            PropertyValue.hrefs(.calendarUserAddressSet, ["mailto:\(account.email.value)", DAVHref.principal(account.id)])
        case .emailAddressSet: DAVElement(.emailAddressSet, elements: [DAVElement(.emailAddress, text: account.email.value)])
        case .calendarUserType: PropertyValue.text(.calendarUserType, "INDIVIDUAL")
        case .scheduleInboxURL: PropertyValue.hrefs(.scheduleInboxURL, [DAVHref.scheduleInbox(account.id)])
        case .scheduleOutboxURL: PropertyValue.hrefs(.scheduleOutboxURL, [DAVHref.scheduleOutbox(account.id)])
        case .notificationURL: PropertyValue.hrefs(.notificationURL, [DAVHref.notifications(account.id)])
        default: nil
        }
    }

    private func calendarValue(_ name: PropertyName, _ calendar: CalendarCollection) -> DAVElement? {
        if let sharing = sharingValue(name, calendar) { return sharing }
        switch name {
        case .resourceType: return PropertyValue.resourceType([.collection, .calendar])
        case .displayName: return PropertyValue.text(.displayName, calendar.displayName)
        case .calendarDescription: return PropertyValue.text(.calendarDescription, calendar.description)
        case .calendarColor: return calendar.color.map { PropertyValue.text(.calendarColor, $0) }
        case .calendarOrder: return calendar.order.map { PropertyValue.text(.calendarOrder, String($0)) }
        case .calendarTimezone: return calendar.timeZone.flatMap(Self.timeZoneCalendar).map { PropertyValue.text(.calendarTimezone, $0) }
        case .calendarTimezoneID: return calendar.timeZone.map { PropertyValue.text(.calendarTimezoneID, $0) }
        case .supportedCalendarComponentSet:
            return PropertyValue.supportedCalendarComponentSet(calendar.components.sorted().map(\.rawValue))
        case .supportedCalendarData: return PropertyValue.supportedCalendarData()
        case .maxResourceSize: return PropertyValue.text(.maxResourceSize, String(CalendarObjectContent.maxBytes))
        case .getCTag: return PropertyValue.text(.getCTag, SyncToken(calendarID: calendar.id, revision: calendar.revision).description)
        case .syncToken: return PropertyValue.text(.syncToken, SyncToken(calendarID: calendar.id, revision: calendar.revision).description)
        case .creationDate: return PropertyValue.text(.creationDate, DAVDate.iso8601(calendar.createdAt))
        case .owner: return PropertyValue.hrefs(.owner, [DAVHref.principal(calendar.sharedWithMe?.ownerID ?? account.id)])
        case .currentUserPrivilegeSet:
            return PropertyValue.currentUserPrivilegeSet(CalDAVService.privileges(of: calendar))
        default:
            if let xml = calendar.deadProperties[name.description] { return try? XMLReader().read(Data(xml.utf8)) }
            // Apple's clients read this to decide whether events count as busy (RFC 6638 §9.1);
            // a client may set it, and then the stored value above wins.
            return name == .scheduleCalendarTransp ? DAVElement(.scheduleCalendarTransp, elements: [DAVElement(.opaque)]) : nil
        }
    }

    /// `calendar-timezone` (RFC 4791 §5.2.2): a VCALENDAR holding the zone's VTIMEZONE.
    package static func timeZoneCalendar(_ identifier: String) -> String? {
        guard let zone = VTimeZoneWriter.component(forIANAIdentifier: identifier, fromYear: 2000) else { return nil }
        let calendar = Component(name: "VCALENDAR", properties: [
            Property(name: "VERSION", value: "2.0"), Property(name: "PRODID", value: "-//Jadwal//CalDAV//EN"),
        ], components: [zone])
        return ICalendarSerializer().serialize(calendar)
    }
}

/// Calendar sharing as Apple's clients read it (calendarserver-sharing) and as the WebDAV
/// resource-sharing draft names it: who shares, with whom, and with what access.
extension DAVPropertySheet {
    func sharingValue(_ name: PropertyName, _ calendar: CalendarCollection) -> DAVElement? {
        guard !calendar.isComputed else { return nil }
        let shared = calendar.sharedWithMe
        let made = calendar.sharesMade
        switch name {
        case .resourceType:
            var types: [QualifiedName] = [.collection, .calendar]
            if shared != nil { types.append(.shared) } else if !made.isEmpty { types.append(.sharedOwner) }
            return PropertyValue.resourceType(types)
        case .invite:
            if let shared {
                return DAVElement(.invite, elements: [
                    Self.organizer(email: shared.ownerEmail.value, name: shared.ownerName),
                    Self.inviteUser(email: shared.shareeEmail.value, state: .accepted, access: shared.access),
                ])
            }
            guard !made.isEmpty else { return DAVElement(.invite) }
            return DAVElement(.invite, elements: [Self.organizer(email: account.email.value, name: account.displayName)]
                + made.map { Self.inviteUser(email: $0.shareeEmail.value, state: $0.state, access: $0.access) })
        case .allowedSharingModes:
            return DAVElement(.allowedSharingModes, elements: shared == nil ? [DAVElement(.canBeShared)] : [])
        case .shareAccess:
            let access: QualifiedName = switch shared?.access {
            case .read?: .davReadAccess
            case .readWrite?: .davReadWriteAccess
            case nil: made.isEmpty ? .notShared : .sharedOwnerAccess
            }
            return DAVElement(.shareAccess, elements: [DAVElement(access)])
        case .sharedURL:
            guard let shared else { return nil }
            return DAVElement(.sharedURL, elements: [DAVElement(.href, text: DAVHref.calendar(shared.ownerID, shared.ownerSlug))])
        default:
            return nil
        }
    }

    private static func organizer(email: String, name: String) -> DAVElement {
        DAVElement(.inviteOrganizer, elements: [DAVElement(.href, text: "mailto:" + email), DAVElement(.commonName, text: name)])
    }

    private static func inviteUser(email: String, state: CalendarShare.State, access: CalendarShare.Access) -> DAVElement {
        let answer: QualifiedName = switch state {
        case .invited: .inviteNoResponse
        case .accepted: .inviteAccepted
        case .declined: .inviteDeclined
        }
        return DAVElement(.inviteUser, elements: [
            DAVElement(.href, text: "mailto:" + email), DAVElement(answer),
            DAVElement(.inviteAccess, elements: [DAVElement(access == .readWrite ? .readWriteAccess : .readAccess)]),
        ])
    }
}

