import Foundation
import ICalendar

/// Calendars in and out as `.ics` documents: an export of another calendar app (Google, Apple,
/// Outlook) imported into one of the person's calendars, and their calendars written out as one
/// document each. An import reads the file as leniently as a subscribed feed (one bad component
/// is left out and said, never the whole file) and writes through the one write path, so
/// conflicts, reminders and sync tokens follow as for any write.
public struct CalendarTransfer: Sendable {
    let store: StoreAccess<any CalendarWriteStore>
    let clock: Clock
    let writes: CalendarWrites

    public init(store: any Store, clock: Clock, random: RandomSource) {
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
        writes = CalendarWrites(store: store, clock: clock, random: random)
    }

    /// What to do with an item whose UID the calendar already holds.
    public enum Existing: String, Sendable, CaseIterable {
        /// Replace it with the file's version (the default: importing the same file twice changes nothing).
        case update
        /// Keep the calendar's version.
        case skip
    }

    public struct Report: Sendable, Hashable {
        /// VEVENT, VTODO and VJOURNAL components in the file.
        public var components = 0
        public var created = 0
        public var updated = 0
        /// Already there with the same content.
        public var unchanged = 0
        /// Already there, kept as it was (`Existing.skip`).
        public var skippedExisting = 0
        /// What was left out or mended, with where in the file.
        public var problems: [ICalendarFeed.Problem] = []
    }

    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case notCalendar(ICalendarFeed.Failure)
        case readOnly

        public var description: String {
            switch self {
            case .notCalendar(let failure): failure.description
            case .readOnly: "this calendar is filled by a subscription or computed; import into one of your own calendars"
            }
        }
    }

    /// The largest file a front door takes for an import (the CLI reads any size from disk).
    public static let uploadLimit = 64 << 20

    /// How many objects one transaction writes: a big import never holds the writer for long.
    public static let batchSize = 250

    /// Imports a document into `calendar`. `progress` hears (items done, items in all).
    public func importDocument(
        _ bytes: [UInt8], into calendar: CalendarCollection, existing: Existing = .update,
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) async throws -> Report {
        guard !calendar.isSubscribed, !calendar.isComputed else { throw Problem.readOnly }
        let feed: ICalendarFeed
        do {
            feed = try ICalendarFeed(bytes: bytes)
        } catch {
            throw Problem.notCalendar(error)
        }
        var report = Report(components: feed.componentCount, problems: feed.problems)
        let objects = ICalendarFeed.objects(feed.items, accepting: calendar.components)
        let contents = objects.contents
        report.problems += objects.unreadable
        report.problems += objects.unsupported.map { item in
            ICalendarFeed.Problem(
                line: 0, component: "\(item.kind) \(item.uid)", reason: "this calendar does not hold \(item.kind) components", skipped: true)
        }
        progress?(0, contents.count)
        var done = 0
        for start in stride(from: 0, to: contents.count, by: Self.batchSize) {
            let batch = Array(contents[start..<min(start + Self.batchSize, contents.count)])
            let counted = try await store.transaction { tx -> Report in
                var counts = Report()
                for (uid, content) in batch {
                    if let current = try await tx.calendarObject(calendarID: calendar.id, uid: uid) {
                        if current.etag == content.etag {
                            counts.unchanged += 1
                        } else if existing == .skip {
                            counts.skippedExisting += 1
                        } else {
                            _ = try await writes.put(content, name: current.name, in: calendar, source: .api, transaction: tx)
                            counts.updated += 1
                        }
                    } else {
                        _ = try await writes.put(
                            content, name: CalendarSubscriptions.objectName(forUID: uid), in: calendar, ifNoneMatch: true, source: .api, transaction: tx)
                        counts.created += 1
                    }
                }
                return counts
            }
            report.created += counted.created
            report.updated += counted.updated
            report.unchanged += counted.unchanged
            report.skippedExisting += counted.skippedExisting
            done += batch.count
            progress?(done, contents.count)
        }
        return report
    }

    /// One calendar as one document: every object's components, each time zone once.
    public static func document(_ objects: [CalendarObject], name: String) -> Component {
        var zones: [String: Component] = [:]
        var items: [Component] = []
        for object in objects {
            guard let calendar = try? ICalendarParser().parseCalendar(object.icalendar) else { continue }
            for component in calendar.components {
                if component.name == "VTIMEZONE" {
                    if let tzid = component.first("TZID")?.value, zones[tzid] == nil { zones[tzid] = component }
                } else {
                    items.append(component)
                }
            }
        }
        return Component(
            name: "VCALENDAR",
            properties: [
                Property(name: "VERSION", value: "2.0"), Property(name: "PRODID", value: "-//Jadwal//CalDAV//EN"),
                Property(name: "X-WR-CALNAME", text: name),
            ],
            components: zones.keys.sorted().compactMap { zones[$0] } + items)
    }

    /// One stored calendar as a document, named for a file by its slug (ASCII, safe in a header).
    public func export(_ calendar: CalendarCollection) async throws -> (fileName: String, text: String) {
        let objects = try await store.read { tx in try await tx.calendarObjects(calendarID: calendar.id) }
        return (calendar.slug + ".ics", ICalendarSerializer().serialize(Self.document(objects, name: calendar.displayName)))
    }

    /// Every stored calendar of the account as a document, named for a file: what "export
    /// everything" writes (the prayer calendar is computed from the settings, so it is not among them).
    public func exportAll(accountID: UUID) async throws -> [(fileName: String, text: String)] {
        try await store.read { tx in
            let calendars = try await tx.calendars(accountID: accountID).filter { !$0.isComputed }
            let names = Self.fileNames(calendars)
            var files: [(fileName: String, text: String)] = []
            for calendar in calendars {
                let objects = try await tx.calendarObjects(calendarID: calendar.id)
                files.append((names[calendar.id] ?? calendar.slug + ".ics", ICalendarSerializer().serialize(Self.document(objects, name: calendar.displayName))))
            }
            return files
        }
    }

    /// Each calendar's file name in an export: its slug, with a number after it when two
    /// calendars share one.
    public static func fileNames(_ calendars: [CalendarCollection]) -> [UUID: String] {
        var names: [UUID: String] = [:]
        var used: Set<String> = []
        for calendar in calendars {
            var name = calendar.slug
            var suffix = 2
            while used.contains(name) {
                name = "\(calendar.slug)-\(suffix)"
                suffix += 1
            }
            used.insert(name)
            names[calendar.id] = name + ".ics"
        }
        return names
    }
}
