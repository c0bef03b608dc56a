import Foundation

/// The calendars a person sees: their own and the ones shared with them that they accepted
/// (as `CalendarShare.view(of:ownerName:)` shows them). Readers that work in a person's whole
/// home (CalDAV, the integrated view, busy time) ask here, so a shared calendar appears
/// everywhere its owner's do.
extension Calendars {
    /// The calendar at `slug` in the person's home: their own, else one shared with them.
    public static func calendar(accountID: UUID, slug: String, tx: any CalendarShareStore & CalendarStore) async throws -> CalendarCollection? {
        if let own = try await tx.calendar(accountID: accountID, slug: slug) { return own }
        guard slug.hasPrefix(CalendarShares.slugPrefix) else { return nil }
        return try await tx.acceptedCalendarShares(shareeID: accountID).first { $0.share.slug == slug }?.view
    }

    /// The person's own calendars in their order, then those shared with them.
    public static func visible(accountID: UUID, tx: any CalendarShareStore & CalendarStore) async throws -> [CalendarCollection] {
        try await tx.calendars(accountID: accountID) + tx.acceptedCalendarShares(shareeID: accountID).map(\.view)
    }

    /// A calendar the person sees, by id: their own, or the view of one shared with them.
    public static func visible(id: UUID, accountID: UUID, tx: any CalendarShareStore & CalendarStore) async throws -> CalendarCollection? {
        guard let calendar = try await tx.calendar(id: id) else { return nil }
        if calendar.accountID == accountID { return calendar }
        return try await tx.acceptedCalendarShares(shareeID: accountID).first { $0.share.calendarID == id }?.view
    }

    public func calendar(accountID: UUID, slug: String) async throws -> CalendarCollection? {
        try await store.read { tx in try await Self.calendar(accountID: accountID, slug: slug, tx: tx) }
    }

    public func visible(accountID: UUID) async throws -> [CalendarCollection] {
        try await store.read { tx in try await Self.visible(accountID: accountID, tx: tx) }
    }

    public func visible(id: UUID, accountID: UUID) async throws -> CalendarCollection? {
        try await store.read { tx in try await Self.visible(id: id, accountID: accountID, tx: tx) }
    }
}

extension Calendars {
    /// The person's calendars as their own home lists them, each of their own with the shares
    /// they made of it (for CalDAV's sharing properties).
    public func visibleWithShares(accountID: UUID) async throws -> [CalendarCollection] {
        try await store.read { tx in
            let made = Dictionary(grouping: try await tx.outgoingCalendarShares(ownerID: accountID), by: \.calendarID)
            return try await Self.visible(accountID: accountID, tx: tx).map { calendar in
                guard calendar.sharing == nil, let shares = made[calendar.id] else { return calendar }
                var shown = calendar
                shown.sharing = .sharedByMe(shares)
                return shown
            }
        }
    }

    /// The calendar at `slug` with the shares its owner made of it, when it is the person's own.
    public func calendarWithShares(accountID: UUID, slug: String) async throws -> CalendarCollection? {
        try await store.read { tx in
            guard var calendar = try await Self.calendar(accountID: accountID, slug: slug, tx: tx) else { return nil }
            if calendar.sharing == nil {
                let shares = try await tx.calendarShares(calendarID: calendar.id)
                if !shares.isEmpty { calendar.sharing = .sharedByMe(shares) }
            }
            return calendar
        }
    }
}
