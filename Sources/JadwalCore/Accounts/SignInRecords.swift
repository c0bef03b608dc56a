import Foundation

/// A magic-link token as stored: only its digest, who asked, and when it stops working.
public struct SignInTokenRecord: Sendable, Hashable {
    public var digest: TokenDigest
    public var email: EmailAddress
    /// The client address that asked for it, for per-address rate limits.
    public var requester: String?
    public var createdAt: Date
    public var expiresAt: Date
    public var usedAt: Date?

    public init(digest: TokenDigest, email: EmailAddress, requester: String?, createdAt: Date, expiresAt: Date, usedAt: Date? = nil) {
        self.digest = digest
        self.email = email
        self.requester = requester
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.usedAt = usedAt
    }
}

/// How a session was started.
public enum SignInMethod: String, Sendable, Codable {
    case magicLink = "magic-link"
    case google
}

/// One signed-in device: a family of refresh tokens. Revoking the session ends every token in it.
public struct SignInSession: Sendable, Hashable, Codable {
    public var id: UUID
    public var accountID: UUID
    public var method: SignInMethod
    public var createdAt: Date
    public var lastUsedAt: Date
    public var expiresAt: Date
    public var userAgent: String?
    public var clientAddress: String?
    public var revokedAt: Date?
    public var revokedReason: String?

    public init(
        id: UUID, accountID: UUID, method: SignInMethod, createdAt: Date, lastUsedAt: Date, expiresAt: Date,
        userAgent: String?, clientAddress: String?, revokedAt: Date? = nil, revokedReason: String? = nil
    ) {
        self.id = id
        self.accountID = accountID
        self.method = method
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.expiresAt = expiresAt
        self.userAgent = userAgent
        self.clientAddress = clientAddress
        self.revokedAt = revokedAt
        self.revokedReason = revokedReason
    }

    public func isActive(at now: Date) -> Bool { revokedAt == nil && expiresAt > now }
}

/// A refresh token as stored. `rotatedAt` is set when it is exchanged; presenting it again
/// afterwards means it was copied, so the whole session is revoked.
public struct RefreshTokenRecord: Sendable, Hashable {
    public var digest: TokenDigest
    public var sessionID: UUID
    public var createdAt: Date
    public var rotatedAt: Date?

    public init(digest: TokenDigest, sessionID: UUID, createdAt: Date, rotatedAt: Date? = nil) {
        self.digest = digest
        self.sessionID = sessionID
        self.createdAt = createdAt
        self.rotatedAt = rotatedAt
    }
}

/// What a client who signed in receives (the access JWT is minted by the server layer).
public struct SignedIn: Sendable {
    public var account: Account
    public var session: SignInSession
    public var refreshToken: SecretToken
    /// True when this sign-in created the account.
    public var isNewAccount: Bool
}
