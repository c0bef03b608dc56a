import Foundation

/// What a person's calendars screen shows and changes beside each calendar's properties: how
/// much each holds, whether it is shown in their calendar views, and the display order.
extension Calendars {
    /// A calendar as the screen lists it.
    public struct Listed: Sendable, Hashable {
        public var calendar: CalendarCollection
        /// Objects of each kind it holds (a kind it has none of is absent).
        public var counts: [ComponentKind: Int]
        /// Kept out of the person's calendar views (still in the API, phones, conflicts).
        public var hidden: Bool

        public init(calendar: CalendarCollection, counts: [ComponentKind: Int], hidden: Bool) {
            self.calendar = calendar
            self.counts = counts
            self.hidden = hidden
        }

        public var events: Int { counts[.event] ?? 0 }
        public var todos: Int { counts[.todo] ?? 0 }
        /// Everything deleting it removes.
        public var objects: Int { counts.values.reduce(0, +) }
    }

    /// The account's calendars in display order, with their counts and whether each is hidden, in one read.
    public func listed(accountID: UUID) async throws -> [Listed] {
        try await store.read { tx in
            let counts = try await tx.calendarObjectCounts(accountID: accountID)
            let hidden = try await tx.hiddenCalendarIDs(accountID: accountID)
            return try await tx.calendars(accountID: accountID).map { calendar in
                Listed(calendar: calendar, counts: counts[calendar.id] ?? [:], hidden: hidden.contains(calendar.id))
            }
        }
    }

    /// The ids of the account's calendars it keeps out of its calendar views.
    public func hiddenIDs(accountID: UUID) async throws -> Set<UUID> {
        try await store.read { tx in try await tx.hiddenCalendarIDs(accountID: accountID) }
    }

    /// Shows or hides the calendar in its owner's calendar views. Only the views change: its
    /// events still count as busy, sync to phones and appear in the API.
    public func setHidden(_ hidden: Bool, calendar: CalendarCollection) async throws {
        let now = clock.now
        try await store.transaction { tx in
            try await tx.setCalendarHidden(hidden, calendarID: calendar.id, accountID: calendar.accountID, at: now)
        }
    }

    /// Moves the calendar `offset` places in its owner's display order (negative: earlier). The
    /// order becomes explicit for every calendar (0, 1, 2, …), so calendars without one (which
    /// sort last, by creation) keep their places; only calendars whose number changes are
    /// written, each moving its revision as any property change does. False when it cannot move
    /// further that way.
    @discardableResult
    public func move(_ calendar: CalendarCollection, by offset: Int) async throws -> Bool {
        try await store.transaction { tx in
            var ordered = try await tx.calendars(accountID: calendar.accountID)
            guard let index = ordered.firstIndex(where: { $0.id == calendar.id }) else { return false }
            let target = index + offset
            guard offset != 0, ordered.indices.contains(target) else { return false }
            ordered.insert(ordered.remove(at: index), at: target)
            for (position, var each) in ordered.enumerated() where each.order != position {
                each.order = position
                _ = try await tx.updateCalendarProperties(each)
            }
            return true
        }
    }
}
