import Foundation
import ICalendar

/// Editing and deleting a stored event with a scope — this instance, this and the following ones,
/// or all — for the JSON API and the web app alike. Every object it changes or adds goes through
/// `CalendarWrites` in one transaction, so synced devices, conflict checks and reminders see the
/// new shape, and a split never leaves half a series behind.
public struct EventSeriesChanges: Sendable {
    let store: StoreAccess<any CalendarWriteStore>
    let clock: Clock
    let random: RandomSource
    let writes: CalendarWrites

    public init(store: any Store, clock: Clock, random: RandomSource) {
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
        self.random = random
        writes = CalendarWrites(store: store, clock: clock, random: random)
    }

    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case notAnEvent
        case occurrenceRequired(SeriesScope)
        case occurrence(String, allDay: Bool)
        case notInSeries(String)
        case draft(EventDraft.Problem)
        case invalid(String)

        public var description: String {
            switch self {
            case .notAnEvent: "the object holds no event with a start that can be edited this way"
            case .occurrenceRequired(let scope):
                "scope '\(scope.rawValue)' of a repeating event needs 'occurrence', the instance's original start (its recurrenceId in GET /api/v1/events)"
            case .occurrence(let text, let allDay):
                allDay ? "'occurrence' of an all-day series must be a date such as 2026-11-23, not '\(text)'"
                    : "'occurrence' must be an instant such as 2026-11-23T10:00:00Z or a wall time such as 2026-11-23T13:00 in the event's zone, not '\(text)'"
            case .notInSeries(let text): "the event has no instance starting at '\(text)' (it may have been removed or moved)"
            case .draft(let problem): problem.description
            case .invalid(let reason): "the changed event would not be valid iCalendar: \(reason)"
            }
        }
    }

    /// What a change left: the edited object (nil when it was removed) and the series a "this
    /// and following" edit started.
    public struct Change: Sendable {
        public let object: CalendarObject?
        public let newSeries: CalendarObject?
    }

    /// Applies `draft` to the instances `scope` names. With `occurrence`, the draft describes that
    /// instance (the web form shows it), so for `all` the series moves by the days the instance
    /// moved and takes the draft's times; without it, `all` replaces the series as described.
    public func edit(
        _ draft: EventDraft, name: String, in calendar: CalendarCollection, scope: SeriesScope, occurrence: String?, ifMatch: String?,
        defaultTimeZone: String, source: WriteSource
    ) async throws -> Change {
        let now = clock.now
        let identity = ObjectIdentity.new(random: random)
        return try await store.transaction { tx in
            let (current, series) = try await read(name: name, in: calendar, ifMatch: ifMatch, tx: tx)
            // Who invites, should the edit make the event a meeting: the calendar's owner.
            let organizer = try await tx.account(id: calendar.accountID).map { EventAttendee(email: $0.email.value, name: $0.displayName) }
            let plan = try plan(
                draft, series: series, scope: scope, occurrence: occurrence, defaultTimeZone: defaultTimeZone, now: now, newUID: identity.uid,
                organizer: organizer)
            let object = try await put(plan.object, name: name, in: calendar, ifMatch: current.etag, source: source, tx: tx)
            let newSeries: CalendarObject? = if let text = plan.newSeries {
                try await put(text, name: identity.name, in: calendar, ifMatch: nil, source: source, tx: tx)
            } else { nil }
            return Change(object: object, newSeries: newSeries)
        }
    }

    /// Removes the instances `scope` names: EXDATE for one, UNTIL for it and the later ones, the
    /// object for all (or when nothing would be left).
    public func delete(
        name: String, in calendar: CalendarCollection, scope: SeriesScope, occurrence: String?, ifMatch: String?, source: WriteSource
    ) async throws -> Change {
        let now = clock.now
        return try await store.transaction { tx in
            let (current, series) = try await read(name: name, in: calendar, ifMatch: ifMatch, tx: tx)
            var edited = series
            switch try target(series, scope: scope, occurrence: occurrence) {
            case .whole:
                try await writes.delete(name: name, in: calendar, ifMatch: current.etag, source: source, transaction: tx)
                return Change(object: nil, newSeries: nil)
            case .instance(let instance, .this):
                edited.exclude(instance, now: now)
            case .instance(let instance, _):
                edited.end(before: instance, now: now)
            }
            guard edited.hasInstances else {
                try await writes.delete(name: name, in: calendar, ifMatch: current.etag, source: source, transaction: tx)
                return Change(object: nil, newSeries: nil)
            }
            let object = try await put(edited.calendar.serialized, name: name, in: calendar, ifMatch: current.etag, source: source, tx: tx)
            return Change(object: object, newSeries: nil)
        }
    }

    /// The draft that describes one instance of a stored repeating event, for showing it in a
    /// form: its override, or the master at that instance, with the series' repeat rule. Nil for
    /// an event that does not repeat or has no such instance.
    public static func draft(of calendar: Component, occurrence: String) -> EventDraft? {
        guard let series = try? EventSeries(calendar: calendar), series.isRepeating, let instance = try? series.instance(occurrence),
              var draft = EventDraft(event: series.overrideBase(instance))
        else { return nil }
        draft.rrule = EventDraft(event: series.master)?.rrule
        return draft
    }

    private enum Target {
        case whole
        case instance(DateOrDateTime, SeriesScope)
    }

    /// What a scope reaches in this object: the whole of it for `all`, a single event, or
    /// "following" from the first instance; otherwise one instance.
    private func target(_ series: EventSeries, scope: SeriesScope, occurrence: String?) throws(Problem) -> Target {
        let instance = try occurrence.map { text throws(Problem) in try series.instance(text) }
        guard series.isRepeating, scope != .all else { return .whole }
        guard let instance else { throw .occurrenceRequired(scope) }
        if scope == .following, series.instant(instance) <= series.instant(series.start) { return .whole }
        return .instance(instance, scope)
    }

    private func read(name: String, in calendar: CalendarCollection, ifMatch: String?, tx: any CalendarStore) async throws
        -> (CalendarObject, EventSeries) {
        guard let current = try await tx.calendarObject(calendarID: calendar.id, name: name) else { throw CalendarWrites.Refusal.notFound }
        if let ifMatch, !CalendarWrites.ifMatch(ifMatch, holdsFor: current.etag) {
            throw CalendarWrites.Refusal.preconditionFailed(currentETag: current.etag)
        }
        guard current.component == .event, let parsed = try? ICalendarParser().parseCalendar(current.icalendar) else { throw Problem.notAnEvent }
        return (current, try EventSeries(calendar: parsed))
    }

    private func put(_ text: String, name: String, in calendar: CalendarCollection, ifMatch: String?, source: WriteSource, tx: any CalendarWriteStore)
        async throws -> CalendarObject {
        let content: CalendarObjectContent
        do {
            content = try CalendarObjectContent(text: text)
        } catch {
            throw Problem.invalid(error.description)
        }
        return try await writes.put(content, name: name, in: calendar, ifMatch: ifMatch, ifNoneMatch: ifMatch == nil, source: source, transaction: tx).object
    }

    /// The texts an edit stores: the object's, and a new series' for "this and following".
    func plan(
        _ draft: EventDraft, series: EventSeries, scope: SeriesScope, occurrence: String?, defaultTimeZone: String, now: Date, newUID: String,
        organizer: EventAttendee? = nil
    ) throws(Problem) -> (object: String, newSeries: String?) {
        func checked<T>(_ body: () throws(EventDraft.Problem) -> T) throws(Problem) -> T {
            do { return try body() } catch { throw .draft(error) }
        }
        switch try target(series, scope: scope, occurrence: occurrence) {
        case .whole:
            var whole = draft
            if series.isRepeating, let occurrence, let instance = try? series.instance(occurrence) {
                whole = try checked { () throws(EventDraft.Problem) in
                    try Self.moved(draft, from: instance, to: series.start, series: series, defaultTimeZone: defaultTimeZone)
                }
            }
            let text = try checked { () throws(EventDraft.Problem) in
                try whole.icalendar(uid: series.uid, existing: series.calendar, defaultTimeZone: defaultTimeZone, now: now, organizer: organizer)
            }
            guard series.isRepeating, let parsed = try? ICalendarParser().parseCalendar(text), var edited = try? EventSeries(calendar: parsed) else {
                return (text, nil)
            }
            edited.followMaster(from: series, now: now)
            return (edited.calendar.serialized, nil)
        case .instance(let instance, .this):
            var single = draft
            single.rrule = nil
            let override = try checked { () throws(EventDraft.Problem) in
                try single.component(uid: series.uid, base: series.overrideBase(instance), defaultTimeZone: defaultTimeZone, now: now, organizer: organizer)
            }
            var edited = series
            edited.setOverride(override, for: instance)
            return (edited.calendar.serialized, nil)
        case .instance(let instance, _):
            var old = series
            let (later, remainingCounts) = old.end(before: instance, now: now)
            var following = draft
            // The same rule carries on with what its COUNT had left.
            if let text = draft.rrule, let rule = try? RecurrenceRule.parse(text), let left = remainingCounts[rule] {
                var rest = rule
                rest.count = max(1, left)
                following.rrule = rest.icalValue
            }
            // A new series: the master's properties under a new UID, and the later overrides moved
            // by as much as the instance moved, so they still name instances of it.
            var base = series.master
            base.set("UID", Property(name: "UID", value: newUID))
            for name in ["RRULE", "RDATE", "EXDATE", "CREATED", "SEQUENCE"] { base.remove(name) }
            var calendar = Component(name: "VCALENDAR", properties: series.calendar.properties,
                                     components: series.calendar.components.filter { $0.name == "VTIMEZONE" })
            let master = try checked { () throws(EventDraft.Problem) in
                try following.component(uid: newUID, base: base, defaultTimeZone: defaultTimeZone, now: now, organizer: organizer)
            }
            calendar.components.append(master)
            if let newStart = try? master.first("DTSTART")?.dateValue(), newStart.isDate == instance.isDate {
                let days = newStart.local.date.daysSinceEpoch - instance.local.date.daysSinceEpoch
                let seconds = newStart.isDate ? 0 : Int64(newStart.local.secondsSinceEpoch - instance.local.secondsSinceEpoch) - Int64(days) * 86_400
                for var override in later {
                    guard let rid = try? override.first("RECURRENCE-ID")?.dateValue() else { continue }
                    override.set("UID", Property(name: "UID", value: newUID))
                    override.set("RECURRENCE-ID", EventSeries.shifted(rid, days: days, seconds: seconds).property("RECURRENCE-ID"))
                    calendar.components.append(override)
                }
            }
            EventDraft.defineZone(of: master, in: &calendar)
            let oldText = old.hasInstances ? old.calendar.serialized : nil
            guard let oldText else {
                // Nothing is left before the instance (all removed): the edit is the whole series.
                return (try checked { () throws(EventDraft.Problem) in
                    try following.icalendar(uid: series.uid, existing: series.calendar, defaultTimeZone: defaultTimeZone, now: now, organizer: organizer)
                }, nil)
            }
            return (oldText, calendar.serialized)
        }
    }

    /// `draft` describes one instance; the same change for the series moves its start by the
    /// days the instance moved and takes the draft's time of day and length.
    static func moved(_ draft: EventDraft, from instance: DateOrDateTime, to start: DateOrDateTime, series: EventSeries, defaultTimeZone: String)
        throws(EventDraft.Problem) -> EventDraft {
        let zone = draft.timeZone ?? start.tzid ?? defaultTimeZone
        let allDay = draft.allDay ?? (draft.start.count == 10)
        guard let newStart = EventDraft.value(draft.start, allDay: allDay, zone: zone) else { throw .start(draft.start) }
        let newEnd = try draft.end.map { text throws(EventDraft.Problem) in
            guard let value = EventDraft.value(text, allDay: allDay, zone: zone) else { throw .end(text) }
            return value
        }
        // Days between the instance and where the draft puts it, on the draft's clock.
        let wallStart = Self.wall(newStart, zone: zone)
        let days = wallStart.date.daysSinceEpoch - instance.local.date.daysSinceEpoch
        let firstDay = start.local.date.adding(days: days)
        var moved = draft
        moved.start = Self.text(.dateTime(LocalDateTime(date: firstDay, hour: wallStart.hour, minute: wallStart.minute, second: wallStart.second), .floating), allDay: allDay)
        if let newEnd {
            let length = newEnd.local.secondsSinceEpoch - newStart.local.secondsSinceEpoch
            let endWall = Self.wall(newStart, zone: zone).adding(seconds: length)
            let dayShift = Int64(firstDay.daysSinceEpoch - wallStart.date.daysSinceEpoch) * 86_400
            moved.end = Self.text(.dateTime(endWall.adding(seconds: dayShift), .floating), allDay: allDay)
        }
        if newStart.reference == .utc { moved.timeZone = zone }
        return moved
    }

    /// A parsed draft time on the wall clock of `zone`.
    private static func wall(_ value: DateOrDateTime, zone: String) -> LocalDateTime {
        if case .dateTime(let local, .utc) = value, let rules = ZoneRules(ianaIdentifier: zone) {
            return rules.local(forUTC: local.secondsSinceEpoch)
        }
        return value.local
    }

    private static func text(_ value: DateOrDateTime, allDay: Bool) -> String {
        let local = value.local
        let day = local.date.description
        guard !allDay else { return day }
        func pad(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(day)T\(pad(local.hour)):\(pad(local.minute)):\(pad(local.second))"
    }
}
