import Foundation

/// Finds where an event could go instead: free slots of the same length, ranked for a person.
///
/// The rules, in order:
/// - a slot lies in allowed hours (``Availability``: awake, within working hours if set), outside
///   every busy block, prayer blocks included, and starts no earlier than `now`;
/// - slots start on the local wall-clock grid of `step` (:00, :15, :30, :45 for 15 minutes);
/// - days are searched from the original's local day forward, for `horizonDays` days, and the
///   search stops on the first day that completes `count` slots, so a crowded week costs little;
/// - a nearer day always ranks first (the same-day preference); within a day, slots rank by
///   distance from the original's clock time on that day, a later slot before an earlier one at
///   the same distance (postponing is the more usual wish);
/// - at most one slot per free stretch, the one nearest that time: five suggestions are then five
///   different choices ("after Asr", "after Maghrib", …), not 10:00, 10:15, 10:30 in one gap.
///
/// A slot starts on a day but may end after midnight when no sleep hours forbid it. The busy time
/// must cover the horizon (the original's day plus `horizonDays`) for the answer to be right.
public struct FreeSlotSearch: Sendable {
    public let availability: Availability
    /// How many slots to find at most.
    public let count: Int
    /// How many local days to search, the original's day included.
    public let horizonDays: Int
    /// The grid, in seconds: a whole number of minutes that divides an hour or a day.
    public let step: TimeInterval

    /// Throws ``SchedulingError/invalidSetting(field:reason:)`` for a count outside 1…50, a
    /// horizon outside 1…62 days or a step that is not a whole number of minutes from 1 to 1440.
    public init(availability: Availability, count: Int = 5, horizonDays: Int = 7, step: TimeInterval = 15 * 60) throws(SchedulingError) {
        guard (1...50).contains(count) else { throw .invalidSetting(field: "count", reason: "\(count) is out of range (expected 1 … 50)") }
        guard (1...62).contains(horizonDays) else {
            throw .invalidSetting(field: "horizonDays", reason: "\(horizonDays) is out of range (expected 1 … 62)")
        }
        try Self.checkStep(step)
        self.availability = availability
        self.count = count
        self.horizonDays = horizonDays
        self.step = step
    }

    static func checkStep(_ step: TimeInterval, field: String = "step") throws(SchedulingError) {
        guard step >= 60, step <= 86_400, step.truncatingRemainder(dividingBy: 60) == 0 else {
            throw .invalidSetting(field: field, reason: "\(step) s is not a whole number of minutes from 1 to 1440")
        }
    }

    /// Slots for the conflicting block: its length, leaving its own old place out of the busy time.
    public func suggestions(for conflict: Conflict, busy: BusyTime, now: Date) -> [FreeSlot] {
        suggestions(for: conflict.block.range, excluding: conflict.block.referenceID, busy: busy, now: now)
    }

    /// Slots as long as `range`, ranked by closeness to it; blocks with reference `excluding`
    /// (the event being moved) do not count as busy.
    public func suggestions(for range: TimeRange, excluding referenceID: String? = nil, busy: BusyTime, now: Date) -> [FreeSlot] {
        let calendar = availability.calendar
        let duration = range.duration
        let clock = calendar.clockReading(of: range.start)
        let earliest = calendar.alignUp(now, step: step)
        var found: [FreeSlot] = []
        var day = calendar.day(containing: range.start)

        for dayIndex in 0..<horizonDays {
            let next = calendar.day(after: day)
            defer { day = next }
            let from = max(day.start, earliest)
            let lastStart = next.start.addingTimeInterval(-1)
            guard from <= lastStart,
                  let window = try? TimeRange(start: from, end: next.start.addingTimeInterval(duration))
            else { continue }
            let target = dayIndex == 0
                ? range.start
                : calendar.instant(on: day, hour: clock.hour, minute: clock.minute, second: clock.second)

            // The start nearest the target in each free stretch of the day.
            var starts: [Date] = []
            for allowed in availability.allowedRanges(in: window) {
                for gap in busy.freeRanges(in: allowed, excluding: referenceID) {
                    let low = calendar.alignUp(max(gap.start, from), step: step)
                    let high = calendar.alignDown(min(gap.end.addingTimeInterval(-duration), lastStart), step: step)
                    guard low <= high else { continue }
                    let clamped = min(max(target, low), high)
                    let down = max(low, calendar.alignDown(clamped, step: step))
                    let up = min(high, calendar.alignUp(clamped, step: step))
                    starts.append(up.timeIntervalSince(target) <= target.timeIntervalSince(down) ? up : down)
                }
            }
            starts.sort { a, b in
                let x = abs(a.timeIntervalSince(target)), y = abs(b.timeIntervalSince(target))
                return x != y ? x < y : a > b
            }

            for start in starts {
                let slot = TimeRange(uncheckedStart: start, end: start.addingTimeInterval(duration))
                let explanation = SlotExplanation(
                    day: dayIndex == 0 ? .sameDay : dayIndex == 1 ? .nextDay : .later(days: dayIndex, isoWeekday: day.isoWeekday),
                    offset: start.timeIntervalSince(target),
                    prayer: Self.prayerNeighbour(of: slot, within: day.start..<next.start, busy: busy))
                found.append(FreeSlot(range: slot, explanation: explanation))
                if found.count == count { return found }
            }
        }
        return found
    }

    /// The nearer of the prayer ending last before the slot and the one starting first after it,
    /// both on the slot's local day; the earlier prayer when they are as near.
    static func prayerNeighbour(of slot: TimeRange, within day: Range<Date>, busy: BusyTime) -> SlotExplanation.PrayerNeighbour? {
        let around = busy.prayers(endingBy: slot.start, startingFrom: slot.end)
        // Plain ifs rather than a switch over two optionals: Swift 6.3's optimizer crashes on that.
        var sinceEnd = TimeInterval.infinity
        var previousName: PrayerName?
        if let previous = around.before, day.contains(previous.range.start), let name = prayerName(previous) {
            sinceEnd = slot.start.timeIntervalSince(previous.range.end)
            previousName = name
        }
        var untilStart = TimeInterval.infinity
        var followingName: PrayerName?
        if let following = around.after, day.contains(following.range.start), let name = prayerName(following) {
            untilStart = following.range.start.timeIntervalSince(slot.end)
            followingName = name
        }
        if let previousName, sinceEnd <= untilStart { return .after(previousName) }
        if let followingName { return .before(followingName) }
        return nil
    }

    private static func prayerName(_ block: BusyBlock) -> PrayerName? {
        if case .prayer(let name) = block.kind { return name }
        return nil
    }
}
