/// Which properties a PROPFIND or REPORT asks for (RFC 4918 §14.20, RFC 4791 §9.5).
public enum PropertySelection: Sendable, Hashable {
    /// `<d:prop>`: exactly these names, in the order asked, unknown ones included so the server
    /// can answer them with 404.
    case properties([PropertyName])
    /// `<d:allprop>`, with the names of `<d:include>` that must be added to the live ones.
    case allProperties(include: [PropertyName])
    /// `<d:propname>`: names only, no values.
    case propertyNames

    /// Reads the selection among `parent`'s children: the first of prop/allprop/propname wins.
    /// Returns nil when none is present, so each request decides its own default.
    static func parse(in parent: DAVElement) -> PropertySelection? {
        for element in parent.elements {
            switch element.name {
            case .prop:
                return .properties(element.elements.map(\.name))
            case .allprop:
                let include = parent.first(.include)?.elements.map(\.name) ?? []
                return .allProperties(include: include)
            case .propname:
                return .propertyNames
            default:
                continue
            }
        }
        return nil
    }

    /// The `<d:prop>` element itself when the selection is an explicit list, so reports can read
    /// parameters carried inside a requested property (`<c:calendar-data>` with `<c:comp>` …).
    static func propElement(in parent: DAVElement) -> DAVElement? { parent.first(.prop) }
}
