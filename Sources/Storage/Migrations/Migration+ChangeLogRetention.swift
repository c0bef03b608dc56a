import SQLKit

extension Migrations {
    /// The change log ages out (`RecordRetention`): each row records when it was logged, and
    /// each calendar the newest revision forgotten, below which a sync token is refused. Rows
    /// logged before this migration count as logged when it ran.
    static let v25ChangeLogRetention = Migration(version: 25, name: "change log retention") { engine in
        let nowMilliseconds = switch engine {
        case .sqlite: "CAST(strftime('%s', 'now') AS INTEGER) * 1000"
        case .postgres: "CAST(EXTRACT(EPOCH FROM now()) * 1000 AS BIGINT)"
        }
        return [
            "ALTER TABLE calendar_changes ADD COLUMN logged_at BIGINT",
            "UPDATE calendar_changes SET logged_at = \(nowMilliseconds)",
            "CREATE INDEX calendar_changes_logged ON calendar_changes (logged_at)",
            "ALTER TABLE calendars ADD COLUMN changes_pruned_through BIGINT NOT NULL DEFAULT 0",
        ]
    }
}
