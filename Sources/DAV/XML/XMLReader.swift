import Foundation

/// Reads a DAV body (a request's, or another server's answer) into a `DAVElement` tree.
///
/// Before `XMLDocumentParser` reads it: a size cap (413); UTF-8 only (415 for UTF-16/32 and other
/// declared encodings, Latin-1 converted); a byte scan refusing `<!DOCTYPE`/`<!ENTITY` and
/// processing instructions (400), which a DAV body never needs, so no entity expands and nothing
/// outside the body is read. The parser holds the nesting cap. Every error is a 400 that says
/// what is wrong and where.
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
        let declared = try Self.refuseUnsafeContent(data)
        guard !Self.isEmptyBody(data) else {
            throw DAVError.malformed("The request body is empty; an XML document was expected.")
        }
        let document = try Self.utf8Document(data, declaredEncoding: declared)
        // `withUnsafeBytes` rethrows untyped errors; the result carries the typed one out.
        let result = document.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Result<DAVElement, DAVError> in
            var parser = XMLDocumentParser(bytes: raw.bindMemory(to: UInt8.self), maxDepth: limits.maxDepth)
            return Result { () throws(DAVError) in try parser.parseDocument() }
        }
        return try result.get()
    }

    /// True when the body has no content other than XML whitespace (or a UTF-8 byte order mark).
    public static func isEmptyBody(_ data: Data) -> Bool {
        var bytes = data[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        return bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    }

    // MARK: - Pre-parse checks

    /// Returns the encoding the XML declaration names, lower-cased, if it names one.
    @discardableResult
    public static func refuseUnsafeContent(_ data: Data) throws(DAVError) -> String? {
        // The declaration scan below works on bytes, so it is only sound for encodings in which
        // ASCII characters are single ASCII bytes. UTF-16/32 (a BOM or NUL bytes) are refused.
        if data.starts(with: [0xFE, 0xFF]) || data.starts(with: [0xFF, 0xFE]) || containsNUL(data) {
            throw DAVError(
                kind: .unsupportedEncoding, status: 415,
                message: "Only UTF-8 XML bodies are accepted; this one looks like UTF-16 or UTF-32.")
        }
        // An unclosed declaration and processing instructions stopped the server when libxml2 read
        // the bodies (found by fuzzing); a DAV body has no use for either, so they stay refused.
        let declaration = try leadingDeclaration(data)
        try refuseProcessingInstructions(data, from: declaration?.endIndex ?? data.startIndex)
        let declared = declaration.flatMap(encoding(of:))?.lowercased()
        if let encoding = declared {
            let accepted = ["utf-8", "utf8", "us-ascii", "ascii", "iso-8859-1", "latin1"]
            guard accepted.contains(encoding) else {
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
        return declared
    }

    /// The body as UTF-8 the parser can trust: Latin-1 (when declared) turned into UTF-8; an
    /// ASCII body held to ASCII; UTF-8 checked, and every character one XML allows (no control
    /// characters but tab and line ends, no U+FFFE or U+FFFF).
    static func utf8Document(_ data: Data, declaredEncoding: String?) throws(DAVError) -> Data {
        switch declaredEncoding {
        case "iso-8859-1", "latin1":
            // Each Latin-1 byte is the code point of the same number.
            var converted = Data(capacity: data.count)
            for byte in data {
                if byte < 0x80 {
                    converted.append(byte)
                } else {
                    converted.append(0xC0 | (byte >> 6))
                    converted.append(0x80 | (byte & 0x3F))
                }
            }
            try refuseDisallowedCharacters(converted)
            return converted
        case "us-ascii", "ascii":
            if let at = data.firstIndex(where: { $0 >= 0x80 }) {
                throw malformedAt(data, at, "The XML declares encoding ASCII but has a byte over 127.")
            }
        default:
            let valid = data.withUnsafeBytes { raw in String(validating: raw.bindMemory(to: UInt8.self), as: UTF8.self) != nil }
            guard valid else {
                throw DAVError(kind: .unsupportedEncoding, status: 415, message: "The body is not valid UTF-8.")
            }
        }
        try refuseDisallowedCharacters(data)
        return data
    }

    private static func refuseDisallowedCharacters(_ data: Data) throws(DAVError) {
        let found: Int? = data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var at = 0
            while at < bytes.count {
                let byte = bytes[at]
                if byte < 0x20, byte != 0x09, byte != 0x0A, byte != 0x0D { return at }
                // U+FFFE and U+FFFF are EF BF BE and EF BF BF.
                if byte == 0xEF, at + 2 < bytes.count, bytes[at + 1] == 0xBF, bytes[at + 2] >= 0xBE { return at }
                at += 1
            }
            return nil
        }
        if let found {
            throw malformedAt(data, data.startIndex + found, "The XML is not well-formed: it contains a character XML does not allow.")
        }
    }

    private static func malformedAt(_ data: Data, _ index: Data.Index, _ message: String) -> DAVError {
        let place = data.withUnsafeBytes { raw in
            XMLDocumentParser.position(of: index - data.startIndex, in: raw.bindMemory(to: UInt8.self))
        }
        return DAVError.malformed(message, line: place.line, column: place.column)
    }

    private static func containsNUL(_ data: Data) -> Bool {
        data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress, buffer.count > 0 else { return false }
            return memchr(base, 0, buffer.count) != nil
        }
    }

    /// Finds `<!DOCTYPE` or `<!ENTITY`, case-insensitively (XML is strict about case, but a
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
}
