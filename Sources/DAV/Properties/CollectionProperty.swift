/// The writable collection properties Jadwal understands, decoded from their elements.
///
/// One decoder serves MKCALENDAR, extended MKCOL and PROPPATCH, so a value means the same thing
/// whichever method sets it. Properties not listed here decode to nil and stay elements.
public enum CollectionProperty: Sendable, Hashable {
    case displayName(String)
    case calendarDescription(String)
    /// `#RRGGBB` or `#RRGGBBAA` as Apple and DAVx5 send it, kept as sent (upper/lower case).
    case calendarColor(String)
    case calendarOrder(Int)
    /// A VCALENDAR object holding one VTIMEZONE (RFC 4791 §5.2.2), exactly as sent.
    case calendarTimezone(String)
    /// RFC 7809 §5.2.
    case calendarTimezoneID(String)
    /// Component names, upper-cased (`VEVENT`, `VTODO`).
    case supportedCalendarComponents([String])
    case resourceType([QualifiedName])

    public var name: PropertyName {
        switch self {
        case .displayName: .displayName
        case .calendarDescription: .calendarDescription
        case .calendarColor: .calendarColor
        case .calendarOrder: .calendarOrder
        case .calendarTimezone: .calendarTimezone
        case .calendarTimezoneID: .calendarTimezoneID
        case .supportedCalendarComponents: .supportedCalendarComponentSet
        case .resourceType: .resourceType
        }
    }

    /// The names `init(element:)` decodes.
    public static let modelledNames: Set<PropertyName> = [
        .displayName, .calendarDescription, .calendarColor, .calendarOrder, .calendarTimezone,
        .calendarTimezoneID, .supportedCalendarComponentSet, .resourceType,
    ]

    /// Decodes a property element; nil for a property this type does not model, an error for a
    /// known property with a value that cannot be stored (the server answers it in the propstat).
    public init?(element: DAVElement) throws(DAVError) {
        switch element.name {
        case .displayName:
            // Kept exactly: a display name may legitimately start or end with a space.
            self = .displayName(element.text)
        case .calendarDescription:
            self = .calendarDescription(element.text)
        case .calendarColor:
            let value = element.trimmedText
            guard Self.isColor(value) else {
                throw DAVError.invalidValue("calendar-color must be #RRGGBB or #RRGGBBAA, not \"\(value)\".")
            }
            self = .calendarColor(value)
        case .calendarOrder:
            let value = element.trimmedText
            guard let order = Int(value) else {
                throw DAVError.invalidValue("calendar-order must be an integer, not \"\(value)\".")
            }
            self = .calendarOrder(order)
        case .calendarTimezone:
            self = .calendarTimezone(element.text)
        case .calendarTimezoneID:
            self = .calendarTimezoneID(element.trimmedText)
        case .supportedCalendarComponentSet:
            var names: [String] = []
            for comp in element.elements(named: .comp) {
                guard let name = comp.attribute("name"), !name.isEmpty else {
                    throw DAVError.invalidValue("Each <comp> in supported-calendar-component-set needs a name attribute.")
                }
                names.append(name.uppercased())
            }
            guard !names.isEmpty else {
                throw DAVError.invalidValue("supported-calendar-component-set must name at least one component.")
            }
            self = .supportedCalendarComponents(names)
        case .resourceType:
            self = .resourceType(element.elements.map(\.name))
        default:
            return nil
        }
    }

    private static func isColor(_ value: String) -> Bool {
        let utf8 = Array(value.utf8)
        guard utf8.first == UInt8(ascii: "#"), utf8.count == 7 || utf8.count == 9 else { return false }
        return utf8.dropFirst().allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
        }
    }
}
