import DAV
import Foundation
import JadwalCore

/// Connects to other CalDAV servers through `FeedFetcher`, so an account's requests obey the
/// same address rules, redirect checks, size cap and timeouts as a feed's.
public struct CalDAVServers: RemoteCalDAVServers {
    let fetcher: FeedFetcher
    /// Google's OAuth, when the operator configured it: what `.google` accounts sign in with.
    let google: GoogleOAuth?

    public init(fetcher: FeedFetcher, google: GoogleOAuth? = nil) {
        self.fetcher = fetcher
        self.google = google
    }

    public func connection(_ credentials: RemoteCredentials) -> any RemoteCalDAVConnection {
        CalDAVClient(fetcher: fetcher, credentials: credentials, google: google)
    }
}

/// One account's requests to its CalDAV server (RFC 4791, RFC 6578, RFC 6764 discovery). The
/// first 401 says how to authenticate (Basic, or Digest with its nonce, kept for the requests
/// after it); multistatus answers are read with the DAV module's XML reader.
actor CalDAVClient: RemoteCalDAVConnection {
    let fetcher: FeedFetcher
    let credentials: RemoteCredentials
    var authentication: HTTPAuthentication?
    /// Multiget pages. Servers such as Radicale read the whole collection for each REPORT, so
    /// the number of requests is what a large first sync costs: 5,000 objects take 5 (pages of
    /// 100 made it 50, and Jadwal slower than vdirsyncer, which asks for everything at once). A
    /// page whose answer is over the fetcher's size cap is asked again in halves.
    static let multigetPage = 1000

    let google: GoogleOAuth?
    /// For a Google account: the access token this connection signs its requests with.
    var bearer: String?

    init(fetcher: FeedFetcher, credentials: RemoteCredentials, google: GoogleOAuth? = nil) {
        self.fetcher = fetcher
        self.credentials = credentials
        self.google = google
    }

    // MARK: Requests

    /// One request, authenticated; a 401 is answered once with the scheme it asks for.
    func send(_ method: String, _ url: String, depth: String? = nil, headers: [(String, String)] = [], body: DAVElement? = nil, text: String? = nil)
        async throws(FeedFetchFailure) -> FetchAnswer
    {
        var request = FetchRequest(method: method, url: url, headers: headers)
        if let depth { request.headers.append(("Depth", depth)) }
        if let body {
            request.headers.append(("Content-Type", "application/xml; charset=utf-8"))
            request.body = XMLWriter.bytes(body)
        } else if let text {
            request.headers.append(("Content-Type", "text/calendar; charset=utf-8"))
            request.body = Array(text.utf8)
        }
        if credentials.signIn == .google { return try await sendAsGoogle(request) }
        var answer = try await exchange(request)
        if answer.status == 401 {
            // The raw values: the canonical form would split a Digest challenge at its commas.
            let challenges = AuthenticationChallenge.parse(answer.headers["www-authenticate"])
            let stale = challenges.contains { $0.parameters["stale"]?.lowercased() == "true" }
            let wasAuthenticated = authentication != nil
            guard let chosen = HTTPAuthentication.choose(from: challenges) else {
                throw FeedFetchFailure(.unauthorized, "the server asked for a kind of sign-in Jadwal does not speak (only Basic and Digest)", status: 401)
            }
            guard !wasAuthenticated || stale else { throw Self.refused(answer.status) }
            authentication = chosen
            answer = try await exchange(request)
            if answer.status == 401 { throw Self.refused(401) }
        }
        return answer
    }

    /// A request to Google's CalDAV with an access token, renewed once if Google refuses it
    /// (they last an hour; a sync may outlive one).
    private func sendAsGoogle(_ request: FetchRequest) async throws(FeedFetchFailure) -> FetchAnswer {
        guard let google else {
            throw FeedFetchFailure(.unauthorized, "this server is not configured for Google Calendar any more (no Google client secret)", status: 401)
        }
        for fresh in [false, true] {
            if fresh || bearer == nil { bearer = try await google.accessToken(refreshToken: credentials.password) }
            var signed = request
            signed.headers.append(("Authorization", "Bearer " + (bearer ?? "")))
            let answer = try await fetcher.exchange(signed)
            if answer.status != 401 { return answer }
        }
        throw FeedFetchFailure(.unauthorized, "Google refused the calendar's access token; connect Google Calendar again", status: 401)
    }

    static func refused(_ status: Int) -> FeedFetchFailure {
        FeedFetchFailure(.unauthorized, "the server refused the user name or password (HTTP \(status)); check them, or make a new app-specific password", status: status)
    }

    /// The request with this connection's `Authorization`, through the fetcher (a redirect to
    /// another path is answered there with the same header: Digest's `uri` names the first).
    func exchange(_ request: FetchRequest) async throws(FeedFetchFailure) -> FetchAnswer {
        var request = request
        if var authentication {
            let uri = URLComponents(string: request.url).map { ($0.percentEncodedPath.isEmpty ? "/" : $0.percentEncodedPath) + ($0.percentEncodedQuery.map { "?" + $0 } ?? "") } ?? "/"
            let cnonce = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
            request.headers.append(("Authorization", authentication.authorization(method: request.method, uri: uri, credentials: (credentials.username, credentials.password), cnonce: cnonce)))
            self.authentication = authentication
        }
        return try await fetcher.exchange(request)
    }

    /// A multistatus answer, or the failure its status means.
    func multistatus(_ method: String, _ url: String, depth: String, body: DAVElement) async throws(FeedFetchFailure) -> RemoteMultistatus {
        let answer = try await send(method, url, depth: depth, body: body)
        guard answer.status == 207 else { throw Self.failure(answer, doing: "\(method) \(Self.path(url))") }
        do {
            return try RemoteMultistatus(answer)
        } catch {
            throw FeedFetchFailure(.status, "the server's answer to \(method) \(Self.path(url)) is not a WebDAV multistatus: \(error)")
        }
    }

    static func failure(_ answer: FetchAnswer, doing what: String) -> FeedFetchFailure {
        switch answer.status {
        case 401, 403: refused(answer.status)
        case 404, 410: FeedFetchFailure(.gone, "\(what): the server says there is nothing there (HTTP \(answer.status)); check the address", status: answer.status)
        case 405, 501: FeedFetchFailure(.status, "\(what): the server does not speak CalDAV there (HTTP \(answer.status)); check the address", status: answer.status)
        default: FeedFetchFailure(.status, "\(what): the server answered HTTP \(answer.status)", status: answer.status)
        }
    }

    static func path(_ url: String) -> String { URLComponents(string: url)?.path ?? url }

    static func propfind(_ names: [QualifiedName]) -> DAVElement {
        DAVElement(.propfind, elements: [DAVElement(.prop, elements: names.map { DAVElement($0) })])
    }

    // MARK: Discovery

    func discover(_ given: String) async throws(FeedFetchFailure) -> RemoteAccountDiscovery {
        let url = Self.address(given)
        guard let components = URLComponents(string: url), components.host != nil else {
            throw FeedFetchFailure(.refused, "\"\(given.prefix(80))\" is not an address")
        }
        // RFC 6764 §5: a bare host (or its root) is asked through /.well-known/caldav first.
        var candidates = [url]
        if components.path.isEmpty || components.path == "/" {
            var wellKnown = components
            wellKnown.path = "/.well-known/caldav"
            wellKnown.query = nil
            if let known = wellKnown.string { candidates.insert(known, at: 0) }
        }
        var lastFailure: FeedFetchFailure?
        for candidate in candidates {
            do {
                return try await discover(at: candidate)
            } catch where error.kind == .unauthorized || error.kind == .refused || error.kind == .tls || error.kind == .network {
                throw error
            } catch {
                lastFailure = error
            }
        }
        throw lastFailure ?? FeedFetchFailure(.status, "no CalDAV service was found at \(url)")
    }

    /// `https://` is assumed for a bare host.
    static func address(_ given: String) -> String {
        let trimmed = given.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.contains("://") ? trimmed : "https://" + trimmed
    }

    func discover(at url: String) async throws(FeedFetchFailure) -> RemoteAccountDiscovery {
        let first = try await multistatus(
            "PROPFIND", url, depth: "0", body: Self.propfind([.dav("current-user-principal"), .caldav("calendar-home-set"), .dav("resourcetype")]))
        guard let here = first.responses.first else { throw FeedFetchFailure(.status, "\(Self.path(url)): the server's answer named nothing") }
        var home = here.href(.caldav("calendar-home-set"))
        let principal = here.href(.dav("current-user-principal"))
        if home == nil, let principal {
            let asked = try await multistatus("PROPFIND", principal, depth: "0", body: Self.propfind([.caldav("calendar-home-set")]))
            home = asked.responses.first?.href(.caldav("calendar-home-set"))
        }
        if home == nil, here.property(.dav("resourcetype"))?.contains(.calendar) == true {
            // The address of one calendar: its home is the collection above it.
            home = URL(string: here.url)?.deletingLastPathComponent().absoluteString
        }
        guard let home else {
            throw FeedFetchFailure(
                .status, "\(Self.path(url)) did not name a calendar home (no current-user-principal or calendar-home-set); give the address of your CalDAV account")
        }
        return RemoteAccountDiscovery(principalURL: principal, homeURL: home, calendars: try await calendars(home: home))
    }

    func calendars(home: String) async throws(FeedFetchFailure) -> [RemoteCalendar] {
        let listed = try await multistatus(
            "PROPFIND", home, depth: "1",
            body: Self.propfind([
                .dav("resourcetype"), .dav("displayname"), .appleICal("calendar-color"), .caldav("supported-calendar-component-set"),
                .calendarServer("getctag"), .dav("supported-report-set"),
            ]))
        // No sync-token here: answering it makes a server such as Radicale build and store its sync
        // state for every object of every calendar, which made connecting slower than a whole
        // sync; the first sync-collection (from no token) takes the token when one is needed.
        return listed.responses.compactMap { response in
            guard response.property(.dav("resourcetype"))?.contains(.calendar) == true else { return nil }
            let components = response.property(.caldav("supported-calendar-component-set"))?.elements(named: .comp).compactMap { $0.attribute("name")?.uppercased() } ?? []
            let reports = response.property(.dav("supported-report-set"))?.elements(named: .dav("supported-report")).compactMap { $0.first(.dav("report")) } ?? []
            return RemoteCalendar(
                url: response.url, displayName: response.text(.dav("displayname")), color: response.text(.appleICal("calendar-color")).flatMap(Self.color),
                components: components, ctag: response.text(.calendarServer("getctag")), reportsSync: reports.contains { $0.contains(.syncCollection) })
        }.sorted { $0.url < $1.url }
    }

    /// `#RRGGBB` from Apple's `#RRGGBBAA` (or `#RRGGBB`).
    static func color(_ text: String) -> String? {
        let hex = text.trimmingCharacters(in: .whitespaces)
        guard hex.hasPrefix("#"), hex.count == 7 || hex.count == 9, hex.dropFirst().allSatisfy(\.isHexDigit) else { return nil }
        return String(hex.prefix(7)).uppercased()
    }

    // MARK: Mirroring

    func changes(calendar: String, since token: String?) async throws(FeedFetchFailure) -> RemoteChanges {
        let body = DAVElement(.syncCollection, elements: [
            DAVElement(.syncToken, text: token ?? ""), DAVElement(.syncLevel, text: "1"), DAVElement(.prop, elements: [DAVElement(.dav("getetag"))]),
        ])
        let answer = try await send("REPORT", calendar, depth: "0", body: body)
        if (answer.status == 403 || answer.status == 409 || answer.status == 400), token != nil,
           String(decoding: answer.body, as: UTF8.self).contains("valid-sync-token") {
            return .tokenExpired
        }
        guard answer.status == 207 else { throw Self.failure(answer, doing: "sync-collection on \(Self.path(calendar))") }
        let read: RemoteMultistatus
        do {
            read = try RemoteMultistatus(answer)
        } catch {
            throw FeedFetchFailure(.status, "the server's sync-collection answer is not a WebDAV multistatus: \(error)")
        }
        var changed: [String: String] = [:]
        var removed: [String] = []
        var more = false
        let collection = Self.path(calendar)
        for response in read.responses {
            if response.status == 507, Self.path(response.url).trimmingSlash == collection.trimmingSlash {
                more = true
            } else if response.status == 404 {
                removed.append(response.url)
            } else if let etag = response.text(.dav("getetag")) {
                changed[response.url] = etag
            } else if Self.path(response.url).trimmingSlash != collection.trimmingSlash {
                changed[response.url] = ""
            }
        }
        guard let next = read.syncToken else { throw FeedFetchFailure(.status, "the server's sync-collection answer has no sync-token") }
        return .changes(changed: changed, removed: removed, token: next, more: more && next != token)
    }

    func etags(calendar: String) async throws(FeedFetchFailure) -> [String: String] {
        let listed = try await multistatus("PROPFIND", calendar, depth: "1", body: Self.propfind([.dav("getetag"), .dav("resourcetype")]))
        var found: [String: String] = [:]
        for response in listed.responses where response.property(.dav("resourcetype"))?.contains(.collection) != true {
            if let etag = response.text(.dav("getetag")) { found[response.url] = etag }
        }
        return found
    }

    func ctag(calendar: String) async throws(FeedFetchFailure) -> String? {
        let asked = try await multistatus("PROPFIND", calendar, depth: "0", body: Self.propfind([.calendarServer("getctag"), .dav("sync-token")]))
        return asked.responses.first.flatMap { $0.text(.calendarServer("getctag")) ?? $0.text(.dav("sync-token")) }
    }

    func objects(calendar: String, urls: [String]) async throws(FeedFetchFailure) -> [RemoteObject] {
        var found: [RemoteObject] = []
        var start = 0
        while start < urls.count {
            let page = urls[start..<min(start + Self.multigetPage, urls.count)]
            start += Self.multigetPage
            found += try await multiget(calendar: calendar, urls: page)
        }
        return found
    }

    /// One calendar-multiget; an answer over the size cap is asked for again in two halves.
    private func multiget(calendar: String, urls: ArraySlice<String>) async throws(FeedFetchFailure) -> [RemoteObject] {
        let body = DAVElement(.calendarMultiget, elements: [DAVElement(.prop, elements: [DAVElement(.dav("getetag")), DAVElement(.caldav("calendar-data"))])]
            + urls.map { DAVElement(.href, text: URLComponents(string: $0)?.percentEncodedPath ?? $0) })
        let got: RemoteMultistatus
        do {
            got = try await multistatus("REPORT", calendar, depth: "1", body: body)
        } catch where error.kind == .tooLarge && urls.count > 1 {
            let middle = urls.startIndex + urls.count / 2
            return try await multiget(calendar: calendar, urls: urls[..<middle]) + multiget(calendar: calendar, urls: urls[middle...])
        }
        return got.responses.compactMap { response in
            guard let data = response.property(.caldav("calendar-data"))?.text, !data.isEmpty else { return nil }
            return RemoteObject(url: response.url, etag: response.text(.dav("getetag")), icalendar: data)
        }
    }

    // MARK: Writing back

    func put(_ url: String, icalendar: String, ifMatch etag: String?) async throws(FeedFetchFailure) -> RemoteWrite {
        let condition = etag.map { ("If-Match", $0) } ?? ("If-None-Match", "*")
        let answer = try await send("PUT", url, headers: [condition], text: icalendar)
        switch answer.status {
        case 200...299: return .done(etag: answer.header("etag"))
        case 412: return .preconditionFailed
        default: throw Self.failure(answer, doing: "PUT \(Self.path(url))")
        }
    }

    func delete(_ url: String, ifMatch etag: String?) async throws(FeedFetchFailure) -> RemoteWrite {
        let answer = try await send("DELETE", url, headers: etag.map { [("If-Match", $0)] } ?? [])
        switch answer.status {
        case 200...299: return .done(etag: nil)
        case 412: return .preconditionFailed
        case 404, 410: return .notFound
        default: throw Self.failure(answer, doing: "DELETE \(Self.path(url))")
        }
    }
}

/// A multistatus answer read: each response's absolute address, status and properties.
struct RemoteMultistatus {
    struct Response {
        var url: String
        /// The response's own status (a removed member in sync-collection, 507 for "more").
        var status: Int?
        /// Properties found (200 in their propstat).
        var properties: [QualifiedName: DAVElement]

        func property(_ name: QualifiedName) -> DAVElement? { properties[name] }

        func text(_ name: QualifiedName) -> String? {
            properties[name].map(\.trimmedText).flatMap { $0.isEmpty ? nil : $0 }
        }

        /// A property holding an href, as an absolute address.
        func href(_ name: QualifiedName) -> String? {
            guard let href = properties[name]?.first(.href)?.trimmedText, !href.isEmpty else { return nil }
            return URL(string: href, relativeTo: URL(string: url))?.absoluteString
        }
    }

    var responses: [Response] = []
    var syncToken: String?

    init(_ answer: FetchAnswer) throws {
        let root = try XMLReader(limits: XMLReader.Limits(maxBytes: 64 << 20, maxDepth: 64)).read(Data(answer.body))
        guard root.name == .multistatus else { throw DAVError.malformed("the root element is \(root.name), not DAV:multistatus") }
        let base = URL(string: answer.url)
        syncToken = root.first(.syncToken)?.trimmedText
        for element in root.elements(named: .response) {
            guard let href = element.first(.href)?.trimmedText, let url = URL(string: href, relativeTo: base)?.absoluteString else { continue }
            var response = Response(url: url, status: element.first(.status).flatMap { Self.status($0.trimmedText) }, properties: [:])
            for propstat in element.elements(named: .propstat) {
                guard let status = propstat.first(.status).flatMap({ Self.status($0.trimmedText) }), (200...299).contains(status) else { continue }
                for property in propstat.first(.prop)?.elements ?? [] { response.properties[property.name] = property }
            }
            responses.append(response)
        }
    }

    /// `HTTP/1.1 404 Not Found` → 404.
    static func status(_ line: String) -> Int? {
        let parts = line.split(separator: " ")
        return parts.count >= 2 ? Int(parts[1]) : nil
    }
}

extension String {
    fileprivate var trimmingSlash: String { hasSuffix("/") ? String(dropLast()) : self }
}
