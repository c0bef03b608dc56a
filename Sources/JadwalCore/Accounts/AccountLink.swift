import Foundation

/// A one-time link emailed about the account itself: to confirm a new sign-in address (sent to
/// that address) or to confirm deleting the account (sent to the account's address). Stored as
/// the SHA-256 of its token, like sign-in links; it works once, for `lifetime`.
public struct AccountLinkRecord: Sendable, Hashable {
    public enum Purpose: String, Sendable, Hashable, Codable, CaseIterable {
        case emailChange = "email-change"
        case deletion
    }

    public var digest: TokenDigest
    public var accountID: UUID
    public var purpose: Purpose
    /// The address the account moves to (`emailChange` only).
    public var newEmail: EmailAddress?
    public var createdAt: Date
    public var expiresAt: Date
    public var usedAt: Date?

    public init(
        digest: TokenDigest, accountID: UUID, purpose: Purpose, newEmail: EmailAddress? = nil, createdAt: Date, expiresAt: Date, usedAt: Date? = nil
    ) {
        self.digest = digest
        self.accountID = accountID
        self.purpose = purpose
        self.newEmail = newEmail
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.usedAt = usedAt
    }

    /// As long as a sign-in link lasts: the person is at their mailbox now.
    public static let lifetime: TimeInterval = 15 * 60
    /// At most this many links of one purpose per account within `rateWindow`.
    public static let perWindow = 5
    public static let rateWindow: TimeInterval = 15 * 60

    /// The subject of a queued email carrying one of the account's links: deleting the account
    /// cancels it with the account's other jobs, so no link to a gone account goes out.
    public static func mailSubject(_ account: Account) -> String { "account-mail:" + account.id.uuidString.lowercased() }
}

/// Whether the account went through the first-run guide: finished it, or skipped it. An account
/// without a record has not yet (it is shown the guide after signing in).
public struct FirstRunRecord: Sendable, Hashable, Codable {
    public enum State: String, Sendable, Hashable, Codable, CaseIterable {
        case completed
        case skipped
    }

    public var state: State
    public var at: Date

    public init(state: State, at: Date) {
        self.state = state
        self.at = at
    }
}
