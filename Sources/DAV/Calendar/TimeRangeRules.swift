import ICalendar

/// The overlap tables of RFC 4791 §9.9, one function per component kind. Inputs are already in
/// absolute time (see `CalendarTimeline`); `range` bounds are inclusive start, exclusive end.
enum TimeRangeRule {
    /// Whether one instance of a VEVENT, VTODO, VJOURNAL (or AVAILABLE, X-) overlaps `range`.
    /// `component` is the one describing the instance (the master or its override).
    static func instance(of component: Component, span: InstanceSpan, overlaps range: InstantRange) -> Bool {
        if component.name == "VTODO" { return todo(component, span: span, overlaps: range) }
        // VEVENT rows: DTEND or DURATION > 0 is a half-open span; DURATION 0 or a DATE-TIME with
        // neither is a point; a DATE with neither lasts P1D (the expander already gave it that
        // day, and `CalendarTimeline.span` gives a dated VJOURNAL its day too).
        return range.overlaps(start: span.start, end: span.end)
    }

    /// The VTODO table for a to-do with DTSTART or DUE. The expander starts a to-do without
    /// DTSTART at its DUE, and ends it at DUE or DTSTART+DURATION.
    static func todo(_ todo: Component, span: InstanceSpan, overlaps range: InstantRange) -> Bool {
        let (start, end) = (span.start, span.end)
        let hasStart = todo.first("DTSTART") != nil
        if hasStart && todo.first("DUE") != nil {
            return (range.start < end || range.start <= start) && (range.end > start || range.end >= end)
        }
        if hasStart && todo.first("DURATION") != nil {
            return range.start <= end && (range.end > start || range.end >= end)
        }
        if hasStart {
            return range.start <= start && range.end > start
        }
        return range.start < end && range.end >= end  // DUE only
    }

    /// Whether a to-do has neither DTSTART nor DUE, so only COMPLETED and CREATED place it.
    static func isUndated(_ todo: Component) -> Bool {
        todo.first("DTSTART") == nil && todo.first("DUE") == nil
    }

    /// The last four VTODO rows. An unreadable COMPLETED or CREATED counts as absent.
    static func undatedTodo(completed: Int64?, created: Int64?, overlaps range: InstantRange) -> Bool {
        switch (completed, created) {
        case let (completed?, created?):
            return (range.start <= created || range.start <= completed) && (range.end >= created || range.end >= completed)
        case let (completed?, nil):
            return range.start <= completed && range.end >= completed
        case let (nil, created?):
            return range.end > created
        case (nil, nil):
            return true
        }
    }

    /// The VFREEBUSY table: DTSTART and DTEND when both are there (note `<=` at DTEND),
    /// otherwise any FREEBUSY period of any type.
    static func freeBusy(_ component: Component, timeline: CalendarTimeline, overlaps range: InstantRange) -> Bool {
        if let startProperty = component.first("DTSTART"), let endProperty = component.first("DTEND") {
            guard let start = timeline.instant(of: startProperty), let end = timeline.instant(of: endProperty) else { return false }
            return range.start <= end && range.end > start
        }
        return component.all("FREEBUSY").contains { property in
            FreeBusyPeriod.periods(of: property, timeline: timeline).contains { range.start < $0.end && range.end > $0.start }
        }
    }

    /// VAVAILABILITY (RFC 7953 §3.1): a missing DTSTART or end leaves that side unbounded.
    static func availability(_ component: Component, timeline: CalendarTimeline, overlaps range: InstantRange) -> Bool {
        var start = Int64.min, end = Int64.max
        if let property = component.first("DTSTART") {
            guard let value = try? property.dateValue(), let instant = timeline.instant(value) else { return false }
            start = instant
            if let duration = component.first("DURATION").flatMap({ try? ICalendar.Duration.parse($0.value) }),
               let effective = timeline.instant(value, plus: duration) {
                end = effective
            }
        }
        if let property = component.first("DTEND") {
            guard let instant = timeline.instant(of: property) else { return false }
            end = instant
        }
        return range.start < end && range.end > start
    }
}

/// One period of a FREEBUSY property, with the text it was written as so a limited
/// property can be rewritten without reformatting the periods it keeps.
struct FreeBusyPeriod: Sendable, Hashable {
    var text: Substring
    var start: Int64
    var end: Int64

    /// The readable periods of a FREEBUSY property (RFC 5545 §3.8.2.6: comma-separated
    /// start/end or start/duration, normally in UTC); unreadable ones are skipped.
    static func periods(of property: Property, timeline: CalendarTimeline) -> [FreeBusyPeriod] {
        let tzid = property.parameter("TZID")
        return property.value.split(separator: ",").compactMap { part in
            let trimmed = part.drop { $0 == " " }
            guard let period = try? Period.parse(String(trimmed), tzid: tzid),
                  let start = timeline.instant(period.start) else { return nil }
            let end: Int64?
            switch period.end {
            case .end(let value): end = timeline.instant(value)
            case .duration(let duration): end = timeline.instant(period.start, plus: duration)
            }
            guard let end, end >= start else { return nil }
            return FreeBusyPeriod(text: trimmed, start: start, end: end)
        }
    }
}
