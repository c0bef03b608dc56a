import Conversations
import Crypto
import Foundation
import JadwalCore
import JadwalTestSupport
import SQLKit
@testable import Storage
import Testing

@Suite("Chats in storage on every engine")
struct ChatStorageTests {
    static let t0 = Date(timeIntervalSince1970: 1_790_000_000)
    static let cipher = MessageCipher(key: SymmetricKey(data: Data(repeating: 3, count: 32)))

    static func account(_ store: SQLStore, _ email: String) async throws -> Account {
        let account = Account(id: UUID(), email: try EmailAddress(email), name: "Omar", timeZone: "Asia/Riyadh", language: .english, createdAt: t0)
        try await store.transaction { tx in try await tx.insertAccountWithDefaultCalendars(account, now: t0, random: .system) }
        return account
    }

    static func candidate(_ account: Account, key: String = "966500000001@c.us") -> ChatConversation {
        ChatConversation(
            id: UUID(), accountID: account.id, source: .connector, chatKey: key, partnerName: "Sara", isGroup: false, lastActivityAt: t0,
            createdAt: t0, updatedAt: t0)
    }

    static func record(_ conversation: ChatConversation, _ id: String, _ text: String?, at: Date = t0, position: Int64 = 0) -> ChatMessageRecord {
        ChatMessageRecord(
            conversationID: conversation.id, externalID: id, position: position, sender: "Sara", fromMe: false, kind: .text, sentAt: at,
            sealedText: text.map { cipher.seal($0, conversationID: conversation.id, messageID: id) }, createdAt: t0)
    }

    /// Raw rows, as someone with a copy of the database would see them.
    static func raw(_ store: SQLStore, _ sql: String) async throws -> [any SQLRow] {
        try await store.read { tx in
            guard let repository = tx as? SQLRepository else { throw TestSetupError("not the SQL store") }
            return try await repository.db.raw(SQLQueryString(sql)).all()
        }
    }

    @Test("a conversation is created once per chat, saved and read back whole, and deleted with its messages", arguments: TestEnvironment.engines)
    func conversations(engine: TestEngine) async throws {
        let store = try await TestEnvironment.freshStore(engine)
        let account = try await Self.account(store, "omar@example.com")
        let first = try await store.transaction { tx in try await tx.lockChatConversation(Self.candidate(account)) }
        let again = try await store.transaction { tx in try await tx.lockChatConversation(Self.candidate(account)) }
        #expect(again.id == first.id && again == first)

        var updated = first
        updated.state = .agreed
        updated.proposal = ChatPlan(ExtractedEvent(title: "Dinner", start: Conversations.LocalDateTime(year: 2026, month: 9, day: 22, hour: 20), location: "Nando's"))
        let link = ChatEventLink(uid: "chat-x@jadwal", objectName: "chat-x.ics", calendarID: UUID(), plan: updated.proposal!, createdAt: Self.t0, updatedAt: Self.t0)
        updated.events = [link]
        updated.messageCount = 7
        updated.resolvedAt = Self.t0 + 5
        updated.lastActivityAt = Self.t0 + 4
        updated.updatedAt = Self.t0 + 5
        let saved = updated
        try await store.transaction { tx in try await tx.updateChatConversation(saved) }
        let read = try await store.read { tx in try await tx.chatConversation(id: first.id, accountID: account.id) }
        #expect(read == updated)

        let other = try await Self.account(store, "sara@example.com")
        #expect(try await store.read { tx in try await tx.chatConversation(id: first.id, accountID: other.id) } == nil, "another account's chat")
        let second = try await store.transaction { tx in try await tx.lockChatConversation(Self.candidate(account, key: "966500000002@c.us")) }
        #expect(try await store.read { tx in try await tx.chatConversations(accountID: account.id) }.map(\.id) == [first.id, second.id])

        _ = try await store.transaction { tx in try await tx.insertChatMessages([Self.record(first, "m1", "hi")]) }
        #expect(try await store.transaction { tx in try await tx.deleteChatConversation(id: first.id, accountID: other.id) } == false)
        #expect(try await store.transaction { tx in try await tx.deleteChatConversation(id: first.id, accountID: account.id) })
        #expect(try await Self.raw(store, "SELECT external_id FROM chat_messages").isEmpty, "its messages went with it")
        try await store.shutdown()
    }

    @Test("a message is stored once; its text is encrypted, read back in order, and forgotten on request", arguments: TestEnvironment.engines)
    func messages(engine: TestEngine) async throws {
        let store = try await TestEnvironment.freshStore(engine)
        let account = try await Self.account(store, "omar@example.com")
        let conversation = try await store.transaction { tx in try await tx.lockChatConversation(Self.candidate(account)) }
        let batch = [
            Self.record(conversation, "m2", "Deal 👍, see you at Nando's", at: Self.t0 + 60, position: 1),
            Self.record(conversation, "m1", "Dinner tomorrow at 8pm?", position: 0),
            Self.record(conversation, "m3", "same minute, later line", at: Self.t0 + 60, position: 2),
        ]
        #expect(try await store.transaction { tx in try await tx.insertChatMessages(batch) } == ["m1", "m2", "m3"])
        #expect(try await store.transaction { tx in try await tx.insertChatMessages([batch[0], Self.record(conversation, "m4", "new", at: Self.t0 + 120, position: 3)]) } == ["m4"])
        #expect(try await store.read { tx in try await tx.storedChatMessageIDs(conversationID: conversation.id, among: ["m4", "m9", "m1"]) } == ["m1", "m4"])
        #expect(try await store.read { tx in try await tx.storedChatMessageIDs(conversationID: conversation.id, among: []) }.isEmpty)
        let held = try await store.read { tx in try await tx.heldChatMessages(conversationID: conversation.id) }
        #expect(held.map(\.externalID) == ["m1", "m2", "m3", "m4"])
        #expect(held[1] == batch[0])
        #expect(try Self.cipher.open(try #require(held[1].sealedText), conversationID: conversation.id, messageID: "m2") == "Deal 👍, see you at Nando's")

        // What a copy of the database shows: no words.
        for row in try await Self.raw(store, "SELECT ciphertext, nonce, key_id FROM chat_messages") {
            let stored = try row.decode(column: "ciphertext", as: String.self)
            #expect(!stored.contains("Nando") && !stored.contains("Dinner"))
            #expect(try row.decode(column: "key_id", as: String.self) == Self.cipher.keyID)
        }
        #expect(try await store.read { tx in try await tx.chatMessageKeyIDs() } == [Self.cipher.keyID])
        #expect(try await store.read { tx in try await tx.chatMessageCounts(conversationID: conversation.id) } == (4, 4))
        #expect(try await store.transaction { tx in try await tx.forgetChatMessageText(conversationID: conversation.id) } == 4)
        #expect(try await store.read { tx in try await tx.chatMessageCounts(conversationID: conversation.id) } == (4, 0))
        #expect(try await store.read { tx in try await tx.heldChatMessages(conversationID: conversation.id) }.isEmpty)
        #expect(try await store.read { tx in try await tx.chatMessageKeyIDs() }.isEmpty)
        #expect(try await store.transaction { tx in try await tx.insertChatMessages(batch) }.isEmpty, "forgotten messages are still known")
        #expect(try await store.read { tx in try await tx.storedChatMessageIDs(conversationID: conversation.id, among: ["m2"]) } == ["m2"])
        _ = try await store.transaction { tx in try await tx.insertChatMessages([Self.record(conversation, "m5", "Nando's again")]) }
        try await store.shutdown()
        if case .sqlite(let path) = store.location {
            for file in [path, path + "-wal"] {
                let bytes = FileManager.default.contents(atPath: file) ?? Data()
                #expect(bytes.range(of: Data("Nando".utf8)) == nil, "\(file) holds the words")
            }
        }
    }

    @Test("text is forgotten after each account's retention period", arguments: TestEnvironment.engines)
    func retention(engine: TestEngine) async throws {
        let store = try await TestEnvironment.freshStore(engine)
        let omar = try await Self.account(store, "omar@example.com")
        let sara = try await Self.account(store, "sara@example.com")
        try await store.transaction { tx in try await tx.saveChatSettings(ChatSettings(retentionDays: 3), accountID: sara.id, at: Self.t0) }
        let day: TimeInterval = 86_400
        let omarChat = try await store.transaction { tx in try await tx.lockChatConversation(Self.candidate(omar)) }
        let saraChat = try await store.transaction { tx in try await tx.lockChatConversation(Self.candidate(sara)) }
        _ = try await store.transaction { tx in
            _ = try await tx.insertChatMessages([
                Self.record(omarChat, "old", "15 days ago", at: Self.t0 - 15 * day), Self.record(omarChat, "recent", "4 days ago", at: Self.t0 - 4 * day),
            ])
            return try await tx.insertChatMessages([
                Self.record(saraChat, "old", "4 days ago", at: Self.t0 - 4 * day), Self.record(saraChat, "recent", "2 days ago", at: Self.t0 - 2 * day),
            ])
        }
        #expect(try await store.transaction { tx in try await tx.forgetExpiredChatMessageText(now: Self.t0) } == 2)
        #expect(try await store.read { tx in try await tx.heldChatMessages(conversationID: omarChat.id) }.map(\.externalID) == ["recent"])
        #expect(try await store.read { tx in try await tx.heldChatMessages(conversationID: saraChat.id) }.map(\.externalID) == ["recent"])
        #expect(try await store.transaction { tx in try await tx.forgetExpiredChatMessageText(now: Self.t0) } == 0)
        try await store.shutdown()
    }

    @Test("chat settings default, change and read back; connector tokens are found by digest until revoked", arguments: TestEnvironment.engines)
    func settingsAndTokens(engine: TestEngine) async throws {
        let store = try await TestEnvironment.freshStore(engine)
        let account = try await Self.account(store, "omar@example.com")
        #expect(try await store.read { tx in try await tx.chatSettings(accountID: account.id) } == ChatSettings())
        let changed = ChatSettings(extractionPaused: true, allowGroups: true, retentionDays: 30, meName: "عمر")
        try await store.transaction { tx in try await tx.saveChatSettings(changed, accountID: account.id, at: Self.t0) }
        try await store.transaction { tx in try await tx.saveChatSettings(changed, accountID: account.id, at: Self.t0 + 1) }
        #expect(try await store.read { tx in try await tx.chatSettings(accountID: account.id) } == changed)

        let secret = ChatConnectorToken.newSecret(random: .system)
        #expect(secret.hasPrefix("jadwal_ct_") && secret.count > 40)
        let token = ChatConnectorToken(id: UUID(), accountID: account.id, name: "laptop bridge", digest: TokenDigest(of: secret), createdAt: Self.t0)
        try await store.transaction { tx in try await tx.insertChatConnectorToken(token) }
        let found = try await store.read { tx in try await tx.chatConnectorToken(digest: TokenDigest(of: secret)) }
        #expect(found?.0 == token && found?.1 == account)
        #expect(try await Self.raw(store, "SELECT token_digest FROM chat_connector_tokens").first?.decode(column: "token_digest", as: String.self) == secret.sha256Hex)
        try await store.transaction { tx in try await tx.touchChatConnectorToken(id: token.id, at: Self.t0 + 9) }
        #expect(try await store.read { tx in try await tx.chatConnectorTokens(accountID: account.id) }.map(\.lastUsedAt) == [Self.t0 + 9])
        #expect(try await store.transaction { tx in try await tx.revokeChatConnectorToken(id: token.id, accountID: UUID(), at: Self.t0) } == false)
        #expect(try await store.transaction { tx in try await tx.revokeChatConnectorToken(id: token.id, accountID: account.id, at: Self.t0) })
        #expect(try await store.read { tx in try await tx.chatConnectorToken(digest: TokenDigest(of: secret)) } == nil)
        #expect(try await store.read { tx in try await tx.chatConnectorTokens(accountID: account.id) }.isEmpty)
        try await store.shutdown()
    }
}
