import AsyncHTTPClient
import Crypto
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
import Synchronization
import Testing

/// A Server-Sent Events client over a real HTTP connection: each event as it arrives.
final class EventStreamReader: Sendable {
    struct Event: Sendable, Equatable {
        var id: String?
        var name: String?
        var data: String
    }

    /// Events read and not yet taken; a buffer rather than an AsyncStream, whose iteration
    /// ends for good when a waiting task is cancelled (as a timed-out wait is).
    private let received = Mutex<[Event]>([])
    private let task: Mutex<Task<Void, Never>?> = Mutex(nil)
    let status: Int

    private init(status: Int) { self.status = status }

    static func open(port: Int, token: String, lastEventID: String? = nil) async throws -> EventStreamReader {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/api/v1/notifications/stream")
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Accept", value: "text/event-stream")
        if let lastEventID { request.headers.add(name: "Last-Event-ID", value: lastEventID) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let reader = EventStreamReader(status: Int(response.status.code))
        let task = Task {
            var pending = ""
            var current = Event(data: "")
            do {
                for try await chunk in response.body {
                    pending += String(buffer: chunk)
                    while let newline = pending.firstIndex(of: "\n") {
                        let line = String(pending[..<newline])
                        pending.removeSubrange(...newline)
                        if line.isEmpty {
                            let event = current
                            if event.name != nil || !event.data.isEmpty { reader.received.withLock { $0.append(event) } }
                            current = Event(data: "")
                        } else if line.hasPrefix("id: ") {
                            current.id = String(line.dropFirst(4))
                        } else if line.hasPrefix("event: ") {
                            current.name = String(line.dropFirst(7))
                        } else if line.hasPrefix("data: ") {
                            current.data += String(line.dropFirst(6))
                        }
                    }
                }
            } catch {}
        }
        reader.task.withLock { $0 = task }
        return reader
    }

    /// The next event, or nil when none comes within `timeout`.
    func next(timeout: Duration = .seconds(10)) async -> Event? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let event = received.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { return event }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    func close() { task.withLock { $0?.cancel() } }
}

@Suite("Notifications over HTTP")
struct NotificationAPITests {
    struct Feed: Decodable {
        struct Item: Decodable {
            let id: String; let sequence: Int64; let kind: String; let title: String; let body: String; let links: [String: String]
            let urgent: Bool; let read: Bool; let deliveredAt: String
        }
        let notifications: [Item]
        let unreadCount: Int
        let nextBefore: Int64?
    }

    struct SetupLink: Decodable { let url: String }

    static func feed(_ client: some TestClientProtocol, token: String, query: String = "") async throws -> Feed {
        let response = try await client.send(.get, "/api/v1/notifications" + query, token: token)
        try #require(response.status == .ok, "\(response.text)")
        return try response.json(Feed.self)
    }

    /// Dinner 18:00–19:00 and a call 18:30 over CalDAV on Monday 23 November (Riyadh): a conflict
    /// the person is told about once they ask to hear of conflicts from their phone.
    static func conflictFromPhone(_ harness: ServerHarness, _ client: some TestClientProtocol, user: DAVUser, token: String, call: String = "call") async throws {
        let settings = try await client.send(.put, "/api/v1/conflicts/settings", json: #"{"notifySources": ["caldav"]}"#, token: token)
        try #require(settings.status == .ok, "\(settings.text)")
        let personal = user.calendar("personal")
        _ = try await client.putICS(personal + "dinner.ics", as: user, ICS.event(uid: "dinner", summary: "Dinner", start: "20261123T180000"))
        _ = try await client.putICS(personal + "\(call).ics", as: user, ICS.event(uid: call, summary: "Call with Sara", start: "20261123T183000"))
        try await ConflictAPITests.runJobs(harness)
    }

    static func setUpDevice(_ client: some TestClientProtocol, token: String, name: String = "Sara's iPhone") async throws {
        let created = try await client.send(.post, "/api/v1/setup/caldav", json: #"{"deviceName": "\#(name)"}"#, token: token)
        let url = try created.json(SetupLink.self).url
        let path = try #require(url.range(of: "/setup/").map { String(url[$0.lowerBound...]) })
        #expect(try await client.send(.get, path).status == .ok)
    }

    @Test("the feed: a conflict is told once; setup done; pages, read marks and bad input", arguments: TestEnvironment.engines)
    func feed(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine, configure: { $0.workers = 0 }) { harness, client in
            let (user, token) = try await ChatAPITests.omar(harness, client)
            #expect(try await Self.feed(client, token: token).notifications.isEmpty)
            try await Self.conflictFromPhone(harness, client, user: user, token: token)
            var feed = try await Self.feed(client, token: token)
            try #require(feed.notifications.count == 1, "\(feed)")
            let conflict = feed.notifications[0]
            #expect(conflict.kind == "conflict" && conflict.title == "Conflict: Call with Sara" && !conflict.urgent && !conflict.read)
            #expect(conflict.body.contains("Mon 23 Nov") && conflict.body.contains("18:30") && conflict.body.contains("conflicts with Dinner"), "\(conflict.body)")
            let listed = try await ConflictAPITests.conflicts(client, token: token)
            #expect(conflict.links["conflictId"] == listed.first?.id && conflict.links["objectName"] == "call.ics")
            #expect(feed.unreadCount == 1)

            // The same conflict found again by the next write is not told again.
            _ = try await client.putICS(user.calendar("personal") + "call.ics", as: user, ICS.event(uid: "call", summary: "Call with Sara", start: "20261123T183000"))
            try await ConflictAPITests.runJobs(harness)
            #expect(try await Self.feed(client, token: token).notifications.count == 1)

            try await Self.setUpDevice(client, token: token)
            feed = try await Self.feed(client, token: token)
            #expect(feed.notifications.map(\.kind) == ["setup-done", "conflict"] && feed.notifications.first?.urgent == true)
            #expect(feed.notifications.first?.title == "Sara's iPhone is set up" && feed.unreadCount == 2)

            let page = try await Self.feed(client, token: token, query: "?limit=1")
            #expect(page.notifications.map(\.kind) == ["setup-done"] && page.nextBefore == page.notifications.first?.sequence)
            let older = try await Self.feed(client, token: token, query: "?limit=1&before=\(page.nextBefore ?? 0)")
            #expect(older.notifications.map(\.kind) == ["conflict"])

            let marked = try await client.send(.post, "/api/v1/notifications/read", json: #"{"ids": ["\#(conflict.id)"]}"#, token: token)
            #expect(marked.status == .ok && marked.text.contains(#""marked":1"#) && marked.text.contains(#""unreadCount":1"#), "\(marked.text)")
            #expect(try await Self.feed(client, token: token, query: "?unread=true").notifications.map(\.kind) == ["setup-done"])
            let all = try await client.send(.post, "/api/v1/notifications/read-all", token: token)
            #expect(all.status == .ok && all.text.contains(#""marked":1"#), "\(all.text)")
            let count = try await client.send(.get, "/api/v1/notifications/unread-count", token: token)
            #expect(count.text == #"{"unreadCount":0}"#, "\(count.text)")

            for (method, path, body) in [
                (HTTPRequest.Method.get, "/api/v1/notifications?limit=0", nil), (.get, "/api/v1/notifications?unread=maybe", nil),
                (.get, "/api/v1/notifications?before=x", nil), (.post, "/api/v1/notifications/read", #"{"ids": ["nope"]}"#),
                (.post, "/api/v1/notifications/read", #"{"id": 1}"#),
            ] as [(HTTPRequest.Method, String, String?)] {
                let refused = try await client.send(method, path, json: body, token: token)
                #expect(refused.status == .badRequest, "\(path) \(body ?? ""): \(refused.text)")
            }

            // Another person sees none of it and cannot mark it.
            let (_, other) = try await ChatAPITests.omar(harness, client, email: "someone@example.com")
            #expect(try await Self.feed(client, token: other).notifications.isEmpty)
            let foreign = try await client.send(.post, "/api/v1/notifications/read", json: #"{"ids": ["\#(conflict.id)"]}"#, token: other)
            #expect(foreign.text.contains(#""marked":0"#))
            #expect(try await client.send(.get, "/api/v1/notifications").status == .unauthorized)
        }
    }

    @Test("the live stream sends each notification as it is posted, resumes from Last-Event-ID, and holds through quiet hours",
          arguments: TestEnvironment.engines)
    func stream(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine, configure: { $0.workers = 0; $0.streamKeepAlive = .milliseconds(200) }) { harness, client in
            let (user, token) = try await ChatAPITests.omar(harness, client)
            let port = try #require(client.port)
            let first = try await EventStreamReader.open(port: port, token: token)
            #expect(first.status == 200)
            let ready = await first.next()
            #expect(ready?.name == "ready" && ready?.id == "0", "\(String(describing: ready))")

            try await Self.setUpDevice(client, token: token)
            var event = await first.next()
            while event?.name == nil { event = await first.next() }  // keep-alive comments carry no event
            #expect(event?.name == "notification" && event?.id == "1" && event?.data.contains(#""kind":"setup-done""#) == true, "\(String(describing: event))")
            first.close()

            // Missed while away: a reconnect with the last id gets it.
            try await Self.conflictFromPhone(harness, client, user: user, token: token)
            let second = try await EventStreamReader.open(port: port, token: token, lastEventID: "1")
            #expect(await second.next()?.name == "ready")
            var missed = await second.next()
            while missed?.name == nil { missed = await second.next() }
            #expect(missed?.id == "2" && missed?.data.contains("Conflict: Call with Sara") == true, "\(String(describing: missed))")

            // Quiet hours: asleep 17:00–19:00 (now is 17:13 in Riyadh), a new conflict waits until 19:00.
            _ = try await client.send(.post, "/api/v1/routines", json: #"{"name": "Nap", "start": "17:00", "end": "19:00", "days": "daily", "kind": "sleep"}"#, token: token)
            try await ConflictAPITests.runJobs(harness)
            _ = try await client.putICS(user.calendar("personal") + "tea.ics", as: user, ICS.event(uid: "tea", summary: "Tea", start: "20261123T181500"))
            try await ConflictAPITests.runJobs(harness)
            // The calendar changed (the routine, the tea) and the stream says so; notifications wait.
            var held = await second.next(timeout: .milliseconds(800))
            while held != nil, held?.name != "notification" { held = await second.next(timeout: .milliseconds(800)) }
            #expect(held == nil, "held by quiet hours: \(String(describing: held))")
            #expect(try await Self.feed(client, token: token).notifications.count == 2)
            #expect(await harness.outbox.messages.filter { $0.subject.contains("Tea") }.isEmpty, "no email while asleep")

            harness.clock.advance(by: 3600 + 47 * 60)  // 19:00
            var released = await second.next()
            while released?.name != "notification", released != nil { released = await second.next() }
            #expect(released?.id == "3" && released?.data.contains("Conflict: Tea") == true, "\(String(describing: released))")
            let later = try await client.signIn("omar@example.com", harness: harness).accessToken  // the first token has expired
            let feed = try await Self.feed(client, token: later)
            #expect(feed.notifications.first?.title == "Conflict: Tea" && feed.notifications.first?.deliveredAt == "2026-09-21T16:00:00Z", "\(feed)")
            try await ConflictAPITests.runJobs(harness)
            let mail = try await harness.outbox.waitForMessage(to: "omar@example.com") { $0.subject == "Conflict: Tea" }
            #expect(mail.textBody.contains("conflicts with") && mail.htmlBody?.contains(#"dir="ltr""#) == true)
            second.close()
        }
    }

    @Test("email goes through a real SMTP server, in Arabic right to left, and only once")
    func arabicEmail() async throws {
        guard let smtp = try await SMTPTestServer.start() else { return }
        defer { smtp.stop() }
        let mailServer = smtp.configuration(security: .none)
        try await ServerHarness.run(configure: { $0.workers = 0 }) { harness, client in
            let (user, token) = try await ChatAPITests.omar(harness, client)
            #expect(try await client.send(.patch, "/api/v1/me", json: #"{"language": "ar"}"#, token: token).status == .ok)
            // No email job of its own: this test sends the one email itself, twice.
            #expect(try await client.send(.put, "/api/v1/notifications/settings", json: #"{"email": []}"#, token: token).status == .ok)
            try await Self.conflictFromPhone(harness, client, user: user, token: token)
            let notice = try #require(try await Self.feed(client, token: token).notifications.first)
            #expect(notice.title.hasPrefix("تعارض") && notice.body.contains("يتعارض مع"), "\(notice.title) \(notice.body)")

            let transport = SMTPClient(configuration: mailServer, logger: TestEnvironment.logger)
            let send = NotificationEmail.handler(
                notifications: Notifications(store: harness.instance.store, clock: harness.clock.clock, random: .system), transport: transport,
                from: MailAddress("jadwal@jadwal.test", name: "Jadwal"), publicURL: "https://jadwal.test")
            let request = NotificationDispatch.ChannelRequest(
                notificationID: try #require(UUID(uuidString: notice.id)), accountID: try #require(UUID(uuidString: user.accountID.uuidString)))
            let job = Job.new(NotificationDispatch.emailJob, payload: String(decoding: try JSONEncoder().encode(request), as: UTF8.self), runAt: Date(), now: Date(), id: UUID())
            try await send(job)
            try await send(job)  // a retried job sends nothing more
        }
        let received = try smtp.received()
        try #require(received.count == 1, "\(received.count) messages")
        let parsed = try ParsedMail.parse(received[0].emlPath)
        #expect(parsed.subject.hasPrefix("تعارض: Call with Sara"), "\(parsed.subject)")
        let html = try #require(parsed.parts.first(where: { $0.content_type == "text/html" })?.content)
        #expect(html.contains(#"dir="rtl""#) && html.contains(#"lang="ar""#) && html.contains("افتح جدول"))
    }

    @Test("pushed to each device as an alert, and as a background push carrying the event; a token APNs refuses is dropped",
          arguments: TestEnvironment.engines)
    func push(engine: TestEngine) async throws {
        let key = P256.Signing.PrivateKey()
        let clock = TestClock()
        // The test APNs server checks the provider token's age against the server's own clock.
        let apns = try await APNsTestServer.start(
            .init(keyID: APNsRig.keyID, teamID: APNsRig.teamID, topic: APNsRig.topic, publicKey: key.publicKey), now: { clock.now })
        let configuration = APNsConfiguration(
            signingKey: key, keyID: APNsRig.keyID, teamID: APNsRig.teamID, topic: APNsRig.topic, endpoint: apns.endpoint,
            additionalTrustRoots: [apns.certificate.certificate], timeout: .seconds(10))
        do {
            try await ServerHarness.run(engine: engine, clock: clock, configure: { $0.workers = 0; $0.apns = configuration }) { harness, client in
                let (user, token) = try await ChatAPITests.omar(harness, client)
                let phone = APNsRig.deviceToken()
                let created = try await client.send(.post, "/api/v1/devices", json: #"{"token": "\#(phone.uppercased())", "name": "iPhone"}"#, token: token)
                #expect(created.status == .created && created.text.contains(#""tokenSuffix":"\#(phone.suffix(8))""#), "\(created.text)")
                let again = try await client.send(.post, "/api/v1/devices", json: #"{"token": "\#(phone)", "name": "Omar's iPhone"}"#, token: token)
                #expect(again.status == .created)
                let devices = try await client.send(.get, "/api/v1/devices", token: token).json(Devices.self).devices
                #expect(devices.map(\.name) == ["Omar's iPhone"], "one device per token")
                for body in [#"{"token": "xyz"}"#, #"{"token": "abcd"}"#, #"{"name": "no token"}"#, #"{"token": "\#(phone)", "name": "a\u0007b"}"#] {
                    #expect(try await client.send(.post, "/api/v1/devices", json: body, token: token).status == .badRequest, "\(body)")
                }

                try await Self.conflictFromPhone(harness, client, user: user, token: token)
                let sent = apns.requests.filter { $0.deviceToken == phone && $0.status == 200 }
                #expect(sent.map { $0.header("apns-push-type") } == ["alert", "background"], "\(sent.map { $0.failedCheck ?? "" })")
                let alert = try #require(sent.first?.aps?["alert"] as? [String: Any])
                #expect(alert["title"] as? String == "Conflict: Call with Sara")
                let event = try #require(sent.last?.jadwal?["event"] as? [String: Any])
                #expect(event["title"] as? String == "Call with Sara" && event["start"] as? String == "2026-11-23T15:30:00Z", "\(event)")
                try await ConflictAPITests.runJobs(harness)
                #expect(apns.requests.filter { $0.deviceToken == phone }.count == 2, "a notification is pushed once")

                // The phone was reset: APNs answers 410 and the token is dropped.
                apns.unregister(phone, at: clock.now)
                try await Self.setUpDevice(client, token: token)
                try await ConflictAPITests.runJobs(harness)
                #expect(apns.requests.last?.status == 410)
                let left = try await client.send(.get, "/api/v1/devices", token: token).json(Devices.self).devices
                #expect(left.isEmpty, "\(left.map(\.name))")
                #expect(try await client.send(.delete, "/api/v1/devices/\(devices[0].id)", token: token).status == .notFound)
            }
        } catch {
            await apns.stop()
            throw error
        }
        await apns.stop()
    }

    struct Devices: Decodable { struct Device: Decodable { let id: String; let name: String }; let devices: [Device] }

    @Test("without APNs no device is taken; settings take only known kinds", arguments: TestEnvironment.engines)
    func devicesAndSettings(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine, configure: { $0.workers = 0 }) { harness, client in
            let (_, token) = try await ChatAPITests.omar(harness, client)
            let refused = try await client.send(.post, "/api/v1/devices", json: #"{"token": "\#(APNsRig.deviceToken())"}"#, token: token)
            #expect(refused.status == .conflict && refused.errorCode == "push_not_configured", "\(refused.text)")

            let defaults = try await client.send(.get, "/api/v1/notifications/settings", token: token)
            #expect(defaults.text.contains(#""email":["event-added","conflict","feed-failed"]"#) && defaults.text.contains(#""quietDuringPrayer":true"#), "\(defaults.text)")
            let changed = try await client.send(.put, "/api/v1/notifications/settings", json: #"{"email": ["reminder"], "quietDuringSleep": false}"#, token: token)
            #expect(changed.status == .ok && changed.text.contains(#""email":["reminder"]"#) && changed.text.contains(#""quietDuringSleep":false"#), "\(changed.text)")
            let unknown = try await client.send(.put, "/api/v1/notifications/settings", json: #"{"push": ["gossip"]}"#, token: token)
            #expect(unknown.status == .badRequest && unknown.text.contains("gossip"), "\(unknown.text)")
        }
    }
}
