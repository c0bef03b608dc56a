/// A 207 Multi-Status body (RFC 4918 §13, §14.16), optionally with the RFC 6578 `sync-token`.
///
/// Build one `Response` per href: either properties grouped into `<propstat>` by status, or a
/// bare status (a member removed since the last sync, a failed multiget href).
public struct Multistatus: Sendable, Hashable {
    public var responses: [Response]
    /// RFC 6578 §6.4: written after all responses.
    public var syncToken: String?
    public var responseDescription: String?

    public init(responses: [Response] = [], syncToken: String? = nil, responseDescription: String? = nil) {
        self.responses = responses
        self.syncToken = syncToken
        self.responseDescription = responseDescription
    }

    public struct Response: Sendable, Hashable {
        public enum Content: Sendable, Hashable {
            case propstats([PropStat])
            case status(Int)
        }

        /// Already percent-encoded as a URI path; the writer only XML-escapes it.
        public var href: String
        public var content: Content
        /// A precondition/postcondition that applies to this resource as a whole.
        public var error: DAVElement?
        public var responseDescription: String?
        /// This response's XML, made by `XMLWriter.prewritten(_:)` for a resource sent again and
        /// again; the writer copies it instead of writing the response anew. Changing the
        /// response afterwards does not change these bytes.
        public internal(set) var written: Written?

        /// A response's bytes and the namespaces they use (each with its fixed prefix).
        public struct Written: Sendable, Hashable {
            let bytes: [UInt8]
            let namespaces: [String]
        }

        public init(href: String, content: Content, error: DAVElement? = nil, responseDescription: String? = nil) {
            self.href = href
            self.content = content
            self.error = error
            self.responseDescription = responseDescription
        }

        /// A response holding only a status, e.g. 404 for a member deleted since the sync token.
        public static func status(_ href: String, _ status: Int, error: DAVElement? = nil) -> Response {
            Response(href: href, content: .status(status), error: error)
        }
    }

    public struct PropStat: Sendable, Hashable {
        public var status: Int
        public var properties: [DAVElement]
        public var error: DAVElement?
        public var responseDescription: String?

        public init(status: Int, properties: [DAVElement], error: DAVElement? = nil, responseDescription: String? = nil) {
            self.status = status
            self.properties = properties
            self.error = error
            self.responseDescription = responseDescription
        }
    }

    /// Collects properties for one href and groups them by status when built.
    public struct PropertyResponseBuilder: Sendable {
        public let href: String
        private var byStatus: [Int: [DAVElement]] = [:]

        public init(href: String) {
            self.href = href
        }

        /// Adds a property with its value; `status` 200 unless the property failed.
        public mutating func add(_ property: DAVElement, status: Int = 200) {
            byStatus[status, default: []].append(property)
        }

        /// A property the resource does not have: an empty element in the 404 propstat.
        public mutating func addNotFound(_ name: PropertyName) {
            add(DAVElement(name), status: 404)
        }

        public var isEmpty: Bool { byStatus.isEmpty }

        /// Propstats in ascending status order (200 first), properties in the order added.
        ///
        /// `minimal` drops the 404 propstat, as RFC 8144 §2.1 allows for `Prefer: return=minimal`
        /// (and the older `Brief: t`) that iOS and macOS send with their large PROPFINDs. If
        /// nothing else is left, an empty 200 propstat keeps the response valid.
        public func build(minimal: Bool = false) -> Response {
            var statuses = byStatus.keys.sorted()
            if minimal { statuses.removeAll { $0 == 404 } }
            var propstats = statuses.map { PropStat(status: $0, properties: byStatus[$0] ?? []) }
            if propstats.isEmpty { propstats = [PropStat(status: 200, properties: [])] }
            return Response(href: href, content: .propstats(propstats))
        }
    }

    // MARK: - Serialisation

    public var element: DAVElement {
        var children: [DAVElement] = responses.map(\.element)
        if let responseDescription { children.append(DAVElement(.responseDescription, text: responseDescription)) }
        if let syncToken { children.append(DAVElement(.syncToken, text: syncToken)) }
        return DAVElement(.multistatus, elements: children)
    }

    public var xml: String { String(decoding: XMLWriter.bytes(self), as: UTF8.self) }
}

extension Multistatus.Response {
    public var element: DAVElement {
        var children = [DAVElement(.href, text: href)]
        switch content {
        case .propstats(let propstats): children += propstats.map(\.element)
        case .status(let status): children.append(HTTPStatus.element(status))
        }
        if let error { children.append(error) }
        if let responseDescription { children.append(DAVElement(.responseDescription, text: responseDescription)) }
        return DAVElement(.response, elements: children)
    }
}

extension Multistatus.PropStat {
    public var element: DAVElement {
        var children = [DAVElement(.prop, elements: properties), HTTPStatus.element(status)]
        if let error { children.append(error) }
        if let responseDescription { children.append(DAVElement(.responseDescription, text: responseDescription)) }
        return DAVElement(.propstat, elements: children)
    }
}

/// Status lines as `<d:status>` carries them (`HTTP/1.1 404 Not Found`), reason phrases from RFC 9110/4918.
public enum HTTPStatus {
    public static func reasonPhrase(_ code: Int) -> String {
        switch code {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 207: "Multi-Status"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 409: "Conflict"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 422: "Unprocessable Content"
        case 423: "Locked"
        case 424: "Failed Dependency"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 507: "Insufficient Storage"
        default: "Status \(code)"
        }
    }

    public static func line(_ code: Int) -> String { "HTTP/1.1 \(code) \(reasonPhrase(code))" }

    /// Parses a status line back into its code; nil if it is not `HTTP/x.y NNN …`.
    public static func code(fromLine line: String) -> Int? {
        let parts = line.trimmingXMLWhitespace().split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), parts[1].count == 3 else { return nil }
        return Int(parts[1])
    }

    static func element(_ code: Int) -> DAVElement { DAVElement(.status, text: line(code)) }
}
