import Foundation
import HTTPTypes
import HummingbirdTesting
import JadwalCore
@testable import JadwalServer
@testable import JadwalHTTP
@testable import JadwalAPI
@testable import JadwalWeb
@testable import JadwalCalDAV
@testable import JadwalMail
@testable import JadwalPush
@testable import JadwalLLM
@testable import JadwalJobs
import JadwalTestSupport
import NIOCore
import Storage
import Testing
import ZIPFoundation

/// The tracker's new doors over HTTP: the Health import (raw and as a form, refusals with their
/// line, too large), sessions marked done or skipped, to-dos in the plan, the questionnaire's
/// saved time, the goals' week; and `jadwal tracker import-health` as an operator runs it.
@Suite("Tracker, sessions and the Health import over HTTP and the CLI")
struct TrackerAPITests {
    struct Report: Decodable {
        let file: String; let nights: Int; let workouts: Int; let added: Int; let unchanged: Int; let replaced: Int; let problemCount: Int
    }
    struct Item: Decodable {
        let id: String; let kind: String; let goalId: String?; let taskId: String?; let start: Date; let end: Date; let state: String
        let outcome: String?
    }
    struct Plan: Decodable {
        struct Unplaced: Decodable { let task: String; let reason: String }
        let proposals: [Item]; let unplacedTasks: [Unplaced]
    }
    struct Marked: Decodable {
        struct Entry: Decodable { let metric: String; let value: Double; let outcome: String?; let source: String?; let planItemId: String? }
        let item: Item; let entry: Entry
    }
    struct Weeks: Decodable {
        struct Week: Decodable { let title: String; let done: Int; let target: Int; let met: Bool }
        let goals: [Week]
    }
    struct Questionnaire: Decodable { let wake: String?; let intensity: String?; let savedAt: Date? }
    struct LineError: Decodable {
        struct Body: Decodable { struct Details: Decodable { let file: String; let line: Int }; let code: String; let message: String; let details: Details? }
        let error: Body
    }

    static func decode<T: Decodable>(_ response: TestResponse, _ type: T.Type) throws -> T {
        try GoalAPITests.json(response, type)
    }

    static func zipped(_ xml: String) throws -> Data {
        let url = try HealthExportSample.write(xml, zipped: true)
        defer { try? FileManager.default.removeItem(at: url) }
        return try Data(contentsOf: url)
    }

    static func upload(_ client: some TestClientProtocol, _ data: Data, token: String, multipart: Bool = false) async throws -> TestResponse {
        if multipart {
            let boundary = "jadwal-health-8Jq2"
            var body = ByteBuffer(string: "--\(boundary)\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nfrom my phone\r\n")
            body.writeString("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"export.zip\"\r\nContent-Type: application/zip\r\n\r\n")
            body.writeBytes(data)
            body.writeString("\r\n--\(boundary)--\r\n")
            return try await client.execute(
                uri: "/api/v1/tracker/import/apple-health", method: .post,
                headers: [.contentType: "multipart/form-data; boundary=\(boundary)", .authorization: "Bearer \(token)"], body: body) { $0 }
        }
        return try await client.execute(
            uri: "/api/v1/tracker/import/apple-health", method: .post,
            headers: [.contentType: "application/zip", .authorization: "Bearer \(token)"], body: ByteBuffer(bytes: data)) { $0 }
    }

    @Test("the Health import: the zip as the body or a form's file; again adds nothing; a wrong file is a 422 naming its line; too large a 413",
          arguments: TestEnvironment.engines)
    func healthImport(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine, configure: { $0.workers = 0; $0.healthImportLimit = 64 * 1024 }) { harness, client in
            let (_, token) = try await ChatAPITests.omar(harness, client)
            let xml = HealthExportSample.export(
                nights: [("2026-09-18 23:30:00", "2026-09-19 06:30:00"), ("2026-09-19 23:00:00", "2026-09-20 06:00:00")],
                workouts: [("HKWorkoutActivityTypeRunning", "2026-09-19 06:45:00", "2026-09-19 07:15:00")])
            let zip = try Self.zipped(xml)
            let first = try await Self.upload(client, zip, token: token)
            try #require(first.status == .ok, "\(first.text)")
            let report = try Self.decode(first, Report.self)
            #expect(report.file == "apple_health_export/export.xml" && report.nights == 2 && report.workouts == 1 && report.added == 3)
            let again = try Self.decode(try await Self.upload(client, zip, token: token, multipart: true), Report.self)
            #expect(again.added == 0 && again.unchanged == 3)
            let entries = try await client.send(.get, "/api/v1/tracker/entries?from=2026-09-01T00:00:00Z", token: token).text
            #expect(entries.contains(#""source":"apple-health""#) && entries.contains(#""kind":"running""#), "\(entries)")

            // Not an export: a 422 with the file and the line where reading stopped.
            let wrong = try await Self.upload(client, try Self.zipped("<?xml version=\"1.0\"?>\n\n<kml>\n</kml>\n"), token: token)
            #expect(wrong.status == .unprocessableContent)
            let body = try Self.decode(wrong, LineError.self)
            #expect(body.error.code == "invalid_export" && body.error.details?.line == 3 && body.error.details?.file == "apple_health_export/export.xml")
            #expect(body.error.message.contains("not <HealthData>"), "\(body.error.message)")
            let notZip = try await Self.upload(client, Data("PK\u{3}\u{4}garbage".utf8), token: token)
            #expect(notZip.status == .unprocessableContent && notZip.text.contains("not a complete zip"), "\(notZip.text)")
            let cut = try await Self.upload(client, Data(xml.utf8.prefix(300)), token: token)
            #expect(cut.status == .unprocessableContent && cut.text.contains("cut short"), "\(cut.text)")
            // Larger than this server's limit (64 KiB here): refused while it streams.
            let big = try await Self.upload(client, Data(repeating: 0x20, count: 70 * 1024), token: token)
            #expect(big.status == .contentTooLarge && big.errorCode == "file_too_large", "\(big.text)")
            let noFile = try await client.execute(
                uri: "/api/v1/tracker/import/apple-health", method: .post,
                headers: [.contentType: "multipart/form-data; boundary=x", .authorization: "Bearer \(token)"],
                body: ByteBuffer(string: "--x\r\nContent-Disposition: form-data; name=\"other\"\r\n\r\nhi\r\n--x--\r\n")) { $0 }
            #expect(noFile.status == .badRequest && noFile.errorCode == "missing_file")
            // Nothing is left behind in the temporary folder.
            let left = try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path).filter { $0.hasPrefix("jadwal-upload-") }
            #expect(left.isEmpty, "\(left)")
        }
    }

    @Test("sessions: done with minutes or skipped, each a tracker entry; refusals; to-dos in the plan with kind and taskId",
          arguments: TestEnvironment.engines)
    func sessions(engine: TestEngine) async throws {
        let clock = TestClock(HealthExportSample.t0)
        try await ServerHarness.run(engine: engine, clock: clock, configure: { $0.workers = 0 }) { harness, client in
            var (_, token) = try await ChatAPITests.omar(harness, client)
            let made = try await client.send(.post, "/api/v1/goals", json: #"{"title": "Exercise", "minutes": 45, "perWeek": 3, "window": {"from": "06:00", "to": "09:00"}, "category": "exercise"}"#, token: token)
            try #require(made.status == .created, "\(made.text)")
            let task = try await client.send(.post, "/api/v1/tasks", json: #"{"title": "Report", "due": "2026-09-30T17:00", "estimateMinutes": 60}"#, token: token)
            try #require(task.status == .created, "\(task.text)")

            let plan = try Self.decode(try await client.send(.post, "/api/v1/plan/proposals", token: token), Plan.self)
            #expect(plan.proposals.contains { $0.kind == "task" && $0.taskId != nil && $0.goalId == nil }, "\(plan.proposals)")
            let session = try #require(plan.proposals.first { $0.kind == "goal" })
            let accepted = try await client.send(.post, "/api/v1/plan/proposals/\(session.id)/accept", token: token)
            #expect(accepted.status == .ok)

            let early = try await client.send(.post, "/api/v1/plan/proposals/\(session.id)/done", token: token)
            #expect(early.status == .conflict && early.errorCode == "session_not_started", "\(early.text)")
            let taskItem = try #require(plan.proposals.first { $0.kind == "task" })
            let notSession = try await client.send(.post, "/api/v1/plan/proposals/\(taskItem.id)/skipped", token: token)
            #expect(notSession.status == .conflict && notSession.errorCode == "not_a_session")

            clock.advance(by: session.start.timeIntervalSince(clock.now) + 60)
            // Days later: the morning's access token has expired, as it would have.
            token = try await client.signIn("omar@example.com", harness: harness).accessToken
            let badMinutes = try await client.send(.post, "/api/v1/plan/proposals/\(session.id)/done", json: #"{"minutes": 5000}"#, token: token)
            #expect(badMinutes.status == .badRequest && badMinutes.text.contains("minutes"))
            let malformed = try await client.send(.post, "/api/v1/plan/proposals/\(session.id)/done", json: #"{"minutes": "#, token: token)
            #expect(malformed.status == .badRequest)
            let done = try await client.send(.post, "/api/v1/plan/proposals/\(session.id)/done", json: #"{"minutes": 40}"#, token: token)
            try #require(done.status == .ok, "\(done.text)")
            let marked = try Self.decode(done, Marked.self)
            #expect(marked.entry.metric == "exercise" && marked.entry.value == 40 && marked.entry.outcome == "done" && marked.entry.source == "plan")
            #expect(marked.item.outcome == "done" && marked.entry.planItemId == session.id)
            let listed = try Self.decode(try await client.send(.get, "/api/v1/plan/proposals?state=accepted", token: token), GoalAPITests.Items.self)
            #expect(listed.items.map(\.id) == [session.id])
            let raw = try await client.send(.get, "/api/v1/plan/proposals?state=accepted", token: token).text
            #expect(raw.contains(#""outcome":"done""#))
            let weeks = try Self.decode(try await client.send(.get, "/api/v1/tracker/goals", token: token), Weeks.self)
            #expect(weeks.goals.map(\.done) == [1] && weeks.goals.map(\.target) == [3])
            let skipped = try Self.decode(try await client.send(.post, "/api/v1/plan/proposals/\(session.id)/skipped", token: token), Marked.self)
            #expect(skipped.entry.outcome == "skipped" && skipped.entry.value == 0)
            let metrics = try await client.send(.get, "/api/v1/tracker/metrics", token: token).text
            #expect(metrics.contains("exercise"), "\(metrics)")

            // The event on the phone says it: ✗ at the start of the title.
            let phone = try await client.send(.get, "/api/v1/events?start=2026-09-20&end=2026-10-10", token: token).text
            #expect(phone.contains("✗ Exercise"), "\(phone)")
        }
    }

    @Test("the questionnaire says when it was saved; {} skips it; a bad answer is a 400 naming its field", arguments: TestEnvironment.engines)
    func questionnaire(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine, configure: { $0.workers = 0 }) { harness, client in
            let (_, token) = try await ChatAPITests.omar(harness, client)
            let fresh = try Self.decode(try await client.send(.get, "/api/v1/plan/questionnaire", token: token), Questionnaire.self)
            #expect(fresh.savedAt == nil && fresh.wake == nil)
            let skipped = try await client.send(.put, "/api/v1/plan/questionnaire", json: "{}", token: token)
            #expect(skipped.status == .ok)
            #expect(try Self.decode(skipped, Questionnaire.self).savedAt != nil)
            let saved = try Self.decode(try await client.send(.put, "/api/v1/plan/questionnaire", json: #"{"wake": "06:15", "intensity": "light"}"#, token: token),
                                        Questionnaire.self)
            #expect(saved.wake == "06:15" && saved.intensity == "light" && saved.savedAt != nil)
            let bad = try await client.send(.put, "/api/v1/plan/questionnaire", json: #"{"focusTime": "dawn"}"#, token: token)
            #expect(bad.status == .badRequest && bad.text.contains("focusTime"))
        }
    }

    @Test("jadwal tracker import-health: the report, the same again adds nothing, a wrong file named with its line")
    func command() async throws {
        let dir = try TestEnvironment.temporaryDirectory("jadwal-import-health")
        let commands = ChatCommandTests()
        _ = try await commands.run(["user", "create", "huda@example.com", "--name", "Huda", "--time-zone", "Asia/Riyadh"], in: dir)
        let xml = HealthExportSample.export(nights: [("2026-09-18 23:30:00", "2026-09-19 06:30:00")],
                                             workouts: [("HKWorkoutActivityTypeYoga", "2026-09-19 18:00:00", "2026-09-19 18:30:00")])
        let zip = dir.appendingPathComponent("export.zip")
        try Self.zipped(xml).write(to: zip)
        let first = try await commands.run(["tracker", "import-health", zip.path, "--user", "huda@example.com"], in: dir)
        #expect(first.contains("1 nights of sleep") && first.contains("1 workouts") && first.contains("2 added"), "\(first)")
        let again = try await commands.run(["tracker", "import-health", zip.path, "--user", "huda@example.com"], in: dir)
        #expect(again.contains("0 added") && again.contains("2 already there"), "\(again)")

        let wrong = dir.appendingPathComponent("export.xml")
        try Data("<?xml version=\"1.0\"?>\n<HealthData>\n <Record type=\"x\" <Workout/>\n</HealthData>\n".utf8).write(to: wrong)
        let failed = try await commands.run(["tracker", "import-health", wrong.path, "--user", "huda@example.com"], in: dir, expectSuccess: false)
        #expect(failed.contains("\(wrong.path):3: '<' inside a tag"), "\(failed)")
        let nobody = try await commands.run(["tracker", "import-health", zip.path, "--user", "nobody@example.com"], in: dir, expectSuccess: false)
        #expect(nobody.contains("no account for nobody@example.com"), "\(nobody)")

        // On a terminal, a progress bar on standard error.
        let command = [ProcessTests.binary.path, "tracker", "import-health", zip.path, "--user", "huda@example.com", "--data-dir", dir.path]
            .map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let terminal = try ProcessTests.Child(URL(fileURLWithPath: "/usr/bin/script"), ["-qec", command, "/dev/null"])
        terminal.process.waitUntilExit()
        try await Task.sleep(for: .milliseconds(50))
        #expect(terminal.process.terminationStatus == 0, "\(terminal.text)")
        #expect(terminal.text.contains("reading export (KiB)") && terminal.text.contains("100%"), "\(terminal.text)")
    }
}
