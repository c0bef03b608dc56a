import Foundation
import ICalendar

/// One person invited to one meeting organised on this server: the organizer's side of the
/// invitation (who, their answer, what became of the last message) and the summary the
/// invitee's list shows. Kept in step with the organizer's copy, which stays the record:
/// each write of the meeting, each answer and each cancellation updates it in its transaction.
public struct Invitation: Sendable, Hashable {
    public enum State: String, Sendable, Hashable, Codable {
        case active
        /// The meeting was deleted or cancelled, or the person taken off it.
        case cancelled
    }

    public var id: UUID
    public var organizerID: UUID
    /// The meeting's UID: the organizer's copy is found by it in their calendars, wherever
    /// they moved it.
    public var uid: String
    /// The address invited; a person invited by their principal URL is listed by their email.
    public var attendeeEmail: EmailAddress
    /// Set when the address is an account of this server.
    public var attendeeID: UUID?
    public var attendeeName: String?
    public var partstat: ParticipationStatus
    /// What became of the last message to them (`ScheduleStatus`).
    public var scheduleStatus: String
    public var state: State
    public var summary: String
    /// The first instance's time (for a series: the first instance not over when it was sent).
    public var start: Date?
    public var end: Date?
    public var allDay: Bool
    public var recurring: Bool
    /// Another time the invitee asked for (iTIP COUNTER), until the organizer answers it.
    public var proposal: CounterProposal?
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: UUID, organizerID: UUID, uid: String, attendeeEmail: EmailAddress, attendeeID: UUID? = nil,
        attendeeName: String? = nil, partstat: ParticipationStatus = .needsAction, scheduleStatus: String, state: State = .active,
        summary: String, start: Date?, end: Date?, allDay: Bool = false, recurring: Bool = false, proposal: CounterProposal? = nil,
        createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.organizerID = organizerID
        self.uid = uid
        self.attendeeEmail = attendeeEmail
        self.attendeeID = attendeeID
        self.attendeeName = attendeeName
        self.partstat = partstat
        self.scheduleStatus = scheduleStatus
        self.state = state
        self.summary = summary
        self.start = start
        self.end = end
        self.allDay = allDay
        self.recurring = recurring
        self.proposal = proposal
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Whether the person may answer it (it is theirs, and the meeting is on).
    public func isFor(_ account: Account) -> Bool {
        attendeeID == account.id || (attendeeID == nil && attendeeEmail == account.email)
    }
}

/// Another time an invitee proposed (RFC 5546 §3.2.7).
public struct CounterProposal: Sendable, Hashable, Codable {
    public var start: Date
    public var end: Date
    public var comment: String
    public var proposedAt: Date

    public init(start: Date, end: Date, comment: String, proposedAt: Date) {
        self.start = start
        self.end = end
        self.comment = comment
        self.proposedAt = proposedAt
    }
}

/// One message in a person's scheduling Inbox (RFC 6638 §2.2): what the server delivered to
/// them, kept for their clients to read (and delete) after it was applied to their calendar.
public struct SchedulingMessage: Sendable, Hashable {
    public var id: UUID
    public var accountID: UUID
    /// Its resource name in the Inbox.
    public var name: String
    public var uid: String
    public var method: ITIPMethod
    /// The sender's calendar user address.
    public var sender: String
    public var icalendar: String
    public var etag: String
    public var createdAt: Date

    public init(id: UUID, accountID: UUID, name: String, uid: String, method: ITIPMethod, sender: String, icalendar: String, etag: String, createdAt: Date) {
        self.id = id
        self.accountID = accountID
        self.name = name
        self.uid = uid
        self.method = method
        self.sender = sender
        self.icalendar = icalendar
        self.etag = etag
        self.createdAt = createdAt
    }
}

/// The secret behind an invitation email's answer links: single use, stored as a digest.
public struct InvitationToken: Sendable, Hashable {
    public var digest: TokenDigest
    public var invitationID: UUID
    public var createdAt: Date
    public var expiresAt: Date
    public var usedAt: Date?

    public init(digest: TokenDigest, invitationID: UUID, createdAt: Date, expiresAt: Date, usedAt: Date? = nil) {
        self.digest = digest
        self.invitationID = invitationID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.usedAt = usedAt
    }
}

/// Invitations, Inbox messages and answer tokens.
public protocol InvitationStore: Sendable {
    func insertInvitation(_ invitation: Invitation) async throws
    /// Saves everything but the ids, the meeting's UID, the address and the creation time.
    func updateInvitation(_ invitation: Invitation) async throws
    func invitation(id: UUID) async throws -> Invitation?
    /// The invitations of one meeting (organizer and UID), oldest first.
    func invitations(organizerID: UUID, uid: String) async throws -> [Invitation]
    /// Invitations sent to this account or address, newest first, at most `limit`.
    func receivedInvitations(accountID: UUID, email: EmailAddress, limit: Int) async throws -> [Invitation]
    /// The organizer's invitations that carry a proposal of another time.
    func proposedInvitations(organizerID: UUID) async throws -> [Invitation]

    func insertSchedulingMessage(_ message: SchedulingMessage) async throws
    /// The account's Inbox, oldest first.
    func schedulingMessages(accountID: UUID) async throws -> [SchedulingMessage]
    func schedulingMessage(accountID: UUID, name: String) async throws -> SchedulingMessage?
    func deleteSchedulingMessage(accountID: UUID, name: String) async throws -> Bool
    /// Drops the oldest messages beyond `keep`.
    func trimSchedulingMessages(accountID: UUID, keep: Int) async throws

    func insertInvitationToken(_ token: InvitationToken) async throws
    func invitationToken(digest: TokenDigest) async throws -> InvitationToken?
    /// Marks it used only if it was unused; false when it had been used already.
    func markInvitationTokenUsed(digest: TokenDigest, at: Date) async throws -> Bool
}
