import SQLKit

extension Migrations {
    /// What each open conflict runs into, one row per event it names: a check finds the events
    /// whose conflicts name the objects it just checked with an indexed read, instead of reading
    /// and decoding every open conflict of the account (issue 28). Filled from the conflicts open
    /// now; kept by `insertConflict` and `updateConflict`.
    static let v31ConflictOverlaps = Migration(version: 31, name: "what open conflicts run into") { engine in
        let fill = switch engine {
        case .sqlite:
            """
            INSERT INTO conflict_overlaps (conflict_id, account_id, calendar_id, object_name)
            SELECT DISTINCT c.id, c.account_id, json_extract(o.value, '$.calendarID'), json_extract(o.value, '$.objectName')
            FROM conflicts c, json_each(c.overlapping) o
            WHERE c.status = 'open' AND json_extract(o.value, '$.calendarID') IS NOT NULL AND json_extract(o.value, '$.objectName') IS NOT NULL
            """
        case .postgres:
            """
            INSERT INTO conflict_overlaps (conflict_id, account_id, calendar_id, object_name)
            SELECT DISTINCT c.id, c.account_id, o ->> 'calendarID', o ->> 'objectName'
            FROM conflicts c CROSS JOIN LATERAL json_array_elements(c.overlapping::json) o
            WHERE c.status = 'open' AND o ->> 'calendarID' IS NOT NULL AND o ->> 'objectName' IS NOT NULL
            """
        }
        return [
            """
            CREATE TABLE conflict_overlaps (
                conflict_id TEXT NOT NULL REFERENCES conflicts (id) ON DELETE CASCADE,
                account_id TEXT NOT NULL,
                calendar_id TEXT NOT NULL,
                object_name TEXT NOT NULL,
                PRIMARY KEY (conflict_id, calendar_id, object_name)
            )
            """,
            "CREATE INDEX conflict_overlaps_object ON conflict_overlaps (account_id, calendar_id, object_name)",
            fill,
        ]
    }
}
