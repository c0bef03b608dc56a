import Foundation
import ICalendar

/// A busy-time request POSTed to a scheduling Outbox (RFC 6638 §5; the message is an iTIP
/// VFREEBUSY REQUEST, RFC 5546 §3.3.1): who asks, whom about, and for which period.
public struct FreeBusyRequest: Sendable {
    /// The ORGANIZER property as sent: copied into each reply.
    public var organizer: Property
    /// One ATTENDEE per recipient, in the order sent, duplicates removed.
    public var attendees: [Property]
    public var uid: String?
    /// Both bounds set, start before end.
    public var range: TimeRange

    /// Recipients one request may name: each costs a look-up and a free-busy computation.
    public static let maxRecipients = 100

    public init(text: String) throws(DAVError) {
        let calendar: Component
        do {
            calendar = try ICalendarParser().parseCalendar(text)
        } catch {
            throw DAVError.precondition(.validCalendarData, "The body is not valid iCalendar: \(error).")
        }
        func invalid(_ message: String) -> DAVError { DAVError.precondition(.validSchedulingMessage, message) }
        guard calendar.first("METHOD")?.value.uppercased() == "REQUEST" else {
            throw invalid("A scheduling Outbox takes busy-time requests: an iCalendar object with METHOD:REQUEST and one VFREEBUSY.")
        }
        let items = calendar.components.filter { $0.name != "VTIMEZONE" }
        guard items.count == 1, let freeBusy = items.first, freeBusy.name == "VFREEBUSY" else {
            throw invalid("Only VFREEBUSY requests can be POSTed to the Outbox; Jadwal does not send invitations this way (RFC 6638 §5).")
        }
        guard let organizer = freeBusy.first("ORGANIZER") else { throw invalid("The VFREEBUSY needs an ORGANIZER: the address asking.") }
        var seen = Set<CalendarUserAddress>()
        let attendees = freeBusy.all("ATTENDEE").filter { seen.insert(CalendarUserAddress($0.value)).inserted }
        guard !attendees.isEmpty else { throw invalid("The VFREEBUSY needs at least one ATTENDEE: whose busy time is asked for.") }
        guard attendees.count <= Self.maxRecipients else {
            throw invalid("One request may ask about at most \(Self.maxRecipients) calendar users; it names \(attendees.count).")
        }
        // Times are UTC in iTIP; a TZID is read through the request's own VTIMEZONEs or the
        // known zones, and a floating time as UTC.
        let timeline = CalendarTimeline(calendar: calendar, floatingZone: .utc)
        guard let startProperty = freeBusy.first("DTSTART"), let endProperty = freeBusy.first("DTEND") else {
            throw invalid("The VFREEBUSY needs DTSTART and DTEND: the period asked about.")
        }
        guard let start = timeline.instant(of: startProperty), let end = timeline.instant(of: endProperty) else {
            throw invalid("DTSTART and DTEND must be DATE-TIME values, preferably in UTC (19970714T170000Z).")
        }
        guard end > start else { throw invalid("DTEND must be after DTSTART.") }
        self.organizer = organizer
        self.attendees = attendees
        uid = freeBusy.first("UID")?.value
        range = TimeRange(start: InstantRange.date(start), end: InstantRange.date(end))
    }

    /// The iTIP REPLY for one recipient (RFC 5546 §3.3.2): one VFREEBUSY with the request's UID,
    /// ORGANIZER and period, the recipient as ATTENDEE, and one FREEBUSY line per busy period
    /// (BUSY, the default FBTYPE, is not written).
    public func reply(for attendee: Property, busy periods: [BusyPeriod], stamp: Date, productID: String = "-//Jadwal//CalDAV Server//EN") -> String {
        var freeBusy = Component(name: "VFREEBUSY")
        if let uid { freeBusy.properties.append(Property(name: "UID", value: uid)) }
        freeBusy.properties.append(Property(name: "DTSTAMP", value: UTCDateTime.format(stamp)))
        if let start = range.start { freeBusy.properties.append(Property(name: "DTSTART", value: UTCDateTime.format(start))) }
        if let end = range.end { freeBusy.properties.append(Property(name: "DTEND", value: UTCDateTime.format(end))) }
        freeBusy.properties.append(organizer)
        freeBusy.properties.append(Property(name: "ATTENDEE", parameters: attendee.parameters.filter { $0.name == "CN" }, value: attendee.value))
        for period in periods {
            let seconds = InstantRange.seconds(period.end) - InstantRange.seconds(period.start)
            let value = UTCDateTime.format(period.start) + "/" + ICalendar.Duration(totalSeconds: seconds).icalValue
            freeBusy.properties.append(Property(name: "FREEBUSY", parameters: period.type == "BUSY" ? [] : [Parameter("FBTYPE", period.type)], value: value))
        }
        let calendar = Component(name: "VCALENDAR", properties: [
            Property(name: "VERSION", value: "2.0"), Property(name: "PRODID", value: productID), Property(name: "METHOD", value: "REPLY"),
        ], components: [freeBusy])
        return ICalendarSerializer().serialize(calendar)
    }
}

/// iTIP request statuses a schedule-response carries (RFC 5546 §3.6, RFC 6638 §3.2.9).
public enum ScheduleRequestStatus {
    public static let success = "2.0;Success"
    /// The address is not a calendar user this server knows.
    public static let invalidCalendarUser = "3.7;Invalid calendar user"
    /// The address is known but cannot take part in scheduling (e.g. a disabled account).
    public static let noSchedulingSupport = "5.3;No scheduling support for user"
}

/// `<C:schedule-response>` (RFC 6638 §10.1): the answer to an Outbox POST, one
/// `<C:response>` per recipient. The RFC allows a `DAV:responsedescription` in each, but python
/// caldav refuses any child besides recipient, request-status and calendar-data, and the
/// request status already says what happened; so none is written.
public struct ScheduleResponse: Sendable {
    public struct Item: Sendable {
        public var recipient: String
        public var requestStatus: String
        public var calendarData: String?

        public init(recipient: String, requestStatus: String, calendarData: String? = nil) {
            self.recipient = recipient
            self.requestStatus = requestStatus
            self.calendarData = calendarData
        }
    }

    public var items: [Item]

    public init(items: [Item]) {
        self.items = items
    }

    public var element: DAVElement {
        DAVElement(.scheduleResponse, elements: items.map { item in
            var children = [
                DAVElement(.recipient, elements: [DAVElement(.href, text: item.recipient)]),
                DAVElement(.requestStatus, text: item.requestStatus),
            ]
            if let data = item.calendarData { children.append(DAVElement(.calendarData, text: data)) }
            return DAVElement(.scheduleResponseItem, elements: children)
        })
    }
}

extension FreeBusyCalculator {
    /// Busy periods gathered from several collections (each computed in its own floating zone)
    /// merged as one collection's are: coalesced per FBTYPE, in start order.
    public static func merged(_ periods: [BusyPeriod]) -> [BusyPeriod] {
        var byType: [String: [InstanceSpan]] = [:]
        for period in periods {
            byType[period.type, default: []].append(InstanceSpan(start: InstantRange.seconds(period.start), end: InstantRange.seconds(period.end)))
        }
        var result: [BusyPeriod] = []
        for (type, spans) in byType {
            for span in coalesced(spans) {
                result.append(BusyPeriod(start: InstantRange.date(span.start), end: InstantRange.date(span.end), type: type))
            }
        }
        return result.sorted { ($0.start, $0.type) < ($1.start, $1.type) }
    }
}
