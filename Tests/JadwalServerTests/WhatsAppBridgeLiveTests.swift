import Foundation
import HTTPTypes
import HummingbirdTesting
import JadwalCore
@testable import JadwalServer
import JadwalTestSupport
import Testing

/// The bundled bridge as `jadwal serve --whatsapp-bridge` runs it: the server starts the real
/// Python process, which replays a recording of neonize's own events (built with its protobuf
/// classes) in place of WhatsApp's servers, which nothing here can reach. The conversation goes
/// through the connector path to an event on the calendar; the supervisor restarts the killed
/// bridge, which reconnects from the sealed session; the server's shutdown stops it.
@Suite("WhatsApp bridge, live")
struct WhatsAppBridgeLiveTests {
    /// The Python with bridges/whatsapp/requirements.txt, exported by the test command.
    static let python = TestEnvironment.environment["JADWAL_TEST_WHATSAPP_PYTHON"].flatMap { $0.isEmpty ? nil : $0 }
    static let shouldRun = python != nil || TestEnvironment.isCI
    static let bridgeDirectory = TestEnvironment.repositoryRoot.appendingPathComponent("bridges/whatsapp").path
    static let t0 = Date(timeIntervalSince1970: 1_790_000_000)

    struct ChatsJSON: Decodable {
        struct Chat: Decodable {
            struct Event: Decodable { let title: String?; let start: String? }
            let partner: String
            let state: String
            let events: [Event]
        }
        let chats: [Chat]
    }

    struct LinkJSON: Decodable {
        let state: String
        let code: String?
        let reason: String?
    }

    /// Writes the recording with the bridge's own recorder.
    static func recording(python: String, in directory: URL) throws -> String {
        let spec = directory.appendingPathComponent("spec.json")
        let out = directory.appendingPathComponent("link.jsonl")
        let messages = [
            #"{"fromMe": false, "text": "Dinner tomorrow at 8pm?", "at": \#(Int(t0.timeIntervalSince1970) - 120)}"#,
            #"{"fromMe": true, "text": "Deal 👍", "at": \#(Int(t0.timeIntervalSince1970) - 60)}"#,
        ]
        try Data("""
            {"code": "JDWL2026", "me": "966501234567@s.whatsapp.net", "partner": "966500000002@s.whatsapp.net", "pairAfter": 0.3,
             "messages": [\(messages.joined(separator: ","))]}
            """.utf8).write(to: spec)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-m", "jadwal_whatsapp.recording", spec.path, "--out", out.path]
        process.currentDirectoryURL = URL(fileURLWithPath: bridgeDirectory)
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestSetupError("the recorder failed (status \(process.terminationStatus))") }
        return out.path
    }

    static func poll<T: Sendable>(_ what: String, seconds: Double = 30, _ check: () async throws -> T?) async throws -> T {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let value = try await check() { return value }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw TestSetupError("timed out waiting for \(what)")
    }

    @Test("pairing code, replayed conversation to a calendar event, crash and restart, shutdown", .enabled(if: shouldRun))
    func live() async throws {
        guard let python = Self.python else {
            Issue.record("JADWAL_TEST_WHATSAPP_PYTHON is not set: scripts/test.sh makes the venv (pip install -r bridges/whatsapp/requirements.txt)")
            return
        }
        let directory = try TestEnvironment.temporaryDirectory("jadwal-wa")
        let replay = try Self.recording(python: python, in: directory)
        let pid: Int32 = try await ServerHarness.run(clock: TestClock(Self.t0), configure: { configuration in
            var bridge = WhatsAppBridgeConfiguration()
            bridge.python = python
            bridge.directory = Self.bridgeDirectory
            bridge.replay = replay
            bridge.pollSeconds = 0.2
            bridge.restartDelay = .milliseconds(200)
            configuration.whatsAppBridge = bridge
        }) { harness, client in
            let supervisor = try #require(harness.instance.whatsAppBridge)
            let token = try await client.signIn("omar@example.com", harness: harness).accessToken

            let asked = try await client.send(.post, "/api/v1/whatsapp/link", json: #"{"phone": "+966501234567"}"#, token: token)
            #expect(asked.status == .created, "\(asked.text)")
            #expect(try asked.json(LinkJSON.self).code == "JDWL-2026", "the code PairPhone returned, as WhatsApp shows it")

            _ = try await Self.poll("the link") {
                let link = try await client.send(.get, "/api/v1/whatsapp/link", token: token).json(LinkJSON.self)
                return link.state == "linked" ? link : nil
            }
            let chat = try await Self.poll("the agreed event") {
                let chats = try await client.send(.get, "/api/v1/chats", token: token).json(ChatsJSON.self)
                return chats.chats.first { !$0.events.isEmpty }
            }
            #expect(chat.partner == "966500000002@s.whatsapp.net" && chat.events.first?.title?.lowercased().contains("dinner") == true, "\(chat)")

            // The session the bridge handed back is sealed in the database and opens to its SQLite file.
            let stored = try await harness.instance.store.read { tx in try await tx.whatsAppLinks(in: [.linked]) }
            let sealed = try #require(stored.first?.session)
            #expect(sealed.ciphertext.range(of: Data("SQLite format 3".utf8)) == nil)

            // Killed, the bridge comes back, and reconnects from the sealed session without a new code.
            let first = try #require(supervisor.runs.currentPID)
            kill(first, SIGKILL)
            let second = try await Self.poll("the restarted bridge") { () -> Int32? in
                guard supervisor.runs.count >= 2, let pid = supervisor.runs.currentPID, pid != first else { return nil }
                return pid
            }
            try await Task.sleep(for: .seconds(1))
            let link = try await client.send(.get, "/api/v1/whatsapp/link", token: token).json(LinkJSON.self)
            #expect(link.state == "linked", "\(link)")
            let chats = try await client.send(.get, "/api/v1/chats", token: token).json(ChatsJSON.self)
            #expect(chats.chats.count == 1 && chats.chats[0].events.count == 1, "messages replayed after the reconnect are stored once: \(chats)")
            return second
        }
        // The server stopped: so did its bridge.
        _ = try await Self.poll("the bridge to stop with the server", seconds: 10) { kill(pid, 0) != 0 ? true : nil }
    }
}
