import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads a DAV request body into a `DAVElement` tree, refusing anything unsafe before libxml2 sees it.
///
/// Safety comes from three checks that do not depend on libxml2's configuration:
/// a size cap (413), a byte scan refusing `<!DOCTYPE`/`<!ENTITY` (400; on Linux the DTD delegate
/// callbacks never fire, so a DTD cannot be vetted while parsing), and a nesting cap enforced by
/// the delegate. Every parser error is fatal: on Linux `parse()` returns true for some
/// well-formedness errors (a mismatched end tag), so the delegate's error callback is the authority.
public struct XMLReader: Sendable {
    public struct Limits: Sendable, Hashable {
        /// Largest body accepted, in bytes.
        public var maxBytes: Int
        /// Deepest element nesting accepted (the root is depth 1).
        public var maxDepth: Int

        /// CalDAV request bodies are small: a calendar-query is well under 10 KB, a large
        /// multiget a few hundred KB. 1 MiB leaves room without inviting abuse.
        public static let standard = Limits(maxBytes: 1 << 20, maxDepth: 64)

        public init(maxBytes: Int, maxDepth: Int) {
            self.maxBytes = maxBytes
            self.maxDepth = maxDepth
        }
    }

    public var limits: Limits

    public init(limits: Limits = .standard) {
        self.limits = limits
    }

    /// Parses `data` and returns its root element. An empty body is not a document: callers for
    /// which an empty body means something (PROPFIND = allprop) check `isEmptyBody` first.
    public func read(_ data: Data) throws(DAVError) -> DAVElement {
        guard data.count <= limits.maxBytes else {
            throw DAVError(
                kind: .bodyTooLarge, status: 413,
                message: "The request body is \(data.count) bytes; the limit is \(limits.maxBytes) bytes.")
        }
        try Self.refuseUnsafeContent(data)
        guard !Self.isEmptyBody(data) else {
            throw DAVError.malformed("The request body is empty; an XML document was expected.")
        }

        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        // Prefix mappings let us resolve prefixed attributes, which the parser hands over unresolved.
        parser.shouldReportNamespacePrefixes = true
        parser.shouldResolveExternalEntities = false
        let builder = TreeBuilder(maxDepth: limits.maxDepth)
        parser.delegate = builder
        let finished = parser.parse()

        if let failure = builder.failure { throw failure }
        guard finished else {
            throw DAVError.malformed(
                "The XML is not well-formed: \(Self.describe(parser.parserError)).",
                line: parser.lineNumber, column: parser.columnNumber)
        }
        guard let root = builder.root, builder.isBalanced else {
            throw DAVError.malformed(
                "The XML document ends before its root element is closed.",
                line: parser.lineNumber, column: parser.columnNumber)
        }
        return root
    }

    /// True when the body has no content other than XML whitespace (or a UTF-8 byte order mark).
    public static func isEmptyBody(_ data: Data) -> Bool {
        var bytes = data[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        return bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    }

    // MARK: - Pre-parse checks

    static func refuseUnsafeContent(_ data: Data) throws(DAVError) {
        // The declaration scan below works on bytes, so it is only sound for encodings in which
        // ASCII characters are single ASCII bytes. UTF-16/32 (a BOM or NUL bytes) are refused.
        if data.starts(with: [0xFE, 0xFF]) || data.starts(with: [0xFF, 0xFE]) || containsNUL(data) {
            throw DAVError(
                kind: .unsupportedEncoding, status: 415,
                message: "Only UTF-8 XML bodies are accepted; this one looks like UTF-16 or UTF-32.")
        }
        // libxml2 acts on a declaration's encoding even when the declaration is not closed, and
        // FoundationXML crashes on a processing instruction without data (both found by
        // fuzzing: any signed-in client could stop the server). A DAV body has no use for either.
        let declaration = try leadingDeclaration(data)
        try refuseProcessingInstructions(data, from: declaration?.endIndex ?? data.startIndex)
        if let encoding = declaration.flatMap(encoding(of:)) {
            let accepted = ["utf-8", "utf8", "us-ascii", "ascii", "iso-8859-1", "latin1"]
            guard accepted.contains(encoding.lowercased()) else {
                throw DAVError(
                    kind: .unsupportedEncoding, status: 415,
                    message: "The XML declares encoding \"\(encoding)\"; only UTF-8 is accepted.")
            }
        }
        if let keyword = firstDeclaration(in: data) {
            throw DAVError(
                kind: .forbiddenDeclaration, status: 400,
                message: "XML bodies must not contain <!\(keyword)> declarations (no DTDs or entities are accepted).")
        }
    }

    private static func containsNUL(_ data: Data) -> Bool {
        data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress, buffer.count > 0 else { return false }
            return memchr(base, 0, buffer.count) != nil
        }
    }

    /// Finds `<!DOCTYPE` or `<!ENTITY`, case-insensitively (libxml2 is strict about case, but a
    /// lenient future parser might not be, and a legitimate DAV body never has either).
    private static func firstDeclaration(in data: Data) -> String? {
        let keywords: [[UInt8]] = [Array("DOCTYPE".utf8), Array("ENTITY".utf8)]
        return data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> String? in
            let count = buffer.count
            var index = 0
            while index + 1 < count {
                if buffer[index] == UInt8(ascii: "<") && buffer[index + 1] == UInt8(ascii: "!") {
                    for keyword in keywords where index + 2 + keyword.count <= count {
                        var matches = true
                        for (offset, letter) in keyword.enumerated() {
                            // ASCII upper-casing: clear bit 5 for a–z only.
                            var byte = buffer[index + 2 + offset]
                            if byte >= 0x61 && byte <= 0x7A { byte -= 0x20 }
                            if byte != letter { matches = false; break }
                        }
                        if matches { return String(decoding: keyword, as: UTF8.self) }
                    }
                }
                index += 1
            }
            return nil
        }
    }

    /// A leading XML declaration (`<?xml` and white space, to its `?>`, after a byte order
    /// mark), as a slice of `data`; nil when the body does not start with one. A declaration not
    /// closed by `?>` before any other `<` or `>` is refused.
    private static func leadingDeclaration(_ data: Data) throws(DAVError) -> Data? {
        var bytes = data[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard bytes.starts(with: Markup.declaration), bytes.count > Markup.declaration.count,
              [0x20, 0x09, 0x0A, 0x0D].contains(bytes[bytes.startIndex + Markup.declaration.count])
        else { return nil }
        var index = bytes.startIndex + Markup.declaration.count
        while index < bytes.endIndex {
            switch bytes[index] {
            case UInt8(ascii: "?") where index + 1 < bytes.endIndex && bytes[index + 1] == UInt8(ascii: ">"):
                return bytes[bytes.startIndex..<(index + 2)]
            case UInt8(ascii: "<"), UInt8(ascii: ">"):
                index = bytes.endIndex
            default:
                index += 1
            }
        }
        throw DAVError.malformed("The XML declaration at the start of the body is not closed by \"?>\".")
    }

    /// The byte runs the scans look for.
    private enum Markup {
        static let declaration = Array("<?xml".utf8)
        static let comment = (open: Array("<!--".utf8), close: Array("-->".utf8))
        static let cdata = (open: Array("<![CDATA[".utf8), close: Array("]]>".utf8))
        static let instruction = Array("<?".utf8)
    }

    /// Refuses processing instructions (`<?…?>`) from `start` on (after the leading
    /// declaration); those in comments and CDATA sections are text, not instructions.
    private static func refuseProcessingInstructions(_ data: Data, from start: Data.Index) throws(DAVError) {
        let found = data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Bool in
            func matches(_ pattern: [UInt8], at index: Int) -> Bool {
                guard index + pattern.count <= buffer.count else { return false }
                return pattern.indices.allSatisfy { buffer[index + $0] == pattern[$0] }
            }
            func skip(to end: [UInt8], from index: Int) -> Int {
                var at = index
                while at < buffer.count, !matches(end, at: at) { at += 1 }
                return at + end.count
            }
            var index = start - data.startIndex
            while index < buffer.count {
                guard buffer[index] == UInt8(ascii: "<") else {
                    index += 1
                    continue
                }
                if matches(Markup.comment.open, at: index) {
                    index = skip(to: Markup.comment.close, from: index + Markup.comment.open.count)
                } else if matches(Markup.cdata.open, at: index) {
                    index = skip(to: Markup.cdata.close, from: index + Markup.cdata.open.count)
                } else if matches(Markup.instruction, at: index) {
                    return true
                } else {
                    index += 1
                }
            }
            return false
        }
        if found {
            throw DAVError(
                kind: .forbiddenDeclaration, status: 400,
                message: "XML bodies must not contain processing instructions (<?…?>) other than the XML declaration at the start.")
        }
    }

    /// The `encoding="…"` of a (closed) XML declaration, if it has one.
    private static func encoding(of declaration: Data) -> String? {
        let head = String(decoding: declaration, as: UTF8.self)
        guard let end = head.range(of: "?>"), let key = head.range(of: "encoding", range: head.startIndex..<end.lowerBound)
        else { return nil }
        var rest = head[key.upperBound..<end.lowerBound].drop { $0 == " " || $0 == "=" || $0 == "\t" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        rest = rest.dropFirst()
        return String(rest.prefix { $0 != quote })
    }

    /// On Linux the error code is libxml2's `xmlParserErrors` value, not `XMLParser.ErrorCode`'s
    /// numbering, so the common ones are named here from libxml2's list.
    static func describe(_ error: Error?) -> String {
        guard let error = error as NSError? else { return "the parser stopped" }
        switch error.code {
        case 4: return "the document is empty"
        case 5: return "there is content after the root element, or the document ends early"
        case 9: return "it contains a character XML does not allow"
        case 26, 27: return "it uses an undeclared entity"
        case 39, 40, 41: return "an attribute value is not quoted correctly"
        case 73: return "a tag is missing its closing '>'"
        case 76: return "an end tag does not match its start tag"
        case 77: return "a tag is not finished"
        case 201: return "a namespace prefix is not declared with xmlns"
        default: return "libxml2 error \(error.code)"
        }
    }
}

/// The delegate that turns parser callbacks into a tree. Used by one parse on one thread.
private final class TreeBuilder: NSObject, XMLParserDelegate {
    struct OpenElement {
        var name: QualifiedName
        var attributes: [QualifiedName: String]
        var children: [DAVElement.Child]
        var pendingText: String
    }

    let maxDepth: Int
    private var stack: [OpenElement] = []
    var isBalanced: Bool { stack.isEmpty }
    var root: DAVElement?
    var failure: DAVError?
    /// Prefix → namespace URI, innermost last, for resolving prefixed attribute names.
    private var prefixes: [(prefix: String, uri: String)] = []

    init(maxDepth: Int) {
        self.maxDepth = maxDepth
    }

    private func fail(_ parser: XMLParser, _ error: DAVError) {
        guard failure == nil else { return }
        failure = error
        parser.abortParsing()
    }

    func parser(_ parser: XMLParser, didStartMappingPrefix prefix: String, toURI namespaceURI: String) {
        prefixes.append((prefix, namespaceURI))
    }

    func parser(_ parser: XMLParser, didEndMappingPrefix prefix: String) {
        if let index = prefixes.lastIndex(where: { $0.prefix == prefix }) { prefixes.remove(at: index) }
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName: String?, attributes attributeDict: [String: String] = [:]
    ) {
        guard failure == nil else { return }
        guard root == nil else {
            return fail(parser, .malformed("There is content after the root element.", line: parser.lineNumber, column: parser.columnNumber))
        }
        guard stack.count < maxDepth else {
            return fail(parser, DAVError(
                kind: .nestingTooDeep, status: 400,
                message: "Elements are nested more than \(maxDepth) deep.",
                line: parser.lineNumber, column: parser.columnNumber))
        }
        let namespace = namespaceURI ?? ""
        // An unbound prefix is only a namespace *warning* to libxml2; to us the name is unknowable.
        if namespace.isEmpty, let qualifiedName, qualifiedName.contains(":") {
            return fail(parser, .malformed(
                "The prefix of <\(qualifiedName)> is not declared with xmlns.",
                line: parser.lineNumber, column: parser.columnNumber))
        }
        var attributes: [QualifiedName: String] = [:]
        for (key, value) in attributeDict {
            if let colon = key.firstIndex(of: ":") {
                let prefix = String(key[..<colon])
                if prefix == "xmlns" { continue }
                let local = String(key[key.index(after: colon)...])
                let uri: String
                if prefix == "xml" {
                    uri = "http://www.w3.org/XML/1998/namespace"
                } else if let bound = prefixes.last(where: { $0.prefix == prefix })?.uri {
                    uri = bound
                } else {
                    return fail(parser, .malformed(
                        "The attribute prefix in \(key) is not declared with xmlns.",
                        line: parser.lineNumber, column: parser.columnNumber))
                }
                attributes[QualifiedName(uri, local)] = value
            } else if key != "xmlns" {
                attributes[QualifiedName("", key)] = value
            }
        }
        flushText()
        stack.append(OpenElement(name: QualifiedName(namespace, elementName), attributes: attributes, children: [], pendingText: ""))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        guard failure == nil else { return }
        flushText()
        guard let open = stack.popLast() else {
            return fail(parser, .malformed("An end tag has no start tag.", line: parser.lineNumber, column: parser.columnNumber))
        }
        let element = DAVElement(open.name, attributes: open.attributes, children: open.children)
        if stack.isEmpty {
            root = element
        } else {
            stack[stack.count - 1].children.append(.element(element))
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        appendText(parser, string)
    }

    func parser(_ parser: XMLParser, foundIgnorableWhitespace whitespaceString: String) {
        appendText(parser, whitespaceString)
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        appendText(parser, String(decoding: CDATABlock, as: UTF8.self))
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        fail(parser, .malformed(
            "The XML is not well-formed: \(XMLReader.describe(parseError)).",
            line: parser.lineNumber, column: parser.columnNumber))
    }

    func parser(_ parser: XMLParser, validationErrorOccurred validationError: Error) {
        fail(parser, .malformed("The XML is not valid: \(XMLReader.describe(validationError)).", line: parser.lineNumber, column: parser.columnNumber))
    }

    // Never fire on Linux (see the type comment), but refuse if a platform ever delivers them.
    func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) {
        fail(parser, DAVError(kind: .forbiddenDeclaration, status: 400, message: "Entity declarations are not accepted."))
    }

    func parser(_ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?, systemID: String?) {
        fail(parser, DAVError(kind: .forbiddenDeclaration, status: 400, message: "Entity declarations are not accepted."))
    }

    /// The parser delivers text in pieces (each entity reference separately); joining them here
    /// keeps one text child per run, so `&amp;` in a display name stays one string.
    private func appendText(_ parser: XMLParser, _ string: String) {
        guard failure == nil else { return }
        guard !stack.isEmpty else { return }  // whitespace around the root is not content
        stack[stack.count - 1].pendingText += string
    }

    private func flushText() {
        guard !stack.isEmpty, !stack[stack.count - 1].pendingText.isEmpty else { return }
        let text = stack[stack.count - 1].pendingText
        stack[stack.count - 1].pendingText = ""
        stack[stack.count - 1].children.append(.text(text))
    }
}
