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
        viewChanges?.account(conflict.accountID)
    }

    func updateConflict(_ conflict: EventConflict) async throws {
        try await db.raw("""
            UPDATE conflicts SET status = \(bind: conflict.status.rawValue), event = \(bind: try Self.json(conflict.event)),
                occurrence_start = \(bind: conflict.event.start.unixMilliseconds), overlapping = \(bind: try Self.json(conflict.overlaps)),
                resolved_at = \(bind: conflict.resolvedAt?.unixMilliseconds)
            WHERE id = \(bind: conflict.id.uuidString)
            """).run()
        viewChanges?.account(conflict.accountID)
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
        do {
            event = try decoder.decode(EventConflict.Occurrence.self, from: Data(try row.decode(column: "event", as: String.self).utf8))
            overlaps = try decoder.decode([EventConflict.Overlap].self, from: Data(try row.decode(column: "overlapping", as: String.self).utf8))
        } catch is DecodingError {
            throw StorageError.corruptRow("conflict \(id): event or overlaps")
        }
        return EventConflict(
            id: id, accountID: try uuid(row, "account_id"), event: event, overlaps: overlaps, source: source, status: status,
            notify: try row.decode(column: "notify", as: Bool.self), detectedAt: try date(row, "detected_at"),
            resolvedAt: try optionalDate(row, "resolved_at"))
    }
}
