import Foundation

/// A slow password hash (bcrypt on the server, `PasswordHashing.bcrypt` in JadwalHTTP), run off
/// the async executors by whoever supplies it.
public struct PasswordHashing: Sendable {
    public let hash: @Sendable (String) async throws -> String
    public let verify: @Sendable (_ password: String, _ hash: String) async throws -> Bool

    public init(hash: @escaping @Sendable (String) async throws -> String, verify: @escaping @Sendable (String, String) async throws -> Bool) {
        self.hash = hash
        self.verify = verify
    }
}

/// Device passwords for CalDAV clients: made, listed, checked and revoked by one set of rules,
/// for the API, the settings page, the CLI and CalDAV's Basic auth. A password that verified
/// recently is recognised by its SHA-256 instead of the slow hash again, while revocation still
/// applies at once, because the active list is read on every check.
public struct AppPasswords: Sendable {
    let store: any Store
    let clock: Clock
    let random: RandomSource
    let hashing: PasswordHashing
    private let recentlyVerified = VerifiedPasswords()

    public init(store: any Store, clock: Clock, random: RandomSource, hashing: PasswordHashing) {
        self.store = store
        self.clock = clock
        self.random = random
        self.hashing = hashing
    }

    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case noAccount(String)

        public var description: String {
            switch self {
            case .noAccount(let email): "no account for \(email)"
            }
        }
    }

    /// The account's app passwords that are not revoked, newest first as the store keeps them.
    public func active(accountID: UUID) async throws -> [AppPassword] {
        try await store.read { tx in try await tx.appPasswords(accountID: accountID) }
    }

    /// Revokes one of the account's app passwords; false when it has none with that id.
    public func revoke(id: UUID, accountID: UUID) async throws -> Bool {
        let now = clock.now
        return try await store.transaction { tx in try await tx.revokeAppPassword(id: id, accountID: accountID, at: now) }
    }

    /// The account with this email, for the operator's commands.
    public func account(email: EmailAddress) async throws -> Account {
        guard let account = try await store.read({ tx in try await tx.account(email: email) }) else { throw Problem.noAccount(email.value) }
        return account
    }

    /// A new password for `accountID`'s device `name`: the record, and the password to show once.
    public func create(accountID: UUID, name: String) async throws -> (AppPassword, String) {
        let plaintext = AppPassword.generate(random: random)
        let hash = try await hashing.hash(plaintext)
        let record = AppPassword(id: random.uuid(), accountID: accountID, name: name, passwordHash: hash, createdAt: clock.now)
        try await store.transaction { tx in try await tx.insertAppPassword(record) }
        return (record, plaintext)
    }

    /// The active app password of `accountID` that `presented` is, if any.
    public func verify(accountID: UUID, presented: String) async throws -> AppPassword? {
        guard !presented.isEmpty, presented.utf8.count <= 128 else { return nil }
        let active = try await store.read { tx in try await tx.appPasswords(accountID: accountID) }
        return try await verify(accountID: accountID, presented: presented, against: active)
    }

    /// The same check against an active list the caller already read (with the account).
    public func verify(accountID: UUID, presented: String, against active: [AppPassword]) async throws -> AppPassword? {
        guard !presented.isEmpty, presented.utf8.count <= 128 else { return nil }
        let fingerprint = Self.fingerprint(accountID: accountID, password: presented)
        if let id = await recentlyVerified.passwordID(for: fingerprint, now: clock.now), let match = active.first(where: { $0.id == id }) {
            return match
        }
        for candidate in active {
            if try await hashing.verify(presented, candidate.passwordHash) {
                await recentlyVerified.remember(fingerprint, passwordID: candidate.id, until: clock.now + 300)
                let now = clock.now
                try await store.transaction { tx in try await tx.touchAppPassword(id: candidate.id, at: now) }
                return candidate
            }
        }
        return nil
    }

    private static func fingerprint(accountID: UUID, password: String) -> String {
        "\(accountID.uuidString):\(password)".sha256Hex
    }
}

/// Fingerprints of passwords that passed bcrypt lately, so a syncing phone does not pay for
/// bcrypt on every request.
private actor VerifiedPasswords {
    private var entries: [String: (id: UUID, until: Date)] = [:]

    func passwordID(for fingerprint: String, now: Date) -> UUID? {
        guard let entry = entries[fingerprint] else { return nil }
        guard entry.until > now else {
            entries[fingerprint] = nil
            return nil
        }
        return entry.id
    }

    func remember(_ fingerprint: String, passwordID: UUID, until: Date) {
        if entries.count > 10_000 { entries.removeAll() }
        entries[fingerprint] = (passwordID, until)
    }
}
