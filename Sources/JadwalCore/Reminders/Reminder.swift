import Foundation

/// What a VALARM asks for (RFC 5545 §3.8.6.1). `ACTION:NONE` (RFC 9074) and actions Jadwal does
/// not know never become a reminder.
public enum ReminderAction: String, Sendable, Hashable, Codable {
    case display = "DISPLAY"
    case audio = "AUDIO"
    /// The VALARM's own ATTENDEEs are not exposed: calendar data from anyone (an invitation, a
    /// subscription) must not choose where Jadwal sends mail; the person is told instead.
    case email = "EMAIL"
}

/// One firing of one alarm of one instance of an event or to-do.
public struct Reminder: Sendable, Hashable {
    public var uid: String
    /// The instance, as the expander names it (`OccurrenceTime.iso8601`: `2026-03-29T07:00:00Z`,
    /// or `2026-03-29` for an all-day series); nil for a single event or an absolute trigger of
    /// the series itself.
    public var recurrenceID: String?
    /// The VALARM's UID (RFC 9074), else its X-WR-ALARMUID, else `#` and its position among the
    /// component's VALARMs.
    public var alarmKey: String
    /// Position of the VALARM among its component's VALARMs.
    public var alarmIndex: Int
    public var fireAt: Date
    /// 0 for the trigger itself, 1… for the REPEAT firings after it.
    public var repetition: Int
    /// When the instance starts (DTSTART, or DUE for a to-do without one; midnight in the given
    /// zone for a DATE). Nil only for a to-do with neither, which only an absolute trigger fires.
    public var instanceStart: Date?
    /// DTEND, DTSTART+DURATION or DUE; nil for a to-do without DUE or DURATION.
    public var instanceEnd: Date?
    public var isAllDay: Bool
    public var title: String?
    public var location: String?
    public var action: ReminderAction
    /// The VALARM's DESCRIPTION (what a DISPLAY alarm shows, the body of an EMAIL one).
    public var description: String?
    public var isTodo: Bool

    public init(
        uid: String, recurrenceID: String?, alarmKey: String, alarmIndex: Int, fireAt: Date, repetition: Int, instanceStart: Date?,
        instanceEnd: Date?, isAllDay: Bool, title: String?, location: String?, action: ReminderAction, description: String?, isTodo: Bool
    ) {
        self.uid = uid
        self.recurrenceID = recurrenceID
        self.alarmKey = alarmKey
        self.alarmIndex = alarmIndex
        self.fireAt = fireAt
        self.repetition = repetition
        self.instanceStart = instanceStart
        self.instanceEnd = instanceEnd
        self.isAllDay = isAllDay
        self.title = title
        self.location = location
        self.action = action
        self.description = description
        self.isTodo = isTodo
    }

    /// `uid|instance|alarm|repetition`, with `%` and `|` inside the parts percent-escaped so two
    /// different firings never share a key. The same firing keeps its key when the object is
    /// edited (a moved event, a retitled one): whoever delivers it decides whether a changed
    /// `fireAt` makes it a new delivery.
    public var key: String {
        Self.escape(uid) + "|" + Self.escape(recurrenceID ?? "") + "|" + Self.escape(alarmKey) + "|" + String(repetition)
    }

    static func escape(_ part: String) -> String {
        guard part.utf8.contains(where: { $0 == UInt8(ascii: "|") || $0 == UInt8(ascii: "%") }) else { return part }
        return part.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "|", with: "%7C")
    }
}

/// An alarm (or a whole component) that can never fire, and why: bad data is skipped, not trapped on.
public struct SkippedAlarm: Sendable, Hashable, CustomStringConvertible {
    public var uid: String
    /// The override it belongs to (the expander's form), nil for the series or a single event.
    public var recurrenceID: String?
    /// Nil when the whole component was skipped (it could not be expanded, it has no UID).
    public var alarmKey: String?
    public var reason: String

    public init(uid: String, recurrenceID: String?, alarmKey: String?, reason: String) {
        self.uid = uid
        self.recurrenceID = recurrenceID
        self.alarmKey = alarmKey
        self.reason = reason
    }

    public var description: String {
        "\(uid)\(recurrenceID.map { " @ \($0)" } ?? "")\(alarmKey.map { " alarm \($0)" } ?? ""): \(reason)"
    }
}

/// The firings in a window, in order of `fireAt` (then `key`).
public struct ReminderWindow: Sendable {
    public var reminders: [Reminder]
    /// True when the limit, or the cap on expanded instances, cut the list short: ask again from
    /// the last `fireAt` returned (its firings come again; their keys tell them apart).
    public var truncated: Bool
    public var skipped: [SkippedAlarm]

    public init(reminders: [Reminder] = [], truncated: Bool = false, skipped: [SkippedAlarm] = []) {
        self.reminders = reminders
        self.truncated = truncated
        self.skipped = skipped
    }
}
