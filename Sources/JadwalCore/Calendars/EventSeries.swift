import Foundation
import ICalendar

/// Which instances of a repeating event a change reaches, as calendar apps ask it.
public enum SeriesScope: String, Sendable, CaseIterable, Codable {
    /// The one instance: an override with RECURRENCE-ID, or an EXDATE when it goes.
    case this
    /// The instance and every later one: the series ends before it (UNTIL) and, for an edit,
    /// a new series with its own UID starts there.
    case following
    /// The whole series.
    case all
}

/// A stored event read for a change to some of its instances (RFC 5545 §3.8.4.4, §3.8.5). Pure:
/// it turns the object's text into the texts to store, and `EventSeriesChanges` writes them.
struct EventSeries {
    typealias Problem = EventSeriesChanges.Problem

    private(set) var calendar: Component
    let master: Component
    let start: DateOrDateTime
    let resolver: TimeZoneResolver

    init(calendar: Component) throws(Problem) {
        guard let master = calendar.master("VEVENT"), let start = try? master.first("DTSTART")?.dateValue() else { throw .notAnEvent }
        self.calendar = calendar
        self.master = master
        self.start = start
        resolver = TimeZoneResolver(calendar: calendar)
    }

    var uid: String { master.first("UID")?.value ?? "" }
    var isRepeating: Bool { master.first("RRULE") != nil || master.first("RDATE") != nil }

    /// The instant a DATE or DATE-TIME names, read in this object's zones (a date and a
    /// floating time count in UTC, as the expander's default does).
    func instant(_ value: DateOrDateTime) -> Int64 { resolver.instant(value) }

    /// `value` written the way the series' DTSTART is (a date, a time in its zone, UTC or floating),
    /// as RECURRENCE-ID and EXDATE must be.
    func inStartForm(instant: Int64, date: CivilDate) -> DateOrDateTime {
        switch start {
        case .date: .date(date)
        case .dateTime(_, .utc): .dateTime(LocalDateTime(secondsSinceEpoch: instant), .utc)
        case .dateTime(_, .floating): .dateTime(LocalDateTime(secondsSinceEpoch: instant), .floating)
        case .dateTime(_, .zone(let tzid)): .dateTime((resolver.rules(for: tzid) ?? .utc).local(forUTC: instant), .zone(tzid))
        }
    }

    /// The instance `text` names — its original start, as the event list's `recurrenceId` gives
    /// it: a date for an all-day series, an instant (`2026-11-23T10:00:00Z` or with an offset),
    /// or a wall time in the series' zone — written as RECURRENCE-ID; refused when the series
    /// has no such instance (never was, or removed by EXDATE).
    func instance(_ text: String) throws(Problem) -> DateOrDateTime {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let value: DateOrDateTime
        if start.isDate {
            guard trimmed.count == 10, let day = try? DateOrDateTime.parse(trimmed.filter { $0 != "-" }, valueType: "DATE"), day.isDate else {
                throw .occurrence(text, allDay: true)
            }
            value = day
        } else if trimmed.hasSuffix("Z") || trimmed.dropFirst(19).contains("+") || trimmed.dropFirst(19).contains("-") {
            guard let date = ISO8601DateFormatter().date(from: trimmed) else { throw .occurrence(text, allDay: false) }
            let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
            value = inStartForm(instant: seconds, date: LocalDateTime(secondsSinceEpoch: seconds).date)
        } else {
            let digits = trimmed.filter { $0 != "-" && $0 != ":" }
            let local = digits.count == 13 ? digits + "00" : digits
            guard local.count == 15, case .dateTime(let wall, _)? = try? DateOrDateTime.parse(local) else { throw .occurrence(text, allDay: false) }
            value = .dateTime(wall, start.reference)
        }
        guard isRepeating else {
            guard instant(value) == instant(start) else { throw .notInSeries(text) }
            return value
        }
        let at = instant(value)
        let components = calendar.components.filter { $0.name == "VEVENT" }
        let found = try? RecurrenceSet(uid: uid, components: components).occurrences(
            from: at - 86_400, to: at + 86_400 * 2, resolver: resolver, options: ExpansionOptions(includeCancelled: true))
        guard let found, found.occurrences.contains(where: { $0.recurrenceId.map { $0.sortSeconds == at } ?? false }) else {
            throw .notInSeries(text)
        }
        return value
    }

    /// The override for `instance`, if the object has one.
    func overrideIndex(_ instance: DateOrDateTime) -> Int? {
        calendar.components.firstIndex { component in
            component.name == "VEVENT" && (try? component.first("RECURRENCE-ID")?.dateValue()).flatMap { $0.map(instant) } == instant(instance)
        }
    }

    /// The VEVENT an edit of one instance starts from: its override, or the master without its
    /// recurrence, at the instance.
    func overrideBase(_ instance: DateOrDateTime) -> Component {
        if let index = overrideIndex(instance) { return calendar.components[index] }
        var base = master
        for name in ["RRULE", "RDATE", "EXDATE", "EXRULE"] { base.remove(name) }
        base.set("RECURRENCE-ID", instance.property("RECURRENCE-ID"))
        if var event = try? Event(component: base) {
            // The instance's own start and end; the draft usually moves them again.
            if case .end(let end)? = event.end {
                let length = instant(end) - instant(event.start)
                event.end = start.isDate ? .end(.date(instance.local.date.adding(days: Int(length / 86_400))))
                    : .end(.dateTime(instance.local.adding(seconds: length), instance.reference))
            }
            event.start = instance
            base = event.component
        }
        return base
    }

    /// Puts `override` (with RECURRENCE-ID) in place of the instance's old override or beside the master.
    mutating func setOverride(_ override: Component, for instance: DateOrDateTime) {
        var override = override
        override.set("RECURRENCE-ID", instance.property("RECURRENCE-ID"))
        if let index = overrideIndex(instance) {
            calendar.components[index] = override
        } else {
            calendar.components.append(override)
        }
        EventDraft.defineZone(of: override, in: &calendar)
    }

    /// Removes one instance: an EXDATE on the master (in DTSTART's form), and its override if any.
    mutating func exclude(_ instance: DateOrDateTime, now: Date) {
        if let index = overrideIndex(instance) { calendar.components.remove(at: index) }
        let reader = self
        editMaster(now: now) { event in
            if !event.exceptionDates.contains(where: { reader.instant($0) == reader.instant(instance) }) { event.exceptionDates.append(instance) }
        }
    }

    /// Ends the series before `instance`: UNTIL just before it on every rule (COUNT, which UNTIL
    /// excludes, gives way), and RDATEs, EXDATEs and overrides from it on dropped. Returns what was
    /// dropped, for a new series to carry on, and each rule's instances left over from a COUNT.
    @discardableResult
    mutating func end(before instance: DateOrDateTime, now: Date) -> (later: [Component], remainingCounts: [RecurrenceRule: Int]) {
        let cut = instant(instance)
        let until: DateOrDateTime = switch start {
        case .date: .date(instance.local.date.adding(days: -1))
        case .dateTime(_, .floating): .dateTime(instance.local.adding(seconds: -1), .floating)
        default: .dateTime(LocalDateTime(secondsSinceEpoch: cut - 1), .utc)
        }
        var remaining: [RecurrenceRule: Int] = [:]
        let later = calendar.components.filter { component in
            component.name == "VEVENT" && (try? component.first("RECURRENCE-ID")?.dateValue()).flatMap { $0.map(instant) }.map { $0 >= cut } ?? false
        }
        calendar.components.removeAll { component in later.contains(component) }
        let reader = self
        editMaster(now: now) { event in
            event.recurrenceRules = event.recurrenceRules.map { rule in
                var ended = rule
                if let count = rule.count {
                    // COUNT counts the rule's instances from DTSTART, excluded ones too.
                    var before = 0
                    for local in RecurrenceIterator(rule: rule, start: event.start.local) {
                        guard before < count, reader.instant(Self.with(local, like: event.start)) < cut else { break }
                        before += 1
                    }
                    remaining[rule] = count - before
                    ended.count = nil
                }
                if ended.until.map({ reader.instant($0) >= cut }) ?? true { ended.until = until }
                return ended
            }
            event.recurrenceDates.removeAll { reader.instant($0.start) >= cut }
            event.exceptionDates.removeAll { reader.instant($0) >= cut }
        }
        return (later, remaining)
    }

    /// Keeps what names an instance pointing at one after an "all events" edit moved the series'
    /// start from `old.start` to this one's (another time of day, another day, to or from all
    /// day): every override's RECURRENCE-ID and every EXDATE moves on the wall clock as the start
    /// did, else they would name instances the series no longer has (a removed one would come
    /// back, an override would become an extra event). An override the person had not moved
    /// (it starts at its RECURRENCE-ID) moves with the series, taking the new length if it had
    /// the old one; one they had moved keeps the time they gave it.
    mutating func followMaster(from old: EventSeries, now: Date) {
        let oldLength = old.master.eventLength(reader: old)
        guard old.instant(old.start) != instant(start) || old.start.isDate != start.isDate || old.start.reference != start.reference else { return }
        let newLength = master.eventLength(reader: self)
        let new = self
        let moved = { (value: DateOrDateTime) in Self.moved(value, in: old, to: new) }
        for index in calendar.components.indices where calendar.components[index].name == "VEVENT" && !calendar.components[index].isMaster {
            var override = calendar.components[index]
            guard let rid = try? override.first("RECURRENCE-ID")?.dateValue() else { continue }
            let newRID = moved(rid)
            if var event = try? Event(component: override), old.instant(event.start) == old.instant(rid) {
                let length = event.component.eventLength(reader: old)
                event.start = newRID
                let kept = length == oldLength ? newLength : length
                event.end = kept.map { seconds in
                    .end(newRID.isDate ? .date(newRID.local.date.adding(days: Int(seconds / 86_400))) : .dateTime(newRID.local.adding(seconds: seconds), newRID.reference))
                } ?? event.end
                override = event.component
            }
            override.set("RECURRENCE-ID", newRID.property("RECURRENCE-ID"))
            calendar.components[index] = override
            EventDraft.defineZone(of: override, in: &calendar)
        }
        editMaster(now: now) { event in event.exceptionDates = event.exceptionDates.map(moved) }
    }

    /// `value`, an instance of `old`, where the same instance of `new` is: as many days and as
    /// much time of day later as `new`'s start is after `old`'s, on each one's wall clock, in
    /// `new`'s start's form.
    private static func moved(_ value: DateOrDateTime, in old: EventSeries, to new: EventSeries) -> DateOrDateTime {
        // The value on old's wall clock (a RECURRENCE-ID may be written in UTC for a zoned series).
        let wall = value.isDate ? value.local : old.inStartForm(instant: old.instant(value), date: value.local.date).local
        let days = new.start.local.date.daysSinceEpoch - old.start.local.date.daysSinceEpoch
        switch new.start {
        case .date:
            return .date(wall.date.adding(days: days))
        case .dateTime(let newStart, let reference):
            let local: LocalDateTime = old.start.isDate
                ? LocalDateTime(date: wall.date.adding(days: days), hour: newStart.hour, minute: newStart.minute, second: newStart.second)
                : wall.adding(seconds: newStart.secondsSinceEpoch - old.start.local.secondsSinceEpoch)
            return .dateTime(local, reference)
        }
    }

    /// The instances left, from the start: none means the object can go.
    var hasInstances: Bool {
        let components = calendar.components.filter { $0.name == "VEVENT" }
        return ((try? RecurrenceSet(uid: uid, components: components).bounds(resolver: resolver)) ?? nil) != nil
    }

    mutating func editMaster(now: Date, _ change: (inout Event) -> Void) {
        guard let text = StoredEventEdit(now: now).apply(to: calendar.serialized, change),
              let edited = try? ICalendarParser().parseCalendar(text)
        else { return }
        calendar = edited
    }

    static func with(_ local: LocalDateTime, like value: DateOrDateTime) -> DateOrDateTime {
        value.isDate ? .date(local.date) : .dateTime(local, value.reference)
    }

    /// `value` moved by whole days and, for a time, by seconds of wall clock.
    static func shifted(_ value: DateOrDateTime, days: Int, seconds: Int64) -> DateOrDateTime {
        switch value {
        case .date(let day): .date(day.adding(days: days))
        case .dateTime(let local, let reference): .dateTime(local.adding(seconds: Int64(days) * 86_400 + seconds), reference)
        }
    }
}

extension Component {
    /// Seconds from DTSTART to DTEND (or DURATION) read in `reader`'s zones; nil when neither is set.
    fileprivate func eventLength(reader: EventSeries) -> Int64? {
        guard let event = try? Event(component: self) else { return nil }
        switch event.end {
        case .end(let end)?: return reader.instant(end) - reader.instant(event.start)
        case .duration(let duration)?: return Int64(duration.totalSeconds)
        case nil: return nil
        }
    }
}
