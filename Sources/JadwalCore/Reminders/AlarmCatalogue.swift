import ICalendar

/// The VEVENTs and VTODOs of one calendar with their VALARMs read, keyed the way the expander's
/// occurrences name their component (UID and RECURRENCE-ID), so each instance finds its alarms
/// without reading them again.
struct AlarmCatalogue {
    struct Source {
        var uid: String
        /// The override's instance in the expander's form; nil for the series or a single item.
        var recurrenceID: String?
        var isTodo: Bool
        /// Cancelled, or a to-do that is done: nothing of it fires.
        var isInactive: Bool
        var title: String?
        var location: String?
        var relative: [ReminderTrigger] = []
        var absolute: [ReminderTrigger] = []
        /// The zones whose wall clock nominal days of an offset from the start or end move on.
        var startZone: ZoneRules
        var endZone: ZoneRules
        /// False for a to-do without DUE or DURATION: it has a start but no end.
        var hasEnd: Bool
        /// The component's own start and end, for its absolute triggers.
        var start: Int64?
        var end: Int64?
        var isAllDay: Bool
    }

    private(set) var sources: [String: Source] = [:]
    private(set) var skipped: [SkippedAlarm] = []
    /// Per UID, the series' EXDATEs as instance ids: an override's absolute alarm does not fire
    /// for an excluded instance, as the expander drops the override there too.
    private(set) var excluded: [String: Set<String>] = [:]
    /// How far instances must be expanded beyond the window (before `to`, after `from`).
    private(set) var lead: Int64 = 0
    private(set) var lag: Int64 = 0
    private(set) var hasRelativeTriggers = false

    let resolver: TimeZoneResolver
    let zone: ZoneRules

    static func key(of component: Component, uid: String) -> String {
        guard let rid = component.first("RECURRENCE-ID") else { return uid }
        // As the expander tells overrides apart: value and TZID as written.
        return uid + "\u{0}" + rid.value + "|" + (rid.parameter("TZID") ?? "")
    }

    init(calendar: Component, resolver: TimeZoneResolver, zone: ZoneRules) {
        self.resolver = resolver
        self.zone = zone
        // The component that describes each key: with a repeated key the highest SEQUENCE wins,
        // the later one on a tie — the expander's choice.
        var chosen: [String: Component] = [:]
        var order: [String] = []
        for component in calendar.components where ReminderSchedule.componentNames.contains(component.name) {
            let uid = component.first("UID")?.value ?? ""
            if uid.isEmpty {
                if !component.components(named: "VALARM").isEmpty {
                    skipped.append(SkippedAlarm(uid: "", recurrenceID: nil, alarmKey: nil, reason: "\(component.name) without a UID"))
                }
                continue
            }
            let key = Self.key(of: component, uid: uid)
            if let existing = chosen[key] {
                if Self.sequence(existing) > Self.sequence(component) { continue }
            } else {
                order.append(key)
            }
            chosen[key] = component
        }
        guard chosen.values.contains(where: { !$0.components(named: "VALARM").isEmpty }) else { return }

        // Each series' zone names its overrides' instances; its EXDATEs may exclude them.
        var series: [String: (zone: ZoneRules, component: Component)] = [:]
        for key in order {
            guard let component = chosen[key], component.isMaster else { continue }
            let uid = component.first("UID")?.value ?? ""
            series[uid] = (self.zone(of: try? Self.startProperty(of: component)?.dateValue()) ?? zone, component)
        }
        var needsExclusions = Set<String>()
        for key in order {
            guard let component = chosen[key] else { continue }
            let uid = component.first("UID")?.value ?? ""
            var recurrenceID: String? = nil
            if let rid = component.first("RECURRENCE-ID"), let value = try? rid.dateValue() {
                recurrenceID = instanceID(value, seriesZone: series[uid]?.zone ?? zone)
            }
            let source = read(component, uid: uid, recurrenceID: recurrenceID)
            if recurrenceID != nil && !source.absolute.isEmpty { needsExclusions.insert(uid) }
            sources[key] = source
        }
        for uid in needsExclusions {
            guard let (seriesZone, master) = series[uid] else { continue }
            var ids = Set<String>()
            for property in master.all("EXDATE") {
                for item in (try? property.dateListValue()) ?? [] {
                    if let id = instanceID(item.start, seriesZone: seriesZone) { ids.insert(id) }
                }
            }
            excluded[uid] = ids
        }
    }

    static func sequence(_ component: Component) -> Int {
        component.first("SEQUENCE").flatMap { Int($0.value.filter { $0 != " " }) } ?? -1
    }

    /// DTSTART, or DUE for a to-do without one (RFC 5545 §3.8.6.3).
    static func startProperty(of component: Component) -> Property? {
        component.first("DTSTART") ?? (component.name == "VTODO" ? component.first("DUE") : nil)
    }

    static func endProperty(of component: Component) -> Property? {
        component.first(component.name == "VTODO" ? "DUE" : "DTEND")
    }

    mutating func read(_ component: Component, uid: String, recurrenceID: String?) -> Source {
        let isTodo = component.name == "VTODO"
        let status = component.first("STATUS")?.value.uppercased().filter { $0 != " " }
        let isDone = isTodo && (status == "COMPLETED" || component.first("COMPLETED") != nil)
        let startProperty = Self.startProperty(of: component)
        let startValue = try? startProperty?.dateValue()
        let startZone = zone(of: startValue) ?? zone
        let hasDuration = component.first("DURATION") != nil && component.first("DTSTART") != nil
        var source = Source(
            uid: uid, recurrenceID: recurrenceID, isTodo: isTodo, isInactive: status == "CANCELLED" || isDone,
            title: component.first("SUMMARY")?.text, location: component.first("LOCATION")?.text, startZone: startZone,
            endZone: zone(of: try? Self.endProperty(of: component)?.dateValue()) ?? startZone,
            hasEnd: !isTodo || component.first("DUE") != nil || hasDuration, isAllDay: startValue?.isDate ?? false)
        let alarms = component.components(named: "VALARM")
        guard !alarms.isEmpty else { return source }
        let keys = ReminderTrigger.keys(of: alarms)
        for (index, alarm) in alarms.enumerated() {
            func skip(_ reason: String) {
                skipped.append(SkippedAlarm(uid: uid, recurrenceID: recurrenceID, alarmKey: keys[index], reason: reason))
            }
            switch ReminderTrigger.read(alarm, index: index, key: keys[index], instant: { self.instant($0) }) {
            case .silent: continue
            case .skipped(let reason): skip(reason)
            case .trigger(let trigger):
                switch trigger.when {
                case .absolute:
                    source.absolute.append(trigger)
                case .relative(_, let relatedToEnd):
                    if startProperty == nil {
                        skip("a relative TRIGGER needs a DTSTART\(isTodo ? " or DUE" : "")")
                    } else if relatedToEnd && !source.hasEnd {
                        skip("RELATED=END on a to-do without DUE or DURATION")
                    } else {
                        source.relative.append(trigger)
                        hasRelativeTriggers = true
                        lead = max(lead, trigger.lead)
                        lag = max(lag, trigger.lag)
                    }
                }
            }
        }
        if !source.absolute.isEmpty, let startValue, let start = instant(startValue) {
            source.start = start
            source.end = end(of: component, start: start, startValue: startValue, startZone: startZone, isTodo: isTodo)
        }
        return source
    }

    /// DTEND or DUE, else DTSTART+DURATION, else the day a DATE event lasts or the instant of a
    /// DATE-TIME one; nil for a to-do with neither.
    func end(of component: Component, start: Int64, startValue: DateOrDateTime, startZone: ZoneRules, isTodo: Bool) -> Int64? {
        if let value = try? Self.endProperty(of: component)?.dateValue() { return instant(value) }
        if component.first("DTSTART") != nil, let text = component.first("DURATION")?.value,
           let duration = try? ICalendar.Duration.parse(text.filter { $0 != " " }), !duration.negative {
            let offset = ReminderTrigger.Offset(duration)
            if case .date(let day) = startValue {
                return zone.utcSeconds(for: LocalDateTime(date: day).adding(seconds: offset.approximateSeconds))
            }
            return ReminderSchedule.shift(start, by: offset, in: startZone)
        }
        if isTodo { return nil }
        if case .date(let day) = startValue { return zone.utcSeconds(for: LocalDateTime(date: day.adding(days: 1))) }
        return start
    }

    /// The zone a DATE or DATE-TIME value's wall clock is in: its TZID's, UTC, or `zone` for
    /// floating times and dates.
    func zone(of value: DateOrDateTime?) -> ZoneRules? {
        guard let value else { return nil }
        switch value {
        case .date, .dateTime(_, .floating): return zone
        case .dateTime(_, .utc): return .utc
        case .dateTime(_, .zone(let tzid)): return resolver.rules(for: tzid) ?? zone
        }
    }

    /// A DATE or DATE-TIME in absolute time; nil when its TZID is unknown.
    func instant(_ value: DateOrDateTime) -> Int64? {
        switch value {
        case .date(let day): return zone.utcSeconds(for: LocalDateTime(date: day))
        case .dateTime(let local, .utc): return local.secondsSinceEpoch
        case .dateTime(let local, .floating): return zone.utcSeconds(for: local)
        case .dateTime(let local, .zone(let tzid)): return resolver.rules(for: tzid)?.utcSeconds(for: local)
        }
    }

    /// How the expander names the instance a RECURRENCE-ID or EXDATE value points at.
    func instanceID(_ value: DateOrDateTime, seriesZone: ZoneRules) -> String? {
        switch value {
        case .date(let day): return OccurrenceTime.date(day).iso8601
        case .dateTime(let local, .floating): return OccurrenceTime.instant(seriesZone.utcSeconds(for: local)).iso8601
        default: return instant(value).map { OccurrenceTime.instant($0).iso8601 }
        }
    }
}
