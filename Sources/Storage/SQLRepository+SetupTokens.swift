import Foundation
import JadwalCore
import SQLKit

extension SQLRepository: SetupTokenStore {
    func insertSetupToken(_ token: SetupToken) async throws {
        try await db.raw("""
            INSERT INTO setup_tokens (token_digest, kind, account_id, device_name, created_at, expires_at, used_at)
            VALUES (\(bind: token.digest.hex), \(bind: token.kind.rawValue), \(bind: token.accountID.uuidString), \(bind: token.deviceName),
                    \(bind: token.createdAt.unixMilliseconds), \(bind: token.expiresAt.unixMilliseconds), \(bind: token.usedAt?.unixMilliseconds))
            """).run()
    }

    func setupToken(digest: TokenDigest) async throws -> SetupToken? {
        guard let row = try await db.raw("""
            SELECT kind, account_id, device_name, created_at, expires_at, used_at FROM setup_tokens WHERE token_digest = \(bind: digest.hex)
            """).first()
        else { return nil }
        let kind = try row.decode(column: "kind", as: String.self)
        guard let parsed = SetupToken.Kind(rawValue: kind) else { throw StorageError.corruptRow("setup token kind \(kind)") }
        return SetupToken(
            digest: digest, kind: parsed, accountID: try Self.uuid(row, "account_id"), deviceName: try row.decode(column: "device_name", as: String.self),
            createdAt: try Self.date(row, "created_at"), expiresAt: try Self.date(row, "expires_at"), usedAt: try Self.optionalDate(row, "used_at"))
    }

    func markSetupTokenUsed(digest: TokenDigest, at: Date) async throws -> Bool {
        try await db.raw("""
            UPDATE setup_tokens SET used_at = \(bind: at.unixMilliseconds)
            WHERE token_digest = \(bind: digest.hex) AND used_at IS NULL RETURNING token_digest
            """).first() != nil
    }

    func unspentSetupTokens(accountID: UUID, now: Date) async throws -> [SetupToken] {
        try await db.raw("""
            SELECT token_digest, kind, device_name, created_at, expires_at FROM setup_tokens
            WHERE account_id = \(bind: accountID.uuidString) AND used_at IS NULL AND expires_at > \(bind: now.unixMilliseconds)
            ORDER BY created_at DESC, token_digest
            """).all().map { row in
                let kind = try row.decode(column: "kind", as: String.self)
                guard let parsed = SetupToken.Kind(rawValue: kind) else { throw StorageError.corruptRow("setup token kind \(kind)") }
                return SetupToken(
                    digest: TokenDigest(hex: try row.decode(column: "token_digest", as: String.self)), kind: parsed, accountID: accountID,
                    deviceName: try row.decode(column: "device_name", as: String.self), createdAt: try Self.date(row, "created_at"),
                    expiresAt: try Self.date(row, "expires_at"))
            }
    }

    func revokeSetupTokens(accountID: UUID, at: Date) async throws -> Int {
        try await db.raw("""
            UPDATE setup_tokens SET used_at = \(bind: at.unixMilliseconds)
            WHERE account_id = \(bind: accountID.uuidString) AND used_at IS NULL AND expires_at > \(bind: at.unixMilliseconds) RETURNING token_digest
            """).all().count
    }
}
