import Conversations
import Crypto
import DAV
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

/// Chats end to end over HTTP on loopback: exports and connector messages in, events on the
/// "WhatsApp Events" calendar as CalDAV clients see them, the text gone from the database.
@Suite("Chats over HTTP")
struct ChatAPITests {
    /// The harness clock starts at 2026-09-21 17:13 in Riyadh: the chats below are from that afternoon.
    static let dinner = """
        21/09/2026, 16:00 - Sara Ahmed: Hi! My cousin Layla is visiting this week
        21/09/2026, 16:01 - Sara Ahmed: Dinner tomorrow at 8pm at Nando's?
        21/09/2026, 16:02 - Omar: Deal 👍
        """
    static let cancellation = "\n21/09/2026, 17:05 - Sara Ahmed: Sorry, I have to cancel dinner tomorrow 😞"
    static let arabic = """
        [21/09/2026, 4:00:10 PM] أبو فهد: نتعشى بكرة الساعة ٩ بالليل؟
        [21/09/2026, 4:02:45 PM] عمر: تمام
        """

    struct Import: Decodable {
        struct File: Decodable { let name: String?; let messages: Int; let participants: [String]; let me: String }
        struct Messages: Decodable { let read: Int; let new: Int; let duplicates: Int; let skipped: Int }
        struct Conversation: Decodable { let id: String; let partner: String; let state: String; let newMessages: Int; let awaitingExtraction: Bool }
        struct Event: Decodable { let conversationId: String; let uid: String; let name: String; let change: String; let start: String? }
        let file: File?
        let messages: Messages
        let conversations: [Conversation]
        let events: [Event]
    }

    struct Chats: Decodable {
        struct Chat: Decodable {
            struct Event: Decodable { let uid: String; let name: String; let status: String; let start: String? }
            struct Counts: Decodable { let stored: Int; let holdingText: Int }
            let id: String
            let partner: String
            let source: String
            let state: String
            let events: [Event]
            let awaitingExtraction: Bool
            let messages: Counts?
        }
        let chats: [Chat]
    }

    struct ChatErrorBody: Decodable {
        struct Problem: Decodable { let path: String?; let message: String }
        struct Detail: Decodable { let code: String; let message: String; let line: Int?; let participants: [String]?; let problems: [Problem]? }
        let error: Detail
    }

    /// Signs in as a CalDAV user too, named Omar, in Riyadh.
    static func omar(_ harness: ServerHarness, _ client: some TestClientProtocol, email: String = "omar@example.com") async throws -> (DAVUser, String) {
        let user = try await DAVUser.make(email, harness: harness, client: client)
        let token = try await client.signIn(email, harness: harness).accessToken
        let patched = try await client.send(.patch, "/api/v1/me", json: #"{"name": "Omar", "timeZone": "Asia/Riyadh"}"#, token: token)
        try #require(patched.status == .ok, "\(patched.text)")
        return (user, token)
    }

    static func importRaw(_ client: some TestClientProtocol, _ body: some Collection<UInt8>, token: String?, query: String = "") async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "text/plain; charset=utf-8"]
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await client.execute(uri: "/api/v1/chats/import" + query, method: .post, headers: headers, body: ByteBuffer(bytes: Array(body))) { $0 }
    }

    static func importMultipart(_ client: some TestClientProtocol, file: String, fields: [String: String], token: String, boundary: String = "jadwal-test-7MA4YWxk")
        async throws -> TestResponse {
        var body = ""
        for (name, value) in fields {
            body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n"
        }
        body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"WhatsApp Chat with أبو فهد.txt\"\r\n"
        body += "Content-Type: text/plain\r\n\r\n\(file)\r\n--\(boundary)--\r\n"
        return try await client.execute(
            uri: "/api/v1/chats/import", method: .post,
            headers: [.contentType: "multipart/form-data; boundary=\(boundary)", .authorization: "Bearer \(token)"],
            body: ByteBuffer(string: body)) { $0 }
    }

    static func chats(_ client: some TestClientProtocol, token: String) async throws -> [Chats.Chat] {
        try await client.send(.get, "/api/v1/chats", token: token).json(Chats.self).chats
    }

    static func query(_ start: String, _ end: String) -> String {
        CalDAVQueryTests.query(CalDAVQueryTests.eventsIn(start, end), props: "<d:getetag/><c:calendar-data/>")
    }

    @Test("an export where two people agree on dinner puts it on WhatsApp Events; its text goes; again adds nothing; a cancellation cancels it",
          arguments: TestEnvironment.engines)
    func exportEndToEnd(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let (user, token) = try await Self.omar(harness, client)
            let imported = try await Self.importRaw(client, Array(Self.dinner.utf8), token: token)
            try #require(imported.status == .ok, "\(imported.text)")
            let report = try imported.json(Import.self)
            #expect(report.file?.me == "Omar" && report.file?.participants == ["Sara Ahmed", "Omar"] && report.file?.messages == 3)
            #expect(report.messages.new == 3 && report.messages.duplicates == 0)
            #expect(report.conversations.map(\.state) == ["HAS_EVENT_AGREED"] && report.conversations.first?.partner == "Sara Ahmed")
            let created = try #require(report.events.first)
            #expect(report.events.count == 1 && created.change == "created" && created.start == "2026-09-22T20:00")
            let chatID = try #require(report.conversations.first?.id)

            // A phone syncing over CalDAV finds it.
            let calendar = user.calendar("whatsapp-events")
            let found = try ParsedMultistatus(try await client.dav(.report, calendar, as: user, body: Self.query("20260922T000000Z", "20260923T000000Z"), depth: "1"))
            #expect(found.hrefs == [calendar + created.name])
            // Long lines are folded (RFC 5545 §3.1): unfold before looking.
            let ics = try await client.dav(.get, calendar + created.name, as: user).text.replacingOccurrences(of: "\r\n ", with: "")
            #expect(ics.contains("SUMMARY:Dinner") && ics.contains("DTSTART;TZID=Asia/Riyadh:20260922T200000") && ics.contains("LOCATION:Nando's"))
            #expect(ics.contains("Managed by Jadwal") && ics.contains("Sara Ahmed") && ics.contains("/api/v1/chats/\(chatID)"), "\(ics)")
            // The chat said no end: a dinner lasts a meal's 90 minutes, so it is busy time (and conflicts).
            #expect(ics.contains("UID:\(created.uid)") && ics.contains("DTEND;TZID=Asia/Riyadh:20260922T213000"))

            // Settled: the words are gone from the database, the plan stays.
            let detail = try await client.send(.get, "/api/v1/chats/\(chatID)", token: token).json(Chats.Chat.self)
            #expect(detail.messages?.stored == 3 && detail.messages?.holdingText == 0 && detail.state == "HAS_EVENT_AGREED")
            #expect(detail.events.map(\.status) == ["active"] && detail.source == "export")
            try await Self.expectNoText("Layla", in: harness)

            // The same export again: nothing new, no second event.
            let again = try await Self.importRaw(client, Array(Self.dinner.utf8), token: token).json(Import.self)
            #expect(again.messages.new == 0 && again.messages.duplicates == 3 && again.events.isEmpty && again.conversations.isEmpty)
            let all = try ParsedMultistatus(try await client.dav(.report, calendar, as: user, body: CalDAVQueryTests.query(#"<c:comp-filter name="VEVENT"/>"#), depth: "1"))
            #expect(all.hrefs == [calendar + created.name])

            // A longer export of the same chat, ending in a cancellation.
            let later = try await Self.importRaw(client, Array((Self.dinner + Self.cancellation).utf8), token: token).json(Import.self)
            #expect(later.messages.new == 1 && later.messages.duplicates == 3)
            #expect(later.events.map(\.change) == ["cancelled"] && later.events.first?.uid == created.uid)
            let cancelled = try await client.dav(.get, calendar + created.name, as: user).text
            #expect(cancelled.contains("STATUS:CANCELLED") && cancelled.contains("SEQUENCE:1"))
            let chats = try await Self.chats(client, token: token)
            #expect(chats.map(\.state) == ["HAS_EVENT_DENIED"] && chats.first?.events.map(\.status) == ["cancelled"])
        }
    }

    @Test("an Arabic export as a multipart form, with `me` as a form field", arguments: TestEnvironment.engines)
    func arabicMultipart(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let (user, token) = try await Self.omar(harness, client)
            let response = try await Self.importMultipart(client, file: Self.arabic, fields: ["me": "عمر"], token: token)
            try #require(response.status == .ok, "\(response.text)")
            let report = try response.json(Import.self)
            #expect(report.file?.me == "عمر" && report.file?.name == "WhatsApp Chat with أبو فهد.txt")
            #expect(report.conversations.map(\.state) == ["HAS_EVENT_AGREED"] && report.conversations.first?.partner == "أبو فهد")
            let event = try #require(report.events.first)
            #expect(event.start == "2026-09-22T21:00")
            let ics = try await client.dav(.get, user.calendar("whatsapp-events") + event.name, as: user).text.replacingOccurrences(of: "\r\n ", with: "")
            #expect(ics.contains("DTSTART;TZID=Asia/Riyadh:20260922T210000") && ics.contains("Managed by Jadwal") && ics.contains("أبو فهد"))

            // The same file as the raw body, `me` percent-encoded in the query: known already.
            let again = try await Self.importRaw(client, Array(Self.arabic.utf8), token: token, query: "?me=%D8%B9%D9%85%D8%B1")
            try #require(again.status == .ok, "\(again.text)")
            let repeated = try again.json(Import.self)
            #expect(repeated.file?.me == "عمر" && repeated.messages.duplicates == 2 && repeated.events.isEmpty)
        }
    }

    /// A zip archive of `files` (name, bytes), as WhatsApp's "Export chat" with media makes.
    static func zip(_ files: [(String, Data)]) throws -> Data {
        let archive = try Archive(accessMode: .create)
        for (name, bytes) in files {
            try archive.addEntry(
                with: name, type: .file, uncompressedSize: Int64(bytes.count), compressionMethod: .deflate,
                provider: { position, size in bytes.subdata(in: Int(position)..<Int(position) + size) })
        }
        return try #require(archive.data)
    }

    @Test("the .zip WhatsApp makes with media imports like its .txt, and the .txt after it adds nothing", arguments: TestEnvironment.engines)
    func zipExport(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let (user, token) = try await Self.omar(harness, client)
            let archive = try Self.zip([
                ("IMG-20260921-WA0003.jpg", Data((0..<40_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })),
                ("_chat.txt", Data(Self.dinner.utf8)),
            ])
            let imported = try await Self.importRaw(client, archive, token: token)
            try #require(imported.status == .ok, "\(imported.text)")
            let report = try imported.json(Import.self)
            #expect(report.file?.me == "Omar" && report.messages.new == 3 && report.conversations.map(\.state) == ["HAS_EVENT_AGREED"])
            let event = try #require(report.events.first)
            #expect(try await client.dav(.get, user.calendar("whatsapp-events") + event.name, as: user).text.contains("DTSTART;TZID=Asia/Riyadh:20260922T200000"))

            let text = try await Self.importRaw(client, Array(Self.dinner.utf8), token: token).json(Import.self)
            #expect(text.messages.new == 0 && text.messages.duplicates == 3 && text.events.isEmpty)
        }
    }

    @Test("bad imports are clear 4xx answers and store nothing", arguments: TestEnvironment.engines)
    func badImports(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine, configure: { $0.chatImportLimit = 4096 }) { harness, client in
            let (_, token) = try await Self.omar(harness, client)
            func refused(_ response: TestResponse, _ status: HTTPResponse.Status, _ code: String) throws -> ChatErrorBody.Detail {
                try #require(response.status == status, "\(response.status): \(response.text)")
                let detail = try response.json(ChatErrorBody.self).error
                #expect(detail.code == code, "\(response.text)")
                return detail
            }

            let notExport = try refused(try await Self.importRaw(client, Array("Dear diary,\nwe agreed on dinner.".utf8), token: token), .unprocessableContent, "not_a_whatsapp_export")
            #expect(notExport.line == 1 && notExport.message.contains("Dear diary"))

            var latin1 = Array("21/09/2026, 16:00 - Sara Ahmed: hello\n21/09/2026, 16:01 - Omar: caf".utf8)
            latin1 += [0xE9, 0x0A]
            let utf8 = try refused(try await Self.importRaw(client, latin1, token: token), .unprocessableContent, "invalid_utf8")
            #expect(utf8.line == 2 && utf8.message.contains("UTF-8"))

            _ = try refused(try await Self.importRaw(client, [], token: token), .unprocessableContent, "empty_export")
            let large = Array(repeating: UInt8(ascii: "a"), count: 5000)
            let tooLarge = try refused(try await Self.importRaw(client, large, token: token), .contentTooLarge, "file_too_large")
            #expect(tooLarge.message.contains("larger than"))
            let largeForm = try await Self.importMultipart(client, file: String(repeating: "x", count: 5000), fields: [:], token: token)
            _ = try refused(largeForm, .contentTooLarge, "file_too_large")
            let cut = try refused(try await Self.importRaw(client, [0x50, 0x4B, 0x03, 0x04, 0, 0], token: token), .unprocessableContent, "incomplete_zip")
            #expect(cut.message.contains("not a complete zip"))
            let photosOnly = try Self.zip([("IMG-20260921-WA0001.jpg", Data(repeating: 0xFF, count: 300))])
            let noChat = try refused(try await Self.importRaw(client, photosOnly, token: token), .unprocessableContent, "no_chat_in_zip")
            #expect(noChat.message.contains("IMG-20260921-WA0001.jpg"))
            let diary = try Self.zip([("_chat.txt", Data("Dear diary,\nwe agreed on dinner.".utf8))])
            let notChat = try refused(try await Self.importRaw(client, diary, token: token), .unprocessableContent, "not_a_whatsapp_export")
            #expect(notChat.line == 1 && notChat.message.hasPrefix("_chat.txt"))

            // A server without the Cloud API set up has no webhook.
            let webhook = try await client.execute(uri: "/webhooks/whatsapp", method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(string: "{}")) { $0 }
            #expect(webhook.status == .notFound && webhook.errorCode == "webhook_not_configured")

            let asked = try refused(try await Self.importRaw(client, Array(Self.arabic.utf8), token: token), .conflict, "me_required")
            #expect(asked.participants == ["أبو فهد", "عمر"] && asked.message.contains("me="))
            let stranger = try refused(try await Self.importRaw(client, Array(Self.dinner.utf8), token: token, query: "?me=Layla"), .unprocessableContent, "me_not_a_participant")
            #expect(stranger.participants == ["Sara Ahmed", "Omar"])

            let noFile = try await client.execute(
                uri: "/api/v1/chats/import", method: .post,
                headers: [.contentType: "multipart/form-data; boundary=b0undary", .authorization: "Bearer \(token)"],
                body: ByteBuffer(string: "--b0undary\r\nContent-Disposition: form-data; name=\"me\"\r\n\r\nOmar\r\n--b0undary--\r\n")) { $0 }
            _ = try refused(noFile, .badRequest, "missing_file")
            let truncated = try await client.execute(
                uri: "/api/v1/chats/import", method: .post,
                headers: [.contentType: "multipart/form-data; boundary=b0undary", .authorization: "Bearer \(token)"],
                body: ByteBuffer(string: "--b0undary\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\n21/09/2026, 16:00 - Omar: hi")) { $0 }
            _ = try refused(truncated, .badRequest, "missing_file")
            let noBoundary = try await client.execute(
                uri: "/api/v1/chats/import", method: .post, headers: [.contentType: "multipart/form-data", .authorization: "Bearer \(token)"],
                body: ByteBuffer(string: "x")) { $0 }
            _ = try refused(noBoundary, .badRequest, "invalid_multipart")
            #expect(try await Self.importRaw(client, Array(Self.dinner.utf8), token: nil).status == .unauthorized)

            #expect(try await Self.chats(client, token: token).isEmpty)
            let stored = try await harness.instance.store.read { tx -> Int in
                guard let account = try await tx.account(email: try EmailAddress("omar@example.com")) else { return -1 }
                return try await tx.chatConversations(accountID: account.id).count
            }
            #expect(stored == 0)
        }
    }

    @Test("connector API: token in, batch stored once, event made; wrong tokens and bad batches store nothing", arguments: TestEnvironment.engines)
    func connector(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let (user, token) = try await Self.omar(harness, client)
            struct Created: Decodable { let id: String; let name: String; let token: String? }
            struct Listed: Decodable { let connectorTokens: [Created] }
            let made = try await client.send(.post, "/api/v1/chats/connector-tokens", json: #"{"name": "whatsapp-web.js on my laptop"}"#, token: token)
            try #require(made.status == .created, "\(made.text)")
            let connector = try made.json(Created.self)
            let secret = try #require(connector.token)
            #expect(secret.hasPrefix("jadwal_ct_"))
            let listed = try await client.send(.get, "/api/v1/chats/connector-tokens", token: token).json(Listed.self)
            #expect(listed.connectorTokens.map(\.id) == [connector.id] && listed.connectorTokens.allSatisfy { $0.token == nil })
            #expect(try await client.send(.post, "/api/v1/chats/connector-tokens", json: #"{"name": " "}"#, token: token).status == .badRequest)

            let batch = """
                {"messages": [
                  {"chatId": "966500000001@c.us", "messageId": "3EB0A1", "sender": "Sara", "fromMe": false, "timestamp": 1789999200,
                   "text": "Dinner tomorrow at 8pm at Nando's?", "isGroup": false},
                  {"chatId": "966500000001@c.us", "messageId": "3EB0A2", "sender": "Omar", "fromMe": true, "timestamp": "2026-09-21T17:01:00+03:00",
                   "text": "Deal 👍", "isGroup": false},
                  {"chatId": "966500000001@c.us", "messageId": "3EB0A3", "sender": "Sara", "fromMe": false, "timestamp": 1789999270, "text": null,
                   "isGroup": false},
                  {"chatId": "120363012345@g.us", "messageId": "G1", "sender": "Khalid", "fromMe": false, "timestamp": 1789999300, "text": "Lunch tomorrow?",
                   "isGroup": true}
                ]}
                """
            func deliver(_ body: String, with bearer: String?) async throws -> TestResponse {
                var headers: HTTPFields = [.contentType: "application/json"]
                if let bearer { headers[.authorization] = "Bearer \(bearer)" }
                return try await client.execute(uri: "/api/v1/chats/messages", method: .post, headers: headers, body: ByteBuffer(string: body)) { $0 }
            }
            func nothingStored() async throws {
                #expect(try await Self.chats(client, token: token).isEmpty)
            }

            // Refused before anything is stored.
            for (bearer, code) in [(nil, "missing_connector_token"), ("jadwal_ct_forged", "invalid_connector_token"), (token, "invalid_connector_token")] as [(String?, String)] {
                let response = try await deliver(batch, with: bearer)
                #expect(response.status == .unauthorized && response.errorCode == code, "\(response.text)")
            }
            let good = #""chatId": "c", "messageId": "m", "sender": "S", "fromMe": false, "isGroup": false, "text": "hi""#
            for (body, fragment) in [
                (#"{"messages": [{"chatId": "c", "sender": "Sara", "fromMe": false, "isGroup": false, "timestamp": 1789999200, "text": "hi"}]}"#, "messageId"),
                (#"{"messages": [{"chatId": "c", "messageId": "m", "fromMe": true, "isGroup": false, "timestamp": 1789999200, "text": "hi"}]}"#, "sender"),
                (#"{"messages": [{"chatId": "c", "messageId": "m", "sender": "S", "fromMe": false, "timestamp": 1789999200, "text": "hi"}]}"#, "isGroup"),
                (#"{"messages": [{"chatId": "c", "messageId": "m", "sender": " ", "fromMe": false, "isGroup": false, "timestamp": 1789999200}]}"#, "messages[0].sender is empty"),
                ("{\"messages\": [{\(good), \"timestamp\": \"yesterday\"}]}", "messages[0].timestamp"),
                ("{\"messages\": [{\(good), \"timestamp\": 99}]}", "messages[0].timestamp"),
                ("{\"messages\": [{\(good), \"timestamp\": 1789999200000}]}", "milliseconds"),
                (#"{"messages": "#, "the body is not JSON"),
            ] {
                let response = try await deliver(body, with: secret)
                #expect(response.status == .badRequest && response.errorCode == "invalid_batch" && response.text.contains(fragment), "\(body): \(response.text)")
            }
            // Every problem of a batch at once, each with its path.
            let twoWrong = try await deliver(#"{"messages": [{"chatId": "", "messageId": "m", "sender": "S", "fromMe": "no", "isGroup": false, "timestamp": 1789999200}]}"#, with: secret)
            let problems = try twoWrong.json(ChatErrorBody.self).error.problems ?? []
            #expect(problems.map(\.path) == ["messages[0].chatId", "messages[0].fromMe"], "\(twoWrong.text)")
            try await nothingStored()
            // A bridge's empty heartbeat is fine.
            let empty = try await deliver(#"{"messages": []}"#, with: secret)
            #expect(empty.status == .ok && empty.text.contains(#""new":0"#), "\(empty.text)")
            try await nothingStored()

            let delivered = try await deliver(batch, with: secret)
            try #require(delivered.status == .ok, "\(delivered.text)")
            struct Delivery: Decodable {
                let messages: Import.Messages
                let conversations: [Import.Conversation]
                let events: [Import.Event]
                let skippedGroupChats: Int
            }
            let report = try delivered.json(Delivery.self)
            #expect(report.messages.new == 2 && report.messages.skipped == 2 && report.skippedGroupChats == 1, "no words, and groups are off by default")
            #expect(report.conversations.map(\.state) == ["HAS_EVENT_AGREED"] && report.events.map(\.change) == ["created"])
            let event = try #require(report.events.first)
            #expect(try await client.dav(.get, user.calendar("whatsapp-events") + event.name, as: user).text.contains("DTSTART;TZID=Asia/Riyadh:20260922T200000"))

            let redelivered = try await deliver(batch, with: secret).json(Delivery.self)
            #expect(redelivered.messages.new == 0 && redelivered.messages.duplicates == 2 && redelivered.events.isEmpty)
            let lastUsed = try await client.send(.get, "/api/v1/chats/connector-tokens", token: token).text
            #expect(lastUsed.contains("lastUsedAt"))

            #expect(try await client.send(.delete, "/api/v1/chats/connector-tokens/\(connector.id)", token: token).status == .noContent)
            #expect(try await client.send(.delete, "/api/v1/chats/connector-tokens/\(connector.id)", token: token).status == .notFound)
            #expect(try await deliver(batch, with: secret).errorCode == "invalid_connector_token")
        }
    }

    @Test("settings: pause and resume extraction, groups, retention; forgetting a chat keeps its event", arguments: TestEnvironment.engines)
    func settingsAndForgetting(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let (user, token) = try await Self.omar(harness, client)
            let defaults = try await client.send(.get, "/api/v1/chats/settings", token: token)
            #expect(defaults.status == .ok && defaults.text.contains(#""retentionDays":14"#) && defaults.text.contains(#""extractionPaused":false"#))
            #expect(defaults.text.contains(#""eventMinutes":60"#), "\(defaults.text)")
            for body in [#"{"retentionDays": 0}"#, #"{"retentionDays": 400}"#, #"{"meName": "a\u0007b"}"#, #"{"eventMinutes": 0}"#, #"{"eventMinutes": 1441}"#] {
                let refused = try await client.send(.put, "/api/v1/chats/settings", json: body, token: token)
                #expect(refused.status == .badRequest && refused.errorCode == "invalid_field", "\(body): \(refused.text)")
            }
            let longer = try await client.send(.put, "/api/v1/chats/settings", json: #"{"eventMinutes": 90}"#, token: token)
            #expect(longer.status == .ok && longer.text.contains(#""eventMinutes":90"#), "\(longer.text)")
            let paused = try await client.send(.put, "/api/v1/chats/settings", json: #"{"extractionPaused": true, "retentionDays": 7}"#, token: token)
            #expect(paused.status == .ok && paused.text.contains(#""extractionPaused":true"#) && paused.text.contains(#""retentionDays":7"#))

            let waiting = try await Self.importRaw(client, Array(Self.dinner.utf8), token: token).json(Import.self)
            #expect(waiting.messages.new == 3 && waiting.events.isEmpty && waiting.conversations.map(\.awaitingExtraction) == [true])
            let chatID = try #require(waiting.conversations.first?.id)
            #expect(try await Self.chats(client, token: token).map(\.state) == ["NO_EVENT"])

            let resumed = try await client.send(.put, "/api/v1/chats/settings", json: #"{"extractionPaused": false}"#, token: token)
            #expect(resumed.status == .ok && resumed.text.contains(#""retentionDays":7"#), "a partial change keeps the rest")
            let chat = try #require(try await Self.chats(client, token: token).first)
            #expect(chat.state == "HAS_EVENT_AGREED" && !chat.awaitingExtraction && chat.events.count == 1)
            let eventName = try #require(chat.events.first?.name)

            // Another person cannot see or forget it.
            let (_, otherToken) = try await Self.omar(harness, client, email: "someone@example.com")
            #expect(try await client.send(.get, "/api/v1/chats/\(chatID)", token: otherToken).status == .notFound)
            #expect(try await client.send(.delete, "/api/v1/chats/\(chatID)", token: otherToken).status == .notFound)
            #expect(try await client.send(.get, "/api/v1/chats/not-an-id", token: token).status == .notFound)

            #expect(try await client.send(.delete, "/api/v1/chats/\(chatID)", token: token).status == .noContent)
            #expect(try await client.send(.get, "/api/v1/chats/\(chatID)", token: token).status == .notFound)
            #expect(try await Self.chats(client, token: token).isEmpty)
            #expect(try await client.dav(.get, user.calendar("whatsapp-events") + eventName, as: user).status == .ok, "the event stays")
        }
    }

    @Test("the retention sweep runs in the background and deletes text past the retention period", arguments: TestEnvironment.engines)
    func retentionSweep(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine, configure: { $0.retentionSweepInterval = .milliseconds(50) }) { harness, client in
            let (_, token) = try await Self.omar(harness, client)
            // Asked, never answered: the conversation stays open and keeps its text.
            let open = """
                21/09/2026, 16:01 - Sara Ahmed: Dinner tomorrow at 8pm at Nando's?
                21/09/2026, 16:02 - Omar: Let me check with my wife
                """
            let report = try await Self.importRaw(client, Array(open.utf8), token: token).json(Import.self)
            #expect(report.conversations.map(\.state) == ["HAS_EVENT_BUT_NOT_CONFIRMED"])
            let id = try #require(report.conversations.first.flatMap { UUID(uuidString: $0.id) })
            func holding() async throws -> Int {
                try await harness.instance.store.read { tx in try await tx.chatMessageCounts(conversationID: id) }.holdingText
            }
            try await Task.sleep(for: .milliseconds(200))
            #expect(try await holding() == 2, "younger than 14 days: kept")
            harness.clock.advance(by: 15 * 86_400)
            let deadline = ContinuousClock.now + .seconds(10)
            while try await holding() > 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            #expect(try await holding() == 0)
            #expect(try await harness.instance.store.read { tx in try await tx.chatMessageCounts(conversationID: id) }.stored == 2)
        }
    }

    @Test("the chat key: a 0600 key file by default, a clear refusal to start with another key or a malformed one", arguments: TestEnvironment.engines)
    func chatKey(engine: TestEngine) async throws {
        var configuration = try await TestEnvironment.serverConfiguration(engine: engine)
        let first = try await buildApplication(configuration, logger: TestEnvironment.logger)
        let attributes = try FileManager.default.attributesOfItem(atPath: configuration.chatKeyPath)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(FileManager.default.contents(atPath: configuration.chatKeyPath)?.count == 32)
        // An open conversation: text held under the file's key.
        let account = Account(id: UUID(), email: try EmailAddress("omar@example.com"), name: "Omar", timeZone: "Asia/Riyadh", language: .english, createdAt: Date())
        try await first.store.transaction { tx in try await tx.insertAccountWithDefaultCalendars(account, now: Date(), random: .system) }
        _ = try await first.chatInbox.receive(
            [IncomingChatMessage(chatKey: "c", externalID: "m1", sender: "Sara", fromMe: false, sentAt: Date(), text: "Coffee next week?")],
            source: .connector, accountID: account.id)
        try await first.store.shutdown()

        // The same key file: starts.
        let second = try await buildApplication(configuration, logger: TestEnvironment.logger)
        try await second.store.shutdown()

        configuration.chatKey = Data(repeating: 4, count: 32).base64EncodedString()
        do {
            let wrong = try await buildApplication(configuration, logger: TestEnvironment.logger)
            try await wrong.store.shutdown()
            Issue.record("a server with another chat key started")
        } catch {
            #expect("\(error)".contains("encrypted with chat key") && "\(error)".contains("JADWAL_CHAT_KEY"), "\(error)")
        }
        configuration.chatKey = "too short"
        do {
            let malformed = try await buildApplication(configuration, logger: TestEnvironment.logger)
            try await malformed.store.shutdown()
            Issue.record("a server with a malformed chat key started")
        } catch {
            #expect("\(error)".contains("JADWAL_CHAT_KEY must be 32 bytes"), "\(error)")
        }
    }

    /// The Cloud API fixtures, kept once beside the parser's tests.
    static func cloudAPIFixture(_ name: String) throws -> Data {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ConversationsTests/Fixtures/cloud-api/\(name).json")
        return try Data(contentsOf: url)
    }

    @Test("the WhatsApp Cloud API webhook: handshake, signed deliveries only, stored once, the owner's echoes complete the chat",
          arguments: TestEnvironment.engines)
    func cloudAPIWebhook(engine: TestEngine) async throws {
        let secret = "jadwal-test-app-secret"
        try await ServerHarness.run(engine: engine, configure: {
            $0.whatsAppAppSecret = secret
            $0.whatsAppVerifyToken = "meatyhamhock"
        }) { harness, client in
            let (user, token) = try await Self.omar(harness, client)
            let handshake = try await client.execute(
                uri: "/webhooks/whatsapp?hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=meatyhamhock", method: .get) { $0 }
            #expect(handshake.status == .ok && handshake.text == "1158201444")
            let wrongToken = try await client.execute(
                uri: "/webhooks/whatsapp?hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=guess", method: .get) { $0 }
            #expect(wrongToken.status == .forbidden && !wrongToken.text.contains("1158201444"))

            struct Receipt: Decodable { let messages: Int; let stored: Int; let duplicates: Int; let statuses: Int; let unrouted: Int }
            func post(_ body: Data, signature: String?) async throws -> TestResponse {
                var headers: HTTPFields = [.contentType: "application/json"]
                if let signature { headers[HTTPField.Name("X-Hub-Signature-256")!] = signature }
                return try await client.execute(uri: "/webhooks/whatsapp", method: .post, headers: headers, body: ByteBuffer(bytes: Array(body))) { $0 }
            }
            struct Signatures: Decodable { let signatures: [String: String] }
            let signatures = try JSONDecoder().decode(Signatures.self, from: Self.cloudAPIFixture("signatures")).signatures
            let english = try Self.cloudAPIFixture("text_message_en")
            let englishSignature = try #require(signatures["text_message_en.json"])

            // No account has claimed the number yet: taken, and dropped.
            let unclaimed = try await post(english, signature: englishSignature)
            #expect(try unclaimed.status == .ok && unclaimed.json(Receipt.self).unrouted == 1, "\(unclaimed.text)")
            #expect(try await Self.chats(client, token: token).isEmpty)

            for (body, code) in [(#"{"cloudAPIPhoneNumberID": "+1 555"}"#, "invalid_field"), (#"{"cloudAPIPhoneNumberID": "12a"}"#, "invalid_field")] {
                let refused = try await client.send(.put, "/api/v1/chats/settings", json: body, token: token)
                #expect(refused.status == .badRequest && refused.errorCode == code, "\(refused.text)")
            }
            let claimed = try await client.send(.put, "/api/v1/chats/settings", json: #"{"cloudAPIPhoneNumberID": "106540352242922"}"#, token: token)
            #expect(claimed.status == .ok && claimed.text.contains("106540352242922"), "\(claimed.text)")
            let (_, otherToken) = try await Self.omar(harness, client, email: "someone@example.com")
            let taken = try await client.send(.put, "/api/v1/chats/settings", json: #"{"cloudAPIPhoneNumberID": "106540352242922"}"#, token: otherToken)
            #expect(taken.status == .conflict && taken.errorCode == "phone_number_id_taken", "\(taken.text)")

            // Unsigned, wrongly signed, or one byte changed: 401, nothing stored.
            var tampered = english
            tampered[tampered.startIndex + 200] ^= 0x01
            for (body, signature) in [(english, nil), (english, "sha256=" + String(repeating: "0", count: 64)), (tampered, englishSignature),
                                      (english, "sha1=abc")] as [(Data, String?)] {
                let response = try await post(body, signature: signature)
                #expect(response.status == .unauthorized && response.errorCode == "invalid_signature", "\(response.text)")
            }
            #expect(try await Self.chats(client, token: token).isEmpty)

            let delivered = try await post(english, signature: englishSignature)
            try #require(delivered.status == .ok, "\(delivered.text)")
            #expect(try delivered.json(Receipt.self).stored == 1)
            let redelivered = try await post(english, signature: englishSignature).json(Receipt.self)
            #expect(redelivered.stored == 0 && redelivered.duplicates == 1, "Meta's retries are stored once")
            let status = try await post(try Self.cloudAPIFixture("status_delivered"), signature: signatures["status_delivered.json"])
            #expect(try status.status == .ok && status.json(Receipt.self).statuses == 1)
            let signer = CloudAPISignature(appSecret: secret)
            let page = Data(#"{"object":"page","entry":[]}"#.utf8)
            let wrongShape = try await post(page, signature: signer.headerValue(for: page))
            #expect(wrongShape.status == .badRequest && wrongShape.errorCode == "invalid_delivery" && wrongShape.text.contains("whatsapp_business_account"))

            var chats = try await Self.chats(client, token: token)
            #expect(chats.map(\.source) == ["cloud-api"] && chats.map(\.partner) == ["Sara Al-Harbi"] && chats.map(\.state) == ["HAS_EVENT_BUT_NOT_CONFIRMED"])

            // The owner answers from the WhatsApp Business app on the shared number: an echo.
            let echo = Data((#"{"object":"whatsapp_business_account","entry":[{"id":"1","changes":[{"field":"smb_message_echoes","value":{"#
                + #""messaging_product":"whatsapp","metadata":{"display_phone_number":"15550783881","phone_number_id":"106540352242922"},"#
                + #""message_echoes":[{"from":"15550783881","to":"966501234567","id":"wamid.E1","timestamp":"1795266100","type":"text","#
                + #""text":{"body":"Deal, see you there"}}]}}]}]}"#).utf8)
            let answered = try await post(echo, signature: signer.headerValue(for: echo))
            #expect(try answered.status == .ok && answered.json(Receipt.self).stored == 1, "\(answered.text)")
            chats = try await Self.chats(client, token: token)
            #expect(chats.map(\.state) == ["HAS_EVENT_AGREED"])
            let event = try #require(chats.first?.events.first)
            #expect(event.start == "2026-11-25T20:00")
            let ics = try await client.dav(.get, user.calendar("whatsapp-events") + event.name, as: user).text.replacingOccurrences(of: "\r\n ", with: "")
            #expect(ics.contains("SUMMARY:Dinner") && ics.contains("DTSTART;TZID=Asia/Riyadh:20261125T200000") && ics.contains("Sara Al-Harbi"), "\(ics)")
            try await Self.expectNoText("Kingdom Centre", in: harness)
        }
    }

    /// Neither the database's rows nor (on SQLite) its files hold `phrase`.
    static func expectNoText(_ phrase: String, in harness: ServerHarness) async throws {
        let held = try await harness.instance.store.read { tx in try await tx.chatMessageKeyIDs() }
        #expect(held.isEmpty, "no message holds text")
        if case .sqlite(let path) = harness.instance.store.location {
            for file in [path, path + "-wal"] {
                let bytes = FileManager.default.contents(atPath: file) ?? Data()
                #expect(bytes.range(of: Data(phrase.utf8)) == nil, "\(file) holds \(phrase)")
            }
        }
    }
}
