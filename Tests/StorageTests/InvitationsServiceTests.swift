import Foundation
import ICalendar
import JadwalCore
import JadwalTestSupport
import Storage
import Testing

/// Invitations in process, on a real store: three accounts of one server and a guest outside it.
/// A meeting written by its organizer reaches each attendee in the same transaction; answers,
/// proposals and the organizer's answer to them go through `Invitations`; nobody answers or
/// reads an invitation that is not theirs.
@Suite("Invitations service on every engine")
struct InvitationsServiceTests {
    /// 2026-09-21 17:13 in Riyadh.
    static let t0 = Date(timeIntervalSince1970: 1_790_000_000)

    struct People {
        let alice: Account, bob: Account, carol: Account, dan: Account
    }

    static func people(_ store: SQLStore) async throws -> People {
        func make(_ email: String, _ name: String, _ language: Language = .english) throws -> Account {
            Account(id: UUID(), email: try EmailAddress(email), name: name, timeZone: "Asia/Riyadh", language: language, createdAt: t0)
        }
        let people = People(alice: try make("alice@example.com", "Alice"), bob: try make("bob@example.com", "Bob"),
                            carol: try make("carol@example.com", "Carol", .arabic), dan: try make("dan@example.com", "Dan"))
        try await store.transaction { tx in
            for account in [people.alice, people.bob, people.carol, people.dan] { try await tx.insertAccountWithDefaultCalendars(account, now: t0, random: .system) }
        }
        return people
    }

    static func personal(_ store: SQLStore, _ account: Account) async throws -> CalendarCollection {
        try #require(try await store.read { tx in try await tx.calendar(accountID: account.id, slug: "personal") })
    }

    static func meeting(uid: String, organizer: Account, attendees: [String], summary: String = "Review", start: String = "20260924T100000",
                        rrule: String? = nil) throws -> CalendarObjectContent {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Jadwal Tests//EN", "BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20260901T000000Z",
                     "DTSTART;TZID=Asia/Riyadh:\(start)", "DURATION:PT1H", "SUMMARY:\(summary)", "ORGANIZER;CN=\(organizer.name):mailto:\(organizer.email.value)"]
        if let rrule { lines.append("RRULE:\(rrule)") }
        lines += attendees.map { "ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:\($0)" }
        lines += ["END:VEVENT", "END:VCALENDAR"]
        return try CalendarObjectContent(text: lines.joined(separator: "\r\n") + "\r\n")
    }

    static func copy(_ store: SQLStore, _ account: Account, uid: String) async throws -> CalendarObject? {
        try await store.read { tx in
            for calendar in try await tx.calendars(accountID: account.id) {
                if let object = try await tx.calendarObject(calendarID: calendar.id, uid: uid) { return object }
            }
            return nil
        }
    }

    static func status(_ text: String, of email: String) -> String? {
        let unfolded = text.replacingOccurrences(of: "\r\n ", with: "")
        guard let line = unfolded.split(separator: "\r\n").first(where: { $0.hasPrefix("ATTENDEE") && $0.lowercased().hasSuffix(":mailto:" + email) }) else {
            return nil
        }
        return line.split(separator: ";").first { $0.hasPrefix("PARTSTAT=") }.map { String($0.dropFirst("PARTSTAT=".count).prefix { $0 != ":" }) }
    }

    @Test("an organizer's write reaches both attendees of the server in its transaction and queues an email for the guest; answers come back; strangers see nothing",
          arguments: TestEnvironment.engines)
    func delivery(engine: TestEngine) async throws {
        let store = try await TestEnvironment.freshStore(engine)
        let clock = TestClock(Self.t0)
        let p = try await Self.people(store)
        let writes = CalendarWrites(store: store, clock: clock.clock, random: .system)
        let invitations = Invitations(store: store, clock: clock.clock, random: .system)
        // Bob already has something at that time: the invitation says so before he answers.
        let gym = try CalendarObjectContent(text: [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Jadwal Tests//EN", "BEGIN:VEVENT", "UID:gym", "DTSTAMP:20260901T000000Z",
            "DTSTART;TZID=Asia/Riyadh:20260924T103000", "DURATION:PT1H", "SUMMARY:Gym", "END:VEVENT", "END:VCALENDAR",
        ].joined(separator: "\r\n") + "\r\n")
        _ = try await writes.put(gym, name: "gym.ics", in: try await Self.personal(store, p.bob), source: .api)

        let review = try Self.meeting(uid: "review-1", organizer: p.alice, attendees: ["bob@example.com", "carol@example.com", "guest@example.net"])
        let (stored, created) = try await writes.put(review, name: "review.ics", in: try await Self.personal(store, p.alice), source: .api)
        #expect(created && stored.icalendar.contains("SCHEDULE-STATUS"))
        for person in [p.bob, p.carol] {
            let copy = try #require(try await Self.copy(store, person, uid: "review-1"), "\(person.email.value)")
            #expect(Self.status(copy.icalendar, of: person.email.value) == "NEEDS-ACTION")
            #expect(try await invitations.inbox(of: person).map(\.method) == [.request])
        }
        let jobs = try await store.read { tx in try await tx.jobs(state: .queued, limit: 500) }
        let mail = jobs.filter { $0.kind == InvitationMail.kind }.compactMap(InvitationMail.request(of:))
        #expect(mail.map(\.to) == ["guest@example.net"] && mail.first?.method == .request && mail.first?.invitationID != nil)

        let bobs = try await invitations.received(by: p.bob)
        try #require(bobs.count == 1)
        #expect(bobs[0].invitation.partstat == .needsAction && bobs[0].organizerEmail == p.alice.email)
        #expect(bobs[0].clashes.map(\.title) == ["Gym"], "\(bobs[0].clashes)")
        #expect(try await invitations.received(by: p.dan).isEmpty, "a stranger has no invitation")
        await #expect(throws: Invitations.Problem.notFound) { try await invitations.reply(id: bobs[0].invitation.id, by: p.dan, status: .accepted) }
        await #expect(throws: Invitations.Problem.notFound) { _ = try await invitations.received(id: bobs[0].invitation.id, by: p.carol) }
        #expect(throws: Invitations.Problem.notAnAnswer("maybe")) { try Invitations.answer("maybe") }
        #expect(try Invitations.answer("Tentative") == .tentative)

        try await invitations.reply(id: bobs[0].invitation.id, by: p.bob, status: .accepted)
        let organizerCopy = try #require(try await Self.copy(store, p.alice, uid: "review-1"))
        #expect(Self.status(organizerCopy.icalendar, of: "bob@example.com") == "ACCEPTED")
        #expect(try await invitations.inbox(of: p.alice).map(\.method) == [.reply])
        #expect(try await invitations.received(by: p.bob).first?.invitation.partstat == .accepted)

        // Carol deletes her copy: that is a decline; answering again from Jadwal makes it anew.
        let carols = try #require(try await Self.copy(store, p.carol, uid: "review-1"))
        try await writes.delete(name: carols.name, in: try await Self.personal(store, p.carol), source: .caldav)
        #expect(Self.status(try #require(try await Self.copy(store, p.alice, uid: "review-1")).icalendar, of: "carol@example.com") == "DECLINED")
        let carolInvitation = try #require(try await invitations.received(by: p.carol).first)
        try await invitations.reply(id: carolInvitation.invitation.id, by: p.carol, status: .tentative)
        #expect(Self.status(try #require(try await Self.copy(store, p.carol, uid: "review-1")).icalendar, of: "carol@example.com") == "TENTATIVE")
        #expect(Self.status(try #require(try await Self.copy(store, p.alice, uid: "review-1")).icalendar, of: "carol@example.com") == "TENTATIVE")
        try await store.shutdown()
    }

    @Test("propose another time: the organizer accepts (the meeting moves, everyone is asked again) or declines (the proposer is told)",
          arguments: TestEnvironment.engines)
    func proposals(engine: TestEngine) async throws {
        let store = try await TestEnvironment.freshStore(engine)
        let clock = TestClock(Self.t0)
        let p = try await Self.people(store)
        let writes = CalendarWrites(store: store, clock: clock.clock, random: .system)
        let invitations = Invitations(store: store, clock: clock.clock, random: .system)
        _ = try await writes.put(
            try Self.meeting(uid: "plan-1", organizer: p.alice, attendees: ["bob@example.com", "carol@example.com"]), name: "plan.ics",
            in: try await Self.personal(store, p.alice), source: .api)
        let bobInvitation = try #require(try await invitations.received(by: p.bob).first).invitation
        let carolInvitation = try #require(try await invitations.received(by: p.carol).first).invitation
        try await invitations.reply(id: carolInvitation.id, by: p.carol, status: .accepted)

        let later = Date(timeIntervalSince1970: 1_790_300_000)
        await #expect(throws: Invitations.Problem.self) { try await invitations.propose(id: bobInvitation.id, by: p.bob, start: later, end: later) }
        await #expect(throws: Invitations.Problem.notFound) {
            try await invitations.propose(id: bobInvitation.id, by: p.dan, start: later, end: later.addingTimeInterval(3600))
        }
        // Each step a second later, so the Inbox (kept in arrival order) reads in the order things happened.
        clock.advance(by: 1)
        try await invitations.propose(id: bobInvitation.id, by: p.bob, start: later, end: later.addingTimeInterval(3600), comment: "After lunch?")
        let waiting = try await invitations.proposals(for: p.alice)
        #expect(waiting.map(\.attendeeName) == ["Bob"] && waiting.first?.proposal.comment == "After lunch?")
        #expect(try await invitations.inbox(of: p.alice).map(\.method) == [.reply, .counter])
        await #expect(throws: Invitations.Problem.notFound) { try await invitations.acceptProposal(id: bobInvitation.id, organizer: p.bob) }

        clock.advance(by: 1)
        try await invitations.acceptProposal(id: bobInvitation.id, organizer: p.alice)
        #expect(try await invitations.proposals(for: p.alice).isEmpty)
        let moved = try #require(try await Self.copy(store, p.alice, uid: "plan-1")).icalendar
        #expect(moved.contains("SEQUENCE:1") && Self.status(moved, of: "bob@example.com") == "ACCEPTED")
        #expect(Self.status(moved, of: "carol@example.com") == "NEEDS-ACTION", "asked again: her answer was for the old time")
        let bobCopy = try #require(try await Self.copy(store, p.bob, uid: "plan-1"))
        let start = try #require(try await invitations.received(by: p.bob).first?.invitation.start)
        #expect(start == later, "\(start) \(bobCopy.icalendar)")
        await #expect(throws: Invitations.Problem.noProposal) { try await invitations.declineProposal(id: bobInvitation.id, organizer: p.alice) }

        // Another proposal, declined: Bob is told through his Inbox.
        try await invitations.propose(id: bobInvitation.id, by: p.bob, start: later.addingTimeInterval(86_400), end: later.addingTimeInterval(90_000))
        clock.advance(by: 1)
        try await invitations.declineProposal(id: bobInvitation.id, organizer: p.alice, comment: "That day is full")
        #expect(try await invitations.inbox(of: p.bob).last?.method == .declineCounter)
        #expect(try await invitations.received(by: p.bob).first?.invitation.proposal == nil)
        try await store.shutdown()
    }

    @Test("an invitation email's link: shown without being spent, answered once, then refused; unknown and expired links refused",
          arguments: TestEnvironment.engines)
    func links(engine: TestEngine) async throws {
        let store = try await TestEnvironment.freshStore(engine)
        let clock = TestClock(Self.t0)
        let p = try await Self.people(store)
        let writes = CalendarWrites(store: store, clock: clock.clock, random: .system)
        let invitations = Invitations(store: store, clock: clock.clock, random: .system)
        _ = try await writes.put(
            try Self.meeting(uid: "lunch-1", organizer: p.alice, attendees: ["guest@example.net"]), name: "lunch.ics",
            in: try await Self.personal(store, p.alice), source: .api)
        let job = try #require(try await store.read { tx in try await tx.jobs(state: .queued, limit: 500) }.first { $0.kind == InvitationMail.kind })
        let request = try #require(InvitationMail.request(of: job))
        let mail = try #require(try await invitations.mail(for: request, publicURL: "https://jadwal.test"))
        let links = try #require(mail.links)
        #expect(mail.subject.hasPrefix("Invitation: Review") && mail.icalendar.contains("METHOD:REQUEST"))
        let token = try #require(links.accept.split(separator: "/").last?.split(separator: "?").first.map(String.init))
        #expect(try await invitations.invitation(link: token).invitation.attendeeEmail.value == "guest@example.net")
        #expect(try await invitations.invitation(link: token).invitation.partstat == .needsAction, "opening the link changes nothing")
        try await invitations.reply(link: token, status: .accepted)
        #expect(Self.status(try #require(try await Self.copy(store, p.alice, uid: "lunch-1")).icalendar, of: "guest@example.net") == "ACCEPTED")
        await #expect(throws: Invitations.Problem.linkUsed) { try await invitations.reply(link: token, status: .declined) }
        await #expect(throws: Invitations.Problem.linkUnknown) { try await invitations.reply(link: "not-a-token", status: .declined) }

        let second = try #require(try await invitations.mail(for: request, publicURL: "https://jadwal.test")?.links)
        let secondToken = try #require(second.page.split(separator: "/").last?.split(separator: "?").first.map(String.init))
        clock.advance(by: Invitations.linkLifetime + 86_400)
        await #expect(throws: Invitations.Problem.linkExpired) { try await invitations.reply(link: secondToken, status: .declined) }

        // The guest's email was sent: the organizer's copy says 1.1.
        try await invitations.recordMail(request, sent: true)
        #expect(try #require(try await Self.copy(store, p.alice, uid: "lunch-1")).icalendar.replacingOccurrences(of: "\r\n ", with: "")
            .contains("SCHEDULE-STATUS=1.1"))
        try await store.shutdown()
    }
}
