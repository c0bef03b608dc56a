/// `<c:calendar-query>` (RFC 4791 §7.8, §9.5).
public struct CalendarQueryReport: Sendable, Hashable {
    public var properties: PropertySelection
    /// The `calendar-data` asked for in `<d:prop>`, with its partial-retrieval options.
    public var calendarData: CalendarDataRequest?
    public var filter: CalendarFilter
    /// `<c:timezone>`: a VCALENDAR with one VTIMEZONE, used for floating times (§9.8), exactly as sent.
    public var timezone: String?
    /// `<c:timezone-id>` (RFC 7809 §5.2).
    public var timezoneID: String?

    public init(
        properties: PropertySelection, calendarData: CalendarDataRequest? = nil, filter: CalendarFilter,
        timezone: String? = nil, timezoneID: String? = nil
    ) {
        self.properties = properties
        self.calendarData = calendarData
        self.filter = filter
        self.timezone = timezone
        self.timezoneID = timezoneID
    }

    public init(element: DAVElement) throws(DAVError) {
        guard element.name == .calendarQuery else {
            throw DAVError.unexpected("Expected <\(QualifiedName.calendarQuery)>, not <\(element.name)>.")
        }
        guard let filterElement = element.first(.filter) else {
            throw DAVError.precondition(.validFilter, "A calendar-query needs a <filter> (RFC 4791 §7.8).")
        }
        // No prop/allprop/propname: treated as allprop, the PROPFIND default.
        properties = PropertySelection.parse(in: element) ?? .allProperties(include: [])
        calendarData = try CalendarDataRequest.parse(in: element)
        filter = try CalendarFilter(element: filterElement)
        timezone = element.first(.timezone)?.text
        timezoneID = element.first(.timezoneID)?.trimmedText
        if timezone != nil && timezoneID != nil {
            throw DAVError.invalidValue("A calendar-query may carry <timezone> or <timezone-id>, not both (RFC 7809 §5.2).")
        }
    }
}

extension CalendarDataRequest {
    /// The calendar-data request inside `parent`'s `<d:prop>`, if one is asked for.
    static func parse(in parent: DAVElement) throws(DAVError) -> CalendarDataRequest? {
        guard let element = PropertySelection.propElement(in: parent)?.first(.calendarData) else { return nil }
        return try CalendarDataRequest(element: element)
    }
}
