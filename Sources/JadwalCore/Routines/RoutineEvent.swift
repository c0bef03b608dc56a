import Foundation
import ICalendar
import Scheduling

/// What a routine means to Jadwal beyond being busy time.
public enum RoutineKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Any routine: a meal, the gym, a class.
    case routine
    /// The hours the person sleeps: no suggestion or planned task is put there.
    case sleep
}

/// A daily routine as one recurring VEVENT in the Routine calendar, and back.
///
/// The event is what phones show and edit, so it is the routine's only record: `DTSTART` and
/// `DTEND` in the routine's zone on its first day (DTEND, not DURATION, so each end is a clock
/// reading; see `WeeklyHours`), `RRULE:FREQ=WEEKLY;BYDAY=…`, the reminder as a VALARM, and
/// `X-JADWAL-ROUTINE` for the kind. Reading accepts what a calendar app may write back for the
/// same thing (a DURATION, `FREQ=DAILY`, a weekly rule without BYDAY); anything else is not a
/// routine any more, and ``read(_:id:defaultZone:)`` says why.
public enum RoutineEvent {
    static let kindProperty = "X-JADWAL-ROUTINE"

    /// The routine's fields as an event would hold them; `kind` and `timeZone` are Jadwal's.
    public struct Fields: Sendable, Hashable {
        public var routine: Routine
        public var kind: RoutineKind
        /// The IANA zone the hours are read in.
        public var timeZone: String
    }

    /// The iCalendar object for `fields`: new with `uid`, or `existing` edited in place (a
    /// SEQUENCE one up, unknown properties kept). When the days or the start change, overridden
    /// instances and skipped days are dropped: they name instances the new series no longer has.
    public static func icalendar(_ fields: Fields, uid: String, existing: Component?, now: Date) -> String {
        let routine = fields.routine
        let rules = ZoneRules(ianaIdentifier: fields.timeZone) ?? .utc
        let today = rules.local(forUTC: Int64(now.timeIntervalSince1970.rounded(.down))).date
        let master = existing?.master("VEVENT")
        var event: Event
        var seriesChanged = true
        if let master, var parsed = try? Event(component: master) {
            if case .success(let before) = read(event: parsed, id: routine.id, defaultZone: fields.timeZone) {
                seriesChanged = before.routine.days != routine.days || before.routine.start != routine.start || before.timeZone != fields.timeZone
            }
            // The series keeps its first day, so its past stays in the calendar as it was lived.
            let anchor = parsed.start.local.date
            parsed.start = .dateTime(LocalDateTime(date: firstDay(on: routine.days, from: anchor), hour: routine.start.hour, minute: routine.start.minute), .zone(fields.timeZone))
            parsed.sequence += 1
            if seriesChanged {
                parsed.exceptionDates = []
                parsed.recurrenceDates = []
            }
            event = parsed
        } else {
            let first = firstDay(on: routine.days, from: today)
            event = Event(
                uid: uid, title: routine.name,
                start: .dateTime(LocalDateTime(date: first, hour: routine.start.hour, minute: routine.start.minute), .zone(fields.timeZone)), end: nil)
        }
        let startDay = event.start.local.date
        let endDay = routine.hours.crossesMidnight ? startDay.adding(days: 1) : startDay
        event.end = .end(.dateTime(LocalDateTime(date: endDay, hour: routine.end.hour, minute: routine.end.minute), .zone(fields.timeZone)))
        event.title = routine.name
        var rule = RecurrenceRule(frequency: .weekly)
        rule.byDay = routine.days.numbers.map { RecurrenceRule.WeekdayOccurrence(Weekday(rawValue: $0 - 1) ?? .monday) }
        event.recurrenceRules = [rule]
        event.transparency = .opaque
        event.alarms = routine.reminderMinutes.map { minutes in
            [Event.Alarm(trigger: .relative(Duration(negative: minutes > 0, minutes: minutes), relatedToEnd: false), description: routine.name)]
        } ?? []

        var vevent = event.component
        let stamp = UTCStamp.format(now)
        vevent.set("DTSTAMP", Property(name: "DTSTAMP", value: stamp))
        vevent.set("LAST-MODIFIED", Property(name: "LAST-MODIFIED", value: stamp))
        if vevent.first("CREATED") == nil { vevent.set("CREATED", Property(name: "CREATED", value: stamp)) }
        vevent.set(kindProperty, Property(name: kindProperty, value: fields.kind.rawValue.uppercased()))

        var calendar = existing ?? Component(name: "VCALENDAR", properties: [
            Property(name: "VERSION", value: "2.0"), Property(name: "PRODID", value: "-//Jadwal//Routines//EN"),
        ])
        calendar.components.removeAll { $0.name == "VEVENT" && ($0.isMaster || seriesChanged) }
        calendar.components.append(vevent)
        if !calendar.components.contains(where: { $0.name == "VTIMEZONE" && $0.first("TZID")?.value == fields.timeZone }),
           let vtimezone = VTimeZoneWriter.component(forIANAIdentifier: fields.timeZone, fromYear: max(1970, startDay.year - 1)) {
            calendar.components.insert(vtimezone, at: 0)
        }
        return calendar.serialized
    }

    /// The first day on or after `from` that the routine runs on.
    static func firstDay(on days: DaysOfWeek, from: CivilDate) -> CivilDate {
        for offset in 0..<7 {
            let day = from.adding(days: offset)
            if days.contains(day.weekday.rawValue + 1) { return day }
        }
        return from  // unreachable: DaysOfWeek is never empty
    }

    /// The routine a stored object holds, or why it is not one (a phone turned it into something
    /// a routine cannot say: monthly, every other week, ending, all-day, a day or longer).
    /// `id` becomes the routine's id; floating times are read in `defaultZone`.
    public static func read(_ calendar: Component, id: String, defaultZone: String) -> Result<Fields, NotARoutine> {
        guard let master = calendar.master("VEVENT"),
              let event = try? Event(component: master)
        else { return .failure(NotARoutine(reason: "it holds no readable event")) }
        return read(event: event, id: id, defaultZone: defaultZone)
    }

    static func read(event: Event, id: String, defaultZone: String) -> Result<Fields, NotARoutine> {
        func refuse(_ reason: String) -> Result<Fields, NotARoutine> { .failure(NotARoutine(reason: reason)) }
        let zone: String
        switch event.start {
        case .date: return refuse("it is an all-day event")
        case .dateTime(_, .utc): zone = "UTC"
        case .dateTime(_, .floating): zone = defaultZone
        case .dateTime(_, .zone(let tzid)): zone = TimeZoneResolver.ianaIdentifier(for: tzid) ?? tzid
        }
        guard let rules = ZoneRules(ianaIdentifier: zone) else { return refuse("its time zone '\(zone)' is unknown") }
        let start = event.start.local
        let length: Int64
        switch event.end {
        case .end(let end)?:
            guard !end.isDate else { return refuse("its end is a date, not a time") }
            length = end.utcSeconds(floating: rules) - event.start.utcSeconds(floating: rules)
        case .duration(let duration)?:
            length = duration.totalSeconds
        case nil:
            return refuse("it has no end")
        }
        guard length > 0 else { return refuse("it ends when it starts") }
        guard length < 86_400 else { return refuse("it lasts a day or longer") }
        guard event.recurrenceRules.count == 1, let rule = event.recurrenceRules.first, event.recurrenceDates.isEmpty else {
            return refuse("it does not repeat by one weekly rule")
        }
        guard rule.frequency == .weekly || rule.frequency == .daily else { return refuse("it repeats \(rule.frequency.code.lowercased()), not daily or weekly") }
        guard rule.interval == 1 else { return refuse("it repeats every \(rule.interval) \(rule.frequency == .daily ? "days" : "weeks")") }
        guard rule.count == nil, rule.until == nil else { return refuse("its series ends") }
        guard rule.bySecond.isEmpty, rule.byMinute.isEmpty, rule.byHour.isEmpty, rule.byMonthDay.isEmpty, rule.byYearDay.isEmpty,
              rule.byWeekNo.isEmpty, rule.byMonth.isEmpty, rule.bySetPos.isEmpty, rule.byDay.allSatisfy({ $0.ordinal == nil })
        else { return refuse("its rule picks days other than by weekday") }
        let numbers: [Int]
        if !rule.byDay.isEmpty {
            numbers = rule.byDay.map { $0.weekday.rawValue + 1 }
        } else if rule.frequency == .daily {
            numbers = Array(1...7)
        } else {
            numbers = [start.date.weekday.rawValue + 1]
        }
        // The end as the clock shows it: the start's reading plus the length, on a plain clock.
        let endMinutes = (start.hour * 60 + start.minute + Int(length / 60)) % 1440
        var reminder: Int?
        if case .relative(let duration, false)? = event.alarms.first?.trigger, duration.totalSeconds <= 0 {
            reminder = Int(-duration.totalSeconds / 60)
        }
        let kind = event.source.first(kindProperty).flatMap { RoutineKind(rawValue: $0.value.lowercased()) } ?? .routine
        do {
            let routine = try Routine(
                id: id, name: (event.title ?? "").isEmpty ? "Routine" : event.title ?? "Routine",
                start: TimeOfDay(hour: start.hour, minute: start.minute, field: "start"),
                end: TimeOfDay(hour: endMinutes / 60, minute: endMinutes % 60, field: "end"), days: numbers, reminderMinutes: reminder)
            return .success(Fields(routine: routine, kind: kind, timeZone: zone))
        } catch {
            return refuse(error.description)
        }
    }
}

/// Why a stored event in the Routine calendar cannot be shown as a routine.
public struct NotARoutine: Error, Sendable, Hashable, CustomStringConvertible {
    public let reason: String
    public var description: String { reason }
}
