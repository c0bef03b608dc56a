import Conversations
import Crypto
import Foundation
import JadwalCore
import JadwalTestSupport
import Storage
import Testing

/// The WhatsApp link service in process, on a real store: codes and their expiry, the bridge's
/// reports, the sealed session, deliveries only for a linked account, and being logged out.
@Suite("WhatsApp links on every engine")
struct WhatsAppLinksServiceTests {
    static let t0 = Date(timeIntervalSince1970: 1_790_000_000)
    static let key = MessageCipher(key: SymmetricKey(data: Data(repeating: 7, count: 32)))

    struct Fixture {
        let store: SQLStore
        let clock: TestClock
        let account: Account
        let links: WhatsAppLinks

        func row() async throws -> WhatsAppLink? {
            try await store.read { tx in try await tx.whatsAppLink(accountID: account.id) }
        }
    }

    static func fixture(_ engine: TestEngine, email: String = "omar@example.com") async throws -> Fixture {
        let store = try await TestEnvironment.freshStore(engine)
        let clock = TestClock(t0)
        let account = Account(id: UUID(), email: try EmailAddress(email), name: "Omar", timeZone: "Asia/Riyadh", language: .english, createdAt: t0)
        try await store.transaction { tx in try await tx.insertAccountWithDefaultCalendars(account, now: t0, random: .system) }
        let inbox = ChatInbox(store: store, clock: clock.clock, random: .system, cipher: key, extractor: RuleExtractor(), publicURL: "https://jadwal.example")
        let links = WhatsAppLinks(inbox: inbox, store: store, clock: clock.clock, random: .system, cipher: key)
        return Fixture(store: store, clock: clock, account: account, links: links)
    }

    @Test("phone numbers as people type them")
    func phones() {
        #expect(WhatsAppLinks.phoneDigits("+966 50-123 4567") == "966501234567")
        #expect(WhatsAppLinks.phoneDigits("00966 (50) 123.4567") == "966501234567")
        #expect(WhatsAppLinks.phoneDigits("0501234567") == nil, "no country code")
        #expect(WhatsAppLinks.phoneDigits("+1 555") == nil)
        #expect(WhatsAppLinks.phoneDigits("+9665012345678901") == nil, "longer than E.164")
        #expect(WhatsAppLinks.phoneDigits("+96650123456a") == nil)
        #expect(WhatsAppLinks.phoneDigits("+٩٦٦٥٠١٢٣٤٥٦٧") == nil, "ASCII digits only: WhatsApp's pairing takes them")
    }

    @Test("a code, its expiry, and trying again", arguments: TestEnvironment.engines)
    func codeAndExpiry(engine: TestEngine) async throws {
        let f = try await Self.fixture(engine)
        await #expect(throws: WhatsAppLinks.Problem.noLink) { try await f.links.status(accountID: f.account.id) }
        await #expect(throws: WhatsAppLinks.Problem.invalidPhone) { try await f.links.start(phone: "12", historyDays: nil, accountID: f.account.id) }
        await #expect(throws: WhatsAppLinks.Problem.invalidHistoryDays) {
            try await f.links.start(phone: "+966501234567", historyDays: 31, accountID: f.account.id)
        }

        let first = try await f.links.start(phone: "+966 50 123 4567", historyDays: nil, accountID: f.account.id)
        #expect(first.state == .waiting && first.phone == "966501234567" && first.historyDays == 7 && first.code == nil)
        #expect(try await f.links.bridgeWork().map(\.link.attempt) == [first.attempt])

        try await f.links.report(.code("ABCD-EFGH"), accountID: f.account.id)
        var link = try await f.links.awaitCode(attempt: first.attempt, accountID: f.account.id, timeout: .seconds(1))
        #expect(link.code == "ABCD-EFGH" && link.expiresAt == Self.t0.addingTimeInterval(WhatsAppLinks.codeLifetime))

        f.clock.advance(by: WhatsAppLinks.codeLifetime + 1)
        link = try await f.links.status(accountID: f.account.id)
        #expect(link.state == .expired && link.code == nil && link.reason == "the code was not entered in time")
        #expect(try await f.links.bridgeWork().isEmpty, "the bridge stops pairing an expired code")
        await #expect(throws: WhatsAppLinks.Problem.notWaiting) { try await f.links.report(.code("LATE-CODE"), accountID: f.account.id) }

        let again = try await f.links.start(phone: "+966501234567", historyDays: 0, accountID: f.account.id)
        #expect(again.attempt != first.attempt && again.state == .waiting && again.historyDays == 0)
        f.clock.advance(by: WhatsAppLinks.codeRequestLifetime + 1)
        #expect(try await f.links.status(accountID: f.account.id).reason == "no code came from WhatsApp in time (is the bridge running?)")

        _ = try await f.links.start(phone: "+966501234567", historyDays: nil, accountID: f.account.id)
        let cancelled = try await f.links.cancel(accountID: f.account.id)
        #expect(cancelled.state == .cancelled && cancelled.reason == "cancelled")
        await #expect(throws: WhatsAppLinks.Problem.noLink) { try await f.links.cancel(accountID: f.account.id) }

        _ = try await f.links.start(phone: "+966501234567", historyDays: nil, accountID: f.account.id)
        try await f.links.report(.failed(reason: "invalid phone number"), accountID: f.account.id)
        link = try await f.links.status(accountID: f.account.id)
        #expect(link.state == .failed && link.reason == "invalid phone number")
        try await f.store.shutdown()
    }

    @Test("linked: the session sealed at rest, messages delivered, unlinking", arguments: TestEnvironment.engines)
    func linkedSessionAndMessages(engine: TestEngine) async throws {
        let f = try await Self.fixture(engine)
        let message = IncomingChatMessage(
            chatKey: "966500000002@s.whatsapp.net", chatName: nil, isGroup: false, externalID: "M1", sender: "966500000002@s.whatsapp.net",
            fromMe: false, sentAt: Self.t0 - 60, text: "Dinner tomorrow at 8pm?")
        _ = try await f.links.start(phone: "+966501234567", historyDays: nil, accountID: f.account.id)
        await #expect(throws: WhatsAppLinks.Problem.notLinked) { try await f.links.deliver([message], accountID: f.account.id) }

        // whatsmeow's store is a SQLite file; its bytes stand for themselves here.
        let session = Data("SQLite format 3\0 device keys of the linked phone".utf8)
        try await f.links.saveSession(session, accountID: f.account.id)
        try await f.links.report(.linked(jid: "966501234567@s.whatsapp.net"), accountID: f.account.id)
        await #expect(throws: WhatsAppLinks.Problem.alreadyLinked) {
            try await f.links.start(phone: "+966501234567", historyDays: nil, accountID: f.account.id)
        }

        let stored = try #require(try await f.row()?.session)
        #expect(stored.keyID == Self.key.keyID)
        #expect(try await f.store.read { tx in try await tx.whatsAppSessionKeyIDs() } == [Self.key.keyID], "what the startup key check reads")
        #expect(stored.ciphertext.range(of: Data("device keys".utf8)) == nil, "sealed, not stored as it came")
        let work = try await f.links.bridgeWork()
        #expect(work.count == 1 && work[0].link.state == .linked && work[0].session == session, "opened again for the bridge")
        #expect(throws: MessageCipher.Problem.tampered, "bound to its account") {
            try Self.key.open(data: stored, purpose: "whatsapp session \(UUID().uuidString.lowercased())")
        }
        let otherKey = MessageCipher(key: SymmetricKey(data: Data(repeating: 8, count: 32)))
        #expect(throws: MessageCipher.Problem.wrongKey(sealedWith: Self.key.keyID, configured: otherKey.keyID)) {
            try otherKey.open(data: stored, purpose: "whatsapp session \(f.account.id.uuidString.lowercased())")
        }
        await #expect(throws: WhatsAppLinks.Problem.invalidSession) { try await f.links.saveSession(Data(), accountID: f.account.id) }

        let report = try await f.links.deliver([message], accountID: f.account.id)
        #expect(report.messages.new == 1)
        let conversations = try await f.store.read { tx in try await tx.chatConversations(accountID: f.account.id) }
        #expect(conversations.map(\.source) == [.connector] && conversations.map(\.chatKey) == ["966500000002@s.whatsapp.net"])

        let unlinked = try await f.links.cancel(accountID: f.account.id)
        #expect(unlinked.state == .cancelled && unlinked.reason == "unlinked" && unlinked.session == nil)
        #expect(try await f.row()?.session == nil, "the session is deleted, not kept")
        #expect(try await f.links.bridgeWork().isEmpty, "the bridge logs the device out when the link is gone")
        await #expect(throws: WhatsAppLinks.Problem.notLinked) { try await f.links.deliver([message], accountID: f.account.id) }
        try await f.store.shutdown()
    }

    @Test("logged out from the phone: session gone, the person told once", arguments: TestEnvironment.engines)
    func loggedOut(engine: TestEngine) async throws {
        let f = try await Self.fixture(engine)
        _ = try await f.links.start(phone: "+966501234567", historyDays: nil, accountID: f.account.id)
        try await f.links.saveSession(Data("store".utf8), accountID: f.account.id)
        try await f.links.report(.linked(jid: nil), accountID: f.account.id)
        try await f.links.report(.loggedOut(reason: "logged_out"), accountID: f.account.id)
        try await f.links.report(.loggedOut(reason: "logged_out"), accountID: f.account.id)
        let link = try #require(try await f.row())
        #expect(link.state == .failed && link.reason == "logged_out" && link.session == nil)
        let told = try await f.store.read { tx in
            try await tx.notifications(accountID: f.account.id, deliveredBy: Self.t0.addingTimeInterval(86_400), beforeSequence: nil, unreadOnly: false, limit: 10)
        }
        #expect(told.map(\.kind) == [.whatsAppUnlinked] && told.first?.title == "WhatsApp was unlinked")
        await #expect(throws: WhatsAppLinks.Problem.notLinked) { try await f.links.saveSession(Data("late".utf8), accountID: f.account.id) }
        try await f.store.shutdown()
    }

    @Test("a disabled account's link is not served", arguments: TestEnvironment.engines)
    func disabledAccount(engine: TestEngine) async throws {
        let f = try await Self.fixture(engine)
        _ = try await f.links.start(phone: "+966501234567", historyDays: nil, accountID: f.account.id)
        var changed = f.account
        changed.disabledAt = Self.t0
        let disabled = changed
        try await f.store.transaction { tx in try await tx.updateAccount(disabled) }
        #expect(try await f.links.bridgeWork().isEmpty)
        try await f.store.shutdown()
    }
}
