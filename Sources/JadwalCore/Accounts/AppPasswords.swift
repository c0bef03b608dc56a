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
/// for the API, the settings page, the CLI and CalDAV's Basic auth.
///
/// One sign-in costs at most one slow hash: the password's lookup id picks the one candidate,
/// and when there is none (an unknown email, a disabled account, a wrong id) a fixed dummy hash
/// is checked instead, so a stranger cannot tell a known email by the time an answer takes.
/// Passwords made before lookup ids (four groups) are still accepted: a password of that shape
/// is checked against those old passwords only, one hash each. A password that verified
/// recently is recognised by its SHA-256 instead of the slow hash again, while revocation still
/// applies at once, because the active list is read on every check.
public struct AppPasswords: Sendable {
    public struct Policy: Sendable {
        /// Active passwords one account may hold: each is a device, and the cap bounds what
        /// old-shape passwords cost to check.
        public var activeLimit = 20
        public var throttle = SignInThrottle.Policy()

        public init() {}
    }

    let store: StoreAccess<any AppPasswordStore & SignInFailureStore>
    let clock: Clock
    let random: RandomSource
    let hashing: PasswordHashing
    let policy: Policy
    let throttle: SignInThrottle
    private let recentlyVerified = VerifiedPasswords()
    private let dummy = DummyHash()

    public init(store: any Store, clock: Clock, random: RandomSource, hashing: PasswordHashing, policy: Policy = Policy()) {
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
        self.random = random
        self.hashing = hashing
        self.policy = policy
        throttle = SignInThrottle(policy: policy.throttle)
    }

    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// The account holds `limit` active passwords already.
        case tooMany(limit: Int)

        public var description: String {
            switch self {
            case .tooMany(let limit): "an account can have at most \(limit) app passwords; revoke one that a device no longer uses first"
            }
        }
    }

    /// What a password sign-in came to.
    public enum Outcome: Sendable, Equatable {
        case signedIn(Account, AppPassword)
        case refused
        /// Too many failures from this address or for this account: try again after this many seconds.
        case throttled(retryAfterSeconds: Int)
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

    /// A new password for `accountID`'s device `name`: the record, and the password to show once.
    public func create(accountID: UUID, name: String) async throws -> (AppPassword, String) {
        let limit = policy.activeLimit
        let existing = try await active(accountID: accountID)
        guard existing.count < limit else { throw Problem.tooMany(limit: limit) }
        let taken = Set(existing.compactMap(\.lookupID))
        var generated = AppPassword.generate(random: random)
        // Lookup ids are short; one already in use by this account is drawn again.
        while taken.contains(generated.lookupID) { generated = AppPassword.generate(random: random) }
        let hash = try await hashing.hash(generated.password)
        let record = AppPassword(
            id: random.uuid(), accountID: accountID, name: name, passwordHash: hash, lookupID: generated.lookupID, createdAt: clock.now)
        try await store.transaction { tx in
            // Counted again where it is written: two devices set up at once cannot pass the cap.
            guard try await tx.appPasswords(accountID: accountID).count < limit else { throw Problem.tooMany(limit: limit) }
            try await tx.insertAppPassword(record)
        }
        return (record, generated.password)
    }

    /// HTTP Basic sign-in: `usernames` are the spellings of one user name a client may have
    /// sent (iOS percent-encodes the `@`), `clientAddress` the caller. Throttled attempts are
    /// refused before any hash; every other attempt costs one hash, or none when the password
    /// verified moments ago.
    public func authenticate(usernames: [String], password presented: String, clientAddress: String?) async throws -> Outcome {
        let emails = usernames.compactMap { try? EmailAddress($0) }
        let keys = SignInThrottle.Keys(account: emails.first?.value ?? usernames.first ?? "", clientAddress: clientAddress)
        let found = try await store.read { tx -> (Account, [AppPassword])? in
            for email in Set(emails) {
                if let found = try await tx.accountWithAppPasswords(email: email) { return found }
            }
            return nil
        }
        let now = clock.now
        // A device whose password passed moments ago keeps syncing, with the one query a
        // request always cost, while someone else guesses.
        let usable = found.flatMap { $0.0.isDisabled ? nil : $0 }
        if let (account, active) = usable, let match = await recentMatch(accountID: account.id, presented: presented, active: active) {
            return .signedIn(account, match)
        }
        let records = try await store.read { tx in try await tx.signInFailures(keys: keys.all) }
        if let seconds = throttle.retryAfter(keys, records: records, now: now) { return .throttled(retryAfterSeconds: seconds) }

        var match: AppPassword?
        if let (account, active) = usable {
            match = try await check(presented, accountID: account.id, among: active)
        } else {
            try await checkDummy(presented)
        }
        guard let match, let account = usable?.0 else {
            let forget = now - policy.throttle.memory.timeInterval
            try await store.transaction { tx in try await tx.recordSignInFailure(keys: keys.all, at: now, forgetBefore: forget) }
            return .refused
        }
        let hadFailures = records.contains { $0.key == keys.account }
        try await store.transaction { tx in
            try await tx.touchAppPassword(id: match.id, at: now)
            // The account's count starts again; an address's does not, or one good password would
            // let its holder guess at every other account.
            if hadFailures { try await tx.clearSignInFailures(key: keys.account) }
        }
        return .signedIn(account, match)
    }

    /// The active app password of `accountID` that `presented` is, if any (no throttle: for
    /// the operator and tests).
    public func verify(accountID: UUID, presented: String) async throws -> AppPassword? {
        let active = try await store.read { tx in try await tx.appPasswords(accountID: accountID) }
        if let match = await recentMatch(accountID: accountID, presented: presented, active: active) { return match }
        guard let match = try await check(presented, accountID: accountID, among: active) else { return nil }
        let now = clock.now
        try await store.transaction { tx in try await tx.touchAppPassword(id: match.id, at: now) }
        return match
    }

    /// The passwords `presented` may be: the one its lookup id names, or, for the old shape,
    /// the passwords made before lookup ids.
    static func candidates(for presented: String, among active: [AppPassword]) -> [AppPassword] {
        if let id = AppPassword.lookupID(in: presented) { return active.filter { $0.lookupID == id } }
        return active.filter { $0.lookupID == nil }
    }

    private func recentMatch(accountID: UUID, presented: String, active: [AppPassword]) async -> AppPassword? {
        guard !presented.isEmpty, presented.utf8.count <= 128 else { return nil }
        guard let id = await recentlyVerified.passwordID(for: Self.fingerprint(accountID: accountID, password: presented), now: clock.now) else { return nil }
        return active.first { $0.id == id }
    }

    /// Verifies `presented` against its candidates; the dummy hash when there are none.
    private func check(_ presented: String, accountID: UUID, among active: [AppPassword]) async throws -> AppPassword? {
        let candidates = Self.candidates(for: presented, among: active)
        guard !candidates.isEmpty, !presented.isEmpty, presented.utf8.count <= 128 else {
            try await checkDummy(presented)
            return nil
        }
        let hashing = self.hashing
        let matched = try await recentlyVerified.verify(
            Self.fingerprint(accountID: accountID, password: presented), rememberUntil: clock.now + 300
        ) {
            for candidate in candidates where try await hashing.verify(presented, candidate.passwordHash) { return candidate.id }
            return nil
        }
        return candidates.first { $0.id == matched }
    }

    /// One hash that cannot match, so "no such password" costs what "wrong password" costs.
    private func checkDummy(_ presented: String) async throws {
        _ = try await hashing.verify(String(presented.prefix(128)), try await dummy.value(hashing))
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

    /// Checks being made now, by fingerprint. A phone starting a sync opens several connections
    /// at once, each with the same password: they share one bcrypt instead of queueing one each
    /// behind the hashing pool's few threads (measured: 8 connections stalled 1.2 s at start).
    private var checking: [String: Task<UUID?, any Error>] = [:]

    /// The id of the password `fingerprint` is, as `check` finds it, made once for every caller
    /// asking meanwhile; a match is remembered until `rememberUntil`.
    func verify(_ fingerprint: String, rememberUntil: Date, check: @escaping @Sendable () async throws -> UUID?) async throws -> UUID? {
        if let running = checking[fingerprint] { return try await running.value }
        let task = Task { try await check() }
        checking[fingerprint] = task
        defer { checking[fingerprint] = nil }
        let id = try await task.value
        if let id { remember(fingerprint, passwordID: id, until: rememberUntil) }
        return id
    }

    private func remember(_ fingerprint: String, passwordID: UUID, until: Date) {
        if entries.count > 10_000 { entries.removeAll() }
        entries[fingerprint] = (passwordID, until)
    }
}

/// A hash of a password nobody has, made once at the cost every real hash has.
private actor DummyHash {
    private var made: Task<String, any Error>?

    func value(_ hashing: PasswordHashing) async throws -> String {
        if let made, let hash = try? await made.value { return hash }
        let task = Task { try await hashing.hash("jadwal: this password belongs to no one") }
        made = task
        return try await task.value
    }
}
