import Foundation
import ICalendar

/// When a VALARM fires (RFC 5545 §3.8.6.3, §3.6.6): at an absolute instant, or at an offset from
/// the start or end of each instance of its parent, then REPEAT more times every DURATION.
struct AlarmTrigger: Sendable, Hashable {
    enum Anchor: Sendable, Hashable {
        case absolute(Int64)
        /// Offset in seconds from each instance's start (DTSTART, or DUE for a to-do without one).
        case start(offset: Int64)
        /// Offset in seconds from each instance's end (DTEND, DUE, or DTSTART+DURATION).
        case end(offset: Int64)
    }

    var anchor: Anchor
    /// Extra firings after the first (REPEAT); 0 when REPEAT or its DURATION is missing.
    var repeats: Int64
    /// Seconds between firings.
    var interval: Int64

    init?(alarm: Component, timeline: CalendarTimeline) {
        guard let trigger = alarm.first("TRIGGER") else { return nil }
        let value = trigger.value.trimmingCharacters(in: .whitespaces)
        let isDuration = value.first.map { "P+-".contains($0.uppercased()) } ?? false
        if trigger.parameter("VALUE")?.uppercased() == "DATE-TIME" || !isDuration {
            guard let instant = timeline.instant(of: trigger) else { return nil }
            anchor = .absolute(instant)
        } else {
            guard let offset = try? ICalendar.Duration.parse(value) else { return nil }
            // Nominal days are taken as 24 hours here; an alarm a day before an instance across
            // a DST change may be off by the change, which matters little for a query.
            let seconds = offset.totalSeconds
            anchor = trigger.parameter("RELATED")?.uppercased() == "END" ? .end(offset: seconds) : .start(offset: seconds)
        }
        let count = alarm.first("REPEAT").flatMap { Int64($0.value.trimmingCharacters(in: .whitespaces)) } ?? 0
        let every = alarm.first("DURATION").flatMap { try? ICalendar.Duration.parse($0.value) }?.totalSeconds ?? 0
        if count > 0 && every > 0 {
            repeats = count
            interval = every
        } else {
            repeats = 0
            interval = 0
        }
    }

    /// How far after the first firing the last one comes.
    var repeatSpan: Int64 { repeats.times(interval) }

    /// Whether a firing at `first` or one of its repeats lies in `range` (`start <= t < end`),
    /// found arithmetically so a huge REPEAT costs nothing.
    func fires(from first: Int64, in range: InstantRange) -> Bool {
        guard first < range.end else { return false }
        if first >= range.start { return true }
        guard interval > 0 else { return false }
        let gap = range.start.minus(first)
        let steps = gap / interval + (gap % interval == 0 ? 0 : 1)
        guard steps <= repeats else { return false }
        return range.contains(first.plus(steps.times(interval)))
    }
}
