/// A property as the filter sees it. The server conforms its iCalendar model to this.
public protocol FilterableProperty {
    /// The value with iCalendar TEXT escapes removed, which is what text-match compares
    /// (RFC 4791 §9.7.5).
    var filterText: String { get }
    /// All values of the named parameter (upper-case name), or nil when the property lacks it.
    func filterParameterValues(named name: String) -> [String]?
}

/// A component as the filter sees it. The server conforms its iCalendar model to this.
public protocol FilterableComponent {
    associatedtype FilterProperty: FilterableProperty
    /// Upper-case component name.
    var filterName: String { get }
    /// Direct subcomponents with that upper-case name, in file order.
    func filterSubcomponents(named name: String) -> [Self]
    /// Properties with that upper-case name, in file order.
    func filterProperties(named name: String) -> [FilterProperty]
}

/// The time-range tests of RFC 4791 §9.9, which need recurrence expansion, time zones and the
/// VEVENT/VTODO/VJOURNAL/VFREEBUSY/VALARM rules. They live with the iCalendar engine; the filter
/// only decides *where* they apply.
public protocol TimeRangeMatching {
    associatedtype Component: FilterableComponent

    /// Whether `component` overlaps `range` under §9.9. `ancestors` runs from the calendar object's
    /// root (VCALENDAR) to the component's parent, so a VEVENT can be expanded together with its
    /// overridden instances, and a VALARM can be placed relative to each occurrence of its parent.
    func component(_ component: Component, ancestors: [Component], overlaps range: TimeRange) -> Bool

    /// Whether a date or date-time property (DTSTAMP, COMPLETED, LAST-MODIFIED, …) of `component`
    /// falls in `range` (§9.9, "time-range in prop-filter").
    func property(
        _ property: Component.FilterProperty, of component: Component, ancestors: [Component], overlaps range: TimeRange
    ) -> Bool

    /// Whether a date-time property `component` lacks, but whose value follows from others, falls
    /// in `range`. §9.9 tests a VEVENT's DTEND or a VTODO's DUE given only as DTSTART+DURATION on
    /// that effective value. By default no property has an effective value.
    func effectiveProperty(named name: String, of component: Component, ancestors: [Component], overlaps range: TimeRange) -> Bool
}

extension TimeRangeMatching {
    public func effectiveProperty(named name: String, of component: Component, ancestors: [Component], overlaps range: TimeRange) -> Bool {
        false
    }
}

/// Applies a `CalendarFilter` to one calendar object (RFC 4791 §9.7).
public struct CalendarFilterEvaluator<Matcher: TimeRangeMatching>: Sendable where Matcher: Sendable {
    public typealias Component = Matcher.Component

    public let timeRanges: Matcher

    public init(timeRanges: Matcher) {
        self.timeRanges = timeRanges
    }

    /// Whether the calendar object `root` (a VCALENDAR) matches.
    public func matches(_ filter: CalendarFilter, object root: Component) -> Bool {
        guard root.filterName == filter.root.name else { return false }
        return passes(filter.root, component: root, ancestors: [])
    }

    /// A comp-filter against the children of `parent`: some child of that name passes all tests
    /// (or, with is-not-defined, there is no such child).
    func matches(_ filter: CompFilter, in parent: Component, ancestors: [Component]) -> Bool {
        let candidates = parent.filterSubcomponents(named: filter.name)
        if filter.isNotDefined { return candidates.isEmpty }
        let path = ancestors + [parent]
        return candidates.contains { passes(filter, component: $0, ancestors: path) }
    }

    /// The tests of a comp-filter against one component of the right name.
    func passes(_ filter: CompFilter, component: Component, ancestors: [Component]) -> Bool {
        if let range = filter.timeRange, !timeRanges.component(component, ancestors: ancestors, overlaps: range) {
            return false
        }
        for propFilter in filter.propFilters where !matches(propFilter, in: component, ancestors: ancestors) {
            return false
        }
        for compFilter in filter.compFilters where !matches(compFilter, in: component, ancestors: ancestors) {
            return false
        }
        return true
    }

    /// A prop-filter: the property is absent (is-not-defined), or some instance of it passes the
    /// time-range or text-match and every param-filter. Any instance suffices, as with ATTENDEE.
    func matches(_ filter: PropFilter, in component: Component, ancestors: [Component]) -> Bool {
        let properties = component.filterProperties(named: filter.name)
        if filter.isNotDefined { return properties.isEmpty }
        if properties.isEmpty, let range = filter.timeRange, filter.paramFilters.isEmpty {
            return timeRanges.effectiveProperty(named: filter.name, of: component, ancestors: ancestors, overlaps: range)
        }
        return properties.contains { property in
            if let range = filter.timeRange,
               !timeRanges.property(property, of: component, ancestors: ancestors, overlaps: range) {
                return false
            }
            if let textMatch = filter.textMatch, !textMatch.matches(property.filterText) { return false }
            return filter.paramFilters.allSatisfy { Self.matches($0, property) }
        }
    }

    /// A param-filter: the parameter is absent (is-not-defined), or present and, with a
    /// text-match, one of its values matches.
    static func matches(_ filter: ParamFilter, _ property: Component.FilterProperty) -> Bool {
        let values = property.filterParameterValues(named: filter.name)
        if filter.isNotDefined { return values == nil }
        guard let values else { return false }
        guard let textMatch = filter.textMatch else { return true }
        // A negated match on a multi-valued parameter (MEMBER="a","b") means "no value matches";
        // evaluating negation per value would let any other value satisfy it.
        if textMatch.negated {
            let positive = TextMatch(text: textMatch.text, collation: textMatch.collation, matchType: textMatch.matchType)
            return !values.contains { positive.matches($0) }
        }
        return values.contains { textMatch.matches($0) }
    }
}
