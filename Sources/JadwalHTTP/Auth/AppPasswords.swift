import Foundation
import HummingbirdBcrypt
import JadwalCore
import NIOPosix

/// Makes and checks app passwords. bcrypt is deliberately slow, so it runs on NIO's thread
/// pool (never on the async executors), and a password that verified recently is recognised by
/// its SHA-256 instead of bcrypt again — while revocation still applies at once, because the
/// active list is read on every check.
package struct AppPasswords: Sendable {
    package let store: any Store
    package let clock: Clock
    package let random: RandomSource
    package let cost: UInt8
    private let recentlyVerified = VerifiedPasswords()

    package init(store: any Store, clock: Clock, random: RandomSource, cost: UInt8 = 11) {
        self.store = store
        self.clock = clock
        self.random = random
        self.cost = cost
    }

    /// A new password for `accountID`'s device `name`: the record, and the password to show once.
    package func create(accountID: UUID, name: String) async throws -> (AppPassword, String) {
        let plaintext = AppPassword.generate(random: random)
        let cost = self.cost
        let hash = try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(plaintext, cost: cost) }
        let record = AppPassword(id: UUID(), accountID: accountID, name: name, passwordHash: hash, createdAt: clock.now)
        try await store.transaction { tx in try await tx.insertAppPassword(record) }
        return (record, plaintext)
    }

    /// The active app password of `accountID` that `presented` is, if any.
    package func verify(accountID: UUID, presented: String) async throws -> AppPassword? {
        guard !presented.isEmpty, presented.utf8.count <= 128 else { return nil }
        let active = try await store.read { tx in try await tx.appPasswords(accountID: accountID) }
        return try await verify(accountID: accountID, presented: presented, against: active)
    }

    /// The same check against an active list the caller already read (with the account).
    package func verify(accountID: UUID, presented: String, against active: [AppPassword]) async throws -> AppPassword? {
        guard !presented.isEmpty, presented.utf8.count <= 128 else { return nil }
        let fingerprint = Self.fingerprint(accountID: accountID, password: presented)
        if let id = await recentlyVerified.passwordID(for: fingerprint, now: clock.now), let match = active.first(where: { $0.id == id }) {
            return match
        }
        for candidate in active {
            let hash = candidate.passwordHash
            let matches = try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(presented, hash: hash) }
            if matches {
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

    package func passwordID(for fingerprint: String, now: Date) -> UUID? {
        guard let entry = entries[fingerprint] else { return nil }
        guard entry.until > now else {
            entries[fingerprint] = nil
            return nil
        }
        return entry.id
    }

    package func remember(_ fingerprint: String, passwordID: UUID, until: Date) {
        if entries.count > 10_000 { entries.removeAll() }
        entries[fingerprint] = (passwordID, until)
    }
}

/// App passwords for operator commands, made exactly as the API makes them.
public enum AppPasswordMaker {
    public static func create(store: any Store, accountID: UUID, name: String) async throws -> (AppPassword, String) {
        try await AppPasswords(store: store, clock: .system, random: .system).create(accountID: accountID, name: name)
    }
}
