import Foundation
import ICalendar
@testable import DAV

/// The calendar collection of RFC 4791 Appendix B, which every §7.8 and §7.10 example queries,
/// copied from the RFC text (the test target declares no resources, so the data lives here).
/// Objects are keyed by their resource name; lines end in LF as printed in the RFC.
enum RFC4791Examples {
    static let names = ["abcd1", "abcd2", "abcd3", "abcd4", "abcd5", "abcd6", "abcd7", "abcd8"]

    static let texts: [String: String] = [
        "abcd1": #"""
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//Example Corp.//CalDAV Client//EN
        BEGIN:VTIMEZONE
        LAST-MODIFIED:20040110T032845Z
        TZID:US/Eastern
        BEGIN:DAYLIGHT
        DTSTART:20000404T020000
        RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=4
        TZNAME:EDT
        TZOFFSETFROM:-0500
        TZOFFSETTO:-0400
        END:DAYLIGHT
        BEGIN:STANDARD
        DTSTART:20001026T020000
        RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10
        TZNAME:EST
        TZOFFSETFROM:-0400
        TZOFFSETTO:-0500
        END:STANDARD
        END:VTIMEZONE
        BEGIN:VEVENT
        DTSTAMP:20060206T001102Z
        DTSTART;TZID=US/Eastern:20060102T100000
        DURATION:PT1H
        SUMMARY:Event #1
        Description:Go Steelers!
        UID:74855313FA803DA593CD579A@example.com
        END:VEVENT
        END:VCALENDAR
        """#,
        "abcd2": #"""
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//Example Corp.//CalDAV Client//EN
        BEGIN:VTIMEZONE
        LAST-MODIFIED:20040110T032845Z
        TZID:US/Eastern
        BEGIN:DAYLIGHT
        DTSTART:20000404T020000
        RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=4
        TZNAME:EDT
        TZOFFSETFROM:-0500
        TZOFFSETTO:-0400
        END:DAYLIGHT
        BEGIN:STANDARD
        DTSTART:20001026T020000
        RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10
        TZNAME:EST
        TZOFFSETFROM:-0400
        TZOFFSETTO:-0500
        END:STANDARD
        END:VTIMEZONE
        BEGIN:VEVENT
        DTSTAMP:20060206T001121Z
        DTSTART;TZID=US/Eastern:20060102T120000
        DURATION:PT1H
        RRULE:FREQ=DAILY;COUNT=5
        SUMMARY:Event #2
        UID:00959BC664CA650E933C892C@example.com
        END:VEVENT
        BEGIN:VEVENT
        DTSTAMP:20060206T001121Z
        DTSTART;TZID=US/Eastern:20060104T140000
        DURATION:PT1H
        RECURRENCE-ID;TZID=US/Eastern:20060104T120000
        SUMMARY:Event #2 bis
        UID:00959BC664CA650E933C892C@example.com
        END:VEVENT
        END:VCALENDAR
        """#,
        "abcd3": #"""
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//Example Corp.//CalDAV Client//EN
        BEGIN:VTIMEZONE
        LAST-MODIFIED:20040110T032845Z
        TZID:US/Eastern
        BEGIN:DAYLIGHT
        DTSTART:20000404T020000
        RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=4
        TZNAME:EDT
        TZOFFSETFROM:-0500
        TZOFFSETTO:-0400
        END:DAYLIGHT
        BEGIN:STANDARD
        DTSTART:20001026T020000
        RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10
        TZNAME:EST
        TZOFFSETFROM:-0400
        TZOFFSETTO:-0500
        END:STANDARD
        END:VTIMEZONE
        BEGIN:VEVENT
        ATTENDEE;PARTSTAT=ACCEPTED;ROLE=CHAIR:mailto:cyrus@example.com
        ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:lisa@example.com
        DTSTAMP:20060206T001220Z
        DTSTART;TZID=US/Eastern:20060104T100000
        DURATION:PT1H
        LAST-MODIFIED:20060206T001330Z
        ORGANIZER:mailto:cyrus@example.com
        SEQUENCE:1
        STATUS:TENTATIVE
        SUMMARY:Event #3
        UID:DC6C50A017428C5216A2F1CD@example.com
        END:VEVENT
        END:VCALENDAR
        """#,
        "abcd4": #"""
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//Example Corp.//CalDAV Client//EN
        BEGIN:VTODO
        DTSTAMP:20060205T235335Z
        DUE;VALUE=DATE:20060104
        STATUS:NEEDS-ACTION
        SUMMARY:Task #1
        UID:DDDEEB7915FA61233B861457@example.com
        BEGIN:VALARM
        ACTION:AUDIO
        TRIGGER;RELATED=START:-PT10M
        END:VALARM
        END:VTODO
        END:VCALENDAR
        """#,
        "abcd5": #"""
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//Example Corp.//CalDAV Client//EN
        BEGIN:VTODO
        DTSTAMP:20060205T235300Z
        DUE;VALUE=DATE:20060106
        LAST-MODIFIED:20060205T235308Z
        SEQUENCE:1
        STATUS:NEEDS-ACTION
        SUMMARY:Task #2
        UID:E10BA47467C5C69BB74E8720@example.com
        BEGIN:VALARM
        ACTION:AUDIO
        TRIGGER;RELATED=START:-PT10M
        END:VALARM
        END:VTODO
        END:VCALENDAR
        """#,
        "abcd6": #"""
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//Example Corp.//CalDAV Client//EN
        BEGIN:VTODO
        COMPLETED:20051223T122322Z
        DTSTAMP:20060205T235400Z
        DUE;VALUE=DATE:20051225
        LAST-MODIFIED:20060205T235308Z
        SEQUENCE:1
        STATUS:COMPLETED
        SUMMARY:Task #3
        UID:E10BA47467C5C69BB74E8722@example.com
        END:VTODO
        END:VCALENDAR
        """#,
        "abcd7": #"""
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//Example Corp.//CalDAV Client//EN
        BEGIN:VTODO
        DTSTAMP:20060205T235600Z
        DUE;VALUE=DATE:20060101
        LAST-MODIFIED:20060205T235308Z
        SEQUENCE:1
        STATUS:CANCELLED
        SUMMARY:Task #4
        UID:E10BA47467C5C69BB74E8725@example.com
        END:VTODO
        END:VCALENDAR
        """#,
        "abcd8": #"""
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//Example Corp.//CalDAV Client//EN
        BEGIN:VFREEBUSY
        ORGANIZER;CN="Bernard Desruisseaux":mailto:bernard@example.com
        UID:76ef34-54a3d2@example.com
        DTSTAMP:20050530T123421Z
        DTSTART:20060101T000000Z
        DTEND:20060108T000000Z
        FREEBUSY:20050531T230000Z/20050601T010000Z
        FREEBUSY;FBTYPE=BUSY-TENTATIVE:20060102T100000Z/20060102T120000Z
        FREEBUSY:20060103T100000Z/20060103T120000Z
        FREEBUSY:20060104T100000Z/20060104T120000Z
        FREEBUSY;FBTYPE=BUSY-UNAVAILABLE:20060105T100000Z/20060105T120000Z
        FREEBUSY:20060106T100000Z/20060106T120000Z
        END:VFREEBUSY
        END:VCALENDAR
        """#,
    ]

    /// abcd2 as the responses of §7.8.1 and §7.8.8 print it: with a second override,
    /// "Event #2 bis bis", moving the 6 January instance. Appendix B lacks it; §7.8.2 says
    /// limit-recurrence-set must leave it out, so the tests use this version there.
    static let abcd2WithSecondOverride: String = {
        let extra = """
            BEGIN:VEVENT
            DTSTAMP:20060206T001121Z
            DTSTART;TZID=US/Eastern:20060106T140000
            DURATION:PT1H
            RECURRENCE-ID;TZID=US/Eastern:20060106T120000
            SUMMARY:Event #2 bis bis
            UID:00959BC664CA650E933C892C@example.com
            END:VEVENT
            END:VCALENDAR
            """
        return text("abcd2").replacingOccurrences(of: "END:VCALENDAR", with: extra)
    }()

    /// Task #2 as the §7.8.5 response prints it: DUE 12:00 US/Eastern (17:00Z) on 6 January,
    /// so its alarm (10 minutes before) falls in that example's range. Appendix B's copy is
    /// due on the DATE 20060106, whose alarm (23:50Z on the 5th) does not.
    static let abcd5AsInSection785 = text("abcd5").replacingOccurrences(
        of: "DUE;VALUE=DATE:20060106", with: "DUE;TZID=US/Eastern:20060106T120000")

    static func text(_ name: String) -> String { texts[name] ?? "" }

    static func calendar(_ name: String) throws -> Component {
        try ICalendarParser().parseCalendar(text(name))
    }

    static func parse(_ text: String) throws -> Component {
        try ICalendarParser().parseCalendar(text)
    }

    /// The parsed collection, in resource-name order.
    static func collection() throws -> [(name: String, calendar: Component)] {
        try names.map { ($0, try calendar($0)) }
    }

    /// The calendar-query report in `xml`.
    static func query(_ xml: String) throws -> CalendarQueryReport {
        guard case .calendarQuery(let query) = try report(xml) else { throw DAVError.unexpected("not a calendar-query") }
        return query
    }

    /// Names of the Appendix B objects the query's filter selects.
    static func matching(_ xml: String, floatingZone: ZoneRules = .utc) throws -> [String] {
        let filter = try query(xml).filter
        let evaluator = CalendarQueryEvaluator(floatingZone: floatingZone)
        return try collection().filter { evaluator.matches(filter, calendar: $0.calendar) }.map(\.name)
    }

    /// iCalendar text with CRLF turned into LF, for comparing rendered output with the RFC's.
    static func lines(_ text: String) -> String {
        text.replacingOccurrences(of: "\r\n", with: "\n").trimmingCharacters(in: .newlines)
    }

    /// A calendar-query with `inner` inside the VCALENDAR comp-filter.
    static func filter(_ inner: String) -> String {
        #"<C:calendar-query xmlns:C="urn:ietf:params:xml:ns:caldav"><C:filter><C:comp-filter name="VCALENDAR">"#
            + inner + "</C:comp-filter></C:filter></C:calendar-query>"
    }
}
