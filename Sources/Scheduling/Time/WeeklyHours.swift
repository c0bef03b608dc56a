import Foundation

/// The same clock hours on chosen days of every week: a routine's time, sleep (23:00–07:00),
/// working hours (09:00–17:00 on weekdays).
///
/// - `end` before `start` means the hours cross midnight and end on the next day; `days` are the
///   days the hours *start* on (sleep on Sunday night ends on Monday morning), as a recurring
///   event's `BYDAY` counts its DTSTART.
/// - Daylight saving: both ends are wall-clock readings, each resolved on its own day with
///   RFC 5545's rule (section 3.3.5), as a phone resolves a recurring event's DTSTART and DTEND: a
///   reading skipped by a spring-forward gap moves forward by the gap, a reading that happens
///   twice on a fall-back night means its first occurrence. So in Europe/Berlin on 2026-03-29
///   (02:00 → 03:00) sleep 23:00–07:00 lasts 7 real hours and 01:30–02:30 lasts one (01:30–03:30
///   on the clock). When the start falls in the gap and the end reading would then come at or
///   before it (02:30–03:00 that night: 03:30 and 03:00), the occurrence keeps its clock length
///   from the moved start (03:30–04:00) rather than vanish or run backwards: a 02:30 night prayer
///   still happens that night, half an hour long.
public struct WeeklyHours: Sendable, Hashable, CustomStringConvertible {
    public let start: TimeOfDay
    public let end: TimeOfDay
    public let days: DaysOfWeek

    /// Throws ``SchedulingError/endEqualsStart(_:)`` when `end == start`: such hours would be
    /// either nothing or the whole day, and either reading surprises someone.
    public init(start: TimeOfDay, end: TimeOfDay, days: DaysOfWeek) throws(SchedulingError) {
        guard start != end else { throw .endEqualsStart(start) }
        self.start = start
        self.end = end
        self.days = days
    }

    /// True when the hours end on the day after they start.
    public var crossesMidnight: Bool { end < start }

    /// The length on the clock face, ignoring daylight-saving changes (23:00–07:00 is 8 hours).
    public var clockLength: TimeInterval {
        let minutes = (end.minutesSinceMidnight - start.minutesSinceMidnight + 1440) % 1440
        return TimeInterval(minutes * 60)
    }

    /// Every occurrence that overlaps `window`, in time order, unclipped (an occurrence that began
    /// before the window is returned whole). Computed with a Gregorian calendar in `timeZone`.
    public func occurrences(in window: TimeRange, timeZone: TimeZone) -> [TimeRange] {
        occurrences(in: window, calendar: LocalCalendar(timeZone: timeZone))
    }

    func occurrences(in window: TimeRange, calendar: LocalCalendar) -> [TimeRange] {
        var result: [TimeRange] = []
        // Start a day early: last night's hours may still be running when the window opens.
        var day = calendar.day(before: calendar.day(containing: window.start))
        while day.start < window.end {
            let next = calendar.day(after: day)
            if days.contains(day.isoWeekday) {
                let from = calendar.instant(on: day, at: start)
                var to = calendar.instant(on: crossesMidnight ? next : day, at: end)
                if to <= from { to = from.addingTimeInterval(clockLength) }  // start moved by a gap
                if from < window.end, window.start < to {
                    result.append(TimeRange(uncheckedStart: from, end: to))
                }
            }
            day = next
        }
        return result
    }

    public var description: String { "\(start)–\(end) \(days)" }
}
