import Testing
@testable import ICalendar

/// Examples from RFC 5545 §3.8.5.3 and cases the differential fixtures cannot cover
/// (the reference has quirks there).
@Suite struct RecurrenceTests {
    func expand(_ rule: String, start: LocalDateTime, limit: Int = 1000) throws -> [String] {
        var iterator = RecurrenceIterator(rule: try RecurrenceRule.parse(rule), start: start)
        var out: [String] = []
        while out.count < limit, let next = iterator.next() { out.append(next.description) }
        return out
    }

    let start1997 = LocalDateTime(year: 1997, month: 9, day: 2, hour: 9)

    @Test func dailyForTenOccurrences() throws {
        let r = try expand("FREQ=DAILY;COUNT=10", start: start1997)
        #expect(r.count == 10 && r.last == "1997-09-11T09:00:00")
    }

    @Test func everyOtherWeekWithWeekStartMatters() throws {
        let start = LocalDateTime(year: 1997, month: 8, day: 5, hour: 9)
        #expect(try expand("FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=MO", start: start).map { String($0.prefix(10)) }
            == ["1997-08-05", "1997-08-10", "1997-08-19", "1997-08-24"])
        #expect(try expand("FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU", start: start).map { String($0.prefix(10)) }
            == ["1997-08-05", "1997-08-17", "1997-08-19", "1997-08-31"])
    }

    @Test func lastWorkDayOfMonth() throws {
        let r = try expand("FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=3", start: start1997)
        #expect(r.map { String($0.prefix(10)) } == ["1997-09-30", "1997-10-31", "1997-11-28"])
    }

    @Test func fridayThe13th() throws {
        let r = try expand("FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13;COUNT=5", start: start1997)
        #expect(r.map { String($0.prefix(10)) } == ["1998-02-13", "1998-03-13", "1998-11-13", "1999-08-13", "2000-10-13"])
    }

    @Test func usPresidentialElectionDay() throws {
        let start = LocalDateTime(year: 1996, month: 11, day: 5, hour: 9)
        let r = try expand("FREQ=YEARLY;INTERVAL=4;BYMONTH=11;BYDAY=TU;BYMONTHDAY=2,3,4,5,6,7,8;COUNT=3", start: start)
        #expect(r.map { String($0.prefix(10)) } == ["1996-11-05", "2000-11-07", "2004-11-02"])
    }

    @Test func weekNumberTwentyMonday() throws {
        let start = LocalDateTime(year: 1997, month: 5, day: 12, hour: 9)
        #expect(try expand("FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO;COUNT=3", start: start).map { String($0.prefix(10)) }
            == ["1997-05-12", "1998-05-11", "1999-05-17"])
    }

    @Test func everyTwentyMinutesDuringOfficeHours() throws {
        let r = try expand("FREQ=MINUTELY;INTERVAL=20;BYHOUR=9,10,11,12,13,14,15,16", start: start1997, limit: 25)
        #expect(r[0] == "1997-09-02T09:00:00" && r[23] == "1997-09-02T16:40:00" && r[24] == "1997-09-03T09:00:00")
    }

    @Test func invalidDatesAreSkippedNotRolled() throws {
        let start = LocalDateTime(year: 2026, month: 1, day: 31, hour: 9)
        #expect(try expand("FREQ=MONTHLY;COUNT=4", start: start).map { String($0.prefix(10)) } == ["2026-01-31", "2026-03-31", "2026-05-31", "2026-07-31"])
        let leap = LocalDateTime(year: 2024, month: 2, day: 29)
        #expect(try expand("FREQ=YEARLY;COUNT=2", start: leap).map { String($0.prefix(10)) } == ["2024-02-29", "2028-02-29"])
    }

    @Test func untilIsInclusive() throws {
        let r = try expand("FREQ=DAILY;UNTIL=19970904T090000", start: start1997)
        #expect(r.count == 3)
    }

    @Test func fastForwardGivesTheSameInstances() throws {
        let rule = try RecurrenceRule.parse("FREQ=HOURLY;INTERVAL=7;BYDAY=MO,TH")
        var slow = RecurrenceIterator(rule: rule, start: start1997)
        var fast = RecurrenceIterator(rule: rule, start: start1997)
        let target = LocalDateTime(year: 2001, month: 3, day: 1)
        fast.fastForward(to: target)
        var fromSlow: [LocalDateTime] = []
        while let n = slow.next(), fromSlow.count < 20 { if n >= target { fromSlow.append(n) } }
        var fromFast: [LocalDateTime] = []
        while let n = fast.next(), fromFast.count < 20 { if n >= target { fromFast.append(n) } }
        #expect(fromSlow == fromFast && fromFast.count == 20)
    }

    @Test func realWorldGoogleSeriesWithOverrideAndCancellation() throws {
        let calendar = try ICalendarParser().parseCalendar(try Fixtures.text("google.ics"))
        let from = try instant("2026-03-02T00:00:00Z"), to = try instant("2026-03-14T00:00:00Z")
        let result = CalendarExpander(calendar: calendar).expand(from: from, to: to)
        #expect(result.problems.isEmpty)
        let listed = result.occurrences.map { "\($0.start.iso8601) \($0.summary ?? "")" }
        #expect(listed == ["2026-03-02T09:00:00Z Sync", "2026-03-04T09:00:00Z Sync", "2026-03-06T09:00:00Z Sync",
                           "2026-03-09T11:00:00Z Sync (moved)", "2026-03-13T09:00:00Z Sync"])
        let withCancelled = CalendarExpander(calendar: calendar, options: ExpansionOptions(includeCancelled: true)).expand(from: from, to: to)
        #expect(withCancelled.occurrences.count == 6)
        let moved = try #require(result.occurrences.first { $0.isOverride })
        #expect(moved.recurrenceId == .instant(try instant("2026-03-09T09:00:00Z")))
    }

    @Test func allDayAndThunderbirdExdate() throws {
        let apple = try ICalendarParser().parseCalendar(try Fixtures.text("apple.ics"))
        let r = CalendarExpander(calendar: apple).expand(from: try instant("2026-01-01T00:00:00Z"), to: try instant("2026-03-02T00:00:00Z"))
        let allDay = try #require(r.occurrences.first { $0.isAllDay })
        #expect(allDay.start == .date(CivilDate(year: 2026, month: 3, day: 1)) && allDay.end == .date(CivilDate(year: 2026, month: 3, day: 2)))
        // Weekly Monday standup, 19 Jan excluded.
        let mondays = r.occurrences.filter { !$0.isAllDay }.map { String($0.start.iso8601.prefix(10)) }
        #expect(mondays.first == "2026-01-05" && !mondays.contains("2026-01-19") && mondays.count == 7)
        let thunderbird = try ICalendarParser().parseCalendar(try Fixtures.text("thunderbird.ics"))
        let t = CalendarExpander(calendar: thunderbird).expand(from: try instant("2026-01-01T00:00:00Z"), to: try instant("2027-01-01T00:00:00Z"))
        let dates = t.occurrences.map { String($0.start.iso8601.prefix(10)) }
        #expect(dates.count == 11 && !dates.contains("2026-11-26") && dates.contains("2026-12-31"))
    }
}

@Suite struct BoundsTests {
    func bounds(_ body: String) throws -> (start: Int64, end: Int64?)? {
        let calendar = try ICalendarParser().parseCalendar("BEGIN:VCALENDAR\r\n\(body)END:VCALENDAR\r\n")
        let set = RecurrenceSet(uid: "b", components: calendar.components)
        return try set.bounds(resolver: TimeZoneResolver(calendar: calendar))
    }

    @Test func finiteOpenAndMovedSeries() throws {
        let finite = try #require(try bounds("BEGIN:VEVENT\r\nUID:b\r\nDTSTART:20260105T090000Z\r\nDTEND:20260105T100000Z\r\nRRULE:FREQ=WEEKLY;COUNT=3\r\nEND:VEVENT\r\n"))
        let (s1, e1) = (try instant("2026-01-05T09:00:00Z"), try instant("2026-01-19T10:00:00Z"))
        #expect(finite.start == s1 && finite.end == e1)
        let open = try #require(try bounds("BEGIN:VEVENT\r\nUID:b\r\nDTSTART;TZID=Europe/London:20260705T090000\r\nRRULE:FREQ=DAILY\r\nEND:VEVENT\r\n"))
        let s2 = try instant("2026-07-05T08:00:00Z")
        #expect(open.start == s2 && open.end == nil)
        // An override moved before the first instance widens the start.
        let moved = try #require(try bounds("BEGIN:VEVENT\r\nUID:b\r\nDTSTART:20260105T090000Z\r\nRRULE:FREQ=DAILY;UNTIL=20260110T090000Z\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:b\r\nRECURRENCE-ID:20260107T090000Z\r\nDTSTART:20260101T090000Z\r\nEND:VEVENT\r\n"))
        let (s3, e3) = (try instant("2026-01-01T09:00:00Z"), try instant("2026-01-10T09:00:00Z"))
        #expect(moved.start == s3 && moved.end == e3)
        let allDay = try #require(try bounds("BEGIN:VEVENT\r\nUID:b\r\nDTSTART;VALUE=DATE:20260301\r\nEND:VEVENT\r\n"))
        let (s4, e4) = (try instant("2026-03-01T00:00:00Z"), try instant("2026-03-02T00:00:00Z"))
        #expect(allDay.start == s4 && allDay.end == e4)
    }
}
