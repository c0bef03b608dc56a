import Foundation
import ICalendar
import JadwalCore
import SQLKit

extension SQLRepository: InvitationStore {
    private static let invitationColumns = """
        id, organizer_id, uid, attendee_email, attendee_id, attendee_name, partstat, schedule_status, state, summary, starts_at, ends_at,
        all_day, recurring, proposed_start, proposed_end, proposal_comment, proposed_at, created_at, updated_at
        """

    func insertInvitation(_ invitation: Invitation) async throws {
        try await db.raw("""
            INSERT INTO invitations (\(unsafeRaw: Self.invitationColumns))
            VALUES (\(bind: invitation.id.uuidString), \(bind: invitation.organizerID.uuidString), \(bind: invitation.uid),
                    \(bind: invitation.attendeeEmail.value), \(bind: invitation.attendeeID?.uuidString), \(bind: invitation.attendeeName),
                    \(bind: invitation.partstat.rawValue), \(bind: invitation.scheduleStatus), \(bind: invitation.state.rawValue),
                    \(bind: invitation.summary), \(bind: invitation.start?.unixMilliseconds), \(bind: invitation.end?.unixMilliseconds),
                    \(bind: invitation.allDay), \(bind: invitation.recurring), \(bind: invitation.proposal?.start.unixMilliseconds),
                    \(bind: invitation.proposal?.end.unixMilliseconds), \(bind: invitation.proposal?.comment),
                    \(bind: invitation.proposal?.proposedAt.unixMilliseconds), \(bind: invitation.createdAt.unixMilliseconds),
                    \(bind: invitation.updatedAt.unixMilliseconds))
            """).run()
    }

    func updateInvitation(_ invitation: Invitation) async throws {
        try await db.raw("""
            UPDATE invitations SET attendee_id = \(bind: invitation.attendeeID?.uuidString), attendee_name = \(bind: invitation.attendeeName),
                partstat = \(bind: invitation.partstat.rawValue), schedule_status = \(bind: invitation.scheduleStatus),
                state = \(bind: invitation.state.rawValue), summary = \(bind: invitation.summary), starts_at = \(bind: invitation.start?.unixMilliseconds),
                ends_at = \(bind: invitation.end?.unixMilliseconds), all_day = \(bind: invitation.allDay), recurring = \(bind: invitation.recurring),
                proposed_start = \(bind: invitation.proposal?.start.unixMilliseconds), proposed_end = \(bind: invitation.proposal?.end.unixMilliseconds),
                proposal_comment = \(bind: invitation.proposal?.comment), proposed_at = \(bind: invitation.proposal?.proposedAt.unixMilliseconds),
                updated_at = \(bind: invitation.updatedAt.unixMilliseconds)
            WHERE id = \(bind: invitation.id.uuidString)
            """).run()
    }

    func invitation(id: UUID) async throws -> Invitation? {
        try await db.raw("SELECT \(unsafeRaw: Self.invitationColumns) FROM invitations WHERE id = \(bind: id.uuidString)")
            .first().map(Self.invitation(from:))
    }

    func invitations(organizerID: UUID, uid: String) async throws -> [Invitation] {
        try await db.raw("""
            SELECT \(unsafeRaw: Self.invitationColumns) FROM invitations
            WHERE organizer_id = \(bind: organizerID.uuidString) AND uid = \(bind: uid) ORDER BY created_at, attendee_email
            """).all().map(Self.invitation(from:))
    }

    func receivedInvitations(accountID: UUID, email: EmailAddress, limit: Int) async throws -> [Invitation] {
        try await db.raw("""
            SELECT \(unsafeRaw: Self.invitationColumns) FROM invitations
            WHERE (attendee_id = \(bind: accountID.uuidString) OR (attendee_id IS NULL AND attendee_email = \(bind: email.value)))
              AND organizer_id <> \(bind: accountID.uuidString)
            ORDER BY updated_at DESC, id LIMIT \(bind: limit)
            """).all().map(Self.invitation(from:))
    }

    func proposedInvitations(organizerID: UUID) async throws -> [Invitation] {
        try await db.raw("""
            SELECT \(unsafeRaw: Self.invitationColumns) FROM invitations
            WHERE organizer_id = \(bind: organizerID.uuidString) AND proposed_at IS NOT NULL AND state = \(bind: Invitation.State.active.rawValue)
            ORDER BY proposed_at, id
            """).all().map(Self.invitation(from:))
    }

    private static func invitation(from row: any SQLRow) throws -> Invitation {
        let emailText = try row.decode(column: "attendee_email", as: String.self)
        guard let email = try? EmailAddress(emailText) else { throw StorageError.corruptRow("invitation address \(emailText)") }
        let partstatText = try row.decode(column: "partstat", as: String.self)
        guard let partstat = ParticipationStatus(rawValue: partstatText) else { throw StorageError.corruptRow("invitation partstat \(partstatText)") }
        let stateText = try row.decode(column: "state", as: String.self)
        guard let state = Invitation.State(rawValue: stateText) else { throw StorageError.corruptRow("invitation state \(stateText)") }
        var proposal: CounterProposal?
        if let proposedAt = try optionalDate(row, "proposed_at"), let start = try optionalDate(row, "proposed_start"),
           let end = try optionalDate(row, "proposed_end") {
            proposal = CounterProposal(
                start: start, end: end, comment: try row.decode(column: "proposal_comment", as: String?.self) ?? "", proposedAt: proposedAt)
        }
        return Invitation(
            id: try uuid(row, "id"), organizerID: try uuid(row, "organizer_id"), uid: try row.decode(column: "uid", as: String.self),
            attendeeEmail: email, attendeeID: try row.decode(column: "attendee_id", as: String?.self).flatMap(UUID.init(uuidString:)),
            attendeeName: try row.decode(column: "attendee_name", as: String?.self), partstat: partstat,
            scheduleStatus: try row.decode(column: "schedule_status", as: String.self), state: state,
            summary: try row.decode(column: "summary", as: String.self), start: try optionalDate(row, "starts_at"), end: try optionalDate(row, "ends_at"),
            allDay: try row.decode(column: "all_day", as: Bool.self), recurring: try row.decode(column: "recurring", as: Bool.self), proposal: proposal,
            createdAt: try date(row, "created_at"), updatedAt: try date(row, "updated_at"))
    }

    // MARK: The scheduling Inbox

    private static let messageColumns = "id, account_id, name, uid, method, sender, icalendar, etag, created_at"

    func insertSchedulingMessage(_ message: SchedulingMessage) async throws {
        try await db.raw("""
            INSERT INTO scheduling_messages (\(unsafeRaw: Self.messageColumns))
            VALUES (\(bind: message.id.uuidString), \(bind: message.accountID.uuidString), \(bind: message.name), \(bind: message.uid),
                    \(bind: message.method.rawValue), \(bind: message.sender), \(bind: message.icalendar), \(bind: message.etag),
                    \(bind: message.createdAt.unixMilliseconds))
            """).run()
    }

    func schedulingMessages(accountID: UUID) async throws -> [SchedulingMessage] {
        try await db.raw("""
            SELECT \(unsafeRaw: Self.messageColumns) FROM scheduling_messages WHERE account_id = \(bind: accountID.uuidString) ORDER BY created_at, name
            """).all().map(Self.message(from:))
    }

    func schedulingMessage(accountID: UUID, name: String) async throws -> SchedulingMessage? {
        try await db.raw("""
            SELECT \(unsafeRaw: Self.messageColumns) FROM scheduling_messages WHERE account_id = \(bind: accountID.uuidString) AND name = \(bind: name)
            """).first().map(Self.message(from:))
    }

    func deleteSchedulingMessage(accountID: UUID, name: String) async throws -> Bool {
        try await db.raw("""
            DELETE FROM scheduling_messages WHERE account_id = \(bind: accountID.uuidString) AND name = \(bind: name) RETURNING id
            """).first() != nil
    }

    func trimSchedulingMessages(accountID: UUID, keep: Int) async throws {
        try await db.raw("""
            DELETE FROM scheduling_messages WHERE account_id = \(bind: accountID.uuidString) AND id NOT IN (
                SELECT id FROM scheduling_messages WHERE account_id = \(bind: accountID.uuidString) ORDER BY created_at DESC, name DESC LIMIT \(bind: keep))
            """).run()
    }

    private static func message(from row: any SQLRow) throws -> SchedulingMessage {
        let methodText = try row.decode(column: "method", as: String.self)
        guard let method = ITIPMethod(rawValue: methodText) else { throw StorageError.corruptRow("scheduling message method \(methodText)") }
        return SchedulingMessage(
            id: try uuid(row, "id"), accountID: try uuid(row, "account_id"), name: try row.decode(column: "name", as: String.self),
            uid: try row.decode(column: "uid", as: String.self), method: method, sender: try row.decode(column: "sender", as: String.self),
            icalendar: try row.decode(column: "icalendar", as: String.self), etag: try row.decode(column: "etag", as: String.self),
            createdAt: try date(row, "created_at"))
    }

    // MARK: Answer tokens

    func insertInvitationToken(_ token: InvitationToken) async throws {
        try await db.raw("""
            INSERT INTO invitation_tokens (token_digest, invitation_id, created_at, expires_at, used_at)
            VALUES (\(bind: token.digest.hex), \(bind: token.invitationID.uuidString), \(bind: token.createdAt.unixMilliseconds),
                    \(bind: token.expiresAt.unixMilliseconds), \(bind: token.usedAt?.unixMilliseconds))
            """).run()
    }

    func invitationToken(digest: TokenDigest) async throws -> InvitationToken? {
        guard let row = try await db.raw("""
            SELECT token_digest, invitation_id, created_at, expires_at, used_at FROM invitation_tokens WHERE token_digest = \(bind: digest.hex)
            """).first()
        else { return nil }
        return InvitationToken(
            digest: digest, invitationID: try Self.uuid(row, "invitation_id"), createdAt: try Self.date(row, "created_at"),
            expiresAt: try Self.date(row, "expires_at"), usedAt: try Self.optionalDate(row, "used_at"))
    }

    func markInvitationTokenUsed(digest: TokenDigest, at: Date) async throws -> Bool {
        // RETURNING tells whether this statement changed the row: two answers sent at once
        // cannot both spend the link.
        try await db.raw("""
            UPDATE invitation_tokens SET used_at = \(bind: at.unixMilliseconds)
            WHERE token_digest = \(bind: digest.hex) AND used_at IS NULL RETURNING token_digest
            """).first() != nil
    }
}
