import Foundation

/// What a notification is about.
public enum NotificationKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Jadwal added an event by itself (agreed in a chat).
    case eventAdded = "event-added"
    /// An event runs into other busy time, and the person asked to hear about it.
    case conflict
    /// An event's or a to-do's alarm is due.
    case reminder
    /// A subscribed calendar could not be fetched.
    case feedFailed = "feed-failed"
    /// A device finished Easy Setup.
    case setupDone = "setup-done"
    /// The linked WhatsApp stopped: logged out from the phone, or refused by WhatsApp.
    case whatsAppUnlinked = "whatsapp-unlinked"
    /// Someone shared a calendar with the person, or answered the person's share.
    case share
    /// A change made in Jadwal to a mirrored calendar was not applied: the other server had
    /// changed the item first, and its version was kept.
    case remoteChangeRejected = "remote-change-rejected"
    /// A prayer's time is here (or near), as the person asked in their prayer alerts.
    case prayer
    /// Someone invited the person to a meeting, changed or cancelled it, answered the person's
    /// invitation, or proposed another time.
    case invitation
    /// Progress on goals and the tracker (a goal met this week, a streak, short nights) and the
    /// plan (the weekly plan ready, proposals an event took the time of moved).
    case progress
}

/// One entry of a person's notification feed. `sequence` numbers an account's notifications in
/// the order they were made, so a live stream resumes after the last one a client saw.
public struct AccountNotification: Sendable, Hashable {
    public var id: UUID
    public var accountID: UUID
    /// Assigned when stored; 0 before.
    public var sequence: Int64
    public var kind: NotificationKind
    /// Why it was made (`conflict:<id>`, `reminder:<object>:<instance>:<alarm>`): the account
    /// never gets two notifications with one reason.
    public var reasonKey: String
    public var title: String
    public var body: String
    /// Where it points: `calendarId`, `objectName`, `conflictId`, `conversationId`, `url`.
    public var links: [String: String]
    /// Urgent ones (reminders, answers to the person's own action) are never held by quiet hours.
    public var urgent: Bool
    public var createdAt: Date
    /// Not shown, streamed, mailed or pushed before this (the end of quiet hours).
    public var deliverAfter: Date
    public var readAt: Date?

    public init(
        id: UUID, accountID: UUID, sequence: Int64 = 0, kind: NotificationKind, reasonKey: String, title: String, body: String,
        links: [String: String] = [:], urgent: Bool, createdAt: Date, deliverAfter: Date, readAt: Date? = nil
    ) {
        self.id = id
        self.accountID = accountID
        self.sequence = sequence
        self.kind = kind
        self.reasonKey = reasonKey
        self.title = title
        self.body = body
        self.links = links
        self.urgent = urgent
        self.createdAt = createdAt
        self.deliverAfter = deliverAfter
        self.readAt = readAt
    }
}

/// How a person wants to hear about things. The feed (and the web app's live stream) always
/// has everything; these choose the other channels and the quiet hours.
public struct NotificationSettings: Sendable, Hashable {
    public var emailKinds: Set<NotificationKind>
    public var pushKinds: Set<NotificationKind>
    /// Hold non-urgent notifications while asleep (the sleep routines, or 23:00–07:00).
    public var quietDuringSleep: Bool
    /// Hold non-urgent notifications during prayer blocks.
    public var quietDuringPrayer: Bool

    /// Email for what Jadwal did by itself (events it added, conflicts); push for everything.
    public init(
        emailKinds: Set<NotificationKind> = [.eventAdded, .conflict, .feedFailed], pushKinds: Set<NotificationKind> = Set(NotificationKind.allCases),
        quietDuringSleep: Bool = true, quietDuringPrayer: Bool = true
    ) {
        self.emailKinds = emailKinds
        self.pushKinds = pushKinds
        self.quietDuringSleep = quietDuringSleep
        self.quietDuringPrayer = quietDuringPrayer
    }
}

/// An Apple device that receives push notifications (its APNs device token, hex).
public struct PushDevice: Sendable, Hashable {
    public var id: UUID
    public var accountID: UUID
    public var token: String
    public var name: String
    public var createdAt: Date
    public var lastUsedAt: Date?

    public static let nameLimit = 100

    public init(id: UUID, accountID: UUID, token: String, name: String, createdAt: Date, lastUsedAt: Date? = nil) {
        self.id = id
        self.accountID = accountID
        self.token = token
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}
