import Foundation
import JadwalCore
import SQLKit

extension SQLRepository: PrayerSettingsStore {
    func prayerSettings(accountID: UUID) async throws -> PrayerSettings? {
        try await storedPrayerSettings(accountID: accountID)?.settings
    }

    func storedPrayerSettings(accountID: UUID) async throws -> StoredPrayerSettings? {
        guard let row = try await db.raw("""
            SELECT settings, revision, updated_at FROM prayer_settings WHERE account_id = \(bind: accountID.uuidString)
            """).first()
        else { return nil }
        let json = try row.decode(column: "settings", as: String.self)
        let settings: PrayerSettings
        do {
            settings = try JSONDecoder().decode(PrayerSettings.self, from: Data(json.utf8))
        } catch {
            throw StorageError.corruptRow("prayer settings of \(accountID): \(error)")
        }
        return StoredPrayerSettings(
            settings: settings, revision: try row.decode(column: "revision", as: Int64.self), updatedAt: try Self.date(row, "updated_at"))
    }

    func savePrayerSettings(_ settings: PrayerSettings, accountID: UUID, at: Date) async throws {
        let json = String(decoding: try JSONEncoder().encode(settings), as: UTF8.self)
        try await db.raw("""
            INSERT INTO prayer_settings (account_id, settings, revision, updated_at)
            VALUES (\(bind: accountID.uuidString), \(bind: json), 1, \(bind: at.unixMilliseconds))
            ON CONFLICT (account_id) DO UPDATE SET
                settings = excluded.settings, revision = prayer_settings.revision + 1, updated_at = excluded.updated_at
            """).run()
        viewChanges?.account(accountID)
    }
}
