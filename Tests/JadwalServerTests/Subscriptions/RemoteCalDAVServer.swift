import Foundation
import JadwalTestSupport
import Testing

/// A real CalDAV server on loopback (Radicale, Xandikos, or SabreDAV with Digest), started by
/// scripts/caldav/servers.py with a fresh data directory and one user, and stopped at the end
/// of `run` (SIGTERM: servers.py stops the server's process group).
struct RemoteCalDAVServer: Sendable {
    let kind: String
    let baseURL: String
    let username: String
    let password: String
    let python: String

    var auth: String { kind == "sabredav" ? "digest" : "basic" }

    /// The servers the account tests run against; `JADWAL_TEST_REMOTE_KINDS=radicale` narrows them.
    static var kinds: [String] {
        TestEnvironment.environment["JADWAL_TEST_REMOTE_KINDS"].map { $0.split(separator: ",").map(String.init) } ?? ["radicale", "xandikos", "sabredav"]
    }

    /// The Python with the peers installed, or nil after recording why when CI must have it.
    static var python: String? {
        guard let python = TestEnvironment.python else {
            if TestEnvironment.isCI { Issue.record("JADWAL_TEST_PYTHON is not set: CI must run the CalDAV account tests against Radicale, Xandikos and SabreDAV") }
            return nil
        }
        return python
    }

    static func run<T: Sendable>(_ kind: String, python: String, _ body: @Sendable (RemoteCalDAVServer) async throws -> T) async throws -> T {
        let script = TestEnvironment.repositoryRoot.appendingPathComponent("scripts/caldav/servers.py").path
        let output = try TestEnvironment.temporaryDirectory("jadwal-remote-\(kind)").appendingPathComponent("server.json")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script, "start", kind]
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        var described: Described?
        // servers.py prints the server as JSON once it answers (it waits up to 60 s itself).
        for _ in 0..<1200 where described == nil && process.isRunning {
            try await Task.sleep(for: .milliseconds(100))
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            if let end = text.range(of: "\n}") {
                described = try? JSONDecoder().decode(Described.self, from: Data(text[..<end.upperBound].utf8))
            }
        }
        guard let described else {
            await Self.stop(process)
            try? handle.close()
            throw RemoteFailure("\(kind) did not start: \((try? String(contentsOf: output, encoding: .utf8)) ?? "")")
        }
        let result: Result<T, any Error>
        do {
            result = .success(try await body(RemoteCalDAVServer(
                kind: kind, baseURL: described.url, username: described.username, password: described.password, python: python)))
        } catch {
            result = .failure(error)
        }
        await Self.stop(process)
        try? handle.close()
        return try result.get()
    }

    /// SIGTERM (servers.py stops the server's process group), then waits for the exit without
    /// holding a thread.
    static func stop(_ process: Process) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            process.terminationHandler = { _ in continuation.resume() }
            if process.isRunning {
                process.terminate()
            } else {
                process.terminationHandler = nil
                continuation.resume()
            }
        }
    }

    struct Described: Decodable { let url: String; let username: String; let password: String }

    struct RemoteFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// scripts/caldav/remote_object.py: another client's request (Python `requests`); the ETag
    /// it printed, and for `get` the body after it.
    @discardableResult
    func client(_ action: String, _ url: String, ifMatch: String? = nil, body: String? = nil, name: String? = nil) async throws -> (etag: String, body: String) {
        let script = TestEnvironment.repositoryRoot.appendingPathComponent("scripts/caldav/remote_object.py").path
        var arguments = [script, url, "--user", username, "--password", password, "--auth", auth, action]
        if let ifMatch { arguments += ["--if-match", ifMatch] }
        if let name { arguments += ["--name", name] }
        let directory = try TestEnvironment.temporaryDirectory("jadwal-remote-client")
        let input = directory.appendingPathComponent("in.ics")
        try Data((body ?? "").utf8).write(to: input)
        let output = directory.appendingPathComponent("out.txt")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = arguments
        process.standardInput = try FileHandle(forReadingFrom: input)
        process.standardOutput = handle
        process.standardError = handle
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        try handle.close()
        let text = try String(contentsOf: output, encoding: .utf8)
        guard status == 0 else { throw RemoteFailure("remote_object.py \(action) \(url): \(text)") }
        let lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        return (String(lines.first ?? ""), lines.count > 1 ? String(lines[1]) : "")
    }

    /// A calendar to mirror: Radicale starts with none (one is made), Xandikos has `calendar`,
    /// SabreDAV `work`.
    func calendarURL() async throws -> String {
        switch kind {
        case "radicale":
            let url = baseURL + username + "/remote/"
            try await client("mkcalendar", url, name: "Remote work")
            return url
        case "xandikos": return baseURL + "user/calendars/calendar/"
        default: return baseURL + "calendars/\(username)/work/"
        }
    }
}
