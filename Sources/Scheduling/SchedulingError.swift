import Foundation

/// Why a scheduling input is refused. Each message names the field it is about, so an API can
/// hand it to the person who typed the value.
public enum SchedulingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A time range whose end is not after its start.
    case emptyRange(start: Date, end: Date)
    /// A clock time that is not `HH:MM` with hours 0–23 and minutes 0–59.
    case invalidTimeOfDay(field: String, text: String)
    /// Weekly hours (a routine, sleep, working hours) that end when they start.
    case endEqualsStart(TimeOfDay)
    /// A day number outside 1 (Monday) … 7 (Sunday).
    case dayOutOfRange(Int)
    /// An iCalendar weekday code other than MO, TU, WE, TH, FR, SA, SU.
    case unknownDayCode(String)
    /// A name for days other than daily, weekdays, weekends.
    case unknownDayName(String)
    /// Weekly hours on no day at all.
    case noDays
    /// A name or title that is empty or only spaces.
    case emptyName(field: String)
    /// Reminder minutes below zero or beyond a week.
    case reminderOutOfRange(Int)
    /// A task estimate that is not a positive, finite duration.
    case invalidEstimate(taskID: String, seconds: TimeInterval)
    /// A task priority outside RFC 5545's 0 … 9.
    case invalidPriority(taskID: String, priority: Int)
    /// A search or planning setting out of its range.
    case invalidSetting(field: String, reason: String)

    /// The input field the error is about, as an API would name it.
    public var field: String {
        switch self {
        case .emptyRange: "end"
        case .invalidTimeOfDay(let field, _): field
        case .endEqualsStart: "end"
        case .dayOutOfRange, .unknownDayCode, .unknownDayName, .noDays: "days"
        case .emptyName(let field): field
        case .reminderOutOfRange: "reminderMinutes"
        case .invalidEstimate: "estimate"
        case .invalidPriority: "priority"
        case .invalidSetting(let field, _): field
        }
    }

    public var description: String {
        switch self {
        case .emptyRange(let start, let end):
            return "end: \(Self.stamp(end)) must be after start \(Self.stamp(start))"
        case .invalidTimeOfDay(let field, let text):
            return "\(field): \"\(text)\" is not a time of day (expected HH:MM, 00:00 … 23:59)"
        case .endEqualsStart(let time):
            return "end: must differ from start (both \(time)); hours that end when they start last no time"
        case .dayOutOfRange(let day):
            return "days: \(day) is not a day of the week (expected 1 = Monday … 7 = Sunday)"
        case .unknownDayCode(let code):
            return "days: \"\(code)\" is not an iCalendar weekday (expected MO, TU, WE, TH, FR, SA or SU)"
        case .unknownDayName(let name):
            return "days: \"\(name)\" is not daily, weekdays, weekends or a list of day numbers (1 = Monday … 7 = Sunday)"
        case .noDays:
            return "days: choose at least one day of the week"
        case .emptyName(let field):
            return "\(field): must not be empty"
        case .reminderOutOfRange(let minutes):
            return "reminderMinutes: \(minutes) is out of range (expected 0 … \(Self.maximumReminderMinutes), or none)"
        case .invalidEstimate(let id, let seconds):
            return "estimate: task \(id) needs a positive estimate of at least one minute (got \(seconds) s)"
        case .invalidPriority(let id, let priority):
            return "priority: task \(id) has priority \(priority) (expected 0 = undefined, 1 = highest … 9 = lowest)"
        case .invalidSetting(let field, let reason):
            return "\(field): \(reason)"
        }
    }

    /// A week: reminders further ahead than that are almost always a typo for hours or days.
    static let maximumReminderMinutes = 7 * 24 * 60

    static func stamp(_ date: Date) -> String {
        // Foundation traps when describing a NaN or infinite instant; say so instead.
        guard date.timeIntervalSince1970.isFinite, abs(date.timeIntervalSince1970) < 1e14 else { return "an invalid instant" }
        return date.formatted(.iso8601)
    }
}
