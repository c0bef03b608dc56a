/// One XML element of a DAV body: its resolved name, attributes and children in document order.
///
/// Text children are kept exactly as the parser delivered them (whitespace included), because
/// `calendar-data` and `calendar-timezone` carry iCalendar text whose lines matter.
public struct DAVElement: Sendable, Hashable {
    public enum Child: Sendable, Hashable {
        case element(DAVElement)
        case text(String)
        /// Text whose escaped form was made earlier and is written as is (`EscapedText`).
        case escaped(EscapedText)
    }

    public var name: QualifiedName
    /// Attributes by qualified name; unprefixed attributes have no namespace (XML Namespaces §6.3).
    public var attributes: [QualifiedName: String]
    public var children: [Child]

    public init(_ name: QualifiedName, attributes: [QualifiedName: String] = [:], children: [Child] = []) {
        self.name = name
        self.attributes = attributes
        self.children = children
    }

    public init(_ name: QualifiedName, attributes: [QualifiedName: String] = [:], text: String) {
        self.init(name, attributes: attributes, children: text.isEmpty ? [] : [.text(text)])
    }

    public init(_ name: QualifiedName, attributes: [QualifiedName: String] = [:], elements: [DAVElement]) {
        self.init(name, attributes: attributes, children: elements.map(Child.element))
    }

    /// Child elements, skipping text (the whitespace between elements in most bodies).
    public var elements: [DAVElement] {
        children.compactMap { if case .element(let element) = $0 { element } else { nil } }
    }

    public func elements(named name: QualifiedName) -> [DAVElement] {
        elements.filter { $0.name == name }
    }

    public func first(_ name: QualifiedName) -> DAVElement? {
        for child in children {
            if case .element(let element) = child, element.name == name { return element }
        }
        return nil
    }

    public func contains(_ name: QualifiedName) -> Bool { first(name) != nil }

    /// All text of this element and its descendants, concatenated exactly.
    public var text: String {
        var result = ""
        appendText(to: &result)
        return result
    }

    private func appendText(to result: inout String) {
        for child in children {
            switch child {
            case .text(let text): result += text
            case .escaped(let escaped): result += escaped.text
            case .element(let element): element.appendText(to: &result)
            }
        }
    }

    /// The text with surrounding XML whitespace removed, for values such as hrefs, tokens and
    /// numbers where clients pretty-print (`<d:href>\n  /cal/\n</d:href>`).
    public var trimmedText: String { text.trimmingXMLWhitespace() }

    /// An attribute without namespace, the only kind DAV and CalDAV define.
    public func attribute(_ localName: String) -> String? {
        attributes[QualifiedName("", localName)]
    }

    /// The same element without its value: the form used in `<d:propname>` answers and 404 propstats.
    public var emptied: DAVElement { DAVElement(name) }
}

extension StringProtocol {
    /// Trims only XML's whitespace (space, tab, CR, LF), not every Unicode space.
    func trimmingXMLWhitespace() -> String {
        let isXMLSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let first = firstIndex(where: { !isXMLSpace($0) }), let last = lastIndex(where: { !isXMLSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}

/// Character data together with its XML-escaped bytes. A calendar object's text is escaped once
/// and the bytes reused in every response that carries it: the same objects are sent again and
/// again (each client's sync, each week it looks at), and escaping was a large part of writing them.
public struct EscapedText: Sendable, Hashable {
    public let text: String
    let bytes: [UInt8]

    public init(_ text: String) {
        self.text = text
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + text.utf8.count / 16)
        XMLWriter.escape(text, attribute: false, into: &bytes)
        self.bytes = bytes
    }

    /// The escaped form follows from the text, so the text alone decides equality.
    public static func == (lhs: EscapedText, rhs: EscapedText) -> Bool { lhs.text == rhs.text }
    public func hash(into hasher: inout Hasher) { hasher.combine(text) }
}
