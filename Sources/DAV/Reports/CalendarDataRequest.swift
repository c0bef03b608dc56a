/// `<c:calendar-data>` inside a report's `<d:prop>` (RFC 4791 §9.6): which parts of each calendar
/// object to return, and whether to expand recurrences or limit the recurrence set.
public struct CalendarDataRequest: Sendable, Hashable {
    /// `<c:comp>`: a component and what of it to return. Nil on the request means the whole object.
    public struct ComponentSelection: Sendable, Hashable {
        public struct SelectedProperty: Sendable, Hashable {
            /// Upper-case property name.
            public var name: String
            /// `novalue="yes"`: return the property without its value.
            public var noValue: Bool

            public init(name: String, noValue: Bool = false) {
                self.name = name.uppercased()
                self.noValue = noValue
            }
        }

        public enum Properties: Sendable, Hashable {
            case all
            case some([SelectedProperty])
        }

        public enum Components: Sendable, Hashable {
            case all
            case some([ComponentSelection])
        }

        public var name: String
        public var properties: Properties
        public var components: Components

        public init(name: String, properties: Properties = .all, components: Components = .all) {
            self.name = name.uppercased()
            self.properties = properties
            self.components = components
        }
    }

    public var component: ComponentSelection?
    /// `<c:expand>`: return each occurrence in the range as its own component, in UTC.
    public var expand: TimeRange?
    /// `<c:limit-recurrence-set>`: return the master plus the overrides that touch the range.
    public var limitRecurrenceSet: TimeRange?
    /// `<c:limit-freebusy-set>`: keep only FREEBUSY periods overlapping the range.
    public var limitFreeBusySet: TimeRange?

    public init(
        component: ComponentSelection? = nil, expand: TimeRange? = nil, limitRecurrenceSet: TimeRange? = nil,
        limitFreeBusySet: TimeRange? = nil
    ) {
        self.component = component
        self.expand = expand
        self.limitRecurrenceSet = limitRecurrenceSet
        self.limitFreeBusySet = limitFreeBusySet
    }

    /// True when the whole object is returned unchanged, so the server can send stored bytes.
    public var isWholeObject: Bool {
        component == nil && expand == nil && limitRecurrenceSet == nil && limitFreeBusySet == nil
    }

    public init(element: DAVElement) throws(DAVError) {
        // RFC 4791 §9.6: only text/calendar 2.0 exists; anything else is the
        // supported-calendar-data precondition (§7.5, §7.9).
        let contentType = element.attribute("content-type") ?? "text/calendar"
        let version = element.attribute("version") ?? "2.0"
        guard contentType.lowercased() == "text/calendar", version == "2.0" else {
            throw DAVError.precondition(
                .supportedCalendarData,
                "calendar-data is only available as text/calendar version 2.0, not \(contentType) version \(version).")
        }
        func range(_ child: DAVElement) throws(DAVError) -> TimeRange {
            try TimeRange.parse(child, requireBoth: true) { DAVError.invalidValue($0) }
        }
        var result = CalendarDataRequest()
        for child in element.elements {
            switch child.name {
            case .comp: result.component = try ComponentSelection(element: child)
            case .expand: result.expand = try range(child)
            case .limitRecurrenceSet: result.limitRecurrenceSet = try range(child)
            case .limitFreebusySet: result.limitFreeBusySet = try range(child)
            default: continue
            }
        }
        if result.expand != nil && result.limitRecurrenceSet != nil {
            throw DAVError.invalidValue("calendar-data cannot ask for both <expand> and <limit-recurrence-set>.")
        }
        self = result
    }
}

extension CalendarDataRequest.ComponentSelection {
    init(element: DAVElement) throws(DAVError) {
        guard let name = element.attribute("name"), !name.isEmpty else {
            throw DAVError.invalidValue("Each <comp> in calendar-data needs a name attribute.")
        }
        var properties: Properties = .some([])
        var components: Components = .some([])
        var sawProperties = false
        var sawComponents = false
        for child in element.elements {
            switch child.name {
            case .calendarAllprop:
                properties = .all
                sawProperties = true
            case .calendarProp:
                guard let propName = child.attribute("name"), !propName.isEmpty else {
                    throw DAVError.invalidValue("Each <prop> in a calendar-data <comp> needs a name attribute.")
                }
                if case .some(let list) = properties {
                    properties = .some(list + [SelectedProperty(name: propName, noValue: child.attribute("novalue") == "yes")])
                }
                sawProperties = true
            case .allcomp:
                components = .all
                sawComponents = true
            case .comp:
                let inner = try Self(element: child)
                if case .some(let list) = components { components = .some(list + [inner]) }
                sawComponents = true
            default:
                continue
            }
        }
        // A <comp> with no property selection returns no properties (RFC 4791 §9.6.1 example:
        // VTIMEZONE selected with <allprop/> explicitly); same for subcomponents.
        self.init(name: name, properties: sawProperties ? properties : .some([]), components: sawComponents ? components : .some([]))
    }
}
