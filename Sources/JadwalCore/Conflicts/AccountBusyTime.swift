import Foundation
import ICalendar
import PrayerTimes
import Scheduling

/// One instance of a stored event, placed in absolute time.
public struct EventOccurrence: Sendable, Hashable {
    public var calendarID: UUID
    public var objectName: String
    public var uid: String
    public var title: String?
    public var range: TimeRange
    public var traits: EventTraits
    public var recurrenceID: String?
    /// The RELATED-TO value: for time planned for a to-do, the to-do's UID.
    public var relatedTo: String?

    /// How busy blocks name the event: the object (calendar and name), so an edited event is
    /// never in conflict with its own old instances.
    public var reference: String { Self.reference(calendarID: calendarID, objectName: objectName) }

    public static func reference(calendarID: UUID, objectName: String) -> String {
        UUIDText.lowercased(calendarID) + "/" + objectName
    }

    /// The calendar and object a block's reference names (object names never hold a `/`).
    static func location(of reference: String) -> (calendarID: UUID, objectName: String)? {
        guard let slash = reference.firstIndex(of: "/"), let id = UUIDText.parse(String(reference[..<slash])) else { return nil }
        return (id, String(reference[reference.index(after: slash)...]))
    }
}

/// A person's busy time over a window, read from every one of their event calendars
/// (recurrences expanded, overrides and time zones applied) and their prayer blocks.
public struct AccountBusyTime: Sendable {
    public typealias Parse = @Sendable (CalendarObject) -> Component?

    let parse: Parse
    /// Each calendar's instances kept between reads, brought up to date from the change log; nil
    /// reads and expands every object each time. Only for readers whose transaction has not
    /// written calendar objects before it reads (`BusyTimeIndex`).
    let index: BusyTimeIndex?

    /// `parse` lets the server reuse its cache of parsed objects.
    public init(parse: @escaping Parse = { try? ICalendarParser().parseCalendar($0.icalendar) }, index: BusyTimeIndex? = nil) {
        self.parse = parse
        self.index = index
    }

    /// Instances of an object overlapping `window`; DATE values and floating times are read in
    /// the calendar's zone, else the person's.
    public func occurrences(of object: CalendarObject, calendar: CalendarCollection, accountZone: String, in window: TimeRange, limit: Int = 1000)
        -> [EventOccurrence] {
        let (from, to) = Self.seconds(window)
        return expanded(of: object, calendar: calendar, zoneName: calendar.timeZone ?? accountZone, from: from, to: to, limit: limit).instances.map(\.occurrence)
    }

    /// An instance with the times its expansion was tested by (`OccurrenceTime.overlaps`), so a
    /// wider expansion can be narrowed to a window exactly as expanding that window would.
    struct ExpandedOccurrence: Sendable {
        var occurrence: EventOccurrence
        var start: OccurrenceTime
        var end: OccurrenceTime
    }

    /// The instances in [`from`, `to`) (seconds), and whether the expansion stopped at `limit`.
    func expanded(of object: CalendarObject, calendar: CalendarCollection, zoneName: String, from: Int64, to: Int64, limit: Int)
        -> (instances: [ExpandedOccurrence], truncated: Bool) {
        guard object.component == .event, let parsed = parse(object) else { return ([], false) }
        let rules = ZoneRules(ianaIdentifier: zoneName) ?? .utc
        let zone = TimeZone(identifier: zoneName) ?? .gmt
        let options = ExpansionOptions(maxInstances: limit, floatingZone: rules, includeCancelled: true)
        let result = CalendarExpander(calendar: parsed, options: options).expand(from: from, to: to)
        let instances = result.occurrences.compactMap { occurrence -> ExpandedOccurrence? in
            guard let range = try? TimeRange(start: Self.instant(occurrence.start, zone: zone), end: Self.instant(occurrence.end, zone: zone)) else {
                return nil  // an instant takes no time
            }
            let traits = EventTraits(
                isTransparent: occurrence.component.first("TRANSP")?.value.uppercased() == "TRANSPARENT",
                isCancelled: occurrence.isCancelled, isAllDay: occurrence.isAllDay)
            return ExpandedOccurrence(
                occurrence: EventOccurrence(
                    calendarID: calendar.id, objectName: object.name, uid: occurrence.uid, title: occurrence.summary, range: range, traits: traits,
                    recurrenceID: occurrence.recurrenceId?.iso8601, relatedTo: occurrence.component.first("RELATED-TO")?.value),
                start: occurrence.start, end: occurrence.end)
        }
        return (instances, result.truncated)
    }

    /// A window as the whole seconds an expansion takes: its start rounded down, its end up.
    static func seconds(_ window: TimeRange) -> (from: Int64, to: Int64) {
        (Int64(window.start.timeIntervalSince1970.rounded(.down)), Int64(window.end.timeIntervalSince1970.rounded(.up)))
    }

    /// Every busy block of the account in `window`; which events count is each calendar's
    /// busy policy (from the person's settings; pass them when already read).
    public func blocks(account: Account, in window: TimeRange, settings known: ConflictSettings? = nil, tx: any BusyTimeStore) async throws
        -> [BusyBlock] {
        try await snapshot(account: account, in: window, settings: known, keepingObjects: false, tx: tx).blocks
    }

    /// An account's busy time over a window as a batch of conflict checks reads it once: the
    /// blocks, and what each check would otherwise look up one by one.
    public struct Snapshot: Sendable {
        public var blocks: [BusyBlock] = []
        /// The objects the event blocks come from, by reference (to tell which was written later).
        public var objects: [String: CalendarObject] = [:]
        /// The person's prayer settings, and the local day each prayer block belongs to, by its start.
        public var prayerSettings: PrayerSettings?
        public var prayerDays: [Date: LocalDate] = [:]
        /// True when some object has more instances in the window than are expanded (`instanceLimit`):
        /// a narrower window would see other instances of it, so the snapshot is not exact for one.
        public var truncated = false
    }

    /// The expansion limit per object in `blocks` and `snapshot`.
    public static let instanceLimit = 1000

    /// The busy time of `window` with, when `keepingObjects`, the objects and prayer days.
    public func snapshot(account: Account, in window: TimeRange, settings known: ConflictSettings? = nil, keepingObjects: Bool = true,
                         tx: any BusyTimeStore) async throws -> Snapshot {
        let settings: ConflictSettings
        if let known { settings = known } else { settings = try await tx.conflictSettings(accountID: account.id) }
        var snapshot = Snapshot()
        // Calendars shared with the person count when their share says so (`CalendarShare.countsAsBusy`).
        for calendar in try await Calendars.visible(accountID: account.id, tx: tx)
        where calendar.components.contains(.event) && calendar.sharedWithMe?.countsAsBusy != false {
            let policy = settings.busyPolicy(calendarID: calendar.id)
            for (object, found) in try await instances(in: calendar, accountZone: account.timeZone, window: window, tx: tx) {
                if found.count >= Self.instanceLimit { snapshot.truncated = true }
                for occurrence in found where policy.isBusy(occurrence.traits) {
                    snapshot.blocks.append(BusyBlock(occurrence.range, Self.kind(of: occurrence, in: calendar)))
                }
                if keepingObjects, !found.isEmpty {
                    snapshot.objects[EventOccurrence.reference(calendarID: calendar.id, objectName: object.name)] = object
                }
            }
        }
        if let settings = try await tx.prayerSettings(accountID: account.id) {
            snapshot.prayerSettings = settings
            for (day, block) in Self.prayerBlocksByDay(settings: settings, language: account.language, in: window) {
                snapshot.blocks.append(block)
                if keepingObjects { snapshot.prayerDays[block.range.start] = day }
            }
        }
        return snapshot
    }

    /// The calendar's objects with instances in `window` (by name) and those instances: from the
    /// index when there is one, else read and expanded now.
    func instances(in calendar: CalendarCollection, accountZone: String, window: TimeRange, tx: any CalendarStore) async throws
        -> [(object: CalendarObject, instances: [EventOccurrence])] {
        if let index, let kept = try await index.instances(in: calendar, zoneName: calendar.timeZone ?? accountZone, window: window, busyTime: self, tx: tx) {
            return kept
        }
        return try await tx.calendarObjects(calendarID: calendar.id, overlapping: window.start, window.end).compactMap { object in
            let found = occurrences(of: object, calendar: calendar, accountZone: accountZone, in: window, limit: Self.instanceLimit)
            return found.isEmpty ? nil : (object, found)
        }
    }

    /// What holds the time: a routine's occurrence, time planned for a to-do, or an event. Each is
    /// named by its reference (calendar and object), so a conflict can point at it.
    static func kind(of occurrence: EventOccurrence, in calendar: CalendarCollection) -> BusyKind {
        let title = occurrence.title ?? ""
        switch calendar.slug {
        case DefaultCalendars.routinesSlug: return .routine(id: occurrence.reference, name: title)
        case DefaultCalendars.plannedTasksSlug: return .plannedTask(taskID: occurrence.reference, title: title)
        default: return .event(id: occurrence.reference, title: title)
        }
    }

    /// The prayer blocks overlapping `window`, on the local days of the place it covers.
    static func prayerBlocks(settings: PrayerSettings, language: Language, in window: TimeRange) -> [BusyBlock] {
        prayerBlocksByDay(settings: settings, language: language, in: window).map(\.block)
    }

    /// The local days of the prayer place that `window` covers, first and last.
    static func prayerDays(settings: PrayerSettings, of window: TimeRange) -> ClosedRange<LocalDate>? {
        var calendar = Foundation.Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: settings.timeZone) ?? .gmt
        func day(_ date: Date) -> LocalDate? {
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            guard let year = parts.year, let month = parts.month, let day = parts.day else { return nil }
            return try? LocalDate(year: year, month: month, day: day)
        }
        guard let first = day(window.start), let last = day(window.end), first <= last else { return nil }
        return first...last
    }

    /// The prayer blocks overlapping `window`, each with the local day it belongs to.
    static func prayerBlocksByDay(settings: PrayerSettings, language: Language, in window: TimeRange) -> [(day: LocalDate, block: BusyBlock)] {
        guard let days = prayerDays(settings: settings, of: window),
              let prayers = try? PrayerCalendar(settings: settings, language: language).blocks(from: days.lowerBound, through: days.upperBound)
        else { return [] }
        return prayers.compactMap { prayer in
            guard let range = try? TimeRange(start: prayer.start, end: prayer.end), range.overlaps(window) else { return nil }
            return (prayer.date, BusyBlock(range, .prayer(prayer.isJumuah ? .jumuah : PrayerName(prayer.prayer))))
        }
    }

    /// An occurrence time as an instant: a date is its midnight in `zone`.
    public static func instant(_ time: OccurrenceTime, zone: TimeZone) -> Date {
        switch time {
        case .instant(let seconds):
            return Date(timeIntervalSince1970: TimeInterval(seconds))
        case .date(let date):
            var calendar = Foundation.Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let midnight = calendar.date(from: DateComponents(year: date.year, month: date.month, day: date.day))
            return midnight ?? Date(timeIntervalSince1970: TimeInterval(time.sortSeconds))
        }
    }
}

extension PrayerName {
    init(_ prayer: Prayer) {
        switch prayer {
        case .fajr, .sunrise: self = .fajr
        case .dhuhr: self = .dhuhr
        case .asr: self = .asr
        case .maghrib: self = .maghrib
        case .isha: self = .isha
        }
    }
}
