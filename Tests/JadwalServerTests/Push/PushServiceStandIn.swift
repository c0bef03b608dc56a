import Foundation
import JadwalTestSupport
import Testing

/// scripts/webpush/push_service.py on loopback: a push service (HTTPS, a certificate made for
/// the test) that also makes the browser subscriptions, and checks and decrypts every message
/// Jadwal posts with PyPI's http_ece and py_vapid. Stopped at the end of `run`.
struct PushServiceStandIn: Sendable {
    struct Subscription: Codable, Sendable {
        struct Keys: Codable, Sendable { let p256dh: String; let auth: String }
        let endpoint: String
        let keys: Keys
    }

    struct Described: Decodable { let url: String; let subscriptions: [String: Subscription] }

    /// One request as the stand-in saw it.
    struct Received: Decodable, Sendable {
        struct VAPID: Decodable, Sendable {
            struct Claims: Decodable, Sendable { let aud: String; let exp: Int; let sub: String }
            let claims: Claims
            let k: String
        }
        struct Message: Decodable, Sendable {
            let id: String
            let kind: String
            let title: String
            let body: String
            let url: String
            let tag: String
            let lang: String
            let dir: String
            let urgent: Bool
        }
        let subscription: String?
        let status: Int
        let headers: [String: String?]
        let vapid: VAPID?
        let message: Message?
        let error: String?
    }

    let url: String
    let subscriptions: [String: Subscription]
    /// The CA to trust (the stand-in's own self-signed certificate), as a PEM file.
    let caFile: String
    let directory: URL

    func received() throws -> [Received] {
        let text = (try? String(contentsOf: directory.appendingPathComponent("received.jsonl"), encoding: .utf8)) ?? ""
        return try text.split(separator: "\n").map { try JSONDecoder().decode(Received.self, from: Data($0.utf8)) }
    }

    static var python: String? {
        guard let python = TestEnvironment.python else {
            if TestEnvironment.isCI { Issue.record("JADWAL_TEST_PYTHON is not set: CI must check Web Push with http_ece and py_vapid") }
            return nil
        }
        return python
    }

    static func run<T: Sendable>(python: String, subscriptions: [String], _ body: @Sendable (PushServiceStandIn) async throws -> T) async throws -> T {
        let directory = try TestEnvironment.temporaryDirectory("jadwal-push-service")
        let certificate = try APNsTestCertificate(commonName: "127.0.0.1")
        let certFile = directory.appendingPathComponent("cert.pem")
        let keyFile = directory.appendingPathComponent("key.pem")
        try Data(certificate.pem.utf8).write(to: certFile)
        try Data(certificate.keyPEM.utf8).write(to: keyFile)
        let output = directory.appendingPathComponent("stdout.txt")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [
            TestEnvironment.repositoryRoot.appendingPathComponent("scripts/webpush/push_service.py").path,
            "--cert", certFile.path, "--key", keyFile.path, "--out", directory.path, "--subscriptions", subscriptions.joined(separator: ","),
        ]
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        var described: Described?
        for _ in 0..<300 where described == nil && process.isRunning {
            try await Task.sleep(for: .milliseconds(100))
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            if let end = text.range(of: "\n}") { described = try? JSONDecoder().decode(Described.self, from: Data(text[..<end.upperBound].utf8)) }
        }
        guard let described else {
            await RemoteCalDAVServer.stop(process)
            try? handle.close()
            throw TestSetupError("the push service stand-in did not start: \((try? String(contentsOf: output, encoding: .utf8)) ?? "")")
        }
        let result: Result<T, any Error>
        do {
            result = .success(try await body(PushServiceStandIn(
                url: described.url, subscriptions: described.subscriptions, caFile: certFile.path, directory: directory)))
        } catch {
            result = .failure(error)
        }
        await RemoteCalDAVServer.stop(process)
        try? handle.close()
        return try result.get()
    }
}
