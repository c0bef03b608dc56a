import Foundation

/// Serialises a `DAVElement` tree as a UTF-8 XML document.
///
/// Every namespace used anywhere in the tree is declared once, on the root, with a fixed prefix
/// (`d:`, `c:`, `cs:`, `ical:`; other namespaces `x1:`, `x2:`, … in order of first use), so the
/// same response always has the same bytes. Names without a namespace are written unprefixed and
/// no default namespace is ever declared, which keeps them in no namespace.
public enum XMLWriter {
    public static func document(_ root: DAVElement) -> String {
        String(decoding: bytes(root), as: UTF8.self)
    }

    public static func data(_ root: DAVElement) -> Data {
        Data(bytes(root))
    }

    /// Writes into a byte buffer: responses with thousands of calendar objects are the hot path of
    /// sync and multiget, and byte runs copy far faster than appending scalars to a String.
    public static func bytes(_ root: DAVElement) -> [UInt8] {
        let prefixes = assignPrefixes(root)
        var output: [UInt8] = []
        output.reserveCapacity(4096)
        output.append(contentsOf: #"<?xml version="1.0" encoding="utf-8"?>"#.utf8)
        output.append(0x0A)
        write(root, prefixes: prefixes, declarations: declarations(prefixes), into: &output)
        return output
    }

    // MARK: - Prefixes

    private static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"

    private static func assignPrefixes(_ root: DAVElement) -> [(namespace: String, prefix: String)] {
        var used: [String] = []
        noteNamespaces(of: root, in: &used)
        return prefixes(for: used)
    }

    /// Adds the namespaces `element`'s tree uses to `used`, in document order.
    private static func noteNamespaces(of element: DAVElement, in used: inout [String]) {
        func note(_ namespace: String) {
            // A handful of namespaces per document: a linear search (equal strings usually
            // share storage) costs less than hashing the name once per element.
            guard !namespace.isEmpty, namespace != xmlNamespace, !used.contains(namespace) else { return }
            used.append(namespace)
        }
        // An explicit stack rather than recursion: the walk then does not depend on tree depth.
        var pending: [DAVElement] = [element]
        while let element = pending.popLast() {
            note(element.name.namespace)
            for name in element.attributes.keys { note(name.namespace) }
            for child in element.children.reversed() {
                if case .element(let inner) = child { pending.append(inner) }
            }
        }
    }

    private static func prefixes(for used: [String]) -> [(namespace: String, prefix: String)] {
        var result: [(namespace: String, prefix: String)] = []
        for preferred in XMLNamespace.preferredPrefixes where used.contains(preferred.namespace) {
            result.append(preferred)
        }
        var counter = 0
        for namespace in used where !XMLNamespace.preferredPrefixes.contains(where: { $0.namespace == namespace }) {
            counter += 1
            result.append((namespace, "x\(counter)"))
        }
        return result
    }

    private static func declarations(_ prefixes: [(namespace: String, prefix: String)]) -> [UInt8] {
        var text: [UInt8] = []
        for entry in prefixes {
            text.append(contentsOf: " xmlns:\(entry.prefix)=\"".utf8)
            escape(entry.namespace, attribute: true, into: &text)
            text.append(0x22)
        }
        return text
    }

    /// Appends `prefix:local` without building an intermediate String; this runs once per tag.
    private static func appendName(
        _ name: QualifiedName, _ prefixes: [(namespace: String, prefix: String)], into output: inout [UInt8]
    ) {
        if !name.namespace.isEmpty {
            if name.namespace == xmlNamespace {
                output.append(contentsOf: "xml:".utf8)
            } else if let entry = prefixes.first(where: { $0.namespace == name.namespace }) {
                // A handful of namespaces at most: a linear search beats hashing here.
                output.append(contentsOf: entry.prefix.utf8)
                output.append(0x3A)
            }
        }
        output.append(contentsOf: name.localName.utf8)
    }

    // MARK: - Multistatus

    /// The same bytes as `bytes(multistatus.element)`, written without first building the whole
    /// tree: a query answering hundreds of objects spent as long building and copying that tree
    /// as writing it. Only the properties and errors are elements; the frame around them is
    /// written here, and a prewritten response is copied as it is.
    public static func bytes(_ multistatus: Multistatus) -> [UInt8] {
        guard !multistatus.responses.isEmpty else { return bytes(multistatus.element) }
        // The namespaces in document order; apart from DAV: they appear only in properties and errors.
        var used = [XMLNamespace.dav]
        for response in multistatus.responses {
            if let written = response.written {
                for namespace in written.namespaces where !used.contains(namespace) { used.append(namespace) }
            } else {
                noteNamespaces(of: response, in: &used)
            }
        }
        let prefixes = prefixes(for: used)
        var output: [UInt8] = []
        output.reserveCapacity(multistatus.responses.reduce(4096) { $0 + ($1.written?.bytes.count ?? 512) })
        output.append(contentsOf: #"<?xml version="1.0" encoding="utf-8"?>"#.utf8)
        output.append(0x0A)
        output.append(0x3C)
        appendName(.multistatus, prefixes, into: &output)
        output.append(contentsOf: declarations(prefixes))
        output.append(0x3E)
        for response in multistatus.responses {
            if let written = response.written {
                output.append(contentsOf: written.bytes)
            } else {
                write(response, prefixes: prefixes, into: &output)
            }
        }
        if let description = multistatus.responseDescription {
            write(DAVElement(.responseDescription, text: description), prefixes: prefixes, declarations: [], into: &output)
        }
        if let token = multistatus.syncToken { write(DAVElement(.syncToken, text: token), prefixes: prefixes, declarations: [], into: &output) }
        output.append(contentsOf: "</".utf8)
        appendName(.multistatus, prefixes, into: &output)
        output.append(0x3E)
        return output
    }

    /// `response` with its bytes written now (`Multistatus.Response.written`), for a resource
    /// that will be sent again; nil when it uses a namespace without a fixed prefix, whose
    /// prefix then depends on the rest of the document.
    public static func prewritten(_ response: Multistatus.Response) -> Multistatus.Response? {
        var used = [XMLNamespace.dav]
        noteNamespaces(of: response, in: &used)
        let fixed = XMLNamespace.preferredPrefixes
        guard used.allSatisfy({ namespace in fixed.contains { $0.namespace == namespace } }) else { return nil }
        // A namespace with a fixed prefix has it in every document, so these bytes fit any of them.
        var bytes: [UInt8] = []
        write(response, prefixes: fixed, into: &bytes)
        var written = response
        written.written = Multistatus.Response.Written(bytes: bytes, namespaces: used)
        return written
    }

    private static func noteNamespaces(of response: Multistatus.Response, in used: inout [String]) {
        if case .propstats(let propstats) = response.content {
            for propstat in propstats {
                for property in propstat.properties { noteNamespaces(of: property, in: &used) }
                if let error = propstat.error { noteNamespaces(of: error, in: &used) }
            }
        }
        if let error = response.error { noteNamespaces(of: error, in: &used) }
    }

    /// One `<d:response>`, as `Multistatus.Response.element` would be written.
    private static func write(
        _ response: Multistatus.Response, prefixes: [(namespace: String, prefix: String)], into output: inout [UInt8]
    ) {
        func open(_ name: QualifiedName) {
            output.append(0x3C)
            appendName(name, prefixes, into: &output)
            output.append(0x3E)
        }
        func close(_ name: QualifiedName) {
            output.append(contentsOf: "</".utf8)
            appendName(name, prefixes, into: &output)
            output.append(0x3E)
        }
        func element(_ element: DAVElement) {
            write(element, prefixes: prefixes, declarations: [], into: &output)
        }
        open(.response)
        element(DAVElement(.href, text: response.href))
        switch response.content {
        case .propstats(let propstats):
            for propstat in propstats {
                open(.propstat)
                if propstat.properties.isEmpty {
                    element(DAVElement(.prop))
                } else {
                    open(.prop)
                    for property in propstat.properties { element(property) }
                    close(.prop)
                }
                element(HTTPStatus.element(propstat.status))
                if let error = propstat.error { element(error) }
                if let description = propstat.responseDescription { element(DAVElement(.responseDescription, text: description)) }
                close(.propstat)
            }
        case .status(let status):
            element(HTTPStatus.element(status))
        }
        if let error = response.error { element(error) }
        if let description = response.responseDescription { element(DAVElement(.responseDescription, text: description)) }
        close(.response)
    }

    // MARK: - Writing

    private static func write(
        _ element: DAVElement, prefixes: [(namespace: String, prefix: String)], declarations: [UInt8],
        into output: inout [UInt8]
    ) {
        output.append(0x3C)
        appendName(element.name, prefixes, into: &output)
        output.append(contentsOf: declarations)
        if !element.attributes.isEmpty {
            for (name, value) in element.attributes.sorted(by: { $0.key < $1.key }) {
                output.append(0x20)
                appendName(name, prefixes, into: &output)
                output.append(contentsOf: "=\"".utf8)
                escape(value, attribute: true, into: &output)
                output.append(0x22)
            }
        }
        if element.children.isEmpty {
            output.append(contentsOf: "/>".utf8)
            return
        }
        output.append(0x3E)
        for child in element.children {
            switch child {
            case .text(let text): escape(text, attribute: false, into: &output)
            case .escaped(let escaped): output.append(contentsOf: escaped.bytes)
            case .element(let inner): write(inner, prefixes: prefixes, declarations: [], into: &output)
            }
        }
        output.append(contentsOf: "</".utf8)
        appendName(element.name, prefixes, into: &output)
        output.append(0x3E)
    }

    private static let replacementCharacter: [UInt8] = [0xEF, 0xBF, 0xBD]
    private static let ampersand = Array("&amp;".utf8)
    private static let lessThan = Array("&lt;".utf8)
    private static let greaterThan = Array("&gt;".utf8)
    private static let quote = Array("&quot;".utf8)
    private static let carriageReturn = Array("&#13;".utf8)
    private static let tab = Array("&#9;".utf8)
    private static let lineFeed = Array("&#10;".utf8)

    /// Escapes character data or an attribute value, copying safe byte runs in bulk.
    ///
    /// CR is always written as `&#13;` so that iCalendar's CRLF line endings in `calendar-data`
    /// survive the end-of-line normalisation every XML reader applies. In attributes, tab and LF
    /// are references too (attribute-value normalisation would turn them into spaces). Characters
    /// XML 1.0 cannot carry at all (C0 controls, U+FFFE, U+FFFF) become U+FFFD rather than a
    /// broken document.
    static func escape(_ text: String, attribute: Bool, into output: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            var runStart = 0
            var index = 0
            let count = bytes.count
            while index < count {
                let byte = bytes[index]
                var replacement: [UInt8]?
                var width = 1
                switch byte {
                case 0x26: replacement = ampersand
                case 0x3C: replacement = lessThan
                case 0x3E: replacement = greaterThan
                case 0x22 where attribute: replacement = quote
                case 0x0D: replacement = carriageReturn
                case 0x09 where attribute: replacement = tab
                case 0x0A where attribute: replacement = lineFeed
                case 0x09, 0x0A: break
                case 0x00..<0x20: replacement = replacementCharacter
                case 0xEF where index + 2 < count && bytes[index + 1] == 0xBF && bytes[index + 2] >= 0xBE:
                    replacement = replacementCharacter
                    width = 3
                default: break
                }
                if let replacement {
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                    output.append(contentsOf: replacement)
                    index += width
                    runStart = index
                } else {
                    index += 1
                }
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<count]))
        }
    }
}
