import Foundation
import JadwalCore
import SQLKit

extension SQLRepository: WebPushStore {
    private static let webPushColumns = "id, account_id, endpoint, p256dh, auth, name, server_key, created_at, last_used_at"

    func saveWebPushSubscription(_ subscription: WebPushSubscription) async throws -> WebPushSubscription {
        guard let row = try await db.raw("""
            INSERT INTO web_push_subscriptions (\(unsafeRaw: Self.webPushColumns))
            VALUES (\(bind: subscription.id.uuidString), \(bind: subscription.accountID.uuidString), \(bind: subscription.endpoint),
                    \(bind: subscription.p256dh), \(bind: subscription.auth), \(bind: subscription.name), \(bind: subscription.serverKey),
                    \(bind: subscription.createdAt.unixMilliseconds), \(bind: subscription.lastUsedAt?.unixMilliseconds))
            ON CONFLICT (endpoint) DO UPDATE SET
                account_id = excluded.account_id, p256dh = excluded.p256dh, auth = excluded.auth, name = excluded.name,
                server_key = excluded.server_key
            RETURNING \(unsafeRaw: Self.webPushColumns)
            """).first()
        else { throw StorageError.corruptRow("web push subscription") }
        return try Self.webPushSubscription(from: row)
    }

    func webPushSubscriptions(accountID: UUID) async throws -> [WebPushSubscription] {
        try await db.raw("""
            SELECT \(unsafeRaw: Self.webPushColumns) FROM web_push_subscriptions WHERE account_id = \(bind: accountID.uuidString)
            ORDER BY created_at, id
            """).all().map(Self.webPushSubscription(from:))
    }

    func webPushSubscription(endpoint: String) async throws -> WebPushSubscription? {
        try await db.raw("""
            SELECT \(unsafeRaw: Self.webPushColumns) FROM web_push_subscriptions WHERE endpoint = \(bind: endpoint)
            """).first().map(Self.webPushSubscription(from:))
    }

    func deleteWebPushSubscription(id: UUID, accountID: UUID) async throws -> Bool {
        try await db.raw("""
            DELETE FROM web_push_subscriptions WHERE id = \(bind: id.uuidString) AND account_id = \(bind: accountID.uuidString) RETURNING id
            """).first() != nil
    }

    func deleteWebPushSubscription(id: UUID) async throws -> Bool {
        try await db.raw("DELETE FROM web_push_subscriptions WHERE id = \(bind: id.uuidString) RETURNING id").first() != nil
    }

    func markWebPushSubscriptionUsed(id: UUID, at: Date) async throws {
        try await db.raw("""
            UPDATE web_push_subscriptions SET last_used_at = \(bind: at.unixMilliseconds) WHERE id = \(bind: id.uuidString)
            """).run()
    }

    private static func webPushSubscription(from row: any SQLRow) throws -> WebPushSubscription {
        WebPushSubscription(
            id: try uuid(row, "id"), accountID: try uuid(row, "account_id"), endpoint: try row.decode(column: "endpoint", as: String.self),
            p256dh: try row.decode(column: "p256dh", as: String.self), auth: try row.decode(column: "auth", as: String.self),
            name: try row.decode(column: "name", as: String.self), serverKey: try row.decode(column: "server_key", as: String.self),
            createdAt: try date(row, "created_at"), lastUsedAt: try optionalDate(row, "last_used_at"))
    }
}

extension SQLRepository: PrayerAlertStore {
    func prayerAlertSettings(accountID: UUID) async throws -> PrayerAlertSettings? {
        guard let row = try await db.raw("""
            SELECT settings FROM prayer_alerts WHERE account_id = \(bind: accountID.uuidString)
            """).first()
        else { return nil }
        do {
            return try JSONDecoder().decode(PrayerAlertSettings.self, from: Data(try row.decode(column: "settings", as: String.self).utf8))
        } catch {
            throw StorageError.corruptRow("prayer alerts of \(accountID): \(error)")
        }
    }

    func savePrayerAlertSettings(_ settings: PrayerAlertSettings, accountID: UUID, at: Date) async throws {
        let json = String(decoding: try JSONEncoder.sorted.encode(settings), as: UTF8.self)
        try await db.raw("""
            INSERT INTO prayer_alerts (account_id, settings, active, updated_at)
            VALUES (\(bind: accountID.uuidString), \(bind: json), \(bind: settings.isOn), \(bind: at.unixMilliseconds))
            ON CONFLICT (account_id) DO UPDATE SET settings = excluded.settings, active = excluded.active, updated_at = excluded.updated_at
            """).run()
    }

    func accountsWithPrayerAlerts() async throws -> [UUID] {
        try await db.raw("""
            SELECT prayer_alerts.account_id FROM prayer_alerts JOIN accounts ON accounts.id = prayer_alerts.account_id
            WHERE prayer_alerts.active AND accounts.disabled_at IS NULL ORDER BY prayer_alerts.account_id
            """).all().map { try Self.uuid($0, "account_id") }
    }
}
