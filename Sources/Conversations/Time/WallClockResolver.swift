import Foundation

/// Turns wall-clock times of one zone into instants, fast: a day with no offset change is
/// resolved with one cached offset; only days near a transition take the careful path.
///
/// - A time in a spring-forward gap (02:30 on the night clocks jump 02:00 -> 03:00) is read with
///   the offset before the jump, which moves it forward by the gap (03:30), like Foundation's Calendar.
/// - A time that happens twice (01:30 on the night clocks fall back) is the earlier instant, unless
///   the previous message is already later than that: then the second one, so that a chat written
///   across the repeated hour keeps its order.
struct WallClockResolver {
    let zone: TimeZone
    /// Local day number -> the zone's offset for the whole day, or nil when the day is near a transition.
    private var fixedOffsetByDay: [Int: Int?] = [:]
    private var previousInstant: Int?

    init(zone: TimeZone) {
        self.zone = zone
    }

    /// Seconds since 1970-01-01T00:00:00Z for `local` on this zone's wall clock.
    mutating func instant(for local: LocalDateTime) -> Int {
        let localSeconds = local.secondsSinceEpochAsUTC
        let day = local.daysSinceEpoch
        let fixed: Int?
        if let cached = fixedOffsetByDay[day] {
            fixed = cached
        } else {
            fixed = fixedOffset(forLocalDay: day)
            fixedOffsetByDay[day] = fixed
        }
        let result: Int
        if let fixed {
            result = localSeconds - fixed
        } else {
            result = resolveNearTransition(localSeconds)
        }
        previousInstant = result
        return result
    }

    private func offset(at instant: Int) -> Int {
        zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant)))
    }

    /// The offset in force during all of a local day, if it does not change around it.
    private func fixedOffset(forLocalDay day: Int) -> Int? {
        // Every instant whose wall clock falls on this day lies in [midnight - 14 h, midnight + 36 h].
        let start = day * 86_400 - 14 * 3_600
        let end = day * 86_400 + 36 * 3_600
        let first = offset(at: start)
        guard offset(at: end) == first else { return nil }
        if let next = zone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: TimeInterval(start))),
           next.timeIntervalSince1970 <= TimeInterval(end) {
            return nil
        }
        return first
    }

    private func resolveNearTransition(_ localSeconds: Int) -> Int {
        // Offsets are within -12 h...+14 h, so a day either side brackets any transition.
        let before = offset(at: localSeconds - 86_400)
        let after = offset(at: localSeconds + 86_400)
        var candidates: [Int] = []
        for candidateOffset in [before, after] {
            let instant = localSeconds - candidateOffset
            if offset(at: instant) == candidateOffset, !candidates.contains(instant) {
                candidates.append(instant)
            }
        }
        candidates.sort()
        guard let earliest = candidates.first else {
            // In a gap: the offset before the jump pushes the time forward by the gap's length.
            return localSeconds - before
        }
        if let previousInstant, let notEarlier = candidates.first(where: { $0 >= previousInstant }) {
            return notEarlier
        }
        return earliest
    }
}
