import ICalendar
import Synchronization

/// RFC 4791 §9.9 for real iCalendar data, built once per calendar object so the object's
/// VTIMEZONEs are read once however many time-ranges the filter holds.
struct CalendarTimeRangeMatcher: TimeRangeMatching, Sendable {
    let timeline: CalendarTimeline
    /// Each series' recurrence set, and for one with many overrides its owners per range (see `owners`).
    private let series = SeriesInstances()

    /// From how many overrides a series is expanded once for all its members: asked member by
    /// member, each question expands the whole series again (quadratic: 32 s for a month three
    /// years on of an event with 4,000 overrides).
    static let groupedOverrides = 8

    init(calendar: Component, floatingZone: ZoneRules) {
        timeline = CalendarTimeline(calendar: calendar, floatingZone: floatingZone)
    }

    /// The recurrence set `component` belongs to (its UID's members in `parent`), found once per
    /// UID: finding it reads every component of the object.
    private func recurrenceSet(of component: Component, in parent: Component?) -> RecurrenceSet {
        guard let uid = component.first("UID")?.value, !uid.isEmpty, parent != nil else {
            return timeline.recurrenceSet(of: component, in: parent)
        }
        let key = SeriesInstances.Series(uid: uid, name: component.name)
        if let known = series.state.withLock({ $0.sets[key] }) { return known }
        let set = timeline.recurrenceSet(of: component, in: parent)
        series.state.withLock { $0.sets[key] = set }
        return set
    }

    /// The members of a series of `groupedOverrides` or more overrides that own an instance
    /// overlapping `range`, from one expansion; nil when the series is smaller, or the expansion
    /// near the range stopped at its budget (each member is then asked on its own).
    private func owners(in set: RecurrenceSet, of component: Component, overlapping range: InstantRange) -> [Component]? {
        guard set.overrides.count >= Self.groupedOverrides, let uid = component.first("UID")?.value, !uid.isEmpty else { return nil }
        let key = SeriesInstances.Owners(series: .init(uid: uid, name: component.name), range: range)
        if let known = series.state.withLock({ $0.owners[key] }) { return known }
        let searched = timeline.instancesSearched(of: set, near: range, firstOnly: false) { occurrence, span in
            TimeRangeRule.instance(of: occurrence.component, span: span, overlaps: range)
        }
        let owners = searched.truncated ? nil : searched.found.map(\.component)
        series.state.withLock { $0.owners[key] = .some(owners) }
        return owners
    }

    func component(_ component: Component, ancestors: [Component], overlaps timeRange: TimeRange) -> Bool {
        let range = InstantRange(timeRange)
        switch component.name {
        case "VCALENDAR":
            // An extension (see CompFilter): the object overlaps when one of its components does.
            return component.components.contains { child in
                ["VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY"].contains(child.name)
                    && self.component(child, ancestors: ancestors + [component], overlaps: timeRange)
            }
        case "VALARM":
            return alarm(component, parent: ancestors.last, grandparent: ancestors.dropLast().last, overlaps: range)
        case "VFREEBUSY":
            return TimeRangeRule.freeBusy(component, timeline: timeline, overlaps: range)
        case "VAVAILABILITY":
            return TimeRangeRule.availability(component, timeline: timeline, overlaps: range)
        case "VTODO" where TimeRangeRule.isUndated(component):
            return TimeRangeRule.undatedTodo(
                completed: component.first("COMPLETED").flatMap(timeline.instant(of:)),
                created: component.first("CREATED").flatMap(timeline.instant(of:)), overlaps: range)
        default:
            // Every instance counts, with overrides moving theirs; an instance belongs to the
            // component that describes it, so a master matches through its own instances and an
            // override through the one it replaces.
            let set = recurrenceSet(of: component, in: ancestors.last)
            if let owners = owners(in: set, of: component, overlapping: range) {
                return owners.contains(component)
            }
            return !timeline.instances(of: set, near: range, firstOnly: true) { occurrence, span in
                occurrence.component == component && TimeRangeRule.instance(of: component, span: span, overlaps: range)
            }.isEmpty
        }
    }

    /// §9.9: `start <= trigger < end` for some firing. A relative trigger fires once per instance
    /// of the parent, so the parent is expanded only where an instance could put a firing in range.
    func alarm(_ alarm: Component, parent: Component?, grandparent: Component?, overlaps range: InstantRange) -> Bool {
        guard let trigger = AlarmTrigger(alarm: alarm, timeline: timeline) else { return false }
        let offset: Int64
        let fromEnd: Bool
        switch trigger.anchor {
        case .absolute(let instant): return trigger.fires(from: instant, in: range)
        case .start(let seconds): (offset, fromEnd) = (seconds, false)
        case .end(let seconds): (offset, fromEnd) = (seconds, true)
        }
        guard let parent else { return false }
        if parent.name == "VTODO" && TimeRangeRule.isUndated(parent) { return false }
        // Anchors in [range.start - offset - repeatSpan, range.end - offset) can fire in range.
        let window = range.widened(early: offset.plus(trigger.repeatSpan), late: Int64(0).minus(offset))
        let set = recurrenceSet(of: parent, in: grandparent)
        return !timeline.instances(of: set, near: window, firstOnly: true) { occurrence, span in
            occurrence.component == parent && trigger.fires(from: (fromEnd ? span.end : span.start).plus(offset), in: range)
        }.isEmpty
    }

    /// §9.9: `start <= date-time < end` for COMPLETED, CREATED, DTEND, DTSTAMP, DTSTART, DUE,
    /// LAST-MODIFIED (and any other date-valued property). The stored value is tested, not
    /// each instance's: a prop-filter asks about the property as written.
    func property(_ property: Property, of component: Component, ancestors: [Component], overlaps range: TimeRange) -> Bool {
        guard let instant = timeline.instant(of: property) else { return false }
        return InstantRange(range).contains(instant)
    }

    /// §9.9's note: DTEND of a VEVENT and DUE of a VTODO that only have DTSTART+DURATION are
    /// tested on that effective value.
    func effectiveProperty(named name: String, of component: Component, ancestors: [Component], overlaps range: TimeRange) -> Bool {
        guard (name == "DTEND" && component.name == "VEVENT") || (name == "DUE" && component.name == "VTODO"),
              let start = component.first("DTSTART").flatMap({ try? $0.dateValue() }),
              let duration = component.first("DURATION").flatMap({ try? ICalendar.Duration.parse($0.value) }),
              let end = timeline.instant(start, plus: duration)
        else { return false }
        return InstantRange(range).contains(end)
    }
}

/// What one matcher learnt about a calendar object's series: each UID's recurrence set, and per
/// range asked the members owning an instance in it (nil: ask each member on its own).
final class SeriesInstances: Sendable {
    struct Series: Hashable {
        var uid: String
        var name: String
    }

    struct Owners: Hashable {
        var series: Series
        var range: InstantRange
    }

    struct State {
        var sets: [Series: RecurrenceSet] = [:]
        var owners: [Owners: [Component]?] = [:]
    }

    let state = Mutex(State())
}
