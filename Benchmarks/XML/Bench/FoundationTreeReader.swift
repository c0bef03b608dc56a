// Jadwal's XML reader as it was until 2026-12-05 (FoundationXML's XMLParser and this delegate,
// from Sources/DAV/XML/XMLReader.swift at 3ca1a4f), kept here as the "before" of the benchmark.

import DAV
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

func foundationTree(_ data: Data) -> DAVElement? {
    let parser = XMLParser(data: data)
    parser.shouldProcessNamespaces = true
    parser.shouldReportNamespacePrefixes = true
    parser.shouldResolveExternalEntities = false
    let builder = TreeBuilder(maxDepth: 64)
    parser.delegate = builder
    let finished = parser.parse()
    guard builder.failure == nil, finished, builder.isBalanced else { return nil }
    return builder.root
}

/// The delegate that turns parser callbacks into a tree. Used by one parse on one thread.
final class TreeBuilder: NSObject, XMLParserDelegate {
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
            "The XML is not well-formed: \("error").",
            line: parser.lineNumber, column: parser.columnNumber))
    }

    func parser(_ parser: XMLParser, validationErrorOccurred validationError: Error) {
        fail(parser, .malformed("The XML is not valid: \("error").", line: parser.lineNumber, column: parser.columnNumber))
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
