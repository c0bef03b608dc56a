import Foundation
import JadwalCore
import SQLKit

extension SQLRepository: CalendarFeedStore {
    func insertCalendarFeed(_ feed: CalendarFeed) async throws {
        try await db.raw("""
            INSERT INTO calendar_feeds (token_digest, account_id, kind, alarm_minutes_before, created_at, revoked_at)
            VALUES (\(bind: feed.digest.hex), \(bind: feed.accountID.uuidString), \(bind: feed.kind.rawValue), \(bind: feed.alarmMinutesBefore),
                    \(bind: feed.createdAt.unixMilliseconds), \(bind: feed.revokedAt?.unixMilliseconds))
            """).run()
    }

    func calendarFeed(digest: TokenDigest) async throws -> CalendarFeed? {
        guard let row = try await db.raw("""
            SELECT account_id, kind, alarm_minutes_before, created_at, revoked_at FROM calendar_feeds WHERE token_digest = \(bind: digest.hex)
            """).first()
        else { return nil }
        let kind = try row.decode(column: "kind", as: String.self)
        guard let parsed = CalendarFeed.Kind(rawValue: kind) else { throw StorageError.corruptRow("feed kind \(kind)") }
        return CalendarFeed(
            digest: digest, accountID: try Self.uuid(row, "account_id"), kind: parsed,
            alarmMinutesBefore: try row.decode(column: "alarm_minutes_before", as: Int?.self),
            createdAt: try Self.date(row, "created_at"), revokedAt: try Self.optionalDate(row, "revoked_at")
        )
    }

    func revokeCalendarFeeds(accountID: UUID, kind: CalendarFeed.Kind, at: Date) async throws -> Int {
        try await db.raw("""
            UPDATE calendar_feeds SET revoked_at = \(bind: at.unixMilliseconds)
            WHERE account_id = \(bind: accountID.uuidString) AND kind = \(bind: kind.rawValue) AND revoked_at IS NULL RETURNING token_digest
            """).all().count
    }

    func activeCalendarFeeds(accountID: UUID) async throws -> [CalendarFeed] {
        try await db.raw("""
            SELECT token_digest, kind, alarm_minutes_before, created_at FROM calendar_feeds
            WHERE account_id = \(bind: accountID.uuidString) AND revoked_at IS NULL ORDER BY created_at DESC, token_digest
            """).all().map { row in
                let kind = try row.decode(column: "kind", as: String.self)
                guard let parsed = CalendarFeed.Kind(rawValue: kind) else { throw StorageError.corruptRow("feed kind \(kind)") }
                return CalendarFeed(
                    digest: TokenDigest(hex: try row.decode(column: "token_digest", as: String.self)), accountID: accountID, kind: parsed,
                    alarmMinutesBefore: try row.decode(column: "alarm_minutes_before", as: Int?.self), createdAt: try Self.date(row, "created_at"))
            }
    }
}
