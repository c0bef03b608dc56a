import Foundation
import ICalendar
@testable import JadwalCore
import Testing

/// The calendar around `body` (VEVENTs, VTODOs), lines joined with CRLF as on the wire.
func reminderCalendar(_ body: String) throws -> Component {
    let lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Jadwal//Tests//EN"] + body.split(separator: "\n").map(String.init) + ["END:VCALENDAR"]
    return try ICalendarParser().parseCalendar(lines.joined(separator: "\r\n") + "\r\n")
}

/// An instant written `2026-03-29T07:00:00Z` (or without seconds).
func instant(_ text: String) throws -> Date {
    let formatter = ISO8601DateFormatter()
    return try #require(formatter.date(from: text) ?? formatter.date(from: text.replacingOccurrences(of: "Z", with: ":00Z")), "\(text)")
}

func iso(_ date: Date?) -> String {
    date.map { ISO8601DateFormatter().string(from: $0) } ?? "nil"
}

@Suite("Reminder schedule: when each VALARM fires")
struct ReminderScheduleTests {
    static func schedule(_ body: String, zone: String = "Europe/Berlin") throws -> ReminderSchedule {
        ReminderSchedule(calendar: try reminderCalendar(body), zone: try #require(TimeZoneResolver().rules(for: zone)))
    }

    static func firings(_ body: String, from: String, to: String, zone: String = "Europe/Berlin", limit: Int = 1000) throws -> ReminderWindow {
        try schedule(body, zone: zone).reminders(from: instant(from), to: instant(to), limit: limit)
    }

    /// `fireAt` of each firing, ISO 8601.
    static func times(_ window: ReminderWindow) -> [String] { window.reminders.map { iso($0.fireAt) } }

    static let meeting = """
    BEGIN:VEVENT
    UID:meeting
    DTSTAMP:20260401T000000Z
    DTSTART;TZID=Europe/Berlin:20260504T100000
    DTEND;TZID=Europe/Berlin:20260504T110000
    SUMMARY:Design review
    LOCATION:Room 4
    BEGIN:VALARM
    ACTION:DISPLAY
    DESCRIPTION:Review in 15 minutes
    TRIGGER:-PT15M
    X-APPLE-DEFAULT-ALARM:TRUE
    END:VALARM
    BEGIN:VALARM
    UID:after-end
    ACTION:EMAIL
    SUMMARY:Notes
    DESCRIPTION:Write the notes
    ATTENDEE:mailto:someone-else@example.com
    TRIGGER;RELATED=END:PT5M
    END:VALARM
    END:VEVENT
    """

    @Test("a relative trigger fires before the start, a RELATED=END one after the end, with the instance's details")
    func relativeToStartAndEnd() throws {
        let window = try Self.firings(Self.meeting, from: "2026-05-01T00:00Z", to: "2026-06-01T00:00Z")
        #expect(Self.times(window) == ["2026-05-04T07:45:00Z", "2026-05-04T09:05:00Z"])
        let before = try #require(window.reminders.first)
        #expect(before.uid == "meeting" && before.recurrenceID == nil && before.alarmKey == "#0" && before.alarmIndex == 0)
        #expect(before.repetition == 0 && before.action == .display && before.description == "Review in 15 minutes" && !before.isTodo)
        #expect(before.title == "Design review" && before.location == "Room 4" && !before.isAllDay)
        #expect(iso(before.instanceStart) == "2026-05-04T08:00:00Z" && iso(before.instanceEnd) == "2026-05-04T09:00:00Z")
        let after = try #require(window.reminders.last)
        #expect(after.alarmKey == "after-end" && after.alarmIndex == 1 && after.action == .email && after.description == "Write the notes")
        #expect(window.skipped.isEmpty && !window.truncated)
    }

    @Test("RELATED=END of an event with DURATION is DTSTART+DURATION; of a DATE-TIME event without an end, its start")
    func endFromDuration() throws {
        let body = """
        BEGIN:VEVENT
        UID:long
        DTSTART;TZID=Europe/Berlin:20260504T100000
        DURATION:PT1H30M
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER;RELATED=END:-PT10M
        END:VALARM
        END:VEVENT
        BEGIN:VEVENT
        UID:instant
        DTSTART:20260504T120000Z
        BEGIN:VALARM
        ACTION:AUDIO
        TRIGGER;RELATED=END:PT0S
        END:VALARM
        END:VEVENT
        """
        let window = try Self.firings(body, from: "2026-05-04T00:00Z", to: "2026-05-05T00:00Z")
        #expect(Self.times(window) == ["2026-05-04T09:20:00Z", "2026-05-04T12:00:00Z"])
        #expect(window.reminders.map(\.action) == [.display, .audio])
    }

    @Test("the window is half-open: a firing at `to` belongs to the next window")
    func halfOpen() throws {
        #expect(Self.times(try Self.firings(Self.meeting, from: "2026-05-04T07:45Z", to: "2026-05-04T09:05Z")) == ["2026-05-04T07:45:00Z"])
        #expect(Self.times(try Self.firings(Self.meeting, from: "2026-05-04T07:45:01Z", to: "2026-05-04T09:05:01Z")) == ["2026-05-04T09:05:00Z"])
    }

    @Test("an absolute trigger fires once, even in a weekly series")
    func absolute() throws {
        let body = """
        BEGIN:VEVENT
        UID:weekly
        DTSTART;TZID=Europe/Berlin:20260504T100000
        DTEND;TZID=Europe/Berlin:20260504T110000
        RRULE:FREQ=WEEKLY
        SUMMARY:Stand-up
        BEGIN:VALARM
        ACTION:DISPLAY
        DESCRIPTION:Prepare the quarter's figures
        TRIGGER;VALUE=DATE-TIME:20260520T060000Z
        END:VALARM
        END:VEVENT
        """
        let window = try Self.firings(body, from: "2026-04-01T00:00Z", to: "2026-09-01T00:00Z")
        #expect(Self.times(window) == ["2026-05-20T06:00:00Z"])
        let reminder = try #require(window.reminders.first)
        #expect(reminder.recurrenceID == nil && iso(reminder.instanceStart) == "2026-05-04T08:00:00Z" && reminder.title == "Stand-up")
        #expect(try Self.firings(body, from: "2026-05-20T06:00:01Z", to: "2027-01-01T00:00Z").reminders.isEmpty)
    }

    static func repeating(_ alarm: String) -> String {
        """
        BEGIN:VEVENT
        UID:repeating
        DTSTART:20260504T080000Z
        DTEND:20260504T090000Z
        BEGIN:VALARM
        ACTION:AUDIO
        TRIGGER:-PT15M
        \(alarm)
        END:VALARM
        END:VEVENT
        """
    }

    @Test("REPEAT with DURATION fires again after the trigger; a window may start between repeats")
    func repeats() throws {
        let body = Self.repeating("REPEAT:3\nDURATION:PT5M")
        let all = try Self.firings(body, from: "2026-05-04T00:00Z", to: "2026-05-05T00:00Z")
        #expect(Self.times(all) == ["2026-05-04T07:45:00Z", "2026-05-04T07:50:00Z", "2026-05-04T07:55:00Z", "2026-05-04T08:00:00Z"])
        #expect(all.reminders.map(\.repetition) == [0, 1, 2, 3])
        #expect(Set(all.reminders.map(\.key)).count == 4)
        let tail = try Self.firings(body, from: "2026-05-04T07:52Z", to: "2026-05-04T07:58Z")
        #expect(tail.reminders.map(\.repetition) == [2])
    }

    @Test("REPEAT without DURATION, DURATION without REPEAT, a negative or zero interval: the alarm fires once",
          arguments: ["REPEAT:3", "DURATION:PT5M", "REPEAT:3\nDURATION:-PT5M", "REPEAT:3\nDURATION:PT0S", "REPEAT:-2\nDURATION:PT5M", "REPEAT:lots\nDURATION:PT5M"])
    func loneRepeatIgnored(alarm: String) throws {
        let window = try Self.firings(Self.repeating(alarm), from: "2026-05-04T00:00Z", to: "2026-05-05T00:00Z")
        #expect(Self.times(window) == ["2026-05-04T07:45:00Z"])
    }

    @Test("a huge REPEAT is capped at 100 repeats")
    func hugeRepeatCapped() throws {
        let window = try Self.firings(Self.repeating("REPEAT:99999999\nDURATION:PT1M"), from: "2026-05-04T00:00Z", to: "2026-05-06T00:00Z")
        #expect(window.reminders.count == ReminderTrigger.maxRepeats + 1)
        #expect(window.reminders.last.map { iso($0.fireAt) } == "2026-05-04T09:25:00Z")
    }

    static let weekly = """
    BEGIN:VEVENT
    UID:weekly
    SEQUENCE:2
    DTSTART;TZID=Europe/Berlin:20260504T100000
    DTEND;TZID=Europe/Berlin:20260504T103000
    RRULE:FREQ=WEEKLY;COUNT=5
    EXDATE;TZID=Europe/Berlin:20260511T100000
    SUMMARY:Planning
    BEGIN:VALARM
    X-WR-ALARMUID:series-alarm
    ACTION:DISPLAY
    TRIGGER:-PT15M
    END:VALARM
    END:VEVENT
    BEGIN:VEVENT
    UID:weekly
    RECURRENCE-ID;TZID=Europe/Berlin:20260518T100000
    DTSTART;TZID=Europe/Berlin:20260519T140000
    DTEND;TZID=Europe/Berlin:20260519T143000
    SUMMARY:Planning (moved)
    BEGIN:VALARM
    UID:moved-alarm
    ACTION:DISPLAY
    TRIGGER:-PT1H
    END:VALARM
    END:VEVENT
    BEGIN:VEVENT
    UID:weekly
    RECURRENCE-ID;TZID=Europe/Berlin:20260525T100000
    DTSTART;TZID=Europe/Berlin:20260525T100000
    DTEND;TZID=Europe/Berlin:20260525T103000
    SUMMARY:Planning (no alarm this time)
    END:VEVENT
    BEGIN:VEVENT
    UID:weekly
    RECURRENCE-ID;TZID=Europe/Berlin:20260601T100000
    DTSTART;TZID=Europe/Berlin:20260601T100000
    DTEND;TZID=Europe/Berlin:20260601T103000
    STATUS:CANCELLED
    SUMMARY:Planning
    BEGIN:VALARM
    ACTION:DISPLAY
    TRIGGER:-PT15M
    END:VALARM
    END:VEVENT
    """

    @Test("a weekly series: the EXDATE and the cancelled instance fire nothing, the moved one fires its own alarm, the one without alarms none")
    func weeklyWithOverrides() throws {
        let window = try Self.firings(Self.weekly, from: "2026-05-01T00:00Z", to: "2026-07-01T00:00Z")
        #expect(Self.times(window) == ["2026-05-04T07:45:00Z", "2026-05-19T11:00:00Z"])
        let moved = try #require(window.reminders.last)
        #expect(moved.alarmKey == "moved-alarm" && moved.title == "Planning (moved)" && moved.recurrenceID == "2026-05-18T08:00:00Z")
        #expect(iso(moved.instanceStart) == "2026-05-19T12:00:00Z")
        #expect(window.reminders.first?.alarmKey == "series-alarm" && window.reminders.first?.recurrenceID == "2026-05-04T08:00:00Z")
    }

    @Test("keys are stable from one computation to the next and differ between instances, alarms and repeats")
    func stableKeys() throws {
        let body = """
        BEGIN:VEVENT
        UID:daily|with%bars
        DTSTART;TZID=Europe/Berlin:20260504T100000
        RRULE:FREQ=DAILY;COUNT=10
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER:-PT15M
        REPEAT:1
        DURATION:PT5M
        END:VALARM
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER:-P1D
        END:VALARM
        END:VEVENT
        """
        let first = try Self.firings(body, from: "2026-05-01T00:00Z", to: "2026-06-01T00:00Z")
        let again = try Self.firings(body, from: "2026-05-01T00:00Z", to: "2026-06-01T00:00Z")
        #expect(first.reminders.count == 30)
        #expect(first.reminders.map(\.key) == again.reminders.map(\.key))
        #expect(Set(first.reminders.map(\.key)).count == first.reminders.count)
        #expect(first.reminders.first?.key == "daily%7Cwith%25bars|2026-05-04T08:00:00Z|#1|0")
        // A narrower window finds the same firings under the same keys.
        let narrow = try Self.firings(body, from: "2026-05-07T00:00Z", to: "2026-05-08T00:00Z")
        #expect(Set(narrow.reminders.map(\.key)).isSubset(of: Set(first.reminders.map(\.key))) && narrow.reminders.count == 3)
    }

    @Test("an instance outside the window still fires inside it: a day ahead of one just past `to`, after the end of one before `from`")
    func instancesOutsideTheWindow() throws {
        let body = """
        BEGIN:VEVENT
        UID:ahead
        DTSTART:20260510T120000Z
        DTEND:20260510T130000Z
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER:-P1W
        END:VALARM
        END:VEVENT
        BEGIN:VEVENT
        UID:behind
        DTSTART:20260501T120000Z
        DTEND:20260501T130000Z
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER;RELATED=END:P2D
        END:VALARM
        END:VEVENT
        """
        let window = try Self.firings(body, from: "2026-05-03T00:00Z", to: "2026-05-04T00:00Z")
        #expect(window.reminders.map(\.uid) == ["ahead", "behind"])
        #expect(Self.times(window) == ["2026-05-03T12:00:00Z", "2026-05-03T13:00:00Z"])
    }

    @Test("an all-day event: its day starts at midnight in the given zone, and -PT15H is 09:00 the day before",
          arguments: [("America/New_York", "2026-03-29T13:00:00Z", "2026-03-30T04:00:00Z"), ("Asia/Riyadh", "2026-03-29T06:00:00Z", "2026-03-29T21:00:00Z")])
    func allDay(zone: String, fires: String, starts: String) throws {
        let body = """
        BEGIN:VEVENT
        UID:holiday
        DTSTART;VALUE=DATE:20260330
        SUMMARY:Holiday
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER:-PT15H
        END:VALARM
        END:VEVENT
        """
        let window = try Self.firings(body, from: "2026-03-01T00:00Z", to: "2026-05-01T00:00Z", zone: zone)
        #expect(Self.times(window) == [fires])
        let reminder = try #require(window.reminders.first)
        #expect(reminder.isAllDay && iso(reminder.instanceStart) == starts)
        let start = try #require(reminder.instanceStart)
        #expect(reminder.instanceEnd?.timeIntervalSince(start) == 86_400)
    }

    @Test("an all-day offset is wall-clock time: -P1DT15H before the day after Berlin's spring change is 09:00 two days before")
    func allDayAcrossChange() throws {
        let body = """
        BEGIN:VEVENT
        UID:trip
        DTSTART;VALUE=DATE:20260330
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER:-P1DT15H
        END:VALARM
        END:VEVENT
        """
        // 2026-03-28 09:00 CET; 39 exact hours before CEST midnight would be 10:00 CET.
        #expect(Self.times(try Self.firings(body, from: "2026-03-01T00:00Z", to: "2026-05-01T00:00Z")) == ["2026-03-28T08:00:00Z"])
    }

    @Test("-P1D across Berlin's spring change keeps the wall time (09:00 the day before); -PT24H is exact, an hour off on the clock")
    func nominalDayAcrossChange() throws {
        func body(_ trigger: String) -> String {
            """
            BEGIN:VEVENT
            UID:sunday
            DTSTART;TZID=Europe/Berlin:20260329T090000
            DTEND;TZID=Europe/Berlin:20260329T100000
            BEGIN:VALARM
            ACTION:DISPLAY
            TRIGGER:\(trigger)
            END:VALARM
            END:VEVENT
            """
        }
        // The event is at 07:00Z (CEST); Saturday 09:00 is still CET, 08:00Z.
        #expect(Self.times(try Self.firings(body("-P1D"), from: "2026-03-20T00:00Z", to: "2026-04-01T00:00Z")) == ["2026-03-28T08:00:00Z"])
        #expect(Self.times(try Self.firings(body("-PT24H"), from: "2026-03-20T00:00Z", to: "2026-04-01T00:00Z")) == ["2026-03-28T07:00:00Z"])
        // And back in autumn: Saturday 09:00 is CEST (07:00Z) before Sunday 09:00 CET (08:00Z).
        let autumn = body("-P1D").replacingOccurrences(of: "20260329", with: "20261025")
        #expect(Self.times(try Self.firings(autumn, from: "2026-10-20T00:00Z", to: "2026-11-01T00:00Z")) == ["2026-10-24T07:00:00Z"])
        // A week in a daily series: each reminder a day ahead at 09:00 local.
        let daily = body("-P1D").replacingOccurrences(of: "DTEND", with: "RRULE:FREQ=DAILY;COUNT=7\nDTEND")
            .replacingOccurrences(of: "20260329", with: "20260327")
        let week = try Self.firings(daily, from: "2026-03-20T00:00Z", to: "2026-04-10T00:00Z")
        #expect(Self.times(week) == ["2026-03-26T08:00:00Z", "2026-03-27T08:00:00Z", "2026-03-28T08:00:00Z", "2026-03-29T07:00:00Z",
                                     "2026-03-30T07:00:00Z", "2026-03-31T07:00:00Z", "2026-04-01T07:00:00Z"])
    }

    @Test("-PT15M before a daily 02:30 on the night Berlin skips 02:00–03:00: the instance is read as 03:30 CEST, the reminder 15 minutes before")
    func gapNight() throws {
        let body = """
        BEGIN:VEVENT
        UID:night
        DTSTART;TZID=Europe/Berlin:20260328T023000
        DURATION:PT20M
        RRULE:FREQ=DAILY;COUNT=3
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER:-PT15M
        END:VALARM
        END:VEVENT
        """
        let window = try Self.firings(body, from: "2026-03-27T00:00Z", to: "2026-04-01T00:00Z")
        #expect(Self.times(window) == ["2026-03-28T01:15:00Z", "2026-03-29T01:15:00Z", "2026-03-30T00:15:00Z"])
        #expect(window.reminders.map { iso($0.instanceStart) } == ["2026-03-28T01:30:00Z", "2026-03-29T01:30:00Z", "2026-03-30T00:30:00Z"])
    }

    @Test("a to-do with only a DUE fires relative to it, either way RELATED says; with DTSTART, START means DTSTART")
    func todoDue() throws {
        let body = """
        BEGIN:VTODO
        UID:taxes
        DUE;TZID=Europe/Berlin:20260504T170000
        SUMMARY:File taxes
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER:-PT30M
        END:VALARM
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER;RELATED=END:-P1D
        END:VALARM
        END:VTODO
        BEGIN:VTODO
        UID:report
        DTSTART:20260504T080000Z
        DUE:20260506T160000Z
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER:PT0S
        END:VALARM
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER;RELATED=END:-PT1H
        END:VALARM
        END:VTODO
        """
        let window = try Self.firings(body, from: "2026-05-01T00:00Z", to: "2026-06-01T00:00Z")
        #expect(Self.times(window) == ["2026-05-03T15:00:00Z", "2026-05-04T08:00:00Z", "2026-05-04T14:30:00Z", "2026-05-06T15:00:00Z"])
        #expect(window.reminders.allSatisfy { $0.isTodo })
        let taxes = try #require(window.reminders.first { $0.uid == "taxes" })
        #expect(iso(taxes.instanceStart) == "2026-05-04T15:00:00Z" && iso(taxes.instanceEnd) == "2026-05-04T15:00:00Z" && taxes.title == "File taxes")
    }

    @Test("a to-do without DUE or DURATION has no end: RELATED=END is skipped and reported, START fires")
    func todoWithoutEnd() throws {
        let body = """
        BEGIN:VTODO
        UID:open
        DTSTART:20260504T080000Z
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER;RELATED=END:-PT1H
        END:VALARM
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER:-PT1H
        END:VALARM
        END:VTODO
        """
        let window = try Self.firings(body, from: "2026-05-01T00:00Z", to: "2026-06-01T00:00Z")
        #expect(Self.times(window) == ["2026-05-04T07:00:00Z"])
        #expect(window.reminders.first?.instanceEnd == nil)
        #expect(window.skipped.map(\.alarmKey) == ["#0"])
    }

    @Test("a completed or cancelled to-do fires nothing", arguments: ["STATUS:COMPLETED", "COMPLETED:20260503T100000Z", "STATUS:CANCELLED"])
    func doneTodo(status: String) throws {
        let body = """
        BEGIN:VTODO
        UID:done
        DUE:20260504T170000Z
        \(status)
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER:-PT30M
        END:VALARM
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER;VALUE=DATE-TIME:20260504T120000Z
        END:VALARM
        END:VTODO
        """
        let window = try Self.firings(body, from: "2026-05-01T00:00Z", to: "2026-06-01T00:00Z")
        #expect(window.reminders.isEmpty)
        // The same to-do still open fires both: the test would see a to-do that never fires.
        let open = try Self.firings(body.replacingOccurrences(of: status, with: "STATUS:NEEDS-ACTION"), from: "2026-05-01T00:00Z", to: "2026-06-01T00:00Z")
        #expect(open.reminders.count == 2)
    }

    @Test("an undated to-do: only its absolute alarm fires, without an instance time")
    func undatedTodo() throws {
        let body = """
        BEGIN:VTODO
        UID:someday
        SUMMARY:Call the bank
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER;VALUE=DATE-TIME:20260504T120000Z
        END:VALARM
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER:-PT5M
        END:VALARM
        END:VTODO
        """
        let window = try Self.firings(body, from: "2026-05-01T00:00Z", to: "2026-06-01T00:00Z")
        #expect(Self.times(window) == ["2026-05-04T12:00:00Z"])
        #expect(window.reminders.first?.instanceStart == nil && window.reminders.first?.title == "Call the bank")
        #expect(window.skipped.count == 1 && window.skipped.first?.alarmKey == "#1")
    }

    @Test("ACKNOWLEDGED at or after a firing suppresses it; later instances fire")
    func acknowledged() throws {
        let body = """
        BEGIN:VEVENT
        UID:daily
        DTSTART:20260504T080000Z
        DURATION:PT30M
        RRULE:FREQ=DAILY;COUNT=4
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER:-PT15M
        ACKNOWLEDGED:20260505T074500Z
        END:VALARM
        END:VEVENT
        """
        let window = try Self.firings(body, from: "2026-05-01T00:00Z", to: "2026-06-01T00:00Z")
        #expect(Self.times(window) == ["2026-05-06T07:45:00Z", "2026-05-07T07:45:00Z"])
        let earlier = body.replacingOccurrences(of: "20260505T074500Z", with: "20260505T074459Z")
        #expect(Self.times(try Self.firings(earlier, from: "2026-05-01T00:00Z", to: "2026-06-01T00:00Z")).count == 3)
    }

    @Test("ACTION:NONE and location alarms never fire and are no problem; unknown actions and bad triggers are skipped with a reason")
    func badAndSilentAlarms() throws {
        let body = """
        BEGIN:VEVENT
        UID:odd
        DTSTART:20260504T080000Z
        BEGIN:VALARM
        ACTION:NONE
        TRIGGER;VALUE=DATE-TIME:19760401T005545Z
        END:VALARM
        BEGIN:VALARM
        ACTION:DISPLAY
        X-APPLE-PROXIMITY:ARRIVE
        TRIGGER;VALUE=DATE-TIME:20260504T070000Z
        END:VALARM
        BEGIN:VALARM
        ACTION:PROCEDURE
        TRIGGER:-PT5M
        END:VALARM
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER:-PT5X
        END:VALARM
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER;VALUE=DATE-TIME:2026-05-04
        END:VALARM
        BEGIN:VALARM
        ACTION:DISPLAY
        END:VALARM
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER:-P99999999W
        END:VALARM
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER:-PT10M
        END:VALARM
        END:VEVENT
        """
        let window = try Self.firings(body, from: "2026-05-01T00:00Z", to: "2026-06-01T00:00Z")
        #expect(Self.times(window) == ["2026-05-04T07:50:00Z"])
        #expect(window.reminders.first?.alarmIndex == 7)
        #expect(window.skipped.map { $0.alarmKey ?? "" } == ["#2", "#3", "#4", "#5", "#6"])
        #expect(window.skipped.allSatisfy { !$0.reason.isEmpty && $0.uid == "odd" })
    }

    @Test("a cancelled event fires nothing; an absolute alarm of a cancelled override or of an EXDATE'd one neither")
    func cancelled() throws {
        let body = """
        BEGIN:VEVENT
        UID:off
        DTSTART:20260504T080000Z
        STATUS:CANCELLED
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER:-PT15M
        END:VALARM
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER;VALUE=DATE-TIME:20260503T080000Z
        END:VALARM
        END:VEVENT
        BEGIN:VEVENT
        UID:series
        DTSTART:20260504T080000Z
        RRULE:FREQ=DAILY;COUNT=3
        EXDATE:20260506T080000Z
        END:VEVENT
        BEGIN:VEVENT
        UID:series
        RECURRENCE-ID:20260505T080000Z
        DTSTART:20260505T090000Z
        STATUS:CANCELLED
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER;VALUE=DATE-TIME:20260505T070000Z
        END:VALARM
        END:VEVENT
        BEGIN:VEVENT
        UID:series
        RECURRENCE-ID:20260506T080000Z
        DTSTART:20260506T090000Z
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER;VALUE=DATE-TIME:20260506T070000Z
        END:VALARM
        END:VEVENT
        """
        #expect(try Self.firings(body, from: "2026-05-01T00:00Z", to: "2026-06-01T00:00Z").reminders.isEmpty)
        // Without the EXDATE the override's absolute alarm fires, once, named by its instance.
        let kept = try Self.firings(body.replacingOccurrences(of: "EXDATE:20260506T080000Z\n", with: ""), from: "2026-05-01T00:00Z", to: "2026-06-01T00:00Z")
        #expect(kept.reminders.map { "\(iso($0.fireAt)) \($0.recurrenceID ?? "-") \(iso($0.instanceStart))" }
            == ["2026-05-06T07:00:00Z 2026-05-06T08:00:00Z 2026-05-06T09:00:00Z"])
    }

    @Test("the limit keeps the earliest firings and says the list is cut")
    func limit() throws {
        let body = """
        BEGIN:VEVENT
        UID:every-day
        DTSTART:20260504T080000Z
        RRULE:FREQ=DAILY
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER:-PT15M
        END:VALARM
        END:VEVENT
        """
        let window = try Self.firings(body, from: "2026-05-01T00:00Z", to: "2026-06-01T00:00Z", limit: 5)
        #expect(window.truncated && Self.times(window) == (4...8).map { "2026-05-0\($0)T07:45:00Z" })
        #expect(!(try Self.firings(body, from: "2026-05-01T00:00Z", to: "2026-06-01T00:00Z", limit: 28)).truncated)
    }

    @Test("absurd windows neither trap nor run away: reversed, NaN, infinite, ten thousand years")
    func absurdWindows() throws {
        let body = """
        BEGIN:VEVENT
        UID:forever
        DTSTART:20260504T080000Z
        RRULE:FREQ=DAILY
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER:-PT15M
        END:VALARM
        END:VEVENT
        """
        var schedule = try Self.schedule(body)
        schedule.maxInstances = 500
        let now = try instant("2026-05-01T00:00Z")
        #expect(schedule.reminders(from: now, to: now.addingTimeInterval(-1)).reminders.isEmpty)
        #expect(schedule.reminders(from: Date(timeIntervalSince1970: .nan), to: now).reminders.isEmpty)
        let endless = schedule.reminders(from: now, to: Date(timeIntervalSince1970: .infinity), limit: 10)
        #expect(endless.truncated && endless.reminders.count == 10 && endless.reminders.first.map { iso($0.fireAt) } == "2026-05-04T07:45:00Z")
        let ages = schedule.reminders(from: .distantPast, to: .distantFuture, limit: 100_000)
        #expect(ages.truncated && ages.reminders.count == 500)
    }

    @Test("floating times and DATE values are read in the calendar's zone, else the person's")
    func storedObject() throws {
        let text = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//Jadwal//Tests//EN\r
        BEGIN:VEVENT\r
        UID:floating\r
        DTSTART:20260504T100000\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        TRIGGER:-PT15M\r
        END:VALARM\r
        END:VEVENT\r
        END:VCALENDAR\r

        """
        let now = try instant("2026-04-01T00:00Z")
        let object = CalendarObject(calendarID: UUID(), name: "f.ics", uid: "floating", component: .event, icalendar: text, etag: "\"1\"",
                                    firstStart: nil, lastEnd: nil, updatedAt: now)
        func fires(calendarZone: String?) throws -> [String] {
            let calendar = CalendarCollection(id: UUID(), accountID: UUID(), slug: "c", displayName: "C", timeZone: calendarZone, components: [.event], createdAt: now)
            let schedule = try #require(ReminderSchedule(object: object, calendar: calendar, accountZone: "Asia/Riyadh"))
            return Self.times(schedule.reminders(from: now, to: try instant("2026-06-01T00:00Z")))
        }
        #expect(try fires(calendarZone: nil) == ["2026-05-04T06:45:00Z"])
        #expect(try fires(calendarZone: "Europe/Berlin") == ["2026-05-04T07:45:00Z"])
        let broken = CalendarObject(calendarID: UUID(), name: "b.ics", uid: "b", component: .event, icalendar: "BEGIN:VEVENT", etag: "\"1\"",
                                    firstStart: nil, lastEnd: nil, updatedAt: now)
        let calendar = CalendarCollection(id: UUID(), accountID: UUID(), slug: "c", displayName: "C", components: [.event], createdAt: now)
        #expect(ReminderSchedule(object: broken, calendar: calendar, accountZone: "UTC") == nil)
    }
}
