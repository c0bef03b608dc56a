import Foundation

/// What a committed transaction changed that an open calendar view or Today list shows: the
/// calendars written (objects, properties, the calendar itself), each with its owner, and the
/// accounts whose views changed in other ways (a conflict found or settled, prayer settings,
/// calendars shown or hidden). The store reports it after the commit; the live notification
/// stream tells the open pages, which fetch their part again.
public struct CalendarViewChanges: Sendable, Equatable, Codable {
    /// Calendar id → its owner's account id.
    public var calendars: [UUID: UUID] = [:]
    public var accounts: Set<UUID> = []
    /// Accounts that were posted a notification: their streams read the feed again.
    public var notified: Set<UUID> = []

    public init(calendars: [UUID: UUID] = [:], accounts: Set<UUID> = [], notified: Set<UUID> = []) {
        self.calendars = calendars
        self.accounts = accounts
        self.notified = notified
    }

    public var isEmpty: Bool { calendars.isEmpty && accounts.isEmpty && notified.isEmpty }

    public mutating func formUnion(_ other: CalendarViewChanges) {
        calendars.merge(other.calendars) { first, _ in first }
        accounts.formUnion(other.accounts)
        notified.formUnion(other.notified)
    }
}

/// Who sees a change: the owners and the accounts it names at once, and the people each changed
/// calendar is shared with (accepted shares), in one read for the whole change — never one per
/// open page.
public struct CalendarAudience: Sendable {
    let store: StoreAccess<any CalendarShareStore>

    public init(store: any Store) {
        self.store = StoreAccess(store) { $0 }
    }

    /// The accounts known without reading: owners and those named.
    public static func direct(_ changes: CalendarViewChanges) -> Set<UUID> {
        changes.accounts.union(changes.calendars.values)
    }

    /// Those the changed calendars are shared with (a read; none when no calendar changed).
    public func sharees(of changes: CalendarViewChanges) async throws -> Set<UUID> {
        guard !changes.calendars.isEmpty else { return [] }
        let ids = Array(changes.calendars.keys)
        return try await store.read { tx in
            var found = Set<UUID>()
            for id in ids {
                for share in try await tx.calendarShares(calendarID: id) where share.state == .accepted {
                    if let sharee = share.shareeID { found.insert(sharee) }
                }
            }
            return found
        }
    }
}
