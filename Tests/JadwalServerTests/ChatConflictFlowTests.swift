import Conversations
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
import Testing

/// The story Jadwal is for, from every source a chat comes in by: two people agree on dinner
/// without saying when it ends, the person already has a family visit that evening, and Jadwal
/// puts the dinner on the calendar, finds the clash, tells the person, and keeps, moves or
/// cancels it as they choose; their phone sees each answer on its next sync.
@Suite("Chat plans with no stated end meet the conflict check, from every source")
struct ChatConflictFlowTests {
    enum Source: String, Sendable, CaseIterable { case export, connector, webhook }

    struct Chat: Sendable {
        let partner: String
        let phone: String
        let proposal: String
        let answer: String
        /// The day of September 2026 the dinner is on.
        let day: Int
    }

    /// Said on Monday 21 September 2026 at 16:00 and 16:02 in Riyadh (the harness clock is 17:13).
    static func chats(arabic: Bool) -> [Chat] {
        arabic
            ? [Chat(partner: "أبو فهد", phone: "966500000001", proposal: "نتعشى بكرة الساعة ٨ بالليل؟", answer: "تمام", day: 22),
               Chat(partner: "سارة", phone: "966500000002", proposal: "نتعشى يوم الأربعاء الساعة ٨ بالليل؟", answer: "اتفقنا", day: 23),
               Chat(partner: "خالد", phone: "966500000003", proposal: "نتعشى يوم الخميس الساعة ٨ بالليل؟", answer: "تمام", day: 24)]
            : [Chat(partner: "Sara", phone: "966500000001", proposal: "Dinner tomorrow at 8pm?", answer: "Deal 👍", day: 22),
               Chat(partner: "Layla", phone: "966500000002", proposal: "Dinner on Wednesday at 8pm?", answer: "Sure, see you then", day: 23),
               Chat(partner: "Khalid", phone: "966500000003", proposal: "Dinner Thursday at 8pm?", answer: "ok 👍", day: 24)]
    }

    static let proposedAt = 1_789_995_600  // 2026-09-21 16:00 Riyadh
    static let answeredAt = 1_789_995_720  // 16:02
    static let appSecret = "jadwal-test-app-secret"
    static let phoneNumberID = "106540352242922"

    struct ConnectorToken: Decodable { let token: String? }

    static let cases: [(Source, Bool)] = Source.allCases.flatMap { source in [(source, false), (source, true)] }

    @Test("a dinner agreed with no end clashes with a family visit; keep, move and cancel reach the phone", arguments: TestEnvironment.engines, Self.cases)
    func agreedPlanMeetsConflictCheck(engine: TestEngine, flow: (Source, Bool)) async throws {
        let (source, arabic) = flow
        try await ServerHarness.run(engine: engine, configure: {
            $0.workers = 0
            $0.whatsAppAppSecret = Self.appSecret
            $0.whatsAppVerifyToken = "verify"
        }) { harness, client in
            let (user, token) = try await ChatAPITests.omar(harness, client)
            if arabic {
                #expect(try await client.send(.patch, "/api/v1/me", json: #"{"language": "ar"}"#, token: token).status == .ok)
            }
            let personal = user.calendar("personal")
            for day in 22...24 {
                let visit = ICS.event(uid: "visit-\(day)", summary: "Family visit", start: "202609\(day)T193000", duration: "PT2H")
                #expect(try await client.putICS(personal + "visit-\(day).ics", as: user, visit).status == .created)
            }
            try await ConflictAPITests.runJobs(harness)
            #expect(try await ConflictAPITests.conflicts(client, token: token).isEmpty)
            // The chats arrive a minute later: the dinners are the newer events, whose checks
            // raise the clashes (the clock does not move by itself here).
            harness.clock.advance(by: 60)

            let chats = Self.chats(arabic: arabic)
            try await Self.deliver(chats, by: source, client: client, token: token)
            try await ConflictAPITests.runJobs(harness)

            // Each dinner is on the calendar with an end, so it clashes with the visit that evening.
            let calendar = user.calendar("whatsapp-events")
            let listed = try await ChatAPITests.chats(client, token: token)
            #expect(listed.count == 3 && listed.allSatisfy { $0.state == "HAS_EVENT_AGREED" && $0.events.count == 1 }, "\(listed)")
            var names: [Int: String] = [:]
            for chat in listed {
                let event = try #require(chat.events.first)
                let day = try #require(Int(event.start?.dropFirst(8).prefix(2) ?? ""))
                #expect(event.start == "2026-09-\(day)T20:00")
                names[day] = event.name
                let ics = try await client.dav(.get, calendar + event.name, as: user).text
                #expect(ics.contains("DTSTART;TZID=Asia/Riyadh:202609\(day)T200000") && ics.contains("DTEND;TZID=Asia/Riyadh:202609\(day)T2"), "\(ics)")
            }
            #expect(names.keys.sorted() == [22, 23, 24])
            let conflicts = try await ConflictAPITests.conflicts(client, token: token)
            #expect(conflicts.count == 3, "\(conflicts)")
            #expect(conflicts.allSatisfy { $0.source == "chat" && $0.notify && $0.overlaps.map(\.title) == ["Family visit"] })
            #expect(conflicts.allSatisfy { ($0.overlaps.first?.overlapMinutes ?? 0) >= 60 })
            let told = try await NotificationAPITests.feed(client, token: token).notifications.filter { $0.kind == "conflict" }
            #expect(told.count == 3, "the person is told of each clash: \(told.map(\.title))")

            // What a phone has seen so far.
            let seen = try ParsedMultistatus(try await client.dav(.report, calendar, as: user, body: CalDAVSyncTests.sync(nil)))
            #expect(Set(seen.hrefs) == Set(names.values.map { calendar + $0 }))
            let syncToken = try #require(seen.syncToken)

            func conflict(on day: Int) throws -> ConflictAPITests.Conflicts.Conflict {
                try #require(conflicts.first { $0.event.name == names[day] })
            }
            let kept = try await ConflictAPITests.resolve(client, try conflict(on: 22).id, #"{"action": "keep"}"#, token: token)
            #expect(kept.status == .ok, "\(kept.text)")
            let toMove = try conflict(on: 23)
            let suggestions = try await client.send(.get, "/api/v1/conflicts/\(toMove.id)/suggestions?count=1", token: token)
            let slot = try #require(try suggestions.json(ConflictAPITests.Suggestions.self).suggestions.first, "\(suggestions.text)")
            let moved = try await ConflictAPITests.resolve(
                client, toMove.id, #"{"action": "move", "start": "\#(slot.start)", "end": "\#(slot.end)"}"#, token: token)
            #expect(moved.status == .ok, "\(moved.text)")
            let cancelled = try await ConflictAPITests.resolve(client, try conflict(on: 24).id, #"{"action": "cancel"}"#, token: token)
            #expect(cancelled.status == .ok, "\(cancelled.text)")
            try await ConflictAPITests.runJobs(harness)

            // The phone's next sync: the moved dinner with its new time, the cancelled one gone,
            // the kept one unchanged (not reported).
            let next = try ParsedMultistatus(try await client.dav(
                .report, calendar, as: user, body: CalDAVSyncTests.sync(syncToken, props: "<d:getetag/><c:calendar-data/>")))
            let movedHref = calendar + (names[23] ?? "")
            let cancelledHref = calendar + (names[24] ?? "")
            #expect(Set(next.hrefs) == [movedHref, cancelledHref], "\(next.hrefs)")
            #expect(next[cancelledHref]?.status == 404)
            let movedData = try #require(next[movedHref]?.text(.calendarData))
            #expect(!movedData.contains("DTSTART;TZID=Asia/Riyadh:20260923T200000") && movedData.contains("SEQUENCE:1"), "\(movedData)")
            #expect(try await ConflictAPITests.conflicts(client, token: token).isEmpty, "the moved dinner clashes with nothing; the kept one is kept")
            let all = try await ConflictAPITests.conflicts(client, token: token, all: true)
            #expect(Set(all.map(\.status)) == ["kept", "moved", "cancelled"], "\(all.map(\.status))")
        }
    }

    /// Sends the three chats the way `source` delivers them: one export file per chat, one
    /// connector batch, or Cloud API webhook deliveries (the partner's message, then the owner's
    /// answer as an echo from the WhatsApp Business app).
    static func deliver(_ chats: [Chat], by source: Source, client: some TestClientProtocol, token: String) async throws {
        switch source {
        case .export:
            for chat in chats {
                let text = "21/09/2026, 16:00 - \(chat.partner): \(chat.proposal)\n21/09/2026, 16:02 - Omar: \(chat.answer)\n"
                let imported = try await ChatAPITests.importRaw(client, Array(text.utf8), token: token)
                try #require(imported.status == .ok, "\(imported.text)")
            }
        case .connector:
            let made = try await client.send(.post, "/api/v1/chats/connector-tokens", json: #"{"name": "bridge"}"#, token: token)
            let secret = try #require(try made.json(ConnectorToken.self).token)
            var messages: [[String: Any]] = []
            for (index, chat) in chats.enumerated() {
                let id = "\(chat.phone)@c.us"
                messages.append(["chatId": id, "messageId": "P\(index)", "sender": chat.partner, "fromMe": false, "timestamp": Self.proposedAt,
                                 "text": chat.proposal, "isGroup": false])
                messages.append(["chatId": id, "messageId": "A\(index)", "sender": "Omar", "fromMe": true, "timestamp": Self.answeredAt,
                                 "text": chat.answer, "isGroup": false])
            }
            let body = try JSONSerialization.data(withJSONObject: ["messages": messages])
            let delivered = try await client.execute(
                uri: "/api/v1/chats/messages", method: .post, headers: [.contentType: "application/json", .authorization: "Bearer \(secret)"],
                body: ByteBuffer(bytes: Array(body))) { $0 }
            try #require(delivered.status == .ok, "\(delivered.text)")
        case .webhook:
            let claimed = try await client.send(.put, "/api/v1/chats/settings", json: #"{"cloudAPIPhoneNumberID": "\#(Self.phoneNumberID)"}"#, token: token)
            try #require(claimed.status == .ok, "\(claimed.text)")
            let signer = CloudAPISignature(appSecret: Self.appSecret)
            for (index, chat) in chats.enumerated() {
                let metadata = ["display_phone_number": "15550783881", "phone_number_id": Self.phoneNumberID]
                let incoming: [String: Any] = [
                    "messaging_product": "whatsapp", "metadata": metadata,
                    "contacts": [["profile": ["name": chat.partner], "wa_id": chat.phone]],
                    "messages": [["from": chat.phone, "id": "wamid.P\(index)", "timestamp": String(Self.proposedAt), "type": "text",
                                  "text": ["body": chat.proposal]]],
                ]
                let echo: [String: Any] = [
                    "messaging_product": "whatsapp", "metadata": metadata,
                    "message_echoes": [["from": "15550783881", "to": chat.phone, "id": "wamid.A\(index)", "timestamp": String(Self.answeredAt),
                                        "type": "text", "text": ["body": chat.answer]]],
                ]
                for (field, value) in [("messages", incoming), ("smb_message_echoes", echo)] {
                    let delivery: [String: Any] = ["object": "whatsapp_business_account", "entry": [["id": "1", "changes": [["field": field, "value": value]]]]]
                    let body = try JSONSerialization.data(withJSONObject: delivery)
                    let posted = try await client.execute(
                        uri: "/webhooks/whatsapp", method: .post,
                        headers: [.contentType: "application/json", HTTPField.Name("X-Hub-Signature-256")!: signer.headerValue(for: body)],
                        body: ByteBuffer(bytes: Array(body))) { $0 }
                    try #require(posted.status == .ok, "\(posted.text)")
                }
            }
        }
    }

    @Test("a live chat is read once quiet for the quiet period; each new message starts the wait again; exports are read at once",
          arguments: TestEnvironment.engines)
    func quietPeriod(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine, configure: {
            $0.workers = 0
            $0.chatQuietPeriod = .seconds(30)
        }) { harness, client in
            let (_, token) = try await ChatAPITests.omar(harness, client)
            let made = try await client.send(.post, "/api/v1/chats/connector-tokens", json: #"{"name": "bridge"}"#, token: token)
            let secret = try #require(try made.json(ConnectorToken.self).token)
            let now = Int(harness.clock.now.timeIntervalSince1970)
            func deliver(_ id: String, _ text: String, fromMe: Bool) async throws -> ChatAPITests.Import {
                let message: [String: Any] = ["chatId": "966500000001@c.us", "messageId": id, "sender": fromMe ? "Omar" : "Sara", "fromMe": fromMe,
                                              "timestamp": now, "text": text, "isGroup": false]
                let body = try JSONSerialization.data(withJSONObject: ["messages": [message]])
                let response = try await client.execute(
                    uri: "/api/v1/chats/messages", method: .post, headers: [.contentType: "application/json", .authorization: "Bearer \(secret)"],
                    body: ByteBuffer(bytes: Array(body))) { $0 }
                try #require(response.status == .ok, "\(response.text)")
                return try response.json(ChatAPITests.Import.self)
            }
            let first = try await deliver("M1", "Dinner tomorrow at 8pm?", fromMe: false)
            #expect(first.events.isEmpty && first.conversations.map(\.awaitingExtraction) == [true], "not read while the chat is typing")
            harness.clock.advance(by: 20)
            let second = try await deliver("M2", "Deal 👍", fromMe: true)
            #expect(second.events.isEmpty && second.conversations.map(\.awaitingExtraction) == [true])

            // 35 s after the first message, 15 s after the second: still waiting.
            harness.clock.advance(by: 15)
            try await ConflictAPITests.runJobs(harness)
            var chats = try await ChatAPITests.chats(client, token: token)
            #expect(chats.map(\.state) == ["NO_EVENT"] && chats.map(\.awaitingExtraction) == [true], "\(chats)")
            let queued = try await harness.instance.store.read { tx in try await tx.queuedJobCount(kind: ChatInbox.readJob) }
            #expect(queued == 1, "one read waits per chat, however many messages came")

            // Quiet for 30 s since the last message: read, once.
            harness.clock.advance(by: 16)
            try await ConflictAPITests.runJobs(harness)
            chats = try await ChatAPITests.chats(client, token: token)
            #expect(chats.map(\.state) == ["HAS_EVENT_AGREED"] && chats.map(\.awaitingExtraction) == [false] && chats.first?.events.count == 1, "\(chats)")

            // An export is finished: read at once, quiet period or not.
            let export = "21/09/2026, 16:00 - Layla: Lunch on Thursday at 1pm?\n21/09/2026, 16:02 - Omar: Sure\n"
            let imported = try await ChatAPITests.importRaw(client, Array(export.utf8), token: token).json(ChatAPITests.Import.self)
            #expect(imported.events.count == 1 && imported.conversations.map(\.awaitingExtraction) == [false])
        }
    }
}
