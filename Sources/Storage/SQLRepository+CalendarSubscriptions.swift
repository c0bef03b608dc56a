import Foundation
import ICalendar
import JadwalCore
import SQLKit

extension SQLRepository: CalendarSubscriptionStore {
    private static let subscriptionColumns = """
        id, account_id, calendar_id, url, refresh_seconds, feed_refresh_seconds, follows_feed_name, follows_feed_color, as_tasks, etag, last_modified, \
        content_digest, last_attempt_at, last_success_at, next_refresh_at, last_error, failures, failure_notified, gone_since, paused_at, \
        object_count, problems, problem_count, created_at
        """

    func insertCalendarSubscription(_ s: CalendarSubscription) async throws {
        try await db.raw("""
            INSERT INTO calendar_subscriptions (\(unsafeRaw: Self.subscriptionColumns))
            VALUES (\(bind: s.id.uuidString), \(bind: s.accountID.uuidString), \(bind: s.calendarID.uuidString), \(bind: s.url),
                    \(bind: s.refreshSeconds), \(bind: s.feedRefreshSeconds), \(bind: s.followsFeedName), \(bind: s.followsFeedColor),
                    \(bind: s.asTasks), \(bind: s.etag), \(bind: s.lastModified), \(bind: s.contentDigest), \(bind: s.lastAttemptAt?.unixMilliseconds),
                    \(bind: s.lastSuccessAt?.unixMilliseconds), \(bind: s.nextRefreshAt.unixMilliseconds), \(bind: s.lastError), \(bind: s.failures),
                    \(bind: s.failureNotified), \(bind: s.goneSince?.unixMilliseconds), \(bind: s.pausedAt?.unixMilliseconds), \(bind: s.objectCount),
                    \(bind: try Self.problemsText(s.problems)), \(bind: s.problemCount), \(bind: s.createdAt.unixMilliseconds))
            """).run()
    }

    func calendarSubscription(id: UUID) async throws -> CalendarSubscription? {
        try await db.raw("SELECT \(unsafeRaw: Self.subscriptionColumns) FROM calendar_subscriptions WHERE id = \(bind: id.uuidString)")
            .first().map(Self.subscription(from:))
    }

    func calendarSubscriptions(accountID: UUID) async throws -> [CalendarSubscription] {
        try await db.raw("""
            SELECT \(unsafeRaw: Self.subscriptionColumns) FROM calendar_subscriptions WHERE account_id = \(bind: accountID.uuidString)
            ORDER BY created_at, id
            """).all().map(Self.subscription(from:))
    }

    func updateCalendarSubscription(_ s: CalendarSubscription) async throws {
        try await db.raw("""
            UPDATE calendar_subscriptions SET url = \(bind: s.url), refresh_seconds = \(bind: s.refreshSeconds),
                feed_refresh_seconds = \(bind: s.feedRefreshSeconds), follows_feed_name = \(bind: s.followsFeedName),
                follows_feed_color = \(bind: s.followsFeedColor), etag = \(bind: s.etag), last_modified = \(bind: s.lastModified),
                content_digest = \(bind: s.contentDigest), last_attempt_at = \(bind: s.lastAttemptAt?.unixMilliseconds),
                last_success_at = \(bind: s.lastSuccessAt?.unixMilliseconds), next_refresh_at = \(bind: s.nextRefreshAt.unixMilliseconds),
                last_error = \(bind: s.lastError), failures = \(bind: s.failures), failure_notified = \(bind: s.failureNotified),
                gone_since = \(bind: s.goneSince?.unixMilliseconds), paused_at = \(bind: s.pausedAt?.unixMilliseconds),
                object_count = \(bind: s.objectCount), problems = \(bind: try Self.problemsText(s.problems)), problem_count = \(bind: s.problemCount)
            WHERE id = \(bind: s.id.uuidString)
            """).run()
    }

    private static func problemsText(_ problems: [ICalendarFeed.Problem]) throws -> String {
        String(decoding: try JSONEncoder().encode(problems), as: UTF8.self)
    }

    private static func subscription(from row: any SQLRow) throws -> CalendarSubscription {
        let problems = try JSONDecoder().decode([ICalendarFeed.Problem].self, from: Data(try row.decode(column: "problems", as: String.self).utf8))
        return CalendarSubscription(
            id: try uuid(row, "id"), accountID: try uuid(row, "account_id"), calendarID: try uuid(row, "calendar_id"),
            url: try row.decode(column: "url", as: String.self), refreshSeconds: try row.decode(column: "refresh_seconds", as: Int?.self),
            feedRefreshSeconds: try row.decode(column: "feed_refresh_seconds", as: Int?.self),
            followsFeedName: try row.decode(column: "follows_feed_name", as: Bool.self),
            followsFeedColor: try row.decode(column: "follows_feed_color", as: Bool.self), asTasks: try row.decode(column: "as_tasks", as: Bool.self),
            etag: try row.decode(column: "etag", as: String?.self),
            lastModified: try row.decode(column: "last_modified", as: String?.self),
            contentDigest: try row.decode(column: "content_digest", as: String?.self), lastAttemptAt: try optionalDate(row, "last_attempt_at"),
            lastSuccessAt: try optionalDate(row, "last_success_at"), nextRefreshAt: try date(row, "next_refresh_at"),
            lastError: try row.decode(column: "last_error", as: String?.self), failures: try row.decode(column: "failures", as: Int.self),
            failureNotified: try row.decode(column: "failure_notified", as: Bool.self), goneSince: try optionalDate(row, "gone_since"),
            pausedAt: try optionalDate(row, "paused_at"), objectCount: try row.decode(column: "object_count", as: Int.self),
            problems: problems, problemCount: try row.decode(column: "problem_count", as: Int.self), createdAt: try date(row, "created_at"))
    }
}
