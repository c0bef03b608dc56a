/// `<c:calendar-multiget>` (RFC 4791 §7.9): named objects, in the order asked.
public struct CalendarMultigetReport: Sendable, Hashable {
    public var properties: PropertySelection
    public var calendarData: CalendarDataRequest?
    /// Hrefs as sent (trimmed, still percent-encoded); the server resolves and decodes them and
    /// answers each unknown one with its own 404 response.
    public var hrefs: [String]

    public init(properties: PropertySelection, calendarData: CalendarDataRequest? = nil, hrefs: [String]) {
        self.properties = properties
        self.calendarData = calendarData
        self.hrefs = hrefs
    }

    public init(element: DAVElement) throws(DAVError) {
        guard element.name == .calendarMultiget else {
            throw DAVError.unexpected("Expected <\(QualifiedName.calendarMultiget)>, not <\(element.name)>.")
        }
        let hrefs = element.elements(named: .href).map(\.trimmedText).filter { !$0.isEmpty }
        guard !hrefs.isEmpty else {
            throw DAVError.unexpected("A calendar-multiget needs at least one <DAV:href>.")
        }
        self.init(
            properties: PropertySelection.parse(in: element) ?? .allProperties(include: []),
            calendarData: try CalendarDataRequest.parse(in: element),
            hrefs: hrefs)
    }
}
