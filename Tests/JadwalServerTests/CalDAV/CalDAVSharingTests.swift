import DAV
import Foundation
import HTTPTypes
import HummingbirdTesting
import JadwalCore
@testable import JadwalServer
import JadwalTestSupport
import NIOCore
import Testing

/// Sharing a calendar between accounts: the JSON API's invitation and answer, the shared calendar
/// in the sharee's CalDAV home, and every access rule on every path for the owner, a read-only
/// sharee, a read-write sharee, a revoked sharee and a stranger.
@Suite("Calendar sharing")
struct CalDAVSharingTests {
    struct Listed: Decodable { struct Calendar: Decodable { let id: String; let slug: String }; let calendars: [Calendar] }
    struct Share: Decodable { let id: String; let email: String; let access: String; let state: String }
    struct Shares: Decodable { let shares: [Share] }
    struct Incoming: Decodable {
        let id: String; let owner: String; let calendarName: String; let name: String; let color: String?; let access: String; let state: String
        let slug: String?; let busy: Bool
    }
    struct IncomingList: Decodable { let shares: [Incoming] }

    static func personalID(_ client: some TestClientProtocol, token: String) async throws -> String {
        let listed = try await client.send(.get, "/api/v1/calendars", token: token).json(Listed.self)
        return try #require(listed.calendars.first { $0.slug == "personal" }?.id)
    }

    @Test("share read-only, accept, read but not write; read-write; the sharee's own name; revoke; leave; strangers see nothing", arguments: TestEnvironment.engines)
    func sharing(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let alice = try await DAVUser.make("alice@example.com", harness: harness, client: client)
            let bob = try await DAVUser.make("bob@example.com", harness: harness, client: client)
            let carol = try await DAVUser.make("carol@example.com", harness: harness, client: client)
            let aliceToken = try await client.signIn(alice.email, harness: harness).accessToken
            let bobToken = try await client.signIn(bob.email, harness: harness).accessToken
            let carolToken = try await client.signIn(carol.email, harness: harness).accessToken
            let calendarID = try await Self.personalID(client, token: aliceToken)
            #expect(try await client.putICS(alice.calendar("personal") + "a.ics", as: alice, ICS.event(uid: "a", summary: "Dinner")).status == .created)

            // Bad requests, each a 4xx naming the problem.
            let toSelf = try await client.send(.post, "/api/v1/calendars/\(calendarID)/shares", json: #"{"email": "Alice@example.com"}"#, token: aliceToken)
            #expect(toSelf.status == .badRequest && toSelf.text.contains("your own address"))
            let badAccess = try await client.send(.post, "/api/v1/calendars/\(calendarID)/shares", json: #"{"email": "bob@example.com", "access": "admin"}"#, token: aliceToken)
            #expect(badAccess.status == .badRequest && badAccess.text.contains("read-write"))
            let badEmail = try await client.send(.post, "/api/v1/calendars/\(calendarID)/shares", json: #"{"email": "bob"}"#, token: aliceToken)
            #expect(badEmail.status == .badRequest)
            let notHers = try await client.send(.post, "/api/v1/calendars/\(calendarID)/shares", json: #"{"email": "dan@example.com"}"#, token: carolToken)
            #expect(notHers.status == .notFound, "a stranger cannot share someone else's calendar")

            let shared = try await client.send(.post, "/api/v1/calendars/\(calendarID)/shares", json: #"{"email": "Bob@Example.com", "access": "read"}"#, token: aliceToken)
            #expect(shared.status == .created, "\(shared.text)")
            let share = try shared.json(Share.self)
            #expect(share.email == "bob@example.com" && share.state == "invited" && share.access == "read")
            #expect(try await client.send(.get, "/api/v1/calendars/\(calendarID)/shares", token: carolToken).status == .notFound)
            #expect(try await client.send(.post, "/api/v1/shares/\(share.id)/accept", token: carolToken).status == .notFound,
                    "only the invited person can answer")
            #expect(try await client.send(.get, "/api/v1/shares/incoming", token: carolToken).json(IncomingList.self).shares.isEmpty)

            // Bob is told, and sees the invitation; his home does not hold it until he accepts.
            let notified = try await client.send(.get, "/api/v1/notifications", token: bobToken)
            #expect(notified.text.contains("shared Personal with you") || notified.text.contains("shared"), "\(notified.text)")
            let invited = try await client.send(.get, "/api/v1/shares/incoming", token: bobToken).json(IncomingList.self)
            #expect(invited.shares.map(\.state) == ["invited"] && invited.shares.first?.owner == "alice")
            let homeBefore = try ParsedMultistatus(try await client.propfind(bob.home, as: bob, depth: "1", ["d:displayname"]))
            #expect(!homeBefore.hrefs.contains { $0.contains("shared-") })

            let accepted = try await client.send(
                .post, "/api/v1/shares/\(share.id)/accept", json: ##"{"name": "Alice's plans", "color": "#FF8800"}"##, token: bobToken)
            #expect(accepted.status == .ok, "\(accepted.text)")
            let entry = try accepted.json(Incoming.self)
            let slug = try #require(entry.slug)
            #expect(entry.name == "Alice's plans" && entry.color == "#FF8800" && entry.state == "accepted" && entry.busy == false)
            let sharedPath = bob.calendar(slug)

            // In Bob's home with his name and colour, read-only by its privileges.
            let home = try ParsedMultistatus(try await client.propfind(
                bob.home, as: bob, depth: "1", ["d:displayname", "ical:calendar-color", "d:current-user-privilege-set", "d:resourcetype"]))
            let listed = try #require(home[sharedPath], "\(home.hrefs)")
            #expect(listed.text(.displayName) == "Alice's plans")
            #expect(listed.text(.calendarColor) == "#FF8800")
            let privileges = listed.value(.currentUserPrivilegeSet)?.elements(named: .dav("privilege")).compactMap { $0.elements.first?.name } ?? []
            #expect(privileges.contains(.read) && privileges.contains(.writeProperties) && !privileges.contains(.writeContent) && !privileges.contains(.write))
            let alicesOwn = try ParsedMultistatus(try await client.propfind(alice.calendar("personal"), as: alice, ["d:displayname"]))
            #expect(alicesOwn.entries.first?.text(.displayName) == "Personal", "the sharee's name is his alone")

            // Reads work: GET, a listing, calendar-query, sync-collection.
            let get = try await client.dav(.get, sharedPath + "a.ics", as: bob)
            #expect(get.status == .ok && get.text.contains("SUMMARY:Dinner"))
            let objects = try ParsedMultistatus(try await client.propfind(sharedPath, as: bob, depth: "1", ["d:getetag"]))
            #expect(objects.hrefs.contains(sharedPath + "a.ics"))
            let query = try await client.dav(.report, sharedPath, as: bob, body: """
                <c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/></d:prop>
                <c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT"/></c:comp-filter></c:filter></c:calendar-query>
                """, depth: "1")
            #expect(query.status.code == 207 && query.text.contains(sharedPath + "a.ics"))
            let firstSync = try ParsedMultistatus(try await client.dav(.report, sharedPath, as: bob, body: CalDAVSyncTests.sync(nil)))
            let token = try #require(firstSync.syncToken)

            // Writes are refused with need-privileges, on every path.
            let put = try await client.putICS(sharedPath + "b.ics", as: bob, ICS.event(uid: "b"))
            #expect(put.status == .forbidden && put.davCondition == .needPrivileges, "\(put.text)")
            let overwrite = try await client.putICS(sharedPath + "a.ics", as: bob, ICS.event(uid: "a", summary: "Changed"))
            #expect(overwrite.status == .forbidden)
            #expect(try await client.dav(.delete, sharedPath + "a.ics", as: bob).status == .forbidden)
            let move = try await client.dav(.move, sharedPath + "a.ics", as: bob, headers: [HTTPField.Name("Destination")!: bob.calendar("personal") + "a.ics"])
            #expect(move.status == .forbidden)
            let describe = try await client.dav(.proppatch, sharedPath, as: bob, body: """
                <d:propertyupdate xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:set><d:prop>
                <c:calendar-description>mine now</c:calendar-description></d:prop></d:set></d:propertyupdate>
                """)
            #expect(describe.status.code == 207 && describe.text.contains("403") && describe.text.contains("need-privileges"))
            let rename = try await client.dav(.proppatch, sharedPath, as: bob, body: """
                <d:propertyupdate xmlns:d="DAV:"><d:set><d:prop><d:displayname>Family</d:displayname></d:prop></d:set></d:propertyupdate>
                """)
            #expect(rename.status.code == 207 && !rename.text.contains("HTTP/1.1 403"), "\(rename.text)")
            #expect(try await client.send(.get, "/api/v1/shares/incoming", token: bobToken).json(IncomingList.self).shares.first?.name == "Family")
            #expect(try await client.dav(.get, alice.calendar("personal") + "a.ics", as: alice).text.contains("SUMMARY:Dinner"), "nothing changed")

            // The owner's change reaches the sharee's next sync; the integrated view shows it.
            #expect(try await client.putICS(alice.calendar("personal") + "c.ics", as: alice, ICS.event(uid: "c", start: "20261124T100000")).status == .created)
            let nextSync = try ParsedMultistatus(try await client.dav(.report, sharedPath, as: bob, body: CalDAVSyncTests.sync(token)))
            #expect(nextSync.hrefs == [sharedPath + "c.ics"])
            let events = try await client.send(.get, "/api/v1/events?start=2026-11-23&end=2026-11-25", token: bobToken)
            #expect(events.status == .ok && events.text.contains("Dinner") && events.text.contains("\"calendarName\":\"Family\""), "\(events.text)")
            // Through the JSON API too: reading works, writing is refused while the share is read-only.
            #expect(try await client.send(.get, "/api/v1/calendars/\(calendarID)/objects/a.ics", token: bobToken).status == .ok)
            let apiWrite = try await client.send(.delete, "/api/v1/calendars/\(calendarID)/objects/a.ics", token: bobToken)
            #expect(apiWrite.status == .forbidden && apiWrite.text.contains("shared with you to read"), "\(apiWrite.text)")
            #expect(try await client.send(.get, "/api/v1/calendars/\(calendarID)/objects/a.ics", token: carolToken).status == .notFound)

            // Read-write: Bob's write lands in Alice's calendar.
            let upgraded = try await client.send(.patch, "/api/v1/calendars/\(calendarID)/shares/\(share.id)", json: #"{"access": "read-write"}"#, token: aliceToken)
            #expect(upgraded.status == .ok && upgraded.text.contains("read-write"))
            #expect(try await client.send(.patch, "/api/v1/calendars/\(calendarID)/shares/\(share.id)", json: #"{"access": "read"}"#, token: bobToken).status == .notFound,
                    "the sharee cannot change their own access")
            let written = try await client.putICS(sharedPath + "b.ics", as: bob, ICS.event(uid: "b", summary: "Bob's"))
            #expect(written.status == .created, "\(written.text)")
            #expect(try await client.dav(.get, alice.calendar("personal") + "b.ics", as: alice).text.contains("SUMMARY:Bob's"))
            #expect(try await client.dav(.delete, sharedPath + "b.ics", as: bob).status == .noContent)

            // Strangers: Carol gets 404 on Bob's shared path and on Alice's calendar.
            #expect(try await client.dav(.get, sharedPath + "a.ics", as: carol).status == .notFound)
            #expect(try await client.dav(.get, alice.calendar("personal") + "a.ics", as: carol).status == .notFound)

            // Revoked: gone from Bob's home, its paths 404.
            #expect(try await client.send(.delete, "/api/v1/calendars/\(calendarID)/shares/\(share.id)", token: aliceToken).status == .noContent)
            let homeAfter = try ParsedMultistatus(try await client.propfind(bob.home, as: bob, depth: "1", ["d:displayname"]))
            #expect(homeAfter[sharedPath] == nil)
            #expect(try await client.dav(.get, sharedPath + "a.ics", as: bob).status == .notFound)
            #expect(try await client.dav(.propfind, sharedPath, as: bob, depth: "0").status == .notFound)

            // Shared again and left by deleting it from the phone: declined, Alice's calendar stays.
            let again = try await client.send(.post, "/api/v1/calendars/\(calendarID)/shares", json: #"{"email": "bob@example.com"}"#, token: aliceToken).json(Share.self)
            let reaccepted = try await client.send(.post, "/api/v1/shares/\(again.id)/accept", token: bobToken).json(Incoming.self)
            let path = bob.calendar(try #require(reaccepted.slug))
            #expect(try await client.dav(.delete, path, as: bob).status == .noContent)
            let states = try await client.send(.get, "/api/v1/calendars/\(calendarID)/shares", token: aliceToken).json(Shares.self)
            #expect(states.shares.map(\.state) == ["declined"])
            #expect(try await client.dav(.get, alice.calendar("personal") + "a.ics", as: alice).status == .ok)
        }
    }

    @Test("as Apple's clients share: CS:share POST, CS:invite and shared-owner on the owner's calendar, CS:invite-reply, shared-url; share-resource removes", arguments: TestEnvironment.engines)
    func appleSharing(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let alice = try await DAVUser.make("alice@example.com", harness: harness, client: client)
            let bob = try await DAVUser.make("bob@example.com", harness: harness, client: client)
            let options = try await client.dav(.options, alice.home, as: nil)
            #expect(options.headers[HTTPField.Name("DAV")!]?.contains("calendarserver-sharing") == true)

            let before = try ParsedMultistatus(try await client.propfind(alice.calendar("personal"), as: alice, ["cs:allowed-sharing-modes", "d:share-access"]))
            #expect(before.entries.first?.value(.allowedSharingModes)?.first(.canBeShared) != nil)
            #expect(before.entries.first?.value(.shareAccess)?.first(.notShared) != nil)

            let share = try await client.dav(.post, alice.calendar("personal"), as: alice, body: """
                <?xml version="1.0" encoding="UTF-8"?>
                <CS:share xmlns:D="DAV:" xmlns:CS="http://calendarserver.org/ns/">
                  <CS:set><D:href>mailto:bob@example.com</D:href><CS:common-name>Bob</CS:common-name><CS:summary>Family</CS:summary><CS:read-write/></CS:set>
                </CS:share>
                """)
            #expect(share.status == .ok, "\(share.text)")
            let owned = try ParsedMultistatus(try await client.propfind(alice.calendar("personal"), as: alice, ["d:resourcetype", "cs:invite"]))
            let entry = try #require(owned.entries.first)
            #expect(entry.value(.resourceType)?.first(.sharedOwner) != nil)
            let user = try #require(entry.value(.invite)?.first(.inviteUser))
            #expect(user.first(.href)?.trimmedText == "mailto:bob@example.com" && user.first(.inviteNoResponse) != nil)
            #expect(user.first(.inviteAccess)?.first(.readWriteAccess) != nil)

            // Bob answers from his home, naming the calendar by its URL, as iOS does.
            let reply = try await client.dav(.post, bob.home, as: bob, body: """
                <?xml version="1.0" encoding="UTF-8"?>
                <CS:invite-reply xmlns:D="DAV:" xmlns:CS="http://calendarserver.org/ns/">
                  <D:href>mailto:alice@example.com</D:href><CS:invite-accepted/>
                  <CS:hosturl><D:href>\(alice.calendar("personal"))</D:href></CS:hosturl><CS:summary>Alice</CS:summary>
                </CS:invite-reply>
                """)
            #expect(reply.status == .ok, "\(reply.text)")
            let sharedAs = try XMLReader().read(Data(buffer: reply.body))
            let sharedPath = try #require(sharedAs.first(.href)?.trimmedText)
            #expect(sharedAs.name == .sharedAs && sharedPath.hasPrefix(bob.home))

            let seen = try ParsedMultistatus(try await client.propfind(
                sharedPath, as: bob, ["d:resourcetype", "cs:shared-url", "d:owner", "cs:invite", "d:displayname", "d:share-access"]))
            let view = try #require(seen.entries.first)
            #expect(view.value(.resourceType)?.first(.shared) != nil)
            #expect(view.hrefs(.sharedURL) == [alice.calendar("personal")])
            #expect(view.hrefs(.owner) == [alice.principal])
            #expect(view.text(.displayName) == "Alice")
            #expect(view.value(.shareAccess)?.first(.davReadWriteAccess) != nil)
            #expect(view.value(.invite)?.first(.inviteOrganizer)?.first(.href)?.trimmedText == "mailto:alice@example.com")
            // Principal search finds the people one shares with, by name or email, and no stranger.
            let carol = try await DAVUser.make("carol@example.com", harness: harness, client: client)
            func search(_ text: String, as user: DAVUser) async throws -> [String] {
                try ParsedMultistatus(try await client.dav(.report, "/dav/principals/", as: user, body: """
                    <d:principal-property-search xmlns:d="DAV:" xmlns:cs="http://calendarserver.org/ns/" test="anyof">
                    <d:property-search><d:prop><d:displayname/></d:prop><d:match>\(text)</d:match></d:property-search>
                    <d:property-search><d:prop><cs:email-address-set/></d:prop><d:match>\(text)</d:match></d:property-search>
                    <d:prop><d:displayname/></d:prop></d:principal-property-search>
                    """, depth: "0")).hrefs
            }
            #expect(try await search("alice", as: bob) == [alice.principal])
            #expect(try await search("bob@", as: alice) == [bob.principal])
            #expect(try await search("example.com", as: alice) == [alice.principal, bob.principal])
            #expect(try await search("alice", as: carol).isEmpty, "a stranger finds nobody")
            #expect(try await search("carol", as: carol) == [carol.principal], "oneself by one's own name")
            let accepted = try ParsedMultistatus(try await client.propfind(alice.calendar("personal"), as: alice, ["cs:invite"]))
            #expect(accepted.entries.first?.value(.invite)?.first(.inviteUser)?.first(.inviteAccepted) != nil)

            // Bob cannot reshare what is not his; bad bodies are 4xx.
            let reshare = try await client.dav(.post, sharedPath, as: bob, body: """
                <CS:share xmlns:D="DAV:" xmlns:CS="http://calendarserver.org/ns/"><CS:set><D:href>mailto:carol@example.com</D:href><CS:read/></CS:set></CS:share>
                """)
            #expect(reshare.status == .forbidden)
            let empty = try await client.dav(.post, alice.calendar("personal"), as: alice, body: #"<CS:share xmlns:CS="http://calendarserver.org/ns/"/>"#)
            #expect(empty.status == .badRequest)
            let stranger = try await client.dav(.post, bob.home, as: bob, body: """
                <CS:invite-reply xmlns:D="DAV:" xmlns:CS="http://calendarserver.org/ns/"><CS:invite-accepted/><CS:in-reply-to>nope</CS:in-reply-to></CS:invite-reply>
                """)
            #expect(stranger.status == .forbidden)

            // The draft's share-resource with no-access ends it: Bob's home drops it.
            let removed = try await client.dav(.post, alice.calendar("personal"), as: alice, body: """
                <D:share-resource xmlns:D="DAV:"><D:sharee><D:href>mailto:bob@example.com</D:href><D:share-access><D:no-access/></D:share-access></D:sharee></D:share-resource>
                """)
            #expect(removed.status == .ok, "\(removed.text)")
            #expect(try await client.dav(.propfind, sharedPath, as: bob, depth: "0").status == .notFound)
        }
    }

    @Test("a server-wide principal directory, when the operator opens it: anyone active by name or address, never the disabled, nobody for an empty search",
          arguments: TestEnvironment.engines)
    func serverWideDirectory(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine, configure: { $0.principalDirectory = .serverWide }) { harness, client in
            let alice = try await DAVUser.make("alice@example.com", harness: harness, client: client)
            let bob = try await DAVUser.make("bob@example.com", harness: harness, client: client)
            let carol = try await DAVUser.make("carol@example.com", harness: harness, client: client)
            func search(_ text: String, as user: DAVUser) async throws -> [String] {
                try ParsedMultistatus(try await client.dav(.report, "/dav/principals/", as: user, body: """
                    <d:principal-property-search xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" test="anyof">
                    <d:property-search><d:prop><d:displayname/></d:prop><d:match>\(text)</d:match></d:property-search>
                    <d:property-search><d:prop><c:calendar-user-address-set/></d:prop><d:match>\(text)</d:match></d:property-search>
                    <d:prop><d:displayname/></d:prop></d:principal-property-search>
                    """, depth: "0")).hrefs
            }
            // No share between them, yet each finds the other: the operator opened the directory.
            #expect(try await search("alice", as: carol) == [alice.principal])
            #expect(try await search("mailto:BOB@example", as: carol) == [bob.principal])
            #expect(Set(try await search("example.com", as: carol)) == Set([alice.principal, bob.principal, carol.principal]))
            #expect(try await search("", as: carol) == [carol.principal], "an empty search lists nobody new")
            #expect(try await search("a", as: carol) == [carol.principal], "one letter lists nobody new")
            try await harness.instance.store.transaction { tx in
                guard var account = try await tx.account(email: try EmailAddress("bob@example.com")) else { return }
                account.disabledAt = Date()
                try await tx.updateAccount(account)
            }
            #expect(try await search("bob", as: carol).isEmpty, "a disabled account is not listed")
        }
    }

    @Test("Apple's notification collection: a pending share is a CS:invite-notification an iPhone can read and answer; answered, it goes; dismissed, the share is declined; nobody else reads it",
          arguments: TestEnvironment.engines)
    func notificationCollection(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let alice = try await DAVUser.make("alice@example.com", harness: harness, client: client)
            let bob = try await DAVUser.make("bob@example.com", harness: harness, client: client)
            func share(_ slug: String, access: String) async throws {
                let shared = try await client.dav(.post, alice.calendar(slug), as: alice, body: """
                    <CS:share xmlns:D="DAV:" xmlns:CS="http://calendarserver.org/ns/"><CS:set><D:href>mailto:bob@example.com</D:href><CS:\(access)/></CS:set></CS:share>
                    """)
                try #require(shared.status == .ok, "\(shared.text)")
            }
            let principal = try ParsedMultistatus(try await client.propfind(bob.principal, as: bob, ["cs:notification-URL"]))
            let collection = try #require(principal.entries.first?.hrefs(.notificationURL).first)
            #expect(collection == bob.principal + "notifications/")
            func listing() async throws -> ParsedMultistatus {
                try ParsedMultistatus(try await client.propfind(collection, as: bob, depth: "1", ["d:resourcetype", "cs:getctag", "cs:notificationtype", "d:getetag"]))
            }
            let empty = try await listing()
            #expect(empty.hrefs == [collection] && empty.entries.first?.value(.resourceType)?.first(.notification) != nil)

            try await share("personal", access: "read-write")
            let one = try await listing()
            #expect(one.hrefs.count == 2 && one.entries[0].text(.getCTag) != empty.entries[0].text(.getCTag), "a new notification changes the CTag")
            let item = try #require(one.entries.first { $0.href != collection })
            #expect(item.value(.notificationType)?.first(.inviteNotification) != nil)
            let document = try await client.dav(.get, item.href, as: bob)
            #expect(document.status == .ok && document.headers[.contentType]?.hasPrefix("application/xml") == true)
            #expect(document.headers[.eTag] == item.text(.getETag))
            let notification = try XMLReader().read(Data(buffer: document.body))
            let invite = try #require(notification.first(.inviteNotification))
            #expect(notification.name == .notification && invite.first(.inviteNoResponse) != nil && invite.first(.inviteAccess)?.first(.readWriteAccess) != nil)
            #expect(invite.first(.hostURL)?.first(.href)?.trimmedText == alice.calendar("personal"))
            #expect(invite.first(.inviteOrganizer)?.first(.href)?.trimmedText == "mailto:alice@example.com")
            let uid = try #require(invite.first(.notificationUID)?.trimmedText)
            #expect(item.href.hasSuffix(uid + ".xml"))
            #expect(try await client.dav(.get, item.href, as: alice).status == .notFound, "another person's notifications are not there")

            // Accepted as an iPhone does (naming the invitation by its uid), then the notification deleted: it goes, the share stays.
            let reply = try await client.dav(.post, bob.home, as: bob, body: """
                <CS:invite-reply xmlns:D="DAV:" xmlns:CS="http://calendarserver.org/ns/">
                  <D:href>mailto:alice@example.com</D:href><CS:invite-accepted/>
                  <CS:hosturl><D:href>\(alice.calendar("personal"))</D:href></CS:hosturl><CS:in-reply-to>\(uid)</CS:in-reply-to>
                </CS:invite-reply>
                """)
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(try await listing().hrefs == [collection], "answered, it is no longer waiting")
            #expect(try await client.dav(.delete, item.href, as: bob).status == .noContent)
            let accepted = try ParsedMultistatus(try await client.propfind(alice.calendar("personal"), as: alice, ["cs:invite"]))
            #expect(accepted.entries.first?.value(.invite)?.first(.inviteUser)?.first(.inviteAccepted) != nil)

            // Dismissed without an answer: the share is declined, as the owner sees.
            try await share("tasks", access: "read")
            let second = try #require(try await listing().entries.first { $0.href != collection })
            #expect(try await client.dav(.delete, second.href, as: bob).status == .noContent)
            #expect(try await listing().hrefs == [collection])
            let declined = try ParsedMultistatus(try await client.propfind(alice.calendar("tasks"), as: alice, ["cs:invite"]))
            #expect(declined.entries.first?.value(.invite)?.first(.inviteUser)?.first(.inviteDeclined) != nil)
            #expect(try await client.dav(.delete, bob.principal + "notifications/nothing.xml", as: bob).status == .notFound)
        }
    }

    @Test("a read-write share counts as the sharee's busy time: the owner's new event puts the sharee's own event in conflict, and only the sharee's; a read-only one does not", arguments: TestEnvironment.engines)
    func sharedBusyTime(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine, configure: { $0.workers = 0 }) { harness, client in
            let alice = try await DAVUser.make("alice@example.com", harness: harness, client: client)
            let bob = try await DAVUser.make("bob@example.com", harness: harness, client: client)
            let aliceToken = try await client.signIn(alice.email, harness: harness).accessToken
            let bobToken = try await client.signIn(bob.email, harness: harness).accessToken
            let calendarID = try await Self.personalID(client, token: aliceToken)
            #expect(try await client.putICS(bob.calendar("personal") + "gym.ics", as: bob, ICS.event(uid: "gym", summary: "Gym", start: "20261123T100000")).status == .created)
            let share = try await client.send(.post, "/api/v1/calendars/\(calendarID)/shares", json: #"{"email": "bob@example.com", "access": "read-write"}"#, token: aliceToken).json(Share.self)
            #expect(try await client.send(.post, "/api/v1/shares/\(share.id)/accept", token: bobToken).status == .ok)
            try await ConflictAPITests.runJobs(harness)

            // Alice's family lunch lands on Bob's gym: the conflict is on Bob's own event.
            #expect(try await client.putICS(alice.calendar("personal") + "lunch.ics", as: alice, ICS.event(uid: "lunch", summary: "Family lunch", start: "20261123T103000")).status == .created)
            try await ConflictAPITests.runJobs(harness)
            let bobs = try await ConflictAPITests.conflicts(client, token: bobToken)
            #expect(bobs.map(\.event.name) == ["gym.ics"] && bobs.first?.overlaps.map(\.title) == ["Family lunch"], "\(bobs)")
            #expect(try await ConflictAPITests.conflicts(client, token: aliceToken).isEmpty, "Alice's calendar does not hold Bob's gym")

            // Moved away by Alice: Bob's conflict retires.
            #expect(try await client.putICS(alice.calendar("personal") + "lunch.ics", as: alice, ICS.event(uid: "lunch", summary: "Family lunch", start: "20261123T140000")).status == .noContent)
            try await ConflictAPITests.runJobs(harness)
            #expect(try await ConflictAPITests.conflicts(client, token: bobToken).isEmpty)

            // Read-only, or set to free by Bob: it no longer counts.
            #expect(try await client.send(.patch, "/api/v1/shares/\(share.id)", json: #"{"busy": false}"#, token: bobToken).status == .ok)
            #expect(try await client.putICS(alice.calendar("personal") + "tea.ics", as: alice, ICS.event(uid: "tea", summary: "Tea", start: "20261123T100000")).status == .created)
            try await ConflictAPITests.runJobs(harness)
            #expect(try await ConflictAPITests.conflicts(client, token: bobToken).isEmpty)
        }
    }
}

