import Foundation
import Logging
import ServiceLifecycle

/// How `jadwal serve --whatsapp-bridge` runs the bundled bridge (bridges/whatsapp).
public struct WhatsAppBridgeConfiguration: Sendable {
    /// The Python with bridges/whatsapp/requirements.txt installed.
    public var python = "python3"
    /// The folder holding the `jadwal_whatsapp` package.
    public var directory = "bridges/whatsapp"
    /// A recording of library events to replay instead of connecting to WhatsApp (tests, demos).
    public var replay: String?
    /// How often the bridge asks for links to serve, in seconds.
    public var pollSeconds = 1.0
    /// The first wait before restarting a bridge that died, doubled up to `maximumRestartDelay`.
    public var restartDelay: Duration = .seconds(1)
    public var maximumRestartDelay: Duration = .seconds(60)
    /// A bridge that ran this long before dying starts again from `restartDelay`.
    public var stableAfter: Duration = .seconds(60)
    /// false: the bridge's routes are served but no process is started (one run by hand while
    /// working on it, or a test acting as the bridge).
    package var startsProcess = true

    public init() {}
}

/// The address the bridge reaches this server at, known once it listens (port 0 picks one).
actor ListeningPort {
    private var port: Int?

    func set(_ port: Int) {
        self.port = port
    }

    /// Polled rather than awaited on a continuation, so cancelling the wait needs nothing more.
    func value() async throws -> Int {
        while true {
            if let port { return port }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}

/// Runs one bridge process for every linked account: started once the server listens,
/// restarted with a doubling delay if it dies, asked to stop (SIGTERM, then SIGKILL) before the
/// server stops listening (`JadwalServerInstance.run`), so the batches it is delivering land.
package struct WhatsAppBridgeSupervisor: Service {
    package let command: [String]
    package let directory: String
    package let environment: [String: String]
    package let configuration: WhatsAppBridgeConfiguration
    let port: ListeningPort
    let host: String
    let logger: Logger
    /// How many times the bridge was started, and the running one's process id.
    package let runs = Runs()

    package final class Runs: Sendable {
        private let lock = NSLock()
        nonisolated(unsafe) private var started = 0
        nonisolated(unsafe) private var pid: Int32?
        func began(_ pid: Int32) { lock.withLock { started += 1; self.pid = pid } }
        func ended() { lock.withLock { pid = nil } }
        package var count: Int { lock.withLock { started } }
        package var currentPID: Int32? { lock.withLock { pid } }
    }

    init(configuration: WhatsAppBridgeConfiguration, token: String, host: String, port: ListeningPort, logger: Logger) {
        self.configuration = configuration
        command = [configuration.python, "-m", "jadwal_whatsapp"]
        directory = configuration.directory
        var environment = ProcessInfo.processInfo.environment
        environment["JADWAL_WHATSAPP_TOKEN"] = token
        environment["PYTHONPATH"] = configuration.directory
        environment["PYTHONUNBUFFERED"] = "1"
        environment["JADWAL_WHATSAPP_POLL_SECONDS"] = String(configuration.pollSeconds)
        if let replay = configuration.replay { environment["JADWAL_WHATSAPP_REPLAY"] = replay } else { environment["JADWAL_WHATSAPP_REPLAY"] = nil }
        self.environment = environment
        self.host = host
        self.port = port
        self.logger = logger
    }

    package func run() async throws {
        guard let port = try? await cancelWhenGracefulShutdown({ try await self.port.value() }) else { return }
        var environment = environment
        environment["JADWAL_WHATSAPP_SERVER_URL"] = "http://\(host):\(port)"
        var delay = configuration.restartDelay
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            let started = ContinuousClock.now
            let status: Int32
            do {
                status = try await runOnce(environment: environment)
            } catch {
                logger.error("the WhatsApp bridge cannot start: \(error) (\(command.joined(separator: " ")) in \(directory))")
                status = -1
            }
            if Task.isCancelled || Task.isShuttingDownGracefully { return }
            if ContinuousClock.now - started >= configuration.stableAfter { delay = configuration.restartDelay }
            logger.warning("the WhatsApp bridge stopped (status \(status)); starting it again in \(delay)")
            let wait = delay
            guard (try? await cancelWhenGracefulShutdown { try await Task.sleep(for: wait) }) != nil else { return }
            delay = min(delay * 2, configuration.maximumRestartDelay)
        }
    }

    /// How long a signalled bridge has to let its deliveries land and exit before it is killed
    /// (the bridge gives up waiting on them after 8 s).
    static let stopTimeout: Duration = .seconds(10)

    /// One run of the process; its exit status. Graceful shutdown sends SIGTERM, then SIGKILL after `stopTimeout`.
    func runOnce(environment: [String: String]) async throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = environment
        let exit = ExitWaiter()
        let runs = runs
        process.terminationHandler = { process in
            runs.ended()
            exit.finish(process.terminationStatus)
        }
        try process.run()
        runs.began(process.processIdentifier)
        logger.notice("WhatsApp bridge started", metadata: ["pid": "\(process.processIdentifier)"])
        return await withGracefulShutdownHandler {
            await exit.status()
        } onGracefulShutdown: {
            process.terminate()
            let pid = process.processIdentifier
            Task {
                try? await Task.sleep(for: Self.stopTimeout)
                if process.isRunning { kill(pid, SIGKILL) }
            }
        }
    }
}

/// The exit status of a process, awaited once.
private final class ExitWaiter: Sendable {
    private let lock = NSLock()
    nonisolated(unsafe) private var result: Int32?
    nonisolated(unsafe) private var waiter: CheckedContinuation<Int32, Never>?

    func finish(_ status: Int32) {
        let continuation = lock.withLock { () -> CheckedContinuation<Int32, Never>? in
            result = status
            defer { waiter = nil }
            return waiter
        }
        continuation?.resume(returning: status)
    }

    func status() async -> Int32 {
        await withCheckedContinuation { continuation in
            let ready = lock.withLock { () -> Int32? in
                if let result { return result }
                waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
