import ICalendar

/// Where one calendar object's events happen within a window: every instance of its VEVENTs,
/// sorted by start. Nearly every client query is "the events in this range", and expanding a
/// recurring series afresh for each query was most of a query's cost; with the instances
/// expanded once per object, that filter is a binary search.
///
/// The instances are the ones `CalendarTimeRangeMatcher` tests, found the same way (each VEVENT
/// through its own recurrence set, cancelled instances of a live series left out), so for any
/// range inside `covered` the answer is the one the full evaluation gives.
public struct EventInstanceIndex: Sendable {
    /// Ranges inside this one are answered; anything reaching outside it is left to the
    /// evaluator (nil from `overlaps`).
    let covered: InstantRange
    private let spans: [InstanceSpan]
    /// The longest instance, which bounds how far before a range an overlapping one can start.
    private let longest: Int64

    /// Expands `calendar`'s VEVENTs over `window` (seconds since 1970), reading floating times
    /// and dates in `floatingZone`.
    public init(calendar: Component, floatingZone: ZoneRules, window: ClosedRange<Int64>) {
        // The evaluator widens a range by up to two days before expanding (all-day values, see
        // `CalendarTimeline.margin`); an index answers only ranges that widening keeps inside.
        let margin: Int64 = 2 * 86_400
        var coveredEnd = window.upperBound.minus(margin)
        let timeline = CalendarTimeline(calendar: calendar, floatingZone: floatingZone)
        var spans: [InstanceSpan] = []
        let options = ExpansionOptions(
            maxInstances: ExpansionBudget.instances, floatingZone: floatingZone, includeCancelled: true,
            periodBudget: ExpansionBudget.periods)
        // Each recurrence set (a UID's master and overrides) is expanded once, with its first
        // member: every instance belongs to one of its members. Expanding it again for each
        // member made an object with thousands of overrides quadratic (37 s at 4,000).
        var expanded = Set<String>()
        for event in calendar.components where event.name == "VEVENT" {
            let uid = event.first("UID")?.value ?? ""
            if !uid.isEmpty, !expanded.insert(uid).inserted { continue }
            let set = timeline.recurrenceSet(of: event, in: calendar)
            guard let result = try? set.occurrences(
                from: window.lowerBound, to: window.upperBound, resolver: timeline.resolver, options: options)
            else { continue }  // undecodable dates or rules: the set has no place in time, as in the evaluator
            for occurrence in result.occurrences where !CalendarTimeline.isCancelledInstance(occurrence, in: set) {
                spans.append(timeline.span(of: occurrence))
            }
            if result.truncated {
                // The expander stopped early: only what lies before its last instance is known.
                let last = result.occurrences.last.map { timeline.span(of: $0).start } ?? window.lowerBound
                coveredEnd = min(coveredEnd, last)
            }
        }
        spans.sort { $0.start < $1.start }
        self.spans = spans
        self.longest = spans.reduce(0) { max($0, $1.end.minus($1.start)) }
        self.covered = InstantRange(start: window.lowerBound.plus(margin), end: coveredEnd)
    }

    /// The number of instances held (for sizing caches).
    public var count: Int { spans.count }

    /// Whether some event instance overlaps `range` (RFC 4791 §9.9, the VEVENT rows); nil when
    /// `range` reaches outside `covered`.
    public func overlaps(_ range: TimeRange) -> Bool? {
        let range = InstantRange(range)
        guard covered.start <= range.start, range.end <= covered.end, range.start <= range.end else { return nil }
        // Instances starting before `range.start - longest` end before the range does.
        var index = firstIndex(startingAtOrAfter: range.start.minus(longest))
        while index < spans.count, spans[index].start < range.end {
            if range.overlaps(start: spans[index].start, end: spans[index].end) { return true }
            index += 1
        }
        return false
    }

    private func firstIndex(startingAtOrAfter instant: Int64) -> Int {
        var low = 0, high = spans.count
        while low < high {
            let middle = (low + high) / 2
            if spans[middle].start < instant { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

extension CalendarFilter {
    /// The range of the filter every client sends for "events in this range": a VEVENT
    /// comp-filter holding only a time-range, under a VCALENDAR holding only it. Nil for any
    /// other shape, which the evaluator decides in full.
    public var eventTimeRange: TimeRange? {
        guard root.timeRange == nil, root.propFilters.isEmpty, root.compFilters.count == 1, let event = root.compFilters.first,
              event.name == "VEVENT", !event.isNotDefined, event.propFilters.isEmpty, event.compFilters.isEmpty
        else { return nil }
        return event.timeRange
    }
}
