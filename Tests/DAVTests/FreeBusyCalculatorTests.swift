import Foundation
import ICalendar
import Testing
@testable import DAV

/// free-busy-query answers (RFC 4791 §7.10).
@Suite("Free-busy")
struct FreeBusyCalculatorTests {
    typealias Examples = RFC4791Examples

    let stamp = UTCDateTime.parse("20050125T090000Z") ?? Date(timeIntervalSince1970: 0)

    func range(_ start: String?, _ end: String?) -> TimeRange {
        TimeRange(start: start.flatMap(UTCDateTime.parse), end: end.flatMap(UTCDateTime.parse))
    }

    func freeBusyLines(_ calendars: [Component], _ range: TimeRange, floatingZone: ZoneRules = .utc) -> [String] {
        let text = FreeBusyCalculator(floatingZone: floatingZone).render(calendars, range: range, stamp: stamp)
        return Examples.lines(text).split(separator: "\n").map(String.init).filter { $0.hasPrefix("FREEBUSY") }
    }

    func calendar(_ body: String) throws -> Component {
        try Examples.parse("BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:x\n" + body + "\nEND:VCALENDAR\n")
    }

    @Test("§7.10.1: 9:00–17:00 EST on 4 January")
    func rfcExample() throws {
        let calendars = try Examples.collection().map(\.calendar)
        // The text asks for 14:00–22:00Z on 4 January; the printed request ends on the 5th, which
        // would also catch abcd2's 5 January instance and abcd8's BUSY-UNAVAILABLE period the
        // printed answer lacks. The answer is the one for the range the text describes.
        let text = FreeBusyCalculator(productID: "-//Example Corp.//CalDAV Server//EN")
            .render(calendars, range: range("20060104T140000Z", "20060104T220000Z"), stamp: stamp)
        #expect(Examples.lines(text) == """
            BEGIN:VCALENDAR
            VERSION:2.0
            PRODID:-//Example Corp.//CalDAV Server//EN
            BEGIN:VFREEBUSY
            DTSTAMP:20050125T090000Z
            DTSTART:20060104T140000Z
            DTEND:20060104T220000Z
            FREEBUSY;FBTYPE=BUSY-TENTATIVE:20060104T150000Z/PT1H
            FREEBUSY:20060104T190000Z/PT1H
            END:VFREEBUSY
            END:VCALENDAR
            """)
        #expect(freeBusyLines(calendars, range("20060104T140000Z", "20060105T220000Z")) == [
            "FREEBUSY;FBTYPE=BUSY-TENTATIVE:20060104T150000Z/PT1H",
            "FREEBUSY:20060104T190000Z/PT1H",
            "FREEBUSY;FBTYPE=BUSY-UNAVAILABLE:20060105T100000Z/PT2H",
            "FREEBUSY:20060105T170000Z/PT1H",
        ])
    }

    @Test("an empty collection still answers with one VFREEBUSY")
    func empty() {
        let text = FreeBusyCalculator().render([], range: range("20240101T000000Z", "20240102T000000Z"), stamp: stamp)
        #expect(Examples.lines(text).contains("BEGIN:VFREEBUSY\nDTSTAMP:20050125T090000Z\nDTSTART:20240101T000000Z\nDTEND:20240102T000000Z\nEND:VFREEBUSY"))
    }

    @Test("transparent and cancelled events are free; overlapping busy time merges; periods are clipped")
    func rules() throws {
        let events = try calendar("""
            BEGIN:VEVENT
            UID:1
            DTSTART:20240101T090000Z
            DTEND:20240101T100000Z
            END:VEVENT
            BEGIN:VEVENT
            UID:2
            DTSTART:20240101T093000Z
            DTEND:20240101T110000Z
            STATUS:CONFIRMED
            END:VEVENT
            BEGIN:VEVENT
            UID:3
            DTSTART:20240101T110000Z
            DTEND:20240101T113000Z
            END:VEVENT
            BEGIN:VEVENT
            UID:4
            DTSTART:20240101T120000Z
            DTEND:20240101T130000Z
            TRANSP:TRANSPARENT
            END:VEVENT
            BEGIN:VEVENT
            UID:5
            DTSTART:20240101T140000Z
            DTEND:20240101T150000Z
            STATUS:CANCELLED
            END:VEVENT
            BEGIN:VEVENT
            UID:6
            DTSTART:20240101T160000Z
            DTEND:20240101T200000Z
            STATUS:TENTATIVE
            END:VEVENT
            BEGIN:VFREEBUSY
            UID:7
            FREEBUSY;FBTYPE=FREE:20240101T000000Z/PT24H
            FREEBUSY;FBTYPE=BUSY-UNAVAILABLE:20240101T070000Z/PT1H
            END:VFREEBUSY
            """)
        #expect(freeBusyLines([events], range("20240101T000000Z", "20240101T180000Z")) == [
            "FREEBUSY;FBTYPE=BUSY-UNAVAILABLE:20240101T070000Z/PT1H",
            "FREEBUSY:20240101T090000Z/PT2H30M",  // 09:00–10:00, 09:30–11:00 and 11:00–11:30 joined
            "FREEBUSY;FBTYPE=BUSY-TENTATIVE:20240101T160000Z/PT2H",  // clipped at the range end
        ])
    }

    @Test("recurring events with a cancelled instance, all-day events in the floating zone")
    func recurrenceAndFloating() throws {
        let series = try calendar("""
            BEGIN:VEVENT
            UID:s
            DTSTART;TZID=Asia/Riyadh:20240101T090000
            DURATION:PT1H
            RRULE:FREQ=DAILY
            END:VEVENT
            BEGIN:VEVENT
            UID:s
            RECURRENCE-ID;TZID=Asia/Riyadh:20240102T090000
            DTSTART;TZID=Asia/Riyadh:20240102T090000
            DURATION:PT1H
            STATUS:CANCELLED
            END:VEVENT
            """)
        #expect(freeBusyLines([series], range("20240101T000000Z", "20240104T000000Z")) == [
            "FREEBUSY:20240101T060000Z/PT1H",
            "FREEBUSY:20240103T060000Z/PT1H",
        ])
        let holiday = try calendar("BEGIN:VEVENT\nUID:h\nDTSTART;VALUE=DATE:20240301\nEND:VEVENT")
        let riyadh = try #require(ZoneRules(ianaIdentifier: "Asia/Riyadh"))
        #expect(freeBusyLines([holiday], range("20240201T000000Z", "20240401T000000Z"), floatingZone: riyadh) == [
            "FREEBUSY:20240229T210000Z/P1D",
        ])
        #expect(freeBusyLines([holiday], range("20240201T000000Z", "20240401T000000Z")) == ["FREEBUSY:20240301T000000Z/P1D"])
    }
}
