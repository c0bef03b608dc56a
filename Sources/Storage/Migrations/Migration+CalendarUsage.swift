import SQLKit

extension Migrations {
    /// Each calendar keeps count of its objects and their bytes, changed by the same statement
    /// that bumps its revision, so `AccountQuota` reads an account's usage from its calendar rows
    /// instead of summing every object. Filled from the objects stored when it runs.
    static let v28CalendarUsage = Migration(version: 28, name: "calendar usage counts") { _ in
        [
            "ALTER TABLE calendars ADD COLUMN object_count BIGINT NOT NULL DEFAULT 0",
            "ALTER TABLE calendars ADD COLUMN object_bytes BIGINT NOT NULL DEFAULT 0",
            """
            UPDATE calendars SET
                object_count = (SELECT COUNT(*) FROM calendar_objects o WHERE o.calendar_id = calendars.id),
                object_bytes = (SELECT COALESCE(SUM(octet_length(o.icalendar)), 0) FROM calendar_objects o WHERE o.calendar_id = calendars.id)
            """,
        ]
    }
}
