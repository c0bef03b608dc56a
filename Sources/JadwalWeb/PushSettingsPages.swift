import Foundation
import HTTPTypes
import Hummingbird
import JadwalCore
import JadwalHTTP

/// Settings → Notifications on this device: turn Web Push on in this browser (static/push.js
/// asks the browser to subscribe with the server's VAPID key and registers the subscription
/// through the JSON API), and the list of browsers that receive notifications, each removable.
/// Without JavaScript the list and its Remove buttons still work.
extension WebRoutes {
    package func addPushSettingsRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.get("settings/push") { request, context in try await pushPage(request, context) }
        group.post("settings/push/{id}/delete") { _, context -> Response in
            let accountID = try context.requireIdentity().account.id
            guard let webPush, let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else {
                throw HTTPError(.notFound, message: "No such browser.")
            }
            do {
                try await webPush.remove(id: id, accountID: accountID)
            } catch WebPushSubscriptions.Problem.noSubscription {
                throw HTTPError(.notFound, message: "No such browser.")
            }
            return WebPage.redirect("/settings/push?removed=1")
        }
    }

    private func pushPage(_ request: Request, _ context: JadwalRequestContext) async throws -> Response {
        let account = try context.requireIdentity().account
        let viewer = try await viewer(request, context)
        let texts = assets.texts(viewer.language)
        let when = SettingsDates(language: viewer.language, zone: TimeZone(identifier: account.timeZone) ?? .gmt)
        let browsers = try await webPush?.subscriptions(accountID: account.id) ?? []
        let settings = try await notifications.settings(accountID: account.id)
        let pushed = NotificationKind.allCases.filter(settings.pushKinds.contains).map { texts.text("settingsKind_\($0.rawValue)") }
        var page: [String: Any] = [
            "key": webPush?.serverKey ?? "",
            "browsers": browsers.map { browser -> [String: Any] in
                [
                    "id": browser.id.uuidString.lowercased(), "name": browser.name, "endpoint": browser.endpoint,
                    "created": when.string(browser.createdAt), "lastUsed": browser.lastUsedAt.map(when.string) ?? texts.text("settingsNeverUsed"),
                    "removeLabel": texts.text("settingsRemoveNamed", ["name": browser.name]),
                    "stale": browser.serverKey != webPush?.serverKey,
                ]
            },
            "hasBrowsers": !browsers.isEmpty,
            "kinds": pushed, "noKinds": pushed.isEmpty,
        ]
        if request.uri.queryParameters.get("removed") != nil { page["notice"] = texts.text("pushRemoved") }
        return WebPage(
            template: "push", title: texts.text("pushTitle"), page: page, scripts: ["push.js"], stylesheets: ["settings.css"]
        ).response(assets, viewer: viewer)
    }
}
