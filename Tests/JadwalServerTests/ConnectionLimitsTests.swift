import Foundation
import JadwalTestSupport
import Testing

/// A plain TCP connection, to behave as a slow or silent client does.
final class RawConnection: @unchecked Sendable {
    private let descriptor: Int32

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestSetupError("socket: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw TestSetupError("connect: \(errno)") }
    }

    func send(_ text: String) {
        _ = text.utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count - 1) }
    }

    enum Read: Equatable {
        case bytes(String)
        case closed
        case nothing
    }

    /// What arrives within `timeout`: some bytes, the server closing, or nothing.
    func read(timeout: Duration) -> Read {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        guard poll(&poller, 1, milliseconds) > 0 else { return .nothing }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        return count <= 0 ? .closed : .bytes(String(decoding: buffer[0..<count], as: UTF8.self))
    }

    /// Reads until the server closes the connection or `timeout` passes; true when it closed.
    func waitForClose(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if read(timeout: .milliseconds(200)) == .closed { return true }
        }
        return false
    }

    deinit { close(descriptor) }
}

/// Slowloris and friends against the real binary: idle connections are closed, a request head
/// that never ends too, and connections beyond the limit wait. The data directory and its
/// secrets are private from their creation.
@Suite("Connection limits and private files of the jadwal process", .serialized)
struct ConnectionLimitsTests {
    @Test("silent connections and unfinished request heads are closed; past the limit a connection waits its turn; data files are 0700/0600")
    func slowClients() async throws {
        let parent = try TestEnvironment.temporaryDirectory("jadwal-limits")
        let dataDir = parent.appendingPathComponent("data/nested")
        let server = try ProcessTests.Child(ProcessTests.binary, [
            "serve", "--port", "0", "--data-dir", dataDir.path, "--workers", "0", "--idle-timeout-seconds", "3", "--max-connections", "2",
        ])
        defer { server.kill(signal: SIGTERM) }
        let port = try #require(Int(try await server.waitFor("jadwal is serving at https?://[^ /]*:(\\d+)/")))

        // Files: created private, not loosened later.
        func mode(_ path: String) throws -> Int {
            (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
        }
        #expect(try mode(dataDir.path) == 0o700)
        for file in ["secret.key", "chat.key", "jadwal.sqlite"] {
            #expect(try mode(dataDir.appendingPathComponent(file).path) == 0o600, "\(file)")
        }

        // Two silent connections fill the limit; a third, with a whole request, is not answered yet.
        // (Apart, so each is its own accept: one accept burst may take a few past the limit.)
        let silent = try RawConnection(port: port)
        try await Task.sleep(for: .milliseconds(300))
        let unfinished = try RawConnection(port: port)
        unfinished.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\n")  // the head never ends
        try await Task.sleep(for: .milliseconds(300))
        let waiting = try RawConnection(port: port)
        waiting.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        #expect(waiting.read(timeout: .milliseconds(800)) == .nothing, "over the limit: not accepted yet")

        // The server closes both after the idle timeout; then the waiting one is served.
        #expect(silent.waitForClose(timeout: .seconds(30)), "a silent connection is closed")
        #expect(unfinished.waitForClose(timeout: .seconds(30)), "an unfinished request head is closed")
        guard case .bytes(let answer) = waiting.read(timeout: .seconds(30)) else {
            Issue.record("the waiting connection was not served")
            return
        }
        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
    }
}
