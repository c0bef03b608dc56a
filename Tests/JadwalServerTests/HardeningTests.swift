import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JadwalCore
@testable import JadwalServer
@testable import JadwalHTTP
@testable import JadwalAPI
@testable import JadwalWeb
@testable import JadwalCalDAV
import JadwalTestSupport
import NIOCore
import Storage
import Testing

/// The black-box findings of issue 22, each through the server's front doors.
@Suite("Hardening: throttled passwords, streams that end with their session, revoking devices, the link page, metrics")
struct HardeningTests {
    @Test("CalDAV answers 429 with Retry-After after five wrong passwords, and the right one waits too")
    func caldavThrottle() async throws {
        try await ServerHarness.run { harness, client in
            let user = try await DAVUser.make("throttle@example.com", harness: harness, client: client)
            let wrong = DAVUser(email: user.email, accountID: user.accountID, password: "aaaaa-bbbbb-ccccc-ddddd-eeeee")
            for _ in 1...5 { #expect(try await client.propfind(user.home, as: wrong, ["displayname"]).status == .unauthorized) }
            let refused = try await client.propfind(user.home, as: user, ["displayname"])
            #expect(refused.status == .tooManyRequests && refused.headers[.retryAfter] == "1", "\(refused.status) \(refused.text)")
            #expect(refused.text.contains("Too many wrong passwords"))
            harness.clock.advance(by: 1)
            #expect(try await client.propfind(user.home, as: user, ["displayname"]).status.code == 207)
        }
    }

    @Test("a write that waits too long for SQLite's one writer is answered 503 with Retry-After, nothing written; then it goes through")
    func writerWaitLimit() async throws {
        try await ServerHarness.run(configure: { $0.workers = 0; $0.databaseWaitLimit = .milliseconds(300) }) { harness, client in
            let user = try await DAVUser.make("busy@example.com", harness: harness, client: client)
            let tokens = try await client.signIn("busy-api@example.com", harness: harness)
            let calendar = user.calendar("personal")
            // Another transaction holds the writer ten times longer than a request may wait.
            let (entered, signal) = AsyncStream<Void>.makeStream()
            let store = harness.instance.store
            let holder = Task {
                try await store.transaction { _ in
                    signal.yield()
                    try await Task.sleep(for: .seconds(3))
                }
            }
            var inside = entered.makeAsyncIterator()
            _ = await inside.next()

            let refused = try await client.putICS(calendar + "late.ics", as: user, ICS.event(uid: "late"))
            #expect(refused.status == .serviceUnavailable && refused.headers[.retryAfter] == "1", "\(refused.status) \(refused.text)")
            #expect(refused.text.contains("Nothing was changed"), "\(refused.text)")
            let api = try await client.send(.post, "/api/v1/tasks", json: #"{"title": "Call the bank"}"#, token: tokens.accessToken)
            #expect(api.status == .serviceUnavailable && api.errorCode == "database_busy" && api.headers[.retryAfter] == "1", "\(api.status) \(api.text)")

            try await holder.value
            #expect(try await client.dav(.get, calendar + "late.ics", as: user).status == .notFound, "the refused write left nothing")
            #expect(try await client.putICS(calendar + "late.ics", as: user, ICS.event(uid: "late")).status == .created, "sent again, it goes through")
        }
    }

    @Test("a new app password past the account's limit is refused with a 409 that says what to do")
    func appPasswordLimit() async throws {
        try await ServerHarness.run(configure: { $0.appPasswordLimit = 1 }) { harness, client in
            let tokens = try await client.signIn("limit@example.com", harness: harness)
            #expect(try await client.send(.post, "/api/v1/app-passwords", json: #"{"name": "Phone"}"#, token: tokens.accessToken).status == .created)
            let refused = try await client.send(.post, "/api/v1/app-passwords", json: #"{"name": "Tablet"}"#, token: tokens.accessToken)
            #expect(refused.status == .conflict && refused.errorCode == "too_many_app_passwords" && refused.text.contains("Revoke one"), "\(refused.text)")
        }
    }

    @Test("a notification stream ends when its session signs out; an account holds at most the limit of streams", arguments: TestEnvironment.engines)
    func streamEndsWithSession(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine, configure: { $0.workers = 0; $0.streamKeepAlive = .milliseconds(200); $0.streamsPerAccount = 2 }) { harness, client in
            let port = try #require(client.port)
            let first = try await client.signIn("stream@example.com", harness: harness)
            let second = try await client.signIn("stream@example.com", harness: harness)
            let kept = try await EventStreamReader.open(port: port, token: first.accessToken)
            let ending = try await EventStreamReader.open(port: port, token: second.accessToken)
            #expect(await kept.next()?.name == "ready" && ending.status == 200)
            #expect(await ending.next()?.name == "ready")
            let third = try await client.send(.get, "/api/v1/notifications/stream", token: first.accessToken)
            #expect(third.status == .tooManyRequests && third.errorCode == "too_many_streams" && third.headers[.retryAfter] != nil)

            #expect(try await client.send(.post, "/api/v1/auth/logout", token: second.accessToken).status == .noContent)
            var event = await ending.next()
            while event != nil, event?.name == nil { event = await ending.next() }
            #expect(event?.name == "signed-out", "\(String(describing: event))")
            #expect(await ending.next(timeout: .milliseconds(600)) == nil, "nothing after the end")
            // The other session's stream carries on, and the ended one's place is free again.
            try await NotificationAPITests.setUpDevice(client, token: first.accessToken)
            var delivered = await kept.next()
            while delivered != nil, delivered?.name == nil { delivered = await kept.next() }
            #expect(delivered?.name == "notification", "\(String(describing: delivered))")
            ending.close()
            var reopened: EventStreamReader?
            for _ in 0..<50 where reopened == nil {
                let attempt = try await EventStreamReader.open(port: port, token: first.accessToken)
                if attempt.status == 200 { reopened = attempt } else { attempt.close(); try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(reopened != nil)
            reopened?.close()
            kept.close()
        }
    }

    @Test("signing out everywhere can revoke every app password, connector token, feed address and unspent setup link", arguments: TestEnvironment.engines)
    func signOutEverywhereRevokesDevices(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let user = try await DAVUser.make("everywhere@example.com", harness: harness, client: client)
            let tokens = try await client.signIn(user.email, harness: harness)
            let token = tokens.accessToken
            #expect(try await client.send(.put, "/api/v1/prayer-settings", json: #"{"city": "Makkah"}"#, token: token).status == .ok)
            #expect(try await client.send(.post, "/api/v1/prayer-times/feed", token: token).status == .created)
            #expect(try await client.send(.post, "/api/v1/chats/connector-tokens", json: #"{"name": "Bridge"}"#, token: token).status == .created)
            #expect(try await client.send(.post, "/api/v1/setup/caldav", json: #"{"deviceName": "iPad"}"#, token: token).status == .created)
            let profiles = Profiles(store: harness.instance.store, clock: harness.clock.clock)
            let before = try await profiles.deviceAccess(accountID: user.accountID)
            #expect(before.appPasswords.count == 1 && before.connectorTokens.count == 1 && before.feeds.count == 1 && before.setupLinks.count == 1)

            // Without the choice, devices keep working.
            let plain = try await client.signIn(user.email, harness: harness)
            #expect(try await client.send(.post, "/api/v1/auth/logout-all", token: plain.accessToken).status == .noContent)
            #expect(try await client.propfind(user.home, as: user, ["displayname"]).status.code == 207)

            let again = try await client.signIn(user.email, harness: harness)
            let answer = try await client.send(.post, "/api/v1/auth/logout-all", json: #"{"revokeDevices": true}"#, token: again.accessToken)
            #expect(answer.status == .ok && answer.text == #"{"revoked":{"appPasswords":1,"connectorTokens":1,"feeds":1,"setupLinks":1}}"#, "\(answer.text)")
            #expect(try await client.propfind(user.home, as: user, ["displayname"]).status == .unauthorized)
            #expect(try await profiles.deviceAccess(accountID: user.accountID) == DeviceAccess(appPasswords: [], connectorTokens: [], feeds: [], setupLinks: []))
            #expect(try await client.send(.get, "/api/v1/me", token: again.accessToken).status == .unauthorized)
        }
    }

    @Test("the web's devices section lists every credential, and its sign-out-everywhere form offers revoking them")
    func webSignOutEverywhere() async throws {
        try await ServerHarness.run { harness, client in
            var browser = TestBrowser()
            try await browser.signIn("webdevices@example.com", client: client, harness: harness)
            let settings = try await browser.get(client, "/settings")
            let csrf = try #require(TestBrowser.csrf(in: settings))
            #expect(try await browser.post(client, "/settings/app-passwords", [("name", "Phone")], csrf: csrf).status == .ok)
            #expect(try await browser.post(client, "/settings/setup", [("name", "iPad")], csrf: csrf).status == .ok)
            let page = try await browser.get(client, "/settings")
            #expect(page.text.contains("App passwords (calendar apps): 1") && page.text.contains("Easy Setup link for “iPad”"), "\(page.text)")

            let confirm = try await browser.get(client, "/settings/sign-out-everywhere")
            #expect(confirm.text.contains(#"name="revokeDevices""#) && confirm.text.contains("(2 now)"))
            let out = try await browser.post(client, "/signout/everywhere", [("revokeDevices", "on")], csrf: csrf)
            #expect(out.status == .seeOther)
            let account = try #require(try await harness.instance.store.read { tx in try await tx.account(email: try EmailAddress("webdevices@example.com")) })
            let left = try await Profiles(store: harness.instance.store, clock: harness.clock.clock).deviceAccess(accountID: account.id)
            #expect(left.appPasswords.isEmpty && left.setupLinks.isEmpty)
        }
    }

    @Test("the link page names the account, and presses its own button only in the browser that asked for the link")
    func linkPageNamesAccount() async throws {
        try await ServerHarness.run { harness, client in
            var asker = TestBrowser()
            _ = try await asker.post(client, "/signin/email", [("email", "asker@example.com")])
            #expect(asker.cookies[BrowserSession.askedCookie] != nil)
            let token = try await harness.outbox.waitForMagicLink(to: "asker@example.com")

            let here = try await asker.get(client, "/auth/magic?token=\(token)")
            #expect(here.status == .ok && here.text.contains("signs you in as asker@example.com") && here.text.contains(#"data-auto="true""#))
            // Another browser (a victim sent the attacker's link, a mail scanner): named, and a click is needed.
            var victim = TestBrowser()
            let elsewhere = try await victim.get(client, "/auth/magic?token=\(token)")
            #expect(elsewhere.text.contains("asker@example.com") && elsewhere.text.contains(#"data-auto="false""#) && elsewhere.text.contains("another browser"))
            // A cookie for another email does not count.
            _ = try await victim.post(client, "/signin/email", [("email", "victim@example.com")])
            #expect(try await victim.get(client, "/auth/magic?token=\(token)").text.contains(#"data-auto="false""#))
            // A spent or unknown link says so on the page, without a form.
            #expect(try await asker.post(client, "/auth/magic", [("token", token)]).status == .seeOther)
            let spent = try await victim.get(client, "/auth/magic?token=\(token)")
            #expect(spent.status == .unauthorized && spent.text.contains("already used") && !spent.text.contains(#"id="magic""#))
        }
    }

    @Test("/metrics is for this machine or the metrics token; a forwarded request is not this machine")
    func metricsAccess() async throws {
        try await ServerHarness.run(configure: { $0.metricsToken = "m3trics" }) { _, client in
            #expect(try await client.send(.get, "/metrics").status == .ok)
            let forwarded: HTTPFields = [ForwardedClientMiddleware.header: "203.0.113.9"]
            let refused = try await client.send(.get, "/metrics", headers: forwarded)
            #expect(refused.status == .forbidden && refused.errorCode == "metrics_forbidden")
            var withToken = forwarded
            withToken[.authorization] = "Bearer m3trics"
            #expect(try await client.send(.get, "/metrics", headers: withToken).status == .ok)
            withToken[.authorization] = "Bearer wrong"
            #expect(try await client.send(.get, "/metrics", headers: withToken).status == .forbidden)
        }
    }

    @Test("/readyz says only that the database is unavailable, not why")
    func readinessWithoutDetail() async throws {
        let store = try await TestEnvironment.freshStore(.sqlite)
        try await store.shutdown()
        let router = Router(context: JadwalRequestContext.self)
        HealthRoutes(store: store, clock: .system, metricsToken: nil).addRoutes(to: router)
        try await Application(router: router).test(.router) { client in
            let answer = try await client.execute(uri: "/readyz", method: .get) { $0 }
            #expect(answer.status == .serviceUnavailable)
            #expect(String(buffer: answer.body) == #"{"status":"unavailable"}"#, "\(String(buffer: answer.body))")
        }
    }

    @Test("X-Forwarded-For is believed only from trusted proxies, and read from the right")
    func forwardedFor() async throws {
        let proxies = ["10.0.0.0/8", "::1/128"].compactMap(IPNetwork.init)
        let middleware = ForwardedClientMiddleware(trustedProxies: proxies)
        #expect(middleware.client(in: ["198.51.100.1, 203.0.113.9"]) == "203.0.113.9", "the hop the proxy added")
        #expect(middleware.client(in: ["6.6.6.6, 203.0.113.9, 10.1.2.3"]) == "203.0.113.9", "a chain of trusted proxies is skipped")
        #expect(middleware.client(in: ["203.0.113.9", "10.0.0.5"]) == "203.0.113.9", "several header fields are one list")
        #expect(middleware.client(in: ["not-an-address"]) == nil)
        #expect(IPNetwork("10.0.0.0/8")?.contains("10.255.1.1") == true && IPNetwork("10.0.0.0/8")?.contains("11.0.0.1") == false)
        #expect(IPNetwork("2001:db8::/32")?.contains("2001:db8:ffff::1") == true && IPNetwork("::1/128")?.contains("::ffff:127.0.0.1") == false)
        #expect(IPNetwork("10.0.0.0/33") == nil && IPNetwork("example.com") == nil)

        // Through the server: the test client connects from loopback.
        for (trusted, believed) in [(["127.0.0.0/8", "::1/128"], true), (["10.0.0.0/8"], false)] {
            try await ServerHarness.run(configure: { $0.trustForwardedFor = true; $0.trustedProxies = trusted }) { harness, client in
                _ = try await client.send(.post, "/api/v1/auth/email", json: #"{"email": "proxied@example.com"}"#, headers: [ForwardedClientMiddleware.header: "6.6.6.6, 203.0.113.9"])
                let token = try await harness.outbox.waitForMagicLink(to: "proxied@example.com")
                let requester = try await harness.instance.store.read { tx in try await tx.signInToken(digest: SecretToken(presented: token).digest)?.requester }
                #expect((requester == "203.0.113.9") == believed && requester != "6.6.6.6", "trusting \(trusted): \(String(describing: requester))")
            }
        }
    }
}
