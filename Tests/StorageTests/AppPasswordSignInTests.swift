import Foundation
import JadwalCore
import JadwalTestSupport
import Storage
import Testing

/// CalDAV's password sign-in over real storage: what one attempt costs in slow hashes, old
/// passwords, the cap, and the throttle shared through the database.
@Suite("App password sign-in: one hash an attempt, a cap, a shared throttle")
struct AppPasswordSignInTests {
    /// A stand-in for bcrypt that counts its checks: cost is counted, not timed.
    final class CountingHashing: @unchecked Sendable {
        private let lock = NSLock()
        private var verifies = 0
        /// How long a check takes, so that checks begun together overlap as bcrypt's would.
        private let delay: Duration

        init(delay: Duration = .zero) {
            self.delay = delay
        }

        var checks: Int { lock.withLock { verifies } }

        var hashing: PasswordHashing {
            PasswordHashing(
                hash: { password in "hashed:" + password },
                verify: { [self] password, hash in
                    lock.withLock { verifies += 1 }
                    if delay > .zero { try await Task.sleep(for: delay) }
                    return hash == "hashed:" + password
                })
        }

        /// What `body` returned, and the checks it made.
        func count<T>(_ body: () async throws -> T) async throws -> (T, Int) {
            let before = checks
            let value = try await body()
            return (value, checks - before)
        }
    }

    struct Fixture {
        let store: SQLStore
        let clock = TestClock()
        let counter: CountingHashing
        let passwords: AppPasswords
        let account: Account

        init(engine: TestEngine, policy: AppPasswords.Policy = AppPasswords.Policy(), email: String = "phone@example.com",
             hashDelay: Duration = .zero) async throws {
            counter = CountingHashing(delay: hashDelay)
            store = try await TestEnvironment.freshStore(engine)
            passwords = AppPasswords(store: store, clock: clock.clock, random: .system, hashing: counter.hashing, policy: policy)
            let account = Account(id: UUID(), email: try EmailAddress(email), name: "", timeZone: "UTC", language: .english, createdAt: clock.now)
            self.account = account
            try await store.transaction { tx in try await tx.insertAccount(account) }
        }

        /// Another server sharing the database: its own caches, the same counts.
        func otherInstance() -> AppPasswords {
            AppPasswords(store: store, clock: clock.clock, random: .system, hashing: counter.hashing)
        }

        func signIn(_ password: String, as username: String? = nil, from address: String = "192.0.2.7", with service: AppPasswords? = nil)
            async throws -> AppPasswords.Outcome {
            try await (service ?? passwords).authenticate(usernames: [username ?? account.email.value], password: password, clientAddress: address)
        }
    }

    @Test("a wrong password costs one hash however many passwords the account has; unknown and known emails cost the same", arguments: TestEnvironment.engines)
    func oneHash(engine: TestEngine) async throws {
        var policy = AppPasswords.Policy()
        policy.throttle.freeFailuresPerAccount = 100  // cost is the question here, not the throttle
        let f = try await Fixture(engine: engine, policy: policy)
        var made: [String] = []
        for device in 1...8 { made.append(try await f.passwords.create(accountID: f.account.id, name: "Device \(device)").1) }
        #expect(made.allSatisfy { $0.range(of: #"^[a-z2-9]{5}(-[a-z2-9]{5}){4}$"#, options: .regularExpression) != nil })
        let stored = try await f.passwords.active(accountID: f.account.id)
        #expect(Set(stored.compactMap(\.lookupID)) == Set(made.map { String($0.prefix(5)) }), "the first group is the stored lookup id")

        let wrongSecret = String(made[3].prefix(6)) + "aaaaa-aaaaa-aaaaa-aaaaa"
        let wrongID = "zzzzz" + String(made[3].dropFirst(5))
        let oldShape = "aaaaa-bbbbb-ccccc-ddddd"
        for guess in [wrongSecret, wrongID, oldShape, "", "x"] {
            let (outcome, checks) = try await f.counter.count { try await f.signIn(guess) }
            #expect(outcome == .refused && checks == 1, "\(guess)")
        }
        // An email with no account, or a user name that is no email: the same one hash.
        let unknown = try await f.counter.count { try await f.signIn(made[0], as: "nobody@example.com") }
        let notEmail = try await f.counter.count { try await f.signIn(made[0], as: "not an email") }
        #expect(unknown == (.refused, 1) && notEmail == (.refused, 1))

        let (right, rightChecks) = try await f.counter.count { try await f.signIn(made[5]) }
        guard case .signedIn(let account, let password) = right else { Issue.record("not signed in"); return }
        #expect(account.id == f.account.id && password.name == "Device 6" && rightChecks == 1)
        let again = try await f.counter.count { try await f.signIn(made[5]) }
        #expect(again.1 == 0, "a password that passed moments ago costs no hash")
        try await f.store.shutdown()
    }

    @Test("a phone's connections opening at once with one password share one hash; wrong guesses together share one too",
          arguments: TestEnvironment.engines)
    func concurrentSameCredentials(engine: TestEngine) async throws {
        var policy = AppPasswords.Policy()
        policy.throttle.freeFailuresPerAccount = 100
        let f = try await Fixture(engine: engine, policy: policy, hashDelay: .milliseconds(300))
        let made = try await f.passwords.create(accountID: f.account.id, name: "Phone").1
        let (outcomes, checks) = try await f.counter.count {
            try await withThrowingTaskGroup(of: AppPasswords.Outcome.self) { group in
                for _ in 0..<8 { group.addTask { try await f.signIn(made) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        #expect(outcomes.count == 8 && checks == 1, "eight requests, \(checks) hashes")
        for outcome in outcomes {
            guard case .signedIn(let account, _) = outcome else { Issue.record("not signed in: \(outcome)"); continue }
            #expect(account.id == f.account.id)
        }
        let wrong = String(made.prefix(6)) + "aaaaa-aaaaa-aaaaa-aaaaa"
        let (refusals, wrongChecks) = try await f.counter.count {
            try await withThrowingTaskGroup(of: AppPasswords.Outcome.self) { group in
                for _ in 0..<4 { group.addTask { try await f.signIn(wrong) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        #expect(refusals.allSatisfy { $0 == .refused } && wrongChecks == 1, "\(wrongChecks) hashes")
        // Each refusal still counts against the throttle, shared hash or not.
        let failures = try await f.store.read { tx in try await tx.signInFailures(keys: [SignInThrottle.Keys(account: f.account.email.value, clientAddress: "192.0.2.7").account]) }
        #expect(failures.first?.failures == 4)
        try await f.store.shutdown()
    }

    @Test("passwords made before lookup ids still sign in; a disabled account costs the same one hash", arguments: TestEnvironment.engines)
    func oldPasswords(engine: TestEngine) async throws {
        let f = try await Fixture(engine: engine)
        let old = "abcde-fghij-kmnpq-rstuv"
        let record = AppPassword(id: UUID(), accountID: f.account.id, name: "Old iPad", passwordHash: "hashed:" + old, createdAt: f.clock.now)
        try await f.store.transaction { tx in try await tx.insertAppPassword(record) }
        let new = try await f.passwords.create(accountID: f.account.id, name: "New phone").1

        let oldRight = try await f.counter.count { try await f.signIn(old) }
        let oldWrong = try await f.counter.count { try await f.signIn("abcde-fghij-kmnpq-zzzzz") }
        #expect(oldRight == (.signedIn(f.account, record), 1))
        #expect(oldWrong == (.refused, 1), "only the one old password is tried")

        var changed = f.account
        changed.disabledAt = f.clock.now
        let disabled = changed
        try await f.store.transaction { tx in try await tx.updateAccount(disabled) }
        let disabledAttempt = try await f.counter.count { try await f.signIn(new) }
        #expect(disabledAttempt == (.refused, 1))
        try await f.store.shutdown()
    }

    @Test("an account holds at most the limit of active passwords; revoking one makes room", arguments: TestEnvironment.engines)
    func cap(engine: TestEngine) async throws {
        var policy = AppPasswords.Policy()
        policy.activeLimit = 3
        let f = try await Fixture(engine: engine, policy: policy)
        for device in 1...3 { _ = try await f.passwords.create(accountID: f.account.id, name: "Device \(device)") }
        await #expect(throws: AppPasswords.Problem.tooMany(limit: 3)) { try await f.passwords.create(accountID: f.account.id, name: "Device 4") }
        let first = try #require(try await f.passwords.active(accountID: f.account.id).first)
        #expect(try await f.passwords.revoke(id: first.id, accountID: f.account.id))
        _ = try await f.passwords.create(accountID: f.account.id, name: "Device 4")
        try await f.store.shutdown()
    }

    @Test("failures for one account make it wait, longer each time, on every instance; the right password waits too", arguments: TestEnvironment.engines)
    func accountThrottle(engine: TestEngine) async throws {
        let f = try await Fixture(engine: engine)
        let password = try await f.passwords.create(accountID: f.account.id, name: "Phone").1
        let other = f.otherInstance()
        // Five free failures, spread over two instances and two addresses.
        for attempt in 1...5 {
            #expect(try await f.signIn("wrong-\(attempt)", from: attempt.isMultiple(of: 2) ? "192.0.2.7" : "198.51.100.1",
                                        with: attempt.isMultiple(of: 2) ? other : nil) == .refused)
        }
        let checks = f.counter.checks
        #expect(try await f.signIn(password, with: other) == .throttled(retryAfterSeconds: 1))
        #expect(try await f.signIn("wrong", from: "203.0.113.5") == .throttled(retryAfterSeconds: 1), "any address, for this account")
        #expect(f.counter.checks == checks, "a throttled attempt costs no hash")
        // The wait doubles with each failure after it.
        f.clock.advance(by: 1)
        #expect(try await f.signIn("wrong-6") == .refused)
        #expect(try await f.signIn(password) == .throttled(retryAfterSeconds: 2))
        f.clock.advance(by: 2)
        #expect(try await f.signIn("wrong-7") == .refused)
        #expect(try await f.signIn(password) == .throttled(retryAfterSeconds: 4))
        // Another account from the same addresses is not held up.
        let neighbour = Account(id: UUID(), email: try EmailAddress("neighbour@example.com"), name: "", timeZone: "UTC", language: .english, createdAt: f.clock.now)
        try await f.store.transaction { tx in try await tx.insertAccount(neighbour) }
        #expect(try await f.signIn("wrong", as: "neighbour@example.com") == .refused)

        f.clock.advance(by: 4)
        guard case .signedIn = try await f.signIn(password) else { Issue.record("the right password after the wait"); return }
        // Success starts the account's count again.
        for attempt in 1...4 { #expect(try await f.signIn("wrong-again-\(attempt)") == .refused) }
        #expect(try await f.signIn("wrong-again-5") == .refused)
        try await f.store.shutdown()
    }

    @Test("failures from one address, across accounts, make the address wait", arguments: TestEnvironment.engines)
    func addressThrottle(engine: TestEngine) async throws {
        var policy = AppPasswords.Policy()
        policy.throttle.freeFailuresPerAddress = 6
        let f = try await Fixture(engine: engine, policy: policy)
        let password = try await f.passwords.create(accountID: f.account.id, name: "Phone").1
        for guess in 1...6 { #expect(try await f.signIn("x", as: "guess\(guess)@example.com", from: "2001:db8:1:2::99") == .refused) }
        // The same /64 is the same party; another address is not.
        #expect(try await f.signIn(password, from: "2001:db8:1:2:abcd::1") == .throttled(retryAfterSeconds: 1))
        guard case .signedIn = try await f.signIn(password, from: "2001:db8:1:3::1") else { Issue.record("another network"); return }
        // Counts are forgotten after an hour without failures.
        f.clock.advance(by: 3601)
        guard case .signedIn = try await f.signIn(password, from: "2001:db8:1:2::99") else { Issue.record("forgotten"); return }
        try await f.store.shutdown()
    }
}
