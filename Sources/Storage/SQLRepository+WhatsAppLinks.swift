import Foundation
import JadwalCore
import SQLKit

extension SQLRepository: WhatsAppLinkStore {
    private static let linkColumns =
        "account_id, attempt, phone, state, reason, code, expires_at, jid, history_days, session_ciphertext, session_nonce, session_key_id, created_at, updated_at, qr"

    func whatsAppLink(accountID: UUID) async throws -> WhatsAppLink? {
        try await db.raw("SELECT \(unsafeRaw: Self.linkColumns) FROM whatsapp_links WHERE account_id = \(bind: accountID.uuidString)")
            .first().map(Self.link(from:))
    }

    func saveWhatsAppLink(_ link: WhatsAppLink) async throws {
        try await db.raw("""
            INSERT INTO whatsapp_links (\(unsafeRaw: Self.linkColumns))
            VALUES (\(bind: link.accountID.uuidString), \(bind: link.attempt.uuidString), \(bind: link.phone), \(bind: link.state.rawValue),
                    \(bind: link.reason), \(bind: link.code), \(bind: link.expiresAt.unixMilliseconds), \(bind: link.jid), \(bind: link.historyDays),
                    \(bind: link.session?.ciphertext.base64EncodedString()), \(bind: link.session?.nonce.base64EncodedString()),
                    \(bind: link.session?.keyID), \(bind: link.createdAt.unixMilliseconds), \(bind: link.updatedAt.unixMilliseconds), \(bind: link.qr))
            ON CONFLICT (account_id) DO UPDATE SET
                attempt = excluded.attempt, phone = excluded.phone, state = excluded.state, reason = excluded.reason, code = excluded.code,
                expires_at = excluded.expires_at, jid = excluded.jid, history_days = excluded.history_days,
                session_ciphertext = excluded.session_ciphertext, session_nonce = excluded.session_nonce,
                session_key_id = excluded.session_key_id, updated_at = excluded.updated_at, qr = excluded.qr
            """).run()
    }

    func whatsAppLinks(in states: [WhatsAppLink.State]) async throws -> [WhatsAppLink] {
        guard !states.isEmpty else { return [] }
        let columns = Self.linkColumns.split(separator: ",").map { "w." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")
        let list = SQLList(states.map { SQLBind($0.rawValue) })
        return try await db.raw("""
            SELECT \(unsafeRaw: columns) FROM whatsapp_links w JOIN accounts a ON a.id = w.account_id
            WHERE w.state IN (\(list)) AND a.disabled_at IS NULL ORDER BY w.created_at, w.account_id
            """).all().map(Self.link(from:))
    }

    func whatsAppSessionKeyIDs() async throws -> [String] {
        try await db.raw("SELECT DISTINCT session_key_id FROM whatsapp_links WHERE session_key_id IS NOT NULL")
            .all().map { try $0.decode(column: "session_key_id", as: String.self) }
    }

    private static func link(from row: any SQLRow) throws -> WhatsAppLink {
        let accountID = try uuid(row, "account_id")
        let stateText = try row.decode(column: "state", as: String.self)
        guard let state = WhatsAppLink.State(rawValue: stateText) else { throw StorageError.corruptRow("WhatsApp link state \(stateText)") }
        var session: SealedText?
        if let ciphertext = try row.decode(column: "session_ciphertext", as: String?.self) {
            guard let data = Data(base64Encoded: ciphertext),
                  let nonce = try row.decode(column: "session_nonce", as: String?.self).flatMap({ Data(base64Encoded: $0) }),
                  let keyID = try row.decode(column: "session_key_id", as: String?.self)
            else { throw StorageError.corruptRow("sealed WhatsApp session of account \(accountID)") }
            session = SealedText(ciphertext: data, nonce: nonce, keyID: keyID)
        }
        return WhatsAppLink(
            accountID: accountID, attempt: try uuid(row, "attempt"), phone: try row.decode(column: "phone", as: String.self), state: state,
            reason: try row.decode(column: "reason", as: String?.self), code: try row.decode(column: "code", as: String?.self),
            expiresAt: try date(row, "expires_at"), jid: try row.decode(column: "jid", as: String?.self),
            historyDays: try row.decode(column: "history_days", as: Int.self), session: session, createdAt: try date(row, "created_at"),
            updatedAt: try date(row, "updated_at"), qr: try row.decode(column: "qr", as: String?.self))
    }
}
