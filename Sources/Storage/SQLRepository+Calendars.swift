import Foundation
import JadwalCore
import SQLKit

extension SQLRepository: CalendarStore {
    static let calendarColumns =
        "id, account_id, slug, display_name, description, color, sort_order, time_zone, components, revision, created_at, dead_properties, subscription_id, caldav_account_id"
    private static let objectColumns =
        "calendar_id, name, uid, component, icalendar, etag, first_start, last_end, revision, updated_at"

    func insertCalendar(_ calendar: CalendarCollection) async throws {
        try await db.raw("""
            INSERT INTO calendars (\(unsafeRaw: Self.calendarColumns))
            VALUES (\(bind: calendar.id.uuidString), \(bind: calendar.accountID.uuidString), \(bind: calendar.slug), \(bind: calendar.displayName),
                    \(bind: calendar.description), \(bind: calendar.color), \(bind: calendar.order), \(bind: calendar.timeZone),
                    \(bind: Self.componentsText(calendar.components)), \(bind: calendar.revision), \(bind: calendar.createdAt.unixMilliseconds),
                    \(bind: try Self.deadPropertiesText(calendar.deadProperties)), \(bind: calendar.subscriptionID?.uuidString),
                    \(bind: calendar.caldavAccountID?.uuidString))
            """).run()
        viewChanges?.calendar(calendar.id, owner: calendar.accountID)
    }

    func calendar(id: UUID) async throws -> CalendarCollection? {
        try await db.raw("SELECT \(unsafeRaw: Self.calendarColumns) FROM calendars WHERE id = \(bind: id.uuidString)")
            .first().map(Self.calendar(from:))
    }

    func calendar(accountID: UUID, slug: String) async throws -> CalendarCollection? {
        try await db.raw("""
            SELECT \(unsafeRaw: Self.calendarColumns) FROM calendars WHERE account_id = \(bind: accountID.uuidString) AND slug = \(bind: slug)
            """).first().map(Self.calendar(from:))
    }

    func calendars(accountID: UUID) async throws -> [CalendarCollection] {
        // NULL orders last on both engines only when said so; COALESCE keeps it portable.
        try await db.raw("""
            SELECT \(unsafeRaw: Self.calendarColumns) FROM calendars WHERE account_id = \(bind: accountID.uuidString)
            ORDER BY COALESCE(sort_order, 9223372036854775807), created_at, slug
            """).all().map(Self.calendar(from:))
    }

    func updateCalendarProperties(_ calendar: CalendarCollection) async throws -> CalendarCollection {
        guard let row = try await db.raw("""
            UPDATE calendars SET display_name = \(bind: calendar.displayName), description = \(bind: calendar.description),
                color = \(bind: calendar.color), sort_order = \(bind: calendar.order), time_zone = \(bind: calendar.timeZone),
                dead_properties = \(bind: try Self.deadPropertiesText(calendar.deadProperties)), revision = revision + 1
            WHERE id = \(bind: calendar.id.uuidString)
            RETURNING \(unsafeRaw: Self.calendarColumns)
            """).first()
        else { throw StorageError.corruptRow("calendar \(calendar.id) does not exist") }
        let updated = try Self.calendar(from: row)
        viewChanges?.calendar(updated.id, owner: updated.accountID)
        return updated
    }

    func deleteCalendar(id: UUID) async throws {
        let row = try await db.raw("DELETE FROM calendars WHERE id = \(bind: id.uuidString) RETURNING account_id").first()
        if let row { viewChanges?.calendar(id, owner: try Self.uuid(row, "account_id")) }
    }

    func calendarObject(calendarID: UUID, name: String) async throws -> CalendarObject? {
        try await db.raw("""
            SELECT \(unsafeRaw: Self.objectColumns) FROM calendar_objects WHERE calendar_id = \(bind: calendarID.uuidString) AND name = \(bind: name)
            """).first().map(Self.object(from:))
    }

    func calendarObject(calendarID: UUID, uid: String) async throws -> CalendarObject? {
        try await db.raw("""
            SELECT \(unsafeRaw: Self.objectColumns) FROM calendar_objects WHERE calendar_id = \(bind: calendarID.uuidString) AND uid = \(bind: uid)
            """).first().map(Self.object(from:))
    }

    func calendarObjects(calendarID: UUID, name: String, orUID uid: String, usageOf owner: UUID) async throws -> (found: [CalendarObject], usage: StoredUsage) {
        // The usage's one row, with each object found beside it (none: one row of NULLs).
        let rows = try await db.raw("""
            SELECT usage.calendars, usage.objects, usage.bytes, \(unsafeRaw: Self.objectColumns)
            FROM (\(Self.usageQuery(accountID: owner))) AS usage
            LEFT JOIN calendar_objects ON calendar_id = \(bind: calendarID.uuidString) AND (name = \(bind: name) OR uid = \(bind: uid))
            """).all()
        guard let first = rows.first else { throw StorageError.corruptRow("no usage row for account \(owner)") }
        let found = try rows.filter { try $0.decode(column: "name", as: String?.self) != nil }.map(Self.object(from:))
        return (found, try Self.usage(from: first))
    }

    func calendarObjects(calendarID: UUID) async throws -> [CalendarObject] {
        try await db.raw("""
            SELECT \(unsafeRaw: Self.objectColumns) FROM calendar_objects WHERE calendar_id = \(bind: calendarID.uuidString) ORDER BY name
            """).all().map(Self.object(from:))
    }

    func calendarObjects(calendarID: UUID, names: [String]) async throws -> [CalendarObject] {
        guard !names.isEmpty else { return [] }
        var objects: [CalendarObject] = []
        // Chunks keep the bind count under SQLite's limit for large multigets.
        for start in stride(from: 0, to: names.count, by: 500) {
            let chunk = names[start..<min(start + 500, names.count)]
            let list = SQLList(chunk.map { SQLBind($0) })
            objects += try await db.raw("""
                SELECT \(unsafeRaw: Self.objectColumns) FROM calendar_objects
                WHERE calendar_id = \(bind: calendarID.uuidString) AND name IN (\(list))
                """).all().map(Self.object(from:))
        }
        return objects
    }

    /// Sorted here, not in SQL: `ORDER BY name` makes SQLite walk the primary key (every row of
    /// the calendar) instead of the time-range index. Short spans overlap only if they start
    /// within `shortSpanLimit` before the range, so that branch reads a slice of the index; the
    /// other branch scans just the long spans (migration 15).
    func calendarObjects(calendarID: UUID, overlapping start: Date, _ end: Date) async throws -> [CalendarObject] {
        let id = calendarID.uuidString
        let from = start.unixMilliseconds, to = end.unixMilliseconds
        return try await db.raw("""
            SELECT \(unsafeRaw: Self.objectColumns) FROM calendar_objects
            WHERE calendar_id = \(bind: id) AND long_span = 0
              AND first_start >= \(bind: from.subtractingClamped(Self.shortSpanLimit)) AND first_start < \(bind: to) AND last_end > \(bind: from)
            UNION ALL
            SELECT \(unsafeRaw: Self.objectColumns) FROM calendar_objects
            WHERE calendar_id = \(bind: id) AND long_span = 1
              AND (first_start IS NULL OR first_start < \(bind: to)) AND (last_end IS NULL OR last_end > \(bind: from))
            """).all().map(Self.object(from:)).sorted { $0.name < $1.name }
    }

    /// Index spans up to this long (milliseconds) are "short"; migration 15 classified existing
    /// rows with the same figure, so it must never change.
    static let shortSpanLimit: Int64 = 7 * 86_400_000

    static func isLongSpan(_ object: CalendarObject) -> Int {
        guard let first = object.firstStart?.unixMilliseconds, let last = object.lastEnd?.unixMilliseconds,
              last.subtractingClamped(first) <= shortSpanLimit
        else { return 1 }
        return 0
    }

    func putCalendarObject(_ object: CalendarObject) async throws -> CalendarObject {
        if engine == .postgres { return try await putCalendarObjectInOneStatement(object) }
        let revision = try await nextRevision(calendarID: object.calendarID, replacing: object.name, bytes: Int64(object.icalendar.utf8.count))
        var stored = object
        stored.revision = revision
        try await db.raw("""
            INSERT INTO calendar_objects (\(unsafeRaw: Self.objectColumns), long_span)
            VALUES (\(bind: object.calendarID.uuidString), \(bind: object.name), \(bind: object.uid), \(bind: object.component.rawValue),
                    \(bind: object.icalendar), \(bind: object.etag), \(bind: object.firstStart?.unixMilliseconds), \(bind: object.lastEnd?.unixMilliseconds),
                    \(bind: revision), \(bind: object.updatedAt.unixMilliseconds), \(bind: Self.isLongSpan(object)))
            ON CONFLICT (calendar_id, name) DO UPDATE SET
                uid = excluded.uid, component = excluded.component, icalendar = excluded.icalendar, etag = excluded.etag,
                first_start = excluded.first_start, last_end = excluded.last_end, revision = excluded.revision, updated_at = excluded.updated_at,
                long_span = excluded.long_span
            """).run()
        try await logChange(calendarID: object.calendarID, revision: revision, name: object.name, kind: .written)
        return stored
    }

    /// PostgreSQL: the revision bump, the object and the change log in one statement (data-
    /// modifying CTEs), as three statements do on SQLite. The bump locks the calendar's row until
    /// commit; other writers to the calendar wait on it, so each round trip saved after it is
    /// saved for all of them. No calendar, no row: the object is not written either.
    private func putCalendarObjectInOneStatement(_ object: CalendarObject) async throws -> CalendarObject {
        let id = object.calendarID.uuidString, name = object.name
        let row = try await db.raw("""
            WITH bumped AS (
                UPDATE calendars SET revision = revision + 1,
                    object_count = object_count + 1 - (SELECT COUNT(*) FROM calendar_objects o WHERE o.calendar_id = \(bind: id) AND o.name = \(bind: name)),
                    object_bytes = object_bytes + \(bind: Int64(object.icalendar.utf8.count))
                        - COALESCE((SELECT octet_length(o.icalendar) FROM calendar_objects o WHERE o.calendar_id = \(bind: id) AND o.name = \(bind: name)), 0)
                WHERE id = \(bind: id) RETURNING revision, account_id
            ), written AS (
                INSERT INTO calendar_objects (\(unsafeRaw: Self.objectColumns), long_span)
                SELECT CAST(\(bind: id) AS TEXT), CAST(\(bind: name) AS TEXT), CAST(\(bind: object.uid) AS TEXT),
                       CAST(\(bind: object.component.rawValue) AS TEXT), CAST(\(bind: object.icalendar) AS TEXT), CAST(\(bind: object.etag) AS TEXT),
                       CAST(\(bind: object.firstStart?.unixMilliseconds) AS BIGINT), CAST(\(bind: object.lastEnd?.unixMilliseconds) AS BIGINT),
                       bumped.revision, CAST(\(bind: object.updatedAt.unixMilliseconds) AS BIGINT), CAST(\(bind: Self.isLongSpan(object)) AS INTEGER)
                FROM bumped
                ON CONFLICT (calendar_id, name) DO UPDATE SET
                    uid = excluded.uid, component = excluded.component, icalendar = excluded.icalendar, etag = excluded.etag,
                    first_start = excluded.first_start, last_end = excluded.last_end, revision = excluded.revision, updated_at = excluded.updated_at,
                    long_span = excluded.long_span
            ), logged AS (
                INSERT INTO calendar_changes (calendar_id, revision, name, kind, logged_at)
                SELECT CAST(\(bind: id) AS TEXT), bumped.revision, CAST(\(bind: name) AS TEXT), \(bind: CalendarChange.Kind.written.rawValue),
                       CAST(\(bind: Date().unixMilliseconds) AS BIGINT)
                FROM bumped
            )
            SELECT revision, account_id FROM bumped
            """).first()
        var stored = object
        stored.revision = try bumpRevision(calendarID: object.calendarID, returning: row)
        return stored
    }

    func deleteCalendarObject(calendarID: UUID, name: String) async throws -> Bool {
        let deleted = try await db.raw("""
            DELETE FROM calendar_objects WHERE calendar_id = \(bind: calendarID.uuidString) AND name = \(bind: name) RETURNING octet_length(icalendar) AS bytes
            """).first()
        guard let deleted else { return false }
        let revision = try await nextRevision(calendarID: calendarID, removing: try deleted.decode(column: "bytes", as: Int64.self))
        try await logChange(calendarID: calendarID, revision: revision, name: name, kind: .deleted)
        return true
    }

    func storedUsage(accountID: UUID) async throws -> StoredUsage {
        guard let row = try await db.raw(Self.usageQuery(accountID: accountID)).first() else {
            return StoredUsage(calendars: 0, objects: 0, bytes: 0)
        }
        return try Self.usage(from: row)
    }

    /// One row: what the account's calendars hold, from the counts each write keeps on them.
    private static func usageQuery(accountID: UUID) -> SQLQueryString {
        """
        SELECT COUNT(*) AS calendars, CAST(COALESCE(SUM(object_count), 0) AS BIGINT) AS objects,
            CAST(COALESCE(SUM(object_bytes), 0) AS BIGINT) AS bytes
        FROM calendars WHERE account_id = \(bind: accountID.uuidString)
        """
    }

    private static func usage(from row: any SQLRow) throws -> StoredUsage {
        StoredUsage(
            calendars: try row.decode(column: "calendars", as: Int.self), objects: try row.decode(column: "objects", as: Int.self),
            bytes: try row.decode(column: "bytes", as: Int64.self))
    }

    /// One statement: the calendar's retention mark with the rows after `revision`, so the
    /// answer and the mark come from the same snapshot.
    func calendarChanges(calendarID: UUID, after revision: Int64) async throws -> [CalendarChange]? {
        let rows = try await db.raw("""
            SELECT c.changes_pruned_through, ch.revision, ch.name, ch.kind FROM calendars c
            LEFT JOIN calendar_changes ch ON ch.calendar_id = c.id AND ch.revision > \(bind: revision)
            WHERE c.id = \(bind: calendarID.uuidString) ORDER BY ch.revision
            """).all()
        guard let first = rows.first else { return [] }
        guard revision >= (try first.decode(column: "changes_pruned_through", as: Int64.self)) else { return nil }
        return try rows.compactMap { row in
            guard let kind = try row.decode(column: "kind", as: String?.self) else { return nil }
            guard let parsed = CalendarChange.Kind(rawValue: kind) else { throw StorageError.corruptRow("change kind \(kind)") }
            return CalendarChange(
                name: try row.decode(column: "name", as: String.self), kind: parsed, revision: try row.decode(column: "revision", as: Int64.self))
        }
    }

    func calendarObjectsWithAlarms(endingAfter date: Date) async throws -> [ReminderQueue.Target] {
        try await db.raw("""
            SELECT c.account_id, o.calendar_id, o.name FROM calendar_objects o
            JOIN calendars c ON c.id = o.calendar_id JOIN accounts a ON a.id = c.account_id
            WHERE a.disabled_at IS NULL AND (o.last_end IS NULL OR o.last_end > \(bind: date.unixMilliseconds))
              AND o.icalendar LIKE '%BEGIN:VALARM%'
            ORDER BY o.calendar_id, o.name
            """).all().map { row in
                ReminderQueue.Target(
                    accountID: try Self.uuid(row, "account_id"), calendarID: try Self.uuid(row, "calendar_id"),
                    objectName: try row.decode(column: "name", as: String.self))
            }
    }

    /// Bumps the calendar's revision in this transaction, and its usage by an object about to be
    /// written as `name` with `bytes` (replacing whatever is stored under that name); the row
    /// lock orders concurrent writers. One statement, so keeping the usage costs no round trip.
    private func nextRevision(calendarID: UUID, replacing name: String, bytes: Int64) async throws -> Int64 {
        let id = calendarID.uuidString
        return try await bumpRevision(calendarID: calendarID, returning: db.raw("""
            UPDATE calendars SET revision = revision + 1,
                object_count = object_count + 1 - (SELECT COUNT(*) FROM calendar_objects o WHERE o.calendar_id = \(bind: id) AND o.name = \(bind: name)),
                object_bytes = object_bytes + \(bind: bytes)
                    - COALESCE((SELECT octet_length(o.icalendar) FROM calendar_objects o WHERE o.calendar_id = \(bind: id) AND o.name = \(bind: name)), 0)
            WHERE id = \(bind: id) RETURNING revision, account_id
            """).first())
    }

    /// Bumps the revision after an object of `bytes` was deleted.
    private func nextRevision(calendarID: UUID, removing bytes: Int64) async throws -> Int64 {
        try await bumpRevision(calendarID: calendarID, returning: db.raw("""
            UPDATE calendars SET revision = revision + 1, object_count = object_count - 1, object_bytes = object_bytes - \(bind: bytes)
            WHERE id = \(bind: calendarID.uuidString) RETURNING revision, account_id
            """).first())
    }

    private func bumpRevision(calendarID: UUID, returning row: (any SQLRow)?) throws -> Int64 {
        guard let row else { throw StorageError.corruptRow("calendar \(calendarID) does not exist") }
        viewChanges?.calendar(calendarID, owner: try Self.uuid(row, "account_id"))
        return try row.decode(column: "revision", as: Int64.self)
    }

    /// The row's time is the server's own clock: it only decides when the row ages out.
    private func logChange(calendarID: UUID, revision: Int64, name: String, kind: CalendarChange.Kind) async throws {
        try await db.raw("""
            INSERT INTO calendar_changes (calendar_id, revision, name, kind, logged_at)
            VALUES (\(bind: calendarID.uuidString), \(bind: revision), \(bind: name), \(bind: kind.rawValue), \(bind: Date().unixMilliseconds))
            """).run()
    }

    private static func componentsText(_ components: Set<ComponentKind>) -> String {
        components.sorted().map(\.rawValue).joined(separator: ",")
    }

    static func calendar(from row: any SQLRow) throws -> CalendarCollection {
        let componentsText = try row.decode(column: "components", as: String.self)
        let components = try Set(componentsText.split(separator: ",").map { text in
            guard let kind = ComponentKind(rawValue: String(text)) else { throw StorageError.corruptRow("component \(text)") }
            return kind
        })
        return CalendarCollection(
            id: try uuid(row, "id"), accountID: try uuid(row, "account_id"), slug: try row.decode(column: "slug", as: String.self),
            displayName: try row.decode(column: "display_name", as: String.self), description: try row.decode(column: "description", as: String.self),
            color: try row.decode(column: "color", as: String?.self), order: try row.decode(column: "sort_order", as: Int?.self),
            timeZone: try row.decode(column: "time_zone", as: String?.self), components: components,
            revision: try row.decode(column: "revision", as: Int64.self), createdAt: try date(row, "created_at"),
            deadProperties: try deadProperties(row),
            subscriptionID: try row.decode(column: "subscription_id", as: String?.self).flatMap(UUID.init(uuidString:)),
            caldavAccountID: try row.decode(column: "caldav_account_id", as: String?.self).flatMap(UUID.init(uuidString:))
        )
    }

    private static func deadPropertiesText(_ properties: [String: String]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(properties), as: UTF8.self)
    }

    private static func deadProperties(_ row: any SQLRow) throws -> [String: String] {
        let text = try row.decode(column: "dead_properties", as: String.self)
        do {
            return try JSONDecoder().decode([String: String].self, from: Data(text.utf8))
        } catch {
            throw StorageError.corruptRow("dead properties \(text.prefix(40))")
        }
    }

    private static func object(from row: any SQLRow) throws -> CalendarObject {
        let component = try row.decode(column: "component", as: String.self)
        guard let kind = ComponentKind(rawValue: component) else { throw StorageError.corruptRow("component \(component)") }
        return CalendarObject(
            calendarID: try uuid(row, "calendar_id"), name: try row.decode(column: "name", as: String.self),
            uid: try row.decode(column: "uid", as: String.self), component: kind, icalendar: try row.decode(column: "icalendar", as: String.self),
            etag: try row.decode(column: "etag", as: String.self), firstStart: try optionalDate(row, "first_start"),
            lastEnd: try optionalDate(row, "last_end"), revision: try row.decode(column: "revision", as: Int64.self),
            updatedAt: try date(row, "updated_at")
        )
    }
}

private extension Int64 {
    /// Saturating: range bounds come from requests.
    func subtractingClamped(_ other: Int64) -> Int64 {
        let (value, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other > 0 ? .min : .max) : value
    }
}
