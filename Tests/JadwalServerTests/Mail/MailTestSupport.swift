import Foundation
import Logging
import Testing

#if canImport(JadwalMail)
@testable import JadwalMail
#else
@testable import JadwalServer
import JadwalCore
@testable import JadwalHTTP
@testable import JadwalAPI
@testable import JadwalWeb
@testable import JadwalCalDAV
@testable import JadwalPush
@testable import JadwalLLM
@testable import JadwalJobs
#endif

/// A real SMTP server (scripts/smtp_test_server.py on aiosmtpd) in its own process, one per test.
// Every stored property is a constant and `received()` only reads files, so a test may use the
// server inside a harness closure.
final class SMTPTestServer: @unchecked Sendable {
    static let environment = ProcessInfo.processInfo.environment
    static let python = environment["JADWAL_TEST_PYTHON"].flatMap { $0.isEmpty ? nil : $0 }
    static let isCI = environment["CI"].map { !$0.isEmpty } ?? false
    /// Skip locally without Python; in CI run anyway, so the missing setup fails loudly.
    static let shouldRun = python != nil || isCI

    /// scripts/smtp_test_server.py, found from this file: <repo>/Tests/JadwalServerTests/Mail/<file>.
    static let scriptPath: String = {
        var url = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("scripts/smtp_test_server.py").path
    }()

    let process: Process
    let directory: URL
    let port: Int
    let certificatePath: String?

    private init(process: Process, directory: URL, port: Int, certificatePath: String?) {
        self.process = process
        self.directory = directory
        self.port = port
        self.certificatePath = certificatePath
    }

    /// Starts a server, or records why it cannot (returning nil) when Python is not configured.
    static func start(_ arguments: [String] = []) async throws -> SMTPTestServer? {
        guard let python else {
            Issue.record("JADWAL_TEST_PYTHON is not set: create the venv (python3 -m venv /var/tmp/jadwal-venv && /var/tmp/jadwal-venv/bin/pip install aiosmtpd) and export JADWAL_TEST_PYTHON=/var/tmp/jadwal-venv/bin/python")
            return nil
        }
        guard FileManager.default.fileExists(atPath: scriptPath) else {
            Issue.record("SMTP test server script not found at \(scriptPath)")
            return nil
        }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("jadwal-smtp-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let logPath = directory.appendingPathComponent("server.log").path
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [scriptPath, "--dir", directory.path, "--port", "0"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle(forWritingAtPath: logPath)
        try process.run()

        let wantsCertificate = arguments.contains("--starttls") || arguments.contains("--implicit-tls")
        let watchdog = Task {
            try await Task.sleep(for: .seconds(30))
            process.terminate()
        }
        let lines = await readLines(from: output.fileHandleForReading) { lines in
            lines.contains { $0.hasPrefix("PORT ") } && (!wantsCertificate || lines.contains { $0.hasPrefix("CERT ") })
        }
        watchdog.cancel()

        let port = lines.first { $0.hasPrefix("PORT ") }.flatMap { Int($0.dropFirst(5)) }
        let certificate = lines.first { $0.hasPrefix("CERT ") }.map { String($0.dropFirst(5)) }
        guard let port, !wantsCertificate || certificate != nil else {
            let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            if process.isRunning { process.terminate() }
            Issue.record("the SMTP test server did not start; stdout: \(lines), log:\n\(log)")
            return nil
        }
        return SMTPTestServer(process: process, directory: directory, port: port, certificatePath: certificate)
    }

    /// Reads stdout lines on a thread of its own (the read blocks) until `isComplete` or EOF.
    private static func readLines(from handle: FileHandle, until isComplete: @escaping @Sendable ([String]) -> Bool) async -> [String] {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var data = Data()
                var lines: [String] = []
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    data.append(chunk)
                    lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
                    if isComplete(lines) { break }
                }
                continuation.resume(returning: lines)
            }
        }
    }

    /// Stops the server (SIGTERM, SIGKILL after 5 s: it must never outlive the test) and removes its files.
    func stop() {
        if process.isRunning {
            process.terminate()
            let deadline = Date().addingTimeInterval(5)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
        }
        try? FileManager.default.removeItem(at: directory)
    }

    struct Envelope: Decodable {
        var mail_from: String
        var rcpt_tos: [String]
        var mail_options: [String]
        var tls: Bool
        var authenticated: Bool
        var auth_login: String?
        var auth_mechanism: String?
    }

    struct Received {
        var envelope: Envelope
        var raw: Data
        var emlPath: String
    }

    /// The messages saved so far, in order of arrival.
    func received() throws -> [Received] {
        var result: [Received] = []
        var n = 1
        while true {
            let json = directory.appendingPathComponent("\(n).json")
            let eml = directory.appendingPathComponent("\(n).eml")
            guard FileManager.default.fileExists(atPath: eml.path) else { break }
            let envelope = try JSONDecoder().decode(Envelope.self, from: Data(contentsOf: json))
            result.append(Received(envelope: envelope, raw: try Data(contentsOf: eml), emlPath: eml.path))
            n += 1
        }
        return result
    }

    func configuration(
        security: SMTPConfiguration.Security,
        username: String? = nil,
        password: String? = nil,
        trustCertificate: Bool = true
    ) -> SMTPConfiguration {
        SMTPConfiguration(
            host: "127.0.0.1",
            port: port,
            security: security,
            username: username,
            password: password,
            heloName: "jadwal.test",
            trustRootsFile: trustCertificate ? certificatePath : nil,
            timeout: .seconds(10)
        )
    }
}

/// What Python's email package (policy=default) makes of a saved message.
struct ParsedMail: Decodable {
    struct Address: Decodable, Equatable {
        var display_name: String
        var addr_spec: String
    }

    struct Part: Decodable {
        var content_type: String
        var charset: String?
        var transfer_encoding: String?
        var content: String
        var filename: String?
        /// A calendar part's `method` parameter.
        var method: String?
        /// A calendar part as Python's icalendar reads it.
        var calendar: Calendar?
    }

    struct Calendar: Decodable {
        struct Event: Decodable {
            struct Person: Decodable { var address: String; var partstat: String; var cn: String }
            var uid: String
            var summary: String
            var sequence: Int
            var status: String
            var dtstart: String?
            var organizer: String
            var attendees: [Person]
            var alarms: Int
        }
        var method: String?
        var events: [Event]?
        var error: String?
    }

    var subject: String
    var from: [Address]
    var to: [Address]
    var reply_to: [Address]?
    var content_type: String
    var defects: [String]
    var parts: [Part]

    static func parse(_ emlPath: String) throws -> ParsedMail {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: SMTPTestServer.python ?? "/usr/bin/python3")
        process.arguments = [SMTPTestServer.scriptPath, "--parse", emlPath]
        // A file, not a pipe: a pipe's write end can leak into a server process another test
        // starts at the same moment, and then reading to EOF would wait for that server.
        let outputPath = emlPath + ".parsed.json"
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        process.standardOutput = output
        try process.run()
        process.waitUntilExit()
        try output.close()
        let data = try Data(contentsOf: URL(fileURLWithPath: outputPath))
        guard process.terminationStatus == 0 else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "parsing \(emlPath) failed: \(String(decoding: data, as: UTF8.self))"])
        }
        return try JSONDecoder().decode(ParsedMail.self, from: data)
    }
}

enum MailTestText {
    /// The header block of a rendered message, folded lines kept.
    static func headerLines(_ message: String) -> [String] {
        let head = message.components(separatedBy: "\r\n\r\n").first ?? ""
        return head.components(separatedBy: "\r\n")
    }

    /// The value of a header with folding undone (CRLF before whitespace removed).
    static func header(_ name: String, in message: String) -> String? {
        let head = message.components(separatedBy: "\r\n\r\n").first ?? ""
        let unfolded = head.replacingOccurrences(of: "\r\n ", with: " ").replacingOccurrences(of: "\r\n\t", with: "\t")
        for line in unfolded.components(separatedBy: "\r\n") where line.lowercased().hasPrefix(name.lowercased() + ":") {
            return String(line.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    /// An independent quoted-printable decoder (soft breaks removed, =XX decoded), UTF-8 result.
    static func decodeQuotedPrintable(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var input = Array(text.utf8)[...]
        while let c = input.popFirst() {
            guard c == UInt8(ascii: "=") else { bytes.append(c); continue }
            if input.starts(with: [0x0D, 0x0A]) { input = input.dropFirst(2); continue }
            guard input.count >= 2, let b = UInt8(String(decoding: input.prefix(2), as: UTF8.self), radix: 16) else { return nil }
            bytes.append(b)
            input = input.dropFirst(2)
        }
        return String(bytes: bytes, encoding: .utf8)
    }

    /// An independent RFC 2047 decoder (B and Q, UTF-8): whitespace between adjacent
    /// encoded-words is dropped, other text is kept as is.
    static func decodeEncodedWords(_ value: String) -> String? {
        var result = ""
        var pendingBytes: [UInt8] = []
        var pendingSpace = ""
        var previousWasEncoded = false
        var rest = Substring(value)
        func flush() -> Bool {
            guard !pendingBytes.isEmpty else { return true }
            guard let text = String(bytes: pendingBytes, encoding: .utf8) else { return false }
            result += text
            pendingBytes = []
            return true
        }
        while !rest.isEmpty {
            if rest.hasPrefix("=?") {
                let inner = rest.dropFirst(2)
                let fields = inner.split(separator: "?", maxSplits: 3, omittingEmptySubsequences: false)
                guard fields.count == 4, fields[3].hasPrefix("="), fields[0].uppercased() == "UTF-8" else { return nil }
                let payload = String(fields[2])
                var bytes: [UInt8]
                switch fields[1].uppercased() {
                case "B":
                    guard let data = Data(base64Encoded: payload) else { return nil }
                    bytes = Array(data)
                case "Q":
                    bytes = []
                    var chars = Array(payload.utf8)[...]
                    while let c = chars.popFirst() {
                        if c == UInt8(ascii: "_") { bytes.append(0x20) }
                        else if c == UInt8(ascii: "="), chars.count >= 2,
                                let b = UInt8(String(decoding: chars.prefix(2), as: UTF8.self), radix: 16) {
                            bytes.append(b); chars = chars.dropFirst(2)
                        } else { bytes.append(c) }
                    }
                default: return nil
                }
                if !previousWasEncoded {
                    result += pendingSpace
                }
                pendingBytes += bytes
                pendingSpace = ""
                previousWasEncoded = true
                rest = fields[3].dropFirst()
            } else if let c = rest.first, c == " " || c == "\t" {
                pendingSpace.append(c)
                rest = rest.dropFirst()
            } else {
                guard flush() else { return nil }
                result += pendingSpace
                pendingSpace = ""
                previousWasEncoded = false
                result.append(rest.removeFirst())
            }
        }
        guard flush() else { return nil }
        return result + pendingSpace
    }
}
