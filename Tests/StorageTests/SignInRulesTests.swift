import Foundation
import JadwalCore
import JadwalTestSupport
import Storage
import Testing

/// The sign-in rules of JadwalCore over real storage, with a hand-moved clock.
@Suite("Sign-in rules on every engine")
struct SignInRulesTests {
    struct Fixture {
        let store: SQLStore
        let clock: TestClock
        let signIn: SignIn
        let sent: LinkLog

        init(engine: TestEngine, policy: SignIn.Policy = SignIn.Policy()) async throws {
            store = try await TestEnvironment.freshStore(engine)
            clock = TestClock()
            let sent = LinkLog()
            self.sent = sent
            signIn = SignIn(
                store: store, clock: clock.clock, random: .system, policy: policy,
                notices: SignIn.Notices(
                    magicLink: { token, email, _, now in
                        sent.record(token)
                        return Job.new("email.send", payload: "{\"to\":\"\(email)\"}", runAt: now, now: now, id: UUID())
                    },
                    welcome: { account, now in Job.new("email.send", payload: "{\"welcome\":\"\(account.email)\"}", runAt: now, now: now, id: UUID()) }
                )
            )
        }
    }

    /// The raw tokens the notice builder saw (what the email would carry).
    final class LinkLog: @unchecked Sendable {
        private let lock = NSLock()
        private var tokens: [SecretToken] = []
        func record(_ token: SecretToken) { lock.withLock { tokens.append(token) } }
        var last: SecretToken? { lock.withLock { tokens.last } }
    }

    static let client = SignIn.Client(address: "127.0.0.1", userAgent: "tests")

    @Test("a magic link signs in once, creates the account, and stores only the digest", arguments: TestEnvironment.engines)
    func magicLink(engine: TestEngine) async throws {
        let f = try await Fixture(engine: engine)
        let email = try EmailAddress("new@example.com")
        try await f.signIn.requestMagicLink(email: email, client: Self.client)
        let token = try #require(f.sent.last)
        let stored = try await f.store.read { tx in try await tx.signInToken(digest: token.digest) }
        #expect(stored?.digest.hex != token.value && stored?.digest == token.digest)
        let jobs = try await f.store.read { tx in try await tx.jobs(state: .queued, limit: 10) }
        #expect(jobs.count == 1 && !jobs[0].payload.contains(token.value))

        let signedIn = try await f.signIn.redeemMagicLink(token, client: Self.client)
        #expect(signedIn.isNewAccount && signedIn.account.email == email)
        let calendars = try await f.store.read { tx in try await tx.calendars(accountID: signedIn.account.id) }
        #expect(calendars.map(\.slug) == ["personal", "whatsapp-events", "tasks"])
        #expect(calendars.map(\.components) == [[.event], [.event], [.todo]])
        #expect(try await f.store.read { tx in try await tx.jobs(state: .queued, limit: 10) }.count == 2, "welcome email enqueued with the account")
        await #expect(throws: SignIn.Failure.usedMagicToken) { try await f.signIn.redeemMagicLink(token, client: Self.client) }
        await #expect(throws: SignIn.Failure.unknownMagicToken) {
            try await f.signIn.redeemMagicLink(SecretToken(presented: "nope"), client: Self.client)
        }

        try await f.signIn.requestMagicLink(email: email, client: Self.client)
        let again = try await f.signIn.redeemMagicLink(try #require(f.sent.last), client: Self.client)
        #expect(!again.isNewAccount && again.account.id == signedIn.account.id)
        try await f.store.shutdown()
    }

    @Test("magic links expire after 15 minutes", arguments: TestEnvironment.engines)
    func expiry(engine: TestEngine) async throws {
        let f = try await Fixture(engine: engine)
        try await f.signIn.requestMagicLink(email: try EmailAddress("late@example.com"), client: Self.client)
        f.clock.advance(by: 15 * 60 + 1)
        await #expect(throws: SignIn.Failure.expiredMagicToken) {
            try await f.signIn.redeemMagicLink(try #require(f.sent.last), client: Self.client)
        }
        try await f.store.shutdown()
    }

    @Test("rate limits per email and per client address say when to retry", arguments: TestEnvironment.engines)
    func rateLimits(engine: TestEngine) async throws {
        var policy = SignIn.Policy()
        policy.linksPerEmail = 3
        policy.linksPerClientAddress = 5
        let f = try await Fixture(engine: engine, policy: policy)
        let email = try EmailAddress("busy@example.com")
        for _ in 0..<3 { try await f.signIn.requestMagicLink(email: email, client: Self.client) }
        f.clock.advance(by: 60)
        await #expect(throws: SignIn.Failure.rateLimited(retryAfterSeconds: 14 * 60)) {
            try await f.signIn.requestMagicLink(email: email, client: Self.client)
        }
        // Other emails from the same address still work until the address limit.
        try await f.signIn.requestMagicLink(email: try EmailAddress("b@example.com"), client: Self.client)
        try await f.signIn.requestMagicLink(email: try EmailAddress("c@example.com"), client: Self.client)
        await #expect(throws: SignIn.Failure.self) {
            try await f.signIn.requestMagicLink(email: try EmailAddress("d@example.com"), client: Self.client)
        }
        f.clock.advance(by: 15 * 60)
        try await f.signIn.requestMagicLink(email: email, client: Self.client)
        try await f.store.shutdown()
    }

    @Test("refresh rotates; replaying an old refresh token revokes the session", arguments: TestEnvironment.engines)
    func refreshReuse(engine: TestEngine) async throws {
        let f = try await Fixture(engine: engine)
        try await f.signIn.requestMagicLink(email: try EmailAddress("r@example.com"), client: Self.client)
        let first = try await f.signIn.redeemMagicLink(try #require(f.sent.last), client: Self.client)
        let second = try await f.signIn.refresh(first.refreshToken)
        #expect(second.session.id == first.session.id && second.refreshToken != first.refreshToken)
        let third = try await f.signIn.refresh(second.refreshToken)

        await #expect(throws: SignIn.Failure.refreshTokenReused) { try await f.signIn.refresh(first.refreshToken) }
        // The thief's replay ended the session for everyone holding its tokens.
        await #expect(throws: SignIn.Failure.sessionRevoked) { try await f.signIn.refresh(third.refreshToken) }
        await #expect(throws: SignIn.Failure.sessionRevoked) { try await f.signIn.activeSession(id: first.session.id) }
        await #expect(throws: SignIn.Failure.unknownRefreshToken) { try await f.signIn.refresh(SecretToken(presented: "x")) }
        try await f.store.shutdown()
    }

    @Test("sign out and sign out everywhere", arguments: TestEnvironment.engines)
    func signOut(engine: TestEngine) async throws {
        let f = try await Fixture(engine: engine)
        let email = try EmailAddress("out@example.com")
        var sessions: [SignedIn] = []
        for _ in 0..<3 {
            try await f.signIn.requestMagicLink(email: email, client: Self.client)
            sessions.append(try await f.signIn.redeemMagicLink(try #require(f.sent.last), client: Self.client))
        }
        try await f.signIn.signOut(sessionID: sessions[0].session.id)
        await #expect(throws: SignIn.Failure.sessionRevoked) { try await f.signIn.activeSession(id: sessions[0].session.id) }
        _ = try await f.signIn.activeSession(id: sessions[1].session.id)
        await #expect(throws: SignIn.Failure.sessionRevoked) { try await f.signIn.refresh(sessions[0].refreshToken) }
        try await f.signIn.signOutEverywhere(accountID: sessions[1].account.id)
        await #expect(throws: SignIn.Failure.sessionRevoked) { try await f.signIn.activeSession(id: sessions[2].session.id) }
        try await f.store.shutdown()
    }
}
