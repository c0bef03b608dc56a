import Foundation
import ICalendar

/// Scheduling done by the server when a calendar object is written or removed (RFC 6638 §3:
/// "implicit scheduling"), inside the write's own transaction, so a meeting and the messages it
/// sends commit together and none is lost:
///
/// - an organizer's write delivers invitations, updates and cancellations to each attendee of
///   this server (into their Inbox and their calendar, with PARTSTAT=NEEDS-ACTION when new),
///   queues an email (iMIP) for each attendee elsewhere, and records what became of each
///   message as the attendee's SCHEDULE-STATUS;
/// - an attendee's write or removal sends their answer to the organizer: written into the
///   organizer's copy on this server, or emailed.
///
/// Writes the server makes itself (deliveries, feeds, a connected server's sync) schedule
/// nothing, and neither do calendars whose content is not the person's own to schedule from
/// (subscriptions, mirrors of another server, which schedules for them).
struct ImplicitScheduling {
    /// The write path deliveries go through (as `.invitation`, which schedules nothing).
    let writes: CalendarWrites
    var clock: Clock { writes.clock }
    var random: RandomSource { writes.random }

    /// The most attendees one meeting may have: each costs a delivery in the organizer's write.
    static let maxAttendees = 100
    /// How many messages an Inbox keeps; older ones go as new ones come (clients read and
    /// delete them, but not every client does).
    static let inboxSize = 200

    static func applies(to calendar: CalendarCollection, source: WriteSource) -> Bool {
        source != .invitation && source != .feed && source != .remote && !calendar.isSubscribed && !calendar.isMirrored && !calendar.isComputed
    }

    // MARK: Writes and removals

    /// Schedules for a write of `content` over `existing`; returns what to store (the organizer's
    /// copy gains its attendees' SCHEDULE-STATUS, an attendee's copy its organizer's).
    func written(_ content: CalendarObjectContent, replacing existing: CalendarObject?, in calendar: CalendarCollection, tx: any CalendarWriteStore)
        async throws -> CalendarObjectContent {
        guard SchedulingObject.mayBeScheduling(content.text) || existing.map({ SchedulingObject.mayBeScheduling($0.icalendar) }) == true,
              let owner = try await tx.account(id: calendar.accountID)
        else { return content }
        let addresses = CalendarUsers.addresses(of: owner)
        let old = existing.flatMap { try? ICalendarParser().parseCalendar($0.icalendar) }
        let oldRole = old.flatMap { SchedulingObject.role(of: $0, ownerAddresses: addresses) }
        let newRole = SchedulingObject.role(of: content.calendar, ownerAddresses: addresses)
        var stored = content.calendar
        switch (oldRole, newRole) {
        case (_, .organizer):
            var new = old.map { OrganizerScheduling.keepingAnswers(of: $0, in: content.calendar) } ?? content.calendar
            let scheduling = OrganizerScheduling(organizer: addresses, now: clock.now)
            guard scheduling.attendees(of: new).count <= Self.maxAttendees else {
                throw CalendarWrites.Refusal.tooManyAttendees(limit: Self.maxAttendees)
            }
            let messages = scheduling.messages(old: oldRole == .organizer ? old : nil, new: new)
            new = ITIP.removingForceSend(new)
            try await send(messages, from: owner, organizerCopy: &new, previous: oldRole == .organizer ? old : nil, tx: tx)
            stored = new
        case (.organizer, _):
            // The ORGANIZER was taken away: for the attendees, the meeting is off.
            let messages = OrganizerScheduling(organizer: addresses, now: clock.now).messages(old: old, new: nil)
            var none = Component(name: "VCALENDAR")
            try await send(messages, from: owner, organizerCopy: &none, previous: old, tx: tx)
        case (_, .attendee):
            let scheduling = AttendeeScheduling(attendee: addresses, now: clock.now)
            let reply = scheduling.reply(old: oldRole == .attendee ? old : nil, new: content.calendar)
            stored = scheduling.followingAnswer(old: oldRole == .attendee ? old : nil, new: ITIP.removingForceSend(stored))
            if let reply {
                let status = try await deliverReply(reply, from: owner, tx: tx)
                ITIP.setScheduleStatus(status, on: "ORGANIZER", for: reply.recipientAddress, in: &stored)
            }
        case (.attendee, nil):
            // No longer theirs to attend (the client removed them): a decline, as for a removal.
            if let reply = AttendeeScheduling(attendee: addresses, now: clock.now).reply(old: old, new: nil) {
                _ = try await deliverReply(reply, from: owner, tx: tx)
            }
        case (nil, nil):
            return content
        }
        guard stored != content.calendar else { return content }
        do {
            return try CalendarObjectContent(text: stored.serialized)
        } catch {
            return content
        }
    }

    /// Schedules for the removal of `existing`: a cancellation from its organizer, a decline
    /// from an attendee.
    func removed(_ existing: CalendarObject, from calendar: CalendarCollection, tx: any CalendarWriteStore) async throws {
        guard SchedulingObject.mayBeScheduling(existing.icalendar), let owner = try await tx.account(id: calendar.accountID),
              let old = try? ICalendarParser().parseCalendar(existing.icalendar)
        else { return }
        let addresses = CalendarUsers.addresses(of: owner)
        switch SchedulingObject.role(of: old, ownerAddresses: addresses) {
        case .organizer:
            let messages = OrganizerScheduling(organizer: addresses, now: clock.now).messages(old: old, new: nil)
            var none = Component(name: "VCALENDAR")
            try await send(messages, from: owner, organizerCopy: &none, previous: old, tx: tx)
        case .attendee:
            if let reply = AttendeeScheduling(attendee: addresses, now: clock.now).reply(old: old, new: nil) {
                _ = try await deliverReply(reply, from: owner, tx: tx)
            }
        case nil:
            return
        }
    }

    // MARK: The organizer's messages

    /// Delivers each message, records its outcome on the organizer's copy (SCHEDULE-STATUS)
    /// and in the meeting's invitations.
    func send(_ messages: [ITIPMessage], from organizer: Account, organizerCopy copy: inout Component, previous: Component?, tx: any CalendarWriteStore)
        async throws {
        let uid = ITIP.items(of: copy).first?.first("UID")?.value ?? previous.flatMap { ITIP.items(of: $0).first?.first("UID")?.value } ?? ""
        guard !uid.isEmpty else { return }
        let summary = MeetingSummary(calendar: copy.components.isEmpty ? (previous ?? copy) : copy, zone: organizer.timeZone)
        var invitations = try await tx.invitations(organizerID: organizer.id, uid: uid)
        let attendees = copy.components.isEmpty ? [] : OrganizerScheduling(organizer: CalendarUsers.addresses(of: organizer), now: clock.now).attendees(of: copy)
        let now = clock.now

        // Who is invited now: each has an invitation, in step with the copy.
        var current: [UUID] = []
        for attendee in attendees {
            let address = CalendarUserAddress(attendee.value)
            let account = try await CalendarUsers.account(at: address, tx: tx)
            guard let email = account?.email ?? CalendarUsers.email(of: address) else { continue }
            let partstat = ParticipationStatus(parameter: attendee.parameter("PARTSTAT"))
            if let index = invitations.firstIndex(where: { $0.attendeeEmail == email }) {
                var invitation = invitations[index]
                invitation.attendeeID = account?.id
                invitation.attendeeName = attendee.parameter("CN")
                invitation.partstat = partstat
                invitation.state = ITIP.isCancelled(copy) ? .cancelled : .active
                summary.apply(to: &invitation)
                invitation.updatedAt = now
                invitations[index] = invitation
                try await tx.updateInvitation(invitation)
                current.append(invitation.id)
            } else {
                var invitation = Invitation(
                    id: random.uuid(), organizerID: organizer.id, uid: uid, attendeeEmail: email, attendeeID: account?.id,
                    attendeeName: attendee.parameter("CN"), partstat: partstat, scheduleStatus: ScheduleStatus.pending,
                    state: ITIP.isCancelled(copy) ? .cancelled : .active, summary: summary.title, start: summary.start, end: summary.end,
                    createdAt: now, updatedAt: now)
                summary.apply(to: &invitation)
                try await tx.insertInvitation(invitation)
                invitations.append(invitation)
                current.append(invitation.id)
            }
        }
        for index in invitations.indices where !current.contains(invitations[index].id) && invitations[index].state == .active {
            invitations[index].state = .cancelled
            invitations[index].updatedAt = now
            try await tx.updateInvitation(invitations[index])
        }

        for message in messages {
            let address = message.recipientAddress
            let account = try await CalendarUsers.account(at: address, tx: tx)
            let email = account?.email ?? CalendarUsers.email(of: address)
            var invitation = email.flatMap { email in invitations.first { $0.attendeeEmail == email } }
            let status: String
            if let account {
                status = account.isDisabled
                    ? ScheduleStatus.noSchedulingSupport
                    : try await deliverToAttendee(message, to: account, from: organizer, tx: tx)
            } else if let email, let found = invitation {
                try await tx.enqueue(InvitationMail(
                    method: message.method, to: email.value, toName: message.recipient.parameter("CN"), fromAccountID: organizer.id,
                    invitationID: found.id, language: Self.language(of: message.recipient, otherwise: organizer.language), icalendar: message.text
                ).job(now: now, random: random))
                status = ScheduleStatus.pending
            } else {
                status = ScheduleStatus.invalidUser
            }
            if !copy.components.isEmpty { ITIP.setScheduleStatus(status, on: "ATTENDEE", for: address, in: &copy) }
            if var found = invitation {
                found.scheduleStatus = status
                found.updatedAt = now
                try await tx.updateInvitation(found)
                invitation = found
            }
        }
    }

    /// An email's language: the one the organizer wrote for the attendee (`LANGUAGE=ar`), else
    /// the sender's own.
    static func language(of recipient: Property, otherwise fallback: Language) -> Language {
        guard let tag = recipient.parameter("LANGUAGE")?.lowercased() else { return fallback }
        return tag.hasPrefix("ar") ? .arabic : (tag.hasPrefix("en") ? .english : fallback)
    }

    /// Puts an invitation, update or cancellation into the attendee's Inbox and applies it to
    /// their calendar: a new invitation lands in their default calendar, not answered yet.
    /// A message about a meeting they hold from another organizer is refused (3.8): one person
    /// cannot overwrite another's meeting by reusing its UID.
    func deliverToAttendee(_ message: ITIPMessage, to attendee: Account, from organizer: Account, tx: any CalendarWriteStore) async throws -> String {
        let addresses = CalendarUsers.addresses(of: attendee)
        let found = try await Self.copy(uid: message.uid, of: attendee.id, tx: tx)
        var existing: Component?
        if let found {
            guard let parsed = try? ICalendarParser().parseCalendar(found.object.icalendar),
                  SchedulingObject.role(of: parsed, ownerAddresses: addresses) == .attendee,
                  let theirs = ITIP.items(of: parsed).first?.first("ORGANIZER"), CalendarUserAddress(theirs.value) == message.senderAddress
            else { return ScheduleStatus.noAuthority }
            existing = parsed
        }
        switch message.method {
        case .request:
            let copy = ITIPDelivery.attendeeCopy(request: message.calendar, existing: existing, attendee: addresses)
            guard let content = try? CalendarObjectContent(text: copy.serialized) else { return ScheduleStatus.deliveryFailed }
            if let found {
                _ = try await writes.write(content, name: found.object.name, in: found.calendar, source: .invitation, transaction: tx)
            } else {
                let calendar = try await Self.invitationCalendar(of: attendee, now: clock.now, random: random, tx: tx)
                let name = try await Self.freeName(for: message.uid, in: calendar, random: random, tx: tx)
                _ = try await writes.write(content, name: name, in: calendar, source: .invitation, transaction: tx)
            }
        case .cancel:
            if let found, let existing {
                let cancelled = ITIPDelivery.cancelled(existing, by: message.calendar)
                if let content = try? CalendarObjectContent(text: cancelled.serialized), cancelled != existing {
                    _ = try await writes.write(content, name: found.object.name, in: found.calendar, source: .invitation, transaction: tx)
                }
            }
        case .reply, .counter, .declineCounter:
            break
        }
        try await Self.putInInbox(message, for: attendee, now: clock.now, random: random, tx: tx)
        let summary = MeetingSummary(calendar: message.calendar, zone: attendee.timeZone)
        let text = NotificationText(account: attendee)
        let words: (title: String, body: String) = switch message.method {
        case .cancel: text.invitationCancelled(organizer: organizer.displayName, title: summary.title, start: summary.start, allDay: summary.allDay)
        default:
            existing == nil
                ? text.invited(organizer: organizer.displayName, title: summary.title, start: summary.start, allDay: summary.allDay)
                : text.invitationUpdated(organizer: organizer.displayName, title: summary.title, start: summary.start, allDay: summary.allDay)
        }
        let draft = NotificationDraft(
            kind: .invitation, reasonKey: "invitation:\(message.method.rawValue.lowercased()):\(message.uid):\(Int(clock.now.timeIntervalSince1970))",
            title: words.title, body: words.body, links: ["uid": message.uid, "url": "/invitations"], urgent: false)
        _ = try await NotificationDispatch.post(draft, account: attendee, now: clock.now, random: random, tx: tx)
        return ScheduleStatus.delivered
    }

    // MARK: The attendee's answer

    /// Sends an attendee's answer: written into the organizer's copy when the organizer is a
    /// person of this server (who is told), emailed otherwise. An answer from someone the
    /// organizer's copy does not list changes nothing (3.8).
    func deliverReply(_ reply: ITIPMessage, from attendee: Account, tx: any CalendarWriteStore) async throws -> String {
        let now = clock.now
        if let organizer = try await CalendarUsers.account(at: reply.recipientAddress, tx: tx) {
            guard !organizer.isDisabled else { return ScheduleStatus.noSchedulingSupport }
            let organizerAddresses = CalendarUsers.addresses(of: organizer)
            guard let found = try await Self.copy(uid: reply.uid, of: organizer.id, tx: tx),
                  let parsed = try? ICalendarParser().parseCalendar(found.object.icalendar),
                  SchedulingObject.role(of: parsed, ownerAddresses: organizerAddresses) == .organizer
            else { return ScheduleStatus.invalidUser }
            guard ITIP.items(of: parsed).contains(where: { ITIP.attendee([reply.senderAddress], in: $0) != nil }) else {
                return ScheduleStatus.noAuthority
            }
            if let updated = ITIPDelivery.organizerCopy(parsed, applying: reply.calendar, from: reply.senderAddress),
               let content = try? CalendarObjectContent(text: updated.serialized) {
                _ = try await writes.write(content, name: found.object.name, in: found.calendar, source: .invitation, transaction: tx)
            }
            let answer = ITIP.items(of: reply.calendar).first.flatMap { ITIP.attendee([reply.senderAddress], in: $0) }
            let status = ParticipationStatus(parameter: answer?.parameter("PARTSTAT"))
            if var invitation = try await tx.invitations(organizerID: organizer.id, uid: reply.uid).first(where: { $0.attendeeEmail == attendee.email }) {
                invitation.partstat = status
                invitation.attendeeID = attendee.id
                invitation.updatedAt = now
                try await tx.updateInvitation(invitation)
            }
            try await Self.putInInbox(reply, for: organizer, now: now, random: random, tx: tx)
            let summary = MeetingSummary(calendar: parsed, zone: organizer.timeZone)
            let words = NotificationText(account: organizer).invitationAnswered(attendee: attendee.displayName, title: summary.title, status: status)
            let draft = NotificationDraft(
                kind: .invitation, reasonKey: "invitation-answer:\(reply.uid):\(attendee.id.uuidString.lowercased()):\(Int(now.timeIntervalSince1970))",
                title: words.title, body: words.body, links: ["uid": reply.uid, "calendarId": found.calendar.id.uuidString.lowercased(),
                                                              "objectName": found.object.name], urgent: false)
            _ = try await NotificationDispatch.post(draft, account: organizer, now: now, random: random, tx: tx)
            return ScheduleStatus.delivered
        }
        guard let email = CalendarUsers.email(of: reply.recipientAddress) else { return ScheduleStatus.invalidUser }
        try await tx.enqueue(InvitationMail(
            method: reply.method, to: email.value, toName: reply.recipient.parameter("CN"), fromAccountID: attendee.id, invitationID: nil,
            language: attendee.language, icalendar: reply.text
        ).job(now: now, random: random))
        return ScheduleStatus.pending
    }

    // MARK: Where things are

    /// The person's own calendar object holding `uid` (not one shared with them), with its calendar.
    static func copy(uid: String, of accountID: UUID, tx: any CalendarStore) async throws -> (calendar: CalendarCollection, object: CalendarObject)? {
        for calendar in try await tx.calendars(accountID: accountID) where !calendar.isSubscribed && !calendar.isComputed {
            if let object = try await tx.calendarObject(calendarID: calendar.id, uid: uid) { return (calendar, object) }
        }
        return nil
    }

    /// The calendar invitations land in (RFC 6638 §9.2's schedule-default-calendar-URL): the
    /// Personal calendar, else the first of the person's own that holds events; a Personal
    /// calendar is made again when they have none.
    static func invitationCalendar(of account: Account, now: Date, random: RandomSource, tx: any CalendarStore) async throws -> CalendarCollection {
        if let found = DefaultCalendars.invitationCalendar(among: try await tx.calendars(accountID: account.id)) { return found }
        guard let personal = DefaultCalendars.make(for: account, now: now, random: random).first(where: { $0.slug == DefaultCalendars.personalSlug }) else {
            throw CalendarWrites.Refusal.notFound
        }
        return try await tx.eventCalendar(personal)
    }

    /// A name for a delivered meeting: made from its UID as for other items, unless that is not
    /// a valid name or is taken.
    static func freeName(for uid: String, in calendar: CalendarCollection, random: RandomSource, tx: any CalendarStore) async throws -> String {
        let name = ObjectIdentity.name(forUID: uid)
        if CalendarWrites.isValidName(name), name.count > 4, try await tx.calendarObject(calendarID: calendar.id, name: name) == nil { return name }
        return random.uuid().uuidString.lowercased() + ".ics"
    }

    static func putInInbox(_ message: ITIPMessage, for account: Account, now: Date, random: RandomSource, tx: any InvitationStore) async throws {
        let id = random.uuid()
        let text = message.text
        try await tx.insertSchedulingMessage(SchedulingMessage(
            id: id, accountID: account.id, name: id.uuidString.lowercased() + ".ics", uid: message.uid, method: message.method,
            sender: message.sender.value, icalendar: text, etag: "\"" + text.sha256Hex.prefix(32) + "\"", createdAt: now))
        try await tx.trimSchedulingMessages(accountID: account.id, keep: inboxSize)
    }
}

/// What an invitation's list shows of a meeting: its title and first instance.
struct MeetingSummary {
    var title: String
    var start: Date?
    var end: Date?
    var allDay = false
    var recurring = false

    init(calendar: Component, zone: String) {
        let master = ITIP.items(of: calendar).first
        title = master?.first("SUMMARY")?.text ?? ""
        guard let master, let event = try? Event(component: master) else { return }
        let rules = ZoneRules(ianaIdentifier: zone) ?? .utc
        let startSeconds = event.start.utcSeconds(floating: rules)
        start = Date(timeIntervalSince1970: TimeInterval(startSeconds))
        allDay = event.isAllDay
        recurring = !event.recurrenceRules.isEmpty || master.first("RDATE") != nil
        switch event.end {
        case .end(let value)?: end = Date(timeIntervalSince1970: TimeInterval(value.utcSeconds(floating: rules)))
        case .duration(let duration)?: end = start?.addingTimeInterval(TimeInterval(duration.totalSeconds))
        case nil: end = start?.addingTimeInterval(allDay ? 86_400 : 0)
        }
    }

    func apply(to invitation: inout Invitation) {
        invitation.summary = title
        invitation.start = start
        invitation.end = end
        invitation.allDay = allDay
        invitation.recurring = recurring
    }
}
