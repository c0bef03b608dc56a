import Foundation
import ICalendar
@testable import JadwalCore
import Scheduling
import Testing

@Suite("Routines as recurring events")
struct RoutineEventTests {
    static let now = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z, a Thursday

    static func fields(_ start: String, _ end: String, _ days: DaysOfWeek, zone: String, kind: RoutineKind = .routine, reminder: Int? = nil) throws -> RoutineEvent.Fields {
        let routine = try Routine(
            id: "r", name: "Routine", hours: WeeklyHours(start: TimeOfDay(parsing: start), end: TimeOfDay(parsing: end), days: days),
            reminderMinutes: reminder)
        return RoutineEvent.Fields(routine: routine, kind: kind, timeZone: zone)
    }

    static func object(_ text: String) -> CalendarObject {
        CalendarObject(calendarID: UUID(), name: "r.ics", uid: "r", component: .event, icalendar: text, etag: "\"1\"", firstStart: nil, lastEnd: nil, updatedAt: now)
    }

    /// The stored event, expanded the way busy time and CalDAV queries expand it, gives the same
    /// instants as Scheduling's own reading of the routine: every occurrence of a year, in zones
    /// with daylight saving (Lord Howe's is half an hour), nights crossing midnight, hours that
    /// fall in the spring-forward gap or the repeated fall-back hour.
    @Test("the stored series has the instants Scheduling computes, every day of a year, across daylight-saving changes",
          arguments: ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Riyadh"])
    func sameInstants(zone: String) throws {
        let cases: [(String, String, DaysOfWeek)] = [
            ("23:00", "07:00", .daily), ("01:30", "02:30", .daily), ("02:15", "04:00", .daily), ("01:15", "01:45", .daily), ("02:30", "03:00", .daily),
            ("18:00", "19:30", .weekdays), ("00:00", "01:00", .weekends), ("12:00", "11:00", try DaysOfWeek([3])),
        ]
        let timeZone = try #require(TimeZone(identifier: zone))
        let year = try TimeRange(start: Self.now, end: Self.now.addingTimeInterval(365 * 86_400))
        let calendar = CalendarCollection(id: UUID(), accountID: UUID(), slug: "routines", displayName: "Routine", components: [.event], createdAt: Self.now)
        for (start, end, days) in cases {
            let fields = try Self.fields(start, end, days, zone: zone)
            let text = RoutineEvent.icalendar(fields, uid: "r", existing: nil, now: Self.now)
            // Both from the year's start: the series begins on its first day, while Scheduling also
            // returns the night before, and either may return an occurrence running into the year.
            let expanded = AccountBusyTime().occurrences(of: Self.object(text), calendar: calendar, accountZone: zone, in: year, limit: 1000)
                .map(\.range).filter { $0.start >= Self.now }
            let computed = fields.routine.hours.occurrences(in: year, timeZone: timeZone).filter { $0.start >= Self.now }
            // The one known difference: on a spring-forward night, hours that start in the gap
            // and end before the moved start (02:30–03:00) are kept by Scheduling with their clock
            // length (03:30–04:00); the expander reads the DTEND as 03:00 and drops the instance.
            let movedPastEnd = computed.filter { range in
                let start = Self.wall(range.start, timeZone), end = Self.wall(range.end, timeZone)
                return start != fields.routine.start && end != fields.routine.end && range.duration == fields.routine.hours.clockLength
            }
            #expect(movedPastEnd.count <= 1, "at most one spring-forward night a year: \(movedPastEnd)")
            let expected = computed.filter { !movedPastEnd.contains($0) }
            let differences = Set(expanded).symmetricDifference(expected).sorted { $0.start < $1.start }
            #expect(differences.isEmpty && expanded.count == expected.count, "\(start)–\(end) \(days) in \(zone): \(differences.prefix(4))")
        }
    }

    static func wall(_ instant: Date, _ zone: TimeZone) -> TimeOfDay? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.hour, .minute], from: instant)
        return try? TimeOfDay(hour: parts.hour ?? 0, minute: parts.minute ?? 0)
    }

    @Test("written with DTEND in the routine's zone, a weekly rule, the reminder and the kind; read back the same")
    func roundTrip() throws {
        let fields = try Self.fields("23:30", "00:15", try DaysOfWeek([5, 6]), zone: "Asia/Riyadh", kind: .sleep, reminder: 10)
        let text = RoutineEvent.icalendar(fields, uid: "r@jadwal", existing: nil, now: Self.now)
        // 1 January 2026 is a Thursday: the first Friday is the 2nd.
        for line in ["DTSTART;TZID=Asia/Riyadh:20260102T233000", "DTEND;TZID=Asia/Riyadh:20260103T001500", "RRULE:FREQ=WEEKLY;BYDAY=FR,SA",
                     "X-JADWAL-ROUTINE:SLEEP", "TRIGGER:-PT10M", "TRANSP:OPAQUE"] {
            #expect(text.contains(line), "\(line) in \(text)")
        }
        let read = try RoutineEvent.read(ICalendarParser().parseCalendar(text), id: "r", defaultZone: "UTC").get()
        #expect(read == fields)
    }

    @Test("reads what a calendar app may write for the same routine, and says why other events are not routines")
    func phoneForms() throws {
        func read(_ lines: [String]) throws -> Result<RoutineEvent.Fields, NotARoutine> {
            let text = (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Phone//EN", "BEGIN:VEVENT", "UID:x", "DTSTAMP:20260101T000000Z", "SUMMARY:Walk"]
                + lines + ["END:VEVENT", "END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
            return RoutineEvent.read(try ICalendarParser().parseCalendar(text), id: "x", defaultZone: "Asia/Riyadh")
        }
        let duration = try read(["DTSTART;TZID=Europe/Berlin:20260105T063000", "DURATION:PT45M", "RRULE:FREQ=DAILY"]).get()
        #expect(duration.routine.start.description == "06:30" && duration.routine.end.description == "07:15")
        #expect(duration.routine.days == .daily && duration.timeZone == "Europe/Berlin" && duration.kind == .routine)
        let weekly = try read(["DTSTART:20260105T063000", "DTEND:20260105T071500", "RRULE:FREQ=WEEKLY"]).get()
        #expect(weekly.routine.days.numbers == [1] && weekly.timeZone == "Asia/Riyadh", "a floating time is the person's, Monday from DTSTART")
        let alarm = try read(["DTSTART;TZID=Asia/Riyadh:20260105T063000", "DURATION:PT1H", "RRULE:FREQ=WEEKLY;BYDAY=MO,TH",
                              "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Walk", "TRIGGER:-PT20M", "END:VALARM"]).get()
        #expect(alarm.routine.reminderMinutes == 20 && alarm.routine.days.numbers == [1, 4])

        for (lines, reason) in [
            (["DTSTART;TZID=Asia/Riyadh:20260105T063000", "DURATION:PT1H"], "does not repeat"),
            (["DTSTART;TZID=Asia/Riyadh:20260105T063000", "DURATION:PT1H", "RRULE:FREQ=MONTHLY"], "monthly"),
            (["DTSTART;TZID=Asia/Riyadh:20260105T063000", "DURATION:PT1H", "RRULE:FREQ=WEEKLY;INTERVAL=2"], "every 2 weeks"),
            (["DTSTART;TZID=Asia/Riyadh:20260105T063000", "DURATION:PT1H", "RRULE:FREQ=DAILY;COUNT=5"], "ends"),
            (["DTSTART;TZID=Asia/Riyadh:20260105T063000", "DURATION:PT1H", "RRULE:FREQ=MONTHLY;BYDAY=1MO"], "monthly"),
            (["DTSTART;TZID=Asia/Riyadh:20260105T063000", "DURATION:PT1H", "RRULE:FREQ=WEEKLY;BYDAY=1MO"], "weekday"),
            (["DTSTART;VALUE=DATE:20260105", "RRULE:FREQ=DAILY"], "all-day"),
            (["DTSTART;TZID=Asia/Riyadh:20260105T063000", "DURATION:PT25H", "RRULE:FREQ=WEEKLY"], "a day or longer"),
            (["DTSTART;TZID=Asia/Riyadh:20260105T063000", "RRULE:FREQ=WEEKLY"], "no end"),
        ] {
            switch try read(lines) {
            case .success(let fields): Issue.record("\(lines) read as \(fields)")
            case .failure(let problem): #expect(problem.reason.contains(reason), "\(lines): \(problem.reason)")
            }
        }
    }

    @Test("an edit keeps the event's first day and unknown properties; new days drop overrides of instances the series no longer has")
    func edit() throws {
        let original = try Self.fields("18:00", "19:00", .weekdays, zone: "Asia/Riyadh", reminder: 5)
        var text = RoutineEvent.icalendar(original, uid: "r@jadwal", existing: nil, now: Self.now)
        // A phone adds a colour and moves one instance.
        text = text.replacingOccurrences(of: "END:VEVENT", with: "X-APPLE-COLOR:#FF0000\r\nEND:VEVENT")
        text = text.replacingOccurrences(of: "END:VCALENDAR", with: [
            "BEGIN:VEVENT", "UID:r@jadwal", "DTSTAMP:20260101T000000Z", "RECURRENCE-ID;TZID=Asia/Riyadh:20260106T180000",
            "DTSTART;TZID=Asia/Riyadh:20260106T200000", "DTEND;TZID=Asia/Riyadh:20260106T210000", "SUMMARY:Routine", "END:VEVENT", "END:VCALENDAR",
        ].joined(separator: "\r\n"))
        let later = Self.now.addingTimeInterval(30 * 86_400)

        let renamed = try Self.fields("18:00", "19:30", .weekdays, zone: "Asia/Riyadh", reminder: 5)
        let kept = RoutineEvent.icalendar(renamed, uid: "ignored", existing: try ICalendarParser().parseCalendar(text), now: later)
        #expect(kept.contains("DTSTART;TZID=Asia/Riyadh:20260101T180000") && kept.contains("DTEND;TZID=Asia/Riyadh:20260101T193000"), "\(kept)")
        #expect(kept.contains("X-APPLE-COLOR:#FF0000") && kept.contains("RECURRENCE-ID") && kept.contains("SEQUENCE:1") && kept.contains("UID:r@jadwal"))

        let moved = try Self.fields("07:00", "08:00", .weekends, zone: "Asia/Riyadh")
        let changed = RoutineEvent.icalendar(moved, uid: "ignored", existing: try ICalendarParser().parseCalendar(kept), now: later)
        #expect(changed.contains("DTSTART;TZID=Asia/Riyadh:20260103T070000") && !changed.contains("RECURRENCE-ID"), "\(changed)")
        #expect(changed.contains("X-APPLE-COLOR:#FF0000") && changed.contains("SEQUENCE:2") && !changed.contains("VALARM"))
    }
}
