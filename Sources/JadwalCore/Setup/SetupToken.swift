import Foundation

/// A one-time Easy Setup token: the URL of a configuration profile that, when fetched, carries a
/// fresh app password. Stored only as its digest; valid 15 minutes and for one download.
public struct SetupToken: Sendable, Hashable {
    public static let lifetime: TimeInterval = 15 * 60

    /// What the profile installs. The CalDAV account already shows the Prayer Times calendar,
    /// so the subscription is its own profile, for devices that should only subscribe.
    public enum Kind: String, Sendable, Hashable {
        case caldav
        case prayerSubscription = "prayer-subscription"
    }

    public var digest: TokenDigest
    public var kind: Kind
    public var accountID: UUID
    /// The device the app password will be named after ("Sara's iPhone").
    public var deviceName: String
    public var createdAt: Date
    public var expiresAt: Date
    public var usedAt: Date?

    public init(
        digest: TokenDigest, kind: Kind = .caldav, accountID: UUID, deviceName: String, createdAt: Date, expiresAt: Date, usedAt: Date? = nil
    ) {
        self.digest = digest
        self.kind = kind
        self.accountID = accountID
        self.deviceName = deviceName
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.usedAt = usedAt
    }

    /// A device name as given, or "iPhone" when none: trimmed, without control characters, at most 100 characters.
    public static func deviceName(_ raw: String?) -> String? {
        let trimmed = (raw ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return "iPhone" }
        guard trimmed.count <= 100, !trimmed.containsControlCharacters else { return nil }
        return trimmed
    }
}
