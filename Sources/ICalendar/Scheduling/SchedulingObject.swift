import Foundation

/// A calendar user address (RFC 6638 §2.4.1): a URI such as `mailto:amal@example.com` or a
/// principal URL, in the form Jadwal compares. Email addresses are matched without regard to
/// case, as accounts store them in lower case; an absolute principal URL is matched by its path
/// (the host a client saw may be a proxy's), with or without the trailing slash.
public struct CalendarUserAddress: Sendable, Hashable, CustomStringConvertible {
    /// The comparable form: `mailto:` + the lower-cased address, or a URL path without its
    /// trailing slash, or the URI as written.
    public let key: String

    public init(_ uri: String) {
        let trimmed = uri.trimmingCharacters(in: .whitespaces)
        if trimmed.lowercased().hasPrefix("mailto:") {
            key = "mailto:" + trimmed.dropFirst("mailto:".count).lowercased()
            return
        }
        var path = trimmed
        if let components = URLComponents(string: trimmed), let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            path = components.percentEncodedPath
        }
        if path.hasPrefix("/") {
            while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
            key = path.lowercased()
        } else {
            key = trimmed
        }
    }

    /// The email address of a `mailto:` address, lower-cased; nil for other URIs.
    public var email: String? {
        key.hasPrefix("mailto:") ? String(key.dropFirst("mailto:".count)) : nil
    }

    public var description: String { key }
}

/// Which side of a meeting the calendar owner is on (RFC 6638 §3.1).
public enum SchedulingRole: Sendable, Hashable {
    /// ORGANIZER is one of the owner's addresses in every component.
    case organizer
    /// One ORGANIZER that is not the owner, and the owner among the ATTENDEEs.
    case attendee
}

/// Scheduling object resources (RFC 6638 §3.1) and the data their Schedule-Tag is computed from
/// (§3.2.10).
public enum SchedulingObject {
    /// The components a scheduling message can carry; VTIMEZONE and others are not part of one.
    static let schedulableComponents: Set<String> = ["VEVENT", "VTODO", "VJOURNAL"]

    /// The owner's role in a stored calendar object, or nil when it is not a scheduling object
    /// resource (no ORGANIZER, ORGANIZERs that differ, or an owner who is neither side).
    public static func role(of calendar: Component, ownerAddresses: Set<CalendarUserAddress>) -> SchedulingRole? {
        let items = calendar.components.filter { schedulableComponents.contains($0.name) }
        guard !items.isEmpty else { return nil }
        var organizers: [CalendarUserAddress] = []
        for item in items {
            guard let organizer = item.first("ORGANIZER") else { return nil }
            organizers.append(CalendarUserAddress(organizer.value))
        }
        if organizers.allSatisfy({ ownerAddresses.contains($0) }) { return .organizer }
        guard let first = organizers.first, organizers.allSatisfy({ $0 == first }), !ownerAddresses.contains(first) else { return nil }
        let attends = items.contains { item in item.all("ATTENDEE").contains { ownerAddresses.contains(CalendarUserAddress($0.value)) } }
        return attends ? .attendee : nil
    }

    /// Whether iCalendar text may hold an ORGANIZER at all: a byte scan, ASCII case folded as
    /// property names are (RFC 5545 §2), so that the objects most calendars hold, without one,
    /// are never parsed just to learn they have no Schedule-Tag. False positives (the word in a
    /// DESCRIPTION) only cost the parse.
    public static func mayBeScheduling(_ text: String) -> Bool {
        let needle = Array("ORGANIZER".utf8)
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count >= needle.count else { return false }
            var index = 0
            let last = bytes.count - needle.count
            while index <= last {
                var matched = 0
                // `& 0xDF` folds ASCII lower case onto upper case; the needle has letters only.
                while matched < needle.count && bytes[index + matched] & 0xDF == needle[matched] { matched += 1 }
                if matched == needle.count { return true }
                index += 1
            }
            return false
        }
    }

    /// Properties every client rewrites on every save, whatever changed: they say when, not what.
    static let bookkeepingProperties: Set<String> = ["DTSTAMP", "LAST-MODIFIED", "CREATED"]
    /// Data each calendar user keeps for themselves (RFC 6638 §3.2.2: an Attendee may change
    /// their own participation, alarms and transparency without it being a scheduling change).
    static let personalProperties: Set<String> = ["TRANSP"]
    static let personalComponents: Set<String> = ["VALARM"]
    /// ATTENDEE/ORGANIZER parameters that record replies and delivery, not the meeting itself
    /// (RFC 6638 §3.2.10 keeps the tag when only these change; §7.3 SCHEDULE-STATUS).
    static let statusParameters: Set<String> = ["PARTSTAT", "RSVP", "SCHEDULE-STATUS", "SCHEDULE-FORCE-SEND"]

    /// The "consequential" content of a scheduling object resource (RFC 6638 §3.2.10), as text:
    /// its VEVENT/VTODO/VJOURNAL components without bookkeeping properties, per-user data,
    /// participation status and vendor (`X-`) properties and parameters, with properties,
    /// parameters and components in a canonical order so that a client re-serialising the same
    /// meeting (other folding, other order) yields the same text. Two versions with the same
    /// signature differ only in ways the tag must not follow; the server hashes it into the tag.
    ///
    /// An attendee's copy leaves out SEQUENCE too: it is the organizer's to count, and a client
    /// that bumps it on every save of an answer (python caldav does) has not changed the meeting.
    public static func signature(of calendar: Component, role: SchedulingRole = .organizer) -> String {
        calendar.components
            .filter { schedulableComponents.contains($0.name) }
            .map { canonicalText($0, role: role) }
            .sorted()
            .joined()
    }

    private static func canonicalText(_ component: Component, role: SchedulingRole) -> String {
        var lines: [String] = []
        for property in component.properties {
            let name = property.name
            if bookkeepingProperties.contains(name) || personalProperties.contains(name) || name.hasPrefix("X-") { continue }
            if role == .attendee, name == "SEQUENCE" { continue }
            var parameters = property.parameters.filter { !$0.name.hasPrefix("X-") }
            if name == "ATTENDEE" || name == "ORGANIZER" { parameters.removeAll { statusParameters.contains($0.name) } }
            let canonical = Property(
                name: name, parameters: parameters.sorted { $0.name < $1.name }.map { Parameter(name: $0.name, values: $0.values) },
                value: property.value)
            var bytes: [UInt8] = []
            ICalendarSerializer().write(canonical, into: &bytes)
            lines.append(String(decoding: bytes, as: UTF8.self))
        }
        let children = component.components
            .filter { !personalComponents.contains($0.name) && !$0.name.hasPrefix("X-") }
            .map { canonicalText($0, role: role) }
            .sorted()
        return "BEGIN:\(component.name)\r\n" + lines.sorted().joined() + children.joined() + "END:\(component.name)\r\n"
    }
}
