import Foundation
import ICalendar

/// Every event calendar of a person seen as one: the instances in a window with recurrences
/// expanded, in time order. The JSON API's `GET /api/v1/events` and the web app's calendar
/// views both read it.
public struct IntegratedCalendar: Sendable {
    let store: StoreAccess<any CalendarShareStore & CalendarStore & CalendarViewStore>
    /// Stored objects as parsed iCalendar (the server's cache of parsed versions).
    public let parse: @Sendable (CalendarObject) -> Component?

    public init(store: any Store, parse: @escaping @Sendable (CalendarObject) -> Component?) {
        self.store = StoreAccess(store) { $0 }
        self.parse = parse
    }

    public static let maxWindowDays = 366
    public static let maxInstances = 10_000

    public struct Instance: Sendable {
        public let calendar: CalendarCollection
        public let objectName: String
        public let occurrence: Occurrence
        /// The instant it starts and ends; all-day events from midnight in the person's zone.
        public let start: Date
        public let end: Date

        public var isTransparent: Bool { occurrence.component.first("TRANSP")?.value.uppercased() == "TRANSPARENT" }
        public var isBusy: Bool { !isTransparent && !occurrence.isAllDay }
    }

    /// The instances overlapping `start..<end`, at most `maxInstances` (then `truncated`).
    /// `shownOnly` leaves out the calendars the person hides from their calendar views (the
    /// web's views ask for it; the API lists every calendar). With `category`, only instances
    /// carrying it (an override's own CATEGORIES count for its instance).
    public func instances(account: Account, from start: Date, to end: Date, shownOnly: Bool = false, category: String? = nil) async throws
        -> (instances: [Instance], truncated: Bool) {
        let candidates = try await store.read { tx -> [(CalendarCollection, [CalendarObject])] in
            var found: [(CalendarCollection, [CalendarObject])] = []
            let hidden: Set<UUID> = try await shownOnly ? tx.hiddenCalendarIDs(accountID: account.id) : []
            for calendar in try await Calendars.visible(accountID: account.id, tx: tx)
            where calendar.components.contains(.event) && !hidden.contains(calendar.id) {
                found.append((calendar, try await tx.calendarObjects(calendarID: calendar.id, overlapping: start, end)))
            }
            return found
        }
        let zone = TimeZone(identifier: account.timeZone) ?? .gmt
        let options = ExpansionOptions(maxInstances: Self.maxInstances + 1, floatingZone: ZoneRules(ianaIdentifier: account.timeZone) ?? .utc)
        let from = Int64(start.timeIntervalSince1970.rounded(.down))
        let to = Int64(end.timeIntervalSince1970.rounded(.up))
        var instances: [Instance] = []
        for (calendar, objects) in candidates {
            for object in objects {
                // Stored objects were parsed on the way in; one that no longer parses is skipped, not fatal.
                guard let parsed = parse(object) else { continue }
                for occurrence in CalendarExpander(calendar: parsed, options: options).expand(from: from, to: to).occurrences
                where category.map({ ItemCategories.matches(occurrence.component, $0) }) ?? true {
                    instances.append(Instance(
                        calendar: calendar, objectName: object.name, occurrence: occurrence,
                        start: AccountBusyTime.instant(occurrence.start, zone: zone), end: AccountBusyTime.instant(occurrence.end, zone: zone)))
                }
            }
        }
        instances.sort {
            $0.occurrence.start.sortSeconds != $1.occurrence.start.sortSeconds
                ? $0.occurrence.start.sortSeconds < $1.occurrence.start.sortSeconds : $0.occurrence.uid < $1.occurrence.uid
        }
        let truncated = instances.count > Self.maxInstances
        return (Array(instances.prefix(Self.maxInstances)), truncated)
    }
}
