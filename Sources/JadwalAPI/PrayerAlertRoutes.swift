import Foundation
import Hummingbird
import JadwalCore
import JadwalHTTP
import PrayerTimes

/// `/api/v1/prayer-alerts`: which prayers the person is alerted to and how early, and the
/// alerts coming in the next two days.
package struct PrayerAlertRoutes: Sendable {
    package let alerts: PrayerAlerts

    package init(alerts: PrayerAlerts) { self.alerts = alerts }

    package func addRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.get("prayer-alerts") { _, context in
            let accountID = try context.requireIdentity().account.id
            return JSONResponse(try await view(accountID: accountID, settings: try await alerts.settings(accountID: accountID)))
        }
        group.put("prayer-alerts") { request, context in
            let accountID = try context.requireIdentity().account.id
            let change = try await request.decodeJSON(as: PrayerAlertChange.self)
            return JSONResponse(try await view(accountID: accountID, settings: try await alerts.save(change, accountID: accountID)))
        }
    }

    private func view(accountID: UUID, settings: PrayerAlertSettings) async throws -> PrayerAlertsView {
        PrayerAlertsView(settings: settings, upcoming: try await alerts.upcoming(accountID: accountID))
    }

    package struct PrayerAlertsView: Encodable, Sendable {
        package struct Upcoming: Encodable, Sendable {
            package let prayer: String
            package let day: String
            package let prayerTime: Date
            package let alertAt: Date
        }

        package let prayers: [String]
        package let minutesBefore: Int
        package let jumuah: Bool
        package let jumuahMinutesBefore: Int
        package let upcoming: [Upcoming]

        package init(settings: PrayerAlertSettings, upcoming: [PrayerAlert]) {
            prayers = settings.prayers.map(\.rawValue)
            minutesBefore = settings.minutesBefore
            jumuah = settings.jumuah
            jumuahMinutesBefore = settings.jumuahMinutesBefore
            self.upcoming = upcoming.map {
                Upcoming(prayer: $0.isJumuah ? "jumuah" : $0.prayer.rawValue, day: $0.day, prayerTime: $0.prayerTime, alertAt: $0.fireAt)
            }
        }
    }
}
