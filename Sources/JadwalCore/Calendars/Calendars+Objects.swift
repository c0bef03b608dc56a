import Foundation

/// Reading calendars' objects for a front door: CalDAV's resources, reports and scheduling read
/// through these instead of the store.
extension Calendars {
    /// An object of the calendar at `slug` the account sees (its own, or one shared with it),
    /// with that calendar.
    public func object(named name: String, slug: String, accountID: UUID) async throws -> (CalendarCollection, CalendarObject)? {
        try await store.read { tx in
            guard let calendar = try await Self.calendar(accountID: accountID, slug: slug, tx: tx),
                  let object = try await tx.calendarObject(calendarID: calendar.id, name: name)
            else { return nil }
            return (calendar, object)
        }
    }

    /// Every stored object of a calendar the caller holds.
    public func objects(in calendar: CalendarCollection) async throws -> [CalendarObject] {
        try await store.read { tx in try await tx.calendarObjects(calendarID: calendar.id) }
    }

    /// The objects of a calendar the caller holds whose index says they may have an occurrence
    /// in [start, end); the caller expands.
    public func objects(in calendar: CalendarCollection, overlapping start: Date, _ end: Date) async throws -> [CalendarObject] {
        try await store.read { tx in try await tx.calendarObjects(calendarID: calendar.id, overlapping: start, end) }
    }

    /// The account's event calendars (its own and those shared with it) that `counts`, each
    /// with its objects that may have an occurrence in [start, end), read in one snapshot.
    public func eventObjects(
        accountID: UUID, overlapping start: Date, _ end: Date, counting counts: @Sendable (CalendarCollection) -> Bool
    ) async throws -> [(CalendarCollection, [CalendarObject])] {
        try await store.read { tx in
            var sources: [(CalendarCollection, [CalendarObject])] = []
            for calendar in try await Self.visible(accountID: accountID, tx: tx) where calendar.components.contains(.event) && counts(calendar) {
                sources.append((calendar, try await tx.calendarObjects(calendarID: calendar.id, overlapping: start, end)))
            }
            return sources
        }
    }

    /// Objects of the calendars the account sees, asked for by slug and name: for each slug
    /// that names a calendar, the calendar and those of the named objects it has. One snapshot.
    public func objects(named wanted: [String: [String]], accountID: UUID) async throws -> [String: (CalendarCollection, [String: CalendarObject])] {
        try await store.read { tx in
            var found: [String: (CalendarCollection, [String: CalendarObject])] = [:]
            for (slug, names) in wanted {
                guard let calendar = try await Self.calendar(accountID: accountID, slug: slug, tx: tx) else { continue }
                let objects = try await tx.calendarObjects(calendarID: calendar.id, names: names)
                found[slug] = (calendar, Dictionary(objects.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }))
            }
            return found
        }
    }

    /// What a sync of a calendar reports: its revision, and every object (from scratch), or the
    /// latest change of each object changed after `revision` with the written ones' objects.
    public struct Sync: Sendable {
        public let revision: Int64
        /// Empty from scratch.
        public let changes: [CalendarChange]
        public let objects: [CalendarObject]
    }

    /// A sync from `revision` (nil: from scratch), in one snapshot: the revision is read first,
    /// so a write racing the sync is reported again next time rather than lost. Nil when the
    /// change log no longer reaches back to `revision` (`RecordRetention` pruned it).
    public func sync(_ calendar: CalendarCollection, after revision: Int64?) async throws -> Sync? {
        try await store.read { tx in
            let current = try await tx.calendar(id: calendar.id)?.revision ?? calendar.revision
            guard let revision else { return Sync(revision: current, changes: [], objects: try await tx.calendarObjects(calendarID: calendar.id)) }
            guard let logged = try await tx.calendarChanges(calendarID: calendar.id, after: revision) else { return nil }
            let latest = ChangeSet(changes: logged, currentRevision: current).latest
            let written = latest.filter { $0.kind == .written }.map(\.name)
            return Sync(revision: current, changes: latest, objects: try await tx.calendarObjects(calendarID: calendar.id, names: written))
        }
    }

    /// What a copy of a calendar held in memory needs to become current.
    public enum CatchUp: Sendable {
        /// The objects written and the names deleted since the held revision, up to `revision`.
        case changes(revision: Int64, written: [CalendarObject], deleted: Set<String>)
        /// Every object, at `revision`: nothing was held, the log no longer reaches back to the
        /// held revision, or more changed than is worth applying.
        case all(revision: Int64, objects: [CalendarObject])
    }

    /// What a copy of calendar `id` held at `held` (nil: none) needs, in one snapshot; the
    /// changes only when there are at most `applyAtMost`. Nil when the calendar is gone. The
    /// revision is read first: a write committed after it is applied again next time, and
    /// applying a change twice gives the same copy.
    public func catchUp(calendarID id: UUID, from held: Int64?, applyAtMost: Int) async throws -> CatchUp? {
        try await store.read { tx in
            guard let revision = try await tx.calendar(id: id)?.revision else { return nil }
            if let held, let changes = try await tx.calendarChanges(calendarID: id, after: held), changes.count <= applyAtMost {
                let latest = ChangeSet(changes: changes, currentRevision: revision).latest
                let written = try await tx.calendarObjects(calendarID: id, names: latest.filter { $0.kind == .written }.map(\.name))
                return .changes(
                    revision: max(revision, changes.last?.revision ?? revision), written: written,
                    deleted: Set(latest.map(\.name)).subtracting(written.map(\.name)))
            }
            return .all(revision: revision, objects: try await tx.calendarObjects(calendarID: id))
        }
    }

    /// What the account stores in its own calendars (what `AccountQuota` counts).
    public func storedUsage(accountID: UUID) async throws -> StoredUsage {
        try await store.read { tx in try await tx.storedUsage(accountID: accountID) }
    }

    /// Changes the account's own calendar at `slug` in one transaction, so the change sees the
    /// latest values and is saved whole: `change` edits the calendar and says whether to save it
    /// (and what to answer). Nil when the account has no calendar there.
    public func changeProperties<Answer: Sendable>(
        slug: String, accountID: UUID, _ change: @Sendable (inout CalendarCollection) -> (answer: Answer, save: Bool)
    ) async throws -> Answer? {
        try await store.transaction { tx in
            guard var calendar = try await tx.calendar(accountID: accountID, slug: slug) else { return nil }
            let (answer, save) = change(&calendar)
            if save { _ = try await tx.updateCalendarProperties(calendar) }
            return answer
        }
    }
}
