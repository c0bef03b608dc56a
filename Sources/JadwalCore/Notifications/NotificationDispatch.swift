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

    /// The stored notification, or nil when one with the same reason exists already.
    @discardableResult
    public static func post(_ draft: NotificationDraft, account: Account, now: Date, tx: any StoreTransaction) async throws -> AccountNotification? {
        let settings = try await tx.notificationSettings(accountID: account.id)
        let deliverAfter = draft.urgent ? now : try await QuietHours.deliveryTime(now: now, account: account, settings: settings, tx: tx)
        let candidate = AccountNotification(
            accountID: account.id, kind: draft.kind, reasonKey: draft.reasonKey, title: draft.title, body: draft.body, links: draft.links,
            urgent: draft.urgent, createdAt: now, deliverAfter: deliverAfter)
        guard let stored = try await tx.insertNotification(candidate) else { return nil }
        let request = ChannelRequest(notificationID: stored.id, accountID: account.id)
        let payload = String(decoding: try JSONEncoder().encode(request), as: UTF8.self)
        if settings.emailKinds.contains(draft.kind) {
            try await tx.enqueue(Job.new(emailJob, payload: payload, maxAttempts: 8, runAt: deliverAfter, now: now))
        }
        if settings.pushKinds.contains(draft.kind), !(try await tx.pushDevices(accountID: account.id)).isEmpty {
            try await tx.enqueue(Job.new(pushJob, payload: payload, maxAttempts: 8, runAt: deliverAfter, now: now))
        }
        // "Push" is one choice for both: the phone's app (APNs) and its browser (Web Push).
        if settings.pushKinds.contains(draft.kind), !(try await tx.webPushSubscriptions(accountID: account.id)).isEmpty {
            try await tx.enqueue(Job.new(webPushJob, payload: payload, maxAttempts: 8, runAt: deliverAfter, now: now))
        }
        return stored
    }
}
