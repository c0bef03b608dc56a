import ICalendar

/// Answers whether one calendar object matches a calendar-query filter (RFC 4791 §7.8, §9.7),
/// time ranges included (§9.9). The server calls this for each candidate its index pre-selected.
public struct CalendarQueryEvaluator: Sendable {
    /// Where floating times and DATE values are placed: the collection's calendar-timezone,
    /// or the query's own `<timezone>` (§7.3, §9.8).
    public var floatingZone: ZoneRules

    public init(floatingZone: ZoneRules = .utc) {
        self.floatingZone = floatingZone
    }

    /// Whether `calendar`, a parsed VCALENDAR, matches `filter`.
    public func matches(_ filter: CalendarFilter, calendar: Component) -> Bool {
        let matcher = CalendarTimeRangeMatcher(
            // VTIMEZONEs are read only when a time-range will need them.
            calendar: filter.root.containsTimeRange ? calendar : Component(name: calendar.name),
            floatingZone: floatingZone)
        return CalendarFilterEvaluator(timeRanges: matcher).matches(filter, object: calendar)
    }

    /// The same answer, taken from the object's `EventInstanceIndex` when the filter is the plain
    /// event range (`CalendarFilter.eventTimeRange`) and the index covers it. Each argument is
    /// asked for only when needed: `events` (which must be built in this evaluator's
    /// `floatingZone`) for a plain event range, `calendar` otherwise; a nil calendar matches nothing.
    public func matches(_ filter: CalendarFilter, calendar: () -> Component?, events: () -> EventInstanceIndex?) -> Bool {
        if let range = filter.eventTimeRange, let answer = events()?.overlaps(range) { return answer }
        guard let calendar = calendar() else { return false }
        return matches(filter, calendar: calendar)
    }
}

extension CompFilter {
    var containsTimeRange: Bool {
        timeRange != nil || propFilters.contains { $0.timeRange != nil } || compFilters.contains { $0.containsTimeRange }
    }
}
