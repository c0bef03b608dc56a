import Foundation

/// A notification before it is stored: what it says and why.
public struct NotificationDraft: Sendable, Hashable {
    public var kind: NotificationKind
    public var reasonKey: String
    public var title: String
    public var body: String
    public var links: [String: String]
    public var urgent: Bool

    public init(kind: NotificationKind, reasonKey: String, title: String, body: String, links: [String: String] = [:], urgent: Bool) {
        self.kind = kind
        self.reasonKey = reasonKey
        self.title = title
        self.body = body
        self.links = links
        self.urgent = urgent
    }
}

/// Posting a notification: stored once per reason, held through quiet hours unless urgent, and
/// queued for the email and push channels the person chose, in the caller's transaction (so an
/// event and the notice that it was added commit together). The caller wakes live streams
/// after the commit.
public enum NotificationDispatch {
    /// Sends one notification by email.
    public static let emailJob: JobKind = "notification.email"
    /// Pushes one notification to every device of the account.
    public static let pushJob: JobKind = "notification.push"
    /// Pushes one notification to every browser of the account (Web Push).
    public static let webPushJob: JobKind = "notification.webpush"

    /// The job payload of both channels.
    public struct ChannelRequest: Sendable, Hashable, Codable {
        public var notificationID: UUID
        public var accountID: UUID

        public init(notificationID: UUID, accountID: UUID) {
            self.notificationID = notificationID
            self.accountID = accountID
        }
    }

    /// Whom a notification goes to, and how, as posting reads it: the person's settings, when
    /// their quiet hours let a notice through, and whether they have devices to push to. Read
    /// once for every notice posted at one moment (a bulk write's conflict check may post
    /// thousands: each read again was five statements per notice).
    public struct Recipient: Sendable {
        public let account: Account
        /// The moment notices are posted at.
        let now: Date
        let settings: NotificationSettings
        /// When a notice that is not urgent is delivered: `now`, or the end of quiet hours.
        let deliverAfter: Date
        let hasPushDevices: Bool
        let hasWebPush: Bool
    }

    public static func recipient(_ account: Account, now: Date, tx: any CalendarStore & ConflictStore & GoalStore & NotificationStore & PrayerSettingsStore & WebPushStore) async throws -> Recipient {
        let settings = try await tx.notificationSettings(accountID: account.id)
        let pushes = !settings.pushKinds.isEmpty
        return Recipient(
            account: account, now: now, settings: settings,
            deliverAfter: try await QuietHours.deliveryTime(now: now, account: account, settings: settings, tx: tx),
            hasPushDevices: pushes ? !(try await tx.pushDevices(accountID: account.id)).isEmpty : false,
            hasWebPush: pushes ? !(try await tx.webPushSubscriptions(accountID: account.id)).isEmpty : false)
    }

    /// The stored notification, or nil when one with the same reason exists already.
    @discardableResult
    public static func post(_ draft: NotificationDraft, account: Account, now: Date, random: RandomSource, tx: any NoticeStore) async throws -> AccountNotification? {
        try await post(draft, to: try await recipient(account, now: now, tx: tx), random: random, tx: tx)
    }

    /// The same, for a recipient read already.
    @discardableResult
    public static func post(_ draft: NotificationDraft, to recipient: Recipient, random: RandomSource, tx: any JobStore & NotificationStore) async throws -> AccountNotification? {
        let (account, now, settings) = (recipient.account, recipient.now, recipient.settings)
        let deliverAfter = draft.urgent ? now : recipient.deliverAfter
        let candidate = AccountNotification(
            id: random.uuid(), accountID: account.id, kind: draft.kind, reasonKey: draft.reasonKey, title: draft.title, body: draft.body, links: draft.links,
            urgent: draft.urgent, createdAt: now, deliverAfter: deliverAfter)
        guard let stored = try await tx.insertNotification(candidate) else { return nil }
        let request = ChannelRequest(notificationID: stored.id, accountID: account.id)
        let payload = String(decoding: try JSONEncoder().encode(request), as: UTF8.self)
        if settings.emailKinds.contains(draft.kind) {
            try await tx.enqueue(Job.new(emailJob, payload: payload, maxAttempts: 8, runAt: deliverAfter, now: now, id: random.uuid()))
        }
        if settings.pushKinds.contains(draft.kind), recipient.hasPushDevices {
            try await tx.enqueue(Job.new(pushJob, payload: payload, maxAttempts: 8, runAt: deliverAfter, now: now, id: random.uuid()))
        }
        // "Push" is one choice for both: the phone's app (APNs) and its browser (Web Push).
        if settings.pushKinds.contains(draft.kind), recipient.hasWebPush {
            try await tx.enqueue(Job.new(webPushJob, payload: payload, maxAttempts: 8, runAt: deliverAfter, now: now, id: random.uuid()))
        }
        return stored
    }
}
