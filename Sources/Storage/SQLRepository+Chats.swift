import Conversations
import Foundation
import JadwalCore
import SQLKit

extension SQLRepository: ChatStore {
    private static let conversationColumns = """
        id, account_id, source, chat_key, partner_name, is_group, state, proposal, events, awaiting_extraction,
        message_count, last_activity_at, resolved_at, created_at, updated_at, read_after
        """
    private static let messageColumns = "conversation_id, external_id, position, sender, from_me, kind, sent_at, ciphertext, nonce, key_id, created_at"

    // MARK: Settings

    func chatSettings(accountID: UUID) async throws -> ChatSettings {
        guard let row = try await db.raw("""
            SELECT extraction_paused, allow_groups, retention_days, me_name, cloud_api_phone_number_id, event_minutes, whatsapp_history_days FROM chat_settings
            WHERE account_id = \(bind: accountID.uuidString)
            """).first()
        else { return ChatSettings() }
        return ChatSettings(
            extractionPaused: try row.decode(column: "extraction_paused", as: Bool.self), allowGroups: try row.decode(column: "allow_groups", as: Bool.self),
            retentionDays: try row.decode(column: "retention_days", as: Int.self), meName: try row.decode(column: "me_name", as: String?.self),
            cloudAPIPhoneNumberID: try row.decode(column: "cloud_api_phone_number_id", as: String?.self),
            eventMinutes: try row.decode(column: "event_minutes", as: Int.self),
            whatsAppHistoryDays: try row.decode(column: "whatsapp_history_days", as: Int.self))
    }

    func chatAccountID(cloudAPIPhoneNumberID: String) async throws -> UUID? {
        guard let row = try await db.raw("""
            SELECT account_id FROM chat_settings WHERE cloud_api_phone_number_id = \(bind: cloudAPIPhoneNumberID)
            """).first()
        else { return nil }
        return try Self.uuid(row, "account_id")
    }

    func saveChatSettings(_ settings: ChatSettings, accountID: UUID, at: Date) async throws {
        try await db.raw("""
            INSERT INTO chat_settings (account_id, extraction_paused, allow_groups, retention_days, me_name, cloud_api_phone_number_id, event_minutes, whatsapp_history_days, updated_at)
            VALUES (\(bind: accountID.uuidString), \(bind: settings.extractionPaused), \(bind: settings.allowGroups), \(bind: settings.retentionDays),
                    \(bind: settings.meName), \(bind: settings.cloudAPIPhoneNumberID), \(bind: settings.eventMinutes),
                    \(bind: settings.whatsAppHistoryDays), \(bind: at.unixMilliseconds))
            ON CONFLICT (account_id) DO UPDATE SET
                extraction_paused = excluded.extraction_paused, allow_groups = excluded.allow_groups, retention_days = excluded.retention_days,
                me_name = excluded.me_name, cloud_api_phone_number_id = excluded.cloud_api_phone_number_id, event_minutes = excluded.event_minutes,
                whatsapp_history_days = excluded.whatsapp_history_days, updated_at = excluded.updated_at
            """).run()
    }

    // MARK: Conversations

    func lockChatConversation(_ candidate: ChatConversation) async throws -> ChatConversation {
        let values = try Self.conversationValues(candidate)
        try await db.raw("""
            INSERT INTO chat_conversations (\(unsafeRaw: Self.conversationColumns))
            VALUES (\(values))
            ON CONFLICT (account_id, source, chat_key) DO NOTHING
            """).run()
        // PostgreSQL: the row lock makes a concurrent delivery to the same chat wait for this
        // transaction. SQLite: the write transaction already serialises writers.
        let lock = engine == .postgres ? "FOR UPDATE" : ""
        guard let row = try await db.raw("""
            SELECT \(unsafeRaw: Self.conversationColumns) FROM chat_conversations
            WHERE account_id = \(bind: candidate.accountID.uuidString) AND source = \(bind: candidate.source.rawValue)
              AND chat_key = \(bind: candidate.chatKey) \(unsafeRaw: lock)
            """).first()
        else { throw StorageError.corruptRow("chat conversation \(candidate.chatKey) vanished while being created") }
        return try Self.conversation(from: row)
    }

    func lockExistingChatConversation(accountID: UUID, source: ChatSource, chatKey: String) async throws -> ChatConversation? {
        let lock = engine == .postgres ? "FOR UPDATE" : ""
        return try await db.raw("""
            SELECT \(unsafeRaw: Self.conversationColumns) FROM chat_conversations
            WHERE account_id = \(bind: accountID.uuidString) AND source = \(bind: source.rawValue) AND chat_key = \(bind: chatKey) \(unsafeRaw: lock)
            """).first().map(Self.conversation(from:))
    }

    func chatConversation(id: UUID, accountID: UUID) async throws -> ChatConversation? {
        try await db.raw("""
            SELECT \(unsafeRaw: Self.conversationColumns) FROM chat_conversations
            WHERE id = \(bind: id.uuidString) AND account_id = \(bind: accountID.uuidString)
            """).first().map(Self.conversation(from:))
    }

    func chatConversations(accountID: UUID) async throws -> [ChatConversation] {
        try await db.raw("""
            SELECT \(unsafeRaw: Self.conversationColumns) FROM chat_conversations
            WHERE account_id = \(bind: accountID.uuidString) ORDER BY last_activity_at DESC, id
            """).all().map(Self.conversation(from:))
    }

    func chatConversationsAwaitingExtraction(accountID: UUID) async throws -> [ChatConversation] {
        let lock = engine == .postgres ? "FOR UPDATE" : ""
        return try await db.raw("""
            SELECT \(unsafeRaw: Self.conversationColumns) FROM chat_conversations
            WHERE account_id = \(bind: accountID.uuidString) AND awaiting_extraction ORDER BY last_activity_at, id \(unsafeRaw: lock)
            """).all().map(Self.conversation(from:))
    }

    func updateChatConversation(_ conversation: ChatConversation) async throws {
        try await db.raw("""
            UPDATE chat_conversations SET
                partner_name = \(bind: conversation.partnerName), is_group = \(bind: conversation.isGroup), state = \(bind: conversation.state.rawValue),
                proposal = \(bind: try Self.optionalJSON(conversation.proposal)), events = \(bind: try Self.json(conversation.events)),
                awaiting_extraction = \(bind: conversation.awaitingExtraction),
                message_count = \(bind: conversation.messageCount), last_activity_at = \(bind: conversation.lastActivityAt.unixMilliseconds),
                resolved_at = \(bind: conversation.resolvedAt?.unixMilliseconds), updated_at = \(bind: conversation.updatedAt.unixMilliseconds),
                read_after = \(bind: conversation.readAfter?.unixMilliseconds)
            WHERE id = \(bind: conversation.id.uuidString) AND account_id = \(bind: conversation.accountID.uuidString)
            """).run()
    }

    func deleteChatConversation(id: UUID, accountID: UUID) async throws -> Bool {
        try await db.raw("""
            DELETE FROM chat_conversations WHERE id = \(bind: id.uuidString) AND account_id = \(bind: accountID.uuidString) RETURNING id
            """).first() != nil
    }

    private static func conversationValues(_ c: ChatConversation) throws -> SQLQueryString {
        """
        \(bind: c.id.uuidString), \(bind: c.accountID.uuidString), \(bind: c.source.rawValue), \(bind: c.chatKey), \(bind: c.partnerName),
        \(bind: c.isGroup), \(bind: c.state.rawValue), \(bind: try optionalJSON(c.proposal)), \(bind: try json(c.events)),
        \(bind: c.awaitingExtraction), \(bind: c.messageCount),
        \(bind: c.lastActivityAt.unixMilliseconds), \(bind: c.resolvedAt?.unixMilliseconds), \(bind: c.createdAt.unixMilliseconds),
        \(bind: c.updatedAt.unixMilliseconds), \(bind: c.readAfter?.unixMilliseconds)
        """
    }

    private static func conversation(from row: any SQLRow) throws -> ChatConversation {
        let id = try uuid(row, "id")
        let source = try row.decode(column: "source", as: String.self)
        let state = try row.decode(column: "state", as: String.self)
        guard let parsedSource = ChatSource(rawValue: source), let parsedState = ConversationState(rawValue: state) else {
            throw StorageError.corruptRow("chat conversation \(id): source \(source), state \(state)")
        }
        let proposal = try row.decode(column: "proposal", as: String?.self)
        return ChatConversation(
            id: id, accountID: try uuid(row, "account_id"), source: parsedSource, chatKey: try row.decode(column: "chat_key", as: String.self),
            partnerName: try row.decode(column: "partner_name", as: String.self), isGroup: try row.decode(column: "is_group", as: Bool.self),
            state: parsedState, proposal: try proposal.map { try decodeJSON(ChatPlan.self, $0, what: "plan of chat conversation \(id)") },
            events: try decodeJSON([ChatEventLink].self, try row.decode(column: "events", as: String.self), what: "events of chat conversation \(id)"),
            awaitingExtraction: try row.decode(column: "awaiting_extraction", as: Bool.self),
            messageCount: try row.decode(column: "message_count", as: Int64.self), lastActivityAt: try date(row, "last_activity_at"),
            resolvedAt: try optionalDate(row, "resolved_at"), createdAt: try date(row, "created_at"), updatedAt: try date(row, "updated_at"),
            readAfter: try optionalDate(row, "read_after"))
    }

    // MARK: Messages

    func insertChatMessages(_ messages: [ChatMessageRecord]) async throws -> Set<String> {
        guard !messages.isEmpty else { return [] }
        // One statement for many rows: a 100,000-line export is a few hundred statements.
        var query: SQLQueryString = "INSERT INTO chat_messages (\(unsafeRaw: Self.messageColumns)) VALUES "
        for (index, m) in messages.enumerated() {
            if index > 0 { query += ", " }
            query += """
                (\(bind: m.conversationID.uuidString), \(bind: m.externalID), \(bind: m.position), \(bind: m.sender), \(bind: m.fromMe),
                 \(bind: m.kind.rawValue), \(bind: m.sentAt.unixMilliseconds), \(bind: m.sealedText?.ciphertext.base64EncodedString()),
                 \(bind: m.sealedText?.nonce.base64EncodedString()), \(bind: m.sealedText?.keyID), \(bind: m.createdAt.unixMilliseconds))
                """
        }
        query += " ON CONFLICT (conversation_id, external_id) DO NOTHING RETURNING external_id"
        return Set(try await db.raw(query).all().map { try $0.decode(column: "external_id", as: String.self) })
    }

    func storedChatMessageIDs(conversationID: UUID, among externalIDs: [String]) async throws -> Set<String> {
        guard !externalIDs.isEmpty else { return [] }
        var query: SQLQueryString = """
            SELECT external_id FROM chat_messages WHERE conversation_id = \(bind: conversationID.uuidString) AND external_id IN (
            """
        for (index, id) in externalIDs.enumerated() {
            query += index > 0 ? ", \(bind: id)" : "\(bind: id)"
        }
        query += ")"
        return Set(try await db.raw(query).all().map { try $0.decode(column: "external_id", as: String.self) })
    }

    func chatMessage(conversationID: UUID, externalID: String) async throws -> ChatMessageRecord? {
        try await db.raw("""
            SELECT \(unsafeRaw: Self.messageColumns) FROM chat_messages
            WHERE conversation_id = \(bind: conversationID.uuidString) AND external_id = \(bind: externalID)
            """).first().map(Self.message(from:))
    }

    func deleteChatMessages(conversationID: UUID, externalID: String, editPrefix: String) async throws -> [ChatMessageRecord] {
        // The prefix is compared with substr, not LIKE: an id may hold % or _.
        let length = editPrefix.unicodeScalars.count  // both engines count code points
        return try await db.raw("""
            DELETE FROM chat_messages WHERE conversation_id = \(bind: conversationID.uuidString)
              AND (external_id = \(bind: externalID)
                   OR (length(external_id) > CAST(\(bind: length) AS INTEGER) AND substr(external_id, 1, CAST(\(bind: length) AS INTEGER)) = \(bind: editPrefix)))
            RETURNING \(unsafeRaw: Self.messageColumns)
            """).all().map(Self.message(from:))
    }

    func heldChatMessages(conversationID: UUID) async throws -> [ChatMessageRecord] {
        try await db.raw("""
            SELECT \(unsafeRaw: Self.messageColumns) FROM chat_messages
            WHERE conversation_id = \(bind: conversationID.uuidString) AND ciphertext IS NOT NULL ORDER BY sent_at, position
            """).all().map(Self.message(from:))
    }

    func chatMessageCounts(conversationID: UUID) async throws -> (stored: Int, holdingText: Int) {
        guard let row = try await db.raw("""
            SELECT COUNT(*) AS stored, COUNT(ciphertext) AS holding FROM chat_messages WHERE conversation_id = \(bind: conversationID.uuidString)
            """).first()
        else { return (0, 0) }
        return (try row.decode(column: "stored", as: Int.self), try row.decode(column: "holding", as: Int.self))
    }

    func forgetChatMessageText(conversationID: UUID) async throws -> Int {
        try await db.raw("""
            UPDATE chat_messages SET ciphertext = NULL, nonce = NULL, key_id = NULL
            WHERE conversation_id = \(bind: conversationID.uuidString) AND ciphertext IS NOT NULL RETURNING external_id
            """).all().count
    }

    func forgetExpiredChatMessageText(now: Date) async throws -> Int {
        let day: Int64 = 86_400_000
        let nowMs = now.unixMilliseconds
        // The first bound (the shortest retention there can be) lets the index on held messages'
        // age skip everything younger; the second applies each account's own period.
        return try await db.raw("""
            UPDATE chat_messages SET ciphertext = NULL, nonce = NULL, key_id = NULL
            WHERE ciphertext IS NOT NULL
              AND sent_at < \(bind: nowMs - day * Int64(ChatSettings.retentionLimit.lowerBound))
              AND sent_at < \(bind: nowMs) - \(bind: day) * COALESCE((
                  SELECT s.retention_days FROM chat_conversations c JOIN chat_settings s ON s.account_id = c.account_id
                  WHERE c.id = chat_messages.conversation_id), \(bind: ChatSettings.defaultRetentionDays))
            RETURNING external_id
            """).all().count
    }

    func chatMessageKeyIDs() async throws -> [String] {
        try await db.raw("SELECT DISTINCT key_id FROM chat_messages WHERE ciphertext IS NOT NULL AND key_id IS NOT NULL")
            .all().map { try $0.decode(column: "key_id", as: String.self) }
    }

    private static func message(from row: any SQLRow) throws -> ChatMessageRecord {
        let conversationID = try uuid(row, "conversation_id")
        let externalID = try row.decode(column: "external_id", as: String.self)
        let kind = try row.decode(column: "kind", as: String.self)
        guard let parsedKind = ChatMessage.Kind(rawValue: kind) else { throw StorageError.corruptRow("chat message kind \(kind)") }
        var sealed: SealedText?
        if let ciphertext = try row.decode(column: "ciphertext", as: String?.self) {
            guard let data = Data(base64Encoded: ciphertext), let nonce = try row.decode(column: "nonce", as: String?.self).flatMap({ Data(base64Encoded: $0) }),
                  let keyID = try row.decode(column: "key_id", as: String?.self)
            else { throw StorageError.corruptRow("sealed text of chat message \(externalID) in \(conversationID)") }
            sealed = SealedText(ciphertext: data, nonce: nonce, keyID: keyID)
        }
        return ChatMessageRecord(
            conversationID: conversationID, externalID: externalID, position: try row.decode(column: "position", as: Int64.self),
            sender: try row.decode(column: "sender", as: String?.self), fromMe: try row.decode(column: "from_me", as: Bool.self), kind: parsedKind,
            sentAt: try date(row, "sent_at"), sealedText: sealed, createdAt: try date(row, "created_at"))
    }

    // MARK: JSON columns

    private static func optionalJSON<T: Encodable>(_ value: T?) throws -> String? {
        try value.map { try json($0) }
    }

    private static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    private static func decodeJSON<T: Decodable>(_ type: T.Type, _ text: String, what: String) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        do {
            return try decoder.decode(type, from: Data(text.utf8))
        } catch {
            throw StorageError.corruptRow("\(what): \(error)")
        }
    }
}

extension SQLRepository: ChatConnectorTokenStore {
    private static let tokenColumns = "id, token_digest, account_id, name, created_at, last_used_at, revoked_at"

    func insertChatConnectorToken(_ token: ChatConnectorToken) async throws {
        try await db.raw("""
            INSERT INTO chat_connector_tokens (\(unsafeRaw: Self.tokenColumns))
            VALUES (\(bind: token.id.uuidString), \(bind: token.digest.hex), \(bind: token.accountID.uuidString), \(bind: token.name),
                    \(bind: token.createdAt.unixMilliseconds), \(bind: token.lastUsedAt?.unixMilliseconds), \(bind: token.revokedAt?.unixMilliseconds))
            """).run()
    }

    func chatConnectorTokens(accountID: UUID) async throws -> [ChatConnectorToken] {
        try await db.raw("""
            SELECT \(unsafeRaw: Self.tokenColumns) FROM chat_connector_tokens
            WHERE account_id = \(bind: accountID.uuidString) AND revoked_at IS NULL ORDER BY created_at DESC, id
            """).all().map { row in
                ChatConnectorToken(
                    id: try Self.uuid(row, "id"), accountID: try Self.uuid(row, "account_id"), name: try row.decode(column: "name", as: String.self),
                    digest: TokenDigest(hex: try row.decode(column: "token_digest", as: String.self)), createdAt: try Self.date(row, "created_at"),
                    lastUsedAt: try Self.optionalDate(row, "last_used_at"), revokedAt: try Self.optionalDate(row, "revoked_at"))
            }
    }

    func chatConnectorToken(digest: TokenDigest) async throws -> (ChatConnectorToken, Account)? {
        let accountColumns = Self.accountColumns.split(separator: ",").map { "a." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")
        guard let row = try await db.raw("""
            SELECT \(unsafeRaw: accountColumns), t.id AS t_id, t.name AS t_name, t.created_at AS t_created_at, t.last_used_at AS t_last_used_at
            FROM chat_connector_tokens t JOIN accounts a ON a.id = t.account_id
            WHERE t.token_digest = \(bind: digest.hex) AND t.revoked_at IS NULL
            """).first()
        else { return nil }
        let account = try Self.account(from: row)
        let token = ChatConnectorToken(
            id: try Self.uuid(row, "t_id"), accountID: account.id, name: try row.decode(column: "t_name", as: String.self), digest: digest,
            createdAt: try Self.date(row, "t_created_at"), lastUsedAt: try Self.optionalDate(row, "t_last_used_at"))
        return (token, account)
    }

    func revokeChatConnectorToken(id: UUID, accountID: UUID, at: Date) async throws -> Bool {
        try await db.raw("""
            UPDATE chat_connector_tokens SET revoked_at = \(bind: at.unixMilliseconds)
            WHERE id = \(bind: id.uuidString) AND account_id = \(bind: accountID.uuidString) AND revoked_at IS NULL RETURNING id
            """).first() != nil
    }

    func revokeChatConnectorTokens(accountID: UUID, at: Date) async throws -> Int {
        try await db.raw("""
            UPDATE chat_connector_tokens SET revoked_at = \(bind: at.unixMilliseconds)
            WHERE account_id = \(bind: accountID.uuidString) AND revoked_at IS NULL RETURNING id
            """).all().count
    }

    func touchChatConnectorToken(id: UUID, at: Date) async throws {
        try await db.raw("UPDATE chat_connector_tokens SET last_used_at = \(bind: at.unixMilliseconds) WHERE id = \(bind: id.uuidString)").run()
    }
}

extension SQLRepository: ChatFailureStore {
    func insertChatExtractionFailure(_ f: ChatExtractionFailure) async throws {
        try await db.raw("""
            INSERT INTO chat_extraction_failures (id, account_id, conversation_id, source, reason, summary, occurred_at)
            VALUES (\(bind: f.id.uuidString), \(bind: f.accountID.uuidString), \(bind: f.conversationID.uuidString), \(bind: f.source.rawValue),
                    \(bind: f.reason), \(bind: f.summary), \(bind: f.occurredAt.unixMilliseconds))
            """).run()
    }

    func chatExtractionFailures(since: Date?, limit: Int) async throws -> [ChatExtractionFailure] {
        try await db.raw("""
            SELECT id, account_id, conversation_id, source, reason, summary, occurred_at FROM chat_extraction_failures
            WHERE occurred_at >= \(bind: since?.unixMilliseconds ?? Int64.min) ORDER BY occurred_at DESC, id LIMIT \(bind: limit)
            """).all().map { row in
            let source = try row.decode(column: "source", as: String.self)
            guard let parsed = ChatSource(rawValue: source) else { throw StorageError.corruptRow("chat extraction failure source \(source)") }
            return ChatExtractionFailure(
                id: try Self.uuid(row, "id"), accountID: try Self.uuid(row, "account_id"), conversationID: try Self.uuid(row, "conversation_id"),
                source: parsed, reason: try row.decode(column: "reason", as: String.self), summary: try row.decode(column: "summary", as: String.self),
                occurredAt: try Self.date(row, "occurred_at"))
        }
    }

    func forgetExpiredChatExtractionFailures(now: Date) async throws -> Int {
        let day: Int64 = 86_400_000
        return try await db.raw("""
            DELETE FROM chat_extraction_failures
            WHERE occurred_at < \(bind: now.unixMilliseconds) - \(bind: day) * COALESCE((
                SELECT s.retention_days FROM chat_settings s WHERE s.account_id = chat_extraction_failures.account_id),
                \(bind: ChatSettings.defaultRetentionDays))
            RETURNING id
            """).all().count
    }
}
