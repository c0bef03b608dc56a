/// `<c:comp-filter>` (RFC 4791 §9.7.1): matches when the parent has a component of this name
/// that passes every test, or, with `is-not-defined`, when it has none.
public struct CompFilter: Sendable, Hashable {
    /// Upper-cased component name (`VEVENT`, `VALARM`, …).
    public var name: String
    public var isNotDefined: Bool
    public var timeRange: TimeRange?
    public var propFilters: [PropFilter]
    public var compFilters: [CompFilter]

    public init(
        name: String, isNotDefined: Bool = false, timeRange: TimeRange? = nil,
        propFilters: [PropFilter] = [], compFilters: [CompFilter] = []
    ) {
        self.name = name.uppercased()
        self.isNotDefined = isNotDefined
        self.timeRange = timeRange
        self.propFilters = propFilters
        self.compFilters = compFilters
    }

    /// Components on which RFC 4791 §9.9 defines a time-range test (plus VAVAILABILITY, RFC 7953).
    public static let timeRangeComponents: Set<String> = ["VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY", "VALARM", "VAVAILABILITY", "AVAILABLE"]

    init(element: DAVElement, parentName: String?) throws(DAVError) {
        guard let rawName = element.attribute("name"), !rawName.isEmpty else {
            throw DAVError.precondition(.validFilter, "Every <comp-filter> needs a name attribute.")
        }
        let name = rawName.uppercased()
        if let parentName, parentName == name {
            // RFC 4791 §7.8 names this as the example of an invalid filter.
            throw DAVError.precondition(.validFilter, "A <comp-filter name=\"\(name)\"> cannot be nested in one of the same name.")
        }
        var isNotDefined = false
        var timeRange: TimeRange?
        var propFilters: [PropFilter] = []
        var compFilters: [CompFilter] = []
        for child in element.elements {
            switch child.name {
            case .isNotDefined:
                isNotDefined = true
            case .timeRange:
                guard timeRange == nil else {
                    throw DAVError.precondition(.validFilter, "<comp-filter name=\"\(name)\"> has more than one <time-range>.")
                }
                // VCALENDAR is outside RFC 4791 §9.9, but clients that do not know the component
                // type send it there (python caldav, as Radicale and Xandikos accept): it means
                // "some component of the object overlaps".
                guard Self.timeRangeComponents.contains(name) || name == "VCALENDAR" || name.hasPrefix("X-") else {
                    throw DAVError.precondition(.validFilter, "A <time-range> cannot apply to \(name) components (RFC 4791 §9.9).")
                }
                timeRange = try TimeRange.parse(child, requireBoth: false) { DAVError.precondition(.validFilter, $0) }
            case .propFilter:
                propFilters.append(try PropFilter(element: child))
            case .compFilter:
                compFilters.append(try CompFilter(element: child, parentName: name))
            default:
                continue  // unknown extension elements are ignored (RFC 4918 §17)
            }
        }
        if isNotDefined && (timeRange != nil || !propFilters.isEmpty || !compFilters.isEmpty) {
            throw DAVError.precondition(.validFilter, "<is-not-defined> in <comp-filter name=\"\(name)\"> cannot be combined with other tests.")
        }
        self.init(name: name, isNotDefined: isNotDefined, timeRange: timeRange, propFilters: propFilters, compFilters: compFilters)
    }
}

/// `<c:prop-filter>` (RFC 4791 §9.7.2).
public struct PropFilter: Sendable, Hashable {
    /// Upper-cased property name (`SUMMARY`, `UID`, `ATTENDEE`).
    public var name: String
    public var isNotDefined: Bool
    public var timeRange: TimeRange?
    public var textMatch: TextMatch?
    public var paramFilters: [ParamFilter]

    public init(
        name: String, isNotDefined: Bool = false, timeRange: TimeRange? = nil, textMatch: TextMatch? = nil,
        paramFilters: [ParamFilter] = []
    ) {
        self.name = name.uppercased()
        self.isNotDefined = isNotDefined
        self.timeRange = timeRange
        self.textMatch = textMatch
        self.paramFilters = paramFilters
    }

    init(element: DAVElement) throws(DAVError) {
        guard let rawName = element.attribute("name"), !rawName.isEmpty else {
            throw DAVError.precondition(.validFilter, "Every <prop-filter> needs a name attribute.")
        }
        let name = rawName.uppercased()
        var isNotDefined = false
        var timeRange: TimeRange?
        var textMatch: TextMatch?
        var paramFilters: [ParamFilter] = []
        for child in element.elements {
            switch child.name {
            case .isNotDefined:
                isNotDefined = true
            case .timeRange:
                guard timeRange == nil, textMatch == nil else {
                    throw DAVError.precondition(.validFilter, "<prop-filter name=\"\(name)\"> may have one <time-range> or one <text-match>, not more.")
                }
                timeRange = try TimeRange.parse(child, requireBoth: false) { DAVError.precondition(.validFilter, $0) }
            case .textMatch:
                guard timeRange == nil, textMatch == nil else {
                    throw DAVError.precondition(.validFilter, "<prop-filter name=\"\(name)\"> may have one <time-range> or one <text-match>, not more.")
                }
                textMatch = try TextMatch(element: child)
            case .paramFilter:
                paramFilters.append(try ParamFilter(element: child))
            default:
                continue
            }
        }
        if isNotDefined && (timeRange != nil || textMatch != nil || !paramFilters.isEmpty) {
            throw DAVError.precondition(.validFilter, "<is-not-defined> in <prop-filter name=\"\(name)\"> cannot be combined with other tests.")
        }
        self.init(name: name, isNotDefined: isNotDefined, timeRange: timeRange, textMatch: textMatch, paramFilters: paramFilters)
    }
}

/// `<c:param-filter>` (RFC 4791 §9.7.3).
public struct ParamFilter: Sendable, Hashable {
    /// Upper-cased parameter name (`PARTSTAT`, `TZID`).
    public var name: String
    public var isNotDefined: Bool
    public var textMatch: TextMatch?

    public init(name: String, isNotDefined: Bool = false, textMatch: TextMatch? = nil) {
        self.name = name.uppercased()
        self.isNotDefined = isNotDefined
        self.textMatch = textMatch
    }

    init(element: DAVElement) throws(DAVError) {
        guard let rawName = element.attribute("name"), !rawName.isEmpty else {
            throw DAVError.precondition(.validFilter, "Every <param-filter> needs a name attribute.")
        }
        let isNotDefined = element.contains(.isNotDefined)
        let textMatches = element.elements(named: .textMatch)
        guard textMatches.count <= 1 else {
            throw DAVError.precondition(.validFilter, "<param-filter name=\"\(rawName)\"> may have only one <text-match>.")
        }
        if isNotDefined && !textMatches.isEmpty {
            throw DAVError.precondition(.validFilter, "<is-not-defined> in <param-filter name=\"\(rawName)\"> cannot be combined with <text-match>.")
        }
        var textMatch: TextMatch?
        if let first = textMatches.first { textMatch = try TextMatch(element: first) }
        self.init(name: rawName, isNotDefined: isNotDefined, textMatch: textMatch)
    }
}
