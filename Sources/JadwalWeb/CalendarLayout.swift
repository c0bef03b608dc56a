import Foundation
import ICalendar
import JadwalCore
import JadwalHTTP
import PrayerTimes

/// Where things go on the calendar screens: which days a view shows, and the place of each
/// event, routine and prayer on them. It knows nothing of storage or HTTP: items in, the values
/// the templates draw out.
package struct CalendarLayout {
    package enum View: String, CaseIterable, Sendable {
        case month, week, day, agenda
    }

    /// Something on the calendar.
    package struct Item: Sendable {
        package enum Kind: String, Sendable {
            case event, routine, prayer, task, todo
        }

        package var title: String
        package var start: Date
        package var end: Date
        package var isAllDay: Bool
        package var kind: Kind
        /// The CSS class giving the calendar's colour (`cal-2`).
        package var colorClass: String
        /// Where to edit it; nil for prayers, which are computed, not stored.
        package var href: String?
        package var isCancelled: Bool = false
        /// The event's own colour (a CSS3 name), shown as a dot beside the calendar's colour.
        package var eventColor: String? = nil
        /// A deadline: a moment, drawn as a marker rather than a block.
        package var isDeadline: Bool = false
        /// Where its open conflict is shown (`/conflicts?conflict=…`); nil when it has none.
        package var conflictHref: String? = nil
        /// A to-do that is done (struck through).
        package var isDone: Bool = false
        /// A to-do due at a time (shown beside its title), not just on a day.
        package var hasDueTime: Bool = false
        /// The calendar's name, shown beside its colour (nil for prayers, which say what they are).
        package var calendar: String? = nil
        /// The person's answer when someone else invited them to it; nil for their own events.
        package var invitation: ParticipationStatus? = nil
    }

    package let view: View
    package let anchor: LocalDate
    package let today: LocalDate
    package let zone: TimeZone
    /// 0 = Sunday … 6 = Saturday.
    package let weekStart: Int
    /// Gregorian in `zone`, made once: a month of 500 events asks it thousands of times.
    private let calendar: Foundation.Calendar

    package init(view: View, anchor: LocalDate, today: LocalDate, zone: TimeZone, weekStart: Int) {
        self.view = view
        self.anchor = anchor
        self.today = today
        self.zone = zone
        self.weekStart = weekStart
        var calendar = Foundation.Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        self.calendar = calendar
    }

    /// Rows of 15 minutes: 96 a day.
    package static let rowsPerDay = 96
    /// Side-by-side columns for overlapping events; more share the last one.
    package static let maxLanes = 4
    package static let monthChips = 3
    package static let agendaDays = 30

    /// The days the view shows, first through last.
    package var days: ClosedRange<Int> {
        switch view {
        case .day:
            return anchor.daysSinceEpoch...anchor.daysSinceEpoch
        case .week:
            let first = startOfWeek(anchor)
            return first.daysSinceEpoch...(first.daysSinceEpoch + 6)
        case .agenda:
            return anchor.daysSinceEpoch...(anchor.daysSinceEpoch + Self.agendaDays - 1)
        case .month:
            let first = (try? LocalDate(year: anchor.year, month: anchor.month, day: 1)) ?? anchor
            let gridStart = startOfWeek(first)
            let last = first.daysSinceEpoch + Self.length(year: anchor.year, month: anchor.month) - 1
            let weeks = (last - gridStart.daysSinceEpoch) / 7 + 1
            return gridStart.daysSinceEpoch...(gridStart.daysSinceEpoch + weeks * 7 - 1)
        }
    }

    /// The instants the view covers: midnight of the first day to midnight after the last.
    package var window: (start: Date, end: Date) {
        (midnight(LocalDate(daysSinceEpoch: days.lowerBound)), midnight(LocalDate(daysSinceEpoch: days.upperBound + 1)))
    }

    /// The anchor of the previous and next page of this view.
    package var previous: LocalDate { step(-1) }
    package var next: LocalDate { step(1) }

    private func step(_ direction: Int) -> LocalDate {
        switch view {
        case .day: return anchor.adding(days: direction)
        case .week: return anchor.adding(days: 7 * direction)
        case .agenda: return anchor.adding(days: Self.agendaDays * direction)
        case .month:
            let months = anchor.year * 12 + (anchor.month - 1) + direction
            let year = months / 12, month = months % 12 + 1
            return (try? LocalDate(year: year, month: month, day: min(anchor.day, Self.length(year: year, month: month)))) ?? anchor
        }
    }

    /// Days in a month: from its first day to the next month's.
    package static func length(year: Int, month: Int) -> Int {
        guard let first = try? LocalDate(year: year, month: month, day: 1),
              let next = try? LocalDate(year: month == 12 ? year + 1 : year, month: month == 12 ? 1 : month + 1, day: 1) else { return 30 }
        return next.daysSinceEpoch - first.daysSinceEpoch
    }

    package func startOfWeek(_ date: LocalDate) -> LocalDate {
        date.adding(days: -((date.weekday - weekStart + 7) % 7))
    }

    /// The hour a week or day view opens at: an hour before now when today is shown, otherwise
    /// the start of the person's working day (08:00 when they set none), so the grid does not
    /// open at midnight.
    package func openingHour(now: Date, workingStart: Int?) -> Int {
        if days.contains(today.daysSinceEpoch) {
            let hour = calendar.component(.hour, from: now)
            return max(0, hour - 1)
        }
        return min(23, max(0, workingStart ?? 8))
    }

    package func midnight(_ date: LocalDate) -> Date {
        // A day whose midnight is skipped by a clock change starts at the first instant it has.
        return calendar.date(from: DateComponents(year: date.year, month: date.month, day: date.day))
            ?? Date(timeIntervalSince1970: Double(date.daysSinceEpoch) * 86_400)
    }

    package func localDay(_ instant: Date) -> LocalDate { Self.localDay(instant, calendar: calendar) }

    /// The day an instant falls on in the calendar's zone.
    package static func localDay(_ instant: Date, calendar: Foundation.Calendar) -> LocalDate {
        let parts = calendar.dateComponents([.year, .month, .day], from: instant)
        return (try? LocalDate(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)) ?? LocalDate(daysSinceEpoch: 0)
    }

    /// The days an item appears on: an all-day event's end date is the day after its last.
    package func daySpan(of item: Item) -> ClosedRange<Int> {
        let first = localDay(item.start).daysSinceEpoch
        let lastInstant = item.end > item.start ? item.end.addingTimeInterval(-1) : item.start
        return first...max(first, localDay(lastInstant).daysSinceEpoch)
    }

    /// The items of each shown day, all-day first, then by start.
    package func itemsByDay(_ items: [Item]) -> [Int: [Item]] {
        var byDay: [Int: [Item]] = [:]
        for item in items {
            let span = daySpan(of: item).clamped(to: days)
            guard !span.isEmpty, span.lowerBound <= days.upperBound, span.upperBound >= days.lowerBound else { continue }
            for day in span { byDay[day, default: []].append(item) }
        }
        for day in byDay.keys {
            byDay[day]?.sort { ($0.isAllDay ? 0 : 1, $0.start, $0.title) < ($1.isAllDay ? 0 : 1, $1.start, $1.title) }
        }
        return byDay
    }

    /// A timed item's piece on one day, in 15-minute rows, with its column among overlapping ones.
    package struct Placement: Sendable {
        package var item: Item
        package var row: Int
        package var span: Int
        package var lane: Int
    }

    /// The timed items of `day` placed on its grid, and how many columns the day needs.
    package func placements(_ items: [Item], on day: Int) -> (placements: [Placement], lanes: Int) {
        let dayStart = midnight(LocalDate(daysSinceEpoch: day))
        let dayEnd = midnight(LocalDate(daysSinceEpoch: day + 1))
        var pieces: [Placement] = []
        for item in items where !item.isAllDay && item.kind != .prayer {
            let start = max(item.start, dayStart), end = min(item.end, dayEnd)
            guard start < end || (item.start == item.end && item.start >= dayStart && item.start < dayEnd) else { continue }
            let row = min(Self.rowsPerDay - 1, wallRow(start, dayStart: dayStart))
            let endRow = end >= dayEnd ? Self.rowsPerDay : wallRow(end, dayStart: dayStart, roundingUp: true)
            pieces.append(Placement(item: item, row: row, span: max(1, endRow - row), lane: 0))
        }
        pieces.sort { ($0.row, -$0.span, $0.item.title) < ($1.row, -$1.span, $1.item.title) }
        // Greedy columns: each piece takes the first column free at its start row.
        var laneEnds: [Int] = []
        for index in pieces.indices {
            let piece = pieces[index]
            if let free = laneEnds.firstIndex(where: { $0 <= piece.row }) {
                pieces[index].lane = free
                laneEnds[free] = piece.row + piece.span
            } else if laneEnds.count < Self.maxLanes {
                pieces[index].lane = laneEnds.count
                laneEnds.append(piece.row + piece.span)
            } else {
                pieces[index].lane = Self.maxLanes - 1
                laneEnds[Self.maxLanes - 1] = max(laneEnds[Self.maxLanes - 1], piece.row + piece.span)
            }
        }
        return (pieces, max(1, laneEnds.count))
    }

    /// The prayers of `day` on its grid (drawn as bands behind the events).
    package func prayerPlacements(_ items: [Item], on day: Int) -> [Placement] {
        let dayStart = midnight(LocalDate(daysSinceEpoch: day))
        let dayEnd = midnight(LocalDate(daysSinceEpoch: day + 1))
        return items.filter { $0.kind == .prayer && $0.start >= dayStart && $0.start < dayEnd }.map { item in
            let row = min(Self.rowsPerDay - 1, wallRow(item.start, dayStart: dayStart))
            let endRow = item.end >= dayEnd ? Self.rowsPerDay : wallRow(item.end, dayStart: dayStart, roundingUp: true)
            return Placement(item: item, row: row, span: max(1, endRow - row), lane: 0)
        }
    }

    /// The row of an instant by the wall clock (a clock change shifts the rest of the day, as on a paper calendar).
    private func wallRow(_ instant: Date, dayStart: Date, roundingUp: Bool = false) -> Int {
        let parts = calendar.dateComponents([.hour, .minute, .second], from: instant)
        let minutes = (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
        let exact = minutes % 15 == 0 && (parts.second ?? 0) == 0
        return minutes / 15 + (roundingUp && !exact ? 1 : 0)
    }
}
