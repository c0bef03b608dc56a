import Foundation

/// A calendar collection in a person's calendar home: `/dav/calendars/<user>/<slug>/`.
public struct CalendarCollection: Sendable, Hashable, Codable {
    public var id: UUID
    public var accountID: UUID
    /// The URL segment; unique within the account.
    public var slug: String
    public var displayName: String
    public var description: String
    /// `#RRGGBB` or `#RRGGBBAA`, as Apple's clients write it.
    public var color: String?
    public var order: Int?
    /// A VTIMEZONE calendar or an IANA name: the zone for floating times in queries.
    public var timeZone: String?
    /// Which component types it holds: a calendar (VEVENT) or a task list (VTODO).
    public var components: Set<ComponentKind>
    /// Bumped by every change to the calendar or its objects: the sync token and getctag.
    public var revision: Int64
    public var createdAt: Date
    /// Properties a client set that Jadwal does not interpret (RFC 4918 "dead" properties):
    /// Clark name → the property element as XML, returned exactly as set.
    public var deadProperties: [String: String]
    /// The subscription that fills it (an ICS feed): its events come from there, so the person
    /// and their devices may rename or recolour it but not change what it holds.
    public var subscriptionID: UUID?
    /// The connected CalDAV account whose calendar it mirrors: it is the person's to change, and
    /// every change made here is written back there.
    public var caldavAccountID: UUID?
    /// Set on the view of a calendar someone shared with the person looking (`CalendarShare`);
    /// not stored with the calendar.
    public var sharing: CalendarSharing?

    public init(
        id: UUID, accountID: UUID, slug: String, displayName: String, description: String = "", color: String? = nil,
        order: Int? = nil, timeZone: String? = nil, components: Set<ComponentKind>, revision: Int64 = 0, createdAt: Date,
        deadProperties: [String: String] = [:], subscriptionID: UUID? = nil, caldavAccountID: UUID? = nil, sharing: CalendarSharing? = nil
    ) {
        self.id = id
        self.accountID = accountID
        self.slug = slug
        self.displayName = displayName
        self.description = description
        self.color = color
        self.order = order
        self.timeZone = timeZone
        self.components = components
        self.revision = revision
        self.createdAt = createdAt
        self.deadProperties = deadProperties
        self.subscriptionID = subscriptionID
        self.caldavAccountID = caldavAccountID
        self.sharing = sharing
    }
}

/// The iCalendar component types a calendar can hold.
public enum ComponentKind: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case event = "VEVENT"
    case todo = "VTODO"
    case journal = "VJOURNAL"

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One `.ics` resource in a calendar, with the index that lets time-range queries filter in
/// SQL before expanding recurrences in memory.
public struct CalendarObject: Sendable, Hashable {
    public var calendarID: UUID
    /// The resource name in the collection, e.g. `3F2A….ics`.
    public var name: String
    public var uid: String
    public var component: ComponentKind
    public var icalendar: String
    public var etag: String
    /// First instant any occurrence touches; nil when the object has no time (a task without dates).
    public var firstStart: Date?
    /// Last instant any occurrence touches; nil when it never ends (an endless RRULE) or has no time.
    public var lastEnd: Date?
    public var revision: Int64
    public var updatedAt: Date

    public init(
        calendarID: UUID, name: String, uid: String, component: ComponentKind, icalendar: String, etag: String,
        firstStart: Date?, lastEnd: Date?, revision: Int64 = 0, updatedAt: Date
    ) {
        self.calendarID = calendarID
        self.name = name
        self.uid = uid
        self.component = component
        self.icalendar = icalendar
        self.etag = etag
        self.firstStart = firstStart
        self.lastEnd = lastEnd
        self.revision = revision
        self.updatedAt = updatedAt
    }

    /// Whether the index says the object may have an occurrence in [start, end).
    /// Objects without time bounds are always candidates; the expander decides.
    public func mayOverlap(start: Date, end: Date) -> Bool {
        if let firstStart, firstStart >= end { return false }
        if let lastEnd, lastEnd <= start { return false }
        return true
    }
}

/// What happened to a resource at one revision of its calendar (RFC 6578's change log).
public struct CalendarChange: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable { case written, deleted }
    public var name: String
    public var kind: Kind
    public var revision: Int64

    public init(name: String, kind: Kind, revision: Int64) {
        self.name = name
        self.kind = kind
        self.revision = revision
    }
}

extension CalendarCollection {
    /// The prayer-times calendar: computed, read-only, not stored.
    public var isComputed: Bool { slug == CalendarSlug.prayerTimes }

    /// Whether what it holds comes from elsewhere (a subscription), so no one may write its objects.
    public var isSubscribed: Bool { subscriptionID != nil }

    /// Whether it mirrors a calendar of a connected CalDAV account (changes are written back).
    public var isMirrored: Bool { caldavAccountID != nil }
}
