import Foundation
import ICalendar

/// The `invitation.email` job: one iTIP message emailed (iMIP, RFC 6047) to a calendar user
/// outside this server, queued in the transaction of the write that sent it. For an invitation
/// to an attendee the answer links are made when the email is sent, so their secret is never
/// stored in the queue.
public struct InvitationMail: Sendable, Hashable, Codable {
    public static let kind: JobKind = "invitation.email"

    public var method: ITIPMethod
    public var to: String
    public var toName: String?
    /// Who sends it: the organizer of an invitation or cancellation, the attendee of an answer.
    public var fromAccountID: UUID
    /// The invitation a message to an attendee is about: its answer links and SCHEDULE-STATUS.
    public var invitationID: UUID?
    public var language: Language
    /// The message itself (METHOD calendar), attached to the email.
    public var icalendar: String

    public init(method: ITIPMethod, to: String, toName: String?, fromAccountID: UUID, invitationID: UUID?, language: Language, icalendar: String) {
        self.method = method
        self.to = to
        self.toName = toName
        self.fromAccountID = fromAccountID
        self.invitationID = invitationID
        self.language = language
        self.icalendar = icalendar
    }

    public func job(now: Date, random: RandomSource) -> Job {
        let payload = (try? JSONEncoder().encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return Job.new(Self.kind, payload: payload, maxAttempts: 8, runAt: now, now: now, id: random.uuid())
    }

    /// The request a job carries; nil when its payload cannot be read.
    public static func request(of job: Job) -> InvitationMail? {
        try? JSONDecoder().decode(InvitationMail.self, from: Data(job.payload.utf8))
    }
}

/// An invitation email ready to render: who it is from and to, what it says, the calendar
/// attached, and the answer links when the recipient is an invited attendee.
public struct InvitationMailContent: Sendable, Hashable {
    public struct Links: Sendable, Hashable {
        public var accept: String
        public var tentative: String
        public var decline: String
        /// The page that shows the invitation with its answer buttons.
        public var page: String
    }

    public var method: ITIPMethod
    public var to: String
    public var toName: String?
    /// The sender's name and email: shown as who it is from, and where answers by email go.
    public var senderName: String
    public var senderEmail: String
    public var language: Language
    public var subject: String
    /// Paragraphs of the body, in order.
    public var paragraphs: [String]
    public var links: Links?
    public var footer: String
    public var icalendar: String
}
