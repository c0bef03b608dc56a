/// The event the rest of Jadwal works with. It is a view over a VEVENT: `init(component:)`
/// reads the fields, `component` writes them back into the original component, so
/// properties and sub-components the model does not know (X-APPLE-…, X-GOOGLE-…, unknown
/// parameters) survive untouched.
public struct Event: Sendable, Hashable {
    public enum Status: String, Sendable, Hashable {
        case tentative = "TENTATIVE", confirmed = "CONFIRMED", cancelled = "CANCELLED"
    }

    public enum Transparency: String, Sendable, Hashable {
        case opaque = "OPAQUE", transparent = "TRANSPARENT"
    }

    /// Either an end or a duration, as the source had it.
    public enum End: Sendable, Hashable {
        case end(DateOrDateTime)
        case duration(Duration)
    }

    public struct Attendee: Sendable, Hashable {
        public var address: String
        public var name: String?
        public var role: String?
        public var participationStatus: String?
        /// Every parameter as written (RSVP, CUTYPE, X-…), including the ones above.
        public var parameters: [Parameter]

        public init(address: String, name: String? = nil, role: String? = nil, participationStatus: String? = nil, parameters: [Parameter] = []) {
            self.address = address
            self.name = name
            self.role = role
            self.participationStatus = participationStatus
            self.parameters = parameters
        }

        init(property: Property) {
            self.init(address: property.value, name: property.parameter("CN"), role: property.parameter("ROLE"),
                      participationStatus: property.parameter("PARTSTAT"), parameters: property.parameters)
        }

        func property(named name: String) -> Property {
            var p = Property(name: name, parameters: parameters, value: address)
            p.setParameter("CN", self.name)
            if name == "ATTENDEE" {
                p.setParameter("ROLE", role)
                p.setParameter("PARTSTAT", participationStatus)
            }
            return p
        }
    }

    public struct Alarm: Sendable, Hashable {
        public enum Trigger: Sendable, Hashable {
            /// Relative to the start (or the end when `relatedToEnd`).
            case relative(Duration, relatedToEnd: Bool)
            case absolute(DateOrDateTime)
        }

        public var action: String
        public var trigger: Trigger
        public var description: String?
        /// The VALARM itself, so unknown properties (ACKNOWLEDGED, X-WR-ALARMUID…) stay.
        public var component: Component

        public init(action: String = "DISPLAY", trigger: Trigger, description: String? = nil) {
            self.action = action
            self.trigger = trigger
            self.description = description
            self.component = Component(name: "VALARM")
        }

        public init(component: Component) throws {
            self.component = component
            action = component.first("ACTION")?.value.uppercased() ?? "DISPLAY"
            description = component.first("DESCRIPTION")?.text
            guard let triggerProperty = component.first("TRIGGER") else {
                throw ICalendarError(.missingProperty, line: component.line, "VALARM has no TRIGGER")
            }
            if triggerProperty.parameter("VALUE")?.uppercased() == "DATE-TIME" {
                trigger = .absolute(try triggerProperty.dateValue())
            } else {
                do {
                    trigger = .relative(try Duration.parse(triggerProperty.value),
                                        relatedToEnd: triggerProperty.parameter("RELATED")?.uppercased() == "END")
                } catch var e as ICalendarError {
                    e.line = triggerProperty.line
                    throw e
                }
            }
        }

        public var asComponent: Component {
            var c = component
            c.set("ACTION", Property(name: "ACTION", value: action))
            switch trigger {
            case .relative(let duration, let relatedToEnd):
                var p = Property(name: "TRIGGER", parameters: c.first("TRIGGER")?.parameters ?? [], value: duration.icalValue)
                p.setParameter("VALUE", nil)
                p.setParameter("RELATED", relatedToEnd ? "END" : nil)
                c.set("TRIGGER", p)
            case .absolute(let date):
                var p = date.property("TRIGGER")
                p.setParameter("VALUE", "DATE-TIME")
                c.set("TRIGGER", p)
            }
            if let description {
                c.set("DESCRIPTION", Property(name: "DESCRIPTION", text: description))
            } else if action == "DISPLAY" {
                // RFC 5545 §3.6.6: a DISPLAY alarm needs a DESCRIPTION.
                c.set("DESCRIPTION", Property(name: "DESCRIPTION", text: "Reminder"))
            }
            return c
        }
    }

    public var uid: String
    public var title: String?
    public var start: DateOrDateTime
    public var end: End?
    public var location: String?
    public var description: String?
    public var status: Status?
    public var transparency: Transparency?
    public var recurrenceRules: [RecurrenceRule]
    public var recurrenceDates: [DateOrPeriod]
    public var exceptionDates: [DateOrDateTime]
    public var recurrenceId: DateOrDateTime?
    public var organizer: Attendee?
    public var attendees: [Attendee]
    public var alarms: [Alarm]
    public var sequence: Int
    /// The component this event was read from (or a fresh one); everything not modelled lives here.
    public var source: Component

    public var isAllDay: Bool { start.isDate }

    public init(uid: String, title: String?, start: DateOrDateTime, end: End?) {
        self.uid = uid
        self.title = title
        self.start = start
        self.end = end
        recurrenceRules = []
        recurrenceDates = []
        exceptionDates = []
        attendees = []
        alarms = []
        sequence = 0
        source = Component(name: "VEVENT")
    }

    public init(component: Component) throws {
        guard component.name == "VEVENT" else {
            throw ICalendarError(.invalidStructure, line: component.line, "expected VEVENT, got \(component.name)")
        }
        guard let uid = component.first("UID")?.value, !uid.isEmpty else {
            throw ICalendarError(.missingProperty, line: component.line, "VEVENT has no UID")
        }
        guard let startProperty = component.first("DTSTART") else {
            throw ICalendarError(.missingProperty, line: component.line, "VEVENT \(uid.prefix(60)) has no DTSTART")
        }
        self.init(uid: uid, title: component.first("SUMMARY")?.text, start: try startProperty.dateValue(), end: nil)
        source = component
        if let dtend = component.first("DTEND") {
            end = .end(try dtend.dateValue())
        } else if let duration = component.first("DURATION") {
            do { end = .duration(try Duration.parse(duration.value)) } catch var e as ICalendarError {
                e.line = duration.line
                throw e
            }
        }
        location = component.first("LOCATION")?.text
        description = component.first("DESCRIPTION")?.text
        status = component.first("STATUS").flatMap { Status(rawValue: $0.value.uppercased()) }
        transparency = component.first("TRANSP").flatMap { Transparency(rawValue: $0.value.uppercased()) }
        for p in component.all("RRULE") {
            do { recurrenceRules.append(try RecurrenceRule.parse(p.value)) } catch var e as ICalendarError {
                e.line = p.line
                throw e
            }
        }
        for p in component.all("RDATE") { recurrenceDates += try p.dateListValue() }
        for p in component.all("EXDATE") { exceptionDates += try p.dateListValue().map(\.start) }
        recurrenceId = try component.first("RECURRENCE-ID")?.dateValue()
        organizer = component.first("ORGANIZER").map(Attendee.init(property:))
        attendees = component.all("ATTENDEE").map(Attendee.init(property:))
        alarms = try component.components(named: "VALARM").map(Alarm.init(component:))
        sequence = component.first("SEQUENCE").flatMap { Int($0.value.trimmingSpaces) } ?? 0
    }

    /// The VEVENT: the source component with the modelled fields written over it.
    /// A field left unchanged keeps its original property (parameters and all).
    public var component: Component {
        var c = source
        c.name = "VEVENT"
        func keep(_ name: String, _ new: Property?, same: (Property) -> Bool) {
            if let old = c.first(name), let new, same(old) { _ = new; return }
            c.set(name, new)
        }
        keep("UID", Property(name: "UID", value: uid)) { $0.value == uid }
        keep("DTSTART", start.property("DTSTART")) { (try? $0.dateValue()) == start }
        switch end {
        case .end(let e)?:
            c.remove("DURATION")
            keep("DTEND", e.property("DTEND")) { (try? $0.dateValue()) == e }
        case .duration(let d)?:
            c.remove("DTEND")
            keep("DURATION", Property(name: "DURATION", value: d.icalValue)) { (try? Duration.parse($0.value)) == d }
        case nil:
            c.remove("DTEND")
            c.remove("DURATION")
        }
        func text(_ name: String, _ value: String?) {
            keep(name, value.map { Property(name: name, text: $0, parameters: c.first(name)?.parameters ?? []) }) { $0.text == value }
        }
        text("SUMMARY", title)
        text("LOCATION", location)
        text("DESCRIPTION", description)
        keep("STATUS", status.map { Property(name: "STATUS", value: $0.rawValue) }) { $0.value.uppercased() == status?.rawValue }
        keep("TRANSP", transparency.map { Property(name: "TRANSP", value: $0.rawValue) }) { $0.value.uppercased() == transparency?.rawValue }
        if (try? source.all("RRULE").map { try RecurrenceRule.parse($0.value) }) != recurrenceRules {
            c.setAll("RRULE", recurrenceRules.map { Property(name: "RRULE", value: $0.icalValue) })
        }
        if (try? source.all("RDATE").flatMap { try $0.dateListValue() }) != recurrenceDates {
            c.setAll("RDATE", recurrenceDates.map { item in
                switch item {
                case .date(let d): return d.property("RDATE")
                case .period(let p):
                    var prop = p.start.property("RDATE")
                    prop.value = p.icalValue
                    prop.setParameter("VALUE", "PERIOD")
                    return prop
                }
            })
        }
        if (try? source.all("EXDATE").flatMap { try $0.dateListValue().map(\.start) }) != exceptionDates {
            c.setAll("EXDATE", exceptionDates.map { $0.property("EXDATE") })
        }
        keep("RECURRENCE-ID", recurrenceId.map { $0.property("RECURRENCE-ID", extraParameters: c.first("RECURRENCE-ID")?.parameters ?? []) }) {
            (try? $0.dateValue()) == recurrenceId
        }
        keep("ORGANIZER", organizer.map { $0.property(named: "ORGANIZER") }) { Attendee(property: $0) == organizer }
        if source.all("ATTENDEE").map(Attendee.init(property:)) != attendees {
            c.setAll("ATTENDEE", attendees.map { $0.property(named: "ATTENDEE") })
        }
        let sourceSequence = source.first("SEQUENCE").flatMap { Int($0.value.trimmingSpaces) } ?? 0
        if sourceSequence != sequence || (source.first("SEQUENCE") == nil && sequence != 0) {
            c.set("SEQUENCE", Property(name: "SEQUENCE", value: String(sequence)))
        }
        let oldAlarms = (try? source.components(named: "VALARM").map(Alarm.init(component:))) ?? []
        if oldAlarms != alarms {
            c.components.removeAll { $0.name == "VALARM" }
            c.components += alarms.map(\.asComponent)
        }
        return c
    }
}
