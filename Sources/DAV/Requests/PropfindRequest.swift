import Foundation

/// A PROPFIND body (RFC 4918 §9.1, §14.20).
public struct PropfindRequest: Sendable, Hashable {
    public var selection: PropertySelection

    public init(selection: PropertySelection) {
        self.selection = selection
    }

    /// An empty body means `allprop` (RFC 4918 §9.1); iOS sends one when probing.
    public init(body: Data, reader: XMLReader = XMLReader()) throws(DAVError) {
        if XMLReader.isEmptyBody(body) {
            self.init(selection: .allProperties(include: []))
            return
        }
        try self.init(element: try reader.read(body))
    }

    public init(element: DAVElement) throws(DAVError) {
        guard element.name == .propfind else {
            throw DAVError.unexpected("A PROPFIND body must be <DAV:propfind>, not <\(element.name)>.")
        }
        guard let selection = PropertySelection.parse(in: element) else {
            throw DAVError.unexpected("<DAV:propfind> must contain <DAV:prop>, <DAV:allprop> or <DAV:propname>.")
        }
        self.selection = selection
    }
}
