import Foundation
import ICalendar

/// An event as the web app and other JSON clients describe it. It becomes an iCalendar object
/// through ICalendar's `Event` model, so it is stored and synced exactly like one a CalDAV
/// client wrote; editing an existing object keeps every property the draft does not mention.
public struct EventDraft: Sendable, Codable, Equatable {
    public var title: String
    /// `2026-11-23T13:00` (wall time in `timeZone`), an instant with `Z` or an offset, or a date
    /// (`2026-11-23`) for all-day events.
    public var start: String
    /// Same forms as `start`; defaults to one hour later, or the next day for all-day events.
    public var end: String?
    public var allDay: Bool?
    /// IANA zone of wall times; defaults to the account's.
    public var timeZone: String?
    public var location: String?
    public var description: String?
    /// An RFC 5545 RRULE value, e.g. `FREQ=WEEKLY;BYDAY=MO`.
    public var rrule: String?
    public var alarmMinutesBefore: Int?
    /// False makes the event transparent (it does not block time).
    public var busy: Bool?
    /// `confirmed`, `tentative` or `cancelled`.
    public var status: String?
    /// The event's own colour (RFC 7986 `COLOR`), a CSS3 colour name such as `turquoise`.
    public var color: String?
    /// Its categories (`CATEGORIES`), e.g. `["Family", "Sport"]`.
    public var categories: [String]?
    /// The people invited (`ATTENDEE`): giving them makes the event a meeting the server sends
    /// invitations for; an empty list takes everyone off (they are told it is cancelled); left
    /// out, an edit keeps them as they are. Read back, each has their answer.
    public var attendees: [EventAttendee]?
    /// Who invites (`ORGANIZER`), when the event is a meeting. Read only: it is the calendar's owner.
    public var organizer: EventAttendee?

    public init(
        title: String, start: String, end: String? = nil, allDay: Bool? = nil, timeZone: String? = nil, location: String? = nil,
        description: String? = nil, rrule: String? = nil, alarmMinutesBefore: Int? = nil, busy: Bool? = nil, status: String? = nil,
        color: String? = nil, categories: [String]? = nil, attendees: [EventAttendee]? = nil, organizer: EventAttendee? = nil
    ) {
        self.title = title
        self.start = start
        self.end = end
        self.allDay = allDay
        self.timeZone = timeZone
        self.location = location
        self.description = description
        self.rrule = rrule
        self.alarmMinutesBefore = alarmMinutesBefore
        self.busy = busy
        self.status = status
        self.color = color
        self.categories = categories
        self.attendees = attendees
        self.organizer = organizer
    }

    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case title, start(String), end(String), endBeforeStart, timeZone(String), rrule(String), alarm, status(String), text(String)
        case color(String), categories
        case attendee(index: Int, value: String), attendeeName(index: Int), tooManyAttendees(limit: Int), noOrganizer

        public var description: String {
            switch self {
            case .title: "'title' must be 1 to 500 characters without control characters"
            case .start(let value): "'start' must be a date (2026-11-23), a wall time (2026-11-23T13:00) or an instant (2026-11-23T10:00:00Z), not '\(value)'"
            case .end(let value): "'end' must be in the same form as 'start', not '\(value)'"
            case .endBeforeStart: "'end' must not be before 'start' (equal makes a deadline; an all-day event ends a day or more later)"
            case .timeZone(let zone): "'timeZone' must be an IANA time zone such as Asia/Riyadh, not '\(zone)'"
            case .rrule(let reason): "'rrule' is not a valid recurrence rule: \(reason)"
            case .alarm: "'alarmMinutesBefore' must be between 0 and 40320 (four weeks)"
            case .status(let value): "'status' must be confirmed, tentative or cancelled, not '\(value)'"
            case .text(let field): "'\(field)' must be at most 10000 characters"
            case .color(let value): "'color' must be a CSS3 colour name such as turquoise or tomato (RFC 7986), not '\(value)'"
            case .categories: ItemCategories.rule
            case .attendee(let index, let value): "'attendees[\(index)].email' must be an email address such as sara@example.com, not '\(value)'"
            case .attendeeName(let index): "'attendees[\(index)].name' must be at most 200 characters without control characters"
            case .tooManyAttendees(let limit): "'attendees' may name at most \(limit) people"
            case .noOrganizer: "a meeting needs its organizer: invite people from one of your own calendars"
            }
        }
    }

    /// The iCalendar object for this draft: a new one with `uid`, or `existing` edited.
    /// `organizer` is who invites when the draft names attendees of a new meeting (the calendar's owner).
    public func icalendar(uid: String, existing: Component? = nil, defaultTimeZone: String, now: Date, organizer: EventAttendee? = nil)
        throws(Problem) -> String {
        let vevent = try component(uid: uid, base: existing?.master("VEVENT"), defaultTimeZone: defaultTimeZone, now: now, organizer: organizer)
        var calendar = existing ?? Component(name: "VCALENDAR", properties: [
            Property(name: "VERSION", value: "2.0"), Property(name: "PRODID", value: "-//Jadwal//Web//EN"),
        ])
        // The master is replaced in place; overrides of other instances stay as they were.
        calendar.components.removeAll { $0.name == "VEVENT" && $0.isMaster }
        calendar.components.append(vevent)
        Self.defineZone(of: vevent, in: &calendar)
        return calendar.serialized
    }

    /// Adds the VTIMEZONE for the zone of `vevent`'s start when the calendar does not define it yet.
    static func defineZone(of vevent: Component, in calendar: inout Component) {
        guard let start = try? vevent.first("DTSTART")?.dateValue(), let zone = start.tzid,
              !calendar.components.contains(where: { $0.name == "VTIMEZONE" && $0.first("TZID")?.value == zone }),
              let vtimezone = VTimeZoneWriter.component(forIANAIdentifier: zone, fromYear: max(1970, start.local.date.year - 1))
        else { return }
        calendar.components.insert(vtimezone, at: 0)
    }

    /// The VEVENT this draft describes: a new one with `uid`, or `base` (a stored master or
    /// override) with the draft's fields written over it.
    func component(uid: String, base existingEvent: Component?, defaultTimeZone: String, now: Date, organizer: EventAttendee? = nil)
        throws(Problem) -> Component {
        let trimmedTitle = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmedTitle.isEmpty, trimmedTitle.count <= 500, !trimmedTitle.containsControlCharacters else { throw .title }
        for (field, value) in [("location", location), ("description", description)] where (value?.count ?? 0) > 10_000 {
            throw .text(field)
        }
        // An edit without a zone keeps the event's own.
        let zone = timeZone ?? existingEvent?.first("DTSTART")?.parameter("TZID").flatMap { IANATimeZone.isKnown($0) ? $0 : nil } ?? defaultTimeZone
        guard IANATimeZone.isKnown(zone), let zoneRules = ZoneRules(ianaIdentifier: zone) else { throw .timeZone(zone) }
        let isAllDay = allDay ?? (start.count == 10)
        guard let startValue = Self.value(start, allDay: isAllDay, zone: zone) else { throw .start(start) }
        let endValue: DateOrDateTime
        if let end {
            guard let parsed = Self.value(end, allDay: isAllDay, zone: zone) else { throw .end(end) }
            endValue = parsed
        } else if case .date(let day) = startValue {
            endValue = .date(CivilDate(daysSinceEpoch: day.daysSinceEpoch + 1))
        } else {
            endValue = Self.shifted(startValue, by: 3600)
        }
        // An end equal to a timed start is a deadline: a moment, not a span (RFC 5545 §3.6.1).
        let (endSeconds, startSeconds) = (endValue.utcSeconds(floating: zoneRules), startValue.utcSeconds(floating: zoneRules))
        guard endSeconds > startSeconds || (endSeconds == startSeconds && !isAllDay) else { throw .endBeforeStart }

        var recurrence: [RecurrenceRule] = []
        if let rrule, !rrule.isEmpty {
            do {
                recurrence = [try RecurrenceRule.parse(rrule)]
            } catch {
                throw .rrule("\(error)")
            }
        }
        if let alarmMinutesBefore, !(0...40_320).contains(alarmMinutesBefore) { throw .alarm }
        var parsedStatus: Event.Status?
        if let status {
            guard let value = Event.Status(rawValue: status.uppercased()) else { throw .status(status) }
            parsedStatus = value
        }

        var colorName: String?
        if let color, !color.trimmingCharacters(in: .whitespaces).isEmpty {
            guard let name = EventColor.canonical(color) else { throw .color(color) }
            colorName = name
        }
        guard let labels = ItemCategories.checked(categories ?? []) else { throw .categories }

        var event: Event
        if let existingEvent, let parsed = try? Event(component: existingEvent) {
            event = parsed
            event.start = startValue
            event.end = .end(endValue)
            event.sequence += 1
        } else {
            event = Event(uid: uid, title: trimmedTitle, start: startValue, end: .end(endValue))
        }
        event.title = trimmedTitle
        event.location = location
        event.description = description
        event.recurrenceRules = recurrence
        event.status = parsedStatus
        event.transparency = busy == false ? .transparent : (busy == true ? .opaque : event.transparency)
        if let alarmMinutesBefore {
            event.alarms = [Event.Alarm(trigger: .relative(Duration(negative: alarmMinutesBefore > 0, minutes: alarmMinutesBefore), relatedToEnd: false), description: trimmedTitle)]
        } else if existingEvent == nil {
            event.alarms = []
        }
        var vevent = event.component
        vevent.set("COLOR", colorName.map { Property(name: "COLOR", value: $0) })
        ItemCategories.set(labels, on: &vevent)
        let stamp = UTCStamp.format(now)
        vevent.set("DTSTAMP", Property(name: "DTSTAMP", value: stamp))
        vevent.set("LAST-MODIFIED", Property(name: "LAST-MODIFIED", value: stamp))
        if vevent.first("CREATED") == nil { vevent.set("CREATED", Property(name: "CREATED", value: stamp)) }
        if let attendees { try Self.invite(attendees, organizer: organizer, into: &vevent) }
        return vevent
    }

    /// The most people one meeting invites (the server delivers to each in the write).
    public static let maxAttendees = 100

    /// Writes the invited people into a VEVENT: those already invited keep their answer, new
    /// ones are asked (PARTSTAT=NEEDS-ACTION, RSVP); the ORGANIZER is set for a new meeting. No
    /// one left makes it a plain event again.
    static func invite(_ attendees: [EventAttendee], organizer: EventAttendee?, into vevent: inout Component) throws(Problem) {
        var checked: [(address: String, name: String?)] = []
        for (index, attendee) in attendees.enumerated() {
            let text = attendee.email.trimmingCharacters(in: .whitespaces)
            let bare = text.lowercased().hasPrefix("mailto:") ? String(text.dropFirst(7)) : text
            guard let email = try? EmailAddress(bare) else { throw .attendee(index: index, value: attendee.email) }
            let name = attendee.name?.trimmingCharacters(in: .whitespacesAndNewlines)
            if let name, name.count > 200 || name.containsControlCharacters { throw .attendeeName(index: index) }
            let address = "mailto:" + email.value
            guard !checked.contains(where: { $0.address == address }) else { continue }
            checked.append((address, name.flatMap { $0.isEmpty ? nil : $0 }))
        }
        guard checked.count <= maxAttendees else { throw .tooManyAttendees(limit: maxAttendees) }
        guard !checked.isEmpty else {
            vevent.remove("ATTENDEE")
            vevent.remove("ORGANIZER")
            return
        }
        var organizerAddress = vevent.first("ORGANIZER").map { $0.value.lowercased() }
        if organizerAddress == nil {
            guard let organizer, let email = try? EmailAddress(organizer.email) else { throw .noOrganizer }
            var property = Property(name: "ORGANIZER", value: "mailto:" + email.value)
            if let name = organizer.name, !name.isEmpty { property.setParameter("CN", name) }
            vevent.set("ORGANIZER", property)
            organizerAddress = property.value
        }
        let existing = vevent.all("ATTENDEE")
        // The organizer's own line (Apple's clients write one) stays; it is not an invitation.
        var lines = existing.filter { $0.value.lowercased() == organizerAddress }
        for (address, name) in checked where address != organizerAddress {
            if var kept = existing.first(where: { $0.value.lowercased() == address }) {
                if let name { kept.setParameter("CN", name) }
                lines.append(kept)
            } else {
                var line = Property(name: "ATTENDEE", value: address)
                if let name { line.setParameter("CN", name) }
                line.setParameter("CUTYPE", "INDIVIDUAL")
                line.setParameter("ROLE", "REQ-PARTICIPANT")
                line.setParameter("PARTSTAT", "NEEDS-ACTION")
                line.setParameter("RSVP", "TRUE")
                lines.append(line)
            }
        }
        if existing.isEmpty {
            vevent.properties += lines
        } else {
            vevent.setAll("ATTENDEE", lines)
        }
    }


    /// Reads one of the accepted forms.
    static func value(_ text: String, allDay: Bool, zone: String) -> DateOrDateTime? {
        let digits = text.filter { $0 != "-" && $0 != ":" }
        if allDay {
            guard text.count == 10, let value = try? DateOrDateTime.parse(digits, valueType: "DATE"), value.isDate else { return nil }
            return value
        }
        if text.hasSuffix("Z") || text.dropFirst(19).contains("+") || text.dropFirst(19).contains("-") {
            let formatter = ISO8601DateFormatter()
            guard let instant = formatter.date(from: text) else { return nil }
            return .dateTime(LocalDateTime(secondsSinceEpoch: Int64(instant.timeIntervalSince1970.rounded(.down))), .utc)
        }
        // Wall time: seconds are optional.
        let local = digits.count == 13 ? digits + "00" : digits
        guard local.count == 15, let value = try? DateOrDateTime.parse(local, tzid: zone), !value.isDate else { return nil }
        return value
    }

    static func shifted(_ value: DateOrDateTime, by seconds: Int64) -> DateOrDateTime {
        guard case .dateTime(let local, let reference) = value else { return value }
        return .dateTime(local.adding(seconds: seconds), reference)
    }

}

/// iCalendar UTC DATE-TIME text (`20261121T090000Z`), written by the iCalendar engine.
enum UTCStamp {
    static func format(_ date: Date) -> String {
        DateOrDateTime.dateTime(LocalDateTime(secondsSinceEpoch: Int64(date.timeIntervalSince1970.rounded(.down))), .utc).icalValue
    }
}

extension EventDraft {
    /// The draft that describes a stored event's master component, for showing and editing.
    public init?(event component: Component) {
        guard let event = try? Event(component: component) else { return nil }
        func text(_ value: DateOrDateTime) -> String {
            let l = value.local
            func pad(_ v: Int, _ w: Int = 2) -> String { String(repeating: "0", count: max(0, w - String(v).count)) + String(v) }
            let day = "\(pad(l.date.year, 4))-\(pad(l.date.month))-\(pad(l.date.day))"
            if value.isDate { return day }
            let wall = "\(day)T\(pad(l.hour)):\(pad(l.minute)):\(pad(l.second))"
            return value.reference == .utc ? wall + "Z" : wall
        }
        var endText: String?
        switch event.end {
        case .end(let end)?: endText = text(end)
        case .duration(let duration)?:
            endText = event.isAllDay
                ? text(.date(CivilDate(daysSinceEpoch: event.start.local.date.daysSinceEpoch + duration.nominalDays)))
                : text(Self.shifted(event.start, by: duration.totalSeconds))
        case nil: endText = nil
        }
        var alarm: Int?
        if case .relative(let duration, false)? = event.alarms.first?.trigger { alarm = Int(-duration.totalSeconds / 60) }
        let organizer = component.first("ORGANIZER").map(EventAttendee.init(property:))
        let attendees = component.all("ATTENDEE").map(EventAttendee.init(property:)).filter { $0.email != organizer?.email }
        self.init(
            title: event.title ?? "", start: text(event.start), end: endText, allDay: event.isAllDay, timeZone: event.start.tzid,
            location: event.location, description: event.description, rrule: event.recurrenceRules.first?.icalValue,
            alarmMinutesBefore: alarm, busy: event.transparency != .transparent, status: event.status?.rawValue.lowercased(),
            color: EventColor.of(component), categories: Optional(ItemCategories.of(component)).flatMap { $0.isEmpty ? nil : $0 },
            attendees: attendees.isEmpty ? nil : attendees, organizer: organizer)
    }
}

/// A person of a meeting (ATTENDEE or ORGANIZER) as JSON clients see and send them.
public struct EventAttendee: Sendable, Codable, Equatable {
    /// Their email address (a `mailto:` address without the scheme; another URI as written).
    public var email: String
    public var name: String?
    /// Read only: their answer, `needs-action`, `accepted`, `tentative`, `declined` or `delegated`.
    public var partstat: String?
    /// Read only: what became of the last message to them (SCHEDULE-STATUS, RFC 6638 §3.2.9).
    public var scheduleStatus: String?

    public init(email: String, name: String? = nil, partstat: String? = nil, scheduleStatus: String? = nil) {
        self.email = email
        self.name = name
        self.partstat = partstat
        self.scheduleStatus = scheduleStatus
    }

    init(property: Property) {
        let value = property.value
        email = value.lowercased().hasPrefix("mailto:") ? String(value.dropFirst(7)).lowercased() : value
        name = property.parameter("CN")
        partstat = property.name == "ATTENDEE" ? ParticipationStatus(parameter: property.parameter("PARTSTAT")).rawValue.lowercased() : nil
        scheduleStatus = property.parameter("SCHEDULE-STATUS")
    }
}

