import Foundation

/// A unit of background work in the durable `jobs` table.
public struct Job: Sendable, Hashable, Codable {
    public var id: UUID
    public var kind: JobKind
    /// JSON understood by the handler of `kind`.
    public var payload: String
    public var state: JobState
    public var attempts: Int
    public var maxAttempts: Int
    /// Not before this instant (first run, or the next retry).
    public var runAt: Date
    public var createdAt: Date
    /// The worker holding it while `running`, and until when; a lease that ran out
    /// (the process died mid-job) makes the job claimable again.
    public var lockedBy: String?
    public var lockedUntil: Date?
    public var lastError: String?
    public var finishedAt: Date?
    /// What the job is about, when queued jobs of a kind must be found again to be cancelled (a
    /// calendar object's reminders, when the object changes).
    public var subject: String?

    public init(
        id: UUID, kind: JobKind, payload: String, state: JobState, attempts: Int, maxAttempts: Int, runAt: Date, createdAt: Date,
        lockedBy: String? = nil, lockedUntil: Date? = nil, lastError: String? = nil, finishedAt: Date? = nil, subject: String? = nil
    ) {
        self.id = id
        self.kind = kind
        self.payload = payload
        self.state = state
        self.attempts = attempts
        self.maxAttempts = maxAttempts
        self.runAt = runAt
        self.createdAt = createdAt
        self.lockedBy = lockedBy
        self.lockedUntil = lockedUntil
        self.lastError = lastError
        self.finishedAt = finishedAt
        self.subject = subject
    }

    /// A new job, to be enqueued in the transaction of the change that causes it.
    public static func new(
        _ kind: JobKind, payload: String, maxAttempts: Int = 8, runAt: Date, now: Date, id: UUID, subject: String? = nil
    ) -> Job {
        Job(id: id, kind: kind, payload: payload, state: .queued, attempts: 0, maxAttempts: maxAttempts, runAt: runAt, createdAt: now, subject: subject)
    }
}

public struct JobKind: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public var description: String { rawValue }
}

public enum JobState: String, Sendable, Hashable, Codable, CaseIterable {
    case queued, running, done
    /// Gave up after `maxAttempts`, or failed permanently: kept for an operator to inspect and retry.
    case dead
}

/// When a failed job runs again: exponential backoff with jitter, capped.
public struct RetryPolicy: Sendable {
    public var base: Duration
    public var cap: Duration

    public init(base: Duration = .seconds(5), cap: Duration = .seconds(3600)) {
        self.base = base
        self.cap = cap
    }

    /// Delay before attempt `attempts + 1`, given `attempts` already made (≥ 1).
    /// `jitter` in 0...1 spreads retries of jobs that failed together.
    public func delay(afterAttempts attempts: Int, jitter: Double) -> Duration {
        let exponent = min(max(attempts - 1, 0), 30)
        let raw = base * (1 << exponent)
        let capped = raw < cap ? raw : cap
        return capped * (0.5 + 0.5 * min(max(jitter, 0), 1))
    }
}
