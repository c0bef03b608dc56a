import Foundation
import JadwalCore
import SQLKit

extension SQLRepository: ConflictStore {
    private static let conflictColumns = "id, account_id, calendar_id, object_name, occurrence_start, status, source, notify, event, overlapping, detected_at, resolved_at"

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return decoder
    }()

    func insertConflict(_ conflict: EventConflict) async throws {
        try await db.raw("""
            INSERT INTO conflicts (\(unsafeRaw: Self.conflictColumns))
            VALUES (\(bind: conflict.id.uuidString), \(bind: conflict.accountID.uuidString), \(bind: conflict.event.calendarID.uuidString),
                    \(bind: conflict.event.objectName), \(bind: conflict.event.start.unixMilliseconds), \(bind: conflict.status.rawValue),
                    \(bind: conflict.source.rawValue), \(bind: conflict.notify), \(bind: try Self.json(conflict.event)), \(bind: try Self.json(conflict.overlaps)),
                    \(bind: conflict.detectedAt.unixMilliseconds), \(bind: conflict.resolvedAt?.unixMilliseconds))
            """).run()
        try await saveOverlaps(of: conflict, replacing: false)
        viewChanges?.account(conflict.accountID)
    }

    func updateConflict(_ conflict: EventConflict) async throws {
        try await db.raw("""
            UPDATE conflicts SET status = \(bind: conflict.status.rawValue), event = \(bind: try Self.json(conflict.event)),
                occurrence_start = \(bind: conflict.event.start.unixMilliseconds), overlapping = \(bind: try Self.json(conflict.overlaps)),
                resolved_at = \(bind: conflict.resolvedAt?.unixMilliseconds)
            WHERE id = \(bind: conflict.id.uuidString)
            """).run()
        try await saveOverlaps(of: conflict, replacing: true)
        viewChanges?.account(conflict.accountID)
    }

    /// What an open conflict runs into, one row per event it names (`conflict_overlaps`); a
    /// resolved one keeps none, as no check asks about it.
    private func saveOverlaps(of conflict: EventConflict, replacing: Bool) async throws {
        if replacing {
            try await db.raw("DELETE FROM conflict_overlaps WHERE conflict_id = \(bind: conflict.id.uuidString)").run()
        }
        guard conflict.status == .open else { return }
        var named: Set<String> = []
        var rows: [SQLExpression] = []
        for overlap in conflict.overlaps {
            guard let calendarID = overlap.calendarID, let name = overlap.objectName,
                  named.insert(calendarID.uuidString + "/" + name).inserted else { continue }
            rows.append(SQLGroupExpression([
                SQLBind(conflict.id.uuidString), SQLBind(conflict.accountID.uuidString), SQLBind(calendarID.uuidString), SQLBind(name),
            ]))
        }
        guard !rows.isEmpty else { return }
        try await db.raw("""
            INSERT INTO conflict_overlaps (conflict_id, account_id, calendar_id, object_name) VALUES \(SQLList(rows))
            """).run()
    }

    func conflicts(calendarID: UUID, objectNames: [String]) async throws -> [EventConflict] {
        var found: [EventConflict] = []
        // Chunks keep the bind count under SQLite's limit.
        for start in stride(from: 0, to: objectNames.count, by: 500) {
            let chunk = SQLList(objectNames[start..<min(start + 500, objectNames.count)].map { SQLBind($0) })
            found += try await db.raw("""
                SELECT \(unsafeRaw: Self.conflictColumns) FROM conflicts
                WHERE calendar_id = \(bind: calendarID.uuidString) AND object_name IN (\(chunk)) ORDER BY occurrence_start, id
                """).all().map(Self.conflict(from:))
        }
        return found
    }

    func eventsWithOpenConflicts(accountID: UUID, naming objects: [UUID: [String]]) async throws -> [ConflictedEvent] {
        var found: [ConflictedEvent] = []
        var seen: Set<ConflictedEvent> = []
        for (calendarID, names) in objects.sorted(by: { $0.key.uuidString < $1.key.uuidString }) {
            let names = Array(Set(names)).sorted()
            for start in stride(from: 0, to: names.count, by: 500) {
                let chunk = SQLList(names[start..<min(start + 500, names.count)].map { SQLBind($0) })
                let rows = try await db.raw("""
                    SELECT DISTINCT c.calendar_id, c.object_name, c.source, c.occurrence_start, c.id FROM conflict_overlaps r
                    JOIN conflicts c ON c.id = r.conflict_id
                    WHERE r.account_id = \(bind: accountID.uuidString) AND r.calendar_id = \(bind: calendarID.uuidString)
                      AND r.object_name IN (\(chunk)) AND c.status = 'open'
                    ORDER BY c.occurrence_start, c.id
                    """).all()
                for row in rows {
                    let sourceText = try row.decode(column: "source", as: String.self)
                    guard let source = WriteSource(rawValue: sourceText) else { throw StorageError.corruptRow("conflict source \(sourceText)") }
                    let event = ConflictedEvent(
                        calendarID: try Self.uuid(row, "calendar_id"), objectName: try row.decode(column: "object_name", as: String.self), source: source)
                    if seen.insert(event).inserted { found.append(event) }
                }
            }
        }
        return found
    }

    func conflicts(calendarID: UUID, objectName: String) async throws -> [EventConflict] {
        try await db.raw("""
            SELECT \(unsafeRaw: Self.conflictColumns) FROM conflicts
            WHERE calendar_id = \(bind: calendarID.uuidString) AND object_name = \(bind: objectName) ORDER BY occurrence_start, id
            """).all().map(Self.conflict(from:))
    }

    func conflicts(accountID: UUID, includeResolved: Bool) async throws -> [EventConflict] {
        let open = includeResolved ? "" : "AND status = 'open'"
        return try await db.raw("""
            SELECT \(unsafeRaw: Self.conflictColumns) FROM conflicts
            WHERE account_id = \(bind: accountID.uuidString) \(unsafeRaw: open) ORDER BY occurrence_start, id
            """).all().map(Self.conflict(from:))
    }

    func conflict(id: UUID, accountID: UUID) async throws -> EventConflict? {
        try await db.raw("""
            SELECT \(unsafeRaw: Self.conflictColumns) FROM conflicts WHERE id = \(bind: id.uuidString) AND account_id = \(bind: accountID.uuidString)
            """).first().map(Self.conflict(from:))
    }

    func conflictSettings(accountID: UUID) async throws -> ConflictSettings {
        guard let row = try await db.raw("""
            SELECT notify_sources, notify_prayer_overlaps, working_hours, busy_policies FROM conflict_settings
            WHERE account_id = \(bind: accountID.uuidString)
            """).first()
        else { return ConflictSettings() }
        // Sources are stored by name; one this binary does not know is left out, not fatal.
        let names = (try? JSONDecoder().decode([String].self, from: Data(try row.decode(column: "notify_sources", as: String.self).utf8))) ?? []
        let hours = try row.decode(column: "working_hours", as: String?.self)
            .flatMap { try? JSONDecoder().decode(HoursDraft.self, from: Data($0.utf8)).hours() }
        let stored = (try? JSONDecoder().decode([String: BusyPolicyDraft].self, from: Data(try row.decode(column: "busy_policies", as: String.self).utf8))) ?? [:]
        let policies = Dictionary(stored.compactMap { key, draft in UUID(uuidString: key).map { ($0, draft.policy) } }, uniquingKeysWith: { first, _ in first })
        return ConflictSettings(
            notifySources: Set(names.compactMap(WriteSource.init(rawValue:))),
            notifyPrayerOverlaps: try row.decode(column: "notify_prayer_overlaps", as: Bool.self),
            workingHours: hours, busyPolicies: policies)
    }

    func saveConflictSettings(_ settings: ConflictSettings, accountID: UUID, at: Date) async throws {
        let sources = try Self.json(settings.notifySources.map(\.rawValue).sorted())
        let hours = try settings.workingHours.map { try Self.json(HoursDraft($0)) }
        let policies = try Self.json(Dictionary(uniqueKeysWithValues: settings.busyPolicies.map { ($0.key.uuidString.lowercased(), BusyPolicyDraft($0.value)) }))
        try await db.raw("""
            INSERT INTO conflict_settings (account_id, notify_sources, notify_prayer_overlaps, working_hours, busy_policies, updated_at)
            VALUES (\(bind: accountID.uuidString), \(bind: sources), \(bind: settings.notifyPrayerOverlaps), \(bind: hours), \(bind: policies),
                    \(bind: at.unixMilliseconds))
            ON CONFLICT (account_id) DO UPDATE SET
                notify_sources = excluded.notify_sources, notify_prayer_overlaps = excluded.notify_prayer_overlaps,
                working_hours = excluded.working_hours, busy_policies = excluded.busy_policies, updated_at = excluded.updated_at
            """).run()
    }

    private static func json(_ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    private static func conflict(from row: any SQLRow) throws -> EventConflict {
        let id = try uuid(row, "id")
        let statusText = try row.decode(column: "status", as: String.self)
        let sourceText = try row.decode(column: "source", as: String.self)
        guard let status = EventConflict.Status(rawValue: statusText), let source = WriteSource(rawValue: sourceText) else {
            throw StorageError.corruptRow("conflict \(id): status \(statusText), source \(sourceText)")
        }
        let event: EventConflict.Occurrence
        let overlaps: [EventConflict.Overlap]
        let eventText = try row.decode(column: "event", as: String.self)
        let overlapsText = try row.decode(column: "overlapping", as: String.self)
        do {
            event = try StoredConflictJSON.occurrence(eventText) ?? decoder.decode(EventConflict.Occurrence.self, from: Data(eventText.utf8))
            overlaps = try StoredConflictJSON.overlaps(overlapsText) ?? decoder.decode([EventConflict.Overlap].self, from: Data(overlapsText.utf8))
        } catch is DecodingError {
            throw StorageError.corruptRow("conflict \(id): event or overlaps")
        }
        return EventConflict(
            id: id, accountID: try uuid(row, "account_id"), event: event, overlaps: overlaps, source: source, status: status,
            notify: try row.decode(column: "notify", as: Bool.self), detectedAt: try date(row, "detected_at"),
            resolvedAt: try optionalDate(row, "resolved_at"))
    }
}
