import Foundation
import JadwalCore
import SQLKit

extension SQLRepository: RetentionStore {
    func forgetEndedSignIns(linksBefore: Date, sessionsBefore: Date) async throws -> Int {
        let links = linksBefore.unixMilliseconds, sessions = sessionsBefore.unixMilliseconds
        return try await db.raw("DELETE FROM sign_in_tokens WHERE expires_at < \(bind: links) RETURNING token_digest").all().count
            + db.raw("DELETE FROM account_links WHERE expires_at < \(bind: links) RETURNING token_digest").all().count
            + db.raw("DELETE FROM sessions WHERE expires_at < \(bind: sessions) OR revoked_at < \(bind: sessions) RETURNING id").all().count
    }

    func forgetRotatedRefreshTokens(rotatedBefore date: Date) async throws -> Int {
        try await db.raw("DELETE FROM refresh_tokens WHERE rotated_at < \(bind: date.unixMilliseconds) RETURNING token_digest").all().count
    }

    func forgetSetupTokens(expiredBefore date: Date) async throws -> Int {
        try await db.raw("DELETE FROM setup_tokens WHERE expires_at < \(bind: date.unixMilliseconds) RETURNING token_digest").all().count
    }

    func forgetFinishedJobs(doneBefore: Date, deadBefore: Date) async throws -> Int {
        try await db.raw("""
            DELETE FROM jobs WHERE (state = 'done' AND finished_at < \(bind: doneBefore.unixMilliseconds))
                OR (state = 'dead' AND finished_at < \(bind: deadBefore.unixMilliseconds))
            RETURNING id
            """).all().count
    }

    /// Two statements: the calendars first learn the newest revision they lose, then the rows
    /// go. A sync or busy-time catch-up reading in between sees the mark with the rows still
    /// there, and starts over, which is never wrong.
    func forgetCalendarChanges(loggedBefore date: Date) async throws -> Int {
        let cutoff = date.unixMilliseconds
        try await db.raw("""
            UPDATE calendars SET changes_pruned_through = (
                SELECT MAX(revision) FROM calendar_changes ch WHERE ch.calendar_id = calendars.id AND ch.logged_at < \(bind: cutoff))
            WHERE id IN (SELECT DISTINCT calendar_id FROM calendar_changes WHERE logged_at < \(bind: cutoff))
            """).run()
        return try await db.raw("""
            DELETE FROM calendar_changes
            WHERE revision <= (SELECT c.changes_pruned_through FROM calendars c WHERE c.id = calendar_changes.calendar_id)
            RETURNING revision
            """).all().count
    }
}
