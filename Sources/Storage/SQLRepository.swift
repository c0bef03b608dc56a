import Foundation
import JadwalCore
import SQLKit

/// The SQL behind each store capability, on one connection (inside a transaction when the
/// caller asked for one). Plain SQL with binds: the same text runs on SQLite and PostgreSQL.
struct SQLRepository {
    let db: any SQLDatabase
    let engine: SQLEngine
    /// In a write transaction: where changes that calendar views show are noted.
    var viewChanges: ViewChangeRecorder? = nil
}

// MARK: - Accounts

extension SQLRepository: AccountStore {
    static let accountColumns = "id, email, name, time_zone, language, created_at, disabled_at, show_hijri"

    func account(id: UUID) async throws -> Account? {
        try await db.raw("SELECT \(unsafeRaw: Self.accountColumns) FROM accounts WHERE id = \(bind: id.uuidString)")
            .first().map(Self.account(from:))
    }

    func account(email: EmailAddress) async throws -> Account? {
        try await db.raw("SELECT \(unsafeRaw: Self.accountColumns) FROM accounts WHERE email = \(bind: email.value)")
            .first().map(Self.account(from:))
    }

    func insertAccount(_ account: Account) async throws {
        try await db.raw("""
            INSERT INTO accounts (id, email, name, time_zone, language, created_at, disabled_at, show_hijri)
            VALUES (\(bind: account.id.uuidString), \(bind: account.email.value), \(bind: account.name), \(bind: account.timeZone),
                    \(bind: account.language.rawValue), \(bind: account.createdAt.unixMilliseconds), \(bind: account.disabledAt?.unixMilliseconds),
                    \(bind: account.showHijri))
            """).run()
    }

    func updateAccount(_ account: Account) async throws {
        try await db.raw("""
            UPDATE accounts SET email = \(bind: account.email.value), name = \(bind: account.name), time_zone = \(bind: account.timeZone),
                language = \(bind: account.language.rawValue), disabled_at = \(bind: account.disabledAt?.unixMilliseconds),
                show_hijri = \(bind: account.showHijri)
            WHERE id = \(bind: account.id.uuidString)
            """).run()
    }

    func accounts() async throws -> [Account] {
        try await db.raw("SELECT \(unsafeRaw: Self.accountColumns) FROM accounts ORDER BY created_at, email")
            .all().map(Self.account(from:))
    }

    func accounts(containing text: String, limit: Int) async throws -> [Account] {
        try await db.raw("""
            SELECT \(unsafeRaw: Self.accountColumns) FROM accounts
            WHERE disabled_at IS NULL
              AND (\(unsafeRaw: position)(LOWER(email), \(bind: text)) > 0 OR \(unsafeRaw: position)(LOWER(name), \(bind: text)) > 0)
            ORDER BY email LIMIT \(bind: limit)
            """).all().map(Self.account(from:))
    }

    static func account(from row: any SQLRow) throws -> Account {
        let email = try row.decode(column: "email", as: String.self)
        let language = try row.decode(column: "language", as: String.self)
        guard let parsedEmail = try? EmailAddress(email), let parsedLanguage = Language(rawValue: language) else {
            throw StorageError.corruptRow("account \(email)")
        }
        return Account(
            id: try uuid(row, "id"), email: parsedEmail, name: try row.decode(column: "name", as: String.self),
            timeZone: try row.decode(column: "time_zone", as: String.self), language: parsedLanguage,
            createdAt: try date(row, "created_at"), disabledAt: try optionalDate(row, "disabled_at"),
            showHijri: try row.decode(column: "show_hijri", as: Bool.self)
        )
    }
}

// MARK: - Sign-in tokens

extension SQLRepository: SignInTokenStore {
    func insertSignInToken(_ token: SignInTokenRecord) async throws {
        try await db.raw("""
            INSERT INTO sign_in_tokens (token_digest, email, requester, created_at, expires_at, used_at)
            VALUES (\(bind: token.digest.hex), \(bind: token.email.value), \(bind: token.requester),
                    \(bind: token.createdAt.unixMilliseconds), \(bind: token.expiresAt.unixMilliseconds), \(bind: token.usedAt?.unixMilliseconds))
            """).run()
    }

    func signInToken(digest: TokenDigest) async throws -> SignInTokenRecord? {
        guard let row = try await db.raw("""
            SELECT token_digest, email, requester, created_at, expires_at, used_at FROM sign_in_tokens WHERE token_digest = \(bind: digest.hex)
            """).first()
        else { return nil }
        let email = try row.decode(column: "email", as: String.self)
        guard let parsed = try? EmailAddress(email) else { throw StorageError.corruptRow("sign-in token for \(email)") }
        return SignInTokenRecord(
            digest: digest, email: parsed, requester: try row.decode(column: "requester", as: String?.self),
            createdAt: try Self.date(row, "created_at"), expiresAt: try Self.date(row, "expires_at"), usedAt: try Self.optionalDate(row, "used_at")
        )
    }

    func markSignInTokenUsed(digest: TokenDigest, at: Date) async throws -> Bool {
        // RETURNING tells whether this statement changed the row: the single-use guarantee
        // holds even when two requests redeem the same link at once.
        try await db.raw("""
            UPDATE sign_in_tokens SET used_at = \(bind: at.unixMilliseconds)
            WHERE token_digest = \(bind: digest.hex) AND used_at IS NULL RETURNING token_digest
            """).first() != nil
    }

    func signInRequests(email: EmailAddress, since: Date) async throws -> [Date] {
        try await db.raw("""
            SELECT created_at FROM sign_in_tokens WHERE email = \(bind: email.value) AND created_at > \(bind: since.unixMilliseconds) ORDER BY created_at
            """).all().map { try Self.date($0, "created_at") }
    }

    func signInRequests(requester: String, since: Date) async throws -> [Date] {
        try await db.raw("""
            SELECT created_at FROM sign_in_tokens WHERE requester = \(bind: requester) AND created_at > \(bind: since.unixMilliseconds) ORDER BY created_at
            """).all().map { try Self.date($0, "created_at") }
    }
}

// MARK: - Sessions

extension SQLRepository: SessionStore {
    private static let sessionColumns =
        "id, account_id, method, created_at, last_used_at, expires_at, user_agent, client_address, revoked_at, revoked_reason"

    func insertSession(_ session: SignInSession) async throws {
        try await db.raw("""
            INSERT INTO sessions (\(unsafeRaw: Self.sessionColumns))
            VALUES (\(bind: session.id.uuidString), \(bind: session.accountID.uuidString), \(bind: session.method.rawValue),
                    \(bind: session.createdAt.unixMilliseconds), \(bind: session.lastUsedAt.unixMilliseconds), \(bind: session.expiresAt.unixMilliseconds),
                    \(bind: session.userAgent), \(bind: session.clientAddress), \(bind: session.revokedAt?.unixMilliseconds), \(bind: session.revokedReason))
            """).run()
    }

    func session(id: UUID) async throws -> SignInSession? {
        try await db.raw("SELECT \(unsafeRaw: Self.sessionColumns) FROM sessions WHERE id = \(bind: id.uuidString)")
            .first().map(Self.session(from:))
    }

    func activeSessions(accountID: UUID, at: Date) async throws -> [SignInSession] {
        try await db.raw("""
            SELECT \(unsafeRaw: Self.sessionColumns) FROM sessions
            WHERE account_id = \(bind: accountID.uuidString) AND revoked_at IS NULL AND expires_at > \(bind: at.unixMilliseconds)
            ORDER BY last_used_at DESC, created_at DESC
            """).all().map(Self.session(from:))
    }

    func touchSession(id: UUID, at: Date) async throws {
        try await db.raw("UPDATE sessions SET last_used_at = \(bind: at.unixMilliseconds) WHERE id = \(bind: id.uuidString)").run()
    }

    func revokeSession(id: UUID, at: Date, reason: String) async throws {
        try await db.raw("""
            UPDATE sessions SET revoked_at = \(bind: at.unixMilliseconds), revoked_reason = \(bind: reason)
            WHERE id = \(bind: id.uuidString) AND revoked_at IS NULL
            """).run()
    }

    func revokeSessions(accountID: UUID, at: Date, reason: String) async throws {
        try await db.raw("""
            UPDATE sessions SET revoked_at = \(bind: at.unixMilliseconds), revoked_reason = \(bind: reason)
            WHERE account_id = \(bind: accountID.uuidString) AND revoked_at IS NULL
            """).run()
    }

    func insertRefreshToken(_ token: RefreshTokenRecord) async throws {
        try await db.raw("""
            INSERT INTO refresh_tokens (token_digest, session_id, created_at, rotated_at)
            VALUES (\(bind: token.digest.hex), \(bind: token.sessionID.uuidString), \(bind: token.createdAt.unixMilliseconds), \(bind: token.rotatedAt?.unixMilliseconds))
            """).run()
    }

    func refreshToken(digest: TokenDigest) async throws -> RefreshTokenRecord? {
        guard let row = try await db.raw("""
            SELECT session_id, created_at, rotated_at FROM refresh_tokens WHERE token_digest = \(bind: digest.hex)
            """).first()
        else { return nil }
        return RefreshTokenRecord(
            digest: digest, sessionID: try Self.uuid(row, "session_id"),
            createdAt: try Self.date(row, "created_at"), rotatedAt: try Self.optionalDate(row, "rotated_at")
        )
    }

    func markRefreshTokenRotated(digest: TokenDigest, at: Date) async throws -> Bool {
        try await db.raw("""
            UPDATE refresh_tokens SET rotated_at = \(bind: at.unixMilliseconds)
            WHERE token_digest = \(bind: digest.hex) AND rotated_at IS NULL RETURNING token_digest
            """).first() != nil
    }

    private static func session(from row: any SQLRow) throws -> SignInSession {
        let method = try row.decode(column: "method", as: String.self)
        guard let parsedMethod = SignInMethod(rawValue: method) else { throw StorageError.corruptRow("session method \(method)") }
        return SignInSession(
            id: try uuid(row, "id"), accountID: try uuid(row, "account_id"), method: parsedMethod,
            createdAt: try date(row, "created_at"), lastUsedAt: try date(row, "last_used_at"), expiresAt: try date(row, "expires_at"),
            userAgent: try row.decode(column: "user_agent", as: String?.self),
            clientAddress: try row.decode(column: "client_address", as: String?.self),
            revokedAt: try optionalDate(row, "revoked_at"), revokedReason: try row.decode(column: "revoked_reason", as: String?.self)
        )
    }
}

// MARK: - Jobs

extension SQLRepository: JobStore {
    private static let jobColumns =
        "id, kind, payload, state, attempts, max_attempts, run_at, created_at, locked_by, locked_until, last_error, finished_at, subject"

    /// How far apart a subject's jobs due together are placed in the fair queue (`fair_at`): about
    /// what one job takes, so a burst of one account's jobs is taken at that pace and a job of
    /// another account queued meanwhile comes before the rest of the burst.
    static let fairSpacingMilliseconds: Int64 = 50

    func enqueue(_ job: Job) async throws {
        let runAt = job.runAt.unixMilliseconds
        // A subject's job due by then goes one spacing after the latest queued slot of that
        // subject, found in the same statement (one round trip per job on PostgreSQL) walking
        // down the (subject, state, fair_at) index to the first such job. `+run_at` keeps
        // SQLite's planner off the (state, run_at) index, by which the latest slot read every due
        // job of every subject (EXPLAIN QUERY PLAN), a cost that grew with the queue.
        let fairAt: SQLQueryString = if let subject = job.subject, job.state == .queued {
            """
            COALESCE((SELECT CASE WHEN latest.fair_at + \(unsafeRaw: String(Self.fairSpacingMilliseconds)) > \(bind: runAt)
                                  THEN latest.fair_at + \(unsafeRaw: String(Self.fairSpacingMilliseconds)) ELSE \(bind: runAt) END
                      FROM (SELECT fair_at FROM jobs WHERE subject = \(bind: subject) AND state = 'queued' AND +run_at <= \(bind: runAt)
                            ORDER BY fair_at DESC LIMIT 1) AS latest), \(bind: runAt))
            """
        } else {
            "\(bind: runAt)"
        }
        try await db.raw("""
            INSERT INTO jobs (\(unsafeRaw: Self.jobColumns), fair_at)
            VALUES (\(bind: job.id.uuidString), \(bind: job.kind.rawValue), \(bind: job.payload), \(bind: job.state.rawValue),
                    \(bind: job.attempts), \(bind: job.maxAttempts), \(bind: runAt), \(bind: job.createdAt.unixMilliseconds),
                    \(bind: job.lockedBy), \(bind: job.lockedUntil?.unixMilliseconds), \(bind: job.lastError), \(bind: job.finishedAt?.unixMilliseconds),
                    \(bind: job.subject), \(fairAt))
            """).run()
    }

    func serializeJobs(kind: JobKind) async throws {
        guard engine == .postgres else { return }
        try await db.raw("SELECT pg_advisory_xact_lock(hashtext(\(bind: "jobs:" + kind.rawValue)))").run()
    }

    func queuedJobCount(kind: JobKind) async throws -> Int {
        try await db.raw("SELECT COUNT(*) AS n FROM jobs WHERE kind = \(bind: kind.rawValue) AND state = 'queued'").first()?
            .decode(column: "n", as: Int.self) ?? 0
    }

    func dueJobCount(now: Date) async throws -> Int {
        try await db.raw("""
            SELECT COUNT(*) AS n FROM jobs WHERE state = 'running' OR (state = 'queued' AND run_at <= \(bind: now.unixMilliseconds))
            """).first()?.decode(column: "n", as: Int.self) ?? 0
    }

    func cancelQueuedJobs(kind: JobKind, subject: String) async throws -> Int {
        try await db.raw("""
            DELETE FROM jobs WHERE subject = \(bind: subject) AND kind = \(bind: kind.rawValue) AND state = 'queued'
            RETURNING id
            """).all().count
    }

    func claimNextJob(worker: String, now: Date, lease: Duration, kinds: Set<JobKind>?, lapsedToo: Bool) async throws -> Job? {
        let nowMs = now.unixMilliseconds
        let kindFilter: SQLQueryString = kinds.map { "AND kind IN (\(binds: $0.map(\.rawValue).sorted()))" } ?? ""
        // A job whose worker's lease ran out first (its process died), then the queue in fair order.
        if lapsedToo, let lapsed = try await claim(worker: worker, now: now, lease: lease, where: "state = 'running' AND locked_until < \(bind: nowMs) \(kindFilter)",
                                        order: "locked_until") {
            return lapsed
        }
        return try await claim(worker: worker, now: now, lease: lease, where: "state = 'queued' AND run_at <= \(bind: nowMs) \(kindFilter)",
                               order: "fair_at, created_at, id")
    }

    private func claim(worker: String, now: Date, lease: Duration, where condition: SQLQueryString, order: String) async throws -> Job? {
        let leaseEnd = (now + lease.timeInterval).unixMilliseconds
        // PostgreSQL: SKIP LOCKED lets many workers in many processes claim side by side, each row
        // going to exactly one. SQLite: the write transaction already serialises claimers.
        let lock = engine == .postgres ? "FOR UPDATE SKIP LOCKED" : ""
        return try await db.raw("""
            UPDATE jobs SET state = 'running', attempts = attempts + 1, locked_by = \(bind: worker), locked_until = \(bind: leaseEnd)
            WHERE id = (
                SELECT id FROM jobs WHERE \(condition)
                ORDER BY \(unsafeRaw: order) LIMIT 1 \(unsafeRaw: lock)
            )
            RETURNING \(unsafeRaw: Self.jobColumns)
            """).first().map(Self.job(from:))
    }

    func renewJobLease(id: UUID, worker: String, until: Date) async throws -> Bool {
        try await db.raw("""
            UPDATE jobs SET locked_until = \(bind: until.unixMilliseconds)
            WHERE id = \(bind: id.uuidString) AND state = 'running' AND locked_by = \(bind: worker)
            RETURNING id
            """).first() != nil
    }

    func takeQueuedJobs(kind: JobKind, subject: String, now: Date, limit: Int) async throws -> [Job] {
        guard limit > 0 else { return [] }
        let nowMs = now.unixMilliseconds
        // As in claimNextJob: on PostgreSQL rows another pass holds are skipped, not waited for.
        let lock = engine == .postgres ? "FOR UPDATE SKIP LOCKED" : ""
        let taken = try await db.raw("""
            UPDATE jobs SET state = 'done', attempts = attempts + 1, finished_at = \(bind: nowMs), locked_by = NULL, locked_until = NULL
            WHERE id IN (
                SELECT id FROM jobs
                WHERE subject = \(bind: subject) AND kind = \(bind: kind.rawValue) AND state = 'queued' AND run_at <= \(bind: nowMs)
                ORDER BY run_at, created_at, id LIMIT \(bind: limit) \(unsafeRaw: lock)
            )
            RETURNING \(unsafeRaw: Self.jobColumns)
            """).all().map(Self.job(from:))
        // RETURNING keeps no order: put them back in queue order.
        return taken.sorted { ($0.runAt, $0.createdAt, $0.id.uuidString) < ($1.runAt, $1.createdAt, $1.id.uuidString) }
    }

    func completeJob(id: UUID, at: Date) async throws {
        try await db.raw("""
            UPDATE jobs SET state = 'done', finished_at = \(bind: at.unixMilliseconds), locked_by = NULL, locked_until = NULL
            WHERE id = \(bind: id.uuidString)
            """).run()
    }

    func failJob(id: UUID, error: String, retryAt: Date?, at: Date) async throws {
        let message = String(error.prefix(2000))
        if let retryAt {
            try await db.raw("""
                UPDATE jobs SET state = 'queued', run_at = \(bind: retryAt.unixMilliseconds), fair_at = \(bind: retryAt.unixMilliseconds),
                    last_error = \(bind: message),
                    locked_by = NULL, locked_until = NULL
                WHERE id = \(bind: id.uuidString)
                """).run()
        } else {
            try await db.raw("""
                UPDATE jobs SET state = 'dead', last_error = \(bind: message), finished_at = \(bind: at.unixMilliseconds),
                    locked_by = NULL, locked_until = NULL
                WHERE id = \(bind: id.uuidString)
                """).run()
        }
    }

    func job(id: UUID) async throws -> Job? {
        try await db.raw("SELECT \(unsafeRaw: Self.jobColumns) FROM jobs WHERE id = \(bind: id.uuidString)").first().map(Self.job(from:))
    }

    func jobs(state: JobState?, limit: Int) async throws -> [Job] {
        if let state {
            return try await db.raw("""
                SELECT \(unsafeRaw: Self.jobColumns) FROM jobs WHERE state = \(bind: state.rawValue) ORDER BY created_at DESC LIMIT \(bind: limit)
                """).all().map(Self.job(from:))
        }
        return try await db.raw("SELECT \(unsafeRaw: Self.jobColumns) FROM jobs ORDER BY created_at DESC LIMIT \(bind: limit)")
            .all().map(Self.job(from:))
    }

    func jobCounts() async throws -> [JobState: Int] {
        var counts = Dictionary(uniqueKeysWithValues: JobState.allCases.map { ($0, 0) })
        for row in try await db.raw("SELECT state, COUNT(*) AS n FROM jobs GROUP BY state").all() {
            if let state = JobState(rawValue: try row.decode(column: "state", as: String.self)) {
                counts[state] = try row.decode(column: "n", as: Int.self)
            }
        }
        return counts
    }

    func requeueDeadJob(id: UUID, at: Date) async throws -> Bool {
        try await db.raw("""
            UPDATE jobs SET state = 'queued', attempts = 0, run_at = \(bind: at.unixMilliseconds), fair_at = \(bind: at.unixMilliseconds), finished_at = NULL
            WHERE id = \(bind: id.uuidString) AND state = 'dead' RETURNING id
            """).first() != nil
    }

    private static func job(from row: any SQLRow) throws -> Job {
        let state = try row.decode(column: "state", as: String.self)
        guard let parsedState = JobState(rawValue: state) else { throw StorageError.corruptRow("job state \(state)") }
        return Job(
            id: try uuid(row, "id"), kind: JobKind(rawValue: try row.decode(column: "kind", as: String.self)),
            payload: try row.decode(column: "payload", as: String.self), state: parsedState,
            attempts: try row.decode(column: "attempts", as: Int.self), maxAttempts: try row.decode(column: "max_attempts", as: Int.self),
            runAt: try date(row, "run_at"), createdAt: try date(row, "created_at"),
            lockedBy: try row.decode(column: "locked_by", as: String?.self), lockedUntil: try optionalDate(row, "locked_until"),
            lastError: try row.decode(column: "last_error", as: String?.self), finishedAt: try optionalDate(row, "finished_at"),
            subject: try row.decode(column: "subject", as: String?.self)
        )
    }
}

// MARK: - Column decoding

extension SQLRepository {
    static func uuid(_ row: any SQLRow, _ column: String) throws -> UUID {
        let text = try row.decode(column: column, as: String.self)
        guard let id = UUIDText.parse(text) else { throw StorageError.corruptRow("\(column) '\(text)' is not a UUID") }
        return id
    }

    static func date(_ row: any SQLRow, _ column: String) throws -> Date {
        Date(unixMilliseconds: try row.decode(column: column, as: Int64.self))
    }

    static func optionalDate(_ row: any SQLRow, _ column: String) throws -> Date? {
        try row.decode(column: column, as: Int64?.self).map(Date.init(unixMilliseconds:))
    }
}
