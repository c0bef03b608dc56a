import Conversations
import Crypto
import Foundation
import ICalendar
import JadwalCore
import JadwalTestSupport
import Storage
import Synchronization
import Testing

/// The ingestion service on a real store and the rule-based extractor: messages in, events on
/// the "WhatsApp Events" calendar, text gone once settled.
@Suite("Chat inbox on every engine")
struct ChatInboxTests {
    /// 2026-09-21 17:13 in Riyadh.
    static let t0 = Date(timeIntervalSince1970: 1_790_000_000)
    static let key = MessageCipher(key: SymmetricKey(data: Data(repeating: 5, count: 32)))

    struct Fixture {
        let store: SQLStore
        let clock: TestClock
        let account: Account
        let inbox: ChatInbox

        func inbox(cipher: MessageCipher) -> ChatInbox {
            ChatInbox(store: store, clock: clock.clock, random: .system, cipher: cipher, extractor: RuleExtractor(), publicURL: "https://jadwal.example")
        }

        func chatEvents() async throws -> [CalendarObject] {
            try await store.read { tx in
                guard let calendar = try await tx.calendar(accountID: account.id, slug: DefaultCalendars.chatEventsSlug) else { return [] }
                return try await tx.calendarObjects(calendarID: calendar.id)
            }
        }

        func conversations() async throws -> [ChatConversation] {
            try await store.read { tx in try await tx.chatConversations(accountID: account.id) }
        }

        func counts(_ id: UUID) async throws -> (stored: Int, holdingText: Int) {
            try await store.read { tx in try await tx.chatMessageCounts(conversationID: id) }
        }
    }

    static func fixture(_ engine: TestEngine) async throws -> Fixture {
        let store = try await TestEnvironment.freshStore(engine)
        let clock = TestClock(t0)
        let account = Account(id: UUID(), email: try EmailAddress("omar@example.com"), name: "Omar", timeZone: "Asia/Riyadh", language: .english, createdAt: t0)
        try await store.transaction { tx in try await tx.insertAccountWithDefaultCalendars(account, now: t0, random: .system) }
        let inbox = ChatInbox(store: store, clock: clock.clock, random: .system, cipher: key, extractor: RuleExtractor(), publicURL: "https://jadwal.example")
        return Fixture(store: store, clock: clock, account: account, inbox: inbox)
    }

    /// A connector message in the chat with Sara, `minutes` before t0.
    static func message(_ id: String, _ text: String, fromMe: Bool, minutes: Int, chat: String = "966500000001@c.us", group: Bool = false)
        -> IncomingChatMessage {
        IncomingChatMessage(
            chatKey: chat, chatName: group ? "Family" : nil, isGroup: group, externalID: id, sender: fromMe ? nil : "Sara", fromMe: fromMe,
            sentAt: t0 - TimeInterval(minutes * 60), text: text)
    }

    static let agreement = [
        message("m1", "Dinner tomorrow at 8pm at Nando's?", fromMe: false, minutes: 30),
        message("m2", "Deal 👍", fromMe: true, minutes: 29),
    ]

    @Test("an agreement becomes one event; the text goes; delivering it again changes nothing", arguments: TestEnvironment.engines)
    func agreementOnce(engine: TestEngine) async throws {
        let f = try await Self.fixture(engine)
        let report = try await f.inbox.receive(Self.agreement, source: .connector, accountID: f.account.id)
        #expect(report.messages.new == 2 && report.messages.duplicates == 0)
        #expect(report.conversations.map(\.state) == [.agreed] && report.events.map(\.change) == [.created])
        let events = try await f.chatEvents()
        try #require(events.count == 1)
        let event = try Event(component: try #require(try ICalendarParser().parseCalendar(events[0].icalendar).components.first { $0.name == "VEVENT" }))
        #expect(event.start == .dateTime(ICalendar.LocalDateTime(year: 2026, month: 9, day: 22, hour: 20), .zone("Asia/Riyadh")))
        // No end was said: a dinner lasts a meal's 90 minutes.
        #expect(event.end == .end(.dateTime(ICalendar.LocalDateTime(year: 2026, month: 9, day: 22, hour: 21, minute: 30), .zone("Asia/Riyadh"))))
        #expect(event.status == .confirmed)
        let conversation = try #require(try await f.conversations().first)
        #expect(event.description?.contains("Managed by Jadwal") == true && event.description?.contains("Sara") == true)
        #expect(event.description?.contains("https://jadwal.example/api/v1/chats/\(conversation.id.uuidString.lowercased())") == true)
        #expect(conversation.state == .agreed && conversation.resolvedAt == Self.t0 && conversation.events.map(\.uid) == [event.uid])
        #expect(conversation.partnerName == "Sara")
        // The person is told, in the same transaction, in their zone.
        let notices = try await f.store.read { tx in
            try await tx.notifications(accountID: f.account.id, deliveredBy: .distantFuture, beforeSequence: nil, unreadOnly: false, limit: 10)
        }
        #expect(notices.map(\.kind) == [.eventAdded] && notices.first?.title.hasPrefix("Added: ") == true, "\(notices)")
        #expect(notices.first?.title.contains("20:00") == true && notices.first?.body == "From your chat with Sara.", "\(notices)")
        #expect(try await f.counts(conversation.id) == (2, 0), "resolved: the rows stay, the text is gone")

        f.clock.advance(by: 60)
        let again = try await f.inbox.receive(Self.agreement, source: .connector, accountID: f.account.id)
        #expect(again.messages.new == 0 && again.messages.duplicates == 2 && again.events.isEmpty && again.conversations.isEmpty)
        #expect(try await f.chatEvents().count == 1)
        #expect(try await f.conversations().first == conversation)
        try await f.store.shutdown()
    }

    @Test("a message delivered late is read in the order it was sent, before the text already held; a settled batch never stores its text",
          arguments: TestEnvironment.engines)
    func lateDelivery(engine: TestEngine) async throws {
        let f = try await Self.fixture(engine)
        let answer = try await f.inbox.receive([Self.agreement[1]], source: .connector, accountID: f.account.id)
        #expect(answer.conversations.map(\.state) == [.noEvent])
        let conversation = try #require(try await f.conversations().first)
        #expect(try await f.counts(conversation.id) == (1, 1))

        // The proposal was sent a minute before the answer already stored.
        let proposal = try await f.inbox.receive([Self.agreement[0]], source: .connector, accountID: f.account.id)
        #expect(proposal.conversations.map(\.state) == [.agreed] && proposal.events.map(\.change) == [.created], "\(proposal)")
        #expect(try await f.counts(conversation.id) == (2, 0))
        let rows = try await f.store.read { tx in try await tx.storedChatMessageIDs(conversationID: conversation.id, among: ["m1", "m2"]) }
        #expect(rows == ["m1", "m2"], "a settled message is stored without its text, and still known")
        try await f.store.shutdown()
    }

    @Test("a later new time moves the event; a later cancellation cancels it", arguments: TestEnvironment.engines)
    func moveThenCancel(engine: TestEngine) async throws {
        let f = try await Self.fixture(engine)
        _ = try await f.inbox.receive(Self.agreement, source: .connector, accountID: f.account.id)
        let created = try #require(try await f.chatEvents().first)

        let moved = try await f.inbox.receive([
            Self.message("m3", "Can we make it 9pm tomorrow instead?", fromMe: false, minutes: 20),
            Self.message("m4", "Sure", fromMe: true, minutes: 19),
        ], source: .connector, accountID: f.account.id)
        #expect(moved.events.map(\.change) == [.moved], "\(moved)")
        let afterMove = try #require(try await f.chatEvents().first)
        #expect(afterMove.uid == created.uid && afterMove.icalendar.contains("DTSTART;TZID=Asia/Riyadh:20260922T210000"))
        #expect(afterMove.icalendar.contains("SEQUENCE:1"))

        let cancelled = try await f.inbox.receive(
            [Self.message("m5", "Sorry, I have to cancel dinner tomorrow 😞", fromMe: false, minutes: 10)], source: .connector, accountID: f.account.id)
        #expect(cancelled.events.map(\.change) == [.cancelled], "\(cancelled)")
        let afterCancel = try #require(try await f.chatEvents().first)
        #expect(afterCancel.icalendar.contains("STATUS:CANCELLED") && afterCancel.icalendar.contains("SEQUENCE:2"))
        let conversation = try #require(try await f.conversations().first)
        #expect(conversation.state == .denied && conversation.events.map(\.status) == [.cancelled])
        let notices = try await f.store.read { tx in
            try await tx.notifications(accountID: f.account.id, deliveredBy: .distantFuture, beforeSequence: nil, unreadOnly: false, limit: 10)
        }
        #expect(notices.map { $0.title.components(separatedBy: ":").first ?? "" } == ["Cancelled", "Moved", "Added"], "each change is told: \(notices.map(\.title))")
        #expect(try await f.counts(conversation.id) == (5, 0))
        try await f.store.shutdown()
    }

    @Test("a new plan proposed beside a standing event keeps its text until answered, then becomes its own event", arguments: TestEnvironment.engines)
    func secondPlan(engine: TestEngine) async throws {
        let f = try await Self.fixture(engine)
        _ = try await f.inbox.receive(Self.agreement, source: .connector, accountID: f.account.id)
        let proposed = try await f.inbox.receive(
            [Self.message("m3", "Also, coffee on Thursday at 10am?", fromMe: false, minutes: 20)], source: .connector, accountID: f.account.id)
        #expect(proposed.events.isEmpty && proposed.conversations.map(\.state) == [.agreed], "the dinner still stands")
        let conversation = try #require(try await f.conversations().first)
        #expect(try await f.counts(conversation.id) == (3, 1), "the open proposal's text is kept for its answer")

        let answered = try await f.inbox.receive(
            [Self.message("m4", "Sure, see you there", fromMe: true, minutes: 19)], source: .connector, accountID: f.account.id)
        #expect(answered.events.map(\.change) == [.created] && answered.events.first?.start == "2026-09-24T10:00", "\(answered)")
        let events = try await f.chatEvents()
        #expect(events.count == 2 && events.allSatisfy { !$0.icalendar.contains("STATUS:CANCELLED") })
        #expect(try await f.conversations().first?.events.map(\.status) == [.active, .active])
        #expect(try await f.counts(conversation.id) == (4, 0))
        try await f.store.shutdown()
    }

    @Test("group chats only when allowed; while paused messages wait and are read on resuming", arguments: TestEnvironment.engines)
    func groupsAndPause(engine: TestEngine) async throws {
        let f = try await Self.fixture(engine)
        let group = [
            Self.message("g1", "Dinner tomorrow at 8pm at Nando's?", fromMe: false, minutes: 30, chat: "family@g.us", group: true),
            Self.message("g2", "Deal 👍", fromMe: true, minutes: 29, chat: "family@g.us", group: true),
        ]
        let skipped = try await f.inbox.receive(group, source: .connector, accountID: f.account.id)
        #expect(skipped.skippedGroupChats == 1 && skipped.messages.skipped == 2 && skipped.messages.new == 0)
        #expect(try await f.conversations().isEmpty)

        try await f.store.transaction { tx in
            try await tx.saveChatSettings(ChatSettings(extractionPaused: true, allowGroups: true), accountID: f.account.id, at: Self.t0)
        }
        let paused = try await f.inbox.receive(group + Self.agreement, source: .connector, accountID: f.account.id)
        #expect(paused.messages.new == 4 && paused.events.isEmpty && paused.conversations.allSatisfy(\.awaitingExtraction))
        #expect(try await f.chatEvents().isEmpty)
        #expect(try await f.conversations().allSatisfy { $0.state == .noEvent && $0.awaitingExtraction })

        try await f.store.transaction { tx in
            try await tx.saveChatSettings(ChatSettings(extractionPaused: false, allowGroups: true), accountID: f.account.id, at: Self.t0)
        }
        let resumed = try await f.inbox.readAwaitingConversations(accountID: f.account.id)
        #expect(resumed.events.count == 2 && resumed.conversations.count == 2)
        #expect(try await f.conversations().allSatisfy { $0.state == .agreed && !$0.awaitingExtraction })
        #expect(try await f.conversations().contains { $0.isGroup && $0.partnerName == "Family" })
        try await f.store.shutdown()
    }

    @Test("with the wrong key the batch fails whole, with a clear error, and stores nothing", arguments: TestEnvironment.engines)
    func wrongKey(engine: TestEngine) async throws {
        let f = try await Self.fixture(engine)
        // An open conversation: its text is held.
        _ = try await f.inbox.receive([Self.agreement[0]], source: .connector, accountID: f.account.id)
        let conversation = try #require(try await f.conversations().first)
        #expect(conversation.state == .proposed)
        #expect(try await f.counts(conversation.id) == (1, 1))

        let other = MessageCipher(key: SymmetricKey(data: Data(repeating: 6, count: 32)))
        await #expect(throws: MessageCipher.Problem.wrongKey(sealedWith: Self.key.keyID, configured: other.keyID)) {
            try await f.inbox(cipher: other).receive([Self.agreement[1]], source: .connector, accountID: f.account.id)
        }
        #expect(try await f.counts(conversation.id) == (1, 1), "the new message was rolled back with the rest")
        #expect(try await f.chatEvents().isEmpty)
        #expect(try await f.conversations().first == conversation)
        try await f.store.shutdown()
    }

    @Test("the retention sweep deletes text of open conversations once it is old enough", arguments: TestEnvironment.engines)
    func retention(engine: TestEngine) async throws {
        let f = try await Self.fixture(engine)
        _ = try await f.inbox.receive([Self.agreement[0]], source: .connector, accountID: f.account.id)
        let conversation = try #require(try await f.conversations().first)
        f.clock.advance(by: 13 * 86_400)
        #expect(try await f.inbox.forgetExpiredText() == 0)
        f.clock.advance(by: 2 * 86_400)
        #expect(try await f.inbox.forgetExpiredText() == 1)
        #expect(try await f.counts(conversation.id) == (1, 0))
        try await f.store.shutdown()
    }

    /// An extractor that answers slowly (as a model does) and, while answering, takes the
    /// conversation's lock in a transaction of its own: that waits for ever if it is asked
    /// inside the batch's transaction (SQLite has one writer; PostgreSQL holds the row), so it
    /// gives up after 20 s and says so.
    final class SlowExtractor: ConversationExtractor {
        let store: SQLStore
        let conversation: ChatConversation
        let calls = Mutex(0)
        let blocked = Mutex(false)

        init(store: SQLStore, conversation: ChatConversation) {
            self.store = store
            self.conversation = conversation
        }

        var answersSlowly: Bool { true }

        func outcome(of messages: [ChatMessage], context: ExtractionContext) async -> ConversationOutcome {
            calls.withLock { $0 += 1 }
            let store = store, conversation = conversation
            // Not awaited: a write stuck behind the batch would keep this answer from ever returning.
            let tookLock = Mutex(false)
            Task { if (try? await store.transaction({ tx in _ = try await tx.lockChatConversation(conversation) })) != nil { tookLock.withLock { $0 = true } } }
            for _ in 0..<400 where !tookLock.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(50)) }
            if !tookLock.withLock({ $0 }) { blocked.withLock { $0 = true } }
            return await RuleExtractor().outcome(of: messages, context: context)
        }
    }

    @Test("a slow extractor is asked with no transaction open, and its answers are the batch's", arguments: TestEnvironment.engines)
    func slowExtractorOutsideTransaction(engine: TestEngine) async throws {
        let f = try await Self.fixture(engine)
        _ = try await f.inbox.receive([Self.agreement[0]], source: .connector, accountID: f.account.id)
        let conversation = try #require(try await f.conversations().first)
        let slow = SlowExtractor(store: f.store, conversation: conversation)
        let inbox = ChatInbox(store: f.store, clock: f.clock.clock, random: .system, cipher: Self.key, extractor: slow, publicURL: "https://jadwal.example")

        let report = try await inbox.receive([Self.agreement[1]], source: .connector, accountID: f.account.id)
        #expect(!slow.blocked.withLock { $0 }, "the extractor was asked while the batch held the database")
        // Asked between the rehearsals and the batch: the exchange once, then again without each
        // of its two messages (what the agreement rests on, for a message taken back later).
        #expect(slow.calls.withLock { $0 } == 3, "asked three times, between the rehearsals and the batch")
        #expect(report.messages.new == 1 && report.conversations.map(\.state) == [.agreed] && report.events.map(\.change) == [.created])
        #expect(try await f.chatEvents().count == 1)
        #expect(try await f.counts(conversation.id) == (2, 0), "the rehearsal stored nothing; the batch stored the message once")
        let notices = try await f.store.read { tx in
            try await tx.notifications(accountID: f.account.id, deliveredBy: .distantFuture, beforeSequence: nil, unreadOnly: false, limit: 10)
        }
        #expect(notices.map(\.kind) == [.eventAdded], "one notice: the rehearsal's was rolled back")
        try await f.store.shutdown()
    }

    /// A slow extractor whose first answer comes as the batch is cancelled (the server stopping
    /// while a model answers).
    final class CancelledWhileAnswering: ConversationExtractor {
        let calls = Mutex(0)
        var answersSlowly: Bool { true }

        func outcome(of messages: [ChatMessage], context: ExtractionContext) async -> ConversationOutcome {
            calls.withLock { $0 += 1 }
            withUnsafeCurrentTask { $0?.cancel() }
            return await RuleExtractor().outcome(of: messages, context: context)
        }
    }

    @Test("a batch cancelled while the model answers asks it nothing more and stores nothing", arguments: TestEnvironment.engines)
    func cancelledWhileAnswering(engine: TestEngine) async throws {
        let f = try await Self.fixture(engine)
        let extractor = CancelledWhileAnswering()
        let inbox = ChatInbox(store: f.store, clock: f.clock.clock, random: .system, cipher: Self.key, extractor: extractor, publicURL: "https://jadwal.example")
        // Two chats: the rehearsal notes two questions.
        let batch = Self.agreement + [
            Self.message("n1", "Lunch Thursday at 1pm?", fromMe: false, minutes: 20, chat: "966500000002@c.us"),
            Self.message("n2", "Sure", fromMe: true, minutes: 19, chat: "966500000002@c.us"),
        ]
        let receiving = Task { try await inbox.receive(batch, source: .connector, accountID: f.account.id) }
        await #expect(throws: CancellationError.self) { try await receiving.value }
        #expect(extractor.calls.withLock { $0 } == 1, "the model was asked again after the batch was cancelled")
        #expect(try await f.conversations().isEmpty, "the cancelled batch stored its conversations")
        #expect(try await f.chatEvents().isEmpty)
        try await f.store.shutdown()
    }
}
