import AsyncHTTPClient
import Foundation
import JadwalCore
import JadwalTestSupport
import Logging
import NIOCore
import Storage
import Testing

/// `jadwal serve --whatsapp-bridge` stopped with SIGTERM while the bridge is delivering a large
/// history sync in several batches: the bridge is signalled first and drains, the server keeps
/// listening until it has, so every batch lands. (Before, the HTTP server closed first and the
/// batches after it were lost.) The real binary, the real bridge in replay mode.
@Suite("WhatsApp bridge, stopping with the server", .serialized)
struct WhatsAppBridgeShutdownTests {
    static let chats = 24
    static let perChat = 50

    /// A link whose history sync holds `chats` chats of `perChat` messages from the last hours:
    /// the bridge posts it in batches of 500, one after another.
    static func recording(python: String, in directory: URL) throws -> String {
        let now = Int(Date().timeIntervalSince1970)
        var history: [[String: Any]] = []
        for chat in 0..<chats {
            let jid = "9665000\(String(format: "%05d", chat))@s.whatsapp.net"
            let messages: [[String: Any]] = (0..<perChat).map { index in
                ["fromMe": index % 2 == 1, "id": "H\(chat)-\(index)", "text": "note \(index) of chat \(chat)", "at": now - 7200 + chat * 60 + index]
            }
            history.append(["chat": jid, "messages": messages])
        }
        let spec: [String: Any] = [
            "code": "JDWL2026", "me": "966501234567@s.whatsapp.net", "partner": "966500000002@s.whatsapp.net", "pairAfter": 0.3,
            "history": history, "messages": [],
        ]
        let specURL = directory.appendingPathComponent("spec.json")
        try JSONSerialization.data(withJSONObject: spec).write(to: specURL)
        let out = directory.appendingPathComponent("link.jsonl")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-m", "jadwal_whatsapp.recording", specURL.path, "--out", out.path]
        process.currentDirectoryURL = URL(fileURLWithPath: WhatsAppBridgeLiveTests.bridgeDirectory)
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestSetupError("the recorder failed (status \(process.terminationStatus))") }
        return out.path
    }

    /// A GET, or a POST of `json`.
    static func call(_ url: String, token: String, json: String? = nil) async throws -> (status: Int, body: String) {
        var request = HTTPClientRequest(url: url)
        if json != nil { request.method = .POST }
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: json))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        return (Int(response.status.code), String(buffer: try await response.body.collect(upTo: 1 << 22)))
    }

    @Test("SIGTERM while a history sync is being delivered: every batch lands before the server stops listening",
          .enabled(if: WhatsAppBridgeLiveTests.shouldRun))
    func drainsBeforeClosing() async throws {
        guard let python = WhatsAppBridgeLiveTests.python else {
            Issue.record("JADWAL_TEST_WHATSAPP_PYTHON is not set: scripts/test.sh makes the venv (pip install -r bridges/whatsapp/requirements.txt)")
            return
        }
        let directory = try TestEnvironment.temporaryDirectory("jadwal-wa-stop")
        let replay = try Self.recording(python: python, in: directory)
        let dataDir = directory.appendingPathComponent("data")
        let child = try ProcessTests.Child(
            ProcessTests.binary, ["serve", "--port", "0", "--data-dir", dataDir.path, "--workers", "1", "--whatsapp-bridge"],
            environment: [
                "JADWAL_WHATSAPP_PYTHON": python, "JADWAL_WHATSAPP_BRIDGE_DIR": WhatsAppBridgeLiveTests.bridgeDirectory,
                "JADWAL_WHATSAPP_REPLAY": replay,
            ])
        let port = try await child.waitFor("jadwal is serving at https?://[^ /]*:(\\d+)/")
        let base = "http://127.0.0.1:\(port)"
        let token = try await ProcessTests.signIn(port: port, email: "omar@example.com", log: child, client: HTTPClient.shared)
        let asked = try await Self.call(base + "/api/v1/whatsapp/link", token: token, json: #"{"phone": "+966501234567"}"#)
        #expect(asked.status == 201, "\(asked.body)")

        // Stop as soon as the first batch has landed: the others are still on their way.
        let deadline = ContinuousClock.now + .seconds(60)
        var seen = 0
        while ContinuousClock.now < deadline {
            let chats = try await Self.call(base + "/api/v1/chats", token: token)
            seen = chats.body.components(separatedBy: "\"partner\"").count - 1
            if seen > 0 { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        try #require(seen > 0, "no batch arrived:\n\(child.text)")
        let took = try await ProcessTests.stop(child)
        #expect(!child.process.isRunning && child.process.terminationStatus == 0, "\(child.text)")
        #expect(took < .seconds(15), "the bridge drains within its time: \(took)")

        // Everything the bridge had taken in is stored.
        let store = try SQLStore(location: .sqlite(path: dataDir.appendingPathComponent("jadwal.sqlite").path), logger: Logger(label: "test"))
        let stored = try await store.read { tx -> (chats: Int, messages: Int) in
            guard let account = try await tx.account(email: try EmailAddress("omar@example.com")) else { return (0, 0) }
            var messages = 0
            let conversations = try await tx.chatConversations(accountID: account.id)
            for conversation in conversations { messages += try await tx.chatMessageCounts(conversationID: conversation.id).stored }
            return (conversations.count, messages)
        }
        try await store.shutdown()
        #expect(seen < Self.chats, "stopped while batches were still on their way (\(seen) chats when stopped)")
        #expect(stored.chats == Self.chats && stored.messages == Self.chats * Self.perChat, "\(stored)\n\(child.text.suffix(3000))")
    }
}
