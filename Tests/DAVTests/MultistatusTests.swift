import Foundation
import Testing
@testable import DAV

@Suite("XML writer and multistatus")
struct MultistatusTests {
    static let calendarData = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:a&b<c>@example.com\r\nSUMMARY:Lunch \"with\" Sara\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"

    /// A response like the one a calendar-query answers: found, missing and forbidden properties,
    /// a removed member, a sync token and a namespace we have no fixed prefix for.
    static func sample() -> Multistatus {
        var found = Multistatus.PropertyResponseBuilder(href: "/dav/calendars/sara/personal/a%40b.ics")
        found.add(DAVElement(.getETag, text: "\"7f3a\""))
        found.add(DAVElement(.calendarData, text: calendarData))
        found.addNotFound(QualifiedName("http://me.com/_namespace/", "bulk-requests"))
        found.add(DAVElement(.quotaUsedBytes), status: 403)
        found.addNotFound(.calendarColor)
        let removed = Multistatus.Response.status("/dav/calendars/sara/personal/gone.ics", 404)
        return Multistatus(responses: [found.build(), removed], syncToken: "https://jadwal.example/sync/42")
    }

    @Test("a multistatus is written directly with the bytes of its element tree")
    func directWriting() {
        var errors = Multistatus.PropertyResponseBuilder(href: "")
        errors.add(DAVElement(QualifiedName("urn:x-first", "one"), elements: [DAVElement(QualifiedName("urn:x-second", "two"))]))
        var described = errors.build()
        described.error = DAVElement(.error, elements: [DAVElement(QualifiedName("urn:x-third", "cond"))])
        described.responseDescription = "why & how"
        if case .propstats(var propstats) = described.content {
            propstats[0].error = DAVElement(QualifiedName("urn:x-fourth", "e"))
            propstats[0].responseDescription = ""
            propstats.append(Multistatus.PropStat(status: 424, properties: []))
            described.content = .propstats(propstats)
        }
        let escaped = DAVElement(.calendarData, children: [.escaped(EscapedText(Self.calendarData))])
        var withEscaped = Multistatus.PropertyResponseBuilder(href: "/a%20b.ics")
        withEscaped.add(escaped)
        let bodies = [
            Self.sample(),
            Multistatus(),
            Multistatus(syncToken: "t"),
            Multistatus(responses: [described, withEscaped.build(), .status("/x", 507, error: DAVElement(.numberOfMatchesWithinLimits))],
                        syncToken: "", responseDescription: "all <done>"),
        ]
        for body in bodies {
            #expect(XMLWriter.bytes(body) == XMLWriter.bytes(body.element))
            // Prewritten responses give the same document; one using a namespace without a
            // fixed prefix cannot be prewritten.
            var prewritten = body
            prewritten.responses = body.responses.map { XMLWriter.prewritten($0) ?? $0 }
            #expect(XMLWriter.bytes(prewritten) == XMLWriter.bytes(body.element))
        }
        #expect(XMLWriter.prewritten(Self.sample().responses[0]) == nil)
        #expect(XMLWriter.prewritten(withEscaped.build())?.written != nil)
        // Escaped text is written as the same bytes as the text it stands for.
        #expect(XMLWriter.bytes(escaped) == XMLWriter.bytes(DAVElement(.calendarData, text: Self.calendarData)))
        #expect(escaped.text == Self.calendarData)
    }

    @Test("propstats are grouped by status, 200 first, with HTTP/1.1 status lines")
    func grouping() throws {
        let response = Self.sample().responses[0]
        guard case .propstats(let propstats) = response.content else {
            Issue.record("expected propstats")
            return
        }
        #expect(propstats.map(\.status) == [200, 403, 404])
        #expect(propstats[2].properties.map(\.name) == [QualifiedName("http://me.com/_namespace/", "bulk-requests"), .calendarColor])
        let xml = Self.sample().xml
        #expect(xml.contains("<d:status>HTTP/1.1 200 OK</d:status>"))
        #expect(xml.contains("<d:status>HTTP/1.1 404 Not Found</d:status>"))
        #expect(xml.contains("<d:status>HTTP/1.1 403 Forbidden</d:status>"))
    }

    @Test("the writer declares fixed prefixes on the root only, and the bytes are stable")
    func prefixes() {
        let xml = Self.sample().xml
        #expect(xml.hasPrefix(#"<?xml version="1.0" encoding="utf-8"?>"# + "\n" + #"<d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:ical="http://apple.com/ns/ical/" xmlns:x1="http://me.com/_namespace/">"#))
        #expect(xml.components(separatedBy: "xmlns:").count == 5)
        #expect(xml.contains("<ical:calendar-color/>"))
        #expect(xml.contains("<x1:bulk-requests/>"))
        #expect(xml == Self.sample().xml)
        // sync-token is the last child of multistatus (RFC 6578 §6.4).
        #expect(xml.hasSuffix("<d:sync-token>https://jadwal.example/sync/42</d:sync-token></d:multistatus>"))
    }

    @Test("our reader reads back exactly what the writer wrote, CRLF and escapes included")
    func roundTrip() throws {
        let written = Self.sample().element
        let readBack = try read(Self.sample().xml)
        #expect(readBack == written)
        let data = readBack.first(.response)?.first(.propstat)?.first(.prop)?.first(.calendarData)?.text
        #expect(data == Self.calendarData)
        #expect(Self.sample().xml.contains("&#13;\n"))
    }

    @Test("attributes and text are escaped; characters XML cannot carry become U+FFFD")
    func escaping() throws {
        let element = DAVElement(
            .dav("x"), attributes: [QualifiedName("", "a"): "q\"<&>\t\n\r"],
            text: "a < b && c > d \u{01} ]]> end")
        let xml = XMLWriter.document(element)
        #expect(xml.contains(#"a="q&quot;&lt;&amp;&gt;&#9;&#10;&#13;""#))
        #expect(xml.contains("a &lt; b &amp;&amp; c &gt; d \u{FFFD} ]]&gt; end"))
        let back = try read(xml)
        #expect(back.attribute("a") == "q\"<&>\t\n\r")
        #expect(back.text == "a < b && c > d \u{FFFD} ]]> end")
    }

    @Test("elements without namespace stay in no namespace")
    func noNamespace() throws {
        let element = DAVElement(.prop, elements: [DAVElement(QualifiedName("", "plain"), text: "1")])
        let back = try read(XMLWriter.document(element))
        #expect(back.elements.first?.name == QualifiedName("", "plain"))
    }

    @Test("precondition errors render as <d:error> with the condition and a description")
    func errorBody() throws {
        let error = DAVError.precondition(.validCalendarData, "DTSTART is missing in VEVENT (line 4).")
        let body = try #require(error.errorBody)
        let xml = XMLWriter.document(body)
        #expect(xml.contains("<d:error xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\"><c:valid-calendar-data/><d:responsedescription>DTSTART is missing in VEVENT (line 4).</d:responsedescription></d:error>"))
        #expect(DAVError.malformed("x").errorBody == nil)
        #expect(error.status == 403)
    }

    @Test("a per-response error and description are written after the status")
    func responseError() throws {
        let response = Multistatus.Response.status(
            "/dav/calendars/sara/personal/", 403, error: DAVError.precondition(.noUIDConflict, "").errorBody)
        let xml = Multistatus(responses: [response]).xml
        #expect(xml.contains("<d:status>HTTP/1.1 403 Forbidden</d:status><d:error><c:no-uid-conflict/></d:error></d:response>"))
    }

    @Test("status lines parse back to codes")
    func statusLines() {
        #expect(HTTPStatus.line(507) == "HTTP/1.1 507 Insufficient Storage")
        #expect(HTTPStatus.code(fromLine: " HTTP/1.1 424 Failed Dependency ") == 424)
        #expect(HTTPStatus.code(fromLine: "nonsense") == nil)
    }

    @Test("Python's xml.etree reads the multistatus with the same names and text",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")))
    func pythonReadsIt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dav-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("ms.xml")
        try Self.sample().xml.write(to: file, atomically: true, encoding: .utf8)
        let script = """
            import sys, xml.etree.ElementTree as ET
            root = ET.parse(sys.argv[1]).getroot()
            D = '{DAV:}'
            out = [root.tag]
            for r in root.findall(D + 'response'):
                out.append('href=' + r.find(D + 'href').text)
                for ps in r.findall(D + 'propstat'):
                    out.append(ps.find(D + 'status').text + ':' + ','.join(p.tag for p in ps.find(D + 'prop')))
                st = r.find(D + 'status')
                if st is not None: out.append(st.text)
            data = root.find('.//{urn:ietf:params:xml:ns:caldav}calendar-data').text
            out.append('crlf=' + str(data.count('\\r\\n')))
            out.append('token=' + root.find(D + 'sync-token').text)
            print('\\n'.join(out))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(output.split(separator: "\n").map(String.init) == [
            "{DAV:}multistatus",
            "href=/dav/calendars/sara/personal/a%40b.ics",
            "HTTP/1.1 200 OK:{DAV:}getetag,{urn:ietf:params:xml:ns:caldav}calendar-data",
            "HTTP/1.1 403 Forbidden:{DAV:}quota-used-bytes",
            "HTTP/1.1 404 Not Found:{http://me.com/_namespace/}bulk-requests,{http://apple.com/ns/ical/}calendar-color",
            "href=/dav/calendars/sara/personal/gone.ics",
            "HTTP/1.1 404 Not Found",
            "crlf=\(Self.calendarData.components(separatedBy: "\r\n").count - 1)",
            "token=https://jadwal.example/sync/42",
        ])
    }
}

@Suite("Prefer: return=minimal")
struct MinimalResponseTests {
    @Test("minimal answers drop 404 propstats but keep others, and never leave a response empty")
    func minimal() {
        var builder = Multistatus.PropertyResponseBuilder(href: "/dav/calendars/sara/")
        builder.add(DAVElement(.displayName, text: "Sara"))
        builder.addNotFound(.calendarServer("push-transports"))
        builder.add(DAVElement(.quotaUsedBytes), status: 403)
        guard case .propstats(let minimal) = builder.build(minimal: true).content,
              case .propstats(let full) = builder.build().content else {
            Issue.record("expected propstats")
            return
        }
        #expect(full.map(\.status) == [200, 403, 404])
        #expect(minimal.map(\.status) == [200, 403])

        var onlyMissing = Multistatus.PropertyResponseBuilder(href: "/x/")
        onlyMissing.addNotFound(.getCTag)
        #expect(onlyMissing.build(minimal: true).content == .propstats([Multistatus.PropStat(status: 200, properties: [])]))
    }
}
