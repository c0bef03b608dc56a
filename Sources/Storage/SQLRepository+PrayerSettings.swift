import Foundation
import JadwalCore
import SQLKit

extension SQLRepository: PrayerSettingsStore {
    func prayerSettings(accountID: UUID) async throws -> PrayerSettings? {
        guard let row = try await db.raw("SELECT settings FROM prayer_settings WHERE account_id = \(bind: accountID.uuidString)").first() else {
            return nil
        }
        let json = try row.decode(column: "settings", as: String.self)
        do {
            return try JSONDecoder().decode(PrayerSettings.self, from: Data(json.utf8))
        } catch {
            throw StorageError.corruptRow("prayer settings of \(accountID): \(error)")
        }
    }

    func savePrayerSettings(_ settings: PrayerSettings, accountID: UUID, at: Date) async throws {
        let json = String(decoding: try JSONEncoder().encode(settings), as: UTF8.self)
        try await db.raw("""
            INSERT INTO prayer_settings (account_id, settings, revision, updated_at)
            VALUES (\(bind: accountID.uuidString), \(bind: json), 1, \(bind: at.unixMilliseconds))
            ON CONFLICT (account_id) DO UPDATE SET
                settings = excluded.settings, revision = prayer_settings.revision + 1, updated_at = excluded.updated_at
            """).run()
    }
}
