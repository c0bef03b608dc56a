import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JadwalCore
@testable import JadwalServer
import JadwalTestSupport
import NIOCore
import NIOHTTP1
import ServiceLifecycle
import Testing

/// "Connect Google Calendar" end to end, with Google stood in for on loopback (no Google can be
/// reached from here): the consent page's address, a code redeemed for a refresh token at the
/// token endpoint, and Google's CalDAV, a Radicale behind a door that lets in only requests
/// carrying a live access token. What differs from Google is only the addresses, which the
/// operator's settings name.
@Suite("Google Calendar over OAuth")
struct GoogleCalendarTests {
    /// Google's token endpoint and CalDAV door. Access tokens are handed out by the token
    /// endpoint and checked at the door; `revoke()` withdraws everything, as a person removing
    /// Jadwal's access in their Google account does.
    actor Google {
        static let clientID = "jadwal-test-client.apps.googleusercontent.com"
        static let clientSecret = "test-secret"
        static let email = "omar.g@gmail.test"
        var live: Set<String> = []
        var issued = 0
        var revoked = false
        var bearerRequests = 0

        func token(_ form: [String: String]) -> (Int, String) {
            guard form["client_id"] == Self.clientID, form["client_secret"] == Self.clientSecret else { return (401, #"{"error":"invalid_client"}"#) }
            guard !revoked else { return (400, #"{"error":"invalid_grant"}"#) }
            issued += 1
            let access = "access-\(issued)"
            live.insert(access)
            switch form["grant_type"] {
            case "authorization_code" where form["code"] == "good-code":
                let claims = Data(#"{"iss":"https://accounts.google.com","email":"\#(Self.email)","email_verified":true}"#.utf8)
                let idToken = "eyJhbGciOiJSUzI1NiJ9." + claims.base64EncodedString().replacingOccurrences(of: "=", with: "") + ".signature"
                return (200, #"{"access_token":"\#(access)","expires_in":3599,"refresh_token":"refresh-1","id_token":"\#(idToken)","token_type":"Bearer"}"#)
            case "refresh_token" where form["refresh_token"] == "refresh-1":
                return (200, #"{"access_token":"\#(access)","expires_in":3599,"token_type":"Bearer"}"#)
            default:
                return (400, #"{"error":"invalid_grant"}"#)
            }
        }

        func admits(_ authorization: String?) -> Bool {
            guard let authorization, authorization.hasPrefix("Bearer ") else { return false }
            bearerRequests += 1
            return !revoked && live.contains(String(authorization.dropFirst("Bearer ".count)))
        }

        func revoke() { revoked = true; live = [] }
    }

    /// The stand-in on a loopback port: `/token`, and every other path forwarded to Radicale
    /// (Google's principal path mapped to Radicale's) with Radicale's own Basic credentials.
    struct StandIn: RouterMiddleware {
        typealias Context = BasicRequestContext
        let google: Google
        let remote: RemoteCalDAVServer
        let http: HTTPClient

        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
            let body = try await request.body.collect(upTo: 1 << 24)
            if request.uri.path == "/token" {
                let form = Dictionary(String(buffer: body).split(separator: "&").map { pair -> (String, String) in
                    let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
                    return (parts[0], parts.count > 1 ? parts[1] : "")
                }, uniquingKeysWith: { first, _ in first })
                let (status, json) = await google.token(form)
                return Response(status: .init(code: status), headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: json)))
            }
            guard await google.admits(request.headers[.authorization]) else {
                return Response(status: .unauthorized, headers: [.wwwAuthenticate: "Bearer realm=\"Google\""])
            }
            let base = remote.baseURL.hasSuffix("/") ? String(remote.baseURL.dropLast()) : remote.baseURL
            var path = request.uri.path
            if path.removingPercentEncoding == "/caldav/v2/\(Google.email)/user" { path = "/\(remote.username)/" }
            var forwarded = HTTPClientRequest(url: base + path + (request.uri.query.map { "?" + $0 } ?? ""))
            forwarded.method = .RAW(value: request.method.rawValue)
            for field in request.headers where ![.authorization, .contentLength].contains(field.name) && field.name.canonicalName != "host" {
                forwarded.headers.add(name: field.name.rawName, value: field.value)
            }
            let basic = Data("\(remote.username):\(remote.password)".utf8).base64EncodedString()
            forwarded.headers.add(name: "Authorization", value: "Basic " + basic)
            forwarded.body = .bytes(body)
            let answer = try await http.execute(forwarded, timeout: .seconds(30))
            let answerBody = try await answer.body.collect(upTo: 1 << 26)
            var headers = HTTPFields()
            for (name, value) in answer.headers where !["content-length", "transfer-encoding", "connection"].contains(name.lowercased()) {
                if let field = HTTPField.Name(name) { headers.append(HTTPField(name: field, value: value)) }
            }
            return Response(status: .init(code: Int(answer.status.code)), headers: headers, body: .init(byteBuffer: answerBody))
        }
    }

    static func runStandIn<T: Sendable>(google: Google, remote: RemoteCalDAVServer, _ body: @Sendable (String) async throws -> T) async throws -> T {
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        let router = Router()
        router.add(middleware: StandIn(google: google, remote: remote, http: http))
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) }, logger: TestEnvironment.logger)
        let services = ServiceGroup(configuration: .init(services: [app], logger: TestEnvironment.logger))
        let result: Result<T, any Error> = await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await services.run() }
            var iterator = ports.makeAsyncIterator()
            let port = await iterator.next() ?? 0
            let result: Result<T, any Error>
            do {
                result = .success(try await body("http://127.0.0.1:\(port)"))
            } catch {
                result = .failure(error)
            }
            await services.triggerGracefulShutdown()
            await group.waitForAll()
            return result
        }
        try await http.shutdown()
        return try result.get()
    }

    @Test("connect Google Calendar: consent page, a code redeemed, the calendars mirrored with access tokens only; a forged state refused; access withdrawn is said")
    func connect() async throws {
        guard let python = RemoteCalDAVServer.python else { return }
        try await RemoteCalDAVServer.run("radicale", python: python) { remote in
            let calendarURL = try await remote.calendarURL()
            try await remote.client("put", calendarURL + "standup.ics", body: CalDAVAccountTests.event("standup@google", "Standup"))
            let google = Google()
            try await Self.runStandIn(google: google, remote: remote) { standIn in
                try await ServerHarness.run(configure: { configuration in
                    configuration.workers = 0
                    configuration.allowPrivateFetch = true
                    configuration.googleClientID = Google.clientID
                    configuration.googleClientSecret = Google.clientSecret
                    configuration.googleAuthorizationURL = standIn + "/o/oauth2/v2/auth"
                    configuration.googleTokenURL = standIn + "/token"
                    configuration.googleCalDAVURL = standIn + "/caldav/v2/"
                }) { harness, client in
                    var browser = TestBrowser()
                    try await browser.signIn("omar@example.com", client: client, harness: harness)
                    let page = try await browser.get(client, "/settings/calendars")
                    #expect(page.text.contains(#"id="google-button""#), "the button is there when the operator configured Google")
                    let csrf = try #require(TestBrowser.csrf(in: page))

                    // To Google's consent page: offline access to the calendars, back to this server.
                    let started = try await browser.post(client, "/settings/calendars/google", [], csrf: csrf)
                    #expect(started.status == .seeOther)
                    let consent = try #require(started.headers[.location].flatMap { URLComponents(string: $0) })
                    #expect(consent.path == "/o/oauth2/v2/auth")
                    let query = Dictionary(uniqueKeysWithValues: (consent.queryItems ?? []).map { ($0.name, $0.value ?? "") })
                    let callback = harness.instance.configuration.effectivePublicURL + "/settings/calendars/google/callback"
                    #expect(query["client_id"] == Google.clientID && query["response_type"] == "code" && query["access_type"] == "offline"
                            && query["scope"]?.contains("https://www.googleapis.com/auth/calendar") == true && query["redirect_uri"] == callback, "\(query)")
                    let state = try #require(query["state"])

                    // A callback Jadwal did not start for this person is refused; so is a "no" on Google's page.
                    let forged = try await browser.get(client, "/settings/calendars/google/callback?code=good-code&state=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
                    #expect(forged.status == .unprocessableContent && forged.text.contains("not started by you here"), "\(forged.status)")
                    let said = try await browser.get(client, "/settings/calendars/google/callback?error=access_denied&state=\(state)")
                    #expect(said.status == .unprocessableContent && said.text.contains("access_denied"))
                    var other = TestBrowser()
                    try await other.signIn("sara@example.com", client: client, harness: harness)
                    let stolen = try await other.get(client, "/settings/calendars/google/callback?code=good-code&state=\(state)")
                    #expect(stolen.status == .unprocessableContent, "another person cannot finish Omar's connection")

                    // The code comes back: the account is connected and every calendar mirrored.
                    let done = try await browser.get(client, "/settings/calendars/google/callback?code=good-code&state=\(state)")
                    #expect(done.status == .seeOther && done.headers[.location]?.contains("done=connected") == true, "\(done.status) \(done.text)")
                    try await ConflictAPITests.runJobs(harness)
                    let token = try await client.signIn("omar@example.com", harness: harness).accessToken
                    let listed = try await client.send(.get, "/api/v1/external-calendars", token: token)
                    #expect(listed.text.contains(Google.email) && !listed.text.contains("refresh-1") && !listed.text.contains("access-"),
                            "the account is listed, its tokens never: \(listed.text)")
                    let week = try await client.send(.get, "/api/v1/events?start=2026-09-21&end=2026-09-28", token: token)
                    #expect(week.text.contains("Standup"), "the Google calendar's event is mirrored: \(week.text)")
                    #expect(await google.bearerRequests > 0)

                    // Later changes there arrive on the next sync, signed with a renewed token.
                    try await remote.client("put", calendarURL + "review.ics", body: CalDAVAccountTests.event("review@google", "Review", hour: 13))
                    struct Listed: Decodable { struct Item: Decodable { let id: String }; let externalCalendars: [Item] }
                    let accountID = try #require(try listed.json(Listed.self).externalCalendars.first?.id)
                    try await CalDAVAccountTests.sync(harness, client, accountID, token: token)
                    #expect(try await client.send(.get, "/api/v1/events?start=2026-09-21&end=2026-09-28", token: token).text.contains("Review"))

                    // The person withdraws Jadwal's access in their Google account: the sync says what to do.
                    await google.revoke()
                    try await CalDAVAccountTests.sync(harness, client, accountID, token: token)
                    let failing = try await CalDAVAccountTests.status(client, accountID, token: token)
                    #expect(failing.status.state == "failing" && failing.status.lastError?.contains("connect Google Calendar again") == true, "\(failing.status)")
                }
            }
        }
    }
}
