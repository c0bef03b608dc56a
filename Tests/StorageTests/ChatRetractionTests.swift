import Conversations
import Foundation
import ICalendar
import JadwalCore
import JadwalTestSupport
import Storage
import Testing

/// Messages taken back ("deleted for everyone") and edited in live chats, on a real store: the
/// conversation is read again without them, and an event that rested on one is withdrawn the way
/// a chat withdraws events (cancelled, or moved back to the time it had before).
@Suite("Chat messages taken back and edited, on every engine")
struct ChatRetractionTests {
    typealias Fixture = ChatInboxTests.Fixture
    static let t0 = ChatInboxTests.t0
    static let chat = "966500000001@c.us"

    static func message(_ id: String, _ text: String, fromMe: Bool, minutes: Int, replaces: String? = nil) -> IncomingChatMessage {
        var message = ChatInboxTests.message(id, text, fromMe: fromMe, minutes: minutes)
        message.replaces = replaces
        return message
    }

    static func gone(_ ids: String...) -> [ChatMessageRetraction] {
        ids.map { ChatMessageRetraction(chatKey: chat, externalID: $0) }
    }

    func event(_ f: Fixture) async throws -> (start: String, cancelled: Bool) {
        let object = try #require(try await f.chatEvents().first)
        let text = object.icalendar
        // The event's own DTSTART, not its time zone's.
        let event = try #require(text.range(of: "BEGIN:VEVENT")).upperBound
        let start = try #require(text[event...].split(whereSeparator: \.isNewline).first { $0.hasPrefix("DTSTART") })
            .split(separator: ":").last.map(String.init) ?? ""
        return (start, text.contains("STATUS:CANCELLED"))
    }

    @Test("a settled chat: taking back the yes cancels the event it agreed, and the chat is a proposal again; an unknown id changes nothing",
          arguments: TestEnvironment.engines)
    func takingBackTheYes(engine: TestEngine) async throws {
        let f = try await ChatInboxTests.fixture(engine)
        let agreed = try await f.inbox.receive(ChatInboxTests.agreement, source: .connector, accountID: f.account.id)
        #expect(agreed.events.map(\.change) == [.created])
        let conversation = try #require(try await f.conversations().first)
        #expect(conversation.state == .agreed)
        let dependencies = Set(conversation.events.first?.dependsOn?.map(\.messageID) ?? [])
        #expect(dependencies.contains("m2"), "the yes is what agreed it: \(dependencies)")
        #expect(try await f.counts(conversation.id) == (2, 0), "settled: the text is gone")

        let nothing = try await f.inbox.receive([], retracted: Self.gone("never-seen"), source: .connector, accountID: f.account.id)
        #expect(nothing.messages.retracted == 0 && nothing.events.isEmpty)
        #expect(try await event(f).cancelled == false)

        f.clock.advance(by: 60)
        let taken = try await f.inbox.receive([], retracted: Self.gone("m2"), source: .connector, accountID: f.account.id)
        #expect(taken.messages.retracted == 1)
        #expect(taken.events.map(\.change) == [.cancelled], "\(taken.events)")
        #expect(try await event(f).cancelled, "the event stays on the calendar, cancelled, as a chat cancels it")
        let after = try #require(try await f.conversations().first)
        #expect(after.state == .proposed && after.events.first?.status == .cancelled && after.resolvedAt == nil, "\(after.state)")
        #expect(try await f.counts(after.id).stored == 1)
        let notices = try await f.store.read { tx in
            try await tx.notifications(accountID: f.account.id, deliveredBy: Self.t0 + 3600, beforeSequence: nil, unreadOnly: false, limit: 10)
        }
        #expect(notices.count == 2, "told when it was added and when it was withdrawn: \(notices.map(\.title))")

        // Agreed again, it is the same event again.
        let again = try await f.inbox.receive(
            [ChatInboxTests.message("m3", "Dinner tomorrow at 8pm at Nando's?", fromMe: false, minutes: 1),
             ChatInboxTests.message("m4", "Yes, see you there", fromMe: true, minutes: 0)],
            source: .connector, accountID: f.account.id)
        let againEvent = try await event(f)
        #expect(again.events.map(\.change) == [.created] && !againEvent.cancelled, "\(again.events)")
        try await f.store.shutdown()
    }

    @Test("taking back the message that moved an event moves it back to the time it had", arguments: TestEnvironment.engines)
    func takingBackAMove(engine: TestEngine) async throws {
        let f = try await ChatInboxTests.fixture(engine)
        _ = try await f.inbox.receive(ChatInboxTests.agreement, source: .connector, accountID: f.account.id)
        #expect(try await event(f).start.hasSuffix("T200000"))
        let moved = try await f.inbox.receive(
            [ChatInboxTests.message("m3", "Can we make it 9pm instead?", fromMe: false, minutes: 10),
             ChatInboxTests.message("m4", "Sure", fromMe: true, minutes: 9)],
            source: .connector, accountID: f.account.id)
        #expect(moved.events.map(\.change) == [.moved], "\(moved.events)")
        #expect(try await event(f).start.hasSuffix("T210000"))

        let back = try await f.inbox.receive([], retracted: Self.gone("m3"), source: .connector, accountID: f.account.id)
        #expect(back.events.map(\.change) == [.moved], "\(back.events)")
        let now = try await event(f)
        #expect(now.start.hasSuffix("T200000") && !now.cancelled, "\(now)")
        #expect(try await f.conversations().first?.state == .agreed)
        try await f.store.shutdown()
    }

    @Test("before a quiet chat is read: a message taken back is never read, and an edit takes its original's place", arguments: TestEnvironment.engines)
    func heldText(engine: TestEngine) async throws {
        let f = try await ChatInboxTests.fixture(engine)
        let inbox = ChatReadingRulesTests.quietInbox(f)
        _ = try await inbox.receive([Self.message("m1", "Dinner tomorrow at 8pm?", fromMe: false, minutes: 3)], source: .connector, accountID: f.account.id)
        let edit = try await inbox.receive(
            [Self.message("e1", "Dinner tomorrow at 9pm?", fromMe: false, minutes: 2, replaces: "m1")], source: .connector, accountID: f.account.id)
        #expect(edit.messages.new == 1)
        let conversation = try #require(try await f.conversations().first)
        #expect(try await f.counts(conversation.id) == (1, 1), "the edit replaced its original")
        let stored = try await f.store.read { tx in try await tx.heldChatMessages(conversationID: conversation.id) }
        #expect(stored.map(\.externalID) == ["m1"] && stored.first?.sentAt == Self.t0 - 180, "in the original's place")
        _ = try await inbox.receive([Self.message("m2", "Deal", fromMe: true, minutes: 1)], source: .connector, accountID: f.account.id)

        // A second chat whose yes is taken back before it is read.
        let lunchChat = "966500000002@c.us"
        _ = try await inbox.receive(
            [ChatInboxTests.message("l1", "Lunch Thursday at 1pm?", fromMe: false, minutes: 2, chat: lunchChat),
             ChatInboxTests.message("l2", "Sure", fromMe: true, minutes: 1, chat: lunchChat)],
            source: .connector, accountID: f.account.id)
        let taken = try await inbox.receive(
            [], retracted: [ChatMessageRetraction(chatKey: lunchChat, externalID: "l2")], source: .connector, accountID: f.account.id)
        #expect(taken.messages.retracted == 1 && taken.conversations.map(\.awaitingExtraction) == [true], "read again once quiet")

        f.clock.advance(by: 31)
        for job in try await ChatReadingRulesTests.quietJobs(f) {
            _ = try await inbox.readQuiet(try ChatInbox.QuietRead(json: job.payload))
        }
        let events = try await f.chatEvents()
        #expect(events.count == 1, "dinner only; lunch's yes was taken back")
        #expect(try await event(f).start.hasSuffix("T210000"), "read as edited: 9pm")
        let lunch = try #require(try await f.conversations().first { $0.chatKey == lunchChat })
        #expect(lunch.state == .proposed && lunch.events.isEmpty)
        try await f.store.shutdown()
    }

    @Test("an edit of a settled message is read as said again beside the standing event; taking the original back takes its edits too",
          arguments: TestEnvironment.engines)
    func editAfterSettling(engine: TestEngine) async throws {
        let f = try await ChatInboxTests.fixture(engine)
        _ = try await f.inbox.receive(ChatInboxTests.agreement, source: .connector, accountID: f.account.id)
        let edited = try await f.inbox.receive(
            [Self.message("e1", "Dinner tomorrow at 9pm at Nando's?", fromMe: false, minutes: 5, replaces: "m1")],
            source: .connector, accountID: f.account.id)
        #expect(edited.events.isEmpty && edited.conversations.map(\.state) == [.proposed], "a new time offered: \(edited.conversations)")
        let conversation = try #require(try await f.conversations().first)
        let held = try await f.store.read { tx in try await tx.heldChatMessages(conversationID: conversation.id) }
        #expect(held.map(\.externalID) == ["m1~edit~e1"], "kept beside the settled original")
        #expect(try await event(f).start.hasSuffix("T200000"), "the agreed event stands until the new time is agreed")

        let agreed = try await f.inbox.receive([ChatInboxTests.message("m3", "ok", fromMe: true, minutes: 4)], source: .connector, accountID: f.account.id)
        let movedStart = try await event(f).start
        #expect(agreed.events.map(\.change) == [.moved] && movedStart.hasSuffix("T210000"), "\(agreed.events)")

        let taken = try await f.inbox.receive([], retracted: Self.gone("m1"), source: .connector, accountID: f.account.id)
        #expect(taken.messages.retracted == 2, "the original and its edit")
        let backStart = try await event(f).start
        #expect(taken.events.map(\.change) == [.moved] && backStart.hasSuffix("T200000"), "the move rested on the edit: \(taken.events)")
        try await f.store.shutdown()
    }

    @Test("a connector batch: deleted items are retractions, edits name what they replace; bad ones are listed")
    func connectorWire() throws {
        let batch = try ConnectorBatch(json: Data(#"""
            {"messages": [
              {"chatId": "c", "messageId": "e1", "sender": "s", "fromMe": false, "timestamp": 1790000000, "text": "at 9", "isGroup": false, "replaces": "m1"},
              {"chatId": "c", "messageId": "m2", "deleted": true},
              {"chatId": "c", "messageId": "m3", "sender": "s", "fromMe": true, "timestamp": 1790000000, "text": "ok", "isGroup": false, "deleted": false}
            ]}
            """#.utf8))
        #expect(batch.messages.map(\.messageID) == ["e1", "m3"] && batch.messages.first?.replaces == "m1" && batch.messages.last?.replaces == nil)
        #expect(batch.retractions == [ConnectorRetraction(chatID: "c", messageID: "m2")])
        do {
            _ = try ConnectorBatch(json: Data(#"{"messages": [{"chatId": "c", "deleted": true}, {"chatId": "c", "messageId": "x", "deleted": "yes"}]}"#.utf8))
            Issue.record("a retraction without an id and a `deleted` that is no flag are refused")
        } catch {
            #expect(error.problems.map(\.path) == ["messages[0].messageId", "messages[1].deleted"], "\(error.problems)")
        }
    }
}
