import Foundation
import JadwalCore
import JadwalTestSupport
import Storage
import Testing

@Suite("Durable job queue on every engine")
struct JobQueueTests {
    static let t0 = Date(timeIntervalSince1970: 1_790_000_000)

    @Test("claim takes due jobs in order, once; retry and dead letter", arguments: TestEnvironment.engines)
    func lifecycle(engine: TestEngine) async throws {
        let store = try await TestEnvironment.freshStore(engine)
        let early = Job.new("email.send", payload: "{\"n\":1}", maxAttempts: 2, runAt: Self.t0, now: Self.t0, id: UUID())
        let later = Job.new("email.send", payload: "{\"n\":2}", runAt: Self.t0 + 60, now: Self.t0, id: UUID())
        try await store.transaction { tx in
            try await tx.enqueue(later)
            try await tx.enqueue(early)
        }
        let claimed = try await store.transaction { tx in try await tx.claimNextJob(worker: "w1", now: Self.t0, lease: .seconds(30)) }
        #expect(claimed?.id == early.id)
        #expect(claimed?.attempts == 1)
        #expect(claimed?.state == .running)
        #expect(claimed?.lockedBy == "w1")
        // The other job is not due yet, and the claimed one is leased.
        #expect(try await store.transaction { tx in try await tx.claimNextJob(worker: "w2", now: Self.t0, lease: .seconds(30)) } == nil)

        try await store.transaction { tx in try await tx.failJob(id: early.id, error: "smtp down", retryAt: Self.t0 + 10, at: Self.t0) }
        var job = try await store.read { tx in try await tx.job(id: early.id) }
        #expect(job?.state == .queued && job?.lastError == "smtp down" && job?.runAt == Self.t0 + 10)

        let second = try await store.transaction { tx in try await tx.claimNextJob(worker: "w2", now: Self.t0 + 10, lease: .seconds(30)) }
        #expect(second?.id == early.id && second?.attempts == 2)
        try await store.transaction { tx in try await tx.failJob(id: early.id, error: "still down", retryAt: nil, at: Self.t0 + 11) }
        job = try await store.read { tx in try await tx.job(id: early.id) }
        #expect(job?.state == .dead)
        #expect(try await store.read { tx in try await tx.jobs(state: .dead, limit: 10) }.map(\.id) == [early.id])
        #expect(try await store.read { tx in try await tx.jobCounts() } == [.queued: 1, .running: 0, .done: 0, .dead: 1])

        #expect(try await store.transaction { tx in try await tx.requeueDeadJob(id: early.id, at: Self.t0 + 20) })
        #expect(try await store.transaction { tx in try await tx.requeueDeadJob(id: early.id, at: Self.t0 + 20) } == false)
        let third = try await store.transaction { tx in try await tx.claimNextJob(worker: "w3", now: Self.t0 + 20, lease: .seconds(30)) }
        #expect(third?.id == early.id && third?.attempts == 1)
        try await store.transaction { tx in try await tx.completeJob(id: early.id, at: Self.t0 + 21) }
        #expect(try await store.read { tx in try await tx.job(id: early.id) }?.state == .done)
        try await store.shutdown()
    }

    @Test("one account's burst of jobs does not hold back another account's job queued after it", arguments: TestEnvironment.engines)
    func fairAcrossAccounts(engine: TestEngine) async throws {
        let store = try await TestEnvironment.freshStore(engine)
        let burst = (0..<100).map { n in
            Job.new("conflict.check", payload: "{\"n\":\(n)}", runAt: Self.t0, now: Self.t0 + Double(n) / 1000, id: UUID(), subject: "account-a")
        }
        let other = Job.new("conflict.check", payload: "{}", runAt: Self.t0 + 0.99, now: Self.t0 + 0.99, id: UUID(), subject: "account-b")
        try await store.transaction { tx in
            for job in burst { try await tx.enqueue(job) }
            try await tx.enqueue(other)
        }
        var order: [UUID] = []
        while let job = try await store.transaction({ tx in try await tx.claimNextJob(worker: "w", now: Self.t0 + 2, lease: .seconds(60)) }) {
            order.append(job.id)
            try await store.transaction { tx in try await tx.completeJob(id: job.id, at: Self.t0 + 2) }
        }
        #expect(order.count == 101)
        // Account A's jobs are spaced 50 ms apart: the one queued a second later comes after 20 of them, not 100.
        #expect(order.firstIndex(of: other.id) == 20)
        // Within the burst, queue order holds.
        #expect(order.filter { $0 != other.id } == burst.map(\.id))
        try await store.shutdown()
    }

    @Test("claiming by kind takes only those kinds; a retried job waits its turn behind jobs due before it", arguments: TestEnvironment.engines)
    func claimByKindAndRetryPlace(engine: TestEngine) async throws {
        let store = try await TestEnvironment.freshStore(engine)
        let checks = (0..<5).map { n in Job.new("conflict.check", payload: "{\"n\":\(n)}", runAt: Self.t0, now: Self.t0, id: UUID(), subject: "a") }
        let email = Job.new("email.send", payload: "{}", runAt: Self.t0 + 5, now: Self.t0 + 5, id: UUID())
        try await store.transaction { tx in
            for job in checks { try await tx.enqueue(job) }
            try await tx.enqueue(email)
        }
        let now = Self.t0 + 10
        let prompt = try await store.transaction { tx in try await tx.claimNextJob(worker: "w", now: now, lease: .seconds(60), kinds: ["email.send", "reminder.fire"]) }
        #expect(prompt?.id == email.id)
        #expect(try await store.transaction { tx in try await tx.claimNextJob(worker: "w", now: now, lease: .seconds(60), kinds: ["email.send"]) } == nil)
        let first = try await store.transaction { tx in try await tx.claimNextJob(worker: "w", now: now, lease: .seconds(60)) }
        #expect(first?.id == checks[0].id)
        // Failed and retried at once: it goes behind the checks that were due before its retry.
        try await store.transaction { tx in try await tx.failJob(id: checks[0].id, error: "busy", retryAt: now, at: now) }
        var rest: [UUID] = []
        while let job = try await store.transaction({ tx in try await tx.claimNextJob(worker: "w", now: now, lease: .seconds(60)) }) {
            rest.append(job.id)
            try await store.transaction { tx in try await tx.completeJob(id: job.id, at: now) }
        }
        #expect(rest == checks.dropFirst().map(\.id) + [checks[0].id])
        try await store.shutdown()
    }

    @Test("a job whose worker died is claimed again when its lease runs out", arguments: TestEnvironment.engines)
    func lapsedLease(engine: TestEngine) async throws {
        let store = try await TestEnvironment.freshStore(engine)
        let job = Job.new("email.send", payload: "{}", runAt: Self.t0, now: Self.t0, id: UUID())
        try await store.transaction { tx in try await tx.enqueue(job) }
        _ = try await store.transaction { tx in try await tx.claimNextJob(worker: "dead-process", now: Self.t0, lease: .seconds(60)) }
        #expect(try await store.transaction { tx in try await tx.claimNextJob(worker: "w2", now: Self.t0 + 59, lease: .seconds(60)) } == nil)
        let reclaimed = try await store.transaction { tx in try await tx.claimNextJob(worker: "w2", now: Self.t0 + 61, lease: .seconds(60)) }
        #expect(reclaimed?.id == job.id && reclaimed?.lockedBy == "w2" && reclaimed?.attempts == 2)
        try await store.shutdown()
    }

    /// Two stores are two processes' worth of connections: on PostgreSQL the claims race
    /// through FOR UPDATE SKIP LOCKED, on SQLite through the file lock.
    @Test("workers in two processes never take the same job", arguments: TestEnvironment.engines)
    func concurrentClaims(engine: TestEngine) async throws {
        let location = try await TestEnvironment.freshDatabase(engine)
        let first = try SQLStore(location: location, logger: TestEnvironment.logger)
        try await first.migrate()
        let second = try SQLStore(location: location, logger: TestEnvironment.logger)
        let jobCount = 120
        try await first.transaction { tx in
            for index in 0..<jobCount {
                try await tx.enqueue(Job.new("email.send", payload: "{\"n\":\(index)}", runAt: Self.t0, now: Self.t0, id: UUID()))
            }
        }
        let claims = try await withThrowingTaskGroup(of: [UUID].self) { group in
            for worker in 0..<8 {
                let store = worker.isMultiple(of: 2) ? first : second
                group.addTask {
                    var mine: [UUID] = []
                    while let job = try await store.transaction({ tx in
                        try await tx.claimNextJob(worker: "w\(worker)", now: Self.t0, lease: .seconds(600))
                    }) {
                        mine.append(job.id)
                    }
                    return mine
                }
            }
            return try await group.reduce(into: [UUID]()) { $0 += $1 }
        }
        #expect(claims.count == jobCount)
        #expect(Set(claims).count == jobCount)
        try await first.shutdown()
        try await second.shutdown()
    }
}
