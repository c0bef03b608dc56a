import DAV
import Foundation
import HTTPTypes
import HummingbirdTesting
import JadwalCore
@testable import JadwalServer
import JadwalTestSupport
import NIOCore
import Testing

/// Every route that reaches a shared calendar, by every method, for each role: the owner, a
/// read-only sharee, a read-write sharee, a sharee whose share was revoked, and a stranger.
/// Each cell is the status that role must get; a revoked sharee and a stranger get exactly what a
/// calendar that does not exist gets, so neither learns it is there.
@Suite("Who may do what with a shared calendar")
struct SharingAccessMatrixTests {
    enum Role: String, CaseIterable, CustomStringConvertible {
        case owner, reader, writer, revoked, stranger
        var description: String { rawValue }
    }

    struct Person {
        let user: DAVUser
        let token: String
        /// Where the shared calendar is in this person's CalDAV home (the owner's own calendar for
        /// the owner and the stranger; the slug the share had for the revoked sharee).
        let calendarPath: String
    }

    @Test("CalDAV and the JSON API, each method, each role", arguments: TestEnvironment.engines)
    func matrix(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            func make(_ name: String) async throws -> (DAVUser, String) {
                let user = try await DAVUser.make("\(name)@example.com", harness: harness, client: client)
                return (user, try await client.signIn(user.email, harness: harness).accessToken)
            }
            let (alice, aliceToken) = try await make("alice")
            let calendarID = try await CalDAVSharingTests.personalID(client, token: aliceToken)
            func shareAndAccept(_ name: String, access: String) async throws -> Person {
                let (user, token) = try await make(name)
                let shared = try await client.send(
                    .post, "/api/v1/calendars/\(calendarID)/shares", json: #"{"email": "\#(user.email)", "access": "\#(access)"}"#, token: aliceToken)
                let share = try shared.json(CalDAVSharingTests.Share.self)
                let accepted = try await client.send(.post, "/api/v1/shares/\(share.id)/accept", token: token).json(CalDAVSharingTests.Incoming.self)
                return Person(user: user, token: token, calendarPath: user.calendar(try #require(accepted.slug)))
            }
            var people: [Role: Person] = [
                .owner: Person(user: alice, token: aliceToken, calendarPath: alice.calendar("personal")),
                .reader: try await shareAndAccept("rita", access: "read"),
                .writer: try await shareAndAccept("walt", access: "read-write"),
            ]
            let revoked = try await shareAndAccept("rory", access: "read-write")
            let shares = try await client.send(.get, "/api/v1/calendars/\(calendarID)/shares", token: aliceToken).json(CalDAVSharingTests.Shares.self)
            let roryShare = try #require(shares.shares.first { $0.email == revoked.user.email })
            #expect(try await client.send(.delete, "/api/v1/calendars/\(calendarID)/shares/\(roryShare.id)", token: aliceToken).status == .noContent)
            people[.revoked] = revoked
            let (sam, samToken) = try await make("sam")
            people[.stranger] = Person(user: sam, token: samToken, calendarPath: alice.calendar("personal"))

            // The owner's objects each role will read, change and remove.
            for role in Role.allCases {
                for name in ["del-\(role)", "apidel-\(role)", "mv-\(role)"] {
                    #expect(try await client.putICS(alice.calendar("personal") + "\(name).ics", as: alice, ICS.event(uid: name, summary: name)).status == .created)
                }
            }

            // Expected status by role, in the order owner, reader, writer, revoked, stranger.
            func expect(_ what: String, _ statuses: [Int], _ run: (Role, Person) async throws -> TestResponse) async throws {
                for (role, expected) in zip(Role.allCases, statuses) {
                    let person = try #require(people[role])
                    let answer = try await run(role, person)
                    #expect(Int(answer.status.code) == expected, "\(what) as \(role): \(answer.status.code), \(answer.text.prefix(300))")
                }
            }
            let ok = 200, created = 201, noContent = 204, multi = 207, forbidden = 403, notFound = 404
            // A write into a calendar missing from one's own home is 409 (RFC 4918 §9.7.1: no such
            // collection), as for any calendar that never was: so it is for the revoked share.
            let missing = 409

            // CalDAV, on each person's own URL of the calendar.
            try await expect("GET an event", [ok, ok, ok, notFound, notFound]) { _, p in
                try await client.dav(.get, p.calendarPath + "del-owner.ics", as: p.user)
            }
            try await expect("PROPFIND the calendar", [multi, multi, multi, notFound, notFound]) { _, p in
                try await client.propfind(p.calendarPath, as: p.user, depth: "1", ["d:getetag"])
            }
            try await expect("REPORT calendar-query", [multi, multi, multi, notFound, notFound]) { _, p in
                try await client.dav(.report, p.calendarPath, as: p.user, body: """
                    <c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/></d:prop>
                    <c:filter><c:comp-filter name="VCALENDAR"/></c:filter></c:calendar-query>
                    """, depth: "1")
            }
            try await expect("PUT a new event", [created, forbidden, created, missing, notFound]) { role, p in
                try await client.putICS(p.calendarPath + "new-\(role).ics", as: p.user, ICS.event(uid: "new-\(role)", summary: "New"))
            }
            try await expect("DELETE an event", [noContent, forbidden, noContent, missing, notFound]) { role, p in
                try await client.dav(.delete, p.calendarPath + "del-\(role).ics", as: p.user)
            }
            try await expect("MOVE an event to one's own calendar", [created, forbidden, created, missing, notFound]) { role, p in
                let destination = "http://localhost" + p.user.calendar(role == .owner ? "whatsapp-events" : "personal") + "moved-\(role).ics"
                return try await client.dav(.move, p.calendarPath + "mv-\(role).ics", as: p.user, headers: [HTTPField.Name("Destination")!: destination])
            }
            try await expect("PROPPATCH its name", [multi, multi, multi, notFound, notFound]) { role, p in
                try await client.dav(.proppatch, p.calendarPath, as: p.user, body: """
                    <d:propertyupdate xmlns:d="DAV:"><d:set><d:prop><d:displayname>Seen by \(role)</d:displayname></d:prop></d:set></d:propertyupdate>
                    """)
            }
            try await expect("POST a CS:share", [ok, forbidden, forbidden, notFound, notFound]) { _, p in
                try await client.dav(.post, p.calendarPath, as: p.user, body: """
                    <CS:share xmlns:D="DAV:" xmlns:CS="http://calendarserver.org/ns/"><CS:set><D:href>mailto:zed@example.com</D:href><CS:read/></CS:set></CS:share>
                    """)
            }

            // The JSON API, by the calendar's one id.
            let base = "/api/v1/calendars/\(calendarID)"
            try await expect("GET an object", [ok, ok, ok, notFound, notFound]) { _, p in
                try await client.send(.get, base + "/objects/apidel-owner.ics", token: p.token)
            }
            try await expect("POST an event", [created, forbidden, created, notFound, notFound]) { _, p in
                try await client.send(.post, base + "/events", json: #"{"title": "From the API", "start": "2026-11-23T13:00"}"#, token: p.token)
            }
            try await expect("DELETE an object", [noContent, forbidden, noContent, notFound, notFound]) { role, p in
                try await client.send(.delete, base + "/objects/apidel-\(role).ics", token: p.token)
            }
            try await expect("PATCH the calendar", [ok, notFound, notFound, notFound, notFound]) { _, p in
                try await client.send(.patch, base, json: #"{"description": "Family"}"#, token: p.token)
            }
            try await expect("list its shares", [ok, notFound, notFound, notFound, notFound]) { _, p in
                try await client.send(.get, base + "/shares", token: p.token)
            }
            try await expect("DELETE the calendar", [noContent, notFound, notFound, notFound, notFound].map { $0 == noContent ? notFound : $0 }) { role, p in
                // The owner's own delete is not tried here (it would end the test); the others must not reach it.
                role == .owner ? try await client.send(.delete, base.replacingOccurrences(of: calendarID, with: UUID().uuidString), token: p.token)
                    : try await client.send(.delete, base, token: p.token)
            }
            // The revoked sharee's answers are those of a calendar that never was.
            let never = revoked.user.calendar("never-was")
            #expect(try await client.putICS(never + "x.ics", as: revoked.user, ICS.event(uid: "x", summary: "x")).status.code == missing)
            #expect(try await client.dav(.get, never + "x.ics", as: revoked.user).status == .notFound)
            #expect(try await client.dav(.get, alice.calendar("personal") + "del-owner.ics", as: alice).status == .notFound, "the owner's own delete went")
            #expect(try await client.dav(.get, alice.calendar("personal") + "del-reader.ics", as: alice).status == .ok, "the reader's did not")
        }
    }
}
