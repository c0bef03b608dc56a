import Foundation
import Scheduling

/// A person's conflicts as the lists show them: open (or all), each with the day it is on and
/// everything busy that day, paged for the web; and the person's conflict settings. Keeping,
/// moving and cancelling are `ConflictResolution`'s; finding them is `ConflictCheck`'s.
public struct Conflicts: Sendable {
    let store: StoreAccess<any BusyTimeStore>
    let clock: Clock
    let busyTime: AccountBusyTime

    public init(store: any Store, clock: Clock, busyTime: AccountBusyTime) {
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
        self.busyTime = busyTime
    }

    /// The account's conflicts (open only unless `includeResolved`), soonest first, each with its day.
    public func list(account: Account, includeResolved: Bool) async throws -> [(EventConflict, ConflictDay?)] {
        try await listing(account: account, includeResolved: includeResolved) { _ in 0..<Int.max }.shown
    }

    /// One page of the open conflicts: how many there are, where the page starts (a start past
    /// the end is the last page), and the page's conflicts with their days.
    public func page(account: Account, from asked: Int, limit: Int) async throws -> (count: Int, from: Int, [(EventConflict, ConflictDay?)]) {
        let listing = try await listing(account: account, includeResolved: false) { count in
            let from = count == 0 ? 0 : min(max(0, asked) - max(0, asked) % limit, (count - 1) / limit * limit)
            return from..<(from + limit)
        }
        return (listing.count, listing.from, listing.shown)
    }

    /// What a list shows: how many conflicts there are, and those of `range` (given the count)
    /// with their days.
    struct Listing: Sendable {
        var count: Int
        var from: Int
        var shown: [(EventConflict, ConflictDay?)]
    }

    /// A read, which takes no write lock; only when some open conflict has passed (and retires)
    /// is it a write.
    private func listing(account: Account, includeResolved: Bool, range: @escaping @Sendable (Int) -> Range<Int>) async throws -> Listing {
        let zone = TimeZone(identifier: account.timeZone) ?? .gmt
        let busyTime = self.busyTime
        let now = clock.now
        @Sendable func listed(_ tx: any BusyTimeStore) async throws -> Listing? {
            let conflicts = try await tx.conflicts(accountID: account.id, includeResolved: includeResolved)
            guard !conflicts.contains(where: { Self.hasPassed($0, now: now) }) else { return nil }
            let wanted = range(conflicts.count)
            let shown = Array(conflicts.dropFirst(wanted.lowerBound).prefix(wanted.count))
            let days = try await busyTime.conflictDays(of: shown, account: account, zone: zone, tx: tx)
            return Listing(count: conflicts.count, from: wanted.lowerBound, shown: shown.map { ($0, days[$0.id]) })
        }
        if let listing = try await store.read({ tx in try await listed(tx) }) { return listing }
        return try await store.transaction { tx in
            try await Self.retirePassed(accountID: account.id, now: now, tx: tx)
            guard let listing = try await listed(tx) else { throw CancellationError() }
            return listing
        }
    }

    /// The day a conflict is on, with everything busy in it.
    public func day(of conflict: EventConflict, account: Account) async throws -> ConflictDay? {
        let zone = TimeZone(identifier: account.timeZone) ?? .gmt
        let busyTime = self.busyTime
        return try await store.read { tx in try await busyTime.conflictDays(of: [conflict], account: account, zone: zone, tx: tx)[conflict.id] }
    }

    /// An open conflict whose occurrence has ended can no longer be kept, moved or cancelled:
    /// it retires (obsolete) the next time the person's conflicts are read, so the lists hold
    /// only what can still be dealt with.
    static func retirePassed(accountID: UUID, now: Date, tx: any ConflictStore) async throws {
        for var conflict in try await tx.conflicts(accountID: accountID, includeResolved: false) where hasPassed(conflict, now: now) {
            conflict.status = .obsolete
            conflict.resolvedAt = now
            try await tx.updateConflict(conflict)
        }
    }

    static func hasPassed(_ conflict: EventConflict, now: Date) -> Bool {
        conflict.status == .open && conflict.event.end <= now
    }

    public func settings(accountID: UUID) async throws -> ConflictSettings {
        try await store.read { tx in try await tx.conflictSettings(accountID: accountID) }
    }

    /// Saves a settings change; per-calendar rules may name only the person's event calendars.
    public func updateSettings(_ change: ConflictSettingsChange, accountID: UUID) async throws -> ConflictSettings {
        let now = clock.now
        return try await store.transaction { tx in
            let calendars = try await tx.calendars(accountID: accountID).filter { $0.components.contains(.event) }
            let updated = try change.applied(to: try await tx.conflictSettings(accountID: accountID), calendarIDs: Set(calendars.map(\.id)))
            try await tx.saveConflictSettings(updated, accountID: accountID, at: now)
            return updated
        }
    }
}

/// The local day a conflicting occurrence starts on, with everything busy in it: what the API's
/// `day` and the web page's timeline draw.
public struct ConflictDay: Sendable {
    /// `2026-11-23`, in the person's zone.
    public let date: String
    public let range: TimeRange
    /// Sorted by start; the conflicting event's own blocks are named by `eventReference`.
    public let blocks: [BusyBlock]
    public let eventReference: String
}

extension AccountBusyTime {
    /// The longest run of days `conflictDays` reads at once (within `BusyTimeIndex`'s span).
    static let conflictDaysSpan: TimeInterval = 60 * 86_400

    /// Everything busy on the local day each conflicting occurrence starts on. Busy time is read
    /// once for all the days together: a list of hundreds of conflicts costs one read, not one
    /// per conflict.
    public func conflictDays(of conflicts: [EventConflict], account: Account, zone: TimeZone, tx: any BusyTimeStore) async throws -> [UUID: ConflictDay] {
        var calendar = Foundation.Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let days: [(EventConflict, TimeRange)] = conflicts.compactMap { conflict in
            let start = calendar.startOfDay(for: conflict.event.start)
            guard let end = calendar.date(byAdding: .day, value: 1, to: start), let day = try? TimeRange(start: start, end: end) else { return nil }
            return (conflict, day)
        }
        // Busy time is read over runs of days (a list over a year reads a few spans, each short
        // enough for the busy-time index) and each day's blocks and date are found once: many
        // conflicts share a day.
        let dayRanges = Dictionary(days.map { ($0.1.start, $0.1) }, uniquingKeysWith: { first, _ in first }).values
            .sorted { $0.start < $1.start }
        var runs: [[TimeRange]] = []
        for day in dayRanges {
            if let first = runs.last?.first, day.end.timeIntervalSince(first.start) <= Self.conflictDaysSpan {
                runs[runs.count - 1].append(day)
            } else {
                runs.append([day])
            }
        }
        var ofDay: [Date: (date: String, blocks: [BusyBlock])] = [:]
        let formatter = DateFormatter()
        formatter.calendar = calendar
        formatter.timeZone = zone
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        for run in runs {
            guard let first = run.first, let last = run.last, let span = try? TimeRange(start: first.start, end: last.end) else { continue }
            let blocks = try await self.blocks(account: account, in: span, tx: tx).sorted { $0.range.start < $1.range.start }
            for day in run {
                ofDay[day.start] = (formatter.string(from: day.start), blocks.filter { $0.range.overlaps(day) })
            }
        }
        var views: [UUID: ConflictDay] = [:]
        for (conflict, day) in days {
            guard let found = ofDay[day.start] else { continue }
            views[conflict.id] = ConflictDay(
                date: found.date, range: day, blocks: found.blocks,
                eventReference: EventOccurrence.reference(calendarID: conflict.event.calendarID, objectName: conflict.event.objectName))
        }
        return views
    }
}

