import Foundation
import HTTPTypes
import HummingbirdTesting
import JadwalCore
@testable import JadwalServer
@testable import JadwalHTTP
import JadwalTestSupport
import Storage
import Testing

/// The notification stream hears every post and change at once — from this instance and from
/// the others on the same PostgreSQL — and never later than its keep-alive for what only a read
/// finds (issue 22: several instances, live delivery within a second).
@Suite("Live streams: every post wakes them, across instances; the keep-alive read is never put off")
struct LiveStreamTests {
    static let quiet = #"{"quietDuringSleep": false, "quietDuringPrayer": false}"#

    /// The next event named `name`, skipping keep-alive comments and other events.
    static func next(_ name: String, from reader: EventStreamReader, within timeout: Duration) async -> EventStreamReader.Event? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            guard let event = await reader.next(timeout: deadline - ContinuousClock.now) else { return nil }
            if event.name == name { return event }
        }
        return nil
    }

    @Test("a share invitation reaches the invitee's open stream at once, not at the keep-alive")
    func shareWakesStream() async throws {
        try await ServerHarness.run(configure: { $0.streamKeepAlive = .seconds(60) }) { harness, client in
            let port = try #require(client.port)
            let owner = try await client.signIn("owner@example.com", harness: harness).accessToken
            let invitee = try await client.signIn("invitee@example.com", harness: harness).accessToken
            #expect(try await client.send(.put, "/api/v1/notifications/settings", json: Self.quiet, token: invitee).status == .ok)
            let stream = try await EventStreamReader.open(port: port, token: invitee)
            defer { stream.close() }
            #expect(await Self.next("ready", from: stream, within: .seconds(10)) != nil)
            let calendarID = try await CalDAVSharingTests.personalID(client, token: owner)
            let shared = try await client.send(.post, "/api/v1/calendars/\(calendarID)/shares", json: #"{"email": "invitee@example.com"}"#, token: owner)
            #expect(shared.status == .created, "\(shared.text)")
            let event = await Self.next("notification", from: stream, within: .seconds(10))
            #expect(event != nil, "the invitation's notification came within 10 s on a stream whose keep-alive is 60 s")
        }
    }

    @Test("a notification and a calendar change committed on another instance reach a stream held here within seconds")
    func acrossInstances() async throws {
        guard TestEnvironment.postgresURL != nil else { return }
        // One signing key for both, as instances behind one proxy have (docs/deploy.md): people
        // sign in here and their tokens work there too.
        let key = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        try await ServerHarness.run(engine: .postgres, configure: { $0.streamKeepAlive = .seconds(60); $0.secretKey = key }) { here, hereClient in
            let database = try #require(here.instance.configuration.databaseURL)
            let port = try #require(hereClient.port)
            let invitee = try await DAVUser.make("far@example.com", harness: here, client: hereClient)
            let inviteeToken = try await hereClient.signIn("far@example.com", harness: here).accessToken
            let owner = try await hereClient.signIn("near@example.com", harness: here).accessToken
            #expect(try await hereClient.send(.put, "/api/v1/notifications/settings", json: Self.quiet, token: inviteeToken).status == .ok)
            let stream = try await EventStreamReader.open(port: port, token: inviteeToken)
            defer { stream.close() }
            #expect(await Self.next("ready", from: stream, within: .seconds(10)) != nil)

            try await ServerHarness.run(engine: .postgres, configure: { $0.databaseURL = database; $0.workers = 0; $0.secretKey = key }) { _, thereClient in
                // The invitee's own calendar changed on the other instance: the page here refreshes.
                #expect(try await thereClient.putICS(invitee.calendar("personal") + "x.ics", as: invitee, ICS.event(uid: "x")).status == .created)
                #expect(await Self.next("calendar", from: stream, within: .seconds(10)) != nil, "a write there reaches the calendar page here")

                // A notification posted there.
                let calendarID = try await CalDAVSharingTests.personalID(thereClient, token: owner)
                let shared = try await thereClient.send(.post, "/api/v1/calendars/\(calendarID)/shares", json: #"{"email": "far@example.com"}"#, token: owner)
                #expect(shared.status == .created, "\(shared.text)")
                #expect(await Self.next("notification", from: stream, within: .seconds(10)) != nil, "a post there reaches the stream here")
            }
        }
    }

    @Test("calendar changes more often than the keep-alive do not put off its read: a revoked session still ends the stream")
    func keepAliveNotStarved() async throws {
        try await ServerHarness.run(configure: { $0.streamKeepAlive = .seconds(1) }) { harness, client in
            let port = try #require(client.port)
            let user = try await DAVUser.make("busy-writer@example.com", harness: harness, client: client)
            let tokens = try await client.signIn(user.email, harness: harness)
            let stream = try await EventStreamReader.open(port: port, token: tokens.accessToken)
            defer { stream.close() }
            #expect(await Self.next("ready", from: stream, within: .seconds(10)) != nil)
            // Revoked in the database only: no wake, so only the stream's own read can notice.
            let sessions = try await harness.instance.store.read { tx in try await tx.activeSessions(accountID: user.accountID, at: Date.distantPast) }
            try await harness.instance.store.transaction { tx in
                for session in sessions { try await tx.revokeSession(id: session.id, at: harness.clock.clock.now, reason: "test") }
            }
            // Writes every 300 ms for up to 6 s: each tells the stream of a calendar change.
            let writing = Task {
                for index in 0..<20 {
                    _ = try? await client.putICS(user.calendar("personal") + "w\(index).ics", as: user, ICS.event(uid: "w\(index)"))
                    try await Task.sleep(for: .milliseconds(300))
                }
            }
            defer { writing.cancel() }
            #expect(await Self.next("signed-out", from: stream, within: .seconds(6)) != nil,
                    "the session check came within the writes, not after them")
        }
    }
}
