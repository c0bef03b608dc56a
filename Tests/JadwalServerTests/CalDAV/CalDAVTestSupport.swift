import DAV
import Foundation
import HTTPTypes
import HummingbirdTesting
import JadwalCore
@testable import JadwalServer
@testable import JadwalHTTP
@testable import JadwalAPI
@testable import JadwalWeb
@testable import JadwalCalDAV
@testable import JadwalMail
@testable import JadwalPush
@testable import JadwalLLM
@testable import JadwalJobs
import JadwalTestSupport
import NIOCore
import Testing

/// A signed-in CalDAV client: an account with an app password, speaking HTTP Basic like a phone.
struct DAVUser: Sendable {
    let email: String
    let accountID: UUID
    let password: String

    var principal: String { "/dav/principals/\(accountID.uuidString.lowercased())/" }
    var home: String { "/dav/calendars/\(accountID.uuidString.lowercased())/" }
    func calendar(_ slug: String) -> String { home + slug + "/" }

    var basic: String { "Basic " + Data("\(email):\(password)".utf8).base64EncodedString() }

    static func make(_ email: String, harness: ServerHarness, client: some TestClientProtocol) async throws -> DAVUser {
        let tokens = try await client.signIn(email, harness: harness)
        let accountID = try #require(UUID(uuidString: tokens.account.id))
        let (_, password) = try await harness.instance.appPasswords.create(accountID: accountID, name: "Test iPhone")
        return DAVUser(email: email.lowercased(), accountID: accountID, password: password)
    }
}

extension HTTPRequest.Method {
    static let propfind = Self("PROPFIND")!
    static let proppatch = Self("PROPPATCH")!
    static let report = Self("REPORT")!
    static let mkcalendar = Self("MKCALENDAR")!
    static let mkcol = Self("MKCOL")!
    static let move = Self("MOVE")!
}

extension TestClientProtocol {
    func dav(
        _ method: HTTPRequest.Method, _ path: String, as user: DAVUser?, body: String? = nil, depth: String? = nil,
        contentType: String? = nil, headers extra: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = extra
        if let user, headers[.authorization] == nil { headers[.authorization] = user.basic }
        if let depth { headers[HTTPField.Name("Depth")!] = depth }
        if body != nil { headers[.contentType] = contentType ?? "application/xml; charset=utf-8" }
        return try await execute(uri: path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) }) { $0 }
    }

    func propfind(_ path: String, as user: DAVUser, depth: String = "0", _ properties: [String]) async throws -> TestResponse {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/" xmlns:ical="http://apple.com/ns/ical/">
              <d:prop>\(properties.map { "<\($0)/>" }.joined())</d:prop>
            </d:propfind>
            """
        return try await dav(.propfind, path, as: user, body: body, depth: depth)
    }

    func putICS(_ path: String, as user: DAVUser, _ ics: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        try await dav(.put, path, as: user, body: ics, contentType: "text/calendar; charset=utf-8", headers: headers)
    }
}

/// A parsed 207 body: per href, per property, its status and element.
struct ParsedMultistatus {
    struct Entry {
        var href: String
        var status: Int?
        var properties: [QualifiedName: (status: Int, element: DAVElement)] = [:]

        func value(_ name: QualifiedName) -> DAVElement? {
            guard let found = properties[name], found.status == 200 else { return nil }
            return found.element
        }

        func text(_ name: QualifiedName) -> String? { value(name)?.trimmedText }
        func hrefs(_ name: QualifiedName) -> [String] { value(name)?.elements(named: .href).map(\.trimmedText) ?? [] }
    }

    var entries: [Entry]
    var syncToken: String?

    init(_ response: TestResponse) throws {
        try #require(response.status.code == 207, "expected 207, got \(response.status.code): \(response.text)")
        let root = try XMLReader().read(Data(buffer: response.body))
        try #require(root.name == .multistatus)
        syncToken = root.first(.syncToken)?.trimmedText
        entries = root.elements(named: .response).map { response in
            var entry = Entry(href: response.first(.href)?.trimmedText ?? "")
            entry.status = response.first(.status).flatMap { HTTPStatus.code(fromLine: $0.text) }
            for propstat in response.elements(named: .propstat) {
                let status = propstat.first(.status).flatMap { HTTPStatus.code(fromLine: $0.text) } ?? 0
                for property in propstat.first(.prop)?.elements ?? [] { entry.properties[property.name] = (status, property) }
            }
            return entry
        }
    }

    subscript(href: String) -> Entry? { entries.first { $0.href == href } }
    var hrefs: [String] { entries.map(\.href) }
}

enum ICS {
    static func event(
        uid: String, summary: String = "Meeting", start: String = "20261123T100000", duration: String = "PT1H",
        rrule: String? = nil, extra: [String] = []
    ) -> String {
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Jadwal Tests//EN", "BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20261101T000000Z",
            "DTSTART;TZID=Asia/Riyadh:\(start)", "DURATION:\(duration)", "SUMMARY:\(summary)",
        ]
        if let rrule { lines.append("RRULE:\(rrule)") }
        lines += extra
        lines += ["END:VEVENT", "END:VCALENDAR"]
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    static func todo(uid: String, summary: String = "Buy dates", due: String? = "20261125T170000Z") -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Jadwal Tests//EN", "BEGIN:VTODO", "UID:\(uid)", "DTSTAMP:20261101T000000Z", "SUMMARY:\(summary)"]
        if let due { lines.append("DUE:\(due)") }
        lines += ["END:VTODO", "END:VCALENDAR"]
        return lines.joined(separator: "\r\n") + "\r\n"
    }
}

extension TestResponse {
    /// The precondition named in a `<d:error>` body, if any.
    var davCondition: QualifiedName? {
        guard let root = try? XMLReader().read(Data(buffer: body)), root.name == .error else { return nil }
        return root.elements.first { $0.name != .responseDescription }?.name
    }
}
