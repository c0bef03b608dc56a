/// `<c:filter>` (RFC 4791 §9.7): exactly one comp-filter, for VCALENDAR.
public struct CalendarFilter: Sendable, Hashable {
    /// The VCALENDAR comp-filter; the tests that matter are its children.
    public var root: CompFilter

    public init(root: CompFilter) {
        self.root = root
    }

    public init(element: DAVElement) throws(DAVError) {
        let compFilters = element.elements(named: .compFilter)
        guard compFilters.count == 1, let only = compFilters.first else {
            throw DAVError.precondition(.validFilter, "<filter> must contain exactly one <comp-filter name=\"VCALENDAR\">; it has \(compFilters.count).")
        }
        let root = try CompFilter(element: only, parentName: nil)
        guard root.name == "VCALENDAR" else {
            throw DAVError.precondition(.validFilter, "The top <comp-filter> must be named VCALENDAR, not \(root.name).")
        }
        guard !root.isNotDefined else {
            throw DAVError.precondition(.validFilter, "<is-not-defined> on VCALENDAR would match nothing.")
        }
        self.root = root
    }

    /// The component types the filter selects (`VEVENT`, `VTODO`), for pre-filtering in SQL on
    /// the stored component type; empty when the filter does not restrict the type.
    public var componentTypes: Set<String> {
        Set(root.compFilters.filter { !$0.isNotDefined }.map(\.name))
    }

    /// The time range of the first-level component filter, for pre-filtering in SQL on stored
    /// first/last occurrences. Nil when the filter has no time-range at that level; the full
    /// evaluation still runs on every candidate.
    public var componentTimeRange: TimeRange? {
        root.timeRange ?? root.compFilters.lazy.compactMap(\.timeRange).first
    }
}
