import Foundation

/// The body of MKCALENDAR (RFC 4791 §5.3.1) or extended MKCOL (RFC 5689 §5.1): properties to set
/// on the new collection. Both have the same shape, `set/prop/*`, under a different root.
public struct CollectionCreationRequest: Sendable, Hashable {
    public enum Method: Sendable, Hashable {
        case mkcalendar
        case mkcol
    }

    public var method: Method
    /// Every property element to set, in document order, unknown ones included.
    public var properties: [DAVElement]

    public init(method: Method, properties: [DAVElement]) {
        self.method = method
        self.properties = properties
    }

    /// An empty MKCALENDAR body is allowed (§5.3.1: "MAY include a request body"); an empty
    /// extended MKCOL is a plain MKCOL (RFC 4918 §9.3).
    public init(method: Method, body: Data, reader: XMLReader = XMLReader()) throws(DAVError) {
        if XMLReader.isEmptyBody(body) {
            self.init(method: method, properties: [])
            return
        }
        try self.init(method: method, element: try reader.read(body))
    }

    public init(method: Method, element: DAVElement) throws(DAVError) {
        let expected: QualifiedName = method == .mkcalendar ? .mkcalendar : .mkcol
        guard element.name == expected else {
            throw DAVError.unexpected("The body must be <\(expected)>, not <\(element.name)>.")
        }
        var properties: [DAVElement] = []
        for set in element.elements(named: .set) {
            for prop in set.elements(named: .prop) { properties += prop.elements }
        }
        self.method = method
        self.properties = properties
    }

    /// The properties Jadwal models, decoded; unknown ones are in `unknownProperties`.
    /// Throws on the first known property with an unusable value.
    public func collectionProperties() throws(DAVError) -> [CollectionProperty] {
        var result: [CollectionProperty] = []
        for element in properties {
            if let property = try CollectionProperty(element: element) { result.append(property) }
        }
        return result
    }

    public var unknownProperties: [DAVElement] {
        properties.filter { !CollectionProperty.modelledNames.contains($0.name) }
    }
}
