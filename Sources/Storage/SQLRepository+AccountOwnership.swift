import Foundation
import JadwalCore
import SQLKit

extension SQLRepository: AccountOwnershipStore {
    func firstRun(accountID: UUID) async throws -> FirstRunRecord? {
        guard let row = try await db.raw("SELECT state, finished_at FROM first_runs WHERE account_id = \(bind: accountID.uuidString)").first()
        else { return nil }
        let state = try row.decode(column: "state", as: String.self)
        guard let parsed = FirstRunRecord.State(rawValue: state) else { throw StorageError.corruptRow("first-run state \(state)") }
        return FirstRunRecord(state: parsed, at: try Self.date(row, "finished_at"))
    }

    func saveFirstRun(_ record: FirstRunRecord, accountID: UUID) async throws {
        try await db.raw("""
            INSERT INTO first_runs (account_id, state, finished_at)
            VALUES (\(bind: accountID.uuidString), \(bind: record.state.rawValue), \(bind: record.at.unixMilliseconds))
            ON CONFLICT (account_id) DO UPDATE SET state = excluded.state, finished_at = excluded.finished_at
            """).run()
    }

    func insertAccountLink(_ link: AccountLinkRecord) async throws {
        try await db.raw("""
            INSERT INTO account_links (token_digest, account_id, purpose, new_email, created_at, expires_at, used_at)
            VALUES (\(bind: link.digest.hex), \(bind: link.accountID.uuidString), \(bind: link.purpose.rawValue), \(bind: link.newEmail?.value),
                    \(bind: link.createdAt.unixMilliseconds), \(bind: link.expiresAt.unixMilliseconds), \(bind: link.usedAt?.unixMilliseconds))
            """).run()
    }

    func accountLink(digest: TokenDigest) async throws -> AccountLinkRecord? {
        guard let row = try await db.raw("""
            SELECT account_id, purpose, new_email, created_at, expires_at, used_at FROM account_links WHERE token_digest = \(bind: digest.hex)
            """).first()
        else { return nil }
        let purpose = try row.decode(column: "purpose", as: String.self)
        guard let parsedPurpose = AccountLinkRecord.Purpose(rawValue: purpose) else { throw StorageError.corruptRow("account link purpose \(purpose)") }
        var newEmail: EmailAddress?
        if let text = try row.decode(column: "new_email", as: String?.self) {
            guard let parsed = try? EmailAddress(text) else { throw StorageError.corruptRow("account link address \(text)") }
            newEmail = parsed
        }
        return AccountLinkRecord(
            digest: digest, accountID: try Self.uuid(row, "account_id"), purpose: parsedPurpose, newEmail: newEmail,
            createdAt: try Self.date(row, "created_at"), expiresAt: try Self.date(row, "expires_at"), usedAt: try Self.optionalDate(row, "used_at"))
    }

    func markAccountLinkUsed(digest: TokenDigest, at: Date) async throws -> Bool {
        try await db.raw("""
            UPDATE account_links SET used_at = \(bind: at.unixMilliseconds)
            WHERE token_digest = \(bind: digest.hex) AND used_at IS NULL RETURNING token_digest
            """).first() != nil
    }

    func accountLinkRequests(accountID: UUID, purpose: AccountLinkRecord.Purpose, since: Date) async throws -> [Date] {
        try await db.raw("""
            SELECT created_at FROM account_links
            WHERE account_id = \(bind: accountID.uuidString) AND purpose = \(bind: purpose.rawValue) AND created_at > \(bind: since.unixMilliseconds)
            ORDER BY created_at
            """).all().map { try Self.date($0, "created_at") }
    }

    func forgetEmailAddress(_ email: EmailAddress) async throws {
        try await db.raw("DELETE FROM sign_in_tokens WHERE email = \(bind: email.value)").run()
        try await db.raw("DELETE FROM sign_in_failures WHERE throttle_key = \(bind: SignInThrottle.Keys(account: email.value, clientAddress: nil).account)").run()
        // Shares already answered go with the account (sharee_id); these were never answered.
        try await db.raw("DELETE FROM calendar_shares WHERE sharee_email = \(bind: email.value)").run()
        // Unsealed mail (a welcome) names the address as a JSON string.
        let quoted = String(decoding: try JSONEncoder().encode(email.value), as: UTF8.self)
        try await db.raw("""
            DELETE FROM jobs WHERE state <> 'running' AND \(unsafeRaw: position)(payload, \(bind: quoted)) > 0
            """).run()
        for row in try await db.raw("SELECT account_id FROM busy_time_visibility WHERE audience = 'named'").all() {
            let accountID = try Self.uuid(row, "account_id")
            var visibility = try await busyTimeVisibility(accountID: accountID)
            guard visibility.allowed.contains(email) else { continue }
            visibility.allowed.removeAll { $0 == email }
            try await db.raw("""
                UPDATE busy_time_visibility SET allowed = \(bind: visibility.allowed.map(\.value).joined(separator: "\n"))
                WHERE account_id = \(bind: accountID.uuidString)
                """).run()
        }
    }

    func forgetMentions(of terms: [String]) async throws -> Int {
        var removed = 0
        for term in Set(terms.map { $0.lowercased() }) where !term.isEmpty {
            removed += try await db.raw("""
                DELETE FROM jobs WHERE state <> 'running'
                    AND (\(unsafeRaw: position)(LOWER(COALESCE(subject, '')), \(bind: term)) > 0 OR \(unsafeRaw: position)(LOWER(payload), \(bind: term)) > 0)
                RETURNING id
                """).all().count
            removed += try await db.raw("""
                DELETE FROM notifications
                WHERE \(unsafeRaw: position)(LOWER(reason_key), \(bind: term)) > 0 OR \(unsafeRaw: position)(LOWER(links), \(bind: term)) > 0
                RETURNING id
                """).all().count
        }
        return removed
    }

    func deleteAccount(id: UUID) async throws {
        try await db.raw("DELETE FROM accounts WHERE id = \(bind: id.uuidString)").run()
    }

    /// The engine's "where does this text start in that one" (0: nowhere); no LIKE, whose `_`
    /// and `%` would make an address match others.
    var position: String { engine == .postgres ? "strpos" : "instr" }
}
