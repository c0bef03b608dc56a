import NIOCore
import NIOPosix

/// The one thread that runs the writer connection's statements *and* the transaction code
/// between them. SQLiteNIO runs each statement on its thread pool and resumes the caller on
/// Swift's shared pool: two thread wake-ups per statement, while the write lock is held. A
/// write transaction is about seven statements, and under load those wake-ups were most of
/// its time (measured: 445 PUT/s with a fifth of all CPU in futex and task switches). Run as
/// the transaction's task executor, the thread picks up each resumed continuation itself, so
/// a transaction wakes it once on entry and hands back once at the end.
final class SQLiteWriterThread: TaskExecutor {
    /// Also the thread pool the writer connection is opened on; one thread, so statements and
    /// the code around them stay in order on it.
    let pool: NIOThreadPool

    init() {
        pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        pool.submit { state in
            switch state {
            case .active:
                job.runSynchronously(on: self.asUnownedTaskExecutor())
            case .cancelled:
                // Shut down: a task still preferring this thread finishes on the shared pool.
                globalConcurrentExecutor.enqueue(ExecutorJob(job))
            }
        }
    }

    func shutdown() async {
        try? await pool.shutdownGracefully()
    }
}
