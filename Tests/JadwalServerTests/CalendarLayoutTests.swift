import Foundation
import PrayerTimes
import Testing

@testable import JadwalServer
import JadwalCore
@testable import JadwalHTTP
@testable import JadwalAPI
@testable import JadwalWeb
@testable import JadwalCalDAV
@testable import JadwalMail
@testable import JadwalPush
@testable import JadwalLLM
@testable import JadwalJobs

@Suite("Calendar layout: the days a view shows and where events go")
struct CalendarLayoutTests {
    let riyadh = TimeZone(identifier: "Asia/Riyadh")!
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    func day(_ text: String) throws -> LocalDate { try LocalDate(iso8601: text) }

    func instant(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    func item(_ title: String, _ start: String, _ end: String, allDay: Bool = false) -> CalendarLayout.Item {
        .init(title: title, start: instant(start), end: instant(end), isAllDay: allDay, kind: .event, colorClass: "cal-0", href: nil)
    }

    @Test("week and day views open an hour before now when today is shown, else at the working day's start (08:00 when unset)")
    func openingHour() throws {
        let today = CalendarLayout(view: .week, anchor: try day("2026-02-14"), today: try day("2026-02-14"), zone: riyadh, weekStart: 1)
        // 14:20 in Riyadh (UTC+3).
        #expect(today.openingHour(now: instant("2026-02-14T11:20:00Z"), workingStart: 9) == 13)
        #expect(today.openingHour(now: instant("2026-02-13T21:30:00Z"), workingStart: 9) == 0, "just after midnight: the top")
        let later = CalendarLayout(view: .day, anchor: try day("2026-03-02"), today: try day("2026-02-14"), zone: riyadh, weekStart: 1)
        #expect(later.openingHour(now: instant("2026-02-14T11:20:00Z"), workingStart: 7) == 7)
        #expect(later.openingHour(now: instant("2026-02-14T11:20:00Z"), workingStart: nil) == 8)
    }

    @Test("a month grid starts on the person's first weekday and holds whole weeks")
    func monthGrid() throws {
        let monday = CalendarLayout(view: .month, anchor: try day("2026-02-14"), today: try day("2026-02-14"), zone: riyadh, weekStart: 1)
        #expect(LocalDate(daysSinceEpoch: monday.days.lowerBound).description == "2026-01-26")
        #expect(monday.days.count == 35)
        let sunday = CalendarLayout(view: .month, anchor: try day("2026-02-14"), today: try day("2026-02-14"), zone: riyadh, weekStart: 0)
        #expect(LocalDate(daysSinceEpoch: sunday.days.lowerBound).description == "2026-02-01")  // 1 February 2026 is a Sunday
        #expect(sunday.days.count == 28)
        // Next month from 31 January is the last day of February, not 3 March.
        let end = CalendarLayout(view: .month, anchor: try day("2026-01-31"), today: try day("2026-01-31"), zone: riyadh, weekStart: 1)
        #expect(end.next.description == "2026-02-28" && end.previous.description == "2025-12-31")
    }

    @Test("overlapping events share the day in columns; a lone one has the whole width")
    func lanes() throws {
        let layout = CalendarLayout(view: .day, anchor: try day("2026-09-22"), today: try day("2026-09-22"), zone: riyadh, weekStart: 0)
        let number = try day("2026-09-22").daysSinceEpoch
        let items = [
            item("A", "2026-09-22T06:00:00Z", "2026-09-22T07:00:00Z"),  // 09:00–10:00 Riyadh
            item("B", "2026-09-22T06:30:00Z", "2026-09-22T07:30:00Z"),
            item("C", "2026-09-22T07:00:00Z", "2026-09-22T07:15:00Z"),
            item("D", "2026-09-22T12:00:00Z", "2026-09-22T12:10:00Z"),
        ]
        let (placements, lanes) = layout.placements(items, on: number)
        let byTitle = Dictionary(uniqueKeysWithValues: placements.map { ($0.item.title, $0) })
        #expect(lanes == 2)
        #expect(byTitle["A"]?.row == 36 && byTitle["A"]?.span == 4 && byTitle["A"]?.lane == 0)
        #expect(byTitle["B"]?.lane == 1 && byTitle["C"]?.lane == 0)  // A has ended at 10:00
        #expect(byTitle["D"]?.row == 60 && byTitle["D"]?.span == 1)  // 15:00 for ten minutes: one row
    }

    @Test("an event across midnight is cut at the day's end and goes on the next morning")
    func acrossMidnight() throws {
        let layout = CalendarLayout(view: .week, anchor: try day("2026-09-22"), today: try day("2026-09-22"), zone: riyadh, weekStart: 0)
        let late = item("Late", "2026-09-22T19:00:00Z", "2026-09-22T23:00:00Z")  // 22:00–02:00
        let byDay = layout.itemsByDay([late])
        let first = try day("2026-09-22").daysSinceEpoch
        #expect(byDay[first]?.count == 1 && byDay[first + 1]?.count == 1)
        #expect(layout.placements([late], on: first).placements.first.map { ($0.row, $0.span) } ?? (0, 0) == (88, 8))
        #expect(layout.placements([late], on: first + 1).placements.first.map { ($0.row, $0.span) } ?? (0, 0) == (0, 8))
    }

    @Test("on a clock-change day rows follow the wall clock")
    func daylightSaving() throws {
        // Berlin springs forward on 29 March 2026 at 02:00 → 03:00.
        let layout = CalendarLayout(view: .day, anchor: try day("2026-03-29"), today: try day("2026-03-29"), zone: berlin, weekStart: 1)
        let morning = item("Breakfast", "2026-03-29T07:00:00Z", "2026-03-29T08:00:00Z")  // 09:00–10:00 CEST
        let placed = layout.placements([morning], on: try day("2026-03-29").daysSinceEpoch).placements
        #expect(placed.first?.row == 36 && placed.first?.span == 4)
        #expect(layout.window.end.timeIntervalSince(layout.window.start) == 23 * 3600)
    }

    @Test("colours from CalDAV clients pass only as #rrggbb")
    func colours() {
        #expect(CalendarColors.validated("#FF8800FF") == "#FF8800")
        #expect(CalendarColors.validated("#abc") == CalendarColors.fallback)
        #expect(CalendarColors.validated("red;}body{display:none") == CalendarColors.fallback)
        #expect(CalendarColors.validated(nil) == CalendarColors.fallback)
    }

    @Test("chips and month cells are written with every value escaped, links only where an event can be edited")
    func calendarHTML() {
        var html = CalendarHTML()
        html.chip(.init(title: #"<b>"Tom" & 'Jerry'</b>"#, classes: "item kind-event cal-0", time: "09:00–10:00", href: "/events/c/a.ics?x=1&y=2", cancelled: nil))
        #expect(html.text == #"<a class="item kind-event cal-0" href="/events/c/a.ics?x=1&amp;y=2"><span class="time">09:00–10:00</span> "#
            + #"<span class="title">&lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt;</span></a>"#)
        var prayer = CalendarHTML()
        prayer.chip(.init(title: "الفجر", classes: "item kind-prayer", time: nil, href: nil, cancelled: "ملغى"))
        #expect(prayer.text == #"<span class="item kind-prayer"><span class="title">الفجر</span> <span class="tag">ملغى</span></span>"#)

        var week = CalendarHTML()
        week.monthWeek([
            .init(iso: "2027-03-01", number: "1", label: "Monday, 1 March 2027", dayHref: "/calendar?view=day&date=2027-03-01",
                  addHref: "/events/new?date=2027-03-01", addLabel: "Add an event on Monday, 1 March 2027", inMonth: true, isToday: true,
                  chips: [], more: "+2 more"),
            .init(iso: "2027-02-28", number: "28", label: "Sunday", dayHref: "/d", addHref: "/a", addLabel: "Add", inMonth: false, isToday: false,
                  chips: [.init(title: "Trip", classes: "item", time: nil, href: nil, cancelled: nil)], more: nil),
        ])
        #expect(week.text.contains(#"<td class="day today" aria-current="date" data-date="2027-03-01">"#))
        #expect(week.text.contains(#"<a class="day-number" href="/calendar?view=day&amp;date=2027-03-01" aria-label="Monday, 1 March 2027">1</a>"#))
        #expect(week.text.contains(#"<a class="more" href="/calendar?view=day&amp;date=2027-03-01">+2 more</a>"#))
        #expect(week.text.contains(#"<td class="day other-month" data-date="2027-02-28">"#))
        #expect(week.text.contains(#"<ul class="chips"><li><span class="item"><span class="title">Trip</span></span></li></ul>"#))
        #expect(week.text.hasPrefix("<tr>") && week.text.hasSuffix("</tr>"))
    }
}
