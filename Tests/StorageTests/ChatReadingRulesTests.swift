import Conversations
import Foundation
import ICalendar
import JadwalCore
import JadwalTestSupport
import Storage
import Testing

/// The rules around reading chats, on a real store: live chats wait until quiet, failed
/// readings are listed without their text and age out, and events made before chat events had a
/// length get one.
@Suite("Chat reading rules on every engine")
struct ChatReadingRulesTests {
    typealias Fixture = ChatInboxTests.Fixture
    static let t0 = ChatInboxTests.t0

    static func quietInbox(_ f: Fixture, extractor: any ConversationExtractor = RuleExtractor()) -> ChatInbox {
        ChatInbox(store: f.store, clock: f.clock.clock, random: .system, cipher: ChatInboxTests.key, extractor: extractor, quietPeriod: .seconds(30))
    }

    static func quietJobs(_ f: Fixture) async throws -> [Job] {
        try await f.store.read { tx in try await tx.jobs(state: .queued, limit: 100) }.filter { $0.kind == ChatInbox.readJob }
    }

    @Test("a live chat waits until quiet: one job, moved by each message; read when due; a paused account is not read", arguments: TestEnvironment.engines)
    func quietLiveChats(engine: TestEngine) async throws {
        let f = try await ChatInboxTests.fixture(engine)
        let inbox = Self.quietInbox(f)
        let first = try await inbox.receive([ChatInboxTests.agreement[0]], source: .connector, accountID: f.account.id)
        #expect(first.events.isEmpty && first.conversations.map(\.awaitingExtraction) == [true])
        f.clock.advance(by: 10)
        _ = try await inbox.receive([ChatInboxTests.agreement[1]], source: .connector, accountID: f.account.id)
        let jobs = try await Self.quietJobs(f)
        #expect(jobs.count == 1 && jobs.first?.runAt == Self.t0 + 40, "\(jobs.map(\.runAt))")
        let conversation = try #require(try await f.conversations().first)
        #expect(conversation.readAfter == Self.t0 + 40 && conversation.awaitingExtraction && conversation.state == .noEvent)
        let request = try ChatInbox.QuietRead(json: try #require(jobs.first?.payload))
        #expect(request == ChatInbox.QuietRead(accountID: f.account.id, conversationID: conversation.id))

        // Early (a job that ran before its time, or an older one): nothing happens.
        f.clock.advance(by: 20)
        #expect(try await inbox.readQuiet(request).events.isEmpty)
        let waiting = try await f.conversations().first
        #expect(try await f.chatEvents().isEmpty && waiting?.awaitingExtraction == true)

        f.clock.advance(by: 10)
        let read = try await inbox.readQuiet(request)
        #expect(read.events.map(\.change) == [.created] && read.conversations.map(\.state) == [.agreed])
        let after = try #require(try await f.conversations().first)
        #expect(!after.awaitingExtraction && after.readAfter == nil && after.state == .agreed)
        #expect(try await inbox.readQuiet(request).events.isEmpty, "read once")

        // While paused, a due read leaves the messages for the resume.
        try await f.store.transaction { tx in try await tx.saveChatSettings(ChatSettings(extractionPaused: true), accountID: f.account.id, at: Self.t0) }
        let lunch = [ChatInboxTests.message("l1", "Lunch Thursday at 1pm?", fromMe: false, minutes: 0, chat: "966500000002@c.us"),
                     ChatInboxTests.message("l2", "Sure", fromMe: true, minutes: 0, chat: "966500000002@c.us")]
        _ = try await inbox.receive(lunch, source: .cloudAPI, accountID: f.account.id)
        let lunchChat = try #require(try await f.conversations().first { $0.chatKey == "966500000002@c.us" })
        #expect(lunchChat.awaitingExtraction && lunchChat.readAfter == nil)
        #expect(try await Self.quietJobs(f).allSatisfy { $0.subject != lunchChat.id.uuidString.lowercased() }, "paused: nothing to wait for until it resumes")
        try await f.store.shutdown()
    }

    /// Answers like the rules, but says the model failed first (the LLM extractor's fallback).
    struct FailingModel: ConversationExtractor {
        func outcome(of messages: [ChatMessage], context: ExtractionContext) async -> ConversationOutcome {
            var outcome = await RuleExtractor().outcome(of: messages, context: context)
            outcome.problem = LLMFallbackReason.invalidAnswer("the answer quoted: Dinner tomorrow at 8pm at Nando's").problem
            return outcome
        }
    }

    @Test("a failed reading is listed with its conversation, reason and time, never the text; it ages out with the retention period",
          arguments: TestEnvironment.engines)
    func failures(engine: TestEngine) async throws {
        let f = try await ChatInboxTests.fixture(engine)
        let inbox = ChatInbox(store: f.store, clock: f.clock.clock, random: .system, cipher: ChatInboxTests.key, extractor: FailingModel())
        let report = try await inbox.receive(ChatInboxTests.agreement, source: .connector, accountID: f.account.id)
        #expect(report.events.map(\.change) == [.created], "the rules' answer still stands")
        let log = ChatFailureLog(store: f.store)
        let failures = try await log.recent(since: nil, limit: 10)
        let conversation = try #require(try await f.conversations().first)
        #expect(failures.map(\.reason) == ["llm_invalid_answer"] && failures.first?.conversationID == conversation.id)
        #expect(failures.first?.accountID == f.account.id && failures.first?.source == .connector && failures.first?.occurredAt == Self.t0)
        #expect(failures.allSatisfy { !$0.summary.contains("Nando") && !$0.summary.contains("Dinner") }, "no message text: \(failures)")
        #expect(try await log.recent(since: Self.t0 + 1, limit: 10).isEmpty)

        // Retention: 14 days by default; the sweep that forgets old text forgets old failures.
        f.clock.advance(by: 13 * 86_400)
        _ = try await inbox.forgetExpiredText()
        #expect(try await log.recent(since: nil, limit: 10).count == 1)
        f.clock.advance(by: 2 * 86_400)
        _ = try await inbox.forgetExpiredText()
        #expect(try await log.recent(since: nil, limit: 10).isEmpty)
        try await f.store.shutdown()
    }

    @Test("events made from chats with no end get a length once, with a conflict check; an event the person edited is left alone",
          arguments: TestEnvironment.engines)
    func lengthsForOldEvents(engine: TestEngine) async throws {
        let f = try await ChatInboxTests.fixture(engine)
        let batch = ChatInboxTests.agreement + [
            ChatInboxTests.message("n1", "Call on Thursday at 5pm?", fromMe: false, minutes: 20, chat: "966500000002@c.us"),
            ChatInboxTests.message("n2", "Sure", fromMe: true, minutes: 19, chat: "966500000002@c.us"),
        ]
        _ = try await f.inbox.receive(batch, source: .connector, accountID: f.account.id)
        let writes = CalendarWrites(store: f.store, clock: f.clock.clock, random: .system)
        let calendar = try #require(try await f.store.read { tx in try await tx.calendar(accountID: f.account.id, slug: DefaultCalendars.chatEventsSlug) })
        // As an older Jadwal wrote them: no DTEND. The dinner just now (Jadwal's own write);
        // the call an hour later, as if the person had edited it on their phone.
        var events = try await f.chatEvents().sorted { $0.icalendar.contains("Dinner") && !$1.icalendar.contains("Dinner") }
        try #require(events.count == 2 && events[0].icalendar.contains("SUMMARY:Dinner"))
        func withoutEnd(_ object: CalendarObject) throws -> CalendarObjectContent {
            let text = object.icalendar.split(separator: "\r\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("DTEND") }.joined(separator: "\r\n")
            return try CalendarObjectContent(text: text)
        }
        _ = try await writes.put(try withoutEnd(events[0]), name: events[0].name, in: calendar, source: .chat)
        f.clock.advance(by: 3600)
        _ = try await writes.put(try withoutEnd(events[1]), name: events[1].name, in: calendar, source: .caldav)
        events = try await f.chatEvents().sorted { $0.icalendar.contains("Dinner") && !$1.icalendar.contains("Dinner") }
        #expect(events.allSatisfy { !$0.icalendar.contains("DTEND") })
        let checksBefore = try await f.store.read { tx in try await tx.queuedJobCount(kind: ConflictCheck.jobKind) }

        let lengths = ChatEventLengths(store: f.store, clock: f.clock.clock, random: .system)
        #expect(try await lengths.run() == 1)
        let after = try await f.chatEvents().sorted { $0.icalendar.contains("Dinner") && !$1.icalendar.contains("Dinner") }
        #expect(after[0].icalendar.contains("DTEND;TZID=Asia/Riyadh:20260922T213000") && after[0].icalendar.contains("SEQUENCE:1"), "\(after[0].icalendar)")
        #expect(!after[1].icalendar.contains("DTEND"), "the person's edit is theirs")
        #expect(try await f.store.read { tx in try await tx.queuedJobCount(kind: ConflictCheck.jobKind) } == checksBefore + 1, "its conflict check is queued")
        #expect(try await lengths.run() == 0, "once")
        try await f.store.shutdown()
    }

    @Test("migration 16 queues the one-off job only where chats made events")
    func migrationQueuesLengths() async throws {
        let empty = try await TestEnvironment.freshStore(.sqlite)
        let jobs = try await empty.read { tx in try await tx.jobs(state: nil, limit: 100) }
        #expect(!jobs.contains { $0.kind == ChatEventLengths.jobKind }, "a new database has no old chat events")
        try await empty.shutdown()
    }
}
