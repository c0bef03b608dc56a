import Foundation

/// A person's own account: their profile and the sessions signed in to it. The JSON API and the
/// web's settings page adapt it.
public struct Profiles: Sendable {
    let store: StoreAccess<any AccountStore & AppPasswordStore & CalendarFeedStore & ChatConnectorTokenStore & SessionStore & SetupTokenStore>
    let clock: Clock

    public init(store: any Store, clock: Clock) {
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
    }

    public enum Problem: Error, Sendable, Equatable {
        case noAccount
    }

    /// Validates and stores a profile change; throws `ProfileChange.Problem` for the field that is wrong.
    public func save(_ change: ProfileChange, accountID: UUID) async throws -> Account {
        try await store.transaction { tx in
            guard let current = try await tx.account(id: accountID) else { throw Problem.noAccount }
            let next = try change.applied(to: current)
            try await tx.updateAccount(next)
            return next
        }
    }

    /// The account's sessions that are neither revoked nor expired, newest first.
    public func activeSessions(accountID: UUID) async throws -> [SignInSession] {
        let now = clock.now
        return try await store.read { tx in try await tx.activeSessions(accountID: accountID, at: now) }
    }

    /// The account's app passwords, connector tokens, feeds and unspent setup links: what the
    /// devices page lists beside the sessions.
    public func deviceAccess(accountID: UUID) async throws -> DeviceAccess {
        let now = clock.now
        return try await store.read { tx in try await DeviceAccess.read(accountID: accountID, now: now, in: tx) }
    }

    /// Ends one of the person's own sessions; false when there is no such active session of
    /// theirs, so another's answers like a missing one.
    public func revokeSession(id: UUID, accountID: UUID) async throws -> Bool {
        let now = clock.now
        return try await store.transaction { tx -> Bool in
            guard let session = try await tx.session(id: id), session.accountID == accountID, session.isActive(at: now) else { return false }
            try await tx.revokeSession(id: id, at: now, reason: "signed out from another device")
            return true
        }
    }
}
