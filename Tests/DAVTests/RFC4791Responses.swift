/// The calendar-data of the RFC 4791 §7.8.1–§7.8.4 responses, exactly as the RFC prints them.
/// Where a print disagrees with Appendix B or with the RFC's own rules, the tests say so and
/// correct it next to the assertion, so every deviation stays visible.
enum RFC4791Responses {
    /// §7.8.1, abcd2 (printed with the second override, as `RFC4791Examples.abcd2WithSecondOverride`).
    static let partialAbcd2 = #"""
        BEGIN:VCALENDAR
        VERSION:2.0
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
        DTSTART;TZID=US/Eastern:20060102T120000
        DURATION:PT1H
        RRULE:FREQ=DAILY;COUNT=5
        SUMMARY:Event #2
        UID:00959BC664CA650E933C892C@example.com
        END:VEVENT
        BEGIN:VEVENT
        DTSTART;TZID=US/Eastern:20060104T140000
        DURATION:PT1H
        RECURRENCE-ID;TZID=US/Eastern:20060104T120000
        SUMMARY:Event #2 bis
        UID:00959BC664CA650E933C892C@example.com
        END:VEVENT
        BEGIN:VEVENT
        DTSTART;TZID=US/Eastern:20060106T140000
        DURATION:PT1H
        RECURRENCE-ID;TZID=US/Eastern:20060106T120000
        SUMMARY:Event #2 bis bis
        UID:00959BC664CA650E933C892C@example.com
        END:VEVENT
        END:VCALENDAR
        """#

    /// §7.8.1, abcd3. Printed with a PRODID the request did not select.
    static let partialAbcd3 = #"""
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
        DTSTART;TZID=US/Eastern:20060104T100000
        DURATION:PT1H
        SUMMARY:Event #3
        UID:DC6C50A017428C5216A2F1CD@example.com
        END:VEVENT
        END:VCALENDAR
        """#

    /// §7.8.2, abcd2: the master and only the override touching 3–4 January.
    static let limitedAbcd2 = #"""
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
        """#

    /// §7.8.2, abcd3. Printed with an X-ABC-GUID that Appendix B's abcd3 lacks.
    static let limitedAbcd3 = #"""
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
        X-ABC-GUID:E1CX5Dr-0007ym-Hz@example.com
        END:VEVENT
        END:VCALENDAR
        """#

    /// §7.8.3, abcd2. Printed without the "Z" that §9.6.5 requires on converted times.
    static let expandedAbcd2 = #"""
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//Example Corp.//CalDAV Client//EN
        BEGIN:VEVENT
        DTSTAMP:20060206T001121Z
        DTSTART:20060103T170000
        DURATION:PT1H
        RECURRENCE-ID:20060103T170000
        SUMMARY:Event #2
        UID:00959BC664CA650E933C892C@example.com
        END:VEVENT
        BEGIN:VEVENT
        DTSTAMP:20060206T001121Z
        DTSTART:20060104T190000
        DURATION:PT1H
        RECURRENCE-ID:20060104T170000
        SUMMARY:Event #2 bis
        UID:00959BC664CA650E933C892C@example.com
        END:VEVENT
        END:VCALENDAR
        """#

    /// §7.8.3, abcd3. Same missing "Z", and the X-ABC-GUID Appendix B lacks.
    static let expandedAbcd3 = #"""
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//Example Corp.//CalDAV Client//EN
        BEGIN:VEVENT
        ATTENDEE;PARTSTAT=ACCEPTED;ROLE=CHAIR:mailto:cyrus@example.com
        ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:lisa@example.com
        DTSTAMP:20060206T001220Z
        DTSTART:20060104T150000
        DURATION:PT1H
        LAST-MODIFIED:20060206T001330Z
        ORGANIZER:mailto:cyrus@example.com
        SEQUENCE:1
        STATUS:TENTATIVE
        SUMMARY:Event #3
        UID:DC6C50A017428C5216A2F1CD@example.com
        X-ABC-GUID:E1CX5Dr-0007ym-Hz@example.com
        END:VEVENT
        END:VCALENDAR
        """#

    /// §7.8.4, abcd8. Printed with DTSTART/DTEND at 10:00Z where Appendix B has 00:00Z.
    static let freeBusyLimitedAbcd8 = #"""
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//Example Corp.//CalDAV Client//EN
        BEGIN:VFREEBUSY
        ORGANIZER;CN="Bernard Desruisseaux":mailto:bernard@example.com
        UID:76ef34-54a3d2@example.com
        DTSTAMP:20050530T123421Z
        DTSTART:20060101T100000Z
        DTEND:20060108T100000Z
        FREEBUSY;FBTYPE=BUSY-TENTATIVE:20060102T100000Z/20060102T120000Z
        END:VFREEBUSY
        END:VCALENDAR
        """#

}
