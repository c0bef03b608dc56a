import Foundation

/// The browsers a person receives Web Push in: subscribing (the endpoint must be HTTPS on an
/// address this server may reach), listing and removing, and what the `notification.webpush`
/// job reads and marks while it delivers. The JSON API, the web app and the job only adapt it.
public struct WebPushSubscriptions: Sendable {
    let store: StoreAccess<any AccountStore & NotificationStore & WebPushStore>
    let clock: Clock
    let random: RandomSource
    /// Checks where an endpoint's host points, by the same rules as every other address the
    /// server fetches (JadwalFetch): no private or loopback addresses unless the operator allows them.
    let addresses: any FeedFetching
    /// This server's VAPID public key (base64url), which browsers subscribe with.
    public let serverKey: String

    public init(store: any Store, clock: Clock, random: RandomSource, addresses: any FeedFetching, serverKey: String) {
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
        self.random = random
        self.addresses = addresses
        self.serverKey = serverKey
    }

    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case invalid(WebPushSubscriptionDraft.Problem)
        /// The endpoint's host is not one this server sends to (private, loopback, unresolvable).
        case endpointRefused(String)
        case tooMany(limit: Int)
        case noSubscription

        public var description: String {
            switch self {
            case .invalid(let problem): problem.description
            case .endpointRefused(let why): "'endpoint' cannot be used: \(why)"
            case .tooMany(let limit): "this account has \(limit) browsers receiving notifications already; remove one first"
            case .noSubscription: "no such browser subscription"
            }
        }
    }

    /// Registers (or renews) a browser's subscription. The same endpoint again replaces the
    /// stored keys: browsers renew them.
    public func subscribe(_ draft: WebPushSubscriptionDraft, accountID: UUID) async throws -> WebPushSubscription {
        let now = clock.now
        let subscription: WebPushSubscription
        do throws(WebPushSubscriptionDraft.Problem) {
            subscription = try draft.validated(accountID: accountID, serverKey: serverKey, now: now, id: random.uuid())
        } catch {
            throw Problem.invalid(error)
        }
        do throws(FeedFetchFailure) {
            try await addresses.checkAddress(subscription.endpoint)
        } catch {
            throw Problem.endpointRefused(error.message)
        }
        return try await store.transaction { tx in
            let existing = try await tx.webPushSubscriptions(accountID: accountID)
            if !existing.contains(where: { $0.endpoint == subscription.endpoint }), existing.count >= WebPushSubscription.perAccountLimit {
                throw Problem.tooMany(limit: WebPushSubscription.perAccountLimit)
            }
            return try await tx.saveWebPushSubscription(subscription)
        }
    }

    public func subscriptions(accountID: UUID) async throws -> [WebPushSubscription] {
        try await store.read { tx in try await tx.webPushSubscriptions(accountID: accountID) }
    }

    public func remove(id: UUID, accountID: UUID) async throws {
        guard try await store.transaction({ tx in try await tx.deleteWebPushSubscription(id: id, accountID: accountID) }) else {
            throw Problem.noSubscription
        }
    }

    // MARK: Delivery

    /// What one push job sends: the notification and the account's browsers; nil when the
    /// notification or the account is gone.
    public func delivery(of request: NotificationDispatch.ChannelRequest) async throws -> (AccountNotification, Account, [WebPushSubscription])? {
        try await store.read { tx in
            guard let notification = try await tx.notification(id: request.notificationID, accountID: request.accountID),
                  let account = try await tx.account(id: request.accountID), !account.isDisabled
            else { return nil }
            return (notification, account, try await tx.webPushSubscriptions(accountID: account.id))
        }
    }

    /// The channel one browser's delivery is recorded under.
    public static func channel(_ subscription: WebPushSubscription) -> String { "webpush:" + subscription.id.uuidString.lowercased() }

    /// Claims the notification for one browser before sending; false when it has it already.
    public func claim(_ notification: AccountNotification, for subscription: WebPushSubscription) async throws -> Bool {
        let now = clock.now
        return try await store.transaction { tx in
            try await tx.recordDelivery(notificationID: notification.id, channel: Self.channel(subscription), at: now)
        }
    }

    /// Gives a claim back after a send that is to be retried.
    public func release(_ notification: AccountNotification, for subscription: WebPushSubscription) async throws {
        try await store.transaction { tx in try await tx.releaseDelivery(notificationID: notification.id, channel: Self.channel(subscription)) }
    }

    public func delivered(to subscription: WebPushSubscription) async throws {
        let now = clock.now
        try await store.transaction { tx in try await tx.markWebPushSubscriptionUsed(id: subscription.id, at: now) }
    }

    /// Forgets a subscription the push service says is gone (404 or 410).
    @discardableResult
    public func drop(_ subscription: WebPushSubscription) async throws -> Bool {
        try await store.transaction { tx in try await tx.deleteWebPushSubscription(id: subscription.id) }
    }
}
