import NIOCore
import NIOPosix
import Synchronization

/// Whether PostgreSQL's address takes connections at all, asked beside the pool. A stopped
/// database with no connection in use when it stopped fails nothing that Jadwal sees: the
/// pool retries quietly and requests wait for it until the whole wait limit. A request that has
/// waited a second asks this (one asker at a time), and a refused or unanswered TCP
/// connection cuts every wait short (`SQLStore.boundedWait`).
final class PostgresReachability: Sendable {
    private let host: String
    private let port: Int
    private let asking = Mutex(false)

    init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// True when the address refuses a connection or gives no answer within a second; false
    /// when it accepts one, or when another request is asking already (nil then).
    func refuses() async -> Bool? {
        guard asking.withLock({ asking in
            defer { asking = true }
            return !asking
        }) else { return nil }
        defer { asking.withLock { $0 = false } }
        do {
            let channel = try await ClientBootstrap(group: NIOSingletons.posixEventLoopGroup)
                .connectTimeout(.seconds(1))
                .connect(host: host, port: port).get()
            try? await channel.close()
            return false
        } catch {
            return true
        }
    }
}
