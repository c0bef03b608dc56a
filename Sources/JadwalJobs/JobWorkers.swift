import Foundation
import JadwalCore
import JadwalHTTP
import JadwalMail
import JadwalPush
import Logging
import ServiceLifecycle
import Synchronization

/// What a job handler can say when it fails for good: no retry will help (a mailbox that
/// does not exist, a payload that cannot be read). Other errors are retried with backoff.
package struct PermanentJobFailure: Error, CustomStringConvertible {
    package let description: String

    package init(description: String) {
        self.description = description
    }
}

/// Runs the handler registered for each job kind.
package struct JobHandlers: Sendable {
    package typealias Handler = @Sendable (Job) async throws -> Void
    private var handlers: [JobKind: Handler] = [:]

    package init(handlers: [JobKind: Handler] = [:]) {
        self.handlers = handlers
    }

    package mutating func register(_ kind: JobKind, _ handler: @escaping Handler) { handlers[kind] = handler }

    package func handler(for kind: JobKind) -> Handler? { handlers[kind] }
}

/// The jobs a person is waiting on as they happen: a sign-in link, a reminder or prayer alert at
/// its time, a notification, an invitation. Every worker takes them before any other job, and a
/// worker of their own (beside `concurrency`) takes only them, so a burst of conflict checks or
/// imports never holds a sign-in email back.
package enum PromptJobs {
    package static let kinds: Set<JobKind> = [
        EmailDelivery.kind, ReminderQueue.fireJob, PrayerAlerts.alertJob, NotificationDispatch.emailJob,
        NotificationDispatch.pushJob, NotificationDispatch.webPushJob, InvitationMail.kind,
    ]
}

/// A pool of workers taking jobs from the durable queue. On graceful shutdown each worker
/// finishes the job it holds and stops; a job held by a process that died is taken again once
/// its lease runs out.
public final class JobWorkers: Service, Sendable {
    package let store: any Store
    /// The store's job queue, as the workers use it.
    private let queue: JobQueue
    package let handlers: JobHandlers
    package let clock: Clock
    package let logger: Logger
    package let concurrency: Int
    package let pollInterval: Duration
    package let lease: Duration
    package let retryPolicy: RetryPolicy
    package let workerName: String
    private let stopping = Atomic<Bool>(false)

    package init(
        store: any Store, handlers: JobHandlers, clock: Clock, logger: Logger, concurrency: Int,
        pollInterval: Duration = .milliseconds(250), lease: Duration = .seconds(60), retryPolicy: RetryPolicy = RetryPolicy()
    ) {
        self.store = store
        queue = JobQueue(store: store, clock: clock)
        self.handlers = handlers
        self.clock = clock
        self.logger = logger
        self.concurrency = concurrency
        self.pollInterval = pollInterval
        self.lease = lease
        self.retryPolicy = retryPolicy
        workerName = "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier):\(UUID().uuidString.prefix(8))"
    }

    public func run() async throws {
        guard concurrency > 0 else {
            try? await gracefulShutdown()
            return
        }
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<concurrency {
                    group.addTask { await self.workLoop(name: "\(self.workerName)#\(index)", promptOnly: false) }
                }
                // The prompt lane: one more worker, for prompt jobs only (it mostly waits).
                group.addTask { await self.workLoop(name: "\(self.workerName)#prompt", promptOnly: true) }
            }
        } onGracefulShutdown: {
            self.stopping.store(true, ordering: .relaxed)
        }
        logger.info("job workers stopped")
    }

    private var shouldStop: Bool { stopping.load(ordering: .relaxed) || Task.isCancelled }

    private func workLoop(name: String, promptOnly: Bool) async {
        // While the database cannot be reached, a worker says so once, waits longer each time
        // (up to 5 s, so a stop is never held long) instead of asking every poll, and says when it can go on.
        var unavailableSince: ContinuousClock.Instant?
        var wait = pollInterval
        let claims = Claims(worker: name, promptOnly: promptOnly, lease: lease)
        // The job the last one's completion claimed in its own transaction, if any.
        var next: Job?
        while !shouldStop {
            let ranJob: Bool
            do {
                if next == nil { next = try await queue.claim(claims.claim()) }
                if let job = next {
                    next = nil
                    next = try await run(job, worker: name, thenClaim: claims)
                    ranJob = true
                } else {
                    ranJob = false
                }
                if let since = unavailableSince {
                    logger.notice("job queue reachable again", metadata: ["worker": "\(name)", "after": "\(ContinuousClock.now - since)"])
                    unavailableSince = nil
                    wait = pollInterval
                }
            } catch {
                if unavailableSince == nil {
                    logger.error("job queue unavailable; waiting for it", metadata: ["worker": "\(name)", "error": "\(error)"])
                    unavailableSince = .now
                }
                wait = min(max(wait * 2, pollInterval), .seconds(5))
                try? await Task.sleep(for: wait)
                continue
            }
            if !ranJob {
                try? await Task.sleep(for: pollInterval)
            }
        }
        // Stopping with a job claimed and not begun: it goes back to the queue, as if never taken.
        if let job = next { try? await queue.fail(job, error: "stopped before it began", retryAt: clock.now) }
    }

    /// How one worker claims: prompt jobs first (only those in the prompt lane), and a job whose
    /// lease ran out (its process died) only when the worker has not looked for one in the last
    /// quarter lease. Looking on every claim was a statement per job, and a lapsed job waits at
    /// most a lease and a quarter either way.
    private final class Claims: Sendable {
        let worker: String
        let promptOnly: Bool
        let lease: Duration
        let lapsedEvery: Duration
        private let lookedForLapsed = Mutex<ContinuousClock.Instant?>(nil)

        init(worker: String, promptOnly: Bool, lease: Duration) {
            self.worker = worker
            self.promptOnly = promptOnly
            self.lease = lease
            lapsedEvery = lease / 4
        }

        /// Whether this claim looks for lapsed jobs too; counted as a look when it does (a
        /// claim rolled back with its transaction only makes the next look come later).
        private func looksForLapsed() -> Bool {
            lookedForLapsed.withLock { last in
                let now = ContinuousClock.now
                guard last.map({ now - $0 >= lapsedEvery }) ?? true else { return false }
                last = now
                return true
            }
        }

        /// This worker's next claim, as `JobQueue.claim` and `complete(_:thenClaim:)` take it.
        func claim() -> JobQueue.Claim {
            JobQueue.Claim(worker: worker, promptKinds: PromptJobs.kinds, promptOnly: promptOnly, lapsedToo: looksForLapsed(), lease: lease)
        }
    }

    /// Claims and runs one job, a prompt one first (only those when `promptOnly`); false when
    /// none was due.
    @discardableResult
    package func runNextJob(worker: String, promptOnly: Bool = false) async throws -> Bool {
        guard let job = try await queue.claim(Claims(worker: worker, promptOnly: promptOnly, lease: lease).claim()) else { return false }
        _ = try await run(job, worker: worker, thenClaim: nil)
        return true
    }

    /// Runs a claimed job and records how it went; with `thenClaim`, the transaction that
    /// records a success also claims the worker's next job (one transaction fewer per job).
    private func run(_ job: Job, worker: String, thenClaim claims: Claims?) async throws -> Job? {
        let lease = self.lease
        var jobLogger = logger
        jobLogger[metadataKey: "job"] = .string(job.id.uuidString)
        jobLogger[metadataKey: "job_kind"] = .string(job.kind.rawValue)
        // While the job runs its lease is renewed every third of it, so a slow job is never
        // taken by another worker, and the lease can be short: a job held by an instance that
        // died is taken over within one lease.
        let renewing = Task { [queue, logger = jobLogger] in
            while !Task.isCancelled {
                try? await Task.sleep(for: lease / 3)
                guard !Task.isCancelled else { return }
                let held = try? await queue.renew(job, worker: worker, lease: lease)
                if held == false {
                    logger.warning("job lease lost while it ran; another worker may have taken it")
                    return
                }
            }
        }
        defer { renewing.cancel() }
        do {
            guard let handler = handlers.handler(for: job.kind) else {
                throw PermanentJobFailure(description: "no handler for job kind '\(job.kind)' in this version of jadwal")
            }
            try await handler(job)
            let next = try await queue.complete(job, thenClaim: shouldStop ? nil : claims?.claim())
            jobLogger.debug("job done", metadata: ["attempt": "\(job.attempts)"])
            return next
        } catch {
            let failed = clock.now
            let permanent = error is PermanentJobFailure
            let retryAt: Date? = (permanent || job.attempts >= job.maxAttempts)
                ? nil
                : failed + retryPolicy.delay(afterAttempts: job.attempts, jitter: Double.random(in: 0...1)).timeInterval
            let message = String(describing: error)
            try await queue.fail(job, error: message, retryAt: retryAt)
            if let retryAt {
                jobLogger.warning("job failed, will retry", metadata: ["attempt": "\(job.attempts)", "retry_at": "\(retryAt)", "error": "\(message)"])
            } else {
                jobLogger.error("job failed for good (dead letter)", metadata: ["attempt": "\(job.attempts)", "error": "\(message)"])
            }
            return nil
        }
    }
}
