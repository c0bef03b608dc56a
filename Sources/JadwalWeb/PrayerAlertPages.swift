import Foundation
import HTTPTypes
import Hummingbird
import JadwalCore
import JadwalHTTP
import PrayerTimes

/// Settings → Prayer times → Alerts: which prayers the person is told about, how early, and
/// Jumu'ah on Fridays; the next alerts; and where they go (the channels chosen for the "prayer"
/// kind in the notification settings). The form goes through `PrayerAlerts`, as the API does.
package enum PrayerAlertPages {
    package static let path = "/settings/prayer/alerts"

    package struct Form: Decodable {
        package var prayers: [String]?
        package var minutesBefore: String?
        package var jumuah: String?
        package var jumuahMinutesBefore: String?
    }
}

extension WebRoutes {
    package func addPrayerAlertRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.get("settings/prayer/alerts") { request, context in
            try await prayerAlertsPage(request, context, notice: request.uri.queryParameters.get("saved") != nil ? "alertsSaved" : nil)
        }
        group.post("settings/prayer/alerts") { request, context -> Response in
            let account = try context.requireIdentity().account
            let form = try context.form(PrayerAlertPages.Form.self)
            let texts = assets.texts(account.language)
            guard let prayerAlerts else { throw HTTPError(.notFound) }
            var errors: [String: String] = [:]
            func minutes(_ text: String?, field: String) -> Int? {
                guard let value = Int((text ?? "").trimmingCharacters(in: .whitespaces)), PrayerAlertSettings.leadLimit.contains(value) else {
                    errors[field] = texts.text("alertsErrorMinutes", ["max": String(PrayerAlertSettings.leadLimit.upperBound)])
                    return nil
                }
                return value
            }
            let before = minutes(form.minutesBefore, field: "minutesBefore")
            let jumuahBefore = minutes(form.jumuahMinutesBefore, field: "jumuahMinutesBefore")
            if !errors.isEmpty { return try await prayerAlertsPage(request, context, form: form, errors: errors) }
            // Every box is on the form, so one left unticked is "off", not "unchanged".
            let change = PrayerAlertChange(prayers: form.prayers ?? [], minutesBefore: before, jumuah: form.jumuah == "on", jumuahMinutesBefore: jumuahBefore)
            do {
                _ = try await prayerAlerts.save(change, accountID: account.id)
            } catch PrayerPreferences.Problem.notSet {
                return try await prayerAlertsPage(request, context, form: form, errors: ["form": texts.text("alertsNeedPlace")])
            } catch is PrayerAlertChange.Problem {
                // Only a hand-made request names a prayer the form does not offer.
                return try await prayerAlertsPage(request, context, form: form, errors: ["prayers": texts.text("alertsErrorPrayer")])
            }
            return WebPage.redirect(PrayerAlertPages.path + "?saved=1")
        }
    }

    private func prayerAlertsPage(
        _ request: Request, _ context: JadwalRequestContext, form: PrayerAlertPages.Form? = nil, errors: [String: String] = [:], notice: String? = nil
    ) async throws -> Response {
        let account = try context.requireIdentity().account
        let viewer = try await viewer(request, context)
        let texts = assets.texts(viewer.language)
        guard let prayerAlerts else { throw HTTPError(.notFound) }
        let saved = try await prayerAlerts.settings(accountID: account.id)
        let place = try await prayer.settings(accountID: account.id)
        let upcoming = try await prayerAlerts.upcoming(accountID: account.id, limit: 5)
        let channels = try await notifications.settings(accountID: account.id)
        let devices = try await notifications.devices(accountID: account.id).count + (try await webPush?.subscriptions(accountID: account.id).count ?? 0)
        let chosen = form.map { Set($0.prayers ?? []) } ?? Set(saved.prayers.map(\.rawValue))
        let zone = TimeZone(identifier: place?.timeZone ?? account.timeZone) ?? .gmt
        // Times as at the place where the person prays, which is where the alerts are computed.
        var atPlace = account
        atPlace.timeZone = zone.identifier
        let text = NotificationText(account: atPlace)
        let calendar = place.map { PrayerCalendar(settings: $0, language: viewer.language) }
        var page: [String: Any] = [
            "hasPlace": place != nil,
            "prayers": PrayerAlertSettings.alertable.map { prayer -> [String: Any] in
                ["value": prayer.rawValue, "label": viewer.language == .arabic ? prayer.arabicName : prayer.englishName, "checked": chosen.contains(prayer.rawValue)]
            },
            "minutesBefore": form?.minutesBefore ?? String(saved.minutesBefore),
            "jumuah": form.map { $0.jumuah == "on" } ?? saved.jumuah,
            "jumuahMinutesBefore": form?.jumuahMinutesBefore ?? String(saved.jumuahMinutesBefore),
            "max": PrayerAlertSettings.leadLimit.upperBound,
            "errors": errors, "hasErrors": !errors.isEmpty,
            "upcoming": upcoming.map { alert -> [String: String] in
                [
                    "name": calendar?.title(alert.prayer, jumuah: alert.isJumuah) ?? alert.prayer.englishName,
                    "at": text.when(alert.prayerTime), "datetime": ISO8601DateFormatter().string(from: alert.prayerTime),
                    "alertAt": text.time(alert.fireAt),
                ]
            },
            "hasUpcoming": !upcoming.isEmpty, "isOn": saved.isOn,
            "channelEmail": channels.emailKinds.contains(.prayer), "channelPush": channels.pushKinds.contains(.prayer),
            "pushDevices": texts.text("alertsPushDevices", ["count": String(devices)]),
        ]
        if let notice { page["notice"] = texts.text(notice) }
        return WebPage(
            template: "prayer-alerts", title: texts.text("alertsTitle"), page: page, status: errors.isEmpty ? .ok : .unprocessableContent,
            stylesheets: ["settings.css"]
        ).response(assets, viewer: viewer)
    }
}
