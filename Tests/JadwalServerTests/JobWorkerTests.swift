import Foundation
import HTTPTypes
import JadwalCore
@testable import JadwalServer
@testable import JadwalHTTP
@testable import JadwalAPI
@testable import JadwalWeb
@testable import JadwalCalDAV
@testable import JadwalMail
@testable import JadwalPush
@testable import JadwalLLM
@testable import JadwalJobs
import JadwalTestSupport
import Logging
import ServiceLifecycle
import Storage
import Testing

@Suite("Job workers")
struct JobWorkerTests {
    /// Counts runs per job and can hold a job until released.
    actor Runs {
        var counts: [UUID: Int] = [:]
        /// Every run, in order.
        var ids: [UUID] = []
        var gate: CheckedContinuation<Void, Never>?
        var started = false

        func record(_ id: UUID) {
            counts[id, default: 0] += 1
            ids.append(id)
        }
        func count(_ id: UUID) -> Int { counts[id] ?? 0 }
        func hold() async {
            started = true
            await withCheckedContinuation { gate = $0 }
        }
        func release() {
            gate?.resume()
            gate = nil
        }
        var hasStarted: Bool { started }
    }

    struct Flaky: Error, CustomStringConvertible { var description: String { "temporarily unavailable" } }

    static func workers(
        store: SQLStore, clock: TestClock, runs: Runs, concurrency: Int = 1, _ register: (inout JobHandlers) -> Void
    ) -> JobWorkers {
        var handlers = JobHandlers()
        register(&handlers)
        return JobWorkers(
            store: store, handlers: handlers, clock: clock.clock, logger: TestEnvironment.logger, concurrency: concurrency,
            pollInterval: .milliseconds(10), retryPolicy: RetryPolicy(base: .seconds(10), cap: .seconds(100))
        )
    }

    @Test("a job that runs longer than its lease keeps it: another worker does not take it and run it again",
          .timeLimit(.minutes(1)), arguments: TestEnvironment.engines)
    func slowJobKeepsLease(engine: TestEngine) async throws {
        let store = try await TestEnvironment.freshStore(engine)
        let clock = TestClock()
        let runs = Runs()
        var handlers = JobHandlers()
        handlers.register("slow") { job in
            await runs.record(job.id)
            // Only the first run waits to be released; a second one (the bug) ends at once.
            if await runs.count(job.id) == 1 { await runs.hold() }
        }
        func workers() -> JobWorkers {
            JobWorkers(store: store, handlers: handlers, clock: clock.clock, logger: TestEnvironment.logger, concurrency: 1,
                       pollInterval: .milliseconds(10), lease: .milliseconds(300))
        }
        let job = Job.new("slow", payload: "{}", runAt: clock.now, now: clock.now, id: UUID())
        try await store.transaction { tx in try await tx.enqueue(job) }
        let first = workers(), second = workers()
        let running = Task { try await first.runNextJob(worker: "first") }
        while !(await runs.hasStarted) { try await Task.sleep(for: .milliseconds(10)) }
        // Far past the lease it was claimed with; the renewal (every 100 ms) moves it on.
        clock.advance(by: 60)
        try await Task.sleep(for: .milliseconds(600))
        #expect(try await second.runNextJob(worker: "second") == false, "the job is still held by the worker running it")
        await runs.release()
        #expect(try await running.value)
        #expect(await runs.count(job.id) == 1)
        #expect(try await store.read { tx in try await tx.job(id: job.id) }?.state == .done)
        try await store.shutdown()
    }

    @Test("a sign-in email queued behind a burst of checks runs first; the prompt lane runs nothing else", arguments: TestEnvironment.engines)
    func promptJobsFirst(engine: TestEngine) async throws {
        let store = try await TestEnvironment.freshStore(engine)
        let clock = TestClock()
        let runs = Runs()
        let workers = Self.workers(store: store, clock: clock, runs: runs) { handlers in
            for kind in [ConflictCheck.jobKind, EmailDelivery.kind] {
                handlers.register(kind) { job in await runs.record(job.id) }
            }
        }
        let checks = (0..<3).map { _ in Job.new(ConflictCheck.jobKind, payload: "{}", runAt: clock.now, now: clock.now, id: UUID(), subject: "someone") }
        let email = Job.new(EmailDelivery.kind, payload: "{}", runAt: clock.now + 1, now: clock.now + 1, id: UUID())
        try await store.transaction { tx in
            for job in checks + [email] { try await tx.enqueue(job) }
        }
        clock.advance(by: 2)
        #expect(try await workers.runNextJob(worker: "prompt", promptOnly: true))
        #expect(try await workers.runNextJob(worker: "prompt", promptOnly: true) == false, "the prompt lane leaves the checks to the others")
        for _ in checks { #expect(try await workers.runNextJob(worker: "any")) }
        #expect(await runs.ids == [email.id] + checks.map(\.id))
        try await store.shutdown()
    }

    @Test("failures retry with backoff, then the job is a dead letter", arguments: TestEnvironment.engines)
    func retriesThenDead(engine: TestEngine) async throws {
        let store = try await TestEnvironment.freshStore(engine)
        let clock = TestClock()
        let runs = Runs()
        let workers = Self.workers(store: store, clock: clock, runs: runs) { handlers in
            handlers.register("flaky") { job in
                await runs.record(job.id)
                throw Flaky()
            }
        }
        let job = Job.new("flaky", payload: "{}", maxAttempts: 3, runAt: clock.now, now: clock.now, id: UUID())
        try await store.transaction { tx in try await tx.enqueue(job) }

        #expect(try await workers.runNextJob(worker: "t"))
        var stored = try #require(try await store.read { tx in try await tx.job(id: job.id) })
        #expect(stored.state == .queued && stored.attempts == 1 && stored.lastError == "temporarily unavailable")
        let firstDelay = stored.runAt.timeIntervalSince(clock.now)
        #expect(firstDelay >= 5 && firstDelay <= 10)
        // Not due yet: nothing runs.
        #expect(try await workers.runNextJob(worker: "t") == false)

        clock.advance(by: firstDelay)
        #expect(try await workers.runNextJob(worker: "t"))
        stored = try #require(try await store.read { tx in try await tx.job(id: job.id) })
        let secondDelay = stored.runAt.timeIntervalSince(clock.now)
        #expect(secondDelay >= 10 && secondDelay <= 20)

        clock.advance(by: secondDelay)
        #expect(try await workers.runNextJob(worker: "t"))
        stored = try #require(try await store.read { tx in try await tx.job(id: job.id) })
        #expect(stored.state == .dead && stored.attempts == 3)
        #expect(await runs.count(job.id) == 3)
        clock.advance(by: 1000)
        #expect(try await workers.runNextJob(worker: "t") == false)
        try await store.shutdown()
    }

    @Test("permanent failures and unknown kinds go straight to the dead letters", arguments: TestEnvironment.engines)
    func permanentFailure(engine: TestEngine) async throws {
        let store = try await TestEnvironment.freshStore(engine)
        let clock = TestClock()
        let runs = Runs()
        let workers = Self.workers(store: store, clock: clock, runs: runs) { handlers in
            handlers.register("broken") { _ in throw PermanentJobFailure(description: "mailbox does not exist") }
        }
        let broken = Job.new("broken", payload: "{}", runAt: clock.now, now: clock.now, id: UUID())
        let unknown = Job.new("from-a-newer-version", payload: "{}", runAt: clock.now + 1, now: clock.now, id: UUID())
        try await store.transaction { tx in
            try await tx.enqueue(broken)
            try await tx.enqueue(unknown)
        }
        clock.advance(by: 1)
        #expect(try await workers.runNextJob(worker: "t"))
        #expect(try await workers.runNextJob(worker: "t"))
        let dead = try await store.read { tx in try await tx.jobs(state: .dead, limit: 10) }
        #expect(Set(dead.map(\.id)) == [broken.id, unknown.id])
        #expect(dead.first { $0.id == unknown.id }?.lastError?.contains("no handler") == true)
        try await store.shutdown()
    }

    @Test("a running pool, each success claiming the next job with it, runs a burst once each and still takes over a job whose worker died",
          .timeLimit(.minutes(1)), arguments: TestEnvironment.engines)
    func poolChainsClaimsAndTakesLapsedJobs(engine: TestEngine) async throws {
        let store = try await TestEnvironment.freshStore(engine)
        let clock = TestClock()
        let runs = Runs()
        var handlers = JobHandlers()
        handlers.register("step") { job in await runs.record(job.id) }
        let workers = JobWorkers(store: store, handlers: handlers, clock: clock.clock, logger: TestEnvironment.logger, concurrency: 2,
                                 pollInterval: .milliseconds(10), lease: .milliseconds(400))
        let burst = (0..<60).map { _ in Job.new("step", payload: "{}", runAt: clock.now, now: clock.now, id: UUID()) }
        try await store.transaction { tx in for job in burst { try await tx.enqueue(job) } }
        let group = ServiceGroup(configuration: .init(services: [workers], logger: TestEnvironment.logger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            while await runs.ids.count < burst.count { try await Task.sleep(for: .milliseconds(10)) }
            // A worker of another process claims a job and dies: once its lease has run out (by
            // the jobs' clock), the pool, busy or idle, takes the job over.
            let orphan = Job.new("step", payload: "{}", runAt: clock.now, now: clock.now, id: UUID())
            let claimed = try await store.transaction { tx in
                try await tx.enqueue(orphan)
                return try await tx.claimNextJob(worker: "died", now: clock.now, lease: .seconds(3600))
            }
            #expect(claimed?.id == orphan.id)
            try await Task.sleep(for: .milliseconds(200))
            #expect(await runs.count(orphan.id) == 0, "its lease still holds")
            clock.advance(by: 7200)
            while await runs.count(orphan.id) == 0 { try await Task.sleep(for: .milliseconds(10)) }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            #expect(await runs.count(orphan.id) == 1)
        }
        for job in burst { #expect(await runs.count(job.id) == 1) }
        for job in burst { #expect(try await store.read { tx in try await tx.job(id: job.id) }?.state == .done) }
        try await store.shutdown()
    }

    @Test("graceful shutdown lets the running job finish, then stops", arguments: TestEnvironment.engines)
    func gracefulShutdown(engine: TestEngine) async throws {
        let store = try await TestEnvironment.freshStore(engine)
        let clock = TestClock()
        let runs = Runs()
        let workers = Self.workers(store: store, clock: clock, runs: runs, concurrency: 2) { handlers in
            handlers.register("slow") { job in
                await runs.hold()
                await runs.record(job.id)
            }
        }
        let job = Job.new("slow", payload: "{}", runAt: clock.now, now: clock.now, id: UUID())
        try await store.transaction { tx in try await tx.enqueue(job) }
        let group = ServiceGroup(configuration: .init(services: [workers], logger: TestEnvironment.logger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            while await !runs.hasStarted { try await Task.sleep(for: .milliseconds(5)) }
            await group.triggerGracefulShutdown()
            try await Task.sleep(for: .milliseconds(100))
            await runs.release()
            try await tasks.waitForAll()
        }
        #expect(await runs.count(job.id) == 1)
        #expect(try await store.read { tx in try await tx.job(id: job.id) }?.state == .done)
        try await store.shutdown()
    }

    @Test("a queued sign-in email holds its link sealed, not in the clear")
    func sealedPayload() async throws {
        try await ServerHarness.run(configure: { $0.workers = 0 }) { harness, client in
            _ = try await client.send(.post, "/api/v1/auth/email", json: #"{"email": "sealed@example.com"}"#)
            let jobs = try await harness.instance.store.read { tx in try await tx.jobs(state: .queued, limit: 10) }
                .filter { $0.kind == EmailDelivery.kind }  // the reminder sweep is queued too
            #expect(jobs.count == 1)
            let payload = try #require(jobs.first?.payload)
            #expect(payload.contains("sealed") && !payload.contains("auth/magic") && !payload.contains("sealed@example.com"))
            // Delivering it opens the seal.
            let workers = harness.instance.workers
            #expect(try await workers.runNextJob(worker: "t"))
            while try await workers.runNextJob(worker: "t") {}  // the sweep may come first
            #expect(try await harness.outbox.waitForMagicLink(to: "sealed@example.com").count == 43)
        }
    }
}
