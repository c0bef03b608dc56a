import Foundation
import JadwalCore
import SQLKit

extension SQLRepository: AppPasswordStore {
    private static let columns = "id, account_id, name, password_hash, created_at, last_used_at, revoked_at"

    func insertAppPassword(_ password: AppPassword) async throws {
        try await db.raw("""
            INSERT INTO app_passwords (\(unsafeRaw: Self.columns))
            VALUES (\(bind: password.id.uuidString), \(bind: password.accountID.uuidString), \(bind: password.name), \(bind: password.passwordHash),
                    \(bind: password.createdAt.unixMilliseconds), \(bind: password.lastUsedAt?.unixMilliseconds), \(bind: password.revokedAt?.unixMilliseconds))
            """).run()
    }

    func appPasswords(accountID: UUID) async throws -> [AppPassword] {
        try await db.raw("""
            SELECT \(unsafeRaw: Self.columns) FROM app_passwords
            WHERE account_id = \(bind: accountID.uuidString) AND revoked_at IS NULL ORDER BY created_at DESC, id
            """).all().map { row in
                AppPassword(
                    id: try Self.uuid(row, "id"), accountID: try Self.uuid(row, "account_id"), name: try row.decode(column: "name", as: String.self),
                    passwordHash: try row.decode(column: "password_hash", as: String.self), createdAt: try Self.date(row, "created_at"),
                    lastUsedAt: try Self.optionalDate(row, "last_used_at"), revokedAt: try Self.optionalDate(row, "revoked_at")
                )
            }
    }

    func accountWithAppPasswords(email: EmailAddress) async throws -> (Account, [AppPassword])? {
        let accountColumns = Self.accountColumns.split(separator: ",").map { "a." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")
        let rows = try await db.raw("""
            SELECT \(unsafeRaw: accountColumns), p.id AS p_id, p.name AS p_name, p.password_hash AS p_hash,
                   p.created_at AS p_created_at, p.last_used_at AS p_last_used_at
            FROM accounts a LEFT JOIN app_passwords p ON p.account_id = a.id AND p.revoked_at IS NULL
            WHERE a.email = \(bind: email.value) ORDER BY p.created_at DESC, p.id
            """).all()
        guard let first = rows.first else { return nil }
        let account = try Self.account(from: first)
        let passwords = try rows.compactMap { row -> AppPassword? in
            guard try !row.decodeNil(column: "p_id") else { return nil }
            return AppPassword(
                id: try Self.uuid(row, "p_id"), accountID: account.id, name: try row.decode(column: "p_name", as: String.self),
                passwordHash: try row.decode(column: "p_hash", as: String.self), createdAt: try Self.date(row, "p_created_at"),
                lastUsedAt: try Self.optionalDate(row, "p_last_used_at"), revokedAt: nil)
        }
        return (account, passwords)
    }

    func revokeAppPassword(id: UUID, accountID: UUID, at: Date) async throws -> Bool {
        try await db.raw("""
            UPDATE app_passwords SET revoked_at = \(bind: at.unixMilliseconds)
            WHERE id = \(bind: id.uuidString) AND account_id = \(bind: accountID.uuidString) AND revoked_at IS NULL RETURNING id
            """).first() != nil
    }

    func touchAppPassword(id: UUID, at: Date) async throws {
        try await db.raw("UPDATE app_passwords SET last_used_at = \(bind: at.unixMilliseconds) WHERE id = \(bind: id.uuidString)").run()
    }
}
