import Foundation
import HTTPTypes
import HummingbirdTesting
import JadwalCore
@testable import JadwalServer
@testable import JadwalAPI
import JadwalTestSupport
import Testing

/// Other CalDAV servers connected as accounts, each a real server on loopback (Radicale and
/// Xandikos with Basic, SabreDAV with Digest): connect, mirror, edits on each side reaching the
/// other, a concurrent remote edit taking the 412 path with a notification, a wrong password
/// and an unreachable server named, disconnecting.
@Suite("Connected CalDAV accounts")
struct CalDAVAccountTests {
    struct Account: Decodable {
        struct Remote: Decodable {
            struct Calendar: Decodable { let id: String; let slug: String; let name: String }
            let url: String
            let name: String?
            let supportsSync: Bool
            let mirrored: Bool
            let calendar: Calendar?
        }
        struct Status: Decodable { let state: String; let lastError: String?; let failures: Int }
        let id: String
        let kind: String
        let remoteCalendars: [Remote]
        let status: Status
    }

    static func event(_ uid: String, _ summary: String, hour: Int = 9) -> String {
        [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Jadwal tests//EN", "BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20260901T000000Z",
            "SUMMARY:\(summary)", "DTSTART:20260923T\(String(format: "%02d", hour))0000Z", "DTEND:20260923T\(String(format: "%02d", hour + 1))0000Z",
            "END:VEVENT", "END:VCALENDAR", "",
        ].joined(separator: "\r\n")
    }

    static func connect(_ client: some TestClientProtocol, _ remote: RemoteCalDAVServer, password: String? = nil, url: String? = nil, mirror: [String]?, token: String)
        async throws -> TestResponse
    {
        let mirrored = mirror.map { ", \"mirror\": [" + $0.map { "\"\($0)\"" }.joined(separator: ", ") + "]" } ?? ""
        return try await client.send(
            .post, "/api/v1/external-calendars",
            json: #"{"kind": "caldav", "url": "\#(url ?? remote.baseURL)", "username": "\#(remote.username)", "password": "\#(password ?? remote.password)"\#(mirrored)}"#,
            token: token)
    }

    static func status(_ client: some TestClientProtocol, _ id: String, token: String) async throws -> Account {
        let response = try await client.send(.get, "/api/v1/external-calendars/\(id)", token: token)
        try #require(response.status == .ok, "\(response.text)")
        return try response.json(Account.self)
    }

    static func sync(_ harness: ServerHarness, _ client: some TestClientProtocol, _ id: String, token: String) async throws {
        let asked = try await client.send(.post, "/api/v1/external-calendars/\(id)/refresh", token: token)
        try #require(asked.status == .accepted, "\(asked.text)")
        try await ConflictAPITests.runJobs(harness)
    }

    @Test("connect, mirror, edit on each side, a concurrent remote edit is a 412 the person hears of, wrong password, unreachable, disconnect",
          arguments: RemoteCalDAVServer.kinds)
    func twoWay(kind: String) async throws {
        guard let python = RemoteCalDAVServer.python else { return }
        try await ServerHarness.run(configure: { $0.workers = 0; $0.allowPrivateFetch = true }) { harness, client in
            let (user, token) = try await ChatAPITests.omar(harness, client)
            let (id, local) = try await RemoteCalDAVServer.run(kind, python: python) { remote -> (String, String) in
                let calendarURL = try await remote.calendarURL()
                try await remote.client("put", calendarURL + "standup.ics", body: Self.event("standup@remote", "Standup"))

                if kind != "xandikos" {
                    let wrong = try await Self.connect(client, remote, password: "not-the-password", mirror: nil, token: token)
                    #expect(wrong.status == .unprocessableContent && wrong.errorCode == "remote_refused_credentials"
                        && wrong.text.contains("refused the user name or password"), "\(wrong.text)")
                }
                let unknown = try await Self.connect(client, remote, mirror: [calendarURL + "nope/"], token: token)
                #expect(unknown.status == .badRequest && unknown.text.contains("mirror"), "\(unknown.text)")

                // Connected from the bare host; only the chosen calendar is mirrored; no password in the answer.
                let created = try await Self.connect(client, remote, mirror: [calendarURL], token: token)
                #expect(created.status == .created, "\(created.text)")
                #expect(!created.text.contains(remote.password), "the password never leaves the server")
                let account = try created.json(Account.self)
                #expect(account.kind == "caldav" && account.status.state == "pending")
                let mirrored = try #require(account.remoteCalendars.first { $0.url.removingPercentEncoding == calendarURL }, "\(account.remoteCalendars)")
                #expect(mirrored.mirrored && mirrored.supportsSync == (kind != "sabredav"))
                #expect(account.remoteCalendars.filter(\.mirrored).count == 1)
                let local = user.calendar(try #require(mirrored.calendar?.slug))

                // Remote → Jadwal: the event is in the mirrored calendar and the person's week.
                try await ConflictAPITests.runJobs(harness)
                #expect(try await Self.status(client, account.id, token: token).status.state == "ok")
                let first = try ParsedMultistatus(try await client.dav(.report, local, as: user, body: CalDAVSyncTests.sync(nil)))
                #expect(first.hrefs.map { $0.hasSuffix("standup.ics") } == [true], "\(first.hrefs)")
                let token1 = try #require(first.syncToken)
                let week = try await client.send(.get, "/api/v1/events?start=2026-09-21&end=2026-09-28", token: token).text
                #expect(week.contains("Standup"), "\(week)")

                // Nothing changed there: nothing is written here (the phone's sync token stays).
                try await Self.sync(harness, client, account.id, token: token)
                let quiet = try ParsedMultistatus(try await client.dav(.report, local, as: user, body: CalDAVSyncTests.sync(token1)))
                #expect(quiet.entries.isEmpty && quiet.syncToken == token1, "\(quiet.hrefs)")

                // Edited there: exactly that object changes here.
                let standupETag = try await remote.client("get", calendarURL + "standup.ics").etag
                try await remote.client("put", calendarURL + "standup.ics", ifMatch: standupETag.isEmpty ? nil : standupETag,
                                        body: Self.event("standup@remote", "Standup (moved room)"))
                try await remote.client("put", calendarURL + "review.ics", body: Self.event("review@remote", "Review", hour: 13))
                try await Self.sync(harness, client, account.id, token: token)
                let changed = try ParsedMultistatus(try await client.dav(.report, local, as: user, body: CalDAVSyncTests.sync(token1)))
                #expect(Set(changed.hrefs.compactMap { $0.split(separator: "/").last.map(String.init) }) == ["standup.ics", "review.ics"], "\(changed.hrefs)")
                #expect(try await client.dav(.get, local + "standup.ics", as: user).text.contains("Standup (moved room)"))

                // Jadwal → remote: a phone's PUT of a new event and of an edit, then a DELETE.
                #expect(try await client.putICS(local + "lunch.ics", as: user, Self.event("lunch@jadwal", "Lunch with Sara", hour: 11)).status == .created)
                #expect(try await client.putICS(local + "review.ics", as: user, Self.event("review@remote", "Review (from Jadwal)", hour: 14)).status == .noContent)
                try await ConflictAPITests.runJobs(harness)
                #expect(try await remote.client("get", calendarURL + "lunch.ics").body.contains("Lunch with Sara"))
                #expect(try await remote.client("get", calendarURL + "review.ics").body.contains("Review (from Jadwal)"))
                // The next sync brings nothing back: the write-backs' ETags were recorded.
                let beforeEcho = try #require(try ParsedMultistatus(try await client.dav(.report, local, as: user, body: CalDAVSyncTests.sync(nil))).syncToken)
                try await Self.sync(harness, client, account.id, token: token)
                let echo = try ParsedMultistatus(try await client.dav(.report, local, as: user, body: CalDAVSyncTests.sync(beforeEcho)))
                #expect(echo.entries.isEmpty, "\(echo.hrefs)")

                #expect(try await client.dav(.delete, local + "lunch.ics", as: user).status == .noContent)
                try await ConflictAPITests.runJobs(harness)
                await #expect(throws: (any Error).self) { try await remote.client("get", calendarURL + "lunch.ics") }

                // Both change the standup; the remote's change lands first: Jadwal's gets a 412,
                // the remote version is kept here, and the person is told what was not applied.
                let current = try await remote.client("get", calendarURL + "standup.ics").etag
                try await remote.client("put", calendarURL + "standup.ics", ifMatch: current.isEmpty ? nil : current,
                                        body: Self.event("standup@remote", "Standup (cancelled by manager)"))
                #expect(try await client.putICS(local + "standup.ics", as: user, Self.event("standup@remote", "Standup at 10", hour: 10)).status == .noContent)
                try await ConflictAPITests.runJobs(harness)
                #expect(try await remote.client("get", calendarURL + "standup.ics").body.contains("Standup (cancelled by manager)"))
                #expect(try await client.dav(.get, local + "standup.ics", as: user).text.contains("Standup (cancelled by manager)"))
                let notifications = try await client.send(.get, "/api/v1/notifications", token: token).text
                #expect(notifications.contains("remote-change-rejected") && notifications.contains("Standup at 10"), "\(notifications)")
                return (account.id, local)
            }

            // The server is gone: the next sync fails and says why on the account's status.
            try await Self.sync(harness, client, id, token: token)
            let failing = try await Self.status(client, id, token: token)
            #expect(failing.status.state == "failing" && failing.status.lastError?.contains("could not be reached") == true, "\(failing.status)")

            // Disconnecting removes the mirrored calendar and the account.
            #expect(try await client.send(.delete, "/api/v1/external-calendars/\(id)", token: token).status == .noContent)
            #expect(try await client.send(.get, "/api/v1/external-calendars/\(id)", token: token).status == .notFound)
            #expect(try await client.dav(.propfind, local, as: user, depth: "0").status == .notFound)
        }
    }

    @Test("conflicts resolved by move and by cancel reach the remote; a sync finding both sides changed keeps the remote's and says so; a write-back out of attempts says so",
          arguments: RemoteCalDAVServer.kinds)
    func resolvedAndLost(kind: String) async throws {
        guard let python = RemoteCalDAVServer.python else { return }
        try await ServerHarness.run(configure: { $0.workers = 0; $0.allowPrivateFetch = true }) { harness, client in
            let (user, token) = try await ChatAPITests.omar(harness, client)
            let local = try await RemoteCalDAVServer.run(kind, python: python) { remote -> String in
                let calendarURL = try await remote.calendarURL()
                try await remote.client("put", calendarURL + "lecture.ics", body: Self.event("lecture@remote", "Lecture", hour: 9))
                let created = try await Self.connect(client, remote, mirror: [calendarURL], token: token)
                try #require(created.status == .created, "\(created.text)")
                let account = try created.json(Account.self)
                let local = user.calendar(try #require(account.remoteCalendars.first { $0.mirrored }?.calendar?.slug))
                try await ConflictAPITests.runJobs(harness)

                // A review put on top of the lecture is a conflict; moved by resolving it, the move reaches the remote.
                #expect(try await client.putICS(local + "review.ics", as: user, Self.event("review@jadwal", "Review", hour: 9)).status == .created)
                try await ConflictAPITests.runJobs(harness)
                let review = try #require(try await ConflictAPITests.conflicts(client, token: token).first { $0.event.name == "review.ics" })
                let moved = try await ConflictAPITests.resolve(
                    client, review.id, #"{"action": "move", "start": "2026-09-23T14:00:00Z", "end": "2026-09-23T15:00:00Z"}"#, token: token)
                #expect(moved.status == .ok, "\(moved.text)")
                try await ConflictAPITests.runJobs(harness)
                let remoteReview = try await remote.client("get", calendarURL + "review.ics").body
                #expect(remoteReview.contains("DTSTART:20260923T140000Z") && remoteReview.contains("Review"), "\(remoteReview)")

                // Cancelled by resolving it: gone there too.
                #expect(try await client.putICS(local + "planning.ics", as: user, Self.event("planning@jadwal", "Planning", hour: 9)).status == .created)
                try await ConflictAPITests.runJobs(harness)
                #expect(try await remote.client("get", calendarURL + "planning.ics").body.contains("Planning"))
                let planning = try #require(try await ConflictAPITests.conflicts(client, token: token).first { $0.event.name == "planning.ics" })
                #expect(try await ConflictAPITests.resolve(client, planning.id, #"{"action": "cancel"}"#, token: token).status == .ok)
                try await ConflictAPITests.runJobs(harness)
                await #expect(throws: (any Error).self) { try await remote.client("get", calendarURL + "planning.ics") }

                // Both sides change the lecture before the write-back runs (a sync was already due):
                // the remote's version wins, and the person is told which change of theirs was not applied.
                #expect(try await client.send(.post, "/api/v1/external-calendars/\(account.id)/refresh", token: token).status == .accepted)
                harness.clock.advance(by: 1)
                #expect(try await client.putICS(local + "lecture.ics", as: user, Self.event("lecture@remote", "Lecture in room 5", hour: 9)).status == .noContent)
                let etag = try await remote.client("get", calendarURL + "lecture.ics").etag
                try await remote.client("put", calendarURL + "lecture.ics", ifMatch: etag.isEmpty ? nil : etag, body: Self.event("lecture@remote", "Lecture moved online", hour: 9))
                try #require(try await harness.instance.workers.runNextJob(worker: "test"), "the sync, due first")
                #expect(try await client.dav(.get, local + "lecture.ics", as: user).text.contains("Lecture moved online"))
                let told = try await client.send(.get, "/api/v1/notifications", token: token).text
                #expect(told.contains("Your change to Lecture in room 5 was not applied"), "\(told)")
                try await ConflictAPITests.runJobs(harness)
                #expect(try await remote.client("get", calendarURL + "lecture.ics").body.contains("Lecture moved online"), "the stale write-back sends nothing")
                return local
            }

            // The server is gone: a change here is retried, and when the retries run out the person hears of it.
            #expect(try await client.putICS(local + "retro.ics", as: user, Self.event("retro@jadwal", "Retro", hour: 16)).status == .created)
            for _ in 0..<10 {
                try await ConflictAPITests.runJobs(harness)
                harness.clock.advance(by: 2 * 86_400)
            }
            // Days later the session has expired: a new one reads the notifications.
            let fresh = try await client.signIn("omar@example.com", harness: harness).accessToken
            let notifications = try await client.send(.get, "/api/v1/notifications", token: fresh).text
            #expect(notifications.contains("Retro could not be sent to the other server"), "\(notifications)")
            #expect(notifications.components(separatedBy: "could not be sent").count == 2, "told once: \(notifications)")
        }
    }

    @Test("an unreachable server is refused when connecting, in words")
    func unreachable() async throws {
        try await ServerHarness.run(configure: { $0.workers = 0; $0.allowPrivateFetch = true }) { harness, client in
            let (_, token) = try await ChatAPITests.omar(harness, client)
            let port = try await CalDAVClientTests.closedPort()
            let response = try await client.send(
                .post, "/api/v1/external-calendars", json: #"{"kind": "caldav", "url": "http://127.0.0.1:\#(port)/", "username": "a", "password": "b"}"#, token: token)
            #expect(response.status == .unprocessableContent && response.errorCode == "remote_unreachable" && response.text.contains("could not be reached"),
                    "\(response.text)")
            let missing = try await client.send(.post, "/api/v1/external-calendars", json: #"{"kind": "caldav", "url": "http://127.0.0.1:\#(port)/"}"#, token: token)
            #expect(missing.status == .badRequest && missing.text.contains("password"), "\(missing.text)")
        }
    }
}
