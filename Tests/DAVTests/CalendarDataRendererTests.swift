import Foundation
import ICalendar
import Testing
@testable import DAV

/// calendar-data in report responses (RFC 4791 §9.6), checked against the §7.8 responses.
@Suite("Calendar data rendering")
struct CalendarDataRendererTests {
    typealias Examples = RFC4791Examples
    typealias Responses = RFC4791Responses

    /// The calendar-data request of a report body.
    func request(_ xml: String) throws -> CalendarDataRequest {
        try #require(try Examples.query(xml).calendarData)
    }

    func request(calendarData inner: String) throws -> CalendarDataRequest {
        try request(#"""
            <C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
            <D:prop><C:calendar-data>\#(inner)</C:calendar-data></D:prop>
            <C:filter><C:comp-filter name="VCALENDAR"/></C:filter></C:calendar-query>
            """#)
    }

    func render(_ text: String, _ request: CalendarDataRequest?, floatingZone: ZoneRules = .utc) throws -> String {
        let calendar = try Examples.parse(text)
        return Examples.lines(CalendarDataRenderer(floatingZone: floatingZone).render(calendar, originalText: text, request: request))
    }

    @Test("a whole-object request returns the stored text byte for byte")
    func wholeObject() throws {
        // Odd spacing and case that re-serialising would change.
        let stored = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:w\r\nDTSTART:20240101T100000Z\r\nDescription:Go Steelers!\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let calendar = try Examples.parse(stored)
        let renderer = CalendarDataRenderer()
        #expect(renderer.render(calendar, originalText: stored, request: nil) == stored)
        #expect(renderer.render(calendar, originalText: stored, request: try request(calendarData: "")) == stored)
    }

    @Test("§7.8.1: comp and prop selection")
    func partialRetrieval() throws {
        let selection = try request(#"""
            <C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
              <D:prop>
                <D:getetag/>
                <C:calendar-data>
                  <C:comp name="VCALENDAR">
                    <C:prop name="VERSION"/>
                    <C:comp name="VEVENT">
                      <C:prop name="SUMMARY"/>
                      <C:prop name="UID"/>
                      <C:prop name="DTSTART"/>
                      <C:prop name="DTEND"/>
                      <C:prop name="DURATION"/>
                      <C:prop name="RRULE"/>
                      <C:prop name="RDATE"/>
                      <C:prop name="EXRULE"/>
                      <C:prop name="EXDATE"/>
                      <C:prop name="RECURRENCE-ID"/>
                    </C:comp>
                    <C:comp name="VTIMEZONE"/>
                  </C:comp>
                </C:calendar-data>
              </D:prop>
              <C:filter><C:comp-filter name="VCALENDAR"/></C:filter>
            </C:calendar-query>
            """#)
        #expect(try render(Examples.abcd2WithSecondOverride, selection) == Responses.partialAbcd2)
        // The print shows a PRODID, which the request did not select.
        let abcd3 = Responses.partialAbcd3.replacingOccurrences(of: "PRODID:-//Example Corp.//CalDAV Client//EN\n", with: "")
        #expect(try render(Examples.text("abcd3"), selection) == abcd3)
    }

    @Test("§7.8.2: limit-recurrence-set keeps the master and the override touching the range")
    func limitRecurrenceSet() throws {
        let limit = try request(calendarData: #"<C:limit-recurrence-set start="20060103T000000Z" end="20060105T000000Z"/>"#)
        // "Event #2 bis bis" (6 January) is left out; the printed result is Appendix B's abcd2.
        #expect(try render(Examples.abcd2WithSecondOverride, limit) == Responses.limitedAbcd2)
        #expect(Responses.limitedAbcd2 == Examples.text("abcd2"))
        let abcd3 = Responses.limitedAbcd3.replacingOccurrences(of: "X-ABC-GUID:E1CX5Dr-0007ym-Hz@example.com\n", with: "")
        #expect(try render(Examples.text("abcd3"), limit) == abcd3)
        // An override is kept for its original time as well as its new one.
        let original = try request(calendarData: #"<C:limit-recurrence-set start="20060104T170000Z" end="20060104T180000Z"/>"#)
        #expect(try render(Examples.abcd2WithSecondOverride, original).contains("SUMMARY:Event #2 bis\n"))
        let neither = try request(calendarData: #"<C:limit-recurrence-set start="20060102T000000Z" end="20060103T000000Z"/>"#)
        let masterOnly = try render(Examples.abcd2WithSecondOverride, neither)
        #expect(!masterOnly.contains("RECURRENCE-ID"))
        #expect(masterOnly.contains("RRULE:FREQ=DAILY;COUNT=5"))
        let sixth = try request(calendarData: #"<C:limit-recurrence-set start="20060106T190000Z" end="20060106T200000Z"/>"#)
        #expect(try render(Examples.abcd2WithSecondOverride, sixth).contains("SUMMARY:Event #2 bis bis"))
    }

    @Test("§7.8.3: expand gives one component per instance, in UTC, without VTIMEZONE")
    func expand() throws {
        let expand = try request(calendarData: #"<C:expand start="20060103T000000Z" end="20060105T000000Z"/>"#)
        // §9.6.5: zoned times "MUST be converted into date with UTC time"; the print lacks the Z.
        func utc(_ text: String) -> String {
            text.replacingOccurrences(of: #"(T\d{6})\n"#, with: "$1Z\n", options: .regularExpression)
        }
        #expect(try render(Examples.text("abcd2"), expand) == utc(Responses.expandedAbcd2))
        #expect(try render(Examples.abcd2WithSecondOverride, expand) == utc(Responses.expandedAbcd2))
        let abcd3 = utc(Responses.expandedAbcd3).replacingOccurrences(of: "X-ABC-GUID:E1CX5Dr-0007ym-Hz@example.com\n", with: "")
        #expect(try render(Examples.text("abcd3"), expand) == abcd3)
    }

    @Test("expand keeps floating and DATE values, drops EXDATE'd and moved-away instances")
    func expandKinds() throws {
        let text = """
            BEGIN:VCALENDAR
            VERSION:2.0
            PRODID:x
            BEGIN:VEVENT
            UID:d1
            DTSTART;VALUE=DATE:20240101
            DTEND;VALUE=DATE:20240102
            RRULE:FREQ=DAILY;COUNT=4
            EXDATE;VALUE=DATE:20240102
            SUMMARY:Fast
            END:VEVENT
            BEGIN:VEVENT
            UID:d1
            RECURRENCE-ID;VALUE=DATE:20240103
            DTSTART;VALUE=DATE:20240110
            DTEND;VALUE=DATE:20240111
            SUMMARY:Fast moved
            END:VEVENT
            BEGIN:VEVENT
            UID:f1
            DTSTART:20240101T090000
            DURATION:PT30M
            RRULE:FREQ=DAILY
            SUMMARY:Floating
            END:VEVENT
            END:VCALENDAR
            """
        let riyadh = try #require(ZoneRules(ianaIdentifier: "Asia/Riyadh"))
        let expand = try request(calendarData: #"<C:expand start="20231231T210000Z" end="20240103T210000Z"/>"#)
        let output = try render(text, expand, floatingZone: riyadh)
        let expected = """
            BEGIN:VCALENDAR
            VERSION:2.0
            PRODID:x
            BEGIN:VEVENT
            UID:d1
            DTSTART;VALUE=DATE:20240101
            DTEND;VALUE=DATE:20240102
            RECURRENCE-ID;VALUE=DATE:20240101
            SUMMARY:Fast
            END:VEVENT
            BEGIN:VEVENT
            UID:f1
            DTSTART:20240101T090000
            DURATION:PT30M
            RECURRENCE-ID:20240101T090000
            SUMMARY:Floating
            END:VEVENT
            BEGIN:VEVENT
            UID:f1
            DTSTART:20240102T090000
            DURATION:PT30M
            RECURRENCE-ID:20240102T090000
            SUMMARY:Floating
            END:VEVENT
            BEGIN:VEVENT
            UID:f1
            DTSTART:20240103T090000
            DURATION:PT30M
            RECURRENCE-ID:20240103T090000
            SUMMARY:Floating
            END:VEVENT
            END:VCALENDAR
            """
        #expect(output == expected)
        // The moved instance appears where it went, with its original RECURRENCE-ID.
        let later = try render(text, try request(calendarData: #"<C:expand start="20240110T000000Z" end="20240111T000000Z"/>"#))
        #expect(later.contains("RECURRENCE-ID;VALUE=DATE:20240103\nDTSTART;VALUE=DATE:20240110"))
    }

    @Test("expand sets DUE on to-do instances; limit-recurrence-set keeps THISANDFUTURE overrides before the range")
    func todosAndThisAndFuture() throws {
        let todo = """
            BEGIN:VCALENDAR
            VERSION:2.0
            PRODID:x
            BEGIN:VTODO
            UID:t1
            DTSTART;TZID=Asia/Riyadh:20240101T090000
            DUE;TZID=Asia/Riyadh:20240101T170000
            RRULE:FREQ=WEEKLY
            SUMMARY:Report
            END:VTODO
            END:VCALENDAR
            """
        let expand = try request(calendarData: #"<C:expand start="20240108T000000Z" end="20240109T000000Z"/>"#)
        #expect(try render(todo, expand) == """
            BEGIN:VCALENDAR
            VERSION:2.0
            PRODID:x
            BEGIN:VTODO
            UID:t1
            DTSTART:20240108T060000Z
            DUE:20240108T140000Z
            RECURRENCE-ID:20240108T060000Z
            SUMMARY:Report
            END:VTODO
            END:VCALENDAR
            """)
        let series = """
            BEGIN:VCALENDAR
            VERSION:2.0
            PRODID:x
            BEGIN:VEVENT
            UID:s1
            DTSTART:20240101T100000Z
            DURATION:PT1H
            RRULE:FREQ=DAILY
            END:VEVENT
            BEGIN:VEVENT
            UID:s1
            RECURRENCE-ID;RANGE=THISANDFUTURE:20240103T100000Z
            DTSTART:20240103T120000Z
            DURATION:PT1H
            SUMMARY:Later from now on
            END:VEVENT
            BEGIN:VEVENT
            UID:s1
            RECURRENCE-ID:20240102T100000Z
            DTSTART:20240102T110000Z
            DURATION:PT1H
            SUMMARY:Once later
            END:VEVENT
            END:VCALENDAR
            """
        let limit = try request(calendarData: #"<C:limit-recurrence-set start="20240110T000000Z" end="20240111T000000Z"/>"#)
        let limited = try render(series, limit)
        #expect(limited.contains("Later from now on"))
        #expect(!limited.contains("Once later"))
        // Expanded, the THISANDFUTURE override reshapes the later instances.
        let expanded = try render(series, try request(calendarData: #"<C:expand start="20240110T000000Z" end="20240111T000000Z"/>"#))
        #expect(expanded.contains("RECURRENCE-ID:20240110T100000Z\nDTSTART:20240110T120000Z\nDURATION:PT1H\nSUMMARY:Later from now on"))
    }

    @Test("§7.8.4: limit-freebusy-set keeps the FREEBUSY periods overlapping the range")
    func limitFreeBusySet() throws {
        let limit = try request(calendarData: #"<C:limit-freebusy-set start="20060102T000000Z" end="20060103T000000Z"/>"#)
        // The print moves DTSTART/DTEND to 10:00Z, which nothing in §9.6.7 asks for.
        let expected = Responses.freeBusyLimitedAbcd8.replacingOccurrences(of: "T100000Z\n", with: "T000000Z\n")
        #expect(try render(Examples.text("abcd8"), limit) == expected)
        // Several periods in one property: only the overlapping ones stay.
        let text = "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:x\nBEGIN:VFREEBUSY\nUID:f\nFREEBUSY:20240101T100000Z/PT1H,20240102T100000Z/PT1H,20240103T100000Z/20240103T110000Z\nEND:VFREEBUSY\nEND:VCALENDAR\n"
        let two = try request(calendarData: #"<C:limit-freebusy-set start="20240102T103000Z" end="20240103T100001Z"/>"#)
        #expect(try render(text, two).contains("FREEBUSY:20240102T100000Z/PT1H,20240103T100000Z/20240103T110000Z\n"))
    }

    @Test("novalue, allprop and allcomp")
    func selections() throws {
        let novalue = try request(calendarData: #"""
            <C:comp name="VCALENDAR"><C:comp name="VEVENT"><C:prop name="ATTENDEE" novalue="yes"/><C:prop name="UID"/></C:comp></C:comp>
            """#)
        #expect(try render(Examples.text("abcd3"), novalue) == """
            BEGIN:VCALENDAR
            BEGIN:VEVENT
            ATTENDEE;PARTSTAT=ACCEPTED;ROLE=CHAIR:
            ATTENDEE;PARTSTAT=NEEDS-ACTION:
            UID:DC6C50A017428C5216A2F1CD@example.com
            END:VEVENT
            END:VCALENDAR
            """)
        let everything = try request(calendarData: #"<C:comp name="VCALENDAR"><C:allprop/><C:allcomp/></C:comp>"#)
        let calendar = try Examples.calendar("abcd4")
        #expect(try render(Examples.text("abcd4"), everything) == Examples.lines(calendar.serialized))
        let todosOnly = try request(calendarData: #"<C:comp name="VCALENDAR"><C:allprop/><C:comp name="VTODO"><C:prop name="SUMMARY"/><C:allcomp/></C:comp></C:comp>"#)
        #expect(try render(Examples.text("abcd4"), todosOnly) == """
            BEGIN:VCALENDAR
            VERSION:2.0
            PRODID:-//Example Corp.//CalDAV Client//EN
            BEGIN:VTODO
            SUMMARY:Task #1
            BEGIN:VALARM
            ACTION:AUDIO
            TRIGGER;RELATED=START:-PT10M
            END:VALARM
            END:VTODO
            END:VCALENDAR
            """)
    }
}
