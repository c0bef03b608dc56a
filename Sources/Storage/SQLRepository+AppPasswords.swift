import Foundation
import JadwalCore
import SQLKit

extension SQLRepository: AppPasswordStore {
    private static let columns = "id, account_id, name, password_hash, lookup_id, created_at, last_used_at, revoked_at"

    func insertAppPassword(_ password: AppPassword) async throws {
        try await db.raw("""
            INSERT INTO app_passwords (\(unsafeRaw: Self.columns))
            VALUES (\(bind: password.id.uuidString), \(bind: password.accountID.uuidString), \(bind: password.name), \(bind: password.passwordHash),
                    \(bind: password.lookupID),
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
                    passwordHash: try row.decode(column: "password_hash", as: String.self), lookupID: try row.decode(column: "lookup_id", as: String?.self),
                    createdAt: try Self.date(row, "created_at"),
                    lastUsedAt: try Self.optionalDate(row, "last_used_at"), revokedAt: try Self.optionalDate(row, "revoked_at")
                )
            }
    }

    func accountWithAppPasswords(email: EmailAddress) async throws -> (Account, [AppPassword])? {
        let accountColumns = Self.accountColumns.split(separator: ",").map { "a." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")
        let rows = try await db.raw("""
            SELECT \(unsafeRaw: accountColumns), p.id AS p_id, p.name AS p_name, p.password_hash AS p_hash, p.lookup_id AS p_lookup_id,
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
                passwordHash: try row.decode(column: "p_hash", as: String.self), lookupID: try row.decode(column: "p_lookup_id", as: String?.self),
                createdAt: try Self.date(row, "p_created_at"),
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

    func revokeAppPasswords(accountID: UUID, at: Date) async throws -> Int {
        try await db.raw("""
            UPDATE app_passwords SET revoked_at = \(bind: at.unixMilliseconds)
            WHERE account_id = \(bind: accountID.uuidString) AND revoked_at IS NULL RETURNING id
            """).all().count
    }

    func touchAppPassword(id: UUID, at: Date) async throws {
        try await db.raw("UPDATE app_passwords SET last_used_at = \(bind: at.unixMilliseconds) WHERE id = \(bind: id.uuidString)").run()
    }
}

extension SQLRepository: SignInFailureStore {
    func signInFailures(keys: [String]) async throws -> [SignInFailures] {
        guard !keys.isEmpty else { return [] }
        return try await db.raw("""
            SELECT throttle_key, failures, last_failure_at FROM sign_in_failures WHERE throttle_key IN (\(binds: keys))
            """).all().map { row in
                SignInFailures(
                    key: try row.decode(column: "throttle_key", as: String.self), failures: try row.decode(column: "failures", as: Int.self),
                    lastFailureAt: try Self.date(row, "last_failure_at"))
            }
    }

    func recordSignInFailure(keys: [String], at: Date, forgetBefore: Date) async throws {
        // One statement per key, so concurrent failures on several instances each count.
        for key in keys {
            try await db.raw("""
                INSERT INTO sign_in_failures (throttle_key, failures, last_failure_at) VALUES (\(bind: key), 1, \(bind: at.unixMilliseconds))
                ON CONFLICT (throttle_key) DO UPDATE SET
                    failures = CASE WHEN sign_in_failures.last_failure_at < \(bind: forgetBefore.unixMilliseconds) THEN 1
                                    ELSE sign_in_failures.failures + 1 END,
                    last_failure_at = excluded.last_failure_at
                """).run()
        }
        try await db.raw("DELETE FROM sign_in_failures WHERE last_failure_at < \(bind: forgetBefore.unixMilliseconds)").run()
    }

    func clearSignInFailures(key: String) async throws {
        try await db.raw("DELETE FROM sign_in_failures WHERE throttle_key = \(bind: key)").run()
    }
}
