import Foundation
import JadwalCore
import SQLKit

extension SQLRepository: CalendarShareStore {
    private static let shareColumns =
        "id, calendar_id, owner_id, sharee_email, sharee_id, access, state, slug, display_name, color, busy_set, busy, note, created_at, updated_at"

    /// A share with its calendar and owner: share columns are read under an `s_` alias, since
    /// both tables have `id`, `display_name`, `color` and `created_at`.
    private static var entrySelect: String {
        let calendar = calendarColumns.split(separator: ",").map { "c." + $0.trimmingCharacters(in: .whitespaces) }
        let share = shareColumns.split(separator: ",").map { column -> String in
            let name = column.trimmingCharacters(in: .whitespaces)
            return "s.\(name) AS s_\(name)"
        }
        return """
            SELECT \((calendar + share).joined(separator: ", ")), a.name AS owner_name, a.email AS owner_email
            FROM calendar_shares s JOIN calendars c ON c.id = s.calendar_id JOIN accounts a ON a.id = s.owner_id
            """
    }

    func insertCalendarShare(_ share: CalendarShare) async throws {
        try await db.raw("""
            INSERT INTO calendar_shares (\(unsafeRaw: Self.shareColumns))
            VALUES (\(bind: share.id.uuidString), \(bind: share.calendarID.uuidString), \(bind: share.ownerID.uuidString),
                    \(bind: share.shareeEmail.value), \(bind: share.shareeID?.uuidString), \(bind: share.access.rawValue),
                    \(bind: share.state.rawValue), \(bind: share.slug), \(bind: share.displayName), \(bind: share.color),
                    \(bind: share.busy != nil), \(bind: share.busy ?? false), \(bind: share.note), \(bind: share.createdAt.unixMilliseconds),
                    \(bind: share.updatedAt.unixMilliseconds))
            """).run()
    }

    func updateCalendarShare(_ share: CalendarShare) async throws {
        try await db.raw("""
            UPDATE calendar_shares SET sharee_id = \(bind: share.shareeID?.uuidString), access = \(bind: share.access.rawValue),
                state = \(bind: share.state.rawValue), slug = \(bind: share.slug), display_name = \(bind: share.displayName),
                color = \(bind: share.color), busy_set = \(bind: share.busy != nil), busy = \(bind: share.busy ?? false),
                note = \(bind: share.note), updated_at = \(bind: share.updatedAt.unixMilliseconds)
            WHERE id = \(bind: share.id.uuidString)
            """).run()
        // Accepted, left or given other access: the sharee's views gain or lose the calendar.
        if let sharee = share.shareeID { viewChanges?.account(sharee) }
    }

    func deleteCalendarShare(id: UUID) async throws {
        let row = try await db.raw("DELETE FROM calendar_shares WHERE id = \(bind: id.uuidString) RETURNING sharee_id").first()
        if let sharee = try row?.decode(column: "sharee_id", as: String?.self).flatMap(UUID.init(uuidString:)) { viewChanges?.account(sharee) }
    }

    func calendarShare(id: UUID) async throws -> CalendarShareEntry? {
        try await db.raw("\(unsafeRaw: Self.entrySelect) WHERE s.id = \(bind: id.uuidString)").first().map(Self.entry(from:))
    }

    func calendarShares(calendarID: UUID) async throws -> [CalendarShare] {
        try await db.raw("""
            SELECT \(unsafeRaw: Self.shareColumns) FROM calendar_shares WHERE calendar_id = \(bind: calendarID.uuidString)
            ORDER BY created_at, sharee_email
            """).all().map { try Self.share(from: $0, prefix: "") }
    }

    func outgoingCalendarShares(ownerID: UUID) async throws -> [CalendarShare] {
        try await db.raw("""
            SELECT \(unsafeRaw: Self.shareColumns) FROM calendar_shares WHERE owner_id = \(bind: ownerID.uuidString)
            ORDER BY created_at, sharee_email
            """).all().map { try Self.share(from: $0, prefix: "") }
    }

    func incomingCalendarShares(email: EmailAddress, accountID: UUID) async throws -> [CalendarShareEntry] {
        try await db.raw("""
            \(unsafeRaw: Self.entrySelect)
            WHERE (s.sharee_email = \(bind: email.value) OR s.sharee_id = \(bind: accountID.uuidString)) AND s.owner_id <> \(bind: accountID.uuidString)
            ORDER BY s.created_at DESC, s.id
            """).all().map(Self.entry(from:))
    }

    func acceptedCalendarShares(shareeID: UUID) async throws -> [CalendarShareEntry] {
        try await db.raw("""
            \(unsafeRaw: Self.entrySelect)
            WHERE s.sharee_id = \(bind: shareeID.uuidString) AND s.state = \(bind: CalendarShare.State.accepted.rawValue)
            ORDER BY s.updated_at, s.id
            """).all().map(Self.entry(from:))
    }

    func busyTimeVisibility(accountID: UUID) async throws -> BusyTimeVisibility {
        guard let row = try await db.raw("""
            SELECT audience, allowed FROM busy_time_visibility WHERE account_id = \(bind: accountID.uuidString)
            """).first()
        else { return .nobody }
        let audienceText = try row.decode(column: "audience", as: String.self)
        guard let audience = BusyTimeVisibility.Audience(rawValue: audienceText) else { throw StorageError.corruptRow("busy-time audience \(audienceText)") }
        let allowed = try row.decode(column: "allowed", as: String.self).split(separator: "\n").map { text in
            do { return try EmailAddress(String(text)) } catch { throw StorageError.corruptRow("busy-time address \(text)") }
        }
        return BusyTimeVisibility(audience: audience, allowed: allowed)
    }

    func saveBusyTimeVisibility(_ visibility: BusyTimeVisibility, accountID: UUID, at: Date) async throws {
        try await db.raw("""
            INSERT INTO busy_time_visibility (account_id, audience, allowed, updated_at)
            VALUES (\(bind: accountID.uuidString), \(bind: visibility.audience.rawValue), \(bind: visibility.allowed.map(\.value).joined(separator: "\n")),
                    \(bind: at.unixMilliseconds))
            ON CONFLICT (account_id) DO UPDATE SET audience = excluded.audience, allowed = excluded.allowed, updated_at = excluded.updated_at
            """).run()
    }

    private static func entry(from row: any SQLRow) throws -> CalendarShareEntry {
        let emailText = try row.decode(column: "owner_email", as: String.self)
        guard let ownerEmail = try? EmailAddress(emailText) else { throw StorageError.corruptRow("account email \(emailText)") }
        let ownerName = try row.decode(column: "owner_name", as: String.self)
        return CalendarShareEntry(
            share: try share(from: row, prefix: "s_"), calendar: try calendar(from: row),
            ownerName: ownerName.isEmpty ? String(ownerEmail.value.prefix { $0 != "@" }) : ownerName, ownerEmail: ownerEmail)
    }

    private static func share(from row: any SQLRow, prefix: String) throws -> CalendarShare {
        func column(_ name: String) -> String { prefix + name }
        let accessText = try row.decode(column: column("access"), as: String.self)
        let stateText = try row.decode(column: column("state"), as: String.self)
        let emailText = try row.decode(column: column("sharee_email"), as: String.self)
        guard let access = CalendarShare.Access(rawValue: accessText) else { throw StorageError.corruptRow("share access \(accessText)") }
        guard let state = CalendarShare.State(rawValue: stateText) else { throw StorageError.corruptRow("share state \(stateText)") }
        guard let email = try? EmailAddress(emailText) else { throw StorageError.corruptRow("share address \(emailText)") }
        let busySet = try row.decode(column: column("busy_set"), as: Bool.self)
        return CalendarShare(
            id: try uuid(row, column("id")), calendarID: try uuid(row, column("calendar_id")), ownerID: try uuid(row, column("owner_id")),
            shareeEmail: email, shareeID: try row.decode(column: column("sharee_id"), as: String?.self).flatMap(UUID.init(uuidString:)),
            access: access, state: state, slug: try row.decode(column: column("slug"), as: String?.self),
            displayName: try row.decode(column: column("display_name"), as: String?.self), color: try row.decode(column: column("color"), as: String?.self),
            busy: busySet ? try row.decode(column: column("busy"), as: Bool.self) : nil, note: try row.decode(column: column("note"), as: String.self),
            createdAt: try date(row, column("created_at")), updatedAt: try date(row, column("updated_at")))
    }
}
