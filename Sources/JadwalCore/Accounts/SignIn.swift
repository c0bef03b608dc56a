import Foundation

/// The passwordless sign-in rules: magic links, sessions as refresh-token families with reuse
/// detection, rate limits. Storage and delivery are injected; the access JWT is minted by the
/// server layer from the `SignedIn` this returns.
public struct SignIn: Sendable {
    public struct Policy: Sendable {
        public var magicLinkLifetime: Duration = .seconds(15 * 60)
        public var sessionLifetime: Duration = .seconds(60 * 24 * 3600)
        /// Magic links one email address may ask for within `rateWindow`.
        public var linksPerEmail: Int = 5
        /// Magic links one client address may ask for within `rateWindow`.
        public var linksPerClientAddress: Int = 20
        public var rateWindow: Duration = .seconds(15 * 60)
        public init() {}
    }

    /// The jobs sign-in causes, built by the server layer (it knows URLs and templates).
    public struct Notices: Sendable {
        /// The email carrying the link; gets the raw token, which is never stored in the clear.
        public var magicLink: @Sendable (_ token: SecretToken, _ email: EmailAddress, _ account: Account?, _ now: Date) throws -> Job
        /// The welcome email for a new account.
        public var welcome: @Sendable (_ account: Account, _ now: Date) throws -> Job

        public init(
            magicLink: @escaping @Sendable (SecretToken, EmailAddress, Account?, Date) throws -> Job,
            welcome: @escaping @Sendable (Account, Date) throws -> Job
        ) {
            self.magicLink = magicLink
            self.welcome = welcome
        }
    }

    public enum Failure: Error, Sendable, Equatable {
        case rateLimited(retryAfterSeconds: Int)
        case unknownMagicToken
        case expiredMagicToken
        case usedMagicToken
        case unknownRefreshToken
        /// A rotated refresh token came back: the session it belonged to is now revoked.
        case refreshTokenReused
        case sessionRevoked
        case sessionExpired
        case accountDisabled
    }

    /// Where the request came from, recorded on the session for "devices signed in".
    public struct Client: Sendable {
        public var address: String?
        public var userAgent: String?
        public init(address: String?, userAgent: String?) {
            self.address = address
            self.userAgent = userAgent
        }
    }

    let store: StoreAccess<any StoreTransaction>
    let clock: Clock
    let random: RandomSource
    let policy: Policy
    let notices: Notices
    let defaultTimeZone: String

    public init(store: any Store, clock: Clock, random: RandomSource, policy: Policy = Policy(), notices: Notices, defaultTimeZone: String = "UTC") {
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
        self.random = random
        self.policy = policy
        self.notices = notices
        self.defaultTimeZone = defaultTimeZone
    }

    // MARK: Magic link

    /// Issues a magic link for `email` and enqueues its delivery in the same transaction.
    /// Answers the same whether or not the account exists, so it reveals nothing.
    public func requestMagicLink(email: EmailAddress, client: Client) async throws {
        let now = clock.now
        let token = SecretToken(random: random)
        let policy = self.policy
        let notices = self.notices
        let windowStart = now - policy.rateWindow.timeInterval
        try await store.transaction { tx in
            let byEmail = try await tx.signInRequests(email: email, since: windowStart)
            if byEmail.count >= policy.linksPerEmail, let oldest = byEmail.first {
                throw Failure.rateLimited(retryAfterSeconds: Self.secondsUntil(oldest + policy.rateWindow.timeInterval, from: now))
            }
            if let address = client.address {
                let byAddress = try await tx.signInRequests(requester: address, since: windowStart)
                if byAddress.count >= policy.linksPerClientAddress, let oldest = byAddress.first {
                    throw Failure.rateLimited(retryAfterSeconds: Self.secondsUntil(oldest + policy.rateWindow.timeInterval, from: now))
                }
            }
            try await tx.insertSignInToken(SignInTokenRecord(
                digest: token.digest, email: email, requester: client.address,
                createdAt: now, expiresAt: now + policy.magicLinkLifetime.timeInterval
            ))
            let account = try await tx.account(email: email)
            try await tx.enqueue(notices.magicLink(token, email, account, now))
        }
    }

    /// The email a magic link would sign in, without spending it: what its page names before
    /// the person presses the button. Throws as redeeming would for an unknown, used or expired link.
    public func magicLinkEmail(_ token: SecretToken) async throws -> EmailAddress {
        let now = clock.now
        guard let record = try await store.read({ tx in try await tx.signInToken(digest: token.digest) }) else { throw Failure.unknownMagicToken }
        guard record.usedAt == nil else { throw Failure.usedMagicToken }
        guard record.expiresAt > now else { throw Failure.expiredMagicToken }
        return record.email
    }

    public var magicLinkLifetime: Duration { policy.magicLinkLifetime }
    /// How long a signed-in device stays signed in at most (the privacy page says it).
    public var sessionLifetime: Duration { policy.sessionLifetime }

    /// Exchanges a magic-link token for a session; creates the account on first use.
    public func redeemMagicLink(_ token: SecretToken, client: Client) async throws -> SignedIn {
        let now = clock.now
        return try await store.transaction { tx in
            guard let record = try await tx.signInToken(digest: token.digest) else { throw Failure.unknownMagicToken }
            guard record.usedAt == nil else { throw Failure.usedMagicToken }
            guard record.expiresAt > now else { throw Failure.expiredMagicToken }
            guard try await tx.markSignInTokenUsed(digest: record.digest, at: now) else { throw Failure.usedMagicToken }
            return try await self.startSession(email: record.email, name: nil, method: .magicLink, client: client, now: now, in: tx)
        }
    }

    /// Signs in someone whose email an identity provider (Google) has verified.
    public func signInVerified(email: EmailAddress, name: String?, method: SignInMethod, client: Client) async throws -> SignedIn {
        let now = clock.now
        return try await store.transaction { tx in
            try await self.startSession(email: email, name: name, method: method, client: client, now: now, in: tx)
        }
    }

    private func startSession(
        email: EmailAddress, name: String?, method: SignInMethod, client: Client, now: Date, in tx: any AccountStore & CalendarStore & JobStore & SessionStore
    ) async throws -> SignedIn {
        var isNew = false
        let account: Account
        if let existing = try await tx.account(email: email) {
            guard !existing.isDisabled else { throw Failure.accountDisabled }
            account = existing
        } else {
            let cleanName = name.map { String($0.trimmingCharacters(in: .whitespacesAndNewlines).prefix(ProfileChange.nameLimit)) } ?? ""
            account = Account(
                id: random.uuid(), email: email, name: cleanName, timeZone: defaultTimeZone, language: .english, createdAt: now
            )
            try await tx.insertAccountWithDefaultCalendars(account, now: now, random: random)
            try await tx.enqueue(notices.welcome(account, now))
            isNew = true
        }
        let session = SignInSession(
            id: random.uuid(), accountID: account.id, method: method, createdAt: now, lastUsedAt: now,
            expiresAt: now + policy.sessionLifetime.timeInterval,
            userAgent: client.userAgent.map { String($0.prefix(300)) }, clientAddress: client.address
        )
        try await tx.insertSession(session)
        let refresh = SecretToken(random: random)
        try await tx.insertRefreshToken(RefreshTokenRecord(digest: refresh.digest, sessionID: session.id, createdAt: now))
        return SignedIn(account: account, session: session, refreshToken: refresh, isNewAccount: isNew)
    }

    // MARK: Refresh and sign-out

    /// Rotates a refresh token. A token presented twice revokes its whole session: one of the two
    /// holders is a thief, and we cannot tell which.
    public func refresh(_ token: SecretToken) async throws -> SignedIn {
        switch try await resume(token, concurrentWithin: .zero) {
        case .rotated(let signedIn): return signedIn
        case .concurrent: throw Failure.refreshTokenReused  // unreachable with no grace
        }
    }

    /// How a browser's session went on from its refresh token.
    public enum Resumed: Sendable {
        /// The token was rotated: the browser gets the new one.
        case rotated(SignedIn)
        /// Another request from the same browser rotated this token moments ago (a page and its
        /// scripts asking at once); the session stands and that request's answer carries the new token.
        case concurrent(Account, SignInSession)
    }

    /// `refresh` for a browser, whose parallel requests all carry the same cookie: a token
    /// rotated less than `grace` ago is a sibling request, not a thief, and revokes nothing.
    public func resume(_ token: SecretToken, concurrentWithin grace: Duration) async throws -> Resumed {
        let now = clock.now
        let random = self.random
        // The revocation on reuse must commit, so the outcome is returned, not thrown, from the transaction.
        let outcome: Result<Resumed, Failure> = try await store.transaction { tx in
            guard let record = try await tx.refreshToken(digest: token.digest) else { return .failure(.unknownRefreshToken) }
            guard let session = try await tx.session(id: record.sessionID) else { return .failure(.unknownRefreshToken) }
            let live = { () async throws -> Result<Account, Failure> in
                guard session.revokedAt == nil else { return .failure(.sessionRevoked) }
                guard session.expiresAt > now else { return .failure(.sessionExpired) }
                guard let account = try await tx.account(id: session.accountID) else { return .failure(.unknownRefreshToken) }
                guard !account.isDisabled else { return .failure(.accountDisabled) }
                return .success(account)
            }
            let reused = { () async throws -> Result<Resumed, Failure> in
                if session.revokedAt == nil {
                    try await tx.revokeSession(id: session.id, at: now, reason: "refresh token reused")
                }
                return .failure(.refreshTokenReused)
            }
            if let rotatedAt = record.rotatedAt {
                guard now.timeIntervalSince(rotatedAt) < grace.timeInterval else { return try await reused() }
                return try await live().map { .concurrent($0, session) }
            }
            let account: Account
            switch try await live() {
            case .failure(let failure): return .failure(failure)
            case .success(let found): account = found
            }
            // Two requests racing with the same token: only one may rotate it; the other is a replay,
            // or, within a browser's grace, its sibling.
            guard try await tx.markRefreshTokenRotated(digest: record.digest, at: now) else {
                return grace > .zero ? .success(.concurrent(account, session)) : try await reused()
            }
            let next = SecretToken(random: random)
            try await tx.insertRefreshToken(RefreshTokenRecord(digest: next.digest, sessionID: session.id, createdAt: now))
            try await tx.touchSession(id: session.id, at: now)
            var touched = session
            touched.lastUsedAt = now
            return .success(.rotated(SignedIn(account: account, session: touched, refreshToken: next, isNewAccount: false)))
        }
        return try outcome.get()
    }

    /// The account and session behind a verified access token, if both are still good.
    public func activeSession(id: UUID) async throws -> (Account, SignInSession) {
        let now = clock.now
        let found = try await store.read { tx -> (Account, SignInSession)? in
            guard let session = try await tx.session(id: id), let account = try await tx.account(id: session.accountID) else { return nil }
            return (account, session)
        }
        guard let (account, session) = found else { throw Failure.sessionRevoked }
        guard session.revokedAt == nil else { throw Failure.sessionRevoked }
        guard session.expiresAt > now else { throw Failure.sessionExpired }
        guard !account.isDisabled else { throw Failure.accountDisabled }
        return (account, session)
    }

    public func signOut(sessionID: UUID) async throws {
        let now = clock.now
        try await store.transaction { tx in try await tx.revokeSession(id: sessionID, at: now, reason: "signed out") }
    }

    /// Ends every session of the account and, when `revokingDevices`, every app password,
    /// connector token, feed address and unspent setup link with them, in one transaction.
    @discardableResult
    public func signOutEverywhere(accountID: UUID, revokingDevices: Bool = false) async throws -> DeviceAccess.Revoked {
        let now = clock.now
        return try await store.transaction { tx in
            try await tx.revokeSessions(accountID: accountID, at: now, reason: "signed out everywhere")
            return revokingDevices ? try await DeviceAccess.revokeAll(accountID: accountID, at: now, in: tx) : DeviceAccess.Revoked()
        }
    }

    static func secondsUntil(_ date: Date, from now: Date) -> Int {
        max(1, Int(date.timeIntervalSince(now).rounded(.up)))
    }
}

extension Duration {
    public var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
