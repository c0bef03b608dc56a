import Foundation

/// When a person may be given something to do: awake, and within working hours if they set any,
/// in their own time zone.
///
/// This is about hours, not about what is already planned: busy blocks (prayers included) are
/// ``BusyTime``'s part.
public struct Availability: Sendable {
    public let timeZone: TimeZone
    /// Hours never offered (sleep, from the sleep routine: 23:00–07:00 crosses midnight).
    public let asleep: [WeeklyHours]
    /// When not empty, only these hours are offered; when empty, every waking hour is.
    public let working: [WeeklyHours]
    let calendar: LocalCalendar

    public init(timeZone: TimeZone, asleep: [WeeklyHours] = [], working: [WeeklyHours] = []) {
        self.timeZone = timeZone
        self.asleep = asleep
        self.working = working
        self.calendar = LocalCalendar(timeZone: timeZone)
    }

    /// Awake outside `sleep` (the sleep routine's hours), within `workingHours` when given.
    public init(timeZone: TimeZone, sleep: Routine?, workingHours: WeeklyHours? = nil) {
        self.init(timeZone: timeZone, asleep: sleep.map { [$0.hours] } ?? [], working: workingHours.map { [$0] } ?? [])
    }

    /// Any time at all, in `timeZone` (day boundaries still come from it).
    public static func always(in timeZone: TimeZone) -> Availability {
        Availability(timeZone: timeZone)
    }

    /// The allowed parts of `window`, sorted and disjoint, clipped to the window.
    public func allowedRanges(in window: TimeRange) -> [TimeRange] {
        var allowed: [TimeRange]
        if working.isEmpty {
            allowed = [window]
        } else {
            let hours = working.flatMap { $0.occurrences(in: window, calendar: calendar) }.compactMap { $0.intersection(window) }
            allowed = Self.union(hours)
        }
        let sleep = Self.union(asleep.flatMap { $0.occurrences(in: window, calendar: calendar) })
        if !sleep.isEmpty { allowed = Self.subtract(sleep, from: allowed) }
        return allowed
    }

    /// True when all of `range` is allowed.
    public func allows(_ range: TimeRange) -> Bool {
        allowedRanges(in: range) == [range]
    }

    /// Sorted, disjoint, touching ranges joined.
    static func union(_ ranges: [TimeRange]) -> [TimeRange] {
        var result: [TimeRange] = []
        for range in ranges.sorted(by: { $0.start < $1.start }) {
            if let last = result.last, range.start <= last.end {
                if range.end > last.end { result[result.count - 1] = TimeRange(uncheckedStart: last.start, end: range.end) }
            } else {
                result.append(range)
            }
        }
        return result
    }

    /// `ranges` minus `holes`; both sorted and disjoint.
    static func subtract(_ holes: [TimeRange], from ranges: [TimeRange]) -> [TimeRange] {
        var result: [TimeRange] = []
        var holeIndex = 0
        for range in ranges {
            var cursor = range.start
            while holeIndex < holes.count, holes[holeIndex].end <= cursor { holeIndex += 1 }
            var index = holeIndex
            while index < holes.count, holes[index].start < range.end {
                if holes[index].start > cursor { result.append(TimeRange(uncheckedStart: cursor, end: holes[index].start)) }
                cursor = max(cursor, holes[index].end)
                index += 1
            }
            if cursor < range.end { result.append(TimeRange(uncheckedStart: cursor, end: range.end)) }
        }
        return result
    }
}
