import Foundation
import Testing
@testable import DAV

@Suite("XML reader")
struct XMLReaderTests {
    @Test("names resolve to namespace URIs whatever the prefix, default namespace included")
    func namespaces() throws {
        let a = try read(#"<A:propfind xmlns:A="DAV:"><A:prop><B:calendar-home-set xmlns:B="urn:ietf:params:xml:ns:caldav"/></A:prop></A:propfind>"#)
        let b = try read(#"<propfind xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><prop><C:calendar-home-set/></prop></propfind>"#)
        #expect(a == b)
        #expect(a.name == .propfind)
        #expect(a.first(.prop)?.elements.map(\.name) == [.calendarHomeSet])
    }

    @Test("xmlns=\"\" puts an element back into no namespace")
    func emptyDefaultNamespace() throws {
        let root = try read(#"<d:prop xmlns:d="DAV:" xmlns="urn:x"><a/><b xmlns=""/></d:prop>"#)
        #expect(root.elements.map(\.name) == [QualifiedName("urn:x", "a"), QualifiedName("", "b")])
    }

    @Test("text keeps whitespace, entity references and CDATA exactly")
    func textFidelity() throws {
        let body = "<c:calendar-timezone xmlns:c=\"urn:ietf:params:xml:ns:caldav\">BEGIN:VCALENDAR&#13;\n  X-A:1 &amp; 2 &lt;3&gt;<![CDATA[\n<raw> & ]]>tail  </c:calendar-timezone>"
        let root = try read(body)
        #expect(root.text == "BEGIN:VCALENDAR\r\n  X-A:1 & 2 <3>\n<raw> & tail  ")
        // Adjacent pieces are joined into a single text child.
        #expect(root.children.count == 1)
    }

    @Test("prefixed attributes resolve through the in-scope declarations; xml:lang is known")
    func attributes() throws {
        let root = try read(#"<d:x xmlns:d="DAV:" xmlns:z="urn:z" plain="1" z:qualified="2" xml:lang="en"/>"#)
        #expect(root.attribute("plain") == "1")
        #expect(root.attributes[QualifiedName("urn:z", "qualified")] == "2")
        #expect(root.attributes[QualifiedName("http://www.w3.org/XML/1998/namespace", "lang")] == "en")
        #expect(root.attributes.count == 3)
    }

    @Test("a UTF-8 byte order mark and an XML declaration are accepted")
    func bomAndDeclaration() throws {
        var data = Data([0xEF, 0xBB, 0xBF])
        data.append(Data(#"<?xml version="1.0" encoding="UTF-8"?><d:a xmlns:d="DAV:">é</d:a>"#.utf8))
        let root = try XMLReader().read(data)
        #expect(root.text == "é")
    }

    // MARK: - Refusals

    @Test("a DOCTYPE is refused before parsing, whatever its case")
    func doctype() {
        for body in [
            #"<?xml version="1.0"?><!DOCTYPE d:propfind SYSTEM "http://evil/x.dtd"><d:propfind xmlns:d="DAV:"/>"#,
            #"<!doctype x><x/>"#,
        ] {
            let error = capture { try read(body) }
            #expect(error?.kind == .forbiddenDeclaration)
            #expect(error?.status == 400)
        }
    }

    @Test("billion laughs never expands")
    func billionLaughs() {
        var body = #"<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">"#
        for level in 1...9 {
            let previous = level == 1 ? "lol" : "lol\(level - 1)"
            body += "<!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">"
        }
        body += "]><lolz>&lol9;</lolz>"
        let error = capture { try read(body) }
        #expect(error?.kind == .forbiddenDeclaration)
        #expect(error?.status == 400)
    }

    @Test("an ENTITY declaration on its own is refused; an undeclared entity reference is malformed")
    func entities() {
        #expect(capture { try read(#"<x><!ENTITY a "b"></x>"#) }?.kind == .forbiddenDeclaration)
        let undeclared = capture { try read("<x>&lol9;</x>") }
        #expect(undeclared?.kind == .malformedXML)
        #expect(undeclared?.status == 400)
        #expect(undeclared?.line == 1)
    }

    @Test("unclosed and mismatched tags are 400 with a position, though parse() says true on Linux")
    func notWellFormed() {
        let unclosed = capture { try read("<d:propfind xmlns:d=\"DAV:\">\n<d:prop>\n") }
        #expect(unclosed?.kind == .malformedXML)
        #expect(unclosed?.status == 400)
        #expect(unclosed?.line != nil)

        let mismatched = capture { try read("<a>\n<b></a>") }
        #expect(mismatched?.kind == .malformedXML)
        #expect(mismatched?.line == 2)
        #expect(mismatched?.message.contains("end tag") == true)

        for body in ["not xml at all", "<a></a><b/>", "<a attr=unquoted/>", "<a>\u{01}</a>"] {
            #expect(capture { try read(body) }?.status == 400, "\(body)")
        }
    }

    @Test("an undeclared prefix is malformed, not silently namespace-less")
    func undeclaredPrefix() {
        let error = capture { try read("<D:propfind><D:prop/></D:propfind>") }
        #expect(error?.kind == .malformedXML)
        #expect(error?.message.contains("prefix is not declared") == true)
        #expect(capture { try read(#"<a xmlns="urn:a" q:x="1"/>"#) }?.kind == .malformedXML)
    }

    @Test("10,000 levels of nesting stop at the depth limit")
    func deepNesting() {
        let body = String(repeating: "<a>", count: 10_000) + String(repeating: "</a>", count: 10_000)
        let error = capture { try read(body) }
        #expect(error?.kind == .nestingTooDeep)
        #expect(error?.status == 400)
        // libxml2 here accepts this depth by itself, so only our limit stands in the way.
        #expect(capture { try read(body, limits: .init(maxBytes: 1 << 20, maxDepth: 20_000)) } == nil)
        let shallow = XMLReader.Limits(maxBytes: 1 << 20, maxDepth: 3)
        #expect(capture { try read("<a><b><c><d/></c></b></a>", limits: shallow) }?.kind == .nestingTooDeep)
        // Exactly at the limit is fine.
        let atLimit = String(repeating: "<a>", count: 64) + String(repeating: "</a>", count: 64)
        #expect(capture { try read(atLimit) } == nil)
    }

    @Test("a body over the size limit is 413 before any parsing")
    func tooLarge() {
        let body = "<a>" + String(repeating: "x", count: (1 << 20) + 1) + "</a>"
        let error = capture { try read(body) }
        #expect(error?.kind == .bodyTooLarge)
        #expect(error?.status == 413)
        #expect(error?.message.contains("1048576") == true)
        let small = capture { try read("<a>12345678901</a>", limits: .init(maxBytes: 10, maxDepth: 8)) }
        #expect(small?.status == 413)
    }

    @Test("UTF-16 and exotic declared encodings are refused so the declaration scan stays sound")
    func encodings() {
        let utf16 = "<!DOCTYPE x><x/>".data(using: .utf16) ?? Data()
        #expect(capture { try XMLReader().read(utf16) }?.kind == .unsupportedEncoding)
        let utf7 = capture { try read(#"<?xml version="1.0" encoding="UTF-7"?><x>+ADw-</x>"#) }
        #expect(utf7?.kind == .unsupportedEncoding)
        #expect(utf7?.status == 415)
        #expect(capture { try read(#"<?xml version='1.0' encoding='us-ascii'?><x/>"#) } == nil)
    }

    @Test("a processing instruction is refused before parsing (FoundationXML crashed on one without data); in comments and CDATA it is text")
    func processingInstructions() throws {
        // Found by fuzzing (Benchmarks/Fuzz/findings): these stopped the whole server with SIGSEGV.
        for body in ["<a><?pi?></a>", "<?xm?>\n<km\u{04}l", "<?xml?><a/>", "<a/><?xml-stylesheet href='x'?>", " <?xml version=\"1.0\"?><a/>"] {
            let error = capture { try read(body) }
            #expect(error?.kind == .forbiddenDeclaration && error?.status == 400, "\(body.debugDescription): \(String(describing: error))")
        }
        let text = try read("<a><!-- <?pi?> --><![CDATA[<?x?>]]></a>")
        #expect(text.text == "<?x?>")
        #expect(capture { try read(#"<?xml version="1.0" encoding="utf-8"?><a><b/></a>"#) } == nil)
        #expect(capture { try XMLReader().read(Data([0xEF, 0xBB, 0xBF] + Array(#"<?xml version="1.0"?><a/>"#.utf8))) } == nil)
    }

    @Test("an XML declaration not closed by ?> is refused (libxml2 crashed on its encoding)")
    func unclosedDeclaration() {
        for body in [#"<?xml version="1.0" encoding="utf-7"?\#u{1e}"#, #"<?xml version="1.0" encoding="utf-32"?x<a/>"#, #"<?xml version="1.0" <a/>"#] {
            let error = capture { try read(body) }
            #expect(error?.status == 400 && error?.message.contains("not closed") == true, "\(body.debugDescription): \(String(describing: error))")
        }
    }

    @Test("an empty body is an error for the reader; requests that allow it check first")
    func emptyBody() {
        #expect(capture { try read("") }?.kind == .malformedXML)
        #expect(capture { try read(" \r\n\t") }?.kind == .malformedXML)
        #expect(XMLReader.isEmptyBody(Data(" \n".utf8)))
        #expect(!XMLReader.isEmptyBody(Data("<a/>".utf8)))
    }

    // MARK: - The parser's own rules (XML 1.0 and Namespaces in XML, as libxml2 held them)

    @Test("line ends in text become LF, CDATA keeps its bytes, attribute white space becomes spaces")
    func lineEndsAndAttributeNormalisation() throws {
        let root = try read("<a t=\"x\r\ny\tz&#10;\">one\r\ntwo\rthree<![CDATA[\r\nkept\r\n]]></a>")
        #expect(root.text == "one\ntwo\nthree\r\nkept\r\n")
        #expect(root.attribute("t") == "x y z\n")
        #expect(try read("<a>&#x1F600;&#233;&quot;&apos;</a>").text == "😀é\"'")
    }

    @Test("comments go anywhere but inside a tag; the document keeps its shape around them")
    func comments() throws {
        let root = try read("<!-- before --><d:a xmlns:d=\"DAV:\"><!-- in -->x<d:b/><!---->y</d:a><!-- after -->\n")
        #expect(root.children == [.text("x"), .element(DAVElement(QualifiedName("DAV:", "b"))), .text("y")])
        #expect(capture { try read("<a><!-- a -- b --></a>") }?.kind == .malformedXML)
        #expect(capture { try read("<a><!-- never closed </a>") }?.kind == .malformedXML)
    }

    @Test("what XML does not allow is a 400 with its place: every rule the parser holds")
    func wellFormednessRules() {
        let cases: [(String, String)] = [
            ("<a x=\"1\" x=\"2\"/>", "appears twice"),
            (#"<a xmlns:p="urn:p" xmlns:q="urn:p" p:x="1" q:x="2"/>"#, "same namespace and name"),
            ("<a x=\"1\"y=\"2\"/>", "separated by white space"),
            ("<a x/>", "has no value"),
            ("<a x=\"<\"/>", "contains '<'"),
            ("<a>]]></a>", "\"]]>\""),
            ("<a>&#0;</a>", "character XML does not allow"),
            ("<a>&#xD800;</a>", "character XML does not allow"),
            ("<a>&#xZZ;</a>", "character XML does not allow"),
            ("<a>& b</a>", "does not start an entity"),
            (#"<p:a xmlns:p=""/>"#, "empty namespace"),
            (#"<a xmlns:xml="urn:not-xml"/>"#, "cannot be bound"),
            ("<a:b:c xmlns:a=\"urn:a\"/>", "not a valid namespaced name"),
            ("<a><b></a></b>", "end tag does not match"),
            ("<a/>trailing", "content after the root"),
            ("<a/><!-- fine --> <b/>", "content after the root"),
            ("<a><!ATTLIST a b CDATA #IMPLIED></a>", "declaration is not allowed"),
            ("<a><1/></a>", "no valid name"),
            ("<a", "not finished"),
            ("<a>\u{FFFF}</a>", "character XML does not allow"),
            (#"<?xml version="1. 0" encoding="utf-8"?><a/>"#, "XML declaration"),
            (#"<?xml version="1.0"encoding="utf-8"?><a/>"#, "XML declaration"),
            (#"<?xml encoding="utf-8"?><a/>"#, "has no version"),
            (#"<?xml version="1.0" standalone="maybe"?><a/>"#, "XML declaration"),
        ]
        for (body, words) in cases {
            let error = capture { try read(body) }
            #expect(error?.status == 400 && error?.message.contains(words) == true && error?.line != nil,
                    "\(body.debugDescription): \(String(describing: error))")
        }
        #expect(capture { try read("<a>\n\n  <b x='1' x='2'/></a>") }?.line == 3)
        #expect(capture { try read(#"<?xml version='1.1' encoding='UTF-8' standalone='yes' ?><a/>"#) } == nil)
    }

    @Test("the body must be UTF-8; Latin-1 is read when declared, ASCII held to ASCII")
    func encodingsRead() throws {
        let invalid = capture { try XMLReader().read(Data([0x3C, 0x61, 0x3E, 0xC3, 0x28, 0x3C, 0x2F, 0x61, 0x3E])) }
        #expect(invalid?.status == 415 && invalid?.message.contains("UTF-8") == true)
        var latin1 = Data(#"<?xml version="1.0" encoding="ISO-8859-1"?><a>caf"#.utf8)
        latin1.append(0xE9)
        latin1.append(contentsOf: Array("</a>".utf8))
        #expect(try XMLReader().read(latin1).text == "café")
        #expect(capture { try read(#"<?xml version="1.0" encoding="us-ascii"?><a>é</a>"#) }?.status == 400)
    }

    @Test("parsing concurrently on many tasks gives the same trees")
    func concurrentParsing() async throws {
        let body = #"<d:propfind xmlns:d="DAV:"><d:prop><d:getetag/><d:displayname/></d:prop></d:propfind>"#
        let expected = try read(body)
        let results = await withTaskGroup(of: DAVElement?.self) { group in
            for _ in 0..<32 { group.addTask { try? read(body) } }
            var all: [DAVElement?] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 32)
        #expect(results.allSatisfy { $0 == expected })
    }
}
