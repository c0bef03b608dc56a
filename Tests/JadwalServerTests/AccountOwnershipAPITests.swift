import Foundation
import HTTPTypes
import HummingbirdTesting
import JadwalCore
@testable import JadwalMail
@testable import JadwalServer
import JadwalTestSupport
import NIOCore
import Testing
import ZIPFoundation

/// Owning one's account over HTTP: the first-run state, a new address confirmed by a link that a
/// real SMTP server received, the export as a zip, deletion, and the refusals of bad input.
@Suite("Owning one's account over the API", .serialized)
struct AccountOwnershipAPITests {
    struct Accepted: Decodable { let message: String }
    struct Me: Decodable { let id: String; let email: String }
    struct FirstRunBody: Decodable {
        struct Proposal: Decodable {
            struct Place: Decodable { let city: String; let cityArabic: String; let countryCode: String }
            let timeZone: String
            let place: Place?
            let method: String?
        }
        let state: String
        let finishedAt: String?
        let proposal: Proposal
    }

    /// The link of the newest message to `address` the SMTP server received, read back by
    /// Python's email package.
    /// The last email to `address` (with `subject`, when given: the welcome email a sign-up
    /// queues may be delivered in the same run of jobs).
    static func link(_ smtp: SMTPTestServer, to address: String, path: String, subject: String? = nil) throws -> (subject: String, token: String?, text: String) {
        let mails = try smtp.received().filter { $0.envelope.rcpt_tos.contains(address) }.map { try ParsedMail.parse($0.emlPath) }
        let parsed = try #require(mails.last { subject == nil || $0.subject == subject }, "no email to \(address)")
        let text = try #require(parsed.parts.first { $0.content_type == "text/plain" }?.content)
        let token = text.range(of: path + "?token=").map { String(text[$0.upperBound...].prefix { !$0.isWhitespace }) }
        return (parsed.subject, token, text)
    }

    @Test("the first run: pending, a proposal from a zone, finished or skipped; bad input is a 400", arguments: TestEnvironment.engines)
    func firstRun(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let token = try await client.signIn("sara@example.com", harness: harness).accessToken
            let pending = try await client.send(.get, "/api/v1/first-run?timeZone=Asia/Riyadh", token: token)
            let body = try pending.json(FirstRunBody.self)
            #expect(body.state == "pending" && body.proposal.place?.city == "Riyadh" && body.proposal.place?.cityArabic == "الرياض"
                    && body.proposal.method == "UmmAlQura", "\(pending.text)")
            #expect(try await client.send(.get, "/api/v1/first-run?timeZone=UTC", token: token).json(FirstRunBody.self).proposal.place == nil)
            let badZone = try await client.send(.get, "/api/v1/first-run?timeZone=Mars/Olympus", token: token)
            #expect(badZone.status == .badRequest && badZone.errorCode == "invalid_field" && badZone.text.contains("IANA"))
            let badState = try await client.send(.put, "/api/v1/first-run", json: #"{"state": "done"}"#, token: token)
            #expect(badState.status == .badRequest && badState.text.contains("completed or skipped"))
            #expect(try await client.send(.put, "/api/v1/first-run", json: #"{"stat": 1}"#, token: token).status == .badRequest)
            let skipped = try await client.send(.put, "/api/v1/first-run", json: #"{"state": "skipped"}"#, token: token)
            #expect(try skipped.status == .ok && skipped.json(FirstRunBody.self).state == "skipped")
            #expect(try await client.send(.get, "/api/v1/first-run", token: token).json(FirstRunBody.self).finishedAt != nil)
            #expect(try await client.send(.get, "/api/v1/first-run").status == .unauthorized)
        }
    }

    @Test("a new address: a link to it through a real SMTP server, the change when it is used, the old address told; refusals")
    func changeAddress() async throws {
        guard let server = try await SMTPTestServer.start() else { return }
        defer { server.stop() }
        // Only read from the test's task, after the sends it waits for.
        nonisolated(unsafe) let smtp = server
        let transport = SMTPClient(configuration: smtp.configuration(security: .none), logger: TestEnvironment.logger)
        try await ServerHarness.run(configure: { $0.workers = 0 }, alsoSendingTo: transport) { harness, client in
            let token = try await client.signIn("sara@example.com", harness: harness).accessToken
            _ = try await client.signIn("omar@example.com", harness: harness)

            for (body, code) in [(#"{"email": "not an address"}"#, "invalid_field"), (#"{"email": "SARA@example.com"}"#, "same_address"), (#"{}"#, "missing_field")] {
                let refused = try await client.send(.post, "/api/v1/me/email", json: body, token: token)
                #expect(refused.status == .badRequest && refused.errorCode == code, "\(body): \(refused.text)")
            }
            // Taken and free get the same answer.
            let taken = try await client.send(.post, "/api/v1/me/email", json: #"{"email": "omar@example.com"}"#, token: token)
            let free = try await client.send(.post, "/api/v1/me/email", json: #"{"email": "sara.new@example.com"}"#, token: token)
            #expect(taken.status == .accepted && free.status == .accepted)
            let (takenText, freeText) = (try taken.json(Accepted.self).message, try free.json(Accepted.self).message)
            #expect(takenText.replacingOccurrences(of: "omar@example.com", with: "X") == freeText.replacingOccurrences(of: "sara.new@example.com", with: "X"))
            try await ConflictAPITests.runJobs(harness)

            let note = try Self.link(smtp, to: "omar@example.com", path: "/account/email", subject: "Your Jadwal address was not changed")
            #expect(note.token == nil)
            let confirm = try Self.link(smtp, to: "sara.new@example.com", path: "/account/email")
            #expect(confirm.subject == "Confirm your new Jadwal sign-in address")
            let link = try #require(confirm.token)
            #expect(try await client.send(.get, "/api/v1/me", token: token).json(Me.self).email == "sara@example.com", "not before the link is used")

            let wrong = try await client.send(.post, "/api/v1/account/email/confirm", json: #"{"token": "made-up"}"#)
            #expect(wrong.status == .badRequest && wrong.errorCode == "invalid_link")
            let done = try await client.send(.post, "/api/v1/account/email/confirm", json: #"{"token": "\#(link)"}"#)
            #expect(try done.status == .ok && done.json(Me.self).email == "sara.new@example.com", "\(done.text)")
            let again = try await client.send(.post, "/api/v1/account/email/confirm", json: #"{"token": "\#(link)"}"#)
            #expect(again.status == .conflict && again.errorCode == "link_used")
            #expect(try await client.send(.get, "/api/v1/me", token: token).json(Me.self).email == "sara.new@example.com", "the session stays")
            try await ConflictAPITests.runJobs(harness)
            let notice = try Self.link(smtp, to: "sara@example.com", path: "/account/email")
            #expect(notice.subject == "Your Jadwal sign-in address was changed" && notice.text.contains("sara.new@example.com"))

            // Signing in goes by the new address now.
            let signedIn = try await client.signIn("sara.new@example.com", harness: harness)
            #expect(signedIn.account.email == "sara.new@example.com")
        }
    }

    @Test("the export: a zip of one .ics per calendar and JSON for the rest", arguments: TestEnvironment.engines)
    func export(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let token = try await client.signIn("sara@example.com", harness: harness).accessToken
            let created = try await client.send(.post, "/api/v1/tasks", json: #"{"title": "Buy dates", "due": "2026-10-02"}"#, token: token)
            #expect(created.status == .created, "\(created.text)")
            #expect(try await client.send(.get, "/api/v1/account/export").status == .unauthorized)
            let response = try await client.send(.get, "/api/v1/account/export", token: token)
            #expect(response.status == .ok && response.headers[.contentType] == "application/zip")
            #expect(response.headers[.contentDisposition]?.contains("jadwal-export-") == true)
            let archive = try Archive(data: Data(buffer: response.body), accessMode: .read)
            var files: [String: String] = [:]
            for entry in archive {
                var data = Data()
                _ = try archive.extract(entry) { data.append($0) }
                files[entry.path] = String(decoding: data, as: UTF8.self)
            }
            #expect(Set(files.keys).isSuperset(of: ["calendars/personal.ics", "calendars/tasks.ics", "account.json", "settings.json", "tasks.json",
                                                    "routines.json", "goals.json", "conversations.json", "notifications.json"]), "\(files.keys.sorted())")
            #expect(files["calendars/tasks.ics"]?.contains("SUMMARY:Buy dates") == true && files["tasks.json"]?.contains("Buy dates") == true)
        }
    }

    @Test("deleting: refused without the typed address, or with another; by a link emailed to the account; then nothing answers",
          arguments: TestEnvironment.engines)
    func delete(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine, configure: { $0.workers = 0 }) { harness, client in
            let session = try await client.signIn("sara@example.com", harness: harness)
            let token = session.accessToken
            let none = try await client.send(.delete, "/api/v1/me", token: token)
            #expect(none.status == .badRequest && none.errorCode == "confirmation_required" && none.text.contains("confirmEmail"))
            let wrong = try await client.send(.delete, "/api/v1/me", json: #"{"confirmEmail": "omar@example.com"}"#, token: token)
            #expect(wrong.status == .badRequest && wrong.errorCode == "email_mismatch")
            let notJSON = try await client.send(.delete, "/api/v1/me", token: token, headers: [.contentType: "text/plain"])
            #expect(notJSON.status == .badRequest)
            let bogus = try await client.send(.delete, "/api/v1/me", json: #"{"token": "made-up"}"#, token: token)
            #expect(bogus.status == .badRequest && bogus.errorCode == "invalid_link")

            let asked = try await client.send(.post, "/api/v1/me/deletion-link", token: token)
            #expect(asked.status == .accepted)
            try await ConflictAPITests.runJobs(harness)
            let mail = try await harness.outbox.waitForMessage(to: "sara@example.com") { $0.subject == "Confirm deleting your Jadwal account" }
            let link = try #require(mail.textBody.range(of: "/account/delete?token=").map { String(mail.textBody[$0.upperBound...].prefix { !$0.isWhitespace }) })
            let deleted = try await client.send(.delete, "/api/v1/me", json: #"{"token": "\#(link)"}"#, token: token)
            #expect(deleted.status == .ok && deleted.text.contains("sara@example.com"), "\(deleted.text)")
            #expect(try await client.send(.get, "/api/v1/me", token: token).status == .unauthorized)
            let refreshed = try await client.send(.post, "/api/v1/auth/refresh", json: #"{"refreshToken": "\#(session.refreshToken)"}"#)
            #expect(refreshed.status == .unauthorized)
            try await ConflictAPITests.runJobs(harness)
            let last = try await harness.outbox.waitForMessage(to: "sara@example.com") { $0.subject == "Your Jadwal account was deleted" }
            #expect(last.textBody.contains("This is the last email"))
            let queued = try await harness.instance.store.read { tx in try await tx.jobs(state: nil, limit: 100) }
            #expect(!queued.contains { $0.payload.contains("sara@example.com") }, "no job keeps the address readable")
        }
    }

    @Test("typed out: DELETE /api/v1/me with the address deletes the account and its calendars", arguments: TestEnvironment.engines)
    func deleteTyped(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let token = try await client.signIn("sara@example.com", harness: harness).accessToken
            let me = try await client.send(.get, "/api/v1/me", token: token).json(Me.self)
            let deleted = try await client.send(.delete, "/api/v1/me", json: #"{"confirmEmail": " Sara@Example.com "}"#, token: token)
            #expect(deleted.status == .ok, "\(deleted.text)")
            let id = try #require(UUID(uuidString: me.id))
            #expect(try await harness.instance.store.read { tx in try await tx.calendars(accountID: id) }.isEmpty)
            #expect(try await client.send(.get, "/api/v1/calendars", token: token).status == .unauthorized)
        }
    }
}
