import Foundation
import JadwalCore
@testable import JadwalFetch
import JadwalTestSupport
import NIOCore
import NIOPosix
import Testing

/// Jadwal's CalDAV client against real servers on loopback: discovery from a bare host, the
/// calendars with their properties, sync-collection or getctag + ETags, multiget, conditional
/// writes and their 412s, Basic (Radicale, Xandikos) and Digest (SabreDAV), a wrong password,
/// and the fetch rules (a private address refused unless allowed).
@Suite("CalDAV client against real servers")
struct CalDAVClientTests {
    static let servers = CalDAVServers(fetcher: FeedFetcher(policy: FetchPolicy(allowPrivate: true)))

    static func event(_ uid: String, _ summary: String, day: Int = 22) -> String {
        [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Jadwal tests//EN", "BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20260901T000000Z",
            "SUMMARY:\(summary)", "DTSTART:202609\(day)T090000Z", "DTEND:202609\(day)T100000Z", "END:VEVENT", "END:VCALENDAR", "",
        ].joined(separator: "\r\n")
    }

    /// The ETag listed for `url`, whichever way the server percent-encodes its path (`%40` for `@`).
    static func etag(_ listed: [String: String], _ url: String) -> String? {
        listed.first { $0.key.removingPercentEncoding == url.removingPercentEncoding }?.value
    }

    @Test("RFC 7616 §3.9.1: the Digest response for MD5 and SHA-256")
    func digestVectors() {
        for (algorithm, expected) in [("MD5", "8ca523f5e9506fed4657c9700eebdbec"), ("SHA-256", "753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1")] {
            let challenges = AuthenticationChallenge.parse([
                #"Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=\#(algorithm), nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS""#,
                #"Basic realm="x""#,
            ])
            #expect(challenges.map(\.scheme) == ["Digest", "Basic"], "\(challenges)")
            guard var session = challenges.first.flatMap(DigestSession.init) else {
                Issue.record("the challenge was not read: \(challenges)")
                continue
            }
            let header = session.authorization(method: "GET", uri: "/dir/index.html", username: "Mufasa", password: "Circle of Life",
                                               cnonce: "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ")
            #expect(header.contains(#"response="\#(expected)""#) && header.contains("nc=00000001") && header.contains("qop=auth"), "\(header)")
        }
        // Both offered in one header: SHA-256 is chosen.
        let both = AuthenticationChallenge.parse([#"Digest realm="r", nonce="n", algorithm=MD5, qop="auth", Digest realm="r", nonce="n", algorithm=SHA-256, qop="auth""#])
        guard case .digest(let chosen)? = HTTPAuthentication.choose(from: both) else {
            Issue.record("no digest chosen from \(both)")
            return
        }
        #expect(chosen.algorithm == .sha256)
    }

    @Test("discovery from the bare host, sync or getctag, multiget, If-Match and If-None-Match with their 412s", arguments: RemoteCalDAVServer.kinds)
    func againstServer(kind: String) async throws {
        guard let python = RemoteCalDAVServer.python else { return }
        try await RemoteCalDAVServer.run(kind, python: python) { remote in
            let calendarURL = try await remote.calendarURL()
            let first = try await remote.client("put", calendarURL + "first.ics", body: Self.event("first@remote", "Planning"))
            let connection = Self.servers.connection(RemoteCredentials(username: remote.username, password: remote.password))

            // From the bare host, as a person would type it.
            let found = try await connection.discover(remote.baseURL)
            let calendar = try #require(found.calendars.first { $0.url.removingPercentEncoding == calendarURL }, "\(found)")
            #expect(calendar.ctag != nil || calendar.syncToken != nil, "\(calendar)")
            #expect(calendar.supportsSync == (kind != "sabredav"), "SabreDAV 1.8 predates sync-collection: \(calendar)")
            if kind == "sabredav" { #expect(calendar.displayName == "Work" && calendar.color == "#3366CC", "\(calendar)") }
            if kind == "radicale" { #expect(calendar.displayName == "Remote work" && calendar.color == "#FF8800", "\(calendar)") }

            // What is there: by sync-collection where the server has it, else by ETag listing.
            var listed: [String: String]
            if calendar.supportsSync {
                guard case .changes(let changed, let removed, let token, _) = try await connection.changes(calendar: calendarURL, since: nil) else {
                    Issue.record("no changes answer")
                    return
                }
                listed = changed
                #expect(removed.isEmpty && !token.isEmpty)
                let second = try await remote.client("put", calendarURL + "second.ics", body: Self.event("second@remote", "Review"))
                _ = try await remote.client("delete", calendarURL + "first.ics")
                guard case .changes(let changedAfter, let removedAfter, _, _) = try await connection.changes(calendar: calendarURL, since: token) else {
                    Issue.record("no changes answer after the token")
                    return
                }
                #expect(changedAfter.keys.map { $0.hasSuffix("second.ics") } == [true] && removedAfter.count == 1 && removedAfter[0].hasSuffix("first.ics"),
                        "\(changedAfter) \(removedAfter)")
                #expect(changedAfter.values.first == second.etag || second.etag.isEmpty)
                listed = try await connection.etags(calendar: calendarURL)
            } else {
                let before = try await connection.ctag(calendar: calendarURL)
                listed = try await connection.etags(calendar: calendarURL)
                _ = try await remote.client("put", calendarURL + "second.ics", body: Self.event("second@remote", "Review"))
                _ = try await remote.client("delete", calendarURL + "first.ics")
                #expect(try await connection.ctag(calendar: calendarURL) != before)
                listed = try await connection.etags(calendar: calendarURL)
            }
            #expect(listed.keys.map { $0.hasSuffix("second.ics") } == [true], "\(listed)")
            _ = first

            let objects = try await connection.objects(calendar: calendarURL, urls: Array(listed.keys))
            #expect(objects.count == 1 && objects[0].icalendar.contains("SUMMARY:Review") && objects[0].etag == listed[objects[0].url], "\(objects)")

            // A new object with If-None-Match: *; written again with its ETag; a stale ETag is a 412.
            let mine = calendarURL + "from-jadwal.ics"
            guard case .done(let created) = try await connection.put(mine, icalendar: Self.event("from-jadwal", "Lunch"), ifMatch: nil) else {
                Issue.record("the new object was not written")
                return
            }
            #expect(try await connection.put(mine, icalendar: Self.event("from-jadwal", "Lunch"), ifMatch: nil) == .preconditionFailed)
            let current = Self.etag(try await connection.etags(calendar: calendarURL), mine)
            #expect(created == nil || created == current, "the PUT's ETag is the listed one")
            let etag = try #require(current)
            // Another client changes it first: Jadwal's write with the old ETag fails.
            _ = try await remote.client("put", mine, ifMatch: etag, body: Self.event("from-jadwal", "Lunch moved by phone"))
            #expect(try await connection.put(mine, icalendar: Self.event("from-jadwal", "Lunch from Jadwal"), ifMatch: etag) == .preconditionFailed)
            #expect(try await connection.delete(mine, ifMatch: etag) == .preconditionFailed)
            let fresh = try #require(Self.etag(try await connection.etags(calendar: calendarURL), mine))
            #expect(try await connection.delete(mine, ifMatch: fresh) == .done(etag: nil))
            #expect(try await connection.delete(mine, ifMatch: nil) == .notFound)

            // A wrong password is refused in words (Xandikos here has no authentication at all).
            if kind != "xandikos" {
                let wrong = Self.servers.connection(RemoteCredentials(username: remote.username, password: "not-the-password"))
                do {
                    _ = try await wrong.discover(remote.baseURL)
                    Issue.record("a wrong password was accepted")
                } catch let error as FeedFetchFailure {
                    #expect(error.kind == .unauthorized && error.message.contains("refused the user name or password"), "\(error)")
                }
            }

            // Without the operator's permission, loopback is not reached at all.
            let closed = CalDAVServers(fetcher: FeedFetcher(policy: FetchPolicy())).connection(RemoteCredentials(username: remote.username, password: remote.password))
            do {
                _ = try await closed.discover(remote.baseURL)
                Issue.record("a loopback address was fetched without --allow-private-fetch")
            } catch let error as FeedFetchFailure {
                #expect(error.kind == .refused && error.message.contains("--allow-private-fetch"), "\(error)")
            }
        }
    }

    /// A loopback port nothing listens on: bound by a server that is then closed.
    static func closedPort() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(channel.localAddress?.port)
        try await channel.close()
        return port
    }

    @Test("an unreachable host is named")
    func unreachable() async throws {
        let connection = Self.servers.connection(RemoteCredentials(username: "a", password: "b"))
        let port = try await Self.closedPort()
        do {
            _ = try await connection.discover("http://127.0.0.1:\(port)/")
            Issue.record("an unreachable server was discovered")
        } catch let error as FeedFetchFailure {
            #expect(error.kind == .network && error.message.contains("could not be reached"), "\(error)")
        }
    }
}
