import Foundation

/// Everything that lets a device or a link in without a session: app passwords (CalDAV),
/// connector tokens (chats), prayer-times feed addresses and Easy Setup links not yet spent.
/// Signing out everywhere ends sessions; these outlive it unless they are revoked too.
public struct DeviceAccess: Sendable, Equatable {
    public var appPasswords: [AppPassword]
    public var connectorTokens: [ChatConnectorToken]
    public var feeds: [CalendarFeed]
    public var setupLinks: [SetupToken]

    public init(appPasswords: [AppPassword], connectorTokens: [ChatConnectorToken], feeds: [CalendarFeed], setupLinks: [SetupToken]) {
        self.appPasswords = appPasswords
        self.connectorTokens = connectorTokens
        self.feeds = feeds
        self.setupLinks = setupLinks
    }

    /// How many of each were revoked.
    public struct Revoked: Sendable, Equatable {
        public var appPasswords = 0
        public var connectorTokens = 0
        public var feeds = 0
        public var setupLinks = 0

        public init() {}

        public var total: Int { appPasswords + connectorTokens + feeds + setupLinks }
    }

    /// The account's active credentials of every kind.
    static func read(accountID: UUID, now: Date, in tx: any AppPasswordStore & CalendarFeedStore & ChatConnectorTokenStore & SetupTokenStore) async throws -> DeviceAccess {
        DeviceAccess(
            appPasswords: try await tx.appPasswords(accountID: accountID), connectorTokens: try await tx.chatConnectorTokens(accountID: accountID),
            feeds: try await tx.activeCalendarFeeds(accountID: accountID), setupLinks: try await tx.unspentSetupTokens(accountID: accountID, now: now))
    }

    /// Revokes all of them, in the caller's transaction.
    static func revokeAll(accountID: UUID, at now: Date, in tx: any AppPasswordStore & CalendarFeedStore & ChatConnectorTokenStore & SetupTokenStore) async throws -> Revoked {
        var revoked = Revoked()
        revoked.appPasswords = try await tx.revokeAppPasswords(accountID: accountID, at: now)
        revoked.connectorTokens = try await tx.revokeChatConnectorTokens(accountID: accountID, at: now)
        revoked.feeds = try await tx.revokeCalendarFeeds(accountID: accountID, kind: .prayerTimes, at: now)
        revoked.setupLinks = try await tx.revokeSetupTokens(accountID: accountID, at: now)
        return revoked
    }
}
