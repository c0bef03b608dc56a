import Foundation
import Testing
@testable import ICalendar

@Suite struct TimeZoneTests {
    func utc(_ s: String) throws -> Int64 { try instant(s) }

    @Test func ianaWallTimesAcrossDST() throws {
        let london = try #require(ZoneRules(ianaIdentifier: "Europe/London"))
        #expect(london.utcSeconds(for: LocalDateTime(year: 2026, month: 1, day: 5, hour: 9)) == (try utc("2026-01-05T09:00:00Z")))
        #expect(london.utcSeconds(for: LocalDateTime(year: 2026, month: 4, day: 6, hour: 9)) == (try utc("2026-04-06T08:00:00Z")))
        let newYork = try #require(ZoneRules(ianaIdentifier: "America/New_York"))
        // 02:30 does not exist on 2026-03-08: read with the offset before the gap (= 03:30 EDT).
        #expect(newYork.utcSeconds(for: LocalDateTime(year: 2026, month: 3, day: 8, hour: 2, minute: 30)) == (try utc("2026-03-08T07:30:00Z")))
        // 01:30 happens twice on 2026-11-01: the first (EDT) one.
        #expect(newYork.utcSeconds(for: LocalDateTime(year: 2026, month: 11, day: 1, hour: 1, minute: 30)) == (try utc("2026-11-01T05:30:00Z")))
        #expect(newYork.local(forUTC: try utc("2026-11-01T06:30:00Z")) == LocalDateTime(year: 2026, month: 11, day: 1, hour: 1, minute: 30))
    }

    @Test func tableAgreesWithFoundation() throws {
        for id in ["Europe/London", "America/Santiago", "Australia/Lord_Howe", "Asia/Tehran", "Africa/Casablanca", "Pacific/Apia", "America/Sao_Paulo"] {
            let rules = try #require(ZoneRules(ianaIdentifier: id))
            let tz = try #require(TimeZone(identifier: id))
            var t: Int64 = -1_500_000_000
            while t < 4_000_000_000 {
                #expect(rules.offset(atUTC: t) == tz.secondsFromGMT(for: Date(timeIntervalSince1970: Double(t))), "\(id) at \(t)")
                t += 86_400 * 13 + 3_607
            }
        }
    }

    @Test(arguments: [("Arab Standard Time", "Asia/Riyadh"), ("GMT Standard Time", "Europe/London"), ("Eastern Standard Time", "America/New_York"),
                      ("W. Europe Standard Time", "Europe/Berlin"), ("India Standard Time", "Asia/Kolkata"), ("Tokyo Standard Time", "Asia/Tokyo"),
                      ("/mozilla.org/20070129_1/Europe/Paris", "Europe/Paris"), ("europe/london", "Europe/London"), (" Asia/Riyadh ", "Asia/Riyadh"), ("/softwarestudio.org/Olson_20011030_5/America/Chicago", "America/Chicago")])
    func namesMapToIANA(_ tzid: String, _ iana: String) {
        #expect(TimeZoneResolver.ianaIdentifier(for: tzid) == iana)
    }

    @Test func everyWindowsNameResolves() {
        #expect(WindowsZones.allNames.count > 130)
        for name in WindowsZones.allNames {
            #expect(TimeZoneResolver().rules(for: name) != nil, "\(name)")
        }
    }

    @Test func calendarVTimeZoneUsedForUnknownTZID() throws {
        let calendar = try ICalendarParser().parseCalendar(try Fixtures.text("outlook.ics"))
        let resolver = TimeZoneResolver(calendar: calendar)
        #expect(resolver.problems.isEmpty)
        let custom = try #require(resolver.rules(for: "(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna"))
        #expect(custom.utcSeconds(for: LocalDateTime(year: 2026, month: 7, day: 8, hour: 9)) == (try utc("2026-07-08T07:00:00Z")))
        #expect(custom.utcSeconds(for: LocalDateTime(year: 2026, month: 1, day: 8, hour: 9)) == (try utc("2026-01-08T08:00:00Z")))
        let result = CalendarExpander(calendar: calendar).expand(from: try utc("2026-01-01T00:00:00Z"), to: try utc("2027-01-01T00:00:00Z"))
        #expect(result.problems.isEmpty)
        let offsite = try #require(result.occurrences.first { $0.summary == "Berlin offsite" })
        #expect(offsite.start == .instant(try utc("2026-07-08T07:00:00Z")))
        // "Arab Standard Time" is a Windows name: Riyadh, UTC+3, first Monday monthly, 4 times.
        let review = result.occurrences.filter { $0.summary == "Quarterly review" }.map(\.start.iso8601)
        #expect(review == ["2026-01-05T10:00:00Z", "2026-02-02T10:00:00Z", "2026-03-02T10:00:00Z", "2026-04-06T10:00:00Z"])
    }

    @Test(arguments: ["Europe/London", "America/New_York", "Asia/Riyadh", "Australia/Sydney", "America/Santiago", "Asia/Tehran", "Pacific/Auckland", "Europe/Moscow"])
    func generatedVTimeZoneMatchesFoundation(_ id: String) throws {
        let component = try #require(VTimeZoneWriter.component(forIANAIdentifier: id, fromYear: 2000))
        // It survives text and agrees with Foundation hour by hour-ish through 2036.
        let reparsed = try #require(try ICalendarParser().parse(component.serialized).first)
        #expect(reparsed == component)
        let rules = try ZoneRules(vtimezone: reparsed)
        let tz = try #require(TimeZone(identifier: id))
        var t = try utc("2000-01-02T00:00:00Z")
        let end = try utc("2036-12-01T00:00:00Z")
        while t < end {
            #expect(rules.offset(atUTC: t) == tz.secondsFromGMT(for: Date(timeIntervalSince1970: Double(t))), "\(id) \(LocalDateTime(secondsSinceEpoch: t))")
            t += 86_400 * 5 + 3_599
        }
        #expect(component.components.count < 50, "compact: \(component.components.count) observances")
    }

    @Test func everyMondayInRiyadhAndLondonAcrossDST() throws {
        let text = """
        BEGIN:VCALENDAR\r
        BEGIN:VEVENT\r
        UID:riyadh\r
        DTSTART;TZID=Asia/Riyadh:20260302T090000\r
        DTEND;TZID=Asia/Riyadh:20260302T100000\r
        RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=6\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:london\r
        DTSTART;TZID=Europe/London:20260316T090000\r
        DURATION:PT1H\r
        RRULE:FREQ=WEEKLY;COUNT=3\r
        END:VEVENT\r
        END:VCALENDAR\r

        """
        let calendar = try ICalendarParser().parseCalendar(text)
        let result = CalendarExpander(calendar: calendar).expand(from: try utc("2026-01-01T00:00:00Z"), to: try utc("2027-01-01T00:00:00Z"))
        let riyadh = result.occurrences.filter { $0.uid == "riyadh" }.map(\.start.iso8601)
        #expect(riyadh == ["2026-03-02T06:00:00Z", "2026-03-09T06:00:00Z", "2026-03-16T06:00:00Z", "2026-03-23T06:00:00Z", "2026-03-30T06:00:00Z", "2026-04-06T06:00:00Z"])
        let london = result.occurrences.filter { $0.uid == "london" }.map { $0.start.iso8601 + "/" + $0.end.iso8601 }
        #expect(london == ["2026-03-16T09:00:00Z/2026-03-16T10:00:00Z", "2026-03-23T09:00:00Z/2026-03-23T10:00:00Z", "2026-03-30T08:00:00Z/2026-03-30T09:00:00Z"])
    }
}

@Suite struct WritingTimeZonesTests {
    @Test func missingZonesAreAddedAndReadBackTheSame() throws {
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:1\r\nDTSTART;TZID=America/New_York:20261101T013000\r\nDTEND;TZID=Arab Standard Time:20261101T120000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let calendar = try ICalendarParser().parseCalendar(text)
        let completed = calendar.addingMissingTimeZones(fromYear: 2020)
        #expect(completed.components(named: "VTIMEZONE").compactMap { $0.first("TZID")?.value } == ["America/New_York", "Arab Standard Time"])
        #expect(completed.addingMissingTimeZones() == completed)
        // Read with only the written VTIMEZONEs, the instants are the same as with IANA.
        let fromVTimeZone = try #require(TimeZoneResolver(calendar: completed, readingKnownZones: true).calendarZones["America/New_York"])
        let iana = try #require(ZoneRules(ianaIdentifier: "America/New_York"))
        let local = LocalDateTime(year: 2026, month: 11, day: 1, hour: 1, minute: 30)
        #expect(fromVTimeZone.utcSeconds(for: local) == iana.utcSeconds(for: local))
    }
}
