import ICalendar

/// The recurrence-aware parts of calendar-data: `expand` (RFC 4791 §9.6.5),
/// `limit-recurrence-set` (§9.6.6) and `limit-freebusy-set` (§9.6.7). Instances are judged by
/// the same §9.9 rules as a time-range filter, as those sections require.
struct RecurrenceShaper: Sendable {
    let timeline: CalendarTimeline

    static let recurringComponents: Set<String> = ["VEVENT", "VTODO", "VJOURNAL"]
    static let recurrenceProperties: Set<String> = ["RRULE", "RDATE", "EXDATE", "EXRULE"]

    /// Each recurrence set of `calendar` once, in the order its first member appears, with
    /// the index of every member; other children are passed to `other`.
    private func forEachRecurrenceSet(
        in calendar: Component, _ body: (RecurrenceSet, [Int]) -> Void, other: (Int) -> Void = { _ in }
    ) {
        var membersByKey: [String: [Int]] = [:]
        var order: [String] = []
        for (index, child) in calendar.components.enumerated() {
            guard Self.recurringComponents.contains(child.name) else { other(index); continue }
            let uid = child.first("UID")?.value ?? ""
            // Without a UID nothing ties components together: each stands alone.
            let key = uid.isEmpty ? "\u{0}\(index)" : child.name + "\u{0}" + uid
            if membersByKey[key] == nil { order.append(key) }
            membersByKey[key, default: []].append(index)
        }
        for key in order {
            guard let indices = membersByKey[key], let first = indices.first else { continue }
            let members = indices.map { calendar.components[$0] }
            let uid = calendar.components[first].first("UID")?.value ?? ""
            body(RecurrenceSet(uid: uid, components: members), indices)
        }
    }

    // MARK: - expand

    /// Every instance overlapping `range` as its own component with a RECURRENCE-ID, start and
    /// end in UTC (floating and DATE values stay as they are), no recurrence properties, and no
    /// VTIMEZONE left to refer to.
    func expanded(_ calendar: Component, overlapping range: InstantRange) -> Component {
        var result = calendar
        result.components = []
        var placed: [(index: Int, components: [Component])] = []
        forEachRecurrenceSet(in: calendar, { set, indices in
            guard let first = indices.first else { return }
            let lead = calendar.components[first]
            if lead.name == "VTODO", set.overrides.isEmpty, let master = set.master, TimeRangeRule.isUndated(master) {
                let keep = TimeRangeRule.undatedTodo(
                    completed: master.first("COMPLETED").flatMap(timeline.instant(of:)),
                    created: master.first("CREATED").flatMap(timeline.instant(of:)), overlaps: range)
                if keep { placed.append((first, [master])) }
                return
            }
            let recurring = !set.overrides.isEmpty
                || (set.master.map { $0.first("RRULE") != nil || $0.first("RDATE") != nil } ?? false)
            let instances = timeline.instances(of: set, near: range, firstOnly: false) { occurrence, span in
                TimeRangeRule.instance(of: occurrence.component, span: span, overlaps: range)
            }
            placed.append((first, instances.map { instance(of: $0, in: set, recurring: recurring) }))
        }, other: { index in
            let child = calendar.components[index]
            if child.name != "VTIMEZONE" { placed.append((index, [child])) }
        })
        for entry in placed.sorted(by: { $0.index < $1.index }) {
            result.components.append(contentsOf: entry.components)
        }
        return result
    }

    /// One instance as a stand-alone component, keeping the property order of the component
    /// that describes it; RECURRENCE-ID goes where the recurrence rule was (as in §7.8.3).
    private func instance(of occurrence: Occurrence, in set: RecurrenceSet, recurring: Bool) -> Component {
        var component = occurrence.component
        let rulePosition = component.properties.firstIndex { Self.recurrenceProperties.contains($0.name) }
        component.properties.removeAll { Self.recurrenceProperties.contains($0.name) }

        let startProperty = component.first("DTSTART")
        if let startProperty {
            component.set("DTSTART", property(occurrence.start, like: startProperty))
        }
        if let end = component.first("DTEND") {
            component.set("DTEND", property(occurrence.end, like: end))
        }
        if component.name == "VTODO", let due = component.first("DUE") {
            // The expander starts a to-do without DTSTART at its DUE.
            component.set("DUE", property(startProperty == nil ? occurrence.start : occurrence.end, like: due))
        }
        if let own = component.first("RECURRENCE-ID"), own.parameter("RANGE") == nil {
            // A plain override names its instance itself, and that value is kept (made UTC below
            // if zoned): the expander reports an override it meets outside the stretch of the
            // rule it walked with a UTC time even when the RECURRENCE-ID is a DATE.
        } else if recurring, let recurrenceId = occurrence.recurrenceId {
            // An instance of the master, or one a THISANDFUTURE override reshaped.
            let model = set.master?.first("DTSTART") ?? startProperty ?? Property(name: "RECURRENCE-ID", value: "")
            let rid = property(recurrenceId, like: model, name: "RECURRENCE-ID")
            if component.first("RECURRENCE-ID") != nil {
                component.set("RECURRENCE-ID", rid)  // drops RANGE: the component is one instance now
            } else {
                component.properties.insert(rid, at: min(rulePosition ?? component.properties.count, component.properties.count))
            }
        }
        // Anything else still naming a TZID would point at a VTIMEZONE that is no longer there.
        for index in component.properties.indices where component.properties[index].parameter("TZID") != nil {
            let original = component.properties[index]
            if let value = try? original.dateValue(), let instant = timeline.instant(value) {
                component.properties[index] = property(.instant(instant), like: original)
            }
        }
        return component
    }

    /// `time` written as `model` was: a DATE stays a DATE, a floating time stays floating (read
    /// back in the floating zone), anything zoned becomes UTC. Other parameters are kept.
    private func property(_ time: OccurrenceTime, like model: Property, name: String? = nil) -> Property {
        let modelValue = try? model.dateValue()
        let value: DateOrDateTime
        switch time {
        case .date(let day):
            value = .date(day)
        case .instant(let seconds):
            if case .dateTime(_, .floating)? = modelValue {
                value = .dateTime(timeline.floatingZone.local(forUTC: seconds), .floating)
            } else {
                value = .dateTime(LocalDateTime(secondsSinceEpoch: seconds), .utc)
            }
        }
        return value.property(name ?? model.name, extraParameters: model.parameters)
    }

    // MARK: - limit-recurrence-set

    /// The master and only the overrides that touch `range`: by their own time, by the time
    /// the instance had before it was moved, or (RANGE=THISANDFUTURE) by moving later
    /// instances that may fall in it. Everything else in the object is kept.
    func limitingRecurrenceSet(_ calendar: Component, to range: InstantRange) -> Component {
        var dropped = Set<Int>()
        forEachRecurrenceSet(in: calendar, { set, indices in
            guard let master = set.master, !set.overrides.isEmpty else { return }
            // Where instances are now, cancelled ones included: a client must learn of those.
            let current = timeline.instances(of: set, near: range, firstOnly: false, keepCancelled: true) { occurrence, span in
                occurrence.isOverride && TimeRangeRule.instance(of: occurrence.component, span: span, overlaps: range)
            }.map(\.component)
            // Where instances would be without overrides.
            let plain = RecurrenceSet(uid: set.uid, components: [master])
            let originals = Set(timeline.instances(of: plain, near: range, firstOnly: false) { _, span in
                TimeRangeRule.instance(of: master, span: span, overlaps: range)
            }.compactMap { $0.recurrenceId.map(timeline.instant) })
            for index in indices {
                let member = calendar.components[index]
                guard let rid = member.first("RECURRENCE-ID") else { continue }
                let original = timeline.instant(of: rid)
                let movesLater = rid.parameter("RANGE")?.uppercased() == "THISANDFUTURE" && (original.map { $0 < range.end } ?? true)
                let touches = movesLater || current.contains(member) || (original.map(originals.contains) ?? false)
                if !touches { dropped.insert(index) }
            }
        })
        var result = calendar
        result.components = calendar.components.enumerated().filter { !dropped.contains($0.offset) }.map(\.element)
        return result
    }

    // MARK: - limit-freebusy-set

    /// VFREEBUSY components keep only the FREEBUSY periods overlapping `range` (§9.9's
    /// FREEBUSY row); a property left without periods is removed.
    func limitingFreeBusy(_ calendar: Component, to range: InstantRange) -> Component {
        var result = calendar
        for index in result.components.indices where result.components[index].name == "VFREEBUSY" {
            var freeBusy = result.components[index]
            freeBusy.properties = freeBusy.properties.compactMap { property in
                guard property.name == "FREEBUSY" else { return property }
                let kept = FreeBusyPeriod.periods(of: property, timeline: timeline).filter { range.start < $0.end && range.end > $0.start }
                guard !kept.isEmpty else { return nil }
                var limited = property
                limited.value = kept.map { String($0.text) }.joined(separator: ",")
                return limited
            }
            result.components[index] = freeBusy
        }
        return result
    }
}
