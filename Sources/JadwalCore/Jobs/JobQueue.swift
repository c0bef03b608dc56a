import Foundation

/// The durable job queue: as an operator inspects it (`jadwal jobs …`, `/metrics`), and as the
/// workers take, run and finish its jobs.
public struct JobQueue: Sendable {
    let store: StoreAccess<any JobStore>
    let clock: Clock

    public init(store: any Store, clock: Clock) {
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
    }

    /// Jobs in `state` (all when nil), at most `limit`, and how many there are in each state.
    public func jobs(state: JobState?, limit: Int) async throws -> ([Job], counts: [JobState: Int]) {
        try await store.read { tx in (try await tx.jobs(state: state, limit: limit), try await tx.jobCounts()) }
    }

    /// How many jobs are in each state, and how many are due now (running, or queued and due).
    public func depth() async throws -> (counts: [JobState: Int], due: Int) {
        let now = clock.now
        return try await store.read { tx in (try await tx.jobCounts(), try await tx.dueJobCount(now: now)) }
    }

    /// Puts a dead job back in the queue; false when it was not dead.
    public func retry(id: UUID) async throws -> Bool {
        let now = clock.now
        return try await store.transaction { tx in try await tx.requeueDeadJob(id: id, at: now) }
    }

    // MARK: Workers

    /// How a worker takes its next job: a prompt one first (`promptKinds`; only those when
    /// `promptOnly`), one whose lease lapsed only when `lapsedToo`.
    public struct Claim: Sendable {
        public var worker: String
        public var promptKinds: Set<JobKind>
        public var promptOnly: Bool
        public var lapsedToo: Bool
        public var lease: Duration

        public init(worker: String, promptKinds: Set<JobKind>, promptOnly: Bool, lapsedToo: Bool, lease: Duration) {
            self.worker = worker
            self.promptKinds = promptKinds
            self.promptOnly = promptOnly
            self.lapsedToo = lapsedToo
            self.lease = lease
        }

        func take(now: Date, tx: any JobStore) async throws -> Job? {
            if let prompt = try await tx.claimNextJob(worker: worker, now: now, lease: lease, kinds: promptKinds, lapsedToo: lapsedToo) { return prompt }
            return promptOnly ? nil : try await tx.claimNextJob(worker: worker, now: now, lease: lease, kinds: nil, lapsedToo: lapsedToo)
        }
    }

    /// The worker's next job; nil when none is due.
    public func claim(_ claim: Claim) async throws -> Job? {
        let now = clock.now
        return try await store.transaction { tx in try await claim.take(now: now, tx: tx) }
    }

    /// Marks a job done and, with `thenClaim`, takes the worker's next job in the same
    /// transaction (one transaction fewer per job).
    public func complete(_ job: Job, thenClaim next: Claim?) async throws -> Job? {
        let now = clock.now
        return try await store.transaction { tx in
            try await tx.completeJob(id: job.id, at: now)
            return try await next?.take(now: now, tx: tx)
        }
    }

    /// Moves the lease of a job `worker` runs on by `lease`; false when it holds it no longer.
    public func renew(_ job: Job, worker: String, lease: Duration) async throws -> Bool {
        let until = clock.now + lease.timeInterval
        return try await store.transaction { tx in try await tx.renewJobLease(id: job.id, worker: worker, until: until) }
    }

    /// Records a failure: queued again at `retryAt`, or dead when nil.
    public func fail(_ job: Job, error: String, retryAt: Date?) async throws {
        let now = clock.now
        try await store.transaction { tx in try await tx.failJob(id: job.id, error: error, retryAt: retryAt, at: now) }
    }
}

/// A periodic sweep: one queued job of its kind at a time (subject `sweep`), each run queueing
/// the next. Reminders, prayer alerts and the weekly plan keep theirs so.
extension JobStore {
    /// Queues the sweep of `kind` at `time`, in place of any queued before.
    public func queueSweep(_ kind: JobKind, at time: Date, now: Date, random: RandomSource) async throws {
        try await cancelQueuedJobs(kind: kind, subject: "sweep")
        try await enqueue(Job.new(kind, payload: "{}", maxAttempts: 5, runAt: time, now: now, id: random.uuid(), subject: "sweep"))
    }

    /// Queues the sweep of `kind` to run now unless one is queued (at start-up). Instances
    /// starting together on one database queue one sweep, not one each.
    public func ensureSweep(_ kind: JobKind, now: Date, random: RandomSource) async throws {
        try await serializeJobs(kind: kind)
        guard try await queuedJobCount(kind: kind) == 0 else { return }
        try await queueSweep(kind, at: now, now: now, random: random)
    }
}
