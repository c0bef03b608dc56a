import Foundation
import JadwalCore
import Logging
import NIOCore
import NIOPosix
import SQLiteKit
import SQLiteNIO

/// A small pool of SQLite connections to one file. The writer pool has one connection, so write
/// transactions queue here in order instead of spinning on SQLITE_BUSY; readers share several
/// (WAL lets them read beside the writer).
actor SQLiteConnectionPool {
    private let path: String
    private let size: Int
    private let threadPool: NIOThreadPool
    private let logger: Logger
    private var idle: [SQLiteConnection] = []
    private var opened = 0
    /// Who waits for a connection, oldest first; each with a number its deadline finds it by, and
    /// the deadline's task, cancelled when the waiter is served so that it does not outlive the
    /// wait (a burst of writes queued thousands of them, each alive for the whole timeout).
    private var waiters: [(id: UInt64, continuation: CheckedContinuation<SQLiteConnection, any Error>, deadline: Task<Void, Never>?)] = []
    private var nextWaiter: UInt64 = 0
    /// How long a transaction may wait for a connection before it is refused with
    /// `StoreUnavailable` (nil: as long as it takes). One slow writer then costs others a quick
    /// 503, not a hang that holds their connections and memory.
    private let leaseTimeout: Duration?
    private var closed = false
    private var drained: [CheckedContinuation<Void, Never>] = []

    /// `threadPool` runs the connections' statements (the shared one unless given).
    init(path: String, size: Int, threadPool: NIOThreadPool = .singleton, leaseTimeout: Duration? = nil, logger: Logger) {
        self.path = path
        self.size = size
        self.leaseTimeout = leaseTimeout
        self.threadPool = threadPool
        self.logger = logger
    }

    deinit {
        // A pool dropped without close() (a test that stopped before shutting its store down)
        // still closes its connections: SQLiteNIO traps on deinitialising an open one.
        for connection in idle { _ = connection.close() }
    }

    func withConnection<T: Sendable>(_ body: @Sendable (SQLiteConnection) async throws -> T) async throws -> T {
        let connection = try await lease()
        do {
            let result = try await body(connection)
            await release(connection)
            return result
        } catch {
            await release(connection)
            throw error
        }
    }

    private func lease() async throws -> SQLiteConnection {
        if closed { throw StorageError.closed }
        if let connection = idle.popLast() { return connection }
        if opened < size {
            opened += 1
            do {
                return try await Self.open(path: path, threadPool: threadPool, logger: logger)
            } catch {
                retire()
                throw error
            }
        }
        nextWaiter += 1
        let id = nextWaiter
        let deadline = leaseTimeout.map { timeout in
            Task { [weak self] in
                do { try await Task.sleep(for: timeout) } catch { return }  // served in time
                await self?.expire(id, after: timeout)
            }
        }
        return try await withCheckedThrowingContinuation { waiters.append((id, $0, deadline)) }
    }

    /// The waiter `id`, if it still waits, is refused.
    private func expire(_ id: UInt64, after waited: Duration) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        let seconds = max(1, Int(waited.components.seconds))
        waiters.remove(at: index).continuation.resume(throwing: StoreUnavailable(
            reason: "the database was busy with other writes for \(seconds) s", retryAfterSeconds: seconds))
    }

    private func release(_ connection: SQLiteConnection) async {
        if !waiters.isEmpty {
            let waiter = waiters.removeFirst()
            waiter.deadline?.cancel()
            waiter.continuation.resume(returning: connection)
        } else if closed {
            try? await connection.close().get()
            retire()
        } else {
            idle.append(connection)
        }
    }

    // Connections close through the future-returning `close()`: the async one is skipped when
    // the calling task is cancelled, and an open connection going away traps in SQLiteNIO.

    /// One connection fewer; the last one lets `close()` return.
    private func retire() {
        opened -= 1
        guard opened == 0 else { return }
        for waiter in drained { waiter.resume() }
        drained.removeAll()
    }

    /// Refuses new leases and closes every connection, waiting for those in use to be given
    /// back: a transaction in flight finishes first, and the thread the statements run on
    /// (the writer's own) may stop once this returns.
    func close() async {
        closed = true
        for waiter in waiters {
            waiter.deadline?.cancel()
            waiter.continuation.resume(throwing: StorageError.closed)
        }
        waiters.removeAll()
        let closing = idle
        idle.removeAll()
        for connection in closing {
            try? await connection.close().get()
            retire()
        }
        if opened > 0 { await withCheckedContinuation { drained.append($0) } }
    }

    private static func open(path: String, threadPool: NIOThreadPool, logger: Logger) async throws -> SQLiteConnection {
        let connection = try await SQLiteConnection.open(
            storage: .file(path: path), threadPool: threadPool, logger: logger, on: MultiThreadedEventLoopGroup.singleton.any())
        let db = connection.sql()
        // WAL: readers never block the writer. busy_timeout: wait for another process (the CLI
        // beside a running server) instead of failing. Foreign keys are off by default in SQLite.
        // No mmap and a 2 MiB page cache per connection (five connections): time-range queries
        // answer from the in-memory calendar (`CalendarMirror`), so the database's pages need not
        // sit in the process; the operating system's file cache holds them. With mmap and a
        // 64 MiB cache the server's resident memory grew with the database (311 MiB at 20,000
        // events, 227 without); 8 MiB caches were still 14 MB of its heap at 5,000
        // (Benchmarks/memory, docs/speed.md).
        for pragma in [
            "PRAGMA journal_mode = WAL", "PRAGMA foreign_keys = ON", "PRAGMA busy_timeout = 10000", "PRAGMA synchronous = NORMAL",
            "PRAGMA mmap_size = 0", "PRAGMA cache_size = -2048",
        ] {
            do {
                try await db.raw(SQLQueryString(pragma)).run()
            } catch {
                try? await connection.close().get()
                throw error
            }
        }
        return connection
    }
}
