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

@Suite("CalDAV discovery and authentication")
struct CalDAVDiscoveryTests {
    @Test("well-known redirect, OPTIONS, principal, home and the default calendars", arguments: TestEnvironment.engines)
    func discovery(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let user = try await DAVUser.make("Discover@Example.com", harness: harness, client: client)

            let wellKnown = try await client.dav(.get, "/.well-known/caldav", as: nil)
            #expect(wellKnown.status == .movedPermanently && wellKnown.headers[.location] == "/dav/")

            let options = try await client.dav(.options, "/dav/", as: nil)
            #expect(options.status == .ok)
            #expect(options.headers[HTTPField.Name("DAV")!]?.contains("calendar-access") == true)
            #expect(options.headers[.allow]?.contains("MKCALENDAR") == true)

            // From a bare server URL: "/" answers PROPFIND with the principal.
            let root = try ParsedMultistatus(try await client.propfind("/", as: user, ["d:current-user-principal"]))
            #expect(root.entries.first?.hrefs(.currentUserPrincipal) == [user.principal])

            let principal = try ParsedMultistatus(try await client.propfind(user.principal, as: user, [
                "c:calendar-home-set", "c:calendar-user-address-set", "d:principal-URL", "d:displayname", "d:resourcetype",
                "cs:email-address-set", "c:schedule-inbox-URL",
            ]))
            let me = try #require(principal[user.principal])
            #expect(me.hrefs(.calendarHomeSet) == [user.home])
            #expect(me.hrefs(.calendarUserAddressSet).contains("mailto:discover@example.com"))
            #expect(me.hrefs(.principalURL) == [user.principal])
            #expect(me.value(.resourceType)?.contains(.principal) == true)
            #expect(me.hrefs(.scheduleInboxURL) == [user.principal + "inbox/"], "RFC 6638: CalDAVSchedulingTests covers the rest")

            let home = try ParsedMultistatus(try await client.propfind(user.home, as: user, depth: "1", [
                "d:resourcetype", "d:displayname", "c:supported-calendar-component-set", "cs:getctag", "d:sync-token",
                "d:current-user-privilege-set", "ical:calendar-color", "c:calendar-timezone", "d:quota-used-bytes",
            ]))
            #expect(home.hrefs == [user.home, user.calendar("personal"), user.calendar("whatsapp-events"), user.calendar("tasks")])
            let personal = try #require(home[user.calendar("personal")])
            #expect(personal.text(.displayName) == "Personal")
            #expect(personal.value(.resourceType)?.contains(.calendar) == true)
            #expect(personal.value(.supportedCalendarComponentSet)?.elements.compactMap { $0.attribute("name") } == ["VEVENT"])
            #expect(personal.text(.getCTag)?.hasPrefix(SyncToken.prefix) == true && personal.text(.getCTag) == personal.text(.syncToken))
            #expect(personal.value(.currentUserPrivilegeSet)?.elements.compactMap { $0.elements.first?.name }.contains(.dav("write")) == true)
            #expect(personal.text(.calendarTimezone)?.contains("TZID:") == true)
            let tasks = try #require(home[user.calendar("tasks")])
            #expect(tasks.value(.supportedCalendarComponentSet)?.elements.compactMap { $0.attribute("name") } == ["VTODO"])
            #expect(home[user.home]?.text(.quotaUsedBytes) == "0")

            // Principal search finds the requester only, and nobody else.
            func search(_ text: String) async throws -> [String] {
                try ParsedMultistatus(try await client.dav(.report, "/dav/principals/", as: user, body: """
                    <d:principal-property-search xmlns:d="DAV:" test="anyof"><d:property-search><d:prop><d:displayname/></d:prop>
                    <d:match>\(text)</d:match></d:property-search><d:prop><d:displayname/></d:prop></d:principal-property-search>
                    """, depth: "0")).hrefs
            }
            #expect(try await search("DISCOVER") == [user.principal])
            #expect(try await search("someone-else") == [])

            // Prefer: return=minimal drops the 404 propstats, as iOS asks.
            let minimal = try await client.dav(
                .propfind, user.home, as: user,
                body: #"<d:propfind xmlns:d="DAV:"><d:prop><d:displayname/><d:x-unknown/></d:prop></d:propfind>"#, depth: "0",
                headers: [HTTPField.Name("Prefer")!: "return=minimal"])
            // The status line, not "404" anywhere: account ids in the hrefs are random hex and can hold "404".
            #expect(!minimal.text.contains("HTTP/1.1 404") && minimal.text.contains("displayname"))

            // An empty PROPFIND body is allprop.
            let all = try ParsedMultistatus(try await client.dav(.propfind, user.calendar("personal"), as: user, depth: "0"))
            #expect(all.entries.first?.text(.displayName) == "Personal")
        }
    }

    @Test("Basic with the email (also URL-encoded) and an app password, or a Bearer token; everything else is 401")
    func authentication() async throws {
        try await ServerHarness.run { harness, client in
            let user = try await DAVUser.make("auth@example.com", harness: harness, client: client)
            let body = #"<d:propfind xmlns:d="DAV:"><d:prop><d:current-user-principal/></d:prop></d:propfind>"#

            let anonymous = try await client.dav(.propfind, "/dav/", as: nil, body: body, depth: "0")
            #expect(anonymous.status == .unauthorized)
            #expect(anonymous.headers[.wwwAuthenticate]?.hasPrefix("Basic realm=") == true)

            func basic(_ username: String, _ password: String) -> HTTPFields {
                [.authorization: "Basic " + Data("\(username):\(password)".utf8).base64EncodedString()]
            }
            #expect(try await client.dav(.propfind, "/dav/", as: nil, body: body, depth: "0", headers: basic(user.email, user.password)).status.code == 207)
            #expect(try await client.dav(.propfind, "/dav/", as: nil, body: body, depth: "0", headers: basic("auth%40example.com", user.password)).status.code == 207)
            #expect(try await client.dav(.propfind, "/dav/", as: nil, body: body, depth: "0", headers: basic("AUTH@example.com", user.password)).status.code == 207)
            #expect(try await client.dav(.propfind, "/dav/", as: nil, body: body, depth: "0", headers: basic(user.email, "wrong-password")).status == .unauthorized)
            #expect(try await client.dav(.propfind, "/dav/", as: nil, body: body, depth: "0", headers: basic("nobody@example.com", user.password)).status == .unauthorized)
            #expect(try await client.dav(.propfind, "/dav/", as: nil, body: body, depth: "0", headers: [.authorization: "Basic %%%"]).status == .unauthorized)

            let tokens = try await client.signIn("auth@example.com", harness: harness)
            let bearer = try await client.dav(.propfind, "/dav/", as: nil, body: body, depth: "0", headers: [.authorization: "Bearer \(tokens.accessToken)"])
            #expect(bearer.status.code == 207)
            #expect(try await client.dav(.propfind, "/dav/", as: nil, body: body, depth: "0", headers: [.authorization: "Bearer nonsense"]).status == .unauthorized)
        }
    }

    @Test("a user sees only their own principal and calendars: other paths are 404")
    func isolation() async throws {
        try await ServerHarness.run { harness, client in
            let alice = try await DAVUser.make("alice@example.com", harness: harness, client: client)
            let bob = try await DAVUser.make("bob@example.com", harness: harness, client: client)
            #expect(try await client.putICS(bob.calendar("personal") + "secret.ics", as: bob, ICS.event(uid: "secret")).status == .created)

            for path in [bob.principal, bob.home, bob.calendar("personal"), bob.calendar("personal") + "secret.ics"] {
                #expect(try await client.propfind(path, as: alice, ["d:displayname"]).status == .notFound, "\(path)")
                #expect(try await client.dav(.get, path, as: alice).status == .notFound, "\(path)")
            }
            #expect(try await client.dav(.delete, bob.calendar("personal") + "secret.ics", as: alice).status == .notFound)
            #expect(try await client.putICS(bob.calendar("personal") + "x.ics", as: alice, ICS.event(uid: "x")).status == .notFound)
            #expect(try await client.dav(.mkcalendar, bob.calendar("mine"), as: alice).status == .notFound)
            #expect(try await client.propfind("/dav/calendars/not-a-uuid/", as: alice, ["d:displayname"]).status == .notFound)
            #expect(try await client.dav(.get, bob.calendar("personal") + "secret.ics", as: bob).status == .ok, "still there for its owner")
        }
    }

    @Test("Depth: infinity is refused with propfind-finite-depth; bad bodies are 400 with a reason")
    func badInput() async throws {
        try await ServerHarness.run { harness, client in
            let user = try await DAVUser.make("bad@example.com", harness: harness, client: client)
            let infinite = try await client.dav(.propfind, user.home, as: user, depth: "infinity")
            #expect(infinite.status == .forbidden && infinite.davCondition == .propfindFiniteDepth)
            let noDepth = try await client.dav(.propfind, user.home, as: user)
            #expect(noDepth.status == .forbidden, "PROPFIND without Depth means infinity")

            let malformed = try await client.dav(.propfind, user.home, as: user, body: "<d:propfind xmlns:d=\"DAV:\"><d:prop>", depth: "0")
            #expect(malformed.status == .badRequest)
            let entity = """
                <?xml version="1.0"?><!DOCTYPE lol [<!ENTITY lol "lol">]><d:propfind xmlns:d="DAV:"><d:prop><d:displayname/></d:prop></d:propfind>
                """
            #expect(try await client.dav(.propfind, user.home, as: user, body: entity, depth: "0").status == .badRequest)
            let huge = "<d:propfind xmlns:d=\"DAV:\"><d:prop>" + String(repeating: "<d:displayname/>", count: 80_000) + "</d:prop></d:propfind>"
            #expect(try await client.dav(.propfind, user.home, as: user, body: huge, depth: "0").status == .contentTooLarge)
            let unknownReport = try await client.dav(.report, user.calendar("personal"), as: user, body: #"<x:nope xmlns:x="urn:x"/>"#, depth: "1")
            #expect(unknownReport.status == .forbidden && unknownReport.davCondition == .supportedReport)
            #expect(try await client.dav(.propfind, user.home, as: user, depth: "2").status == .badRequest)
            let copy = try await client.dav(HTTPRequest.Method("COPY")!, user.home, as: user)
            #expect(copy.status == .methodNotAllowed && copy.headers[.allow]?.contains("PROPFIND") == true)
        }
    }
}
