import Foundation

/// A read-only calendar published at an unguessable URL (`webcal://…/feeds/<token>.ics`) for
/// apps that subscribe instead of syncing. Only the token's digest is stored; revoking it (or
/// making a new one) makes the old URL answer 404.
public struct CalendarFeed: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable { case prayerTimes = "prayer-times" }

    public var digest: TokenDigest
    public var accountID: UUID
    public var kind: Kind
    /// Minutes before each event for a reminder in the feed; nil for none.
    public var alarmMinutesBefore: Int?
    public var createdAt: Date
    public var revokedAt: Date?

    public init(digest: TokenDigest, accountID: UUID, kind: Kind, alarmMinutesBefore: Int?, createdAt: Date, revokedAt: Date? = nil) {
        self.digest = digest
        self.accountID = accountID
        self.kind = kind
        self.alarmMinutesBefore = alarmMinutesBefore
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }
}
