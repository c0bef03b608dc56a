import Foundation
import ICalendar
import Testing
@testable import DAV

/// calendar-query filters on real iCalendar data: the RFC 4791 §7.8 examples against the
/// Appendix B collection, then each §9.9 rule on its own.
@Suite("Calendar query evaluation")
struct CalendarQueryEvaluatorTests {
    typealias Examples = RFC4791Examples

    func vevent(in start: String, _ end: String) -> String {
        Examples.filter(#"<C:comp-filter name="VEVENT"><C:time-range start="\#(start)" end="\#(end)"/></C:comp-filter>"#)
    }

    /// Whether a calendar built from `body` (components without the VCALENDAR wrapper) matches.
    func matches(_ xml: String, _ body: String, floatingZone: ZoneRules = .utc) throws -> Bool {
        let calendar = try Examples.parse("BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//Jadwal//Tests//EN\n" + body + "\nEND:VCALENDAR\n")
        return CalendarQueryEvaluator(floatingZone: floatingZone).matches(try Examples.query(xml).filter, calendar: calendar)
    }

    // MARK: - RFC 4791 §7.8 examples on Appendix B

    @Test("§7.8.1: events overlapping 4 January, a recurring one through its third instance")
    func eventsOnJanuaryFourth() throws {
        #expect(try Examples.matching(vevent(in: "20060104T000000Z", "20060105T000000Z")) == ["abcd2", "abcd3"])
    }

    @Test("§7.8.2 and §7.8.3: events overlapping 3–4 January")
    func eventsOnJanuaryThirdAndFourth() throws {
        #expect(try Examples.matching(vevent(in: "20060103T000000Z", "20060105T000000Z")) == ["abcd2", "abcd3"])
        // abcd1 is 2 January 15:00–16:00Z; the range ending at its start does not reach it.
        #expect(try Examples.matching(vevent(in: "20060101T000000Z", "20060102T150000Z")) == [])
        #expect(try Examples.matching(vevent(in: "20060101T000000Z", "20060102T150001Z")) == ["abcd1"])
    }

    @Test("§7.8.4: stored free-busy overlapping 2 January")
    func storedFreeBusy() throws {
        let xml = Examples.filter(#"<C:comp-filter name="VFREEBUSY"><C:time-range start="20060102T000000Z" end="20060103T000000Z"/></C:comp-filter>"#)
        #expect(try Examples.matching(xml) == ["abcd8"])
    }

    @Test("§7.8.5: to-dos by alarm time, as Appendix B has them and as the response prints Task #2")
    func todosByAlarm() throws {
        let xml = Examples.filter(#"<C:comp-filter name="VTODO"><C:comp-filter name="VALARM"><C:time-range start="20060106T100000Z" end="20060107T100000Z"/></C:comp-filter></C:comp-filter>"#)
        // Appendix B's Task #2 is due on the DATE 20060106: its alarm fires 23:50Z on the 5th.
        #expect(try Examples.matching(xml) == [])
        let printed = try Examples.parse(Examples.abcd5AsInSection785)
        #expect(CalendarQueryEvaluator().matches(try Examples.query(xml).filter, calendar: printed))
        // Read in a zone 11 hours behind UTC, the DATE's midnight is 11:00Z and the alarm 10:50Z: in range.
        let pagoPago = try #require(ZoneRules(ianaIdentifier: "Pacific/Pago_Pago"))
        #expect(try Examples.matching(xml, floatingZone: pagoPago) == ["abcd5"])
    }

    @Test("§7.8.6: event by UID with i;octet")
    func eventByUID() throws {
        let xml = Examples.filter(#"<C:comp-filter name="VEVENT"><C:prop-filter name="UID"><C:text-match collation="i;octet">DC6C50A017428C5216A2F1CD@example.com</C:text-match></C:prop-filter></C:comp-filter>"#)
        #expect(try Examples.matching(xml) == ["abcd3"])
        #expect(try Examples.matching(xml.replacingOccurrences(of: ">DC6C", with: ">dc6c")) == [])
    }

    @Test("§7.8.7: events where lisa's PARTSTAT is NEEDS-ACTION")
    func eventsByPartstat() throws {
        let xml = Examples.filter(#"""
            <C:comp-filter name="VEVENT"><C:prop-filter name="ATTENDEE">
            <C:text-match collation="i;ascii-casemap">mailto:lisa@example.com</C:text-match>
            <C:param-filter name="PARTSTAT"><C:text-match collation="i;ascii-casemap">NEEDS-ACTION</C:text-match></C:param-filter>
            </C:prop-filter></C:comp-filter>
            """#)
        #expect(try Examples.matching(xml) == ["abcd3"])
        // Cyrus accepted, so the same test on his address fails.
        #expect(try Examples.matching(xml.replacingOccurrences(of: "lisa", with: "cyrus")) == [])
    }

    @Test("§7.8.8: events only")
    func eventsOnly() throws {
        #expect(try Examples.matching(Examples.filter(#"<C:comp-filter name="VEVENT"/>"#)) == ["abcd1", "abcd2", "abcd3"])
    }

    @Test("§7.8.9: pending to-dos (no COMPLETED, STATUS not CANCELLED)")
    func pendingTodos() throws {
        let xml = Examples.filter(#"""
            <C:comp-filter name="VTODO">
            <C:prop-filter name="COMPLETED"><C:is-not-defined/></C:prop-filter>
            <C:prop-filter name="STATUS"><C:text-match negate-condition="yes">CANCELLED</C:text-match></C:prop-filter>
            </C:comp-filter>
            """#)
        #expect(try Examples.matching(xml) == ["abcd4", "abcd5"])
    }

    @Test("the whole collection matches a bare VCALENDAR filter")
    func everything() throws {
        #expect(try Examples.matching(Examples.filter("")) == Examples.names)
    }

    // MARK: - Text, parameters, presence

    @Test("text-match: i;ascii-casemap folds only ASCII, i;unicode-casemap folds the rest, escapes are removed")
    func collations() throws {
        let event = "BEGIN:VEVENT\nUID:c1\nDTSTART:20240101T100000Z\nSUMMARY:Réunion au CAFÉ\\, puis déjeuner\nEND:VEVENT"
        func summary(_ text: String, collation: String, negate: Bool = false) -> String {
            Examples.filter(#"<C:comp-filter name="VEVENT"><C:prop-filter name="SUMMARY"><C:text-match collation="\#(collation)" negate-condition="\#(negate ? "yes" : "no")">\#(text)</C:text-match></C:prop-filter></C:comp-filter>"#)
        }
        #expect(try matches(summary("réunion", collation: "i;ascii-casemap"), event))
        #expect(try !matches(summary("café", collation: "i;ascii-casemap"), event))  // É is not ASCII
        #expect(try matches(summary("café", collation: "i;unicode-casemap"), event))
        #expect(try matches(summary("RÉUNION AU café", collation: "i;unicode-casemap"), event))
        #expect(try matches(summary("CAFÉ, puis", collation: "i;octet"), event))  // the comma is unescaped
        #expect(try !matches(summary("café", collation: "i;octet"), event))
        #expect(try matches(summary("dinner", collation: "i;ascii-casemap", negate: true), event))
        #expect(try !matches(summary("déjeuner", collation: "i;unicode-casemap", negate: true), event))
        // Appendix B: every event but #1.
        let notFirst = Examples.filter(#"<C:comp-filter name="VEVENT"><C:prop-filter name="SUMMARY"><C:text-match negate-condition="yes">event #1</C:text-match></C:prop-filter></C:comp-filter>"#)
        #expect(try Examples.matching(notFirst) == ["abcd2", "abcd3"])
    }

    @Test("param-filter and is-not-defined on Appendix B")
    func parametersAndAbsence() throws {
        let chair = Examples.filter(#"<C:comp-filter name="VEVENT"><C:prop-filter name="ATTENDEE"><C:param-filter name="ROLE"><C:text-match>chair</C:text-match></C:param-filter></C:prop-filter></C:comp-filter>"#)
        #expect(try Examples.matching(chair) == ["abcd3"])
        let noRole = Examples.filter(#"<C:comp-filter name="VEVENT"><C:prop-filter name="ATTENDEE"><C:param-filter name="ROLE"><C:is-not-defined/></C:param-filter></C:prop-filter></C:comp-filter>"#)
        #expect(try Examples.matching(noRole) == ["abcd3"])  // lisa has no ROLE
        let withoutAlarm = Examples.filter(#"<C:comp-filter name="VTODO"><C:comp-filter name="VALARM"><C:is-not-defined/></C:comp-filter></C:comp-filter>"#)
        #expect(try Examples.matching(withoutAlarm) == ["abcd6", "abcd7"])
        let noEvents = Examples.filter(#"<C:comp-filter name="VEVENT"><C:is-not-defined/></C:comp-filter>"#)
        #expect(try Examples.matching(noEvents) == ["abcd4", "abcd5", "abcd6", "abcd7", "abcd8"])
        let noDuration = Examples.filter(#"<C:comp-filter name="VEVENT"><C:prop-filter name="DURATION"><C:is-not-defined/></C:prop-filter></C:comp-filter>"#)
        #expect(try Examples.matching(noDuration) == [])
    }

    // MARK: - Property time ranges

    @Test("prop-filter time-range on DTSTAMP, COMPLETED, and an effective DTEND")
    func propertyTimeRanges() throws {
        func property(_ component: String, _ name: String, _ start: String, _ end: String) -> String {
            Examples.filter(#"<C:comp-filter name="\#(component)"><C:prop-filter name="\#(name)"><C:time-range start="\#(start)" end="\#(end)"/></C:prop-filter></C:comp-filter>"#)
        }
        #expect(try Examples.matching(property("VEVENT", "DTSTAMP", "20060206T000000Z", "20060206T001121Z")) == ["abcd1"])
        #expect(try Examples.matching(property("VEVENT", "DTSTAMP", "20060206T000000Z", "20060206T001122Z")) == ["abcd1", "abcd2"])
        #expect(try Examples.matching(property("VTODO", "COMPLETED", "20051223T000000Z", "20051224T000000Z")) == ["abcd6"])
        #expect(try Examples.matching(property("VEVENT", "LAST-MODIFIED", "20060206T001330Z", "20060206T001331Z")) == ["abcd3"])
        // A DATE is read at midnight in the floating zone: Task #1 is due 2006-01-04.
        #expect(try Examples.matching(property("VTODO", "DUE", "20060104T000000Z", "20060104T000001Z")) == ["abcd4"])
        // abcd3 has DTSTART 10:00 US/Eastern (15:00Z) and DURATION PT1H: its effective DTEND is 16:00Z.
        #expect(try Examples.matching(property("VEVENT", "DTEND", "20060104T160000Z", "20060104T160001Z")) == ["abcd3"])
        #expect(try Examples.matching(property("VEVENT", "DTEND", "20060104T150000Z", "20060104T160000Z")) == [])
    }

    // MARK: - VEVENT

    @Test("VEVENT rows of §9.9: DTEND, DURATION, zero length, all-day")
    func eventRows() throws {
        let timed = "BEGIN:VEVENT\nUID:e1\nDTSTART:20240105T100000Z\nDTEND:20240105T110000Z\nEND:VEVENT"
        #expect(try matches(vevent(in: "20240105T105959Z", "20240105T120000Z"), timed))
        #expect(try !matches(vevent(in: "20240105T110000Z", "20240105T120000Z"), timed))  // end is exclusive
        #expect(try !matches(vevent(in: "20240105T090000Z", "20240105T100000Z"), timed))
        let instant = "BEGIN:VEVENT\nUID:e2\nDTSTART:20240105T100000Z\nEND:VEVENT"
        #expect(try matches(vevent(in: "20240105T100000Z", "20240105T100001Z"), instant))  // start <= DTSTART
        #expect(try !matches(vevent(in: "20240105T090000Z", "20240105T100000Z"), instant))
        let zeroDuration = "BEGIN:VEVENT\nUID:e3\nDTSTART:20240105T100000Z\nDURATION:PT0S\nEND:VEVENT"
        #expect(try matches(vevent(in: "20240105T100000Z", "20240105T100001Z"), zeroDuration))
        let allDay = "BEGIN:VEVENT\nUID:e4\nDTSTART;VALUE=DATE:20240105\nEND:VEVENT"  // lasts P1D
        #expect(try matches(vevent(in: "20240105T235959Z", "20240106T120000Z"), allDay))
        #expect(try !matches(vevent(in: "20240106T000000Z", "20240106T120000Z"), allDay))
        let open = Examples.filter(#"<C:comp-filter name="VEVENT"><C:time-range start="20240105T103000Z"/></C:comp-filter>"#)
        #expect(try matches(open, timed))
        let before = Examples.filter(#"<C:comp-filter name="VEVENT"><C:time-range end="20240105T100000Z"/></C:comp-filter>"#)
        #expect(try !matches(before, timed))
    }

    @Test("floating and all-day events are read in the collection's zone (Asia/Riyadh, UTC+3)")
    func floatingInRiyadh() throws {
        let riyadh = try #require(ZoneRules(ianaIdentifier: "Asia/Riyadh"))
        let floating = "BEGIN:VEVENT\nUID:f1\nDTSTART:20240301T090000\nDTEND:20240301T100000\nEND:VEVENT"
        // 09:00 in Riyadh is 06:00Z.
        #expect(try matches(vevent(in: "20240301T060000Z", "20240301T063000Z"), floating, floatingZone: riyadh))
        #expect(try !matches(vevent(in: "20240301T090000Z", "20240301T093000Z"), floating, floatingZone: riyadh))
        #expect(try matches(vevent(in: "20240301T090000Z", "20240301T093000Z"), floating))
        // The 1 March all-day event runs from 29 February 21:00Z to 1 March 21:00Z in Riyadh.
        let allDay = "BEGIN:VEVENT\nUID:f2\nDTSTART;VALUE=DATE:20240301\nDTEND;VALUE=DATE:20240302\nEND:VEVENT"
        #expect(try matches(vevent(in: "20240229T220000Z", "20240229T230000Z"), allDay, floatingZone: riyadh))
        #expect(try !matches(vevent(in: "20240229T220000Z", "20240229T230000Z"), allDay))
        #expect(try !matches(vevent(in: "20240301T220000Z", "20240301T230000Z"), allDay, floatingZone: riyadh))
        #expect(try matches(vevent(in: "20240301T220000Z", "20240301T230000Z"), allDay))
        // A zoned time is not floating: the collection's zone changes nothing.
        let zoned = "BEGIN:VEVENT\nUID:f3\nDTSTART;TZID=Europe/London:20240301T090000\nDURATION:PT1H\nEND:VEVENT"
        #expect(try matches(vevent(in: "20240301T090000Z", "20240301T093000Z"), zoned, floatingZone: riyadh))
    }

    @Test("a TZID that only the object's VTIMEZONE defines is read from it")
    func customTimeZone() throws {
        let event = """
            BEGIN:VTIMEZONE
            TZID:Jadwal Test Zone
            BEGIN:STANDARD
            DTSTART:19700101T000000
            TZOFFSETFROM:+0500
            TZOFFSETTO:+0500
            END:STANDARD
            END:VTIMEZONE
            BEGIN:VEVENT
            UID:z1
            DTSTART;TZID=Jadwal Test Zone:20240105T100000
            DURATION:PT1H
            END:VEVENT
            """
        #expect(try matches(vevent(in: "20240105T050000Z", "20240105T053000Z"), event))
        #expect(try !matches(vevent(in: "20240105T100000Z", "20240105T110000Z"), event))
        // A TZID nothing defines gives the event no place in time.
        let unknown = "BEGIN:VEVENT\nUID:z2\nDTSTART;TZID=Nowhere/Special:20240105T100000\nEND:VEVENT"
        #expect(try !matches(vevent(in: "19000101T000000Z", "29000101T000000Z"), unknown))
    }

    // MARK: - Recurrence

    @Test("an endless daily rule queried centuries ahead answers at once")
    func endlessRuleFarAhead() throws {
        let daily = "BEGIN:VEVENT\nUID:r1\nDTSTART;TZID=Asia/Riyadh:20200101T090000\nDURATION:PT1H\nRRULE:FREQ=DAILY\nEND:VEVENT"
        let clock = ContinuousClock()
        let started = clock.now
        #expect(try matches(vevent(in: "25000301T060000Z", "25000301T061000Z"), daily))
        #expect(try !matches(vevent(in: "25000301T070000Z", "25000302T060000Z"), daily))
        #expect(try matches(vevent(in: "99990101T000000Z", "99991231T000000Z"), daily))
        let open = Examples.filter(#"<C:comp-filter name="VEVENT"><C:time-range start="30000101T000000Z"/></C:comp-filter>"#)
        #expect(try matches(open, daily))
        let minutely = "BEGIN:VEVENT\nUID:r2\nDTSTART:20200101T000000Z\nRRULE:FREQ=MINUTELY;BYMONTH=2;BYMONTHDAY=30\nEND:VEVENT"  // never happens
        #expect(try !matches(vevent(in: "20240101T000000Z", "20250101T000000Z"), minutely))
        #expect(clock.now - started < .seconds(5))
    }

    @Test("an EXDATE'd instance does not match; its neighbours do")
    func excludedInstance() throws {
        let series = """
            BEGIN:VEVENT
            UID:x1
            DTSTART;TZID=Europe/Berlin:20240108T090000
            DTEND;TZID=Europe/Berlin:20240108T100000
            RRULE:FREQ=DAILY;COUNT=5
            EXDATE;TZID=Europe/Berlin:20240110T090000
            END:VEVENT
            """
        #expect(try matches(vevent(in: "20240109T080000Z", "20240109T090000Z"), series))
        #expect(try !matches(vevent(in: "20240110T080000Z", "20240110T090000Z"), series))
        #expect(try matches(vevent(in: "20240111T080000Z", "20240111T090000Z"), series))
        #expect(try !matches(vevent(in: "20240113T080000Z", "20240113T090000Z"), series))  // past COUNT
    }

    @Test("overrides move instances into and out of a range; cancelled ones leave it")
    func overrides() throws {
        // Appendix B abcd2: the 4 January instance moved from 17:00Z to 19:00Z.
        #expect(try Examples.matching(vevent(in: "20060104T170000Z", "20060104T180000Z")) == [])
        #expect(try Examples.matching(vevent(in: "20060104T190000Z", "20060104T193000Z")) == ["abcd2"])
        #expect(try Examples.matching(vevent(in: "20060105T170000Z", "20060105T180000Z")) == ["abcd2"])

        let series = """
            BEGIN:VEVENT
            UID:o1
            DTSTART:20240101T100000Z
            DURATION:PT1H
            RRULE:FREQ=WEEKLY;COUNT=4
            SUMMARY:Weekly
            END:VEVENT
            BEGIN:VEVENT
            UID:o1
            RECURRENCE-ID:20240108T100000Z
            DTSTART:20240301T100000Z
            DURATION:PT1H
            SUMMARY:Moved far
            END:VEVENT
            BEGIN:VEVENT
            UID:o1
            RECURRENCE-ID:20240115T100000Z
            DTSTART:20240115T100000Z
            DURATION:PT1H
            STATUS:CANCELLED
            END:VEVENT
            """
        #expect(try !matches(vevent(in: "20240108T000000Z", "20240109T000000Z"), series))
        #expect(try matches(vevent(in: "20240301T000000Z", "20240302T000000Z"), series))
        #expect(try !matches(vevent(in: "20240115T000000Z", "20240116T000000Z"), series))
        #expect(try matches(vevent(in: "20240122T000000Z", "20240123T000000Z"), series))
        // The time-range and the SUMMARY test must hold for the same component.
        let movedSummary = Examples.filter(#"<C:comp-filter name="VEVENT"><C:time-range start="20240301T000000Z" end="20240302T000000Z"/><C:prop-filter name="SUMMARY"><C:text-match>moved</C:text-match></C:prop-filter></C:comp-filter>"#)
        #expect(try matches(movedSummary, series))
        let weeklyThen = movedSummary.replacingOccurrences(of: ">moved<", with: ">weekly<")
        #expect(try !matches(weeklyThen, series))
        // A wholly cancelled event still has its time (§9.9 looks only at time).
        let cancelled = "BEGIN:VEVENT\nUID:o2\nDTSTART:20240101T100000Z\nSTATUS:CANCELLED\nEND:VEVENT"
        #expect(try matches(vevent(in: "20240101T000000Z", "20240102T000000Z"), cancelled))
    }

    // MARK: - VTODO, VJOURNAL, VFREEBUSY

    @Test("the VTODO table of §9.9, row by row")
    func todoRows() throws {
        func todo(in start: String, _ end: String) -> String {
            Examples.filter(#"<C:comp-filter name="VTODO"><C:time-range start="\#(start)" end="\#(end)"/></C:comp-filter>"#)
        }
        func body(_ lines: String) -> String { "BEGIN:VTODO\nUID:t\n" + lines + "\nEND:VTODO" }
        // DTSTART + DURATION: start <= DTSTART+DURATION and (end > DTSTART or end >= DTSTART+DURATION).
        let startDuration = body("DTSTART:20240105T100000Z\nDURATION:PT2H")
        #expect(try matches(todo(in: "20240105T120000Z", "20240105T130000Z"), startDuration))  // touches the end
        #expect(try !matches(todo(in: "20240105T120001Z", "20240105T130000Z"), startDuration))
        #expect(try !matches(todo(in: "20240105T090000Z", "20240105T100000Z"), startDuration))
        // DTSTART + DUE: (start < DUE or start <= DTSTART) and (end > DTSTART or end >= DUE).
        let startDue = body("DTSTART:20240105T100000Z\nDUE:20240105T120000Z")
        #expect(try matches(todo(in: "20240105T115959Z", "20240105T130000Z"), startDue))
        #expect(try !matches(todo(in: "20240105T120000Z", "20240105T130000Z"), startDue))
        #expect(try !matches(todo(in: "20240105T090000Z", "20240105T100000Z"), startDue))
        // DTSTART only: start <= DTSTART < end.
        let startOnly = body("DTSTART:20240105T100000Z")
        #expect(try matches(todo(in: "20240105T100000Z", "20240105T100001Z"), startOnly))
        #expect(try !matches(todo(in: "20240105T090000Z", "20240105T100000Z"), startOnly))
        // DUE only: start < DUE <= end.
        let dueOnly = body("DUE:20240105T120000Z")
        #expect(try matches(todo(in: "20240105T110000Z", "20240105T120000Z"), dueOnly))
        #expect(try !matches(todo(in: "20240105T120000Z", "20240105T130000Z"), dueOnly))
        // COMPLETED and CREATED: (start <= CREATED or start <= COMPLETED) and (end >= CREATED or end >= COMPLETED).
        let both = body("CREATED:20240101T000000Z\nCOMPLETED:20240110T000000Z")
        #expect(try matches(todo(in: "20240105T000000Z", "20240106T000000Z"), both))
        #expect(try !matches(todo(in: "20240111T000000Z", "20240112T000000Z"), both))
        #expect(try matches(todo(in: "20231201T000000Z", "20240101T000000Z"), both))
        // COMPLETED only: start <= COMPLETED <= end.
        let completed = body("COMPLETED:20240110T000000Z")
        #expect(try matches(todo(in: "20240109T000000Z", "20240110T000000Z"), completed))
        #expect(try !matches(todo(in: "20240110T000001Z", "20240111T000000Z"), completed))
        // CREATED only: end > CREATED.
        let created = body("CREATED:20240101T000000Z")
        #expect(try matches(todo(in: "20300101T000000Z", "20300102T000000Z"), created))
        #expect(try !matches(todo(in: "20231231T000000Z", "20240101T000000Z"), created))
        // Nothing: always.
        #expect(try matches(todo(in: "19000101T000000Z", "19000102T000000Z"), body("SUMMARY:Someday")))
        // Appendix B: Task #3 (due 25 December, completed 23 December) and Task #4 (due 1 January).
        #expect(try Examples.matching(todo(in: "20051224T000000Z", "20060102T000000Z")) == ["abcd6", "abcd7"])
    }

    @Test("VJOURNAL: a DATE lasts a day, a DATE-TIME is an instant, no DTSTART never matches")
    func journals() throws {
        func journal(in start: String, _ end: String) -> String {
            Examples.filter(#"<C:comp-filter name="VJOURNAL"><C:time-range start="\#(start)" end="\#(end)"/></C:comp-filter>"#)
        }
        let dated = "BEGIN:VJOURNAL\nUID:j1\nDTSTART;VALUE=DATE:20240105\nEND:VJOURNAL"
        #expect(try matches(journal(in: "20240105T230000Z", "20240106T010000Z"), dated))
        #expect(try !matches(journal(in: "20240106T000000Z", "20240106T010000Z"), dated))
        let riyadh = try #require(ZoneRules(ianaIdentifier: "Asia/Riyadh"))
        #expect(try matches(journal(in: "20240104T220000Z", "20240104T230000Z"), dated, floatingZone: riyadh))
        let timed = "BEGIN:VJOURNAL\nUID:j2\nDTSTART:20240105T100000Z\nEND:VJOURNAL"
        #expect(try matches(journal(in: "20240105T100000Z", "20240105T100001Z"), timed))
        #expect(try !matches(journal(in: "20240105T090000Z", "20240105T100000Z"), timed))
        let undated = "BEGIN:VJOURNAL\nUID:j3\nSUMMARY:Notes\nEND:VJOURNAL"
        #expect(try !matches(journal(in: "19000101T000000Z", "29000101T000000Z"), undated))
    }

    @Test("VFREEBUSY: DTSTART/DTEND with an inclusive DTEND, else the FREEBUSY periods")
    func freeBusyRows() throws {
        func freeBusy(in start: String, _ end: String) -> String {
            Examples.filter(#"<C:comp-filter name="VFREEBUSY"><C:time-range start="\#(start)" end="\#(end)"/></C:comp-filter>"#)
        }
        // abcd8 runs to DTEND 20060108T000000Z, which `start <= DTEND` includes.
        #expect(try Examples.matching(freeBusy(in: "20060108T000000Z", "20060109T000000Z")) == ["abcd8"])
        #expect(try Examples.matching(freeBusy(in: "20060108T000001Z", "20060109T000000Z")) == [])
        let periodsOnly = "BEGIN:VFREEBUSY\nUID:fb\nFREEBUSY;FBTYPE=FREE:20240105T100000Z/PT1H,20240106T100000Z/20240106T110000Z\nEND:VFREEBUSY"
        #expect(try matches(freeBusy(in: "20240106T103000Z", "20240106T120000Z"), periodsOnly))
        #expect(try matches(freeBusy(in: "20240105T105959Z", "20240105T120000Z"), periodsOnly))
        #expect(try !matches(freeBusy(in: "20240105T110000Z", "20240106T100000Z"), periodsOnly))
        #expect(try !matches(freeBusy(in: "20240105T110000Z", "20240106T100000Z"), "BEGIN:VFREEBUSY\nUID:empty\nEND:VFREEBUSY"))
    }

    // MARK: - VALARM

    @Test("VALARM: relative to start or end of each instance, absolute, and repeated")
    func alarms() throws {
        func alarm(_ parent: String, in start: String, _ end: String) -> String {
            Examples.filter(#"<C:comp-filter name="\#(parent)"><C:comp-filter name="VALARM"><C:time-range start="\#(start)" end="\#(end)"/></C:comp-filter></C:comp-filter>"#)
        }
        let weekly = """
            BEGIN:VEVENT
            UID:a1
            DTSTART;TZID=Asia/Riyadh:20240101T090000
            DTEND;TZID=Asia/Riyadh:20240101T100000
            RRULE:FREQ=WEEKLY
            BEGIN:VALARM
            ACTION:DISPLAY
            TRIGGER:-PT15M
            END:VALARM
            BEGIN:VALARM
            ACTION:DISPLAY
            TRIGGER;RELATED=END:PT5M
            END:VALARM
            END:VEVENT
            """
        // Each Monday at 05:45Z (15 minutes before 09:00 Riyadh) and 07:05Z.
        #expect(try matches(alarm("VEVENT", in: "20240101T054500Z", "20240101T054600Z"), weekly))
        #expect(try matches(alarm("VEVENT", in: "20350101T070500Z", "20350101T070501Z"), weekly))  // a Monday
        #expect(try !matches(alarm("VEVENT", in: "20350102T000000Z", "20350107T000000Z"), weekly))
        #expect(try !matches(alarm("VEVENT", in: "20240101T054600Z", "20240101T070500Z"), weekly))
        // The event itself overlaps that range, but no alarm fires in it.
        #expect(try matches(vevent(in: "20240101T054600Z", "20240101T070500Z"), weekly))

        let repeated = """
            BEGIN:VTODO
            UID:a2
            DUE:20240110T120000Z
            BEGIN:VALARM
            ACTION:DISPLAY
            TRIGGER;VALUE=DATE-TIME:20240110T080000Z
            REPEAT:3
            DURATION:PT1H
            END:VALARM
            END:VTODO
            """
        // Fires 08:00, 09:00, 10:00, 11:00Z.
        #expect(try matches(alarm("VTODO", in: "20240110T103000Z", "20240110T110001Z"), repeated))
        #expect(try !matches(alarm("VTODO", in: "20240110T110001Z", "20240110T235959Z"), repeated))
        #expect(try !matches(alarm("VTODO", in: "20240110T081500Z", "20240110T084500Z"), repeated))
        // Appendix B: Task #1's alarm is 10 minutes before its DATE due day, 23:50Z on 3 January.
        #expect(try Examples.matching(alarm("VTODO", in: "20060103T235000Z", "20060103T235100Z")) == ["abcd4"])
        // Events of Appendix B have no alarms.
        #expect(try Examples.matching(alarm("VEVENT", in: "20000101T000000Z", "20300101T000000Z")) == [])
    }
}
