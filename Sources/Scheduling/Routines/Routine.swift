import Foundation

/// A daily routine: sleep, meals, exercise, a night prayer. The same hours on chosen days of the
/// week, busy time like any event, stored by JadwalCore as one recurring VEVENT (see
/// ``recurrence``), so that editing the routine edits the series.
public struct Routine: Sendable, Hashable {
    /// The caller's id for the routine (its event's UID), used as the busy blocks' reference.
    public let id: String
    public let name: String
    /// Start, end (before start: ends the next day) and days; see ``WeeklyHours`` for how
    /// daylight-saving days are handled.
    public let hours: WeeklyHours
    /// Minutes before the start to remind; nil for no reminder.
    public let reminderMinutes: Int?

    /// Throws, naming the field: ``SchedulingError/emptyName(field:)`` for a blank name,
    /// ``SchedulingError/reminderOutOfRange(_:)`` for reminders below 0 or beyond a week.
    public init(id: String, name: String, hours: WeeklyHours, reminderMinutes: Int? = nil) throws(SchedulingError) {
        guard !name.allSatisfy(\.isWhitespace) else { throw .emptyName(field: "name") }
        if let reminderMinutes, !(0...SchedulingError.maximumReminderMinutes).contains(reminderMinutes) {
            throw .reminderOutOfRange(reminderMinutes)
        }
        self.id = id
        self.name = name
        self.hours = hours
        self.reminderMinutes = reminderMinutes
    }

    /// The same, from the fields an API receives: also throws for `end == start`
    /// (``SchedulingError/endEqualsStart(_:)``), days outside 1…7
    /// (``SchedulingError/dayOutOfRange(_:)``) and no days (``SchedulingError/noDays``).
    public init(id: String, name: String, start: TimeOfDay, end: TimeOfDay, days: [Int], reminderMinutes: Int? = nil) throws(SchedulingError) {
        try self.init(id: id, name: name, hours: WeeklyHours(start: start, end: end, days: DaysOfWeek(days)), reminderMinutes: reminderMinutes)
    }

    public var start: TimeOfDay { hours.start }
    public var end: TimeOfDay { hours.end }
    public var days: DaysOfWeek { hours.days }

    /// The routine's blocks that overlap `window`, in `timeZone`, in time order.
    public func occurrences(in window: TimeRange, timeZone: TimeZone) -> [BusyBlock] {
        hours.occurrences(in: window, timeZone: timeZone).map { BusyBlock($0, .routine(id: id, name: name)) }
    }

    /// The recurrence of the routine's VEVENT.
    public var recurrence: RoutineRecurrence { RoutineRecurrence(days: days) }

    /// The VALARM `TRIGGER` value for the reminder (`-PT10M`, `PT0S` at the start), or nil.
    public var alarmTrigger: String? {
        reminderMinutes.map { $0 == 0 ? "PT0S" : "-PT\($0)M" }
    }
}

/// A routine's recurrence rule as plain values, for JadwalCore to write into the VEVENT.
///
/// Always `FREQ=WEEKLY` with every day listed, even for daily routines: one shape to write and to
/// read back when a phone edits the event. The days are those the routine starts on; the
/// VEVENT's DTSTART should be the first occurrence, with DTEND at the routine's end on the same
/// or next day (DTEND rather than DURATION: each occurrence's end is then a clock reading, as
/// ``WeeklyHours`` resolves it).
public struct RoutineRecurrence: Sendable, Hashable, CustomStringConvertible {
    public let days: DaysOfWeek

    public init(days: DaysOfWeek) { self.days = days }

    /// `WEEKLY`.
    public var frequency: String { "WEEKLY" }
    /// `["MO", "TU", …]`, Monday first (ISO 1 = Monday is `MO`, 7 = Sunday is `SU`).
    public var byDay: [String] { days.iCalendarCodes }
    /// The RRULE value: `FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR`.
    public var rule: String { "FREQ=\(frequency);BYDAY=\(byDay.joined(separator: ","))" }

    public var description: String { rule }
}
