import Foundation
import ICalendar
import Scheduling

/// Invitations to meetings, as people answer them outside CalDAV: the invitee's list (with what
/// each one runs into in their calendar), their answer, a proposal of another time and the
/// organizer's answer to it, the answer links of invitation emails, and each person's scheduling
/// Inbox. Answers are writes of the person's own copy through `CalendarWrites`, so the server
/// sends them exactly as it does when a phone saves the copy.
public struct Invitations: Sendable {
    let store: StoreAccess<any CalendarWriteStore & CalendarShareStore>
    let clock: Clock
    let random: RandomSource
    let writes: CalendarWrites
    let busyTime: AccountBusyTime

    public init(store: any Store, clock: Clock, random: RandomSource, busyTime: AccountBusyTime = AccountBusyTime()) {
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
        self.random = random
        writes = CalendarWrites(store: store, clock: clock, random: random)
        self.busyTime = busyTime
    }

    /// How long an email's answer links work: until the meeting is over (a day later), at most.
    public static let linkLifetime: TimeInterval = 60 * 86_400
    /// How far ahead a series is read for what it runs into.
    static let clashHorizon: TimeInterval = 90 * 86_400

    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// No invitation of the person's has this id (another's looks the same).
        case notFound
        /// The meeting was cancelled, or the person taken off it.
        case cancelled
        /// Not ACCEPTED, TENTATIVE or DECLINED.
        case notAnAnswer(String)
        /// The organizer's copy of the meeting is gone.
        case meetingGone
        /// A proposal whose end is not after its start, or too long a comment.
        case invalidProposal(String)
        /// Another time is proposed for a single meeting, not for a whole series.
        case recurring
        /// There is no proposal to answer.
        case noProposal
        /// An answer link that does not exist, was used, or ran out.
        case linkUnknown
        case linkUsed
        case linkExpired

        public var description: String {
            switch self {
            case .notFound: "no such invitation"
            case .cancelled: "this meeting was cancelled, or you were taken off it"
            case .notAnAnswer(let text): "'partstat' must be accepted, tentative or declined, not '\(text)'"
            case .meetingGone: "the organizer's meeting no longer exists"
            case .invalidProposal(let reason): reason
            case .recurring: "another time can be proposed for a single meeting, not for a repeating one; answer it and tell the organizer"
            case .noProposal: "no other time was proposed for this invitation"
            case .linkUnknown: "this answer link is not valid"
            case .linkUsed: "this answer link was used already; ask the organizer to send the invitation again to change your answer"
            case .linkExpired: "this answer link has expired"
            }
        }
    }

    /// An answer as a front door sends it: `accepted`, `tentative` or `declined`, any case.
    public static func answer(_ text: String) throws(Problem) -> ParticipationStatus {
        guard let status = ParticipationStatus(rawValue: text.uppercased()), ParticipationStatus.answers.contains(status) else {
            throw .notAnAnswer(text)
        }
        return status
    }

    // MARK: The invitee's side

    /// A received invitation as the invitee sees it.
    public struct Received: Sendable {
        public var invitation: Invitation
        public var organizerName: String
        public var organizerEmail: EmailAddress
        /// Where the person's copy is, when they have one.
        public var calendarID: UUID?
        public var objectName: String?
        /// What else in their calendar takes the time of its coming instances.
        public var clashes: [Clash]
    }

    /// Something in the person's calendar at the time of an invitation.
    public struct Clash: Sendable, Hashable {
        public var title: String
        public var start: Date
        public var end: Date
        public var isPrayer: Bool
    }

    /// Invitations sent to the person, newest first: those still on, and cancelled ones.
    public func received(by account: Account, limit: Int = 200) async throws -> [Received] {
        try await store.read { tx in
            var found: [Received] = []
            for invitation in try await tx.receivedInvitations(accountID: account.id, email: account.email, limit: limit) {
                found.append(try await received(invitation, account: account, tx: tx))
            }
            return found
        }
    }

    public func received(id: UUID, by account: Account) async throws -> Received {
        try await store.read { tx in
            guard let invitation = try await tx.invitation(id: id), invitation.isFor(account) else { throw Problem.notFound }
            return try await received(invitation, account: account, tx: tx)
        }
    }

    private func received(_ invitation: Invitation, account: Account, tx: any BusyTimeStore & AccountStore) async throws -> Received {
        let organizer = try await tx.account(id: invitation.organizerID)
        let copy = try await ImplicitScheduling.copy(uid: invitation.uid, of: account.id, tx: tx)
        var clashes: [Clash] = []
        if invitation.state == .active, let copy {
            clashes = try await self.clashes(of: copy.object, in: copy.calendar, account: account, tx: tx)
        }
        return Received(
            invitation: invitation, organizerName: organizer?.displayName ?? "", organizerEmail: organizer?.email ?? invitation.attendeeEmail,
            calendarID: copy?.calendar.id, objectName: copy?.object.name, clashes: clashes)
    }

    /// What the meeting's coming instances run into: the person's other events, routines and
    /// prayers (their busy time, as conflicts read it), each once.
    func clashes(of object: CalendarObject, in calendar: CalendarCollection, account: Account, tx: any BusyTimeStore) async throws -> [Clash] {
        let now = clock.now
        guard let window = try? TimeRange(start: now, end: now.addingTimeInterval(Self.clashHorizon)) else { return [] }
        let instances = busyTime.occurrences(of: object, calendar: calendar, accountZone: account.timeZone, in: window, limit: 50)
            .filter { !$0.traits.isCancelled }
        guard let first = instances.first?.range.start, let last = instances.map(\.range.end).max(),
              let span = try? TimeRange(start: first, end: last)
        else { return [] }
        let busy = BusyTime(try await busyTime.blocks(account: account, in: span, tx: tx), window: span)
        let reference = EventOccurrence.reference(calendarID: calendar.id, objectName: object.name)
        var clashes: [Clash] = []
        for instance in instances {
            for overlap in busy.overlaps(with: instance.range, excluding: reference) {
                let clash: Clash
                switch overlap.block.kind {
                case .event(_, let title), .routine(_, let title), .plannedTask(_, let title):
                    clash = Clash(title: title, start: overlap.block.range.start, end: overlap.block.range.end, isPrayer: false)
                case .prayer(let prayer):
                    clash = Clash(title: account.language == .arabic ? prayer.arabicName : prayer.englishName, start: overlap.block.range.start, end: overlap.block.range.end, isPrayer: true)
                }
                if !clashes.contains(clash) { clashes.append(clash) }
            }
        }
        return clashes
    }

    /// Answers an invitation: the person's copy takes the answer, and the organizer is told as
    /// when a phone saves it. A copy they deleted is made again from the organizer's meeting.
    @discardableResult
    public func reply(id: UUID, by account: Account, status: ParticipationStatus) async throws -> Invitation {
        guard ParticipationStatus.answers.contains(status) else { throw Problem.notAnAnswer(status.rawValue.lowercased()) }
        return try await store.transaction { tx in
            let invitation = try await answerable(id, account: account, tx: tx)
            let addresses = CalendarUsers.addresses(of: account)
            var (calendar, name, copy) = try await attendeeCopy(of: invitation, account: account, tx: tx)
            ITIP.setParticipation(status, of: addresses, in: &copy)
            _ = try await writes.put(try CalendarObjectContent(text: copy.serialized), name: name, in: calendar, source: .api, transaction: tx)
            return try await tx.invitation(id: id) ?? invitation
        }
    }

    /// Proposes another time to the organizer (an iTIP COUNTER into their Inbox): the invitation
    /// carries it until they accept (the meeting moves, and everyone is asked again) or decline.
    @discardableResult
    public func propose(id: UUID, by account: Account, start: Date, end: Date, comment: String = "") async throws -> Invitation {
        guard end > start else { throw Problem.invalidProposal("the proposed end must be after its start") }
        guard end.timeIntervalSince(start) <= 14 * 86_400 else { throw Problem.invalidProposal("a proposed meeting may last at most 14 days") }
        let note = comment.trimmingCharacters(in: .whitespacesAndNewlines)
        guard note.count <= 1000, !note.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && $0 != "\n" }) else {
            throw Problem.invalidProposal("the comment must be at most 1000 characters without control characters")
        }
        let now = clock.now
        return try await store.transaction { tx in
            try await propose(try await answerable(id, account: account, tx: tx), by: account, start: start, end: end, comment: note, now: now, tx: tx)
        }
    }

    /// The proposal in the caller's transaction (the conflict flow's "propose this time").
    func propose(_ found: Invitation, by account: Account, start: Date, end: Date, comment note: String, now: Date, tx: any CalendarWriteStore)
        async throws -> Invitation {
        var invitation = found
        guard !invitation.recurring else { throw Problem.recurring }
        guard let organizer = try await tx.account(id: invitation.organizerID),
              let meeting = try await organizerCopy(of: invitation, tx: tx),
              let item = ITIP.items(of: meeting.calendar).first, let organizerProperty = item.first("ORGANIZER"),
              let attendee = ITIP.attendee(CalendarUsers.addresses(of: account), in: item)
        else { throw Problem.meetingGone }
        let message = ITIPProposal.counter(
            meeting: item, attendee: attendee, organizer: organizerProperty, start: start, end: end, comment: note, now: now)
        try await ImplicitScheduling.putInInbox(message, for: organizer, now: now, random: random, tx: tx)
        invitation.proposal = CounterProposal(start: start, end: end, comment: note, proposedAt: now)
        invitation.updatedAt = now
        try await tx.updateInvitation(invitation)
        let words = NotificationText(account: organizer).timeProposed(attendee: account.displayName, title: invitation.summary, start: start, allDay: false)
        let draft = NotificationDraft(
            kind: .invitation, reasonKey: "invitation-counter:\(invitation.id.uuidString.lowercased()):\(Int(now.timeIntervalSince1970))",
            title: words.title, body: words.body, links: ["invitationId": invitation.id.uuidString.lowercased(), "url": "/invitations"],
            urgent: false)
        _ = try await NotificationDispatch.post(draft, account: organizer, now: now, random: random, tx: tx)
        return invitation
    }

    private func answerable(_ id: UUID, account: Account, tx: any InvitationStore) async throws -> Invitation {
        guard let invitation = try await tx.invitation(id: id), invitation.isFor(account) else { throw Problem.notFound }
        guard invitation.state == .active else { throw Problem.cancelled }
        return invitation
    }

    /// The person's copy of a meeting, or one made from the organizer's when they have none.
    private func attendeeCopy(of invitation: Invitation, account: Account, tx: any AccountStore & CalendarStore) async throws
        -> (CalendarCollection, String, Component) {
        let addresses = CalendarUsers.addresses(of: account)
        if let found = try await ImplicitScheduling.copy(uid: invitation.uid, of: account.id, tx: tx),
           let parsed = try? ICalendarParser().parseCalendar(found.object.icalendar),
           SchedulingObject.role(of: parsed, ownerAddresses: addresses) == .attendee {
            return (found.calendar, found.object.name, parsed)
        }
        guard let meeting = try await organizerCopy(of: invitation, tx: tx), let organizer = try await tx.account(id: invitation.organizerID),
              let item = ITIP.items(of: meeting.calendar).first, let organizerProperty = item.first("ORGANIZER"),
              let attendee = ITIP.items(of: meeting.calendar).lazy.compactMap({ ITIP.attendee(addresses, in: $0) }).first
        else { throw Problem.meetingGone }
        let request = OrganizerScheduling(organizer: CalendarUsers.addresses(of: organizer), now: clock.now)
            .request(for: attendee, from: meeting.calendar, sender: organizerProperty)
        let copy = ITIPDelivery.attendeeCopy(request: request.calendar, existing: nil, attendee: addresses)
        let calendar = try await ImplicitScheduling.invitationCalendar(of: account, now: clock.now, random: random, tx: tx)
        return (calendar, try await ImplicitScheduling.freeName(for: invitation.uid, in: calendar, random: random, tx: tx), copy)
    }

    /// The organizer's copy of an invitation's meeting, parsed, with where it is.
    private func organizerCopy(of invitation: Invitation, tx: any AccountStore & CalendarStore) async throws
        -> (collection: CalendarCollection, object: CalendarObject, calendar: Component)? {
        guard let organizer = try await tx.account(id: invitation.organizerID),
              let found = try await ImplicitScheduling.copy(uid: invitation.uid, of: organizer.id, tx: tx),
              let parsed = try? ICalendarParser().parseCalendar(found.object.icalendar),
              SchedulingObject.role(of: parsed, ownerAddresses: CalendarUsers.addresses(of: organizer)) == .organizer
        else { return nil }
        return (found.calendar, found.object, parsed)
    }

    // MARK: The organizer's side

    /// A proposal of another time for one of the person's meetings.
    public struct Proposal: Sendable {
        public var invitation: Invitation
        public var proposal: CounterProposal
        /// The person proposing, as the invitation names them.
        public var attendeeName: String
        public var calendarID: UUID?
        public var objectName: String?
    }

    /// The proposals waiting for the organizer's answer, oldest first.
    public func proposals(for organizer: Account) async throws -> [Proposal] {
        try await store.read { tx in
            var found: [Proposal] = []
            for invitation in try await tx.proposedInvitations(organizerID: organizer.id) {
                guard let proposal = invitation.proposal else { continue }
                let copy = try await ImplicitScheduling.copy(uid: invitation.uid, of: organizer.id, tx: tx)
                let name = try await invitation.attendeeID.asyncFlatMap { try await tx.account(id: $0)?.displayName }
                    ?? invitation.attendeeName ?? invitation.attendeeEmail.value
                found.append(Proposal(invitation: invitation, proposal: proposal, attendeeName: name, calendarID: copy?.calendar.id, objectName: copy?.object.name))
            }
            return found
        }
    }

    /// Takes the proposed time: the meeting moves there, the one who proposed it is recorded
    /// as accepting, and everyone else is asked again (their answers were for the old time).
    @discardableResult
    public func acceptProposal(id: UUID, organizer: Account) async throws -> Invitation {
        let now = clock.now
        return try await store.transaction { tx in
            var invitation = try await proposed(id, organizer: organizer, tx: tx)
            guard let proposal = invitation.proposal else { throw Problem.noProposal }
            guard let meeting = try await organizerCopy(of: invitation, tx: tx) else { throw Problem.meetingGone }
            guard !invitation.recurring, ITIP.items(of: meeting.calendar).count == 1 else { throw Problem.recurring }
            guard let slot = try? TimeRange(start: proposal.start, end: proposal.end) else { throw Problem.invalidProposal("the proposed time is empty") }
            let zone = meeting.collection.timeZone ?? organizer.timeZone
            let movedText: String
            do {
                movedText = try ConflictResolution.moved(meeting.object, to: slot, floatingZone: zone, now: now)
            } catch {
                throw Problem.invalidProposal("an all-day meeting is moved by changing its date")
            }
            var moved = try ICalendarParser().parseCalendar(movedText)
            let organizerAddresses = CalendarUsers.addresses(of: organizer)
            for index in moved.components.indices where moved.components[index].name == "VEVENT" {
                moved.components[index].properties = moved.components[index].properties.map { property in
                    guard property.name == "ATTENDEE" else { return property }
                    let address = CalendarUserAddress(property.value)
                    guard !organizerAddresses.contains(address) else { return property }
                    var changed = property
                    if Self.names(address, invitation) {
                        changed.setParameter("PARTSTAT", ParticipationStatus.accepted.rawValue)
                        changed.setParameter("RSVP", nil)
                    } else {
                        changed.setParameter("PARTSTAT", ParticipationStatus.needsAction.rawValue)
                        changed.setParameter("RSVP", "TRUE")
                    }
                    return changed
                }
            }
            _ = try await writes.put(
                try CalendarObjectContent(text: moved.serialized), name: meeting.object.name, in: meeting.collection, ifMatch: meeting.object.etag,
                source: .api, transaction: tx)
            invitation = try await tx.invitation(id: id) ?? invitation
            invitation.proposal = nil
            invitation.updatedAt = now
            try await tx.updateInvitation(invitation)
            return invitation
        }
    }

    /// Keeps the meeting's time: the one who proposed another is told (an iTIP DECLINECOUNTER
    /// into their Inbox, or by email).
    @discardableResult
    public func declineProposal(id: UUID, organizer: Account, comment: String = "") async throws -> Invitation {
        let now = clock.now
        return try await store.transaction { tx in
            var invitation = try await proposed(id, organizer: organizer, tx: tx)
            guard invitation.proposal != nil else { throw Problem.noProposal }
            guard let meeting = try await organizerCopy(of: invitation, tx: tx), let item = ITIP.items(of: meeting.calendar).first,
                  let organizerProperty = item.first("ORGANIZER")
            else { throw Problem.meetingGone }
            let attendeeProperty = item.all("ATTENDEE").first { Self.names(CalendarUserAddress($0.value), invitation) } ?? Property(name: "ATTENDEE", value: "mailto:\(invitation.attendeeEmail.value)")
            let message = ITIPProposal.declineCounter(
                meeting: item, attendee: attendeeProperty, organizer: organizerProperty, comment: String(comment.prefix(1000)), now: now)
            if let attendee = try await invitation.attendeeID.asyncFlatMap({ try await tx.account(id: $0) }), !attendee.isDisabled {
                try await ImplicitScheduling.putInInbox(message, for: attendee, now: now, random: random, tx: tx)
                let words = NotificationText(account: attendee).proposalDeclined(organizer: organizer.displayName, title: invitation.summary)
                let draft = NotificationDraft(
                    kind: .invitation, reasonKey: "invitation-declinecounter:\(invitation.id.uuidString.lowercased()):\(Int(now.timeIntervalSince1970))",
                    title: words.title, body: words.body, links: ["invitationId": invitation.id.uuidString.lowercased(), "url": "/invitations"],
                    urgent: false)
                _ = try await NotificationDispatch.post(draft, account: attendee, now: now, random: random, tx: tx)
            } else {
                try await tx.enqueue(InvitationMail(
                    method: .declineCounter, to: invitation.attendeeEmail.value, toName: invitation.attendeeName, fromAccountID: organizer.id,
                    invitationID: invitation.id, language: ImplicitScheduling.language(of: attendeeProperty, otherwise: organizer.language),
                    icalendar: message.text
                ).job(now: now, random: random))
            }
            invitation.proposal = nil
            invitation.updatedAt = now
            try await tx.updateInvitation(invitation)
            return invitation
        }
    }

    /// Whether an address is the invitation's attendee: by email, or by their principal URL.
    static func names(_ address: CalendarUserAddress, _ invitation: Invitation) -> Bool {
        CalendarUsers.email(of: address) == invitation.attendeeEmail
            || (invitation.attendeeID != nil && CalendarUsers.accountID(inPrincipal: address) == invitation.attendeeID)
    }

    private func proposed(_ id: UUID, organizer: Account, tx: any InvitationStore) async throws -> Invitation {
        guard let invitation = try await tx.invitation(id: id), invitation.organizerID == organizer.id else { throw Problem.notFound }
        guard invitation.state == .active else { throw Problem.cancelled }
        return invitation
    }

    // MARK: Answer links (invitation emails)

    /// What an answer link shows before it is used: the meeting and who invites.
    public struct LinkView: Sendable {
        public var invitation: Invitation
        public var organizerName: String
        public var organizerEmail: EmailAddress
        /// The organizer's zone: the meeting's time is shown in it (the invitee's is not known).
        public var organizerZone: String
        public var language: Language
    }

    /// The invitation behind an answer link, without spending it.
    public func invitation(link token: String) async throws -> LinkView {
        let now = clock.now
        return try await store.read { tx in
            let (invitation, _) = try await Self.linked(token, now: now, tx: tx)
            guard let organizer = try await tx.account(id: invitation.organizerID) else { throw Problem.meetingGone }
            return LinkView(
                invitation: invitation, organizerName: organizer.displayName, organizerEmail: organizer.email, organizerZone: organizer.timeZone,
                language: organizer.language)
        }
    }

    /// Records the answer sent through an invitation email's link (the link works once): it is
    /// written into the organizer's copy, who is told, as when an attendee of this server answers.
    @discardableResult
    public func reply(link token: String, status: ParticipationStatus) async throws -> Invitation {
        guard ParticipationStatus.answers.contains(status) else { throw Problem.notAnAnswer(status.rawValue.lowercased()) }
        let now = clock.now
        return try await store.transaction { tx in
            var (invitation, digest) = try await Self.linked(token, now: now, tx: tx)
            guard invitation.state == .active else { throw Problem.cancelled }
            guard try await tx.markInvitationTokenUsed(digest: digest, at: now) else { throw Problem.linkUsed }
            guard let organizer = try await tx.account(id: invitation.organizerID), let meeting = try await organizerCopy(of: invitation, tx: tx)
            else { throw Problem.meetingGone }
            let address = CalendarUserAddress("mailto:\(invitation.attendeeEmail.value)")
            var answered = meeting.calendar
            ITIP.setParticipation(status, of: [address], in: &answered)
            ITIP.setScheduleStatus(ScheduleStatus.delivered, on: "ATTENDEE", for: address, in: &answered)
            if answered != meeting.calendar {
                _ = try await writes.write(
                    try CalendarObjectContent(text: answered.serialized), name: meeting.object.name, in: meeting.collection, source: .invitation,
                    transaction: tx)
            }
            // The organizer's Inbox gets the answer as a REPLY, as from any attendee.
            if let reply = AttendeeScheduling(attendee: [address], now: now).reply(old: meeting.calendar, new: answered) {
                try await ImplicitScheduling.putInInbox(reply, for: organizer, now: now, random: random, tx: tx)
            }
            invitation.partstat = status
            invitation.updatedAt = now
            try await tx.updateInvitation(invitation)
            let name = invitation.attendeeName ?? invitation.attendeeEmail.value
            let words = NotificationText(account: organizer).invitationAnswered(attendee: name, title: invitation.summary, status: status)
            let draft = NotificationDraft(
                kind: .invitation, reasonKey: "invitation-answer:\(invitation.id.uuidString.lowercased()):\(Int(now.timeIntervalSince1970))",
                title: words.title, body: words.body,
                links: ["uid": invitation.uid, "calendarId": meeting.collection.id.uuidString.lowercased(), "objectName": meeting.object.name],
                urgent: false)
            _ = try await NotificationDispatch.post(draft, account: organizer, now: now, random: random, tx: tx)
            return invitation
        }
    }

    private static func linked(_ token: String, now: Date, tx: any InvitationStore) async throws -> (Invitation, TokenDigest) {
        let digest = SecretToken(presented: token).digest
        guard let record = try await tx.invitationToken(digest: digest), let invitation = try await tx.invitation(id: record.invitationID) else {
            throw Problem.linkUnknown
        }
        guard record.usedAt == nil else { throw Problem.linkUsed }
        guard record.expiresAt > now else { throw Problem.linkExpired }
        return (invitation, digest)
    }

    // MARK: Invitation emails

    /// The email for a queued `InvitationMail`, in its language, with fresh answer links when it
    /// invites an attendee (their token stored as a digest, in this transaction). Nil when there
    /// is nothing to send any more (the sender is gone).
    public func mail(for request: InvitationMail, publicURL: String) async throws -> InvitationMailContent? {
        let now = clock.now
        let token = SecretToken(random: random)
        return try await store.transaction { tx in
            guard let sender = try await tx.account(id: request.fromAccountID), !sender.isDisabled else { return nil }
            let parsed = try? ICalendarParser().parseCalendar(request.icalendar)
            let summary = parsed.map { MeetingSummary(calendar: $0, zone: sender.timeZone) }
            var links: InvitationMailContent.Links?
            if request.method == .request, let id = request.invitationID, let invitation = try await tx.invitation(id: id), invitation.state == .active {
                let until = min(now.addingTimeInterval(Self.linkLifetime), max(now, summary?.end ?? now).addingTimeInterval(86_400))
                try await tx.insertInvitationToken(InvitationToken(digest: token.digest, invitationID: id, createdAt: now, expiresAt: until))
                // The page speaks the email's language.
                let page = "\(publicURL)/invitations/answer/\(token.value)?lang=\(request.language.rawValue)"
                links = .init(accept: page + "&answer=accepted", tentative: page + "&answer=tentative", decline: page + "&answer=declined", page: page)
            }
            let words = InvitationMailWords(language: request.language, zone: sender.timeZone)
            let item = parsed.flatMap { ITIP.items(of: $0).first }
            let answer = item.flatMap { ITIP.attendee(CalendarUsers.addresses(of: sender), in: $0) }.map { ParticipationStatus(parameter: $0.parameter("PARTSTAT")) }
            let (subject, paragraphs) = words.text(
                for: request.method, sender: sender.displayName, summary: summary, comment: item?.first("COMMENT")?.text, answer: answer)
            return InvitationMailContent(
                method: request.method, to: request.to, toName: request.toName, senderName: sender.displayName, senderEmail: sender.email.value,
                language: request.language, subject: subject, paragraphs: paragraphs, links: links, footer: words.footer, icalendar: request.icalendar)
        }
    }

    /// Records what became of an invitation email on the organizer's copy (SCHEDULE-STATUS 1.1
    /// once sent, 5.1 when it could not be), for the attendee it went to.
    public func recordMail(_ request: InvitationMail, sent: Bool) async throws {
        guard let id = request.invitationID, request.method == .request || request.method == .cancel else { return }
        let now = clock.now
        try await store.transaction { tx in
            guard var invitation = try await tx.invitation(id: id) else { return }
            let status = sent ? ScheduleStatus.sent : ScheduleStatus.deliveryFailed
            invitation.scheduleStatus = status
            invitation.updatedAt = now
            try await tx.updateInvitation(invitation)
            guard let meeting = try await organizerCopy(of: invitation, tx: tx) else { return }
            var updated = meeting.calendar
            ITIP.setScheduleStatus(status, on: "ATTENDEE", for: CalendarUserAddress("mailto:\(invitation.attendeeEmail.value)"), in: &updated)
            guard updated != meeting.calendar else { return }
            _ = try await writes.write(
                try CalendarObjectContent(text: updated.serialized), name: meeting.object.name, in: meeting.collection, source: .invitation, transaction: tx)
        }
    }

    // MARK: The scheduling Inbox (CalDAV)

    public func inbox(of account: Account) async throws -> [SchedulingMessage] {
        try await store.read { tx in try await tx.schedulingMessages(accountID: account.id) }
    }

    public func inboxMessage(named name: String, of account: Account) async throws -> SchedulingMessage? {
        try await store.read { tx in try await tx.schedulingMessage(accountID: account.id, name: name) }
    }

    /// Removes a message a client has dealt with; false when there was none.
    public func deleteInboxMessage(named name: String, of account: Account) async throws -> Bool {
        try await store.transaction { tx in try await tx.deleteSchedulingMessage(accountID: account.id, name: name) }
    }
}

extension Optional {
    /// `flatMap` for an async transform.
    func asyncFlatMap<T>(_ transform: (Wrapped) async throws -> T?) async rethrows -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}

/// The words of invitation emails, in the recipient's language.
struct InvitationMailWords {
    let language: Language
    let zone: String

    var arabic: Bool { language == .arabic }

    var footer: String {
        arabic
            ? "أُرسلت هذه الرسالة من جدول. ملف التقويم المرفق يضيف الموعد إلى تقويمك."
            : "Sent by Jadwal. The attached calendar file adds the meeting to your calendar."
    }

    func when(_ summary: MeetingSummary?) -> String {
        guard let start = summary?.start else { return "" }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: arabic ? "ar" : "en_GB")
        formatter.timeZone = TimeZone(identifier: zone) ?? .gmt
        formatter.setLocalizedDateFormatFromTemplate(summary?.allDay == true ? "EEEEdMMMMyyyy" : "EEEEdMMMMyyyyHHmm")
        let zoneName = summary?.allDay == true ? "" : " (\(zone))"
        return formatter.string(from: start) + zoneName
    }

    func text(for method: ITIPMethod, sender: String, summary: MeetingSummary?, comment: String?, answer: ParticipationStatus?)
        -> (subject: String, paragraphs: [String]) {
        let title = summary?.title.isEmpty == false ? summary?.title ?? "" : (arabic ? "موعد" : "a meeting")
        let at = when(summary)
        var paragraphs: [String]
        let subject: String
        switch (method, arabic) {
        case (.request, false):
            subject = "Invitation: \(title)" + (at.isEmpty ? "" : " — \(at)")
            paragraphs = ["\(sender) invites you to \(title).", at.isEmpty ? "" : "When: \(at)", "Answer with the buttons below, or open the attached invitation in your calendar app."]
        case (.request, true):
            subject = "دعوة: \(title)" + (at.isEmpty ? "" : " — \(at)")
            paragraphs = ["يدعوك \(sender) إلى \(title).", at.isEmpty ? "" : "الموعد: \(at)", "أجب بالأزرار أدناه، أو افتح الدعوة المرفقة في تطبيق التقويم."]
        case (.cancel, false):
            subject = "Cancelled: \(title)" + (at.isEmpty ? "" : " — \(at)")
            paragraphs = ["\(sender) cancelled \(title).", at.isEmpty ? "" : "It was on \(at)."]
        case (.cancel, true):
            subject = "أُلغي: \(title)" + (at.isEmpty ? "" : " — \(at)")
            paragraphs = ["ألغى \(sender) \(title).", at.isEmpty ? "" : "كان موعده \(at)."]
        case (.reply, false):
            let word = switch answer { case .accepted?: "accepted"; case .declined?: "declined"; case .tentative?: "might attend"; default: "answered" }
            subject = "\(sender) \(word): \(title)"
            paragraphs = ["\(sender) \(word) \(title)" + (at.isEmpty ? "." : ", \(at).")]
        case (.reply, true):
            let word = switch answer { case .accepted?: "قبل"; case .declined?: "اعتذر عن"; case .tentative?: "قد يحضر"; default: "أجاب عن" }
            subject = "\(sender) \(word): \(title)"
            paragraphs = ["\(sender) \(word) \(title)" + (at.isEmpty ? "." : "، \(at).")]
        case (.counter, false):
            subject = "New time proposed: \(title)"
            paragraphs = ["\(sender) proposes another time for \(title): \(at)."]
        case (.counter, true):
            subject = "اقتراح وقت جديد: \(title)"
            paragraphs = ["يقترح \(sender) وقتًا آخر لـ\(title): \(at)."]
        case (.declineCounter, false):
            subject = "Time kept: \(title)"
            paragraphs = ["\(sender) keeps \(title) at its time; the time you proposed was declined."]
        case (.declineCounter, true):
            subject = "بقي الموعد في وقته: \(title)"
            paragraphs = ["أبقى \(sender) \(title) في وقته، ولم يقبل الوقت الذي اقترحته."]
        }
        if let comment, !comment.isEmpty { paragraphs.append((arabic ? "ملاحظة: " : "Note: ") + comment) }
        return (subject, paragraphs.filter { !$0.isEmpty })
    }
}
