import Foundation

/// One occurrence of an event that runs into other busy time, as found when the event was
/// written: what it overlaps and by exactly how much. The person resolves it (keep, move,
/// cancel) or leaves it open; a later write of the event finds it again or retires it.
public struct EventConflict: Sendable, Hashable, Codable {
    public enum Status: String, Sendable, Hashable, Codable, CaseIterable {
        /// Not dealt with yet.
        case open
        /// Acknowledged: both stay; shown as a known conflict and not raised again.
        case kept
        /// The event was moved to another slot.
        case moved
        /// The event (or this occurrence of it) was cancelled.
        case cancelled
        /// The event is someone else's meeting, and the person declined it.
        case declined
        /// The event is someone else's meeting, and the person proposed another time for it.
        case proposed
        /// The world changed: the event was edited, moved or deleted, or the overlap went away.
        case obsolete

        public var isResolved: Bool { self != .open }
    }

    /// The occurrence that conflicts.
    public struct Occurrence: Sendable, Hashable, Codable {
        public var calendarID: UUID
        public var objectName: String
        public var uid: String
        public var title: String?
        public var start: Date
        public var end: Date
        /// The instance's RECURRENCE-ID (`20261125T170000Z`, or a date) for a recurring event.
        public var recurrenceID: String?
        /// The object's ETag when the conflict was found: resolving refuses a changed object.
        public var etag: String

        public init(calendarID: UUID, objectName: String, uid: String, title: String?, start: Date, end: Date, recurrenceID: String?, etag: String) {
            self.calendarID = calendarID
            self.objectName = objectName
            self.uid = uid
            self.title = title
            self.start = start
            self.end = end
            self.recurrenceID = recurrenceID
            self.etag = etag
        }
    }

    /// Something the occurrence runs into, and the time they share.
    public struct Overlap: Sendable, Hashable, Codable {
        public enum Kind: String, Sendable, Hashable, Codable {
            case event, prayer, routine, task
        }

        public var kind: Kind
        public var title: String
        public var start: Date
        public var end: Date
        public var overlapStart: Date
        public var overlapEnd: Date
        /// For an event, a routine or a planned task: where it is stored.
        public var calendarID: UUID?
        public var objectName: String?
        /// For a prayer: its name (`fajr` … `isha`, `jumuah`).
        public var prayer: String?

        public init(
            kind: Kind, title: String, start: Date, end: Date, overlapStart: Date, overlapEnd: Date, calendarID: UUID? = nil,
            objectName: String? = nil, prayer: String? = nil
        ) {
            self.kind = kind
            self.title = title
            self.start = start
            self.end = end
            self.overlapStart = overlapStart
            self.overlapEnd = overlapEnd
            self.calendarID = calendarID
            self.objectName = objectName
            self.prayer = prayer
        }

        /// What it is, independent of when the check ran: the same block is the same overlap.
        var identity: String {
            "\(kind.rawValue)|\(calendarID?.uuidString ?? "")|\(objectName ?? "")|\(prayer ?? "")|\(start.timeIntervalSince1970)"
        }
    }

    public var id: UUID
    public var accountID: UUID
    public var event: Occurrence
    public var overlaps: [Overlap]
    public var source: WriteSource
    public var status: Status
    /// Tell the person (an event Jadwal added by itself, or one over a prayer).
    public var notify: Bool
    public var detectedAt: Date
    public var resolvedAt: Date?

    public init(
        id: UUID, accountID: UUID, event: Occurrence, overlaps: [Overlap], source: WriteSource, status: Status = .open, notify: Bool,
        detectedAt: Date, resolvedAt: Date? = nil
    ) {
        self.id = id
        self.accountID = accountID
        self.event = event
        self.overlaps = overlaps
        self.source = source
        self.status = status
        self.notify = notify
        self.detectedAt = detectedAt
        self.resolvedAt = resolvedAt
    }

    public var overlapsPrayer: Bool { overlaps.contains { $0.kind == .prayer } }

    /// The same occurrence running into the same things: found again, it is the same conflict.
    var identity: String {
        "\(event.start.timeIntervalSince1970)|" + overlaps.map(\.identity).sorted().joined(separator: ",")
    }
}

/// An event with an open conflict, as the checks that may end it name it.
public struct ConflictedEvent: Sendable, Hashable {
    public var calendarID: UUID
    public var objectName: String
    public var source: WriteSource

    public init(calendarID: UUID, objectName: String, source: WriteSource) {
        self.calendarID = calendarID
        self.objectName = objectName
        self.source = source
    }
}
