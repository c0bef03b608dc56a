import Foundation
import ICalendar
import JadwalCore
import Testing

@Suite("To-dos from JSON drafts")
struct TaskDraftTests {
    static let now = Date(timeIntervalSince1970: 1_795_410_000)  // 2026-11-23T05:00:00Z

    static func decode(_ json: String) throws -> TaskDraft {
        try JSONDecoder().decode(TaskDraft.self, from: Data(json.utf8))
    }

    static func todo(_ text: String) throws -> Todo {
        try Todo(component: try #require(try ICalendarParser().parseCalendar(text).components(named: "VTODO").first))
    }

    @Test("a new to-do: every field, in the account's zone, with an estimate Jadwal and the calext draft can read")
    func newTask() throws {
        let draft = try Self.decode("""
            {"title": "Write report", "notes": "Sections 2; 3", "due": "2026-11-25T17:00", "priority": "high", "estimateMinutes": 90,
             "alarmMinutesBefore": 30}
            """)
        let text = try draft.icalendar(uid: "t-1@jadwal", defaultTimeZone: "Asia/Riyadh", now: Self.now)
        #expect(text.contains("BEGIN:VTIMEZONE") && text.contains("TZID:Asia/Riyadh"))
        let todo = try Self.todo(text)
        #expect(todo.uid == "t-1@jadwal" && todo.title == "Write report" && todo.description == "Sections 2; 3")
        #expect(todo.due == .dateTime(LocalDateTime(year: 2026, month: 11, day: 25, hour: 17), .zone("Asia/Riyadh")))
        #expect(todo.priority == 1 && todo.estimate == Duration(hours: 1, minutes: 30) && todo.status == .needsAction)
        #expect(todo.alarms.first?.trigger == .relative(Duration(negative: true, minutes: 30), relatedToEnd: true))
        #expect(todo.created == .dateTime(LocalDateTime(year: 2026, month: 11, day: 23, hour: 5), .utc) && todo.sequence == 0)
        #expect(TaskDraft(todo: todo) == TaskDraft(
            title: "Write report", notes: "Sections 2; 3", due: "2026-11-25T17:00:00", timeZone: "Asia/Riyadh", priority: .number(1),
            estimateMinutes: 90, status: "needs-action", alarmMinutesBefore: 30))
        #expect(try CalendarObjectContent(text: text).component == .todo, "valid for storage")
    }

    @Test("due dates: a date, a wall time in the given zone, an instant with an offset")
    func dueForms() throws {
        let date = try Self.todo(try TaskDraft(title: "a", due: "2026-11-25").icalendar(uid: "a", defaultTimeZone: "Asia/Riyadh", now: Self.now))
        #expect(date.due == .date(CivilDate(year: 2026, month: 11, day: 25)))
        let wall = try Self.todo(try TaskDraft(title: "b", due: "2026-11-25T09:30", timeZone: "Europe/London")
            .icalendar(uid: "b", defaultTimeZone: "Asia/Riyadh", now: Self.now))
        #expect(wall.due == .dateTime(LocalDateTime(year: 2026, month: 11, day: 25, hour: 9, minute: 30), .zone("Europe/London")))
        let instant = try Self.todo(try TaskDraft(title: "c", due: "2026-11-25T17:00:00+03:00").icalendar(uid: "c", defaultTimeZone: "UTC", now: Self.now))
        #expect(instant.due == .dateTime(LocalDateTime(year: 2026, month: 11, day: 25, hour: 14), .utc))
        #expect(TaskDraft(todo: instant).due == "2026-11-25T14:00:00Z" && TaskDraft(todo: date).due == "2026-11-25")
        let estimate = try Self.todo(try TaskDraft(title: "d", estimateMinutes: 10_080).icalendar(uid: "d", defaultTimeZone: "UTC", now: Self.now))
        #expect(estimate.source.first("X-JADWAL-ESTIMATED-DURATION")?.value == "PT168H", "an effort in hours, not nominal days")
    }

    @Test("the instant a to-do is due: a date means by the end of that day in the account's zone")
    func dueInstants() throws {
        let riyadh = try #require(ZoneRules(ianaIdentifier: "Asia/Riyadh"))
        let resolver = TimeZoneResolver()
        let endOf25th = TaskDue.instant(.date(CivilDate(year: 2026, month: 11, day: 25)), resolver: resolver, zone: riyadh)
        #expect(endOf25th == ISO8601DateFormatter().date(from: "2026-11-25T21:00:00Z"), "midnight starting the 26th in Riyadh")
        let floating = TaskDue.instant(.dateTime(LocalDateTime(year: 2026, month: 11, day: 25, hour: 17), .floating), resolver: resolver, zone: riyadh)
        #expect(floating == ISO8601DateFormatter().date(from: "2026-11-25T14:00:00Z"))
        let zoned = TaskDue.instant(.dateTime(LocalDateTime(year: 2026, month: 7, day: 1, hour: 17), .zone("Europe/London")), resolver: resolver, zone: riyadh)
        #expect(zoned == ISO8601DateFormatter().date(from: "2026-07-01T16:00:00Z"), "London in summer time")
        #expect(TaskDue.instant(.dateTime(LocalDateTime(year: 2026, month: 7, day: 1), .zone("Nowhere/Else")), resolver: resolver, zone: riyadh) == nil)
    }

    @Test("an edit keeps what it does not mention; null clears; completing and reopening")
    func edits() throws {
        let phone = """
            BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Apple Inc.//iOS 18.4//EN\r\nBEGIN:VTODO\r\nUID:p-1\r\nDTSTAMP:20261120T080000Z\r\n\
            CREATED:20261120T080000Z\r\nSUMMARY:Renew passport\r\nDUE;VALUE=DATE:20261130\r\nPRIORITY:5\r\nSTATUS:NEEDS-ACTION\r\n\
            X-APPLE-SORT-ORDER:625123456\r\nCATEGORIES:Errands\r\nEND:VTODO\r\nEND:VCALENDAR\r\n
            """
        let calendar = try ICalendarParser().parseCalendar(phone)
        let estimated = try Self.decode(#"{"estimateMinutes": 45}"#).icalendar(uid: "ignored", existing: calendar, defaultTimeZone: "Asia/Riyadh", now: Self.now)
        let first = try Self.todo(estimated)
        #expect(first.uid == "p-1" && first.title == "Renew passport" && first.priority == 5 && first.due == .date(CivilDate(year: 2026, month: 11, day: 30)))
        #expect(first.estimate == Duration(minutes: 45) && first.sequence == 1)
        #expect(first.source.first("X-APPLE-SORT-ORDER")?.value == "625123456" && first.source.first("CATEGORIES")?.value == "Errands")
        #expect(first.created == .dateTime(LocalDateTime(year: 2026, month: 11, day: 20, hour: 8), .utc), "CREATED is the phone's")

        let later = Self.now.addingTimeInterval(3600)
        let done = try Self.decode(#"{"status": "completed", "priority": null}"#)
            .icalendar(uid: "p-1", existing: try ICalendarParser().parseCalendar(estimated), defaultTimeZone: "Asia/Riyadh", now: later)
        let completed = try Self.todo(done)
        #expect(completed.status == .completed && completed.percentComplete == 100 && completed.priority == nil)
        #expect(completed.completed == .dateTime(LocalDateTime(year: 2026, month: 11, day: 23, hour: 6), .utc))
        let again = try Self.todo(try Self.decode(#"{"status": "completed"}"#)
            .icalendar(uid: "p-1", existing: try ICalendarParser().parseCalendar(done), defaultTimeZone: "Asia/Riyadh", now: later.addingTimeInterval(60)))
        #expect(again.completed == completed.completed, "completing twice keeps when it was done")

        let reopened = try Self.todo(try Self.decode(#"{"status": "needs-action", "estimateMinutes": null, "due": null}"#)
            .icalendar(uid: "p-1", existing: try ICalendarParser().parseCalendar(done), defaultTimeZone: "Asia/Riyadh", now: later))
        #expect(reopened.status == .needsAction && reopened.completed == nil && reopened.percentComplete == nil)
        #expect(reopened.estimate == nil && reopened.due == nil && reopened.title == "Renew passport")
        #expect(reopened.source.first("X-APPLE-SORT-ORDER") != nil)
    }

    @Test("a due date before the to-do's own start is refused; one after it is written without a DURATION")
    func startAndDue() throws {
        let text = """
            BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//EN\r\nBEGIN:VTODO\r\nUID:s-1\r\nDTSTAMP:20261120T080000Z\r\n\
            DTSTART:20261124T080000Z\r\nDURATION:PT2H\r\nSUMMARY:Started\r\nEND:VTODO\r\nEND:VCALENDAR\r\n
            """
        let calendar = try ICalendarParser().parseCalendar(text)
        #expect(throws: TaskDraft.Problem.dueBeforeStart) {
            try TaskDraft(due: "2026-11-24T07:00:00Z").icalendar(uid: "s-1", existing: calendar, defaultTimeZone: "UTC", now: Self.now)
        }
        let moved = try TaskDraft(due: "2026-11-24T12:00:00Z").icalendar(uid: "s-1", existing: calendar, defaultTimeZone: "UTC", now: Self.now)
        let todo = try Self.todo(moved)
        #expect(todo.duration == nil && todo.due == .dateTime(LocalDateTime(year: 2026, month: 11, day: 24, hour: 12), .utc))
        #expect(try CalendarObjectContent(text: moved).uid == "s-1")
    }

    @Test("each problem names its field")
    func problems() throws {
        func problem(_ draft: TaskDraft, existing: Component? = nil) -> TaskDraft.Problem? {
            do throws(TaskDraft.Problem) {
                _ = try draft.icalendar(uid: "x", existing: existing, defaultTimeZone: "Asia/Riyadh", now: Self.now)
                return nil
            } catch {
                return error
            }
        }
        #expect(problem(TaskDraft()) == .titleMissing)
        #expect(problem(TaskDraft(title: "a\u{7}b")) == .title)
        #expect(problem(TaskDraft(title: String(repeating: "x", count: 501))) == .title)
        #expect(problem(TaskDraft(title: "x", priority: .number(10))) == .priority("10"))
        #expect(problem(TaskDraft(title: "x", priority: .word("urgent"))) == .priority("urgent"))
        #expect(problem(TaskDraft(title: "x", priority: .word("LOW"))) == nil)
        #expect(problem(TaskDraft(title: "x", estimateMinutes: 0)) == .estimate)
        #expect(problem(TaskDraft(title: "x", estimateMinutes: 10_081)) == .estimate)
        #expect(problem(TaskDraft(title: "x", due: "2026-13-01")) == .due("2026-13-01"))
        #expect(problem(TaskDraft(title: "x", due: "2026-11-25T25:00")) == .due("2026-11-25T25:00"))
        #expect(problem(TaskDraft(title: "x", timeZone: "EST")) == .timeZone("EST"))
        #expect(problem(TaskDraft(title: "x", status: "done")) == .status("done"))
        #expect(problem(TaskDraft(title: "x", alarmMinutesBefore: 10)) == .alarmNeedsDue)
        #expect(problem(TaskDraft(title: "x", due: "2026-11-25", alarmMinutesBefore: 40_321)) == .alarm)
        #expect(problem(TaskDraft(title: "x", notes: String(repeating: "n", count: 10_001))) == .notes)
        #expect(problem(TaskDraft(title: "x", cleared: [.title])) == .cannotClear(.title))
        #expect(TaskDraft.Problem.alarmNeedsDue.field == "alarmMinutesBefore" && TaskDraft.Problem.estimate.field == "estimateMinutes")
        #expect(TaskDraft.Problem.estimate.description.hasPrefix("'estimateMinutes'"))
    }

    @Test("JSON: absent fields are left alone, null ones cleared, a priority is a number or a word")
    func json() throws {
        let draft = try Self.decode(#"{"title": "x", "due": null, "priority": "medium", "notes": null}"#)
        #expect(draft.cleared == [.due, .notes] && draft.priority == .word("medium") && draft.estimateMinutes == nil)
        #expect(try Self.decode(#"{"priority": 3}"#).priority == .number(3))
        #expect(throws: DecodingError.self) { try Self.decode(#"{"priority": true}"#) }
        #expect(throws: DecodingError.self) { try Self.decode(#"{"estimateMinutes": "lots"}"#) }
        let encoded = String(decoding: try JSONEncoder().encode(TaskDraft(title: "x", priority: .number(1))), as: UTF8.self)
        #expect(encoded.contains(#""priority":1"#) && !encoded.contains("due") && !encoded.contains("cleared"))
    }
}
