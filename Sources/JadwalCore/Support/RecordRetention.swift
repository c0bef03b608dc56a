import Foundation

/// How long the records that only serve a while are kept, and the sweep that forgets them
/// (docs/privacy.md, "Kept for a time"). Everything a person made is kept until they delete it;
/// these are the server's own traces: sign-in links, ended sessions, rotated refresh tokens,
/// spent setup links, finished jobs and the calendars' change log.
public struct RecordRetention: Sendable {
    public struct Policy: Sendable {
        /// A sign-in or account link's row, after it expired (the address that asked for it goes with it).
        public var links: Duration = .seconds(86_400)
        /// A session's row (device, address) after it expired or was signed out, with its refresh tokens.
        public var endedSessions: Duration = .seconds(30 * 86_400)
        /// A refresh token after it was rotated. A rotated token that comes back within this
        /// time revokes its session (`SignIn`); after it, it is only refused as unknown.
        public var rotatedRefreshTokens: Duration = .seconds(30 * 86_400)
        /// An Easy Setup or profile link after it expired.
        public var setupLinks: Duration = .seconds(86_400)
        /// A job that ran to the end (sent emails, fired reminders).
        public var doneJobs: Duration = .seconds(7 * 86_400)
        /// A job that gave up, kept longer so an operator can read why (`jadwal jobs`) and retry it.
        public var deadJobs: Duration = .seconds(30 * 86_400)
        /// The change log `sync-collection` answers from. A client whose token is older syncs
        /// again from scratch (`DAV:valid-sync-token`), as RFC 6578 §3.2 allows.
        public var changeLog: Duration = .seconds(90 * 86_400)

        public init() {}
    }

    /// How many rows one sweep forgot.
    public struct Forgotten: Sendable, Equatable {
        public var signIns = 0
        public var refreshTokens = 0
        public var setupLinks = 0
        public var jobs = 0
        public var changes = 0

        public init(signIns: Int = 0, refreshTokens: Int = 0, setupLinks: Int = 0, jobs: Int = 0, changes: Int = 0) {
            self.signIns = signIns
            self.refreshTokens = refreshTokens
            self.setupLinks = setupLinks
            self.jobs = jobs
            self.changes = changes
        }

        public var total: Int { signIns + refreshTokens + setupLinks + jobs + changes }
    }

    let store: StoreAccess<any RetentionStore>
    let clock: Clock
    public let policy: Policy

    public init(store: any Store, clock: Clock = .system, policy: Policy = Policy()) {
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
        self.policy = policy
    }

    /// Forgets what is past its time. Idempotent: any number of instances may sweep at once.
    public func sweep() async throws -> Forgotten {
        let now = clock.now
        @Sendable func before(_ age: Duration) -> Date { now.addingTimeInterval(-age.timeInterval) }
        return try await store.transaction { tx in
            var forgotten = Forgotten()
            forgotten.signIns = try await tx.forgetEndedSignIns(linksBefore: before(policy.links), sessionsBefore: before(policy.endedSessions))
            forgotten.refreshTokens = try await tx.forgetRotatedRefreshTokens(rotatedBefore: before(policy.rotatedRefreshTokens))
            forgotten.setupLinks = try await tx.forgetSetupTokens(expiredBefore: before(policy.setupLinks))
            forgotten.jobs = try await tx.forgetFinishedJobs(doneBefore: before(policy.doneJobs), deadBefore: before(policy.deadJobs))
            forgotten.changes = try await tx.forgetCalendarChanges(loggedBefore: before(policy.changeLog))
            return forgotten
        }
    }
}
