import Foundation
import HTTPTypes
import HummingbirdTesting
import ICalendar
import JadwalCore
@testable import JadwalServer
@testable import JadwalMail
@testable import JadwalJobs
import JadwalTestSupport
import NIOCore
import Testing

/// Invitations through the JSON API: `attendees` on an event, the invitee's list with what it
/// runs into, answers, proposals of another time and the organizer's answer to them, the
/// conflict flow's decline and propose; and invitations to people outside the server, emailed
/// through a real SMTP server with the `.ics` read back by Python's icalendar.
@Suite("Invitations over the JSON API and by email")
struct InvitationAPITests {
    struct EventView: Decodable {
        struct Draft: Decodable { let title: String; let start: String; let attendees: [EventAttendee]?; let organizer: EventAttendee? }
        let name: String
        let uid: String
        let event: Draft
    }

    struct Listed: Decodable {
        struct Item: Decodable {
            struct Clash: Decodable { let title: String }
            struct Person: Decodable { let name: String; let email: String }
            let id: String; let title: String; let partstat: String; let state: String; let organizer: Person; let conflicts: [Clash]
            let calendarId: String?; let objectName: String?
        }
        let invitations: [Item]
    }

    struct Proposals: Decodable {
        struct Item: Decodable { struct Person: Decodable { let email: String }; let id: String; let attendee: Person }
        let proposals: [Item]
    }

    static func personalID(_ client: some TestClientProtocol, token: String) async throws -> String {
        try await CalDAVSharingTests.personalID(client, token: token)
    }

    @Test("attendees on a new event invite people; each reads, answers, proposes another time; the organizer takes or keeps it; the conflict flow declines",
          arguments: TestEnvironment.engines)
    func invitations(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine, configure: { $0.workers = 0 }) { harness, client in
            let alice = try await client.signIn("alice@example.com", harness: harness).accessToken
            let bob = try await client.signIn("bob@example.com", harness: harness).accessToken
            let dan = try await client.signIn("dan@example.com", harness: harness).accessToken
            let aliceCalendar = try await Self.personalID(client, token: alice)
            let bobCalendar = try await Self.personalID(client, token: bob)

            // Bob's own plans at 10:30 that day: the invitation runs into them.
            let gym = try await client.send(.post, "/api/v1/calendars/\(bobCalendar)/events",
                                            json: #"{"title": "Gym", "start": "2026-11-24T10:30", "end": "2026-11-24T11:30"}"#, token: bob)
            #expect(gym.status == .created)

            // Bad attendees are refused with what to fix.
            for (body, words) in [
                (#"{"title": "Review", "start": "2026-11-24T10:00", "attendees": [{"email": "bob"}]}"#, "attendees[0].email"),
                (#"{"title": "Review", "start": "2026-11-24T10:00", "attendees": [{"email": "bob@example.com", "name": "a\u0007b"}]}"#, "attendees[0].name"),
                (#"{"title": "Review", "start": "2026-11-24T10:00", "attendees": "bob@example.com"}"#, "'attendees'"),
            ] {
                let refused = try await client.send(.post, "/api/v1/calendars/\(aliceCalendar)/events", json: body, token: alice)
                #expect(refused.status == .badRequest && refused.text.contains(words), "\(body): \(refused.status) \(refused.text)")
            }

            let created = try await client.send(.post, "/api/v1/calendars/\(aliceCalendar)/events", json: """
                {"title": "Review", "start": "2026-11-24T10:00", "end": "2026-11-24T11:00",
                 "attendees": [{"email": "Bob@Example.com", "name": "Bob"}, {"email": "guest@example.net"}]}
                """, token: alice)
            #expect(created.status == .created, "\(created.text)")
            let event = try created.json(EventView.self)
            #expect(event.event.organizer?.email == "alice@example.com")
            let attendees = try #require(event.event.attendees)
            #expect(attendees.map(\.email) == ["bob@example.com", "guest@example.net"] && attendees.map(\.partstat) == ["needs-action", "needs-action"])
            #expect(attendees.map(\.scheduleStatus) == ["1.2", "1.0"], "delivered here; an email pending")

            // Bob sees it, with what it runs into; Dan sees nothing and cannot answer it.
            let listed = try await client.send(.get, "/api/v1/invitations", token: bob).json(Listed.self)
            let invitation = try #require(listed.invitations.first)
            #expect(listed.invitations.count == 1 && invitation.title == "Review" && invitation.organizer.email == "alice@example.com")
            #expect(invitation.conflicts.map(\.title) == ["Gym"], "\(invitation.conflicts)")
            #expect(try await client.send(.get, "/api/v1/invitations", token: dan).json(Listed.self).invitations.isEmpty)
            #expect(try await client.send(.get, "/api/v1/invitations/\(invitation.id)", token: dan).status == .notFound)
            #expect(try await client.send(.post, "/api/v1/invitations/\(invitation.id)/reply", json: #"{"partstat": "accepted"}"#, token: dan).status
                == .notFound)
            // Bad answers: an unknown PARTSTAT, no PARTSTAT, a bad proposal.
            let unknown = try await client.send(.post, "/api/v1/invitations/\(invitation.id)/reply", json: #"{"partstat": "needs-action"}"#, token: bob)
            #expect(unknown.status == .badRequest && unknown.text.contains("accepted, tentative or declined"), "\(unknown.text)")
            #expect(try await client.send(.post, "/api/v1/invitations/\(invitation.id)/reply", json: #"{}"#, token: bob).status == .badRequest)
            let backwards = try await client.send(.post, "/api/v1/invitations/\(invitation.id)/counter",
                                                  json: #"{"start": "2026-11-24T12:00:00Z", "end": "2026-11-24T11:00:00Z"}"#, token: bob)
            #expect(backwards.status == .badRequest && backwards.errorCode == "invalid_proposal", "\(backwards.text)")
            let noZone = try await client.send(.post, "/api/v1/invitations/\(invitation.id)/counter",
                                               json: #"{"start": "2026-11-24 12:00", "end": "2026-11-24T13:00:00Z"}"#, token: bob)
            #expect(noZone.status == .badRequest && noZone.text.contains("'start'"))

            // Bob proposes 14:00; Alice takes it: the meeting moves, Bob is recorded as coming.
            let proposed = try await client.send(.post, "/api/v1/invitations/\(invitation.id)/counter",
                                                  json: #"{"start": "2026-11-24T14:00:00Z", "end": "2026-11-24T15:00:00Z", "comment": "After the gym?"}"#, token: bob)
            #expect(proposed.status == .ok && proposed.text.contains("After the gym?"), "\(proposed.text)")
            let proposals = try await client.send(.get, "/api/v1/proposals", token: alice).json(Proposals.self)
            #expect(proposals.proposals.map(\.attendee.email) == ["bob@example.com"])
            #expect(try await client.send(.post, "/api/v1/proposals/\(invitation.id)/accept", token: bob).status == .notFound, "only the organizer answers it")
            #expect(try await client.send(.post, "/api/v1/proposals/\(invitation.id)/accept", token: alice).status == .noContent)
            let moved = try await client.send(.get, "/api/v1/calendars/\(aliceCalendar)/events/\(event.name)", token: alice).json(EventView.self)
            #expect(moved.event.start.hasPrefix("2026-11-24T14:00"), "\(moved.event.start)")
            #expect(moved.event.attendees?.first { $0.email == "bob@example.com" }?.partstat == "accepted")
            #expect(try await client.send(.post, "/api/v1/proposals/\(invitation.id)/decline", token: alice).errorCode == "no_proposal")

            // The conflict flow on an invitation: not Bob's to move; he declines it instead.
            let lunch = try await client.send(.post, "/api/v1/calendars/\(aliceCalendar)/events", json: """
                {"title": "Lunch", "start": "2026-11-25T12:00", "end": "2026-11-25T13:00", "attendees": [{"email": "bob@example.com"}]}
                """, token: alice).json(EventView.self)
            #expect(try await client.send(.post, "/api/v1/calendars/\(bobCalendar)/events",
                                          json: #"{"title": "Dentist", "start": "2026-11-25T12:30", "end": "2026-11-25T13:30"}"#, token: bob).status == .created)
            try await ConflictAPITests.runJobs(harness)
            let conflicts = try await ConflictAPITests.conflicts(client, token: bob)
            let onLunch = try #require(conflicts.first { $0.event.title == "Lunch" } ?? conflicts.first { $0.event.title == "Dentist" }, "\(conflicts)")
            if onLunch.event.title == "Lunch" {
                let move = try await client.send(.post, "/api/v1/conflicts/\(onLunch.id)/resolve",
                                                 json: #"{"action": "move", "start": "2026-11-25T15:00:00+03:00", "end": "2026-11-25T16:00:00+03:00"}"#, token: bob)
                #expect(move.status == .unprocessableContent && move.errorCode == "not_your_meeting", "\(move.text)")
                let declined = try await client.send(.post, "/api/v1/conflicts/\(onLunch.id)/resolve", json: #"{"action": "decline"}"#, token: bob)
                #expect(declined.status == .ok, "\(declined.text)")
                let aliceLunch = try await client.send(.get, "/api/v1/calendars/\(aliceCalendar)/events/\(lunch.name)", token: alice).json(EventView.self)
                #expect(aliceLunch.event.attendees?.first?.partstat == "declined")
            } else {
                // The dentist was written after the lunch invitation: the conflict is on it, Bob's own event.
                let decline = try await client.send(.post, "/api/v1/conflicts/\(onLunch.id)/resolve", json: #"{"action": "decline"}"#, token: bob)
                #expect(decline.status == .unprocessableContent && decline.errorCode == "not_an_invitation", "\(decline.text)")
            }

            // Taking Bob off: his invitation is cancelled, and answering it is refused.
            let edited = try await client.send(.put, "/api/v1/calendars/\(aliceCalendar)/events/\(event.name)",
                                               json: #"{"title": "Review", "start": "2026-11-24T14:00", "end": "2026-11-24T15:00", "attendees": [{"email": "guest@example.net"}]}"#,
                                               token: alice)
            #expect(edited.status == .ok, "\(edited.text)")
            let after = try await client.send(.get, "/api/v1/invitations/\(invitation.id)", token: bob)
            #expect(after.text.contains(#""state":"cancelled""#), "\(after.text)")
            let late = try await client.send(.post, "/api/v1/invitations/\(invitation.id)/reply", json: #"{"partstat": "accepted"}"#, token: bob)
            #expect(late.status == .conflict && late.errorCode == "invitation_cancelled")
        }
    }

    @Test("an invitation to someone outside the server is emailed with the .ics (METHOD:REQUEST) and answer links that work once; a cancellation is emailed too")
    func email() async throws {
        guard let smtp = try await SMTPTestServer.start() else { return }
        defer { smtp.stop() }
        let transport = SMTPClient(configuration: smtp.configuration(security: .none), logger: TestEnvironment.logger)
        try await ServerHarness.run(configure: { $0.workers = 0 }) { harness, client in
            let alice = try await client.signIn("alice@example.com", harness: harness).accessToken
            #expect(try await client.send(.patch, "/api/v1/me", json: #"{"name": "Alice"}"#, token: alice).status == .ok)
            let calendar = try await Self.personalID(client, token: alice)
            let created = try await client.send(.post, "/api/v1/calendars/\(calendar)/events", json: """
                {"title": "Planning", "start": "2026-11-24T10:00", "end": "2026-11-24T11:00", "timeZone": "Asia/Riyadh",
                 "attendees": [{"email": "guest@example.net", "name": "Guest"}]}
                """, token: alice).json(EventView.self)
            let invitations = Invitations(store: harness.instance.store, clock: harness.clock.clock, random: .system)
            let send = InvitationEmail.handler(invitations: invitations, transport: transport, from: MailAddress("jadwal@jadwal.test", name: "Jadwal"),
                                               publicURL: "https://jadwal.test")
            func runMailJobs() async throws {
                let jobs = try await harness.instance.store.transaction { tx in
                    try await tx.jobs(state: .queued, limit: 500).filter { $0.kind == InvitationMail.kind }
                }
                for job in jobs {
                    try await send(job)
                    try await harness.instance.store.transaction { tx in try await tx.completeJob(id: job.id, at: Date()) }
                }
            }
            try await runMailJobs()
            let after = try await client.send(.get, "/api/v1/calendars/\(calendar)/events/\(created.name)", token: alice).json(EventView.self)
            #expect(after.event.attendees?.first?.scheduleStatus == "1.1", "sent")

            var received = try smtp.received()
            try #require(received.count == 1, "\(received.count) messages")
            let invitation = try ParsedMail.parse(received[0].emlPath)
            #expect(invitation.subject.hasPrefix("Invitation: Planning"), "\(invitation.subject)")
            #expect(invitation.to.first?.addr_spec == "guest@example.net" && invitation.reply_to?.first?.addr_spec == "alice@example.com")
            #expect(invitation.content_type == "multipart/mixed" && invitation.defects.isEmpty, "\(invitation.defects)")
            let inline = try #require(invitation.parts.first { $0.content_type == "text/calendar" })
            #expect(inline.method == "REQUEST")
            let attached = try #require(invitation.parts.first { $0.filename == "invite.ics" })
            let ics = try #require(attached.calendar?.events?.first, "\(attached.calendar?.error ?? "")")
            #expect(attached.calendar?.method == "REQUEST" && ics.uid == created.uid && ics.summary == "Planning" && ics.alarms == 0)
            #expect(ics.organizer.lowercased() == "mailto:alice@example.com" && ics.attendees.map(\.partstat) == ["NEEDS-ACTION"])
            #expect(ics.dtstart?.hasPrefix("2026-11-24T10:00:00+03:00") == true, "\(ics.dtstart ?? "")")
            let text = try #require(invitation.parts.first { $0.content_type == "text/plain" }?.content)
            let accept = try #require(text.split(separator: "\n").first { $0.hasPrefix("Accept: ") }.map { String($0.dropFirst("Accept: ".count)) })
            #expect(accept.hasPrefix("https://jadwal.test/invitations/answer/") && accept.contains("answer=accepted"))

            // The link's page shows the invitation and changes nothing; the button records the answer, once.
            let path = String(accept.dropFirst("https://jadwal.test".count))
            let page = try await client.send(.get, path)
            #expect(page.status == .ok && page.text.contains("Planning") && page.text.contains("alice@example.com"), "\(page.status)")
            let token = try #require(path.split(separator: "/").last?.split(separator: "?").first.map(String.init))
            let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
            let crossSite = try await client.execute(
                uri: "/invitations/answer/\(token)", method: .post, headers: [.contentType: "application/x-www-form-urlencoded", HTTPField.Name("Sec-Fetch-Site")!: "cross-site"],
                body: ByteBuffer(string: "answer=declined")) { $0 }
            #expect(crossSite.status == .forbidden, "another site cannot answer for the guest")
            let answered = try await client.execute(
                uri: "/invitations/answer/\(token)", method: .post, headers: form, body: ByteBuffer(string: "answer=accepted")) { $0 }
            #expect(answered.status == .ok && answered.text.contains("accepted"), "\(answered.status) \(answered.text)")
            let organizerView = try await client.send(.get, "/api/v1/calendars/\(calendar)/events/\(created.name)", token: alice).json(EventView.self)
            #expect(organizerView.event.attendees?.first?.partstat == "accepted")
            let again = try await client.execute(
                uri: "/invitations/answer/\(token)", method: .post, headers: form, body: ByteBuffer(string: "answer=declined")) { $0 }
            #expect(again.status == .conflict, "a link works once")
            #expect(try await client.send(.get, "/invitations/answer/not-a-token").status == .notFound)

            // Cancelled: the guest gets METHOD:CANCEL.
            #expect(try await client.send(.delete, "/api/v1/calendars/\(calendar)/events/\(created.name)", token: alice).status == .noContent)
            try await runMailJobs()
            received = try smtp.received()
            try #require(received.count == 2)
            let cancel = try ParsedMail.parse(received[1].emlPath)
            #expect(cancel.subject.hasPrefix("Cancelled: Planning"))
            let cancelled = try #require(cancel.parts.first { $0.filename == "invite.ics" }?.calendar)
            #expect(cancelled.method == "CANCEL" && cancelled.events?.first?.status == "CANCELLED")
            #expect(cancel.parts.first { $0.content_type == "text/plain" }?.content.contains("answer=") == false, "nothing to answer")
        }
    }

    @Test("an invitation email in the guest's language: Arabic when the organizer wrote LANGUAGE=ar for them")
    func arabicEmail() async throws {
        try await ServerHarness.run(configure: { $0.workers = 0 }) { harness, client in
            let alice = try await DAVUser.make("alice@example.com", harness: harness, client: client)
            let ics = [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Jadwal Tests//EN", "BEGIN:VEVENT", "UID:ar-1", "DTSTAMP:20261101T000000Z",
                "DTSTART:20261124T070000Z", "DURATION:PT1H", "SUMMARY:اجتماع", "ORGANIZER:mailto:alice@example.com",
                "ATTENDEE;LANGUAGE=ar;CN=فاطمة:mailto:fatima@example.net", "END:VEVENT", "END:VCALENDAR",
            ].joined(separator: "\r\n") + "\r\n"
            #expect(try await client.putICS(alice.calendar("personal") + "ar.ics", as: alice, ics).status == .created)
            let job = try #require(try await harness.instance.store.read { tx in try await tx.jobs(state: .queued, limit: 500) }
                .first { $0.kind == InvitationMail.kind })
            let request = try #require(InvitationMail.request(of: job))
            #expect(request.language == .arabic)
            let invitations = Invitations(store: harness.instance.store, clock: harness.clock.clock, random: .system)
            let content = try #require(try await invitations.mail(for: request, publicURL: "https://jadwal.test"))
            let message = InvitationEmail.message(content, from: MailAddress("jadwal@jadwal.test"))
            #expect(message.subject.hasPrefix("دعوة: اجتماع") && message.htmlBody?.contains(#"dir="rtl""#) == true)
            #expect(message.textBody.contains("lang=ar") && message.calendar?.method == "REQUEST")
        }
    }

    struct FoundTimes: Decodable {
        struct Period: Decodable {
            let startText: String, endText: String
            var start: Date { ISO8601DateFormatter().date(from: startText) ?? .distantPast }
            var end: Date { ISO8601DateFormatter().date(from: endText) ?? .distantPast }
            enum CodingKeys: String, CodingKey { case startText = "start", endText = "end" }
        }
        struct Person: Decodable { let email: String; let busyShown: Bool; let busy: [Period] }
        struct Suggestion: Decodable {
            let startText: String, endText: String, explanation: String
            var start: Date { ISO8601DateFormatter().date(from: startText) ?? .distantPast }
            var end: Date { ISO8601DateFormatter().date(from: endText) ?? .distantPast }
            enum CodingKeys: String, CodingKey { case startText = "start", endText = "end", explanation }
        }
        let attendees: [Person]
        let suggestions: [Suggestion]
    }

    @Test("find a time: the API and the event form count the busy time of the people who share it, never that of others, and a chosen time fills the form unsaved",
          arguments: TestEnvironment.engines)
    func findTime(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine, configure: { $0.workers = 0 }) { harness, client in
            let alice = try await client.signIn("alice@example.com", harness: harness).accessToken
            let bob = try await client.signIn("bob@example.com", harness: harness).accessToken
            let carol = try await client.signIn("carol@example.com", harness: harness).accessToken
            let bobCalendar = try await Self.personalID(client, token: bob)
            let carolCalendar = try await Self.personalID(client, token: carol)
            // Bob shares his busy time with Alice and is busy 10:00–12:00; Carol shares nothing and is busy 09:00–10:00.
            #expect(try await client.send(.put, "/api/v1/free-busy/sharing", json: #"{"allow": ["alice@example.com"]}"#, token: bob).status == .ok)
            #expect(try await client.send(.post, "/api/v1/calendars/\(bobCalendar)/events",
                                          json: #"{"title": "Gym", "start": "2026-09-22T10:00:00Z", "end": "2026-09-22T12:00:00Z"}"#, token: bob).status == .created)
            #expect(try await client.send(.post, "/api/v1/calendars/\(carolCalendar)/events",
                                          json: #"{"title": "Dentist", "start": "2026-09-22T09:00:00Z", "end": "2026-09-22T10:00:00Z"}"#, token: carol).status == .created)

            let asked = try await client.send(.post, "/api/v1/meeting-times", json: """
                {"attendees": ["bob@example.com", "carol@example.com", "nobody@example.org"], "start": "2026-09-22T10:00:00Z", "end": "2026-09-22T11:00:00Z"}
                """, token: alice)
            #expect(asked.status == .ok, "\(asked.text)")
            #expect(!asked.text.contains("Gym") && !asked.text.contains("Dentist"), "no titles leave: \(asked.text)")
            let found = try asked.json(FoundTimes.self)
            #expect(found.attendees.map(\.busyShown) == [true, false, false])
            let gymStart = try #require(ISO8601DateFormatter().date(from: "2026-09-22T10:00:00Z"))
            #expect(found.attendees[0].busy.map(\.start) == [gymStart] && found.attendees[0].busy.map { $0.end.timeIntervalSince($0.start) } == [7200])
            #expect(found.attendees[1].busy.isEmpty && found.attendees[2].busy.isEmpty, "not shared and unknown look alike")
            let first = try #require(found.suggestions.first)
            #expect(first.start == gymStart.addingTimeInterval(-3600), "09:00: Carol's dentist does not count, Bob's gym does: \(found.suggestions)")
            #expect(found.suggestions.allSatisfy { $0.end <= gymStart || $0.start >= gymStart.addingTimeInterval(7200) } && !first.explanation.isEmpty)

            // Bad requests say what to fix.
            for (body, code) in [
                (#"{"attendees": [], "start": "2026-09-22T10:00:00Z", "end": "2026-09-22T11:00:00Z"}"#, "invalid_attendees"),
                (#"{"attendees": ["alice@example.com"], "start": "2026-09-22T10:00:00Z", "end": "2026-09-22T11:00:00Z"}"#, "invalid_attendees"),
                (#"{"attendees": ["bob@example.com", "bob"], "start": "2026-09-22T10:00:00Z", "end": "2026-09-22T11:00:00Z"}"#, "'attendees[1]' must be an email address"),
                (#"{"attendees": ["bob@example.com"], "start": "2026-09-22T10:00:00Z", "end": "2026-09-22T09:00:00Z"}"#, "invalid_range"),
                (#"{"attendees": ["bob@example.com"], "start": "tomorrow", "end": "2026-09-22T09:00:00Z"}"#, "invalid_field"),
                (#"{"attendees": ["bob@example.com"], "start": "2026-09-22T10:00:00Z", "end": "2026-09-22T11:00:00Z", "count": 0}"#, "invalid_field"),
            ] {
                let refused = try await client.send(.post, "/api/v1/meeting-times", json: body, token: alice)
                #expect(refused.status == .badRequest && refused.text.contains(code), "\(body): \(refused.status) \(refused.text)")
            }
            #expect(try await client.send(.post, "/api/v1/meeting-times", json: #"{"attendees": ["bob@example.com"], "start": "2026-09-22T10:00:00Z", "end": "2026-09-22T11:00:00Z"}"#).status == .unauthorized)

            // The event form: "Find a time" lists who counted and the times; a time chosen fills the form; nothing is saved until Save.
            var browser = TestBrowser()
            try await browser.signIn("alice@example.com", client: client, harness: harness)
            let page = try await browser.get(client, "/events/new?date=2026-09-22")
            #expect(page.text.contains(#"id="find-time""#) && page.text.contains(#"name="zone" value="UTC""#), "\(page.text)")
            let csrf = try #require(TestBrowser.csrf(in: page))
            let fields: [(String, String)] = [
                ("title", "Review"), ("startDate", "2026-09-22"), ("startTime", "10:00"), ("endDate", "2026-09-22"), ("endTime", "11:00"), ("zone", "UTC"),
                ("attendees", "Bob <bob@example.com>\ncarol@example.com"),
            ]
            let answer = try await browser.post(client, "/events/new", fields + [("intent", "find-time")], csrf: csrf)
            #expect(answer.status == .ok, "\(answer.status)")
            #expect(answer.text.contains(#"id="find-time-results""#) && answer.text.contains("busy time taken into account")
                    && answer.text.contains("busy time not shared with you"), "\(answer.text)")
            #expect(!answer.text.contains("Gym") && !answer.text.contains("Dentist"))
            let slot = try #require(TestBrowser.first(#"name="slot" value="([^"]+)" id="find-slot-0""#, in: answer.text), "\(answer.text)")
            #expect(slot == "2026-09-22T09:00/2026-09-22T10:00")
            let chosen = try await browser.post(client, "/events/new", fields + [("slot", slot)], csrf: csrf)
            #expect(chosen.status == .ok && chosen.text.contains(#"id="startTime" name="startTime" type="time" value="09:00""#)
                    && chosen.text.contains(#"name="endTime" type="time" value="10:00""#) && chosen.text.contains("Save to keep it"), "\(chosen.text)")
            let events = try await client.send(.get, "/api/v1/events?start=2026-09-21&end=2026-09-24", token: alice)
            #expect(!events.text.contains("Review"), "nothing saved yet: \(events.text)")
            let noPeople = try await browser.post(client, "/events/new", [("title", "Solo"), ("startDate", "2026-09-22"), ("startTime", "10:00"),
                                                                          ("endDate", "2026-09-22"), ("endTime", "11:00"), ("intent", "find-time")], csrf: csrf)
            #expect(noPeople.status == .ok && noPeople.text.contains("Add the people to invite first"), "\(noPeople.text)")
            let badPerson = try await browser.post(client, "/events/new", fields.map { $0.0 == "attendees" ? ($0.0, "bob") : $0 } + [("intent", "find-time")], csrf: csrf)
            #expect(badPerson.status == .ok && badPerson.text.contains(#"id="find-time-results""#)
                    && badPerson.text.contains("&#39;attendees[0]&#39; must be an email address such as sara@example.com"), "\(badPerson.text)")
            // Saving the chosen time invites them at 09:00.
            let saved = try await browser.post(client, "/events/new", fields.map { $0.0 == "startTime" ? ($0.0, "09:00") : $0.0 == "endTime" ? ($0.0, "10:00") : $0 },
                                               csrf: csrf)
            #expect(saved.status == .seeOther)
            let after = try await client.send(.get, "/api/v1/events?start=2026-09-21&end=2026-09-24", token: alice)
            #expect(after.text.contains("Review") && after.text.contains("2026-09-22T09:00"), "\(after.text)")
        }
    }
}
