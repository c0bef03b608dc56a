import HummingbirdBcrypt
import JadwalCore
import NIOCore
import NIOPosix

extension PasswordHashing {
    /// bcrypt at `cost`, on a thread pool of its own: it is deliberately slow, so it never runs
    /// on the async executors, and a flood of wrong passwords queues behind its few threads
    /// instead of NIO's shared pool, where SQLite's reads run.
    package static func bcrypt(cost: UInt8 = 11, pool: NIOThreadPool = PasswordHashingPool.shared) -> PasswordHashing {
        PasswordHashing(
            hash: { password in try await pool.runIfActive { Bcrypt.hash(password, cost: cost) } },
            verify: { password, hash in try await pool.runIfActive { Bcrypt.verify(password, hash: hash) } })
    }
}

/// The threads password hashing runs on: half the cores (at least one), for the process's life.
package enum PasswordHashingPool {
    package static let threads = max(1, System.coreCount / 2)

    package static let shared: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
        return pool
    }()
}
