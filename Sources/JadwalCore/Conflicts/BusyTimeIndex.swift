import Foundation
import ICalendar
import Scheduling
import Synchronization

/// Each calendar's event instances over a span of days, kept between conflict checks and brought
/// up to date from the calendar's change log, so a check reads and expands what changed since the
/// last one instead of every object in its window (issue 28: a bulk write's checks each re-read
/// the whole calendar).
///
/// It answers exactly what reading the window would: an entry is used only for a window inside
/// the span it was expanded over, after every change up to the calendar's current revision is
/// applied; its instances are narrowed to the window by the expansion's own test; an object whose
/// expansion over the span stopped at the instance limit is expanded for the window instead. A
/// calendar's revision is read in the caller's transaction, so several instances of the server
/// on one database each keep their own index exact.
///
/// What it keeps must come from committed rows: a transaction that wrote calendar objects and
/// then rolls back would leave an entry claiming a revision that another write reuses. So only
/// readers that write no calendar object before reading use it (the conflict checks).
public final class BusyTimeIndex: Sendable {
    /// How many instances all entries hold together; the least recently used entries go first.
    let capacity: Int
    /// The span an entry covers: from a week before the window that made it, this many days.
    static let spanDays: Int64 = 120
    /// Windows longer than this are read directly (they would not fit an entry's span).
    static let longestWindow: Int64 = 100 * 86_400

    private let state = Mutex(State())

    public init(capacity: Int = 200_000) {
        self.capacity = capacity
    }

    struct Key: Hashable {
        var calendarID: UUID
        /// The zone floating times and dates are read in: the calendar's, else its reader's.
        var zoneName: String
    }

    /// One object's instances over the entry's span.
    struct Item: Sendable {
        /// The object without its text (kept only when `complete` is false, to expand per window).
        var object: CalendarObject
        var instances: [AccountBusyTime.ExpandedOccurrence]
        /// False when the span's expansion stopped at the instance limit: a narrower window
        /// would see other instances, so the object is expanded for each window instead.
        var complete: Bool

        /// The index test `calendarObjects(calendarID:overlapping:)` applies in SQL.
        func mayOverlap(from: Int64, to: Int64) -> Bool {
            (object.firstStart.map { $0.unixMilliseconds < to } ?? true) && (object.lastEnd.map { $0.unixMilliseconds > from } ?? true)
        }
    }

    struct Entry: Sendable {
        var revision: Int64
        /// Seconds since 1970, [from, to).
        var from: Int64
        var to: Int64
        var items: [String: Item]
        var instanceCount: Int
        var lastUsed: UInt64

        func covers(from windowFrom: Int64, to windowTo: Int64) -> Bool { from <= windowFrom && windowTo <= to }
    }

    struct State {
        var entries: [Key: Entry] = [:]
        var instances = 0
        var clock: UInt64 = 0
    }

    /// The objects of `calendar` with instances in `window`, by name, with those instances; nil
    /// when the window is too long to keep (the caller reads it directly).
    func instances(in calendar: CalendarCollection, zoneName: String, window: TimeRange, busyTime: AccountBusyTime, tx: any CalendarStore)
        async throws -> [(object: CalendarObject, instances: [EventOccurrence])]? {
        let (from, to) = AccountBusyTime.seconds(window)
        guard to - from <= Self.longestWindow else { return nil }
        let key = Key(calendarID: calendar.id, zoneName: zoneName)
        var entry = state.withLock { $0.entries[key] }
        if let kept = entry, kept.covers(from: from, to: to), kept.revision <= calendar.revision {
            if kept.revision < calendar.revision {
                if let caughtUp = try await bringUpToDate(kept, calendar: calendar, zoneName: zoneName, busyTime: busyTime, tx: tx) {
                    entry = caughtUp
                } else {
                    entry = try await build(calendar: calendar, zoneName: zoneName, from: from - 7 * 86_400, busyTime: busyTime, tx: tx)
                }
            }
        } else {
            entry = try await build(calendar: calendar, zoneName: zoneName, from: from - 7 * 86_400, busyTime: busyTime, tx: tx)
        }
        guard let entry else { return nil }
        keep(entry, for: key)

        let windowMilliseconds = (from: window.start.unixMilliseconds, to: window.end.unixMilliseconds)
        var found: [(object: CalendarObject, instances: [EventOccurrence])] = []
        for name in entry.items.keys.sorted() {
            guard let item = entry.items[name], item.mayOverlap(from: windowMilliseconds.from, to: windowMilliseconds.to) else { continue }
            let instances: [EventOccurrence]
            if item.complete {
                instances = item.instances.lazy.filter { OccurrenceTime.overlaps($0.start, $0.end, windowStart: from, windowEnd: to) }.map(\.occurrence)
            } else {
                instances = busyTime.expanded(of: item.object, calendar: calendar, zoneName: zoneName, from: from, to: to,
                                              limit: AccountBusyTime.instanceLimit).instances.map(\.occurrence)
            }
            if !instances.isEmpty { found.append((item.object, instances)) }
        }
        return found
    }

    /// Every object of the calendar with instances in the span from `from`.
    private func build(calendar: CalendarCollection, zoneName: String, from: Int64, busyTime: AccountBusyTime, tx: any CalendarStore)
        async throws -> Entry {
        let to = from + Self.spanDays * 86_400
        var entry = Entry(revision: calendar.revision, from: from, to: to, items: [:], instanceCount: 0, lastUsed: 0)
        let start = Date(timeIntervalSince1970: TimeInterval(from)), end = Date(timeIntervalSince1970: TimeInterval(to))
        for object in try await tx.calendarObjects(calendarID: calendar.id, overlapping: start, end) {
            entry.insert(Self.item(object, calendar: calendar, zoneName: zoneName, entry: entry, busyTime: busyTime))
        }
        return entry
    }

    /// The entry with the changes after its revision applied: each changed object read again.
    /// Nil when the change log was pruned past the entry (it is built again).
    private func bringUpToDate(_ kept: Entry, calendar: CalendarCollection, zoneName: String, busyTime: AccountBusyTime, tx: any CalendarStore)
        async throws -> Entry? {
        guard let changes = try await tx.calendarChanges(calendarID: calendar.id, after: kept.revision) else { return nil }
        var entry = kept
        let names = Array(Set(changes.map(\.name)))
        for name in names { entry.remove(name) }
        for object in try await tx.calendarObjects(calendarID: calendar.id, names: names) {
            entry.insert(Self.item(object, calendar: calendar, zoneName: zoneName, entry: entry, busyTime: busyTime))
        }
        // Changes committed after the calendar was read are applied too; a revision bump with no
        // change row (a property) changes no instance.
        entry.revision = max(calendar.revision, changes.map(\.revision).max() ?? kept.revision)
        return entry
    }

    private static func item(_ object: CalendarObject, calendar: CalendarCollection, zoneName: String, entry: Entry, busyTime: AccountBusyTime) -> Item? {
        let fromMilliseconds = entry.from * 1000, toMilliseconds = entry.to * 1000
        var kept = object
        guard Item(object: kept, instances: [], complete: true).mayOverlap(from: fromMilliseconds, to: toMilliseconds) else { return nil }
        let (instances, truncated) = busyTime.expanded(
            of: object, calendar: calendar, zoneName: zoneName, from: entry.from, to: entry.to, limit: AccountBusyTime.instanceLimit)
        guard !instances.isEmpty || truncated else { return nil }
        if !truncated { kept.icalendar = "" }
        return Item(object: kept, instances: truncated ? [] : instances, complete: !truncated)
    }

    /// Saves `entry` unless a newer one was saved meanwhile, then drops the least recently used
    /// entries beyond the capacity.
    private func keep(_ entry: Entry, for key: Key) {
        state.withLock { state in
            state.clock += 1
            var entry = entry
            entry.lastUsed = state.clock
            if let current = state.entries[key] {
                guard current.revision <= entry.revision || !current.covers(from: entry.from, to: entry.to) else { return }
                state.instances -= current.instanceCount
            }
            state.entries[key] = entry
            state.instances += entry.instanceCount
            while state.instances > capacity, state.entries.count > 1,
                  let oldest = state.entries.min(by: { $0.value.lastUsed < $1.value.lastUsed })?.key, oldest != key {
                state.instances -= state.entries[oldest]?.instanceCount ?? 0
                state.entries[oldest] = nil
            }
        }
    }
}

extension BusyTimeIndex.Entry {
    mutating func insert(_ item: BusyTimeIndex.Item?) {
        guard let item else { return }
        remove(item.object.name)
        items[item.object.name] = item
        instanceCount += max(item.instances.count, 1)
    }

    mutating func remove(_ name: String) {
        guard let old = items.removeValue(forKey: name) else { return }
        instanceCount -= max(old.instances.count, 1)
    }
}
