import Foundation
import JadwalCore
import SQLKit

extension SQLRepository: CalDAVAccountStore {
    private static let caldavAccountColumns = """
        id, account_id, url, home_url, username, password_ciphertext, password_nonce, password_key_id, remote_calendars, last_attempt_at, \
        last_success_at, next_sync_at, last_error, failures, failure_notified, created_at, sign_in
        """

    func insertCalDAVAccount(_ a: CalDAVAccount) async throws {
        try await db.raw("""
            INSERT INTO caldav_accounts (\(unsafeRaw: Self.caldavAccountColumns))
            VALUES (\(bind: a.id.uuidString), \(bind: a.accountID.uuidString), \(bind: a.url), \(bind: a.homeURL), \(bind: a.username),
                    \(bind: a.password.ciphertext.base64EncodedString()), \(bind: a.password.nonce.base64EncodedString()), \(bind: a.password.keyID),
                    \(bind: try Self.calendarsText(a.remoteCalendars)), \(bind: a.lastAttemptAt?.unixMilliseconds), \(bind: a.lastSuccessAt?.unixMilliseconds),
                    \(bind: a.nextSyncAt.unixMilliseconds), \(bind: a.lastError), \(bind: a.failures), \(bind: a.failureNotified),
                    \(bind: a.createdAt.unixMilliseconds), \(bind: a.signIn.rawValue))
            """).run()
    }

    func caldavAccount(id: UUID) async throws -> CalDAVAccount? {
        try await db.raw("SELECT \(unsafeRaw: Self.caldavAccountColumns) FROM caldav_accounts WHERE id = \(bind: id.uuidString)").first().map(Self.account(from:))
    }

    func caldavAccounts(accountID: UUID) async throws -> [CalDAVAccount] {
        try await db.raw("""
            SELECT \(unsafeRaw: Self.caldavAccountColumns) FROM caldav_accounts WHERE account_id = \(bind: accountID.uuidString) ORDER BY created_at, id
            """).all().map(Self.account(from:))
    }

    func updateCalDAVAccount(_ a: CalDAVAccount) async throws {
        try await db.raw("""
            UPDATE caldav_accounts SET url = \(bind: a.url), home_url = \(bind: a.homeURL), remote_calendars = \(bind: try Self.calendarsText(a.remoteCalendars)),
                last_attempt_at = \(bind: a.lastAttemptAt?.unixMilliseconds), last_success_at = \(bind: a.lastSuccessAt?.unixMilliseconds),
                next_sync_at = \(bind: a.nextSyncAt.unixMilliseconds), last_error = \(bind: a.lastError), failures = \(bind: a.failures),
                failure_notified = \(bind: a.failureNotified)
            WHERE id = \(bind: a.id.uuidString)
            """).run()
    }

    func deleteCalDAVAccount(id: UUID) async throws {
        try await db.raw("DELETE FROM caldav_accounts WHERE id = \(bind: id.uuidString)").run()
    }

    func caldavPasswordKeyIDs() async throws -> [String] {
        try await db.raw("SELECT DISTINCT password_key_id FROM caldav_accounts").all().map { try $0.decode(column: "password_key_id", as: String.self) }
    }

    func insertCalendarMirror(_ m: CalendarMirror) async throws {
        try await db.raw("""
            INSERT INTO calendar_mirrors (calendar_id, caldav_account_id, remote_url, sync_token, ctag)
            VALUES (\(bind: m.calendarID.uuidString), \(bind: m.caldavAccountID.uuidString), \(bind: m.remoteURL), \(bind: m.syncToken), \(bind: m.ctag))
            """).run()
    }

    func calendarMirror(calendarID: UUID) async throws -> CalendarMirror? {
        try await db.raw("""
            SELECT calendar_id, caldav_account_id, remote_url, sync_token, ctag FROM calendar_mirrors WHERE calendar_id = \(bind: calendarID.uuidString)
            """).first().map(Self.mirror(from:))
    }

    func calendarMirrors(caldavAccountID: UUID) async throws -> [CalendarMirror] {
        try await db.raw("""
            SELECT calendar_id, caldav_account_id, remote_url, sync_token, ctag FROM calendar_mirrors
            WHERE caldav_account_id = \(bind: caldavAccountID.uuidString) ORDER BY remote_url
            """).all().map(Self.mirror(from:))
    }

    func updateCalendarMirror(_ m: CalendarMirror) async throws {
        try await db.raw("""
            UPDATE calendar_mirrors SET sync_token = \(bind: m.syncToken), ctag = \(bind: m.ctag) WHERE calendar_id = \(bind: m.calendarID.uuidString)
            """).run()
    }

    func mirroredObjects(calendarID: UUID) async throws -> [MirroredObject] {
        try await db.raw("""
            SELECT calendar_id, name, remote_url, remote_etag, local_etag FROM mirrored_objects WHERE calendar_id = \(bind: calendarID.uuidString)
            """).all().map(Self.mirrored(from:))
    }

    func mirroredObject(calendarID: UUID, name: String) async throws -> MirroredObject? {
        try await db.raw("""
            SELECT calendar_id, name, remote_url, remote_etag, local_etag FROM mirrored_objects
            WHERE calendar_id = \(bind: calendarID.uuidString) AND name = \(bind: name)
            """).first().map(Self.mirrored(from:))
    }

    func putMirroredObject(_ o: MirroredObject) async throws {
        try await db.raw("""
            INSERT INTO mirrored_objects (calendar_id, name, remote_url, remote_etag, local_etag)
            VALUES (\(bind: o.calendarID.uuidString), \(bind: o.name), \(bind: o.remoteURL), \(bind: o.remoteETag), \(bind: o.localETag))
            ON CONFLICT (calendar_id, name) DO UPDATE SET remote_url = excluded.remote_url, remote_etag = excluded.remote_etag,
                local_etag = excluded.local_etag
            """).run()
    }

    func deleteMirroredObject(calendarID: UUID, name: String) async throws {
        try await db.raw("DELETE FROM mirrored_objects WHERE calendar_id = \(bind: calendarID.uuidString) AND name = \(bind: name)").run()
    }

    private static func calendarsText(_ calendars: [RemoteCalendar]) throws -> String {
        String(decoding: try JSONEncoder().encode(calendars), as: UTF8.self)
    }

    private static func account(from row: any SQLRow) throws -> CalDAVAccount {
        let id = try uuid(row, "id")
        guard let ciphertext = Data(base64Encoded: try row.decode(column: "password_ciphertext", as: String.self)),
              let nonce = Data(base64Encoded: try row.decode(column: "password_nonce", as: String.self))
        else { throw StorageError.corruptRow("sealed password of CalDAV account \(id)") }
        let calendars = try JSONDecoder().decode([RemoteCalendar].self, from: Data(try row.decode(column: "remote_calendars", as: String.self).utf8))
        return CalDAVAccount(
            id: id, accountID: try uuid(row, "account_id"), url: try row.decode(column: "url", as: String.self),
            homeURL: try row.decode(column: "home_url", as: String.self), username: try row.decode(column: "username", as: String.self),
            password: SealedText(ciphertext: ciphertext, nonce: nonce, keyID: try row.decode(column: "password_key_id", as: String.self)),
            remoteCalendars: calendars, lastAttemptAt: try optionalDate(row, "last_attempt_at"), lastSuccessAt: try optionalDate(row, "last_success_at"),
            nextSyncAt: try date(row, "next_sync_at"), lastError: try row.decode(column: "last_error", as: String?.self),
            failures: try row.decode(column: "failures", as: Int.self), failureNotified: try row.decode(column: "failure_notified", as: Bool.self),
            createdAt: try date(row, "created_at"), signIn: RemoteSignIn(rawValue: try row.decode(column: "sign_in", as: String.self)) ?? .password)
    }

    private static func mirror(from row: any SQLRow) throws -> CalendarMirror {
        CalendarMirror(
            calendarID: try uuid(row, "calendar_id"), caldavAccountID: try uuid(row, "caldav_account_id"),
            remoteURL: try row.decode(column: "remote_url", as: String.self), syncToken: try row.decode(column: "sync_token", as: String?.self),
            ctag: try row.decode(column: "ctag", as: String?.self))
    }

    private static func mirrored(from row: any SQLRow) throws -> MirroredObject {
        MirroredObject(
            calendarID: try uuid(row, "calendar_id"), name: try row.decode(column: "name", as: String.self),
            remoteURL: try row.decode(column: "remote_url", as: String.self), remoteETag: try row.decode(column: "remote_etag", as: String?.self),
            localETag: try row.decode(column: "local_etag", as: String.self))
    }
}
