/// A point in time as an expansion reports it: a calendar day for all-day items,
/// otherwise a UTC instant (seconds since 1970).
public enum OccurrenceTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    case date(CivilDate)
    case instant(Int64)

    /// Seconds since 1970 used for ordering and window tests. An all-day date counts from
    /// its UTC midnight (what recurring-ical-events does for a UTC window).
    public var sortSeconds: Int64 {
        switch self {
        case .date(let d): return Int64(d.daysSinceEpoch) * 86_400
        case .instant(let t): return t
        }
    }

    public static func < (a: OccurrenceTime, b: OccurrenceTime) -> Bool { a.sortSeconds < b.sortSeconds }

    /// Whether an instance from `start` to `end` is in the window [`windowStart`, `windowEnd`) as
    /// an expansion decides it: it shares time with the window, or, taking none, starts inside it.
    public static func overlaps(_ start: OccurrenceTime, _ end: OccurrenceTime, windowStart: Int64, windowEnd: Int64) -> Bool {
        let s = start.sortSeconds, e = max(end.sortSeconds, start.sortSeconds)
        if s == e { return windowStart <= s && s < windowEnd }
        return s < windowEnd && windowStart < e
    }

    /// `YYYY-MM-DD` for dates, `YYYY-MM-DDTHH:MM:SSZ` for instants.
    public var iso8601: String {
        switch self {
        case .date(let d): return d.description
        case .instant(let t): return LocalDateTime(secondsSinceEpoch: t).description + "Z"
        }
    }

    public var description: String { iso8601 }
}

/// One instance of a (possibly recurring) component.
public struct Occurrence: Sendable, Hashable {
    public var uid: String
    /// The instance's original start (its RECURRENCE-ID); nil for a non-recurring component.
    public var recurrenceId: OccurrenceTime?
    public var start: OccurrenceTime
    public var end: OccurrenceTime
    public var isAllDay: Bool
    /// The component that describes this instance: the master, or the override replacing it.
    public var component: Component
    /// True when an override (RECURRENCE-ID component) supplied this instance.
    public var isOverride: Bool

    public var summary: String? { component.first("SUMMARY")?.text }
    public var isCancelled: Bool { Self.isCancelled(component) }

    static func isCancelled(_ component: Component) -> Bool {
        component.first("STATUS").map { upperASCII($0.value) } == "CANCELLED"
    }
}

public struct ExpansionOptions: Sendable {
    /// Stop after this many instances in total; `truncated` reports it.
    public var maxInstances: Int
    /// Where floating times are placed in absolute time (UTC by default, like recurring-ical-events).
    public var floatingZone: ZoneRules
    /// Keep instances whose STATUS is CANCELLED (left out by default).
    public var includeCancelled: Bool
    /// Component types to expand.
    public var componentNames: Set<String>
    /// Recurrence periods examined per rule before giving up (rules that never match, or a
    /// COUNT that has to be walked from a DTSTART far before the window).
    public var periodBudget: Int

    public init(maxInstances: Int = 100_000, floatingZone: ZoneRules = .utc, includeCancelled: Bool = false,
                componentNames: Set<String> = ["VEVENT"], periodBudget: Int = 2_000_000) {
        self.maxInstances = maxInstances
        self.floatingZone = floatingZone
        self.includeCancelled = includeCancelled
        self.componentNames = componentNames
        self.periodBudget = periodBudget
    }
}

public struct ExpansionResult: Sendable {
    /// Instances overlapping the window, in start order.
    public var occurrences: [Occurrence]
    /// True when the instance cap or an iteration budget cut the result short.
    public var truncated: Bool
    /// Components that could not be expanded (bad dates, bad rules), with line numbers.
    public var problems: [ICalendarError]

    public init(occurrences: [Occurrence] = [], truncated: Bool = false, problems: [ICalendarError] = []) {
        self.occurrences = occurrences
        self.truncated = truncated
        self.problems = problems
    }
}
