import HummingbirdBcrypt
import JadwalCore
import NIOPosix

extension PasswordHashing {
    /// bcrypt at `cost`, on NIO's thread pool: it is deliberately slow, so it never runs on the
    /// async executors.
    package static func bcrypt(cost: UInt8 = 11) -> PasswordHashing {
        PasswordHashing(
            hash: { password in try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) } },
            verify: { password, hash in try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) } })
    }
}
