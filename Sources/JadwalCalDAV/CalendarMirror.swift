import DAV
import Foundation
import JadwalCore
import JadwalHTTP
import Synchronization

/// One calendar's objects held in memory as of a revision, in name order.
///
/// A time-range query used to read its candidates from the database each time: every short event
/// near the range and every long recurring series, decoded row by row, about 1,300 rows for one
/// week at 20,000 events. The mirror is read once and then brought up to date from the
/// change log (the one sync-collection answers from), so it is exactly the stored calendar at
/// its revision, on any number of server instances.
package struct CalendarMirror: Sendable {
    /// A stored object with what is derived from its text (shared through `ParsedCalendarCache`);
    /// a class, so that handing one on does not copy the object's fields.
    package final class Object: Sendable {
        package let stored: CalendarObject
        package let parsed: ParsedCalendarObject

        package init(_ stored: CalendarObject, parsedBy cache: ParsedCalendarCache) {
            parsed = cache.entry(for: stored)
            // The entry was often made from another read of the same version (a conflict
            // check's), and the same ETag is the same bytes: hold one copy of each, not two.
            var stored = stored
            stored.icalendar = parsed.text
            stored.etag = parsed.etag
            self.stored = stored
        }
    }

    package let calendarID: UUID
    package let revision: Int64
    /// Sorted by name, as responses list objects.
    package let objects: [Object]
    /// Each object's first start and last end (`CalendarObject`'s index) in seconds, by
    /// position: a range scans these rather than the objects.
    private let bounds: [(start: Int64, end: Int64)]

    package init(calendarID: UUID, revision: Int64, objects: [CalendarObject], parsedBy cache: ParsedCalendarCache) {
        self.init(calendarID: calendarID, revision: revision, mirrored: objects.map { Object($0, parsedBy: cache) })
    }

    private init(calendarID: UUID, revision: Int64, mirrored: [Object]) {
        self.calendarID = calendarID
        self.revision = revision
        self.objects = mirrored
        self.bounds = mirrored.map { object in
            (object.stored.firstStart.map { Self.seconds($0, .down) } ?? .min, object.stored.lastEnd.map { Self.seconds($0, .up) } ?? .max)
        }
    }

    /// Whole seconds, rounded outwards by the caller so that the scan keeps every object
    /// `mayOverlap` would (a candidate too many is decided by the evaluator).
    private static func seconds(_ date: Date, _ rule: FloatingPointRoundingRule) -> Int64 {
        Int64(max(min(date.timeIntervalSince1970.rounded(rule), 9e15), -9e15))
    }

    /// Positions of the objects whose index says they may have an instance in `range` (all of
    /// them without one), as `CalendarObject.mayOverlap` decides.
    package func positions(overlapping range: TimeRange?) -> [Int] {
        guard let range else { return Array(objects.indices) }
        let start = range.start.map { Self.seconds($0, .down) } ?? .min, end = range.end.map { Self.seconds($0, .up) } ?? .max
        var found: [Int] = []
        for (position, bound) in bounds.enumerated() where bound.start < end && bound.end > start { found.append(position) }
        return found
    }

    /// The mirror at a later revision: `written` replaces or adds objects by name, and names in
    /// `deleted` (or written but gone by the time they were read) leave.
    package func applying(revision: Int64, written: [CalendarObject], deleted: Set<String>, parsedBy cache: ParsedCalendarCache) -> CalendarMirror {
        guard !written.isEmpty || !deleted.isEmpty else {
            return CalendarMirror(calendarID: calendarID, revision: revision, mirrored: objects)
        }
        let replaced = Dictionary(written.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
        var merged = objects.filter { replaced[$0.stored.name] == nil && !deleted.contains($0.stored.name) }
        merged += replaced.values.map { Object($0, parsedBy: cache) }
        merged.sort { $0.stored.name < $1.stored.name }
        return CalendarMirror(calendarID: calendarID, revision: revision, mirrored: merged)
    }
}

/// The mirrors of recently queried calendars, bounded by the number of objects held: the least
/// recently used calendar leaves first, and a calendar larger than the whole bound is never held
/// (its queries read the database, as before).
package final class CalendarMirrors: Sendable {
    private struct Held {
        package var mirror: CalendarMirror
        package var lastUse: UInt64
    }

    private struct Table {
        package var held: [UUID: Held] = [:]
        package var objectCount = 0
        package var tick: UInt64 = 0
    }

    package let capacity: Int
    /// Where the mirrored objects' parsed forms come from, shared with the queries that read
    /// the database instead.
    package let parsedCalendars: ParsedCalendarCache
    private let table = Mutex(Table())

    /// `capacity` is in objects across all calendars; at about 1 KB of iCalendar per event,
    /// 200,000 objects is some 200 MB at most.
    package init(parsedCalendars: ParsedCalendarCache, capacity: Int = 200_000) {
        self.parsedCalendars = parsedCalendars
        self.capacity = capacity
    }

    /// `calendar`'s objects at its revision or later; nil when the calendar is too large to hold.
    /// Catching up reads only the changes since the held revision.
    package func mirror(of calendar: CalendarCollection, calendars: Calendars) async throws -> CalendarMirror? {
        let held = table.withLock { table -> CalendarMirror? in
            guard var entry = table.held[calendar.id] else { return nil }
            table.tick += 1
            entry.lastUse = table.tick
            table.held[calendar.id] = entry
            return entry.mirror
        }
        if let held, held.revision >= calendar.revision { return held }
        let id = calendar.id
        let capacity = capacity
        // A long run of changes is read in full instead: applying it would cost more.
        let fresh: CalendarMirror? = switch try await calendars.catchUp(
            calendarID: id, from: held?.revision, applyAtMost: max(64, (held?.objects.count ?? 0) / 4)) {
        case .changes(let revision, let written, let deleted)?:
            held?.applying(revision: revision, written: written, deleted: deleted, parsedBy: parsedCalendars)
        case .all(let revision, let objects)? where objects.count <= capacity:
            CalendarMirror(calendarID: id, revision: revision, objects: objects, parsedBy: parsedCalendars)
        case .all?, nil:
            nil
        }
        guard let fresh else {
            table.withLock { table in
                if let gone = table.held.removeValue(forKey: id) { table.objectCount -= gone.mirror.objects.count }
            }
            return nil
        }
        keep(fresh)
        return fresh
    }

    private func keep(_ mirror: CalendarMirror) {
        table.withLock { table in
            table.tick += 1
            if let current = table.held[mirror.calendarID] {
                // A slower catch-up racing a faster one must not put an older mirror back.
                guard current.mirror.revision < mirror.revision else { return }
                table.objectCount -= current.mirror.objects.count
            }
            table.held[mirror.calendarID] = Held(mirror: mirror, lastUse: table.tick)
            table.objectCount += mirror.objects.count
            while table.objectCount > capacity, table.held.count > 1,
                  let oldest = table.held.filter({ $0.key != mirror.calendarID }).min(by: { $0.value.lastUse < $1.value.lastUse }) {
                table.held[oldest.key] = nil
                table.objectCount -= oldest.value.mirror.objects.count
            }
        }
    }
}
