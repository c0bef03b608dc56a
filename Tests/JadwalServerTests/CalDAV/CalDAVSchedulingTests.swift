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

extension HTTPRequest.Method {
    static let post = Self("POST")!
}

extension DAVUser {
    var inbox: String { principal + "inbox/" }
    var outbox: String { principal + "outbox/" }
    var address: String { "mailto:\(email)" }
}

/// A meeting `organizer` invites `attendees` to, with each attendee's PARTSTAT.
private func meeting(
    uid: String, organizer: String, attendees: [(String, String)], summary: String = "Planning", start: String = "20261123T100000Z",
    stamp: String = "20261101T000000Z", extra: [String] = []
) -> String {
    var lines = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Jadwal Tests//EN", "BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:\(stamp)",
        "DTSTART:\(start)", "DURATION:PT1H", "SUMMARY:\(summary)", "ORGANIZER;CN=Organizer:\(organizer)",
    ]
    lines += attendees.map { "ATTENDEE;RSVP=TRUE;PARTSTAT=\($0.1):\($0.0)" }
    lines += extra
    lines += ["END:VEVENT", "END:VCALENDAR"]
    return lines.joined(separator: "\r\n") + "\r\n"
}

/// A VFREEBUSY REQUEST as python caldav's `principal.freebusy_request` sends it.
private func freeBusyRequest(organizer: String, attendees: [String], start: String = "20261123T000000Z", end: String = "20261124T000000Z") -> String {
    var lines = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Jadwal Tests//EN", "METHOD:REQUEST", "BEGIN:VFREEBUSY", "UID:fb-request-1",
        "DTSTAMP:20261101T000000Z", "DTSTART:\(start)", "DTEND:\(end)", "ORGANIZER:\(organizer)",
    ]
    lines += attendees.map { "ATTENDEE:\($0)" }
    lines += ["END:VFREEBUSY", "END:VCALENDAR"]
    return lines.joined(separator: "\r\n") + "\r\n"
}

private let scheduleTagHeader = HTTPField.Name("Schedule-Tag")!
private let ifScheduleTagMatch = HTTPField.Name("If-Schedule-Tag-Match")!

@Suite("CalDAV scheduling (RFC 6638): Inbox and Outbox, Schedule-Tag, busy time through the Outbox")
struct CalDAVSchedulingTests {
    @Test("calendar-auto-schedule in OPTIONS; the principal names its Inbox and Outbox; both answer PROPFIND; others' are 404")
    func mailboxes() async throws {
        try await ServerHarness.run { harness, client in
            let user = try await DAVUser.make("Sched@Example.com", harness: harness, client: client)
            let other = try await DAVUser.make("other@example.com", harness: harness, client: client)

            let options = try await client.dav(.options, user.principal, as: nil)
            #expect(options.headers[HTTPField.Name("DAV")!]?.contains("calendar-auto-schedule") == true)
            #expect(options.headers[.allow]?.contains("POST") == true)

            let principal = try ParsedMultistatus(try await client.propfind(user.principal, as: user, [
                "c:schedule-inbox-URL", "c:schedule-outbox-URL", "c:calendar-user-address-set", "c:calendar-user-type",
            ]))
            let me = try #require(principal[user.principal])
            #expect(me.hrefs(.scheduleInboxURL) == [user.inbox])
            #expect(me.hrefs(.scheduleOutboxURL) == [user.outbox])
            #expect(me.hrefs(.calendarUserAddressSet).first == "mailto:sched@example.com", "the address clients put in ORGANIZER comes first")
            #expect(me.text(.calendarUserType) == "INDIVIDUAL")

            let properties = ["d:resourcetype", "d:displayname", "d:owner", "d:current-user-privilege-set", "c:schedule-default-calendar-URL"]
            func privileges(_ entry: ParsedMultistatus.Entry) -> [QualifiedName] {
                entry.value(.currentUserPrivilegeSet)?.elements.compactMap { $0.elements.first?.name } ?? []
            }
            let inbox = try ParsedMultistatus(try await client.propfind(user.inbox, as: user, depth: "1", properties))
            #expect(inbox.hrefs == [user.inbox], "nothing was delivered yet, so the Inbox is empty")
            let inboxEntry = try #require(inbox[user.inbox])
            #expect(inboxEntry.value(.resourceType)?.contains(.scheduleInbox) == true && inboxEntry.value(.resourceType)?.contains(.collection) == true)
            #expect(inboxEntry.hrefs(.owner) == [user.principal])
            #expect(inboxEntry.hrefs(.scheduleDefaultCalendarURL) == [user.calendar("personal")])
            #expect(Set(privileges(inboxEntry)).isSuperset(of: [.dav("read"), .scheduleDeliver, .scheduleDeliverInvite, .scheduleDeliverReply, .scheduleQueryFreebusy]))
            #expect(!privileges(inboxEntry).contains(.dav("write")))

            let outbox = try ParsedMultistatus(try await client.propfind(user.outbox, as: user, depth: "0", properties))
            let outboxEntry = try #require(outbox[user.outbox])
            #expect(outboxEntry.value(.resourceType)?.contains(.scheduleOutbox) == true)
            #expect(Set(privileges(outboxEntry)).isSuperset(of: [.dav("read"), .scheduleSend, .scheduleSendInvite, .scheduleSendReply, .scheduleSendFreebusy]))
            #expect(outboxEntry.properties[.scheduleDefaultCalendarURL]?.status == 404, "the default calendar is a property of the Inbox")

            // Depth 1 on the principal lists both, and the notification collection beside them; an
            // unknown segment beside them is not a resource.
            let members = try ParsedMultistatus(try await client.propfind(user.principal, as: user, depth: "1", ["d:resourcetype"])).hrefs
            #expect(members == [user.principal, user.inbox, user.outbox, user.principal + "notifications/"])
            #expect(try await client.propfind(user.principal + "drafts/", as: user, ["d:resourcetype"]).status == .notFound)
            #expect(try await client.dav(.get, user.inbox, as: user).status == .ok)

            // Another person's mailboxes look like paths that do not exist, for every method.
            for path in [other.inbox, other.outbox] {
                #expect(try await client.propfind(path, as: user, ["d:resourcetype"]).status == .notFound, "\(path)")
                #expect(try await client.dav(.get, path, as: user).status == .notFound, "\(path)")
            }
            let foreignPost = try await client.dav(
                .post, other.outbox, as: user, body: freeBusyRequest(organizer: user.address, attendees: [other.address]), contentType: "text/calendar")
            #expect(foreignPost.status == .notFound)

            // The mailboxes are not calendars: no sync, no writes.
            let sync = try await client.dav(.report, user.inbox, as: user, body: """
                <d:sync-collection xmlns:d="DAV:"><d:sync-token/><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>
                """)
            #expect(sync.status == .forbidden && sync.davCondition == .supportedReport)
            #expect(try await client.putICS(user.inbox + "x.ics", as: user, ICS.event(uid: "x")).status == .methodNotAllowed, "only the server delivers")
            #expect(try await client.dav(.delete, user.inbox + "x.ics", as: user).status == .notFound)
            #expect(try await client.dav(.delete, user.inbox, as: user).status == .forbidden)
            let proppatch = try await client.dav(.proppatch, user.inbox, as: user, body: """
                <d:propertyupdate xmlns:d="DAV:"><d:set><d:prop><d:displayname>Mine</d:displayname></d:prop></d:set></d:propertyupdate>
                """)
            // The status line, not "403" anywhere: account ids in the hrefs are random hex.
            #expect(proppatch.status.code == 207 && proppatch.text.contains("HTTP/1.1 403"))
        }
    }

    @Test("Schedule-Tag on PUT, GET and PROPFIND; kept when only PARTSTAT changes, new when the meeting changes; If-Schedule-Tag-Match", arguments: TestEnvironment.engines)
    func scheduleTag(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let user = try await DAVUser.make("organizer@example.com", harness: harness, client: client)
            let path = user.calendar("personal") + "planning.ics"
            let guest = "mailto:guest@example.net"
            let original = meeting(uid: "planning", organizer: user.address, attendees: [(user.address, "ACCEPTED"), (guest, "NEEDS-ACTION")])

            let created = try await client.putICS(path, as: user, original)
            #expect(created.status == .created, "\(created.text)")
            let tag = try #require(created.headers[scheduleTagHeader])
            #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && tag != created.headers[.eTag])

            let fetched = try await client.dav(.get, path, as: user)
            // The guest is outside the server: an email is queued, and the copy says so (1.0, pending).
            #expect(fetched.headers[scheduleTagHeader] == tag, "\(fetched.text)")
            #expect(fetched.text.replacingOccurrences(of: "\r\n ", with: "").contains("SCHEDULE-STATUS=1.0:\(guest)"), "\(fetched.text)")
            #expect(try await client.dav(.head, path, as: user).headers[scheduleTagHeader] == tag)
            func propfindTag() async throws -> String? {
                try ParsedMultistatus(try await client.propfind(path, as: user, ["c:schedule-tag", "d:getetag"])).entries.first?.text(.scheduleTag)
            }
            #expect(try await propfindTag() == tag)
            let multiget = try ParsedMultistatus(try await client.dav(.report, user.calendar("personal"), as: user, body: """
                <c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:schedule-tag/></d:prop>
                <d:href>\(path)</d:href></c:calendar-multiget>
                """))
            #expect(multiget[path]?.text(.scheduleTag) == tag, "reports answer it too: python caldav asks in every query")

            // The guest's reply recorded by a client: PARTSTAT (and the stamps a client rewrites)
            // change, the meeting does not, so the tag stays and the ETag moves on.
            let replied = meeting(
                uid: "planning", organizer: user.address, attendees: [(user.address, "ACCEPTED"), (guest, "ACCEPTED")], stamp: "20261102T090000Z",
                extra: ["LAST-MODIFIED:20261102T090000Z"])
            let afterReply = try await client.putICS(path, as: user, replied, headers: [ifScheduleTagMatch: tag])
            #expect(afterReply.status == .noContent, "\(afterReply.text)")
            #expect(afterReply.headers[scheduleTagHeader] == tag && afterReply.headers[.eTag] != created.headers[.eTag])
            #expect(try await propfindTag() == tag)

            // The organizer moves the meeting: a new tag, and the old one no longer matches.
            let moved = replied.replacingOccurrences(of: "DTSTART:20261123T100000Z", with: "DTSTART:20261124T100000Z")
            let afterMove = try await client.putICS(path, as: user, moved, headers: [ifScheduleTagMatch: tag])
            #expect(afterMove.status == .noContent)
            let newTag = try #require(afterMove.headers[scheduleTagHeader])
            #expect(newTag != tag)
            #expect(try await client.dav(.get, path, as: user).headers[scheduleTagHeader] == newTag)
            let renamed = moved.replacingOccurrences(of: "SUMMARY:Planning", with: "SUMMARY:Planning (room 2)")
            let stale = try await client.putICS(path, as: user, renamed, headers: [ifScheduleTagMatch: tag])
            #expect(stale.status == .preconditionFailed, "a stale Schedule-Tag is 412")
            #expect(try await client.dav(.get, path, as: user).text.contains("DTSTART:20261124T100000Z") == true, "and nothing was written")
            #expect(try await client.dav(.get, path, as: user).text.contains("room 2") == false)
            #expect(try await client.putICS(path, as: user, renamed, headers: [ifScheduleTagMatch: newTag, .ifMatch: "\"stale\""]).status == .preconditionFailed)
            #expect(try await client.dav(.delete, path, as: user, headers: [ifScheduleTagMatch: tag]).status == .preconditionFailed)
            #expect(try await client.putICS(user.calendar("personal") + "new.ics", as: user, original, headers: [ifScheduleTagMatch: tag]).status
                == .preconditionFailed, "no object, no tag")

            // Property order, folding and alarms are not the meeting: re-serialised, it keeps its tag.
            let reordered = moved
                .replacingOccurrences(of: "SUMMARY:Planning\r\nORGANIZER;CN=Organizer:\(user.address)", with: "ORGANIZER;CN=Organizer:\(user.address)\r\nSUMMARY:Planning")
                .replacingOccurrences(of: "END:VEVENT", with: "BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT10M\r\nDESCRIPTION:Soon\r\nEND:VALARM\r\nEND:VEVENT")
            #expect(reordered != moved)
            #expect(try await client.putICS(path, as: user, reordered).headers[scheduleTagHeader] == newTag)

            // A MOVE answers with the tag of the object at its destination.
            let relocated = user.calendar("whatsapp-events") + "planning.ics"
            let move = try await client.dav(.move, path, as: user, headers: [HTTPField.Name("Destination")!: relocated, ifScheduleTagMatch: newTag])
            #expect(move.status == .created && move.headers[scheduleTagHeader] == newTag)
            #expect(try await client.dav(.delete, relocated, as: user, headers: [ifScheduleTagMatch: newTag]).status == .noContent)

            // An invitation received: another ORGANIZER, this user among the ATTENDEEs. Their own
            // answer keeps the tag.
            let invitePath = user.calendar("personal") + "invite.ics"
            let invite = meeting(uid: "invite", organizer: "mailto:boss@example.org", attendees: [(user.address, "NEEDS-ACTION")])
            let inviteTag = try #require(try await client.putICS(invitePath, as: user, invite).headers[scheduleTagHeader])
            let accepted = invite.replacingOccurrences(of: "PARTSTAT=NEEDS-ACTION", with: "PARTSTAT=ACCEPTED")
            #expect(try await client.putICS(invitePath, as: user, accepted, headers: [ifScheduleTagMatch: inviteTag]).headers[scheduleTagHeader] == inviteTag)

            // Not scheduling object resources: no ORGANIZER, or a meeting this user is not part of.
            let plainPath = user.calendar("personal") + "plain.ics"
            let plain = try await client.putICS(plainPath, as: user, ICS.event(uid: "plain"))
            #expect(plain.status == .created && plain.headers[scheduleTagHeader] == nil)
            #expect(try await client.dav(.get, plainPath, as: user).headers[scheduleTagHeader] == nil)
            let plainProps = try ParsedMultistatus(try await client.propfind(plainPath, as: user, ["c:schedule-tag"]))
            #expect(plainProps.entries.first?.properties[.scheduleTag]?.status == 404)
            #expect(try await client.putICS(plainPath, as: user, ICS.event(uid: "plain", summary: "Edited"), headers: [ifScheduleTagMatch: "\"x\""]).status
                == .preconditionFailed)
            let strangers = meeting(uid: "strangers", organizer: "mailto:a@example.org", attendees: [("mailto:b@example.org", "ACCEPTED")])
            #expect(try await client.putICS(user.calendar("personal") + "strangers.ics", as: user, strangers).headers[scheduleTagHeader] == nil)

            // The tag answers later requests too, and a matching one lets the attendee delete their copy.
            #expect(try await client.dav(.get, invitePath, as: user).headers[scheduleTagHeader] == inviteTag)
            #expect(try await client.dav(.delete, invitePath, as: user, headers: [ifScheduleTagMatch: inviteTag]).status == .noContent)
        }
    }

    @Test("busy time through the Outbox: the busy periods of people who allow the asker; 3.7 alike for unknown, disabled and not-allowing ones; refusals", arguments: TestEnvironment.engines)
    func freeBusy(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let alice = try await DAVUser.make("alice@example.com", harness: harness, client: client)
            let bob = try await DAVUser.make("bob@example.com", harness: harness, client: client)
            let carol = try await DAVUser.make("carol@example.com", harness: harness, client: client)
            // Bob (Asia/Riyadh by default) is busy 10:00–11:00 and 10:30–12:00 local on 23 November,
            // tentatively 14:00–15:00; a transparent event and a cancelled one do not count, nor does
            // a calendar he marked transparent for scheduling.
            func put(_ calendar: String, _ name: String, _ ics: String) async throws {
                let response = try await client.putICS(bob.calendar(calendar) + name, as: bob, ics)
                #expect(response.status == .created, "\(response.text)")
            }
            try await put("personal", "a.ics", ICS.event(uid: "a", start: "20261123T100000"))
            try await put("personal", "b.ics", ICS.event(uid: "b", start: "20261123T103000", duration: "PT90M"))
            try await put("personal", "c.ics", ICS.event(uid: "c", start: "20261123T140000", extra: ["STATUS:TENTATIVE"]))
            try await put("personal", "d.ics", ICS.event(uid: "d", start: "20261123T160000", extra: ["TRANSP:TRANSPARENT"]))
            try await put("personal", "e.ics", ICS.event(uid: "e", start: "20261123T170000", extra: ["STATUS:CANCELLED"]))
            let transparent = try await client.dav(.proppatch, bob.calendar("whatsapp-events"), as: bob, body: """
                <d:propertyupdate xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:set><d:prop>
                <c:schedule-calendar-transp><c:transparent/></c:schedule-calendar-transp></d:prop></d:set></d:propertyupdate>
                """)
            #expect(transparent.status.code == 207 && !transparent.text.contains("HTTP/1.1 403"))
            try await put("whatsapp-events", "f.ics", ICS.event(uid: "f", start: "20261123T200000"))
            try await harness.instance.store.transaction { tx in
                guard var account = try await tx.account(email: try EmailAddress("carol@example.com")) else { return }
                account.disabledAt = Date()
                try await tx.updateAccount(account)
            }

            let request = freeBusyRequest(
                organizer: alice.address, attendees: ["MAILTO:Bob@Example.com", "mailto:nobody@example.com", carol.address, alice.address])
            // Nobody sees Bob's busy time until he allows it; his answer is then an unknown address's.
            let before = try await client.dav(.post, alice.outbox, as: alice, body: request, contentType: "text/calendar; charset=utf-8")
            let statusesBefore = try XMLReader().read(Data(buffer: before.body)).elements(named: .scheduleResponseItem)
                .map { $0.first(.requestStatus)?.trimmedText }
            #expect(statusesBefore == ["3.7;Invalid calendar user", "3.7;Invalid calendar user", "3.7;Invalid calendar user", "2.0;Success"])
            #expect(!before.text.contains("FREEBUSY:2026"), "nothing of Bob's busy time leaves before he allows it")
            let bobSession = try await client.signIn(bob.email, harness: harness)
            let allowed = try await client.send(.put, "/api/v1/free-busy/sharing", json: #"{"allow": ["Alice@Example.com"]}"#, token: bobSession.accessToken)
            #expect(allowed.status == .ok && allowed.text.contains("alice@example.com"), "\(allowed.text)")
            let answer = try await client.dav(.post, alice.outbox, as: alice, body: request, contentType: "text/calendar; charset=utf-8")
            #expect(answer.status == .ok, "\(answer.text)")
            #expect(answer.headers[.contentType]?.hasPrefix("application/xml") == true)
            let root = try XMLReader().read(Data(buffer: answer.body))
            #expect(root.name == .scheduleResponse)
            let items = root.elements(named: .scheduleResponseItem)
            #expect(items.map { $0.first(.recipient)?.first(.href)?.trimmedText } == [
                "MAILTO:Bob@Example.com", "mailto:nobody@example.com", carol.address, alice.address,
            ], "one answer per recipient, as addressed")
            #expect(items.allSatisfy { $0.elements.map(\.name).allSatisfy { [.recipient, .requestStatus, .calendarData].contains($0) } },
                    "only what python caldav reads: it refuses any other child")
            #expect(items.map { $0.first(.requestStatus)?.trimmedText } == [
                "2.0;Success", "3.7;Invalid calendar user", "3.7;Invalid calendar user", "2.0;Success",
            ], "a disabled account is answered like an unknown address")
            let bobData = try #require(items.first?.first(.calendarData)?.text)
            let lines = bobData.components(separatedBy: "\r\n")
            #expect(lines.contains("METHOD:REPLY") && lines.contains("UID:fb-request-1"))
            #expect(lines.contains("DTSTART:20261123T000000Z") && lines.contains("DTEND:20261124T000000Z"))
            #expect(lines.contains("ORGANIZER:\(alice.address)") && lines.contains("ATTENDEE:MAILTO:Bob@Example.com"))
            #expect(lines.filter { $0.hasPrefix("FREEBUSY") } == ["FREEBUSY:20261123T070000Z/PT2H", "FREEBUSY;FBTYPE=BUSY-TENTATIVE:20261123T110000Z/PT1H"])
            #expect(!bobData.contains("SUMMARY"), "busy time only, never what it is taken by")
            let aliceData = try #require(items.last?.first(.calendarData)?.text)
            #expect(!aliceData.contains("FREEBUSY:"), "alice has nothing on that day")

            // The principal URL is an address too (RFC 6638 §2.4.1).
            let byPrincipal = try await client.dav(
                .post, alice.outbox, as: alice, body: freeBusyRequest(organizer: alice.principal, attendees: ["http://localhost" + bob.principal]),
                contentType: "text/calendar")
            #expect(byPrincipal.status == .ok && byPrincipal.text.contains("2.0;Success") && byPrincipal.text.contains("FREEBUSY:20261123T070000Z/PT2H"))

            // Refusals, each with its precondition.
            func post(_ body: String, to path: String? = nil, type: String = "text/calendar") async throws -> TestResponse {
                try await client.dav(.post, path ?? alice.outbox, as: alice, body: body, contentType: type)
            }
            let notOrganizer = try await post(freeBusyRequest(organizer: bob.address, attendees: [bob.address]))
            #expect(notOrganizer.status == .forbidden && notOrganizer.davCondition == .organizerAllowed)
            let invitation = try await post(meeting(uid: "m", organizer: alice.address, attendees: [(bob.address, "NEEDS-ACTION")])
                .replacingOccurrences(of: "VERSION:2.0", with: "VERSION:2.0\r\nMETHOD:REQUEST"))
            #expect(invitation.status == .forbidden && invitation.davCondition == .validSchedulingMessage)
            let noMethod = try await post(freeBusyRequest(organizer: alice.address, attendees: [bob.address]).replacingOccurrences(of: "METHOD:REQUEST\r\n", with: ""))
            #expect(noMethod.status == .forbidden && noMethod.davCondition == .validSchedulingMessage)
            let nobody = try await post(freeBusyRequest(organizer: alice.address, attendees: []))
            #expect(nobody.status == .forbidden && nobody.davCondition == .validSchedulingMessage)
            let backwards = try await post(freeBusyRequest(organizer: alice.address, attendees: [bob.address], start: "20261124T000000Z", end: "20261123T000000Z"))
            #expect(backwards.status == .forbidden && backwards.davCondition == .validSchedulingMessage)
            let broken = try await post("BEGIN:VCALENDAR\r\nEND:VEVENT\r\n")
            #expect(broken.status == .forbidden && broken.davCondition == .validCalendarData)
            let json = try await post("{}", type: "application/json")
            #expect(json.status == .forbidden && json.davCondition == .supportedCalendarData)
            let toInbox = try await post(freeBusyRequest(organizer: alice.address, attendees: [bob.address]), to: alice.inbox)
            #expect(toInbox.status == .methodNotAllowed && toInbox.headers[.allow]?.contains("POST") == true)
            let toCalendar = try await post(freeBusyRequest(organizer: alice.address, attendees: [bob.address]), to: alice.calendar("personal"))
            #expect(toCalendar.status == .methodNotAllowed)
        }
    }
}
