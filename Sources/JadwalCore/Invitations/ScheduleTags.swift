import Foundation
import ICalendar

/// Schedule-Tags (RFC 6638 §3.2.10): a hash of what a scheduling object resource says about the
/// meeting (`SchedulingObject.signature`), so like the ETag it needs no storage and cannot go
/// stale, but unlike it stays the same across answers, SCHEDULE-STATUS and alarms.
public enum ScheduleTags {
    /// The tag of an object as the holder of `addresses` sees it; nil when it is not a
    /// scheduling object resource of theirs (no ORGANIZER, or a meeting they are not part of).
    public static func tag(of calendar: Component, addresses: Set<CalendarUserAddress>) -> String? {
        guard let role = SchedulingObject.role(of: calendar, ownerAddresses: addresses) else { return nil }
        return "\"" + SchedulingObject.signature(of: calendar, role: role).sha256Hex.prefix(32) + "\""
    }

    public static func tag(of object: CalendarObject, addresses: Set<CalendarUserAddress>) -> String? {
        guard SchedulingObject.mayBeScheduling(object.icalendar), let parsed = try? ICalendarParser().parseCalendar(object.icalendar) else { return nil }
        return tag(of: parsed, addresses: addresses)
    }
}

/// `If-Schedule-Tag-Match` (RFC 6638 §8.3) as a write's condition: the stored object must be a
/// scheduling object resource with this tag when the write happens. Unlike If-Match it holds
/// across the changes the server makes itself (answers written into an organizer's copy,
/// SCHEDULE-STATUS), so a client writing a meeting never loses to them.
public struct ScheduleTagCondition: Sendable, Hashable {
    public var tag: String
    /// The addresses of the one writing: the tag is theirs.
    public var addresses: Set<CalendarUserAddress>

    public init(tag: String, addresses: Set<CalendarUserAddress>) {
        self.tag = tag
        self.addresses = addresses
    }

    func holds(for object: CalendarObject?) -> Bool {
        guard let object else { return false }
        return ScheduleTags.tag(of: object, addresses: addresses) == tag
    }
}
