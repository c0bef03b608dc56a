import DAV
import Foundation
import HTTPTypes
import HummingbirdTesting
import ICalendar
import JadwalCore
@testable import JadwalServer
import JadwalTestSupport
import NIOCore
import Testing

private let scheduleTag = HTTPField.Name("Schedule-Tag")!
private let ifScheduleTagMatch = HTTPField.Name("If-Schedule-Tag-Match")!

/// A meeting as a phone writes it: the organizer, and each attendee with their PARTSTAT.
private func meeting(
    uid: String, organizer: String, attendees: [String], summary: String = "Standup", start: String = "20261123T100000Z", sequence: Int = 0,
    extra: [String] = []
) -> String {
    var lines = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Jadwal Tests//EN", "BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20261101T000000Z",
        "SEQUENCE:\(sequence)", "DTSTART:\(start)", "DURATION:PT30M", "SUMMARY:\(summary)", "ORGANIZER;CN=Alice:\(organizer)",
    ]
    lines += attendees + extra
    lines += ["BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT5M", "DESCRIPTION:Organizer's alarm", "END:VALARM", "END:VEVENT", "END:VCALENDAR"]
    return lines.joined(separator: "\r\n") + "\r\n"
}

/// Invitations between accounts of one server, over CalDAV (RFC 6638 implicit scheduling): the
/// organizer's write delivers to each attendee's Inbox and calendar, answers come back into the
/// organizer's copy, changes and cancellations reach every attendee, and nobody can change a
/// meeting that is not theirs.
@Suite("CalDAV invitations (RFC 6638 delivery)")
struct CalDAVInvitationTests {
    static func inbox(_ client: some TestClientProtocol, _ user: DAVUser) async throws -> [(href: String, text: String)] {
        let listed = try ParsedMultistatus(try await client.propfind(user.inbox, as: user, depth: "1", ["d:getetag", "d:resourcetype"]))
        var items: [(String, String)] = []
        for href in listed.hrefs where href != user.inbox {
            let got = try await client.dav(.get, href, as: user)
            try #require(got.status == .ok, "\(href): \(got.status)")
            items.append((href, got.text))
        }
        return items
    }

    /// The ATTENDEE line naming `address`, unfolded (a long line is folded at 75 octets).
    static func attendee(_ text: String, _ address: String) -> String? {
        text.replacingOccurrences(of: "\r\n ", with: "").split(separator: "\r\n").map(String.init)
            .first { $0.hasPrefix("ATTENDEE") && $0.lowercased().hasSuffix(":" + address.lowercased()) }
    }

    static func get(_ client: some TestClientProtocol, _ path: String, as user: DAVUser) async throws -> TestResponse {
        let got = try await client.dav(.get, path, as: user)
        try #require(got.status == .ok, "\(path): \(got.status) \(got.text)")
        return got
    }

    @Test("two attendees of the server and one outside: delivered, answered from a phone and the API, changed, taken off, cancelled",
          arguments: TestEnvironment.engines)
    func invitations(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine, configure: { $0.workers = 0 }) { harness, client in
            let alice = try await DAVUser.make("alice@example.com", harness: harness, client: client)
            let bob = try await DAVUser.make("bob@example.com", harness: harness, client: client)
            let carol = try await DAVUser.make("carol@example.com", harness: harness, client: client)
            let path = alice.calendar("personal") + "standup.ics"
            let attendees = [
                "ATTENDEE;PARTSTAT=ACCEPTED:\(alice.address)",
                "ATTENDEE;CN=Bob;RSVP=TRUE;PARTSTAT=NEEDS-ACTION:\(bob.address)",
                "ATTENDEE;CN=Carol;RSVP=TRUE:\(carol.principal)",
                "ATTENDEE;CN=Guest;RSVP=TRUE;PARTSTAT=NEEDS-ACTION:mailto:guest@example.net",
            ]
            let sent = meeting(uid: "standup", organizer: alice.address, attendees: attendees)
            let created = try await client.putICS(path, as: alice, sent)
            #expect(created.status == .created, "\(created.text)")
            #expect(created.headers[.eTag] == nil, "the server wrote SCHEDULE-STATUS in, so the client must fetch it again")
            let organizerTag = try #require(created.headers[scheduleTag])

            // The organizer's copy records each delivery.
            let stored = try await Self.get(client, path, as: alice).text
            #expect(Self.attendee(stored, bob.address)?.contains("SCHEDULE-STATUS=1.2") == true, "\(stored)")
            #expect(Self.attendee(stored, carol.principal)?.contains("SCHEDULE-STATUS=1.2") == true)
            #expect(Self.attendee(stored, "mailto:guest@example.net")?.contains("SCHEDULE-STATUS=1.0") == true, "an email is pending")
            #expect(Self.attendee(stored, alice.address)?.contains("SCHEDULE-STATUS") == false, "the organizer sends herself nothing")

            // Bob: one REQUEST in his Inbox, and the meeting in his Personal calendar, not answered.
            let bobInbox = try await Self.inbox(client, bob)
            try #require(bobInbox.count == 1, "\(bobInbox.map(\.href))")
            #expect(bobInbox[0].text.contains("METHOD:REQUEST") && bobInbox[0].text.contains("UID:standup"))
            #expect(!bobInbox[0].text.contains("VALARM") && !bobInbox[0].text.contains("SCHEDULE-STATUS"), "the organizer's alarm stays hers")
            let bobPath = bob.calendar("personal") + "standup.ics"
            let bobCopy = try await Self.get(client, bobPath, as: bob)
            #expect(Self.attendee(bobCopy.text, bob.address)?.contains("PARTSTAT=NEEDS-ACTION") == true && bobCopy.text.contains("ORGANIZER;CN=Alice:\(alice.address)"))
            #expect(!bobCopy.text.contains("METHOD:"))
            let bobTag = try #require(bobCopy.headers[scheduleTag])
            // Carol, invited by her principal URL, gets it too.
            #expect(try await Self.inbox(client, carol).count == 1)
            #expect(try await client.dav(.get, carol.calendar("personal") + "standup.ics", as: carol).status == .ok)
            // The guest outside the server gets an email: one queued job.
            let jobs = try await harness.instance.store.read { tx in try await tx.jobs(state: .queued, limit: 500) }
            #expect(jobs.filter { $0.kind == InvitationMail.kind && $0.payload.contains("guest@example.net") }.count == 1)
            // Alice's own Inbox is untouched; nobody else sees Bob's.
            #expect(try await Self.inbox(client, alice).isEmpty)
            #expect(try await client.dav(.propfind, bob.inbox, as: carol, depth: "1").status == .notFound)
            #expect(try await client.dav(.get, bobInbox[0].href, as: carol).status == .notFound)

            // Bob accepts from his phone (If-Schedule-Tag-Match, as python caldav sends it): his
            // tag stays, and Alice's copy records the answer without a new tag.
            let accepted = bobCopy.text.replacingOccurrences(of: "PARTSTAT=NEEDS-ACTION:\(bob.address)", with: "PARTSTAT=ACCEPTED:\(bob.address)")
            try #require(accepted != bobCopy.text)
            let answer = try await client.putICS(bobPath, as: bob, accepted, headers: [ifScheduleTagMatch: bobTag])
            #expect(answer.status == .noContent, "\(answer.text)")
            #expect(answer.headers[scheduleTag] == bobTag)
            let afterAnswer = try await Self.get(client, path, as: alice)
            #expect(Self.attendee(afterAnswer.text, bob.address)?.contains("PARTSTAT=ACCEPTED") == true, "\(afterAnswer.text)")
            #expect(afterAnswer.headers[scheduleTag] == organizerTag, "an answer is not a change of the meeting")
            let aliceInbox = try await Self.inbox(client, alice)
            #expect(aliceInbox.count == 1 && aliceInbox[0].text.contains("METHOD:REPLY") && aliceInbox[0].text.contains("PARTSTAT=ACCEPTED"))
            #expect(try await client.dav(.delete, aliceInbox[0].href, as: alice).status == .noContent, "a client removes what it dealt with")
            #expect(try await Self.inbox(client, alice).isEmpty)

            // Carol declines through the JSON API.
            let carolToken = try await client.signIn(carol.email, harness: harness).accessToken
            let listed = try await client.send(.get, "/api/v1/invitations", token: carolToken)
            #expect(listed.status == .ok && listed.text.contains(#""partstat":"needs-action""#) && listed.text.contains(#""email":"alice@example.com""#),
                    "\(listed.text)")
            struct Listed: Decodable { struct Item: Decodable { let id: String; let partstat: String; let state: String }; let invitations: [Item] }
            let carolInvitation = try #require(try listed.json(Listed.self).invitations.first)
            let declined = try await client.send(.post, "/api/v1/invitations/\(carolInvitation.id)/reply", json: #"{"partstat": "DECLINED"}"#, token: carolToken)
            #expect(declined.status == .ok && declined.text.contains(#""partstat":"declined""#), "\(declined.text)")
            #expect(Self.attendee(try await Self.get(client, path, as: alice).text, carol.principal)?.contains("PARTSTAT=DECLINED") == true)
            #expect(try await Self.get(client, carol.calendar("personal") + "standup.ics", as: carol).text.contains("TRANSP:TRANSPARENT"),
                    "a declined meeting no longer takes her time")

            // Bad answers are refused with what to send; someone else's invitation does not exist for them.
            let maybe = try await client.send(.post, "/api/v1/invitations/\(carolInvitation.id)/reply", json: #"{"partstat": "maybe"}"#, token: carolToken)
            #expect(maybe.status == .badRequest && maybe.text.contains("accepted, tentative or declined"), "\(maybe.text)")
            let bobToken = try await client.signIn(bob.email, harness: harness).accessToken
            let notHis = try await client.send(.post, "/api/v1/invitations/\(carolInvitation.id)/reply", json: #"{"partstat": "accepted"}"#, token: bobToken)
            #expect(notHis.status == .notFound)
            #expect(try await client.send(.post, "/api/v1/invitations/not-an-id/reply", json: #"{"partstat": "accepted"}"#, token: bobToken).status == .notFound)

            // Alice moves the meeting: each attendee's copy follows, with a new Schedule-Tag.
            let current = try await Self.get(client, path, as: alice).text
            let moved = current.replacingOccurrences(of: "DTSTART:20261123T100000Z", with: "DTSTART:20261124T090000Z")
                .replacingOccurrences(of: "SEQUENCE:0", with: "SEQUENCE:1")
            #expect(try await client.putICS(path, as: alice, moved).status == .noContent)
            let bobMoved = try await Self.get(client, bobPath, as: bob)
            #expect(bobMoved.text.contains("DTSTART:20261124T090000Z") && bobMoved.headers[scheduleTag] != bobTag)
            #expect(try await Self.inbox(client, bob).count == 2)

            // Alice takes Carol off: Carol's copy is cancelled, her invitation too.
            var parsed = try ICalendarParser().parseCalendar(try await Self.get(client, path, as: alice).text)
            parsed.components = parsed.components.map { component in
                var item = component
                item.properties.removeAll { $0.name == "ATTENDEE" && $0.value == carol.principal }
                return item
            }
            let withoutCarol = parsed.serialized
            #expect(try await client.putICS(path, as: alice, withoutCarol).status == .noContent)
            #expect(try await Self.get(client, carol.calendar("personal") + "standup.ics", as: carol).text.contains("STATUS:CANCELLED"))
            let carolAfter = try await client.send(.get, "/api/v1/invitations", token: carolToken).json(Listed.self)
            #expect(carolAfter.invitations.map(\.state) == ["cancelled"])
            let late = try await client.send(.post, "/api/v1/invitations/\(carolInvitation.id)/reply", json: #"{"partstat": "accepted"}"#, token: carolToken)
            #expect(late.status == .conflict && late.errorCode == "invitation_cancelled")

            // An attendee cannot change the organizer's copy: it is not in their home, and a
            // change they make to their own copy is not sent (only their answer is).
            #expect(try await client.dav(.get, path, as: bob).status == .notFound)
            #expect(try await client.putICS(path, as: bob, sent).status == .notFound)
            let bobRenames = try await Self.get(client, bobPath, as: bob).text.replacingOccurrences(of: "SUMMARY:Standup", with: "SUMMARY:Bob's party")
            #expect(try await client.putICS(bobPath, as: bob, bobRenames).status == .noContent)
            #expect(try await Self.get(client, path, as: alice).text.contains("SUMMARY:Standup"))

            // Alice deletes the meeting: Bob's copy stays, cancelled, and his Inbox says so.
            #expect(try await client.dav(.delete, path, as: alice).status == .noContent)
            #expect(try await Self.get(client, bobPath, as: bob).text.contains("STATUS:CANCELLED"))
            // (Bob had no cancellation before, and the Inbox lists messages in no promised order.)
            #expect(try await Self.inbox(client, bob).contains { $0.text.contains("METHOD:CANCEL") })
        }
    }

    @Test("SCHEDULE-AGENT=CLIENT is the client's to send; an attendee deleting their copy declines; another organizer cannot take over a meeting by its UID",
          arguments: TestEnvironment.engines)
    func rules(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine, configure: { $0.workers = 0 }) { harness, client in
            let alice = try await DAVUser.make("alice@example.com", harness: harness, client: client)
            let bob = try await DAVUser.make("bob@example.com", harness: harness, client: client)
            let dan = try await DAVUser.make("dan@example.com", harness: harness, client: client)

            let clientScheduled = meeting(uid: "client-1", organizer: alice.address, attendees: ["ATTENDEE;SCHEDULE-AGENT=CLIENT:\(bob.address)"])
            #expect(try await client.putICS(alice.calendar("personal") + "client-1.ics", as: alice, clientScheduled).status == .created)
            #expect(try await client.dav(.get, bob.calendar("personal") + "client-1.ics", as: bob).status == .notFound)
            #expect(try await Self.inbox(client, bob).isEmpty)

            let path = alice.calendar("personal") + "lunch.ics"
            #expect(try await client.putICS(path, as: alice, meeting(uid: "lunch", organizer: alice.address, attendees: ["ATTENDEE:\(bob.address)"]))
                .status == .created)
            let bobPath = bob.calendar("personal") + "lunch.ics"
            #expect(try await client.dav(.delete, bobPath, as: bob).status == .noContent)
            #expect(Self.attendee(try await Self.get(client, path, as: alice).text, bob.address)?.contains("PARTSTAT=DECLINED") == true, "deleting is declining")

            // Dan writes a meeting with the same UID, inviting Bob: Bob's copy of Alice's meeting
            // is not his to replace (3.8), so nothing of Bob's changes.
            #expect(try await client.putICS(path, as: alice, meeting(uid: "lunch", organizer: alice.address, attendees: ["ATTENDEE:\(bob.address)"],
                                                                      summary: "Lunch again", sequence: 1)).status == .noContent)
            let before = try await Self.get(client, bobPath, as: bob).text
            let forged = meeting(uid: "lunch", organizer: dan.address, attendees: ["ATTENDEE:\(bob.address)"], summary: "Dan's lunch")
            #expect(try await client.putICS(dan.calendar("personal") + "lunch.ics", as: dan, forged).status == .created)
            #expect(Self.attendee(try await Self.get(client, dan.calendar("personal") + "lunch.ics", as: dan).text, bob.address)?.contains("SCHEDULE-STATUS=3.8") == true)
            #expect(try await Self.get(client, bobPath, as: bob).text == before)
            // An answer from someone not invited changes nothing in the organizer's copy.
            let crasher = meeting(uid: "lunch", organizer: alice.address, attendees: ["ATTENDEE;PARTSTAT=ACCEPTED:\(dan.address)"])
            let danCalendar = dan.calendar("personal") + "crash.ics"
            _ = try await client.dav(.delete, dan.calendar("personal") + "lunch.ics", as: dan)
            #expect(try await client.putICS(danCalendar, as: dan, crasher).status == .created)
            #expect(!(try await Self.get(client, path, as: alice).text.contains(dan.address)))
        }
    }

    @Test("a meeting invites at most 100 people; the limit is a CalDAV precondition")
    func tooMany() async throws {
        try await ServerHarness.run(configure: { $0.workers = 0 }) { harness, client in
            let alice = try await DAVUser.make("alice@example.com", harness: harness, client: client)
            let crowd = (0...100).map { "ATTENDEE:mailto:guest\($0)@example.net" }
            let refused = try await client.putICS(alice.calendar("personal") + "crowd.ics", as: alice, meeting(uid: "crowd", organizer: alice.address, attendees: crowd))
            #expect(refused.status == .forbidden && refused.davCondition == .maxAttendeesPerInstance, "\(refused.text)")
        }
    }
}
