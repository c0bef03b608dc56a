import Foundation
import JadwalCore
import SQLKit

extension SQLRepository: NotificationStore {
    private static let notificationColumns =
        "id, account_id, sequence, kind, reason_key, title, body, links, urgent, created_at, deliver_after, read_at"

    func notificationExists(accountID: UUID, reasonKey: String) async throws -> Bool {
        try await db.raw("""
            SELECT id FROM notifications WHERE account_id = \(bind: accountID.uuidString) AND reason_key = \(bind: reasonKey)
            """).first() != nil
    }

    func insertNotification(_ notification: AccountNotification) async throws -> AccountNotification? {
        let account = notification.accountID.uuidString
        let existing = try await db.raw("""
            SELECT id FROM notifications WHERE account_id = \(bind: account) AND reason_key = \(bind: notification.reasonKey)
            """).first()
        guard existing == nil else { return nil }
        // The counter row is locked until commit, so an account's sequence numbers become visible
        // in order: a stream that saw n never misses a later-committed n - 1.
        guard let row = try await db.raw("""
            INSERT INTO notification_sequences (account_id, last_sequence) VALUES (\(bind: account), 1)
            ON CONFLICT (account_id) DO UPDATE SET last_sequence = notification_sequences.last_sequence + 1
            RETURNING last_sequence
            """).first()
        else { throw StorageError.corruptRow("notification sequence of \(account)") }
        var stored = notification
        stored.sequence = try row.decode(column: "last_sequence", as: Int64.self)
        let links = String(decoding: try JSONEncoder.sorted.encode(notification.links), as: UTF8.self)
        try await db.raw("""
            INSERT INTO notifications (\(unsafeRaw: Self.notificationColumns))
            VALUES (\(bind: stored.id.uuidString), \(bind: account), \(bind: stored.sequence), \(bind: stored.kind.rawValue),
                    \(bind: stored.reasonKey), \(bind: stored.title), \(bind: stored.body), \(bind: links), \(bind: stored.urgent),
                    \(bind: stored.createdAt.unixMilliseconds), \(bind: stored.deliverAfter.unixMilliseconds), \(bind: stored.readAt?.unixMilliseconds))
            """).run()
        viewChanges?.notified(notification.accountID)
        return stored
    }

    func notifications(accountID: UUID, deliveredBy now: Date, beforeSequence: Int64?, unreadOnly: Bool, limit: Int) async throws -> [AccountNotification] {
        try await db.raw("""
            SELECT \(unsafeRaw: Self.notificationColumns) FROM notifications
            WHERE account_id = \(bind: accountID.uuidString) AND deliver_after <= \(bind: now.unixMilliseconds)
              AND sequence < \(bind: beforeSequence ?? Int64.max) \(unsafeRaw: unreadOnly ? "AND read_at IS NULL" : "")
            ORDER BY sequence DESC LIMIT \(bind: limit)
            """).all().map(Self.notification(from:))
    }

    func notifications(accountID: UUID, deliveredBy now: Date, afterSequence sequence: Int64, limit: Int) async throws -> [AccountNotification] {
        try await db.raw("""
            SELECT \(unsafeRaw: Self.notificationColumns) FROM notifications
            WHERE account_id = \(bind: accountID.uuidString) AND deliver_after <= \(bind: now.unixMilliseconds) AND sequence > \(bind: sequence)
            ORDER BY sequence LIMIT \(bind: limit)
            """).all().map(Self.notification(from:))
    }

    func notification(id: UUID, accountID: UUID) async throws -> AccountNotification? {
        try await db.raw("""
            SELECT \(unsafeRaw: Self.notificationColumns) FROM notifications WHERE id = \(bind: id.uuidString) AND account_id = \(bind: accountID.uuidString)
            """).first().map(Self.notification(from:))
    }

    func unreadNotificationCount(accountID: UUID, deliveredBy now: Date) async throws -> Int {
        try await db.raw("""
            SELECT COUNT(*) AS n FROM notifications
            WHERE account_id = \(bind: accountID.uuidString) AND deliver_after <= \(bind: now.unixMilliseconds) AND read_at IS NULL
            """).first()?.decode(column: "n", as: Int.self) ?? 0
    }

    func nextHeldNotification(accountID: UUID, after now: Date) async throws -> Date? {
        guard let row = try await db.raw("""
            SELECT MIN(deliver_after) AS next FROM notifications
            WHERE account_id = \(bind: accountID.uuidString) AND deliver_after > \(bind: now.unixMilliseconds)
            """).first(), try !row.decodeNil(column: "next")
        else { return nil }
        return try Self.date(row, "next")
    }

    func markNotificationsRead(ids: [UUID], accountID: UUID, at: Date) async throws -> Int {
        guard !ids.isEmpty else { return 0 }
        let list = SQLList(ids.map { SQLBind($0.uuidString) })
        return try await db.raw("""
            UPDATE notifications SET read_at = \(bind: at.unixMilliseconds)
            WHERE account_id = \(bind: accountID.uuidString) AND read_at IS NULL AND id IN (\(list))
            RETURNING id
            """).all().count
    }

    func markAllNotificationsRead(accountID: UUID, at: Date) async throws -> Int {
        try await db.raw("""
            UPDATE notifications SET read_at = \(bind: at.unixMilliseconds)
            WHERE account_id = \(bind: accountID.uuidString) AND read_at IS NULL AND deliver_after <= \(bind: at.unixMilliseconds)
            RETURNING id
            """).all().count
    }

    func notificationSettings(accountID: UUID) async throws -> NotificationSettings {
        guard let row = try await db.raw("""
            SELECT email_kinds, push_kinds, quiet_during_sleep, quiet_during_prayer FROM notification_settings
            WHERE account_id = \(bind: accountID.uuidString)
            """).first()
        else { return NotificationSettings() }
        // Kinds are stored by name; one this binary does not know is left out, not fatal.
        func kinds(_ column: String) throws -> Set<NotificationKind> {
            let names = (try? JSONDecoder().decode([String].self, from: Data(try row.decode(column: column, as: String.self).utf8))) ?? []
            return Set(names.compactMap(NotificationKind.init(rawValue:)))
        }
        return NotificationSettings(
            emailKinds: try kinds("email_kinds"), pushKinds: try kinds("push_kinds"),
            quietDuringSleep: try row.decode(column: "quiet_during_sleep", as: Bool.self),
            quietDuringPrayer: try row.decode(column: "quiet_during_prayer", as: Bool.self))
    }

    func saveNotificationSettings(_ settings: NotificationSettings, accountID: UUID, at: Date) async throws {
        func json(_ kinds: Set<NotificationKind>) throws -> String {
            String(decoding: try JSONEncoder.sorted.encode(kinds.map(\.rawValue).sorted()), as: UTF8.self)
        }
        try await db.raw("""
            INSERT INTO notification_settings (account_id, email_kinds, push_kinds, quiet_during_sleep, quiet_during_prayer, updated_at)
            VALUES (\(bind: accountID.uuidString), \(bind: try json(settings.emailKinds)), \(bind: try json(settings.pushKinds)),
                    \(bind: settings.quietDuringSleep), \(bind: settings.quietDuringPrayer), \(bind: at.unixMilliseconds))
            ON CONFLICT (account_id) DO UPDATE SET
                email_kinds = excluded.email_kinds, push_kinds = excluded.push_kinds, quiet_during_sleep = excluded.quiet_during_sleep,
                quiet_during_prayer = excluded.quiet_during_prayer, updated_at = excluded.updated_at
            """).run()
    }

    func recordDelivery(notificationID: UUID, channel: String, at: Date) async throws -> Bool {
        try await db.raw("""
            INSERT INTO notification_deliveries (notification_id, channel, sent_at)
            VALUES (\(bind: notificationID.uuidString), \(bind: channel), \(bind: at.unixMilliseconds))
            ON CONFLICT (notification_id, channel) DO NOTHING
            RETURNING notification_id
            """).first() != nil
    }

    func releaseDelivery(notificationID: UUID, channel: String) async throws {
        try await db.raw("""
            DELETE FROM notification_deliveries WHERE notification_id = \(bind: notificationID.uuidString) AND channel = \(bind: channel)
            """).run()
    }

    // MARK: Push devices

    private static let deviceColumns = "id, account_id, token, name, created_at, last_used_at"

    func savePushDevice(_ device: PushDevice) async throws -> PushDevice {
        guard let row = try await db.raw("""
            INSERT INTO push_devices (\(unsafeRaw: Self.deviceColumns))
            VALUES (\(bind: device.id.uuidString), \(bind: device.accountID.uuidString), \(bind: device.token), \(bind: device.name),
                    \(bind: device.createdAt.unixMilliseconds), \(bind: device.lastUsedAt?.unixMilliseconds))
            ON CONFLICT (token) DO UPDATE SET account_id = excluded.account_id, name = excluded.name
            RETURNING \(unsafeRaw: Self.deviceColumns)
            """).first()
        else { throw StorageError.corruptRow("push device") }
        return try Self.device(from: row)
    }

    func pushDevices(accountID: UUID) async throws -> [PushDevice] {
        try await db.raw("""
            SELECT \(unsafeRaw: Self.deviceColumns) FROM push_devices WHERE account_id = \(bind: accountID.uuidString) ORDER BY created_at, id
            """).all().map(Self.device(from:))
    }

    func deletePushDevice(id: UUID, accountID: UUID) async throws -> Bool {
        try await db.raw("""
            DELETE FROM push_devices WHERE id = \(bind: id.uuidString) AND account_id = \(bind: accountID.uuidString) RETURNING id
            """).first() != nil
    }

    func deletePushDevice(token: String) async throws -> Bool {
        try await db.raw("DELETE FROM push_devices WHERE token = \(bind: token) RETURNING id").first() != nil
    }

    private static func device(from row: any SQLRow) throws -> PushDevice {
        PushDevice(
            id: try uuid(row, "id"), accountID: try uuid(row, "account_id"), token: try row.decode(column: "token", as: String.self),
            name: try row.decode(column: "name", as: String.self), createdAt: try date(row, "created_at"),
            lastUsedAt: try optionalDate(row, "last_used_at"))
    }

    private static func notification(from row: any SQLRow) throws -> AccountNotification {
        let kind = try row.decode(column: "kind", as: String.self)
        guard let parsedKind = NotificationKind(rawValue: kind) else { throw StorageError.corruptRow("notification kind \(kind)") }
        let links = (try? JSONDecoder().decode([String: String].self, from: Data(try row.decode(column: "links", as: String.self).utf8))) ?? [:]
        return AccountNotification(
            id: try uuid(row, "id"), accountID: try uuid(row, "account_id"), sequence: try row.decode(column: "sequence", as: Int64.self),
            kind: parsedKind, reasonKey: try row.decode(column: "reason_key", as: String.self), title: try row.decode(column: "title", as: String.self),
            body: try row.decode(column: "body", as: String.self), links: links, urgent: try row.decode(column: "urgent", as: Bool.self),
            createdAt: try date(row, "created_at"), deliverAfter: try date(row, "deliver_after"), readAt: try optionalDate(row, "read_at"))
    }
}

extension JSONEncoder {
    /// Stable text for stored JSON (same value, same bytes).
    static let sorted: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()
}
