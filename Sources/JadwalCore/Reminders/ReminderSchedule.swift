import Foundation
import ICalendar

/// When the VALARMs of one calendar object fire (RFC 5545 §3.6.6, §3.8.6; RFC 9074).
///
/// - A relative trigger fires for every instance, from its start or (RELATED=END) its end: DTEND,
///   DTSTART+DURATION, or the one day a DATE event lasts. A to-do's start is DTSTART, else DUE;
///   its end is DUE or DTSTART+DURATION, and without either RELATED=END cannot fire.
/// - Weeks and days of an offset are nominal: they move the wall clock in the zone of the time
///   they start from, so `-P1D` before 09:00 fires at 09:00 the day before across a DST change;
///   hours, minutes and seconds are exact. A DATE is not an instant but a day on the person's
///   wall clock, so offsets from it are wall-clock time in `zone` throughout (`-PT15H` before an
///   all-day event is 09:00 the day before, whatever the night in between did).
/// - An absolute trigger fires once, for the component holding it: in the series, once for the
///   whole series (RFC 5545 §3.8.6.3 gives it one instant, not one per instance); in an override,
///   once for that instance.
/// - An override is a whole new description of its instance, VALARMs included (RFC 5545
///   §3.8.4.4): its alarms replace the series', and an override without any has none — what Apple
///   Calendar, Thunderbird and Google write, as they copy the alarms into every override.
/// - Nothing fires for cancelled instances or series, EXDATEs, to-dos that are completed or
///   cancelled, firings at or before the alarm's ACKNOWLEDGED, `ACTION:NONE` and location alarms.
public struct ReminderSchedule: Sendable {
    public let calendar: Component
    /// Where DATE values and floating times are placed in absolute time.
    public let zone: ZoneRules
    /// Cap on the instances expanded per call, across the object's series.
    public var maxInstances: Int

    public init(calendar: Component, zone: ZoneRules, maxInstances: Int = 100_000) {
        self.calendar = calendar
        self.zone = zone
        self.maxInstances = maxInstances
    }

    /// Every firing with `from <= fireAt < to`, sorted, at most `limit` of them. Instances outside
    /// the window count when one of their firings falls inside it (a reminder a day before an
    /// instance just past `to`, a repeat of one just before `from`).
    public func reminders(from: Date, to: Date, limit: Int = 1_000) -> ReminderWindow {
        // Most objects have no alarm at all: they cost one look at their components.
        guard from < to, limit > 0, calendar.components.contains(where: { $0.components.contains { $0.name == "VALARM" } }) else {
            return ReminderWindow()
        }
        // Firings are whole seconds: `fireAt >= from` is `fireAt >= ceil(from)`, likewise for `to`.
        let window = Window(start: Self.seconds(from), end: Self.seconds(to))
        let catalogue = AlarmCatalogue(calendar: calendar, resolver: TimeZoneResolver(calendar: calendar), zone: zone)
        var found: [Reminder] = []
        var truncated = false
        var skipped = catalogue.skipped

        for source in catalogue.sources.values where !source.absolute.isEmpty && !source.isInactive {
            found += absoluteFirings(of: source, catalogue: catalogue, in: window)
        }

        if catalogue.hasRelativeTriggers {
            // Widened so that an instance whose firing lands in the window is expanded even when
            // the instance lies outside it; two days more cover DST shifts of nominal days and an
            // all-day date placed at UTC midnight by the expander but at local midnight here.
            let slack: Int64 = 2 * 86_400
            let expander = CalendarExpander(
                calendar: calendar,
                options: ExpansionOptions(maxInstances: maxInstances, floatingZone: zone, componentNames: Self.componentNames))
            let result = expander.expand(from: window.start - catalogue.lag - slack, to: window.end + catalogue.lead + slack)
            truncated = result.truncated
            let uid = catalogue.sources.values.first?.uid ?? ""
            skipped += result.problems.map { SkippedAlarm(uid: uid, recurrenceID: nil, alarmKey: nil, reason: "cannot be expanded: \($0)") }
            for occurrence in result.occurrences {
                guard let source = catalogue.sources[AlarmCatalogue.key(of: occurrence.component, uid: occurrence.uid)],
                      !source.relative.isEmpty, !source.isInactive else { continue }
                found += relativeFirings(of: source, occurrence: occurrence, in: window)
            }
        }

        let keys = found.map(\.key)
        var order = found.indices.sorted { a, b in
            found[a].fireAt != found[b].fireAt ? found[a].fireAt < found[b].fireAt : keys[a] < keys[b]
        }
        if order.count > limit {
            order.removeLast(order.count - limit)
            truncated = true
        }
        skipped.sort { ($0.uid, $0.recurrenceID ?? "", $0.alarmKey ?? "") < ($1.uid, $1.recurrenceID ?? "", $1.alarmKey ?? "") }
        return ReminderWindow(reminders: order.map { found[$0] }, truncated: truncated, skipped: skipped)
    }

    static let componentNames: Set<String> = ["VEVENT", "VTODO"]

    /// `[start, end)` in whole seconds since 1970.
    struct Window {
        var start: Int64
        var end: Int64

        func contains(_ t: Int64) -> Bool { start <= t && t < end }
    }

    static func seconds(_ date: Date) -> Int64 {
        let value = date.timeIntervalSince1970.rounded(.up)
        // Converting NaN or an infinity to Int64 would trap; far-off dates are clamped to ±300,000
        // years, where the calendar arithmetic still has room.
        guard !value.isNaN else { return 0 }
        return Int64(max(min(value, 1e13), -1e13))
    }

    func date(_ time: OccurrenceTime) -> Date {
        switch time {
        case .instant(let t): Date(timeIntervalSince1970: TimeInterval(t))
        case .date(let d): Date(timeIntervalSince1970: TimeInterval(zone.utcSeconds(for: LocalDateTime(date: d))))
        }
    }

    /// `offset` after `instant`: nominal days on the wall clock of `zone`, then exact seconds.
    static func shift(_ instant: Int64, by offset: ReminderTrigger.Offset, in zone: ZoneRules) -> Int64 {
        guard offset.days != 0 else { return instant + offset.seconds }
        return zone.utcSeconds(for: zone.local(forUTC: instant).adding(seconds: Int64(offset.days) * 86_400)) + offset.seconds
    }

    /// The firings of one instance's relative triggers.
    func relativeFirings(of source: AlarmCatalogue.Source, occurrence: Occurrence, in window: Window) -> [Reminder] {
        var reminders: [Reminder] = []
        let recurrenceID = occurrence.recurrenceId?.iso8601
        for trigger in source.relative {
            guard case .relative(let offset, let relatedToEnd) = trigger.when else { continue }
            let anchor = relatedToEnd ? occurrence.end : occurrence.start
            let anchorZone = relatedToEnd ? source.endZone : source.startZone
            for repetition in 0...trigger.repeats {
                let fireAt: Int64
                switch anchor {
                case .date(let day):
                    // A day, not an instant: the whole offset is wall-clock time in `zone`.
                    let total = offset.approximateSeconds + trigger.interval.approximateSeconds * Int64(repetition)
                    fireAt = zone.utcSeconds(for: LocalDateTime(date: day).adding(seconds: total))
                case .instant(let t):
                    let first = Self.shift(t, by: offset, in: anchorZone)
                    fireAt = repetition == 0 ? first : Self.shift(first, by: trigger.interval.times(repetition), in: anchorZone)
                }
                if fireAt >= window.end { break }  // later repeats are later still
                guard window.contains(fireAt), trigger.acknowledged.map({ $0 < fireAt }) ?? true else { continue }
                reminders.append(Reminder(
                    uid: occurrence.uid, recurrenceID: recurrenceID, alarmKey: trigger.key, alarmIndex: trigger.index,
                    fireAt: Date(timeIntervalSince1970: TimeInterval(fireAt)), repetition: repetition, instanceStart: date(occurrence.start),
                    instanceEnd: source.hasEnd ? date(occurrence.end) : nil, isAllDay: occurrence.isAllDay, title: source.title,
                    location: source.location, action: trigger.action, description: trigger.description, isTodo: source.isTodo))
            }
        }
        return reminders
    }

    /// The firings of the absolute triggers of one component: once for it, not per instance.
    func absoluteFirings(of source: AlarmCatalogue.Source, catalogue: AlarmCatalogue, in window: Window) -> [Reminder] {
        if let recurrenceID = source.recurrenceID, catalogue.excluded[source.uid]?.contains(recurrenceID) == true { return [] }
        var reminders: [Reminder] = []
        for trigger in source.absolute {
            guard case .absolute(let first) = trigger.when else { continue }
            for repetition in 0...trigger.repeats {
                let fireAt = repetition == 0 ? first : Self.shift(first, by: trigger.interval.times(repetition), in: zone)
                if fireAt >= window.end { break }
                guard window.contains(fireAt), trigger.acknowledged.map({ $0 < fireAt }) ?? true else { continue }
                reminders.append(Reminder(
                    uid: source.uid, recurrenceID: source.recurrenceID, alarmKey: trigger.key, alarmIndex: trigger.index,
                    fireAt: Date(timeIntervalSince1970: TimeInterval(fireAt)), repetition: repetition,
                    instanceStart: source.start.map { Date(timeIntervalSince1970: TimeInterval($0)) },
                    instanceEnd: source.end.map { Date(timeIntervalSince1970: TimeInterval($0)) }, isAllDay: source.isAllDay,
                    title: source.title, location: source.location, action: trigger.action, description: trigger.description,
                    isTodo: source.isTodo))
            }
        }
        return reminders
    }
}
