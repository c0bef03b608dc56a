import NIOCore

/// A PostgreSQL connection's event loop as the task executor of the transaction that leased it.
/// PostgresNIO answers each query on that loop and the transaction's code awaited it on Swift's
/// shared pool: two thread wake-ups per statement (the loop to send, the pool to go on), with a
/// PUT's dozen statements in a row (measured: 245 PUT/s, with half the CPU in the kernel and a
/// tenth in task switches). Preferring the loop, each resumed continuation runs on the thread
/// that read the answer, as `SQLiteWriterThread` does for SQLite's writer.
final class EventLoopTaskExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
