import ICalendar

/// How far evaluation may go on one recurrence set: queries come from clients and data from
/// anyone, so an endless or pathological rule must cost a bounded amount of work.
enum ExpansionBudget {
    /// Recurrence periods one rule may examine (a rule that rarely or never matches stops here).
    static let periods = 200_000
    /// Instances returned for one recurrence set (expand, free-busy, last resort of a search).
    static let instances = 10_000
    /// Instances asked for first when one matching instance answers the question.
    static let firstProbe = 256
    /// The expander can work only on instants this far either side of 1970 (±10,000 years).
    static let horizon: Int64 = 253_402_300_800
}

/// Where one instance lies, in seconds since 1970, with DATE values and floating times already
/// read in the floating zone. `end` is the effective end that RFC 4791 §9.9 tests: DTEND, DUE,
/// DTSTART+DURATION, one day for a dated event or journal, or `start` for an instant.
struct InstanceSpan: Sendable, Hashable {
    var start: Int64
    var end: Int64
}

/// Places the components of one calendar object in absolute time: TZIDs through known zone
/// names or the object's own VTIMEZONEs, floating times and DATE values in the collection's
/// zone (RFC 4791 §7.3, the `calendar-timezone` property; UTC by default).
struct CalendarTimeline: Sendable {
    let floatingZone: ZoneRules
    let resolver: TimeZoneResolver

    init(calendar: Component, floatingZone: ZoneRules) {
        self.floatingZone = floatingZone
        self.resolver = Self.resolver(for: calendar)
    }

    /// The object's VTIMEZONEs, skipping those whose TZID names a zone the resolver knows
    /// anyway (it prefers known zones): building rules from a VTIMEZONE costs far more than
    /// evaluating a filter, and nearly every client sends one for an IANA zone.
    static func resolver(for calendar: Component) -> TimeZoneResolver {
        var zones: [String: ZoneRules] = [:]
        for component in calendar.components where component.name == "VTIMEZONE" {
            guard let tzid = component.first("TZID")?.value, TimeZoneResolver.ianaIdentifier(for: tzid) == nil,
                  let rules = try? ZoneRules(vtimezone: component)
            else { continue }
            zones[rules.identifier] = rules
        }
        return TimeZoneResolver(calendarZones: zones)
    }

    private var options: ExpansionOptions {
        // Cancelled instances are kept here and judged by `isCancelledInstance`, so that each
        // caller (time-range, expand, free-busy) applies its own rule in one visible place.
        ExpansionOptions(maxInstances: ExpansionBudget.instances, floatingZone: floatingZone, includeCancelled: true,
                         periodBudget: ExpansionBudget.periods)
    }

    // MARK: - Values

    /// The zone a value is read in; nil for a TZID nothing defines.
    func zone(of value: DateOrDateTime) -> ZoneRules? {
        switch value {
        case .date: return floatingZone
        case .dateTime(_, .floating): return floatingZone
        case .dateTime(_, .utc): return .utc
        case .dateTime(_, .zone(let tzid)): return resolver.rules(for: tzid)
        }
    }

    func instant(_ value: DateOrDateTime) -> Int64? {
        zone(of: value)?.utcSeconds(for: value.local)
    }

    /// `value + duration`: days on the wall clock of the value's zone, then exact seconds
    /// (RFC 5545 §3.3.6), so P1D after a DATE is the next local midnight even across DST.
    func instant(_ value: DateOrDateTime, plus duration: ICalendar.Duration) -> Int64? {
        guard let zone = zone(of: value) else { return nil }
        let local = value.local.adding(seconds: Int64(duration.nominalDays) * 86_400)
        return zone.utcSeconds(for: local).plus(duration.exactSeconds)
    }

    /// A DATE or DATE-TIME property's instant; nil when it does not parse or its TZID is unknown.
    func instant(of property: Property) -> Int64? {
        guard let value = try? property.dateValue() else { return nil }
        return instant(value)
    }

    /// An instance boundary as the expander reports it; an all-day date starts at midnight in
    /// the floating zone, not at the UTC midnight the expander sorts by.
    func instant(_ time: OccurrenceTime) -> Int64 {
        switch time {
        case .instant(let seconds): return seconds
        case .date(let date): return floatingZone.utcSeconds(for: LocalDateTime(date: date))
        }
    }

    func span(of occurrence: Occurrence) -> InstanceSpan {
        let start = instant(occurrence.start)
        var end = instant(occurrence.end)
        // §9.9: a VJOURNAL on a DATE lasts one day; the expander gives it no length.
        if occurrence.component.name == "VJOURNAL", case .date(let day) = occurrence.start {
            end = instant(.date(day.adding(days: 1)))
        }
        return InstanceSpan(start: start, end: max(start, end))
    }

    // MARK: - Recurrence sets

    /// The components under `parent` that share `component`'s name and UID: the master and its
    /// overrides, which only together say when each instance happens.
    func recurrenceSet(of component: Component, in parent: Component?) -> RecurrenceSet {
        let uid = component.first("UID")?.value ?? ""
        guard !uid.isEmpty, let parent else { return RecurrenceSet(uid: uid, components: [component]) }
        let members = parent.components.filter { $0.name == component.name && $0.first("UID")?.value == uid }
        return RecurrenceSet(uid: uid, components: members.isEmpty ? [component] : members)
    }

    /// An override that cancels one instance of a live series removes that instance. A
    /// cancelled object as a whole keeps its times: §9.9 is about time, not status.
    static func isCancelledInstance(_ occurrence: Occurrence, in set: RecurrenceSet) -> Bool {
        guard occurrence.isOverride, let master = set.master, !isCancelled(master) else { return false }
        return isCancelled(occurrence.component)
    }

    static func isCancelled(_ component: Component) -> Bool {
        component.first("STATUS")?.value.uppercased() == "CANCELLED"
    }

    /// Instances of `set` near `window`, in start order, for which `accept` holds, stopping at the
    /// first when `firstOnly`. The expander is asked only for the window (its rule iterator skips
    /// ahead), widened by the little the §9.9 rules need beyond its own overlap test; a search
    /// for one instance starts with a small batch and grows it only while the batch was full.
    func instances(
        of set: RecurrenceSet, near window: InstantRange, firstOnly: Bool, keepCancelled: Bool = false,
        where accept: (Occurrence, InstanceSpan) -> Bool
    ) -> [Occurrence] {
        instancesSearched(of: set, near: window, firstOnly: firstOnly, keepCancelled: keepCancelled, where: accept).found
    }

    /// `instances`, and whether the expansion stopped at its budget before the window's end
    /// (then `found` may lack some).
    func instancesSearched(
        of set: RecurrenceSet, near window: InstantRange, firstOnly: Bool, keepCancelled: Bool = false,
        where accept: (Occurrence, InstanceSpan) -> Bool
    ) -> (found: [Occurrence], truncated: Bool) {
        let margin = Self.margin(for: set)
        let from = max(window.start.minus(margin), -ExpansionBudget.horizon)
        let to = min(window.end.plus(margin), ExpansionBudget.horizon)
        guard from < to else { return ([], false) }
        var limit = firstOnly ? ExpansionBudget.firstProbe : ExpansionBudget.instances
        while true {
            guard let result = try? set.occurrences(from: from, to: to, resolver: resolver, options: options, limit: limit) else {
                return ([], false)  // undecodable dates or rules: the component has no place in time
            }
            var found: [Occurrence] = []
            for occurrence in result.occurrences {
                if !keepCancelled && Self.isCancelledInstance(occurrence, in: set) { continue }
                guard accept(occurrence, span(of: occurrence)) else { continue }
                found.append(occurrence)
                if firstOnly { return (found, false) }
            }
            let batchWasFull = result.truncated && result.occurrences.count >= limit
            guard firstOnly, batchWasFull, limit < ExpansionBudget.instances else { return (found, result.truncated) }
            limit = min(limit * 16, ExpansionBudget.instances)
        }
    }

    /// One second covers the `<=` edges of the VTODO and VALARM rows. All-day values need more:
    /// the expander places a DATE at UTC midnight, up to 14 hours from midnight in the floating
    /// zone, and a dated journal lasts a day the expander does not see.
    private static func margin(for set: RecurrenceSet) -> Int64 {
        let members = (set.master.map { [$0] } ?? []) + set.overrides
        let dated = members.contains { member in
            (member.first("DTSTART") ?? member.first("DUE")).map { $0.value.utf8.count == 8 } ?? false
        }
        return dated ? 2 * 86_400 : 1
    }
}
