import Foundation
import JadwalCore
import SQLKit

extension SQLRepository: CalendarViewStore {
    func calendarObjectCounts(accountID: UUID) async throws -> [UUID: [ComponentKind: Int]] {
        var counts: [UUID: [ComponentKind: Int]] = [:]
        for row in try await db.raw("""
            SELECT o.calendar_id, o.component, COUNT(*) AS n FROM calendar_objects o JOIN calendars c ON c.id = o.calendar_id
            WHERE c.account_id = \(bind: accountID.uuidString) GROUP BY o.calendar_id, o.component
            """).all() {
            // A kind this binary does not know is not counted rather than failing the page.
            guard let kind = ComponentKind(rawValue: try row.decode(column: "component", as: String.self)) else { continue }
            counts[try Self.uuid(row, "calendar_id"), default: [:]][kind] = try row.decode(column: "n", as: Int.self)
        }
        return counts
    }

    func hiddenCalendarIDs(accountID: UUID) async throws -> Set<UUID> {
        Set(try await db.raw("SELECT calendar_id FROM hidden_calendars WHERE account_id = \(bind: accountID.uuidString)").all()
            .map { try Self.uuid($0, "calendar_id") })
    }

    func setCalendarHidden(_ hidden: Bool, calendarID: UUID, accountID: UUID, at: Date) async throws {
        if hidden {
            try await db.raw("""
                INSERT INTO hidden_calendars (account_id, calendar_id, hidden_at)
                VALUES (\(bind: accountID.uuidString), \(bind: calendarID.uuidString), \(bind: at.unixMilliseconds))
                ON CONFLICT (account_id, calendar_id) DO NOTHING
                """).run()
        } else {
            try await db.raw("""
                DELETE FROM hidden_calendars WHERE account_id = \(bind: accountID.uuidString) AND calendar_id = \(bind: calendarID.uuidString)
                """).run()
        }
        viewChanges?.account(accountID)
    }
}
