/// Turns the bytes of one XML document into a `DAVElement` tree: XML 1.0 elements, attributes,
/// character data, CDATA sections, comments, the five predefined entities and character
/// references, with Namespaces in XML 1.0 resolved.
///
/// It is ours rather than libxml2's through FoundationXML because that one leaked memory on every
/// malformed body (Benchmarks/Fuzz, finding F1) and had crashed on two others (F2, F3), each
/// reachable by any signed-in client. What a DAV body never needs is not parsed at all:
/// `XMLReader` refuses DTDs, entity declarations and processing instructions before this runs,
/// so no entity can expand and nothing outside the body is read. `bytes` must be valid UTF-8
/// (`XMLReader` checks); every error is a `DAVError` with the line and column it was found at.
struct XMLDocumentParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let maxDepth: Int
    private var index = 0

    private struct OpenElement {
        /// Where its raw (prefixed) name is in `bytes`, to match the end tag against.
        var rawName: Range<Int>
        var name: QualifiedName
        var attributes: [QualifiedName: String]
        var children: [DAVElement.Child] = []
        var pendingText: [UInt8] = []
        /// How many namespace bindings this element pushed onto `bindings`.
        var bindingCount: Int
    }

    private var stack: [OpenElement] = []
    /// In-scope prefix → namespace bindings, innermost last; "" is the default namespace.
    private var bindings: [(prefix: String, uri: String)] = []

    private static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"
    private static let xmlnsNamespace = "http://www.w3.org/2000/xmlns/"

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    mutating func parseDocument() throws(DAVError) -> DAVElement {
        if index + 3 <= bytes.count, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index += 3 }
        if starts(with: Markup.declaration) { try declaration() }
        try skipMisc()
        guard index < bytes.count else { throw failure("the document has no root element") }
        guard bytes[index] == UInt8(ascii: "<"), index + 1 < bytes.count, isNameStart(bytes[index + 1]) else {
            throw failure("the document does not start with an element")
        }
        let root = try rootElement()
        try skipMisc()
        guard index >= bytes.count else { throw failure("there is content after the root element") }
        return root
    }

    /// From the root's start tag to its end tag.
    private mutating func rootElement() throws(DAVError) -> DAVElement {
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "<") {
                if let root = try markup() { return root }
            } else {
                try text()
            }
        }
        let end = position()
        throw DAVError.malformed("The XML document ends before its root element is closed.", line: end.line, column: end.column)
    }

    /// `<?xml version="1.x" encoding="…" standalone="…"?>` (XML 1.0 §2.8), each part in its place.
    /// XMLReader has already read the encoding it names and refused one that is not UTF-8.
    private mutating func declaration() throws(DAVError) {
        let start = index
        index += Markup.declaration.count
        func pseudoAttribute(_ name: String, _ valid: (Range<Int>) -> Bool) throws(DAVError) -> Bool {
            let before = index
            guard skipSpace(), starts(with: Array(name.utf8)) else {
                index = before
                return false
            }
            index += name.utf8.count
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { throw failure("the XML declaration is not well-formed", at: start) }
            index += 1
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
                throw failure("the XML declaration is not well-formed", at: start)
            }
            let quote = bytes[index]
            index += 1
            let valueStart = index
            while index < bytes.count, bytes[index] != quote { index += 1 }
            guard index < bytes.count, valid(valueStart..<index) else { throw failure("the XML declaration is not well-formed", at: start) }
            index += 1
            return true
        }
        let version = try pseudoAttribute("version") { value in
            value.count >= 3 && bytes[value.lowerBound] == UInt8(ascii: "1") && bytes[value.lowerBound + 1] == UInt8(ascii: ".")
                && value.dropFirst(2).allSatisfy { Self.isDigit(bytes[$0]) }
        }
        guard version else { throw failure("the XML declaration has no version", at: start) }
        _ = try pseudoAttribute("encoding") { value in
            !value.isEmpty && value.allSatisfy { at in
                let byte = bytes[at]
                return at == value.lowerBound ? Self.isLetter(byte)
                    : Self.isLetter(byte) || Self.isDigit(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
                        || byte == UInt8(ascii: "-")
            }
        }
        _ = try pseudoAttribute("standalone") { value in
            let text = string(value)
            return text == "yes" || text == "no"
        }
        skipSpace()
        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "?"), bytes[index + 1] == UInt8(ascii: ">") else {
            throw failure("the XML declaration is not well-formed", at: start)
        }
        index += 2
    }

    // MARK: - Markup

    /// At a `<` inside the root element (or the root's own start tag): a start or end tag, a
    /// comment or a CDATA section. Returns the root once its end tag (or `/>`) is read.
    private mutating func markup() throws(DAVError) -> DAVElement? {
        let next = index + 1 < bytes.count ? bytes[index + 1] : 0
        switch next {
        case UInt8(ascii: "/"):
            return try endTag()
        case UInt8(ascii: "!"):
            if starts(with: Markup.commentOpen) {
                try comment()
            } else if starts(with: Markup.cdataOpen) {
                try cdata()
            } else {
                throw failure("a declaration is not allowed here")
            }
            return nil
        case UInt8(ascii: "?"):
            throw failure("a processing instruction is not allowed here")
        default:
            return try startTag()
        }
    }

    private mutating func startTag() throws(DAVError) -> DAVElement? {
        let tagStart = index
        index += 1
        let rawName = try name()
        var rawAttributes: [(name: Range<Int>, value: String)] = []
        var closed = false
        while true {
            let hadSpace = skipSpace()
            guard index < bytes.count else { throw failure("a tag is not finished", at: tagStart) }
            if bytes[index] == UInt8(ascii: ">") {
                index += 1
                break
            }
            if bytes[index] == UInt8(ascii: "/") {
                guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: ">") else {
                    throw failure("a tag is missing its closing '>'")
                }
                index += 2
                closed = true
                break
            }
            guard hadSpace else { throw failure("attributes must be separated by white space") }
            let attributeName = try name()
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
                throw failure("an attribute has no value")
            }
            index += 1
            skipSpace()
            let value = try attributeValue()
            guard !rawAttributes.contains(where: { same($0.name, attributeName) }) else {
                throw failure("the attribute \(string(attributeName)) appears twice")
            }
            rawAttributes.append((attributeName, value))
        }
        guard stack.count < maxDepth else {
            let where_ = position(of: tagStart)
            throw DAVError(kind: .nestingTooDeep, status: 400, message: "Elements are nested more than \(maxDepth) deep.",
                           line: where_.line, column: where_.column)
        }
        // Namespace declarations first: they apply to the element's own name and attributes.
        var pushed = 0
        for attribute in rawAttributes {
            let (prefix, local) = split(attribute.name)
            if prefix == nil, same(local, Markup.xmlns) {
                bindings.append(("", attribute.value))
                pushed += 1
            } else if let prefix, same(prefix, Markup.xmlns) {
                let declared = string(local)
                guard !attribute.value.isEmpty else {
                    throw failure("the prefix \(declared) is declared with an empty namespace", at: tagStart)
                }
                guard declared != "xmlns", (declared == "xml") == (attribute.value == Self.xmlNamespace),
                      attribute.value != Self.xmlnsNamespace
                else { throw failure("the prefix \(declared) cannot be bound to \(attribute.value)", at: tagStart) }
                bindings.append((declared, attribute.value))
                pushed += 1
            }
        }
        let (prefix, local) = split(rawName)
        let namespace: String
        if let prefix {
            guard let uri = resolve(string(prefix)) else {
                throw failure("the namespace prefix is not declared with xmlns (<\(string(rawName))>)", at: tagStart)
            }
            namespace = uri
        } else {
            namespace = resolve("") ?? ""
        }
        var attributes: [QualifiedName: String] = [:]
        for attribute in rawAttributes {
            let (attributePrefix, attributeLocal) = split(attribute.name)
            let qualified: QualifiedName
            if let attributePrefix {
                let prefixText = string(attributePrefix)
                if prefixText == "xmlns" { continue }
                guard let uri = resolve(prefixText) else {
                    throw failure("the attribute prefix in \(string(attribute.name)) is not declared with xmlns", at: tagStart)
                }
                qualified = QualifiedName(uri, string(attributeLocal))
            } else {
                if same(attributeLocal, Markup.xmlns) { continue }
                qualified = QualifiedName("", string(attributeLocal))
            }
            guard attributes.updateValue(attribute.value, forKey: qualified) == nil else {
                throw failure("two attributes have the same namespace and name, \(qualified)", at: tagStart)
            }
        }
        flushText()
        stack.append(OpenElement(rawName: rawName, name: QualifiedName(namespace, string(local)), attributes: attributes,
                                 bindingCount: pushed))
        return closed ? close() : nil
    }

    private mutating func endTag() throws(DAVError) -> DAVElement? {
        let tagStart = index
        index += 2
        let rawName = try name()
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else {
            throw failure("a tag is missing its closing '>'")
        }
        index += 1
        guard let open = stack.last else { throw failure("an end tag has no start tag", at: tagStart) }
        guard same(open.rawName, rawName) else {
            throw failure("an end tag does not match its start tag (</\(string(rawName))> closes <\(string(open.rawName))>)",
                          at: tagStart)
        }
        return close()
    }

    /// Ends the innermost open element; returns it when it was the root.
    private mutating func close() -> DAVElement? {
        flushText()
        guard let open = stack.popLast() else { return nil }
        bindings.removeLast(open.bindingCount)
        let element = DAVElement(open.name, attributes: open.attributes, children: open.children)
        guard !stack.isEmpty else { return element }
        stack[stack.count - 1].children.append(.element(element))
        return nil
    }

    private mutating func comment() throws(DAVError) {
        let start = index
        index += Markup.commentOpen.count
        while index < bytes.count {
            if starts(with: Markup.doubleHyphen) {
                guard index + 2 < bytes.count, bytes[index + 2] == UInt8(ascii: ">") else {
                    throw failure("a comment contains \"--\"")
                }
                index += Markup.doubleHyphen.count + 1
                return
            }
            index += 1
        }
        throw failure("a comment is not closed", at: start)
    }

    private mutating func cdata() throws(DAVError) {
        let start = index
        index += Markup.cdataOpen.count
        let contentStart = index
        while index < bytes.count, !starts(with: Markup.cdataClose) { index += 1 }
        guard index < bytes.count else { throw failure("a CDATA section is not closed", at: start) }
        // Kept byte for byte, line ends included: iCalendar text (calendar-timezone) wants its CR LF.
        stack[stack.count - 1].pendingText.append(contentsOf: bytes[contentStart..<index])
        index += Markup.cdataClose.count
    }

    // MARK: - Character data

    /// Text up to the next `<`, into the innermost open element.
    private mutating func text() throws(DAVError) {
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "<"):
                return
            case UInt8(ascii: "&"):
                stack[stack.count - 1].pendingText.append(contentsOf: try reference())
            case UInt8(ascii: "]") where starts(with: Markup.cdataClose):
                throw failure("\"]]>\" is not allowed in text")
            case 0x0D:
                // XML 2.11: CR LF and a lone CR are read as LF.
                stack[stack.count - 1].pendingText.append(0x0A)
                index += 1
                if index < bytes.count, bytes[index] == 0x0A { index += 1 }
            default:
                // A run of plain bytes at once.
                let start = index
                index += 1
                while index < bytes.count {
                    let next = bytes[index]
                    if next == UInt8(ascii: "<") || next == UInt8(ascii: "&") || next == UInt8(ascii: "]") || next == 0x0D { break }
                    index += 1
                }
                stack[stack.count - 1].pendingText.append(contentsOf: bytes[start..<index])
            }
        }
    }

    private mutating func attributeValue() throws(DAVError) -> String {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
            throw failure("an attribute value is not quoted correctly")
        }
        let quote = bytes[index]
        index += 1
        var value: [UInt8] = []
        while true {
            guard index < bytes.count else { throw failure("an attribute value is not quoted correctly") }
            let byte = bytes[index]
            switch byte {
            case quote:
                index += 1
                return String(decoding: value, as: UTF8.self)
            case UInt8(ascii: "<"):
                throw failure("an attribute value contains '<'")
            case UInt8(ascii: "&"):
                value.append(contentsOf: try reference())
            case 0x0D:
                // XML 3.3.3: line ends and white space characters become spaces (CR LF is one).
                value.append(0x20)
                index += 1
                if index < bytes.count, bytes[index] == 0x0A { index += 1 }
            case 0x09, 0x0A:
                value.append(0x20)
                index += 1
            default:
                value.append(byte)
                index += 1
            }
        }
    }

    /// At `&`: a predefined entity or a character reference, as UTF-8 bytes.
    private mutating func reference() throws(DAVError) -> [UInt8] {
        let start = index
        index += 1
        let nameStart = index
        while index < bytes.count, bytes[index] != UInt8(ascii: ";"), index - nameStart < 12 { index += 1 }
        guard index < bytes.count, bytes[index] == UInt8(ascii: ";"), index > nameStart else {
            throw failure("an '&' does not start an entity or character reference", at: start)
        }
        let body = nameStart..<index
        index += 1
        switch string(body) {
        case "amp": return [UInt8(ascii: "&")]
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        default:
            guard bytes[body.lowerBound] == UInt8(ascii: "#") else { throw failure("it uses an undeclared entity", at: start) }
            var digits = body.dropFirst()
            var radix = 10
            if let first = digits.first, bytes[first] == UInt8(ascii: "x") {
                radix = 16
                digits = digits.dropFirst()
            }
            guard !digits.isEmpty, let value = UInt32(string(digits), radix: radix), Self.isXMLCharacter(value),
                  let scalar = Unicode.Scalar(value)
            else { throw failure("a character reference names a character XML does not allow", at: start) }
            return Array(String(Character(scalar)).utf8)
        }
    }

    /// XML 1.0 `Char`: what a document may contain, literally or by reference.
    static func isXMLCharacter(_ value: UInt32) -> Bool {
        switch value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// Adjacent text, references and CDATA make one text child, as a reader of the tree expects.
    private mutating func flushText() {
        guard !stack.isEmpty, !stack[stack.count - 1].pendingText.isEmpty else { return }
        let text = String(decoding: stack[stack.count - 1].pendingText, as: UTF8.self)
        stack[stack.count - 1].pendingText.removeAll(keepingCapacity: true)
        stack[stack.count - 1].children.append(.text(text))
    }

    // MARK: - Names, space, misc

    private mutating func name() throws(DAVError) -> Range<Int> {
        guard index < bytes.count, isNameStart(bytes[index]) else { throw failure("a tag or attribute has no valid name") }
        let start = index
        var colons = bytes[index] == UInt8(ascii: ":") ? 1 : 0
        index += 1
        while index < bytes.count, isNameByte(bytes[index]) {
            if bytes[index] == UInt8(ascii: ":") { colons += 1 }
            index += 1
        }
        // Namespaces in XML: a name has at most one colon, with a name on each side.
        if colons > 1 || bytes[start] == UInt8(ascii: ":") || bytes[index - 1] == UInt8(ascii: ":") {
            throw failure("\(string(start..<index)) is not a valid namespaced name", at: start)
        }
        return start..<index
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private func isNameStart(_ byte: UInt8) -> Bool {
        Self.isLetter(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") || byte >= 0x80
    }

    private func isNameByte(_ byte: UInt8) -> Bool {
        isNameStart(byte) || Self.isDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    private func split(_ name: Range<Int>) -> (prefix: Range<Int>?, local: Range<Int>) {
        guard let colon = name.first(where: { bytes[$0] == UInt8(ascii: ":") }) else { return (nil, name) }
        return (name.lowerBound..<colon, (colon + 1)..<name.upperBound)
    }

    private func same(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { bytes[$0] == bytes[$1] }
    }

    private func same(_ a: Range<Int>, _ literal: [UInt8]) -> Bool {
        a.count == literal.count && zip(a, literal).allSatisfy { bytes[$0] == $1 }
    }

    private func resolve(_ prefix: String) -> String? {
        if prefix == "xml" { return Self.xmlNamespace }
        guard let uri = bindings.last(where: { $0.prefix == prefix })?.uri else { return nil }
        // `xmlns=""` puts names back into no namespace.
        return prefix.isEmpty && uri.isEmpty ? nil : uri
    }

    @discardableResult
    private mutating func skipSpace() -> Bool {
        let start = index
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D {
            index += 1
        }
        return index > start
    }

    /// White space and comments, before and after the root element.
    private mutating func skipMisc() throws(DAVError) {
        while true {
            skipSpace()
            guard starts(with: Markup.commentOpen) else { return }
            try comment()
        }
    }

    private func starts(with pattern: [UInt8]) -> Bool {
        guard index + pattern.count <= bytes.count else { return false }
        for (offset, byte) in pattern.enumerated() where bytes[index + offset] != byte { return false }
        return true
    }

    private func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// The byte runs the parser looks for, made once.
    private enum Markup {
        static let declaration = Array("<?xml".utf8)
        static let commentOpen = Array("<!--".utf8)
        static let doubleHyphen = Array("--".utf8)
        static let cdataOpen = Array("<![CDATA[".utf8)
        static let cdataClose = Array("]]>".utf8)
        static let xmlns = Array("xmlns".utf8)
    }

    // MARK: - Errors

    private func position(of offset: Int? = nil) -> (line: Int, column: Int) {
        Self.position(of: offset ?? index, in: bytes)
    }

    /// The line and column (1-based, in bytes) of `offset` in `bytes`.
    static func position(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        let end = min(offset, bytes.count)
        var line = 1
        var lineStart = 0
        for at in 0..<end where bytes[at] == 0x0A {
            line += 1
            lineStart = at + 1
        }
        return (line, end - lineStart + 1)
    }

    private func failure(_ reason: String, at offset: Int? = nil) -> DAVError {
        let where_ = position(of: offset)
        return DAVError.malformed("The XML is not well-formed: \(reason).", line: where_.line, column: where_.column)
    }
}
