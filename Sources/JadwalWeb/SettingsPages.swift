import Foundation
import HTTPTypes
import Hummingbird
import JadwalCore
import JadwalHTTP
import PrayerTimes

/// The settings screen: profile (name, time zone, language, the Hijri date), Easy Setup for
/// iPhone, app passwords, signed-in devices, notification choices and signing out. Each form
/// posts back here and goes through the same core the JSON API uses; a problem is shown beside
/// its field with a 4xx, never as an error page. Prayer times, WhatsApp and routines have
/// settings pages of their own, linked from this page's section list.
package enum SettingsPages {
    package struct ProfileForm: Decodable {
        package var name: String?
        package var timeZone: String?
        package var language: String?
        package var showHijri: String?
    }

    package struct NameForm: Decodable {
        package var name: String?
    }

    package struct NotificationsForm: Decodable {
        package var email: [String]?
        package var push: [String]?
        package var quietDuringSleep: String?
        package var quietDuringPrayer: String?
    }

    /// The sections of settings, in the order of the page; those with a path are other screens.
    package static let sections: [(href: String, key: String)] = [
        ("#profile", "settingsProfile"), ("#easy-setup", "settingsEasySetup"), ("#app-passwords", "settingsAppPasswords"),
        ("#devices", "settingsDevices"), ("#notification-settings", "settingsNotifications"), ("/settings/calendars", "settingsCalendars"), ("/settings/prayer", "settingsPrayer"),
        ("/settings/whatsapp", "settingsWhatsApp"), ("/settings/routines", "settingsRoutines"), ("/settings/account", "settingsAccount"),
        (QuestionnairePages.path, "settingsQuestionnaire"), ("#sign-out", "settingsSignOutSection"),
    ]

    /// Every zone a person can pick: IANA names only, as `ProfileChange` accepts them.
    package static let timeZones: [String] = (["UTC"] + TimeZone.knownTimeZoneIdentifiers.filter { $0.contains("/") }).sorted()

    /// What a browser's user agent says about the device, in a few words ("Firefox on Linux");
    /// the raw string when it is not one we know.
    package static func device(userAgent: String?) -> String? {
        guard let agent = userAgent?.trimmingCharacters(in: .whitespaces), !agent.isEmpty else { return nil }
        // Order matters: Edge and Opera also say Chrome, Chrome also says Safari.
        let browsers = [("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("Chrome/", "Chrome"), ("Safari/", "Safari")]
        let systems = [("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"), ("Mac OS X", "macOS"), ("Windows", "Windows"), ("Linux", "Linux")]
        let browser = browsers.first { agent.contains($0.0) }?.1
        let system = systems.first { agent.contains($0.0) }?.1
        switch (browser, system) {
        case let (browser?, system?): return "\(browser) · \(system)"
        case let (browser?, nil): return browser
        case let (nil, system?): return system
        default: return String(agent.prefix(80))
        }
    }

    /// The link as a QR code, inline SVG for a phone to scan from the screen. Safe to put in
    /// the page unescaped: the encoder's own markup, the link only as modules, the title escaped.
    package static func qrCode(_ link: String, title: String) -> String? {
        QRCode.svg(link, title: title)
    }

    /// The devices section's list of what signs in without a session: app passwords (listed in
    /// full in their own section), connector tokens, feed addresses and unspent setup links.
    package static func accessLines(_ access: DeviceAccess, texts: [String: String], when: SettingsDates) -> [String] {
        var lines = [texts.text("settingsAccessAppPasswords", ["count": String(access.appPasswords.count)])]
        lines += access.connectorTokens.map { texts.text("settingsAccessConnector", ["name": $0.name, "created": when.string($0.createdAt)]) }
        lines += access.feeds.map { texts.text("settingsAccessFeed", ["created": when.string($0.createdAt)]) }
        lines += access.setupLinks.map { texts.text("settingsAccessSetupLink", ["name": $0.deviceName, "expires": when.string($0.expiresAt)]) }
        return lines
    }

}

extension WebRoutes {
    /// What a POST adds to the page it renders: the new password or link (shown once), or
    /// the form's problems.
    package struct SettingsExtras {
        package var profile: SettingsPages.ProfileForm?
        package var errors: [String: String] = [:]
        package var newPassword: (name: String, password: String, username: String)?
        package var passwordName: String?
        package var setupLink: EasySetup.Link?
        package var status: HTTPResponse.Status = .ok
    }

    package func addSettingsRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.get("settings") { request, context in try await settingsPage(request, context, SettingsExtras()) }
        group.post("settings/profile") { request, context -> Response in
            let account = try context.requireIdentity().account
            let form = try context.form(SettingsPages.ProfileForm.self)
            let texts = assets.texts(account.language)
            guard let language = Language(rawValue: form.language ?? account.language.rawValue) else {
                return try await settingsPage(request, context, .init(
                    profile: form, errors: ["language": texts.text("settingsErrorLanguage")], status: .unprocessableContent))
            }
            let change = ProfileChange(
                name: form.name ?? "", timeZone: (form.timeZone ?? "").trimmingCharacters(in: .whitespaces), language: language,
                showHijri: form.showHijri == "on")
            do {
                _ = try await profiles.save(change, accountID: account.id)
            } catch let problem as ProfileChange.Problem {
                let shown = FieldProblem(problem)
                return try await settingsPage(request, context, .init(profile: form, errors: [shown.field: texts.text(shown.key, shown.values)], status: .unprocessableContent))
            }
            return WebPage.redirect("/settings?saved=profile#profile")
        }
        group.post("settings/setup") { request, context -> Response in
            let account = try context.requireIdentity().account
            let form = try context.form(SettingsPages.NameForm.self)
            guard let deviceName = SetupToken.deviceName(form.name) else {
                let texts = assets.texts(account.language)
                return try await settingsPage(request, context, .init(
                    errors: ["setupName": texts.text("settingsErrorDeviceName", ["limit": "100"])], status: .unprocessableContent))
            }
            let link = try await setup.issueLink(.caldav, accountID: account.id, deviceName: deviceName)
            return try await settingsPage(request, context, .init(setupLink: link))
        }
        group.post("settings/app-passwords") { request, context -> Response in
            let account = try context.requireIdentity().account
            let form = try context.form(SettingsPages.NameForm.self)
            guard let name = AppPassword.validName(form.name ?? "") else {
                let texts = assets.texts(account.language)
                return try await settingsPage(request, context, .init(
                    errors: ["passwordName": texts.text("settingsErrorPasswordName", ["limit": String(AppPassword.nameLimit)])],
                    passwordName: form.name, status: .unprocessableContent))
            }
            let record: AppPassword
            let password: String
            do {
                (record, password) = try await appPasswords.create(accountID: account.id, name: name)
            } catch AppPasswords.Problem.tooMany(let limit) {
                let texts = assets.texts(account.language)
                return try await settingsPage(request, context, .init(
                    errors: ["passwordName": texts.text("settingsErrorTooManyPasswords", ["limit": String(limit)])],
                    passwordName: form.name, status: .conflict))
            }
            return try await settingsPage(request, context, .init(newPassword: (record.name, password, account.email.value)))
        }
        group.post("settings/app-passwords/{id}/revoke") { _, context -> Response in
            let accountID = try context.requireIdentity().account.id
            guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)),
                  try await appPasswords.revoke(id: id, accountID: accountID)
            else { throw HTTPError(.notFound, message: "No such app password.") }
            return WebPage.redirect("/settings?saved=revoked#app-passwords")
        }
        group.post("settings/sessions/{id}/revoke") { _, context -> Response in
            let identity = try context.requireIdentity()
            // This browser's own session ends with "Sign out", which also clears its cookies.
            guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)), id != identity.session.id,
                  try await profiles.revokeSession(id: id, accountID: identity.account.id)
            else { throw HTTPError(.notFound, message: "No such signed-in device.") }
            return WebPage.redirect("/settings?saved=signedOut#devices")
        }
        group.post("settings/devices/{id}/delete") { _, context -> Response in
            let accountID = try context.requireIdentity().account.id
            guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else { throw HTTPError(.notFound, message: "No such device.") }
            do {
                try await notifications.removeDevice(id: id, accountID: accountID)
            } catch Notifications.Problem.noDevice {
                throw HTTPError(.notFound, message: "No such device.")
            }
            return WebPage.redirect("/settings?saved=removed#devices")
        }
        group.post("settings/notifications") { request, context -> Response in
            let accountID = try context.requireIdentity().account.id
            let form = try context.form(SettingsPages.NotificationsForm.self)
            // The form shows every choice, so a box left unticked is "no", not "unchanged".
            let change = NotificationSettingsChange(
                email: form.email ?? [], push: form.push ?? [], quietDuringSleep: form.quietDuringSleep == "on",
                quietDuringPrayer: form.quietDuringPrayer == "on")
            do {
                _ = try await notifications.updateSettings(change, accountID: accountID)
            } catch is NotificationSettingsChange.Problem {
                // Only a hand-made request names a kind the form does not offer.
                let texts = assets.texts(try context.requireIdentity().account.language)
                return try await settingsPage(request, context, .init(
                    errors: ["notifications": texts.text("settingsErrorKinds")], status: .unprocessableContent))
            }
            return WebPage.redirect("/settings?saved=notifications#notifications")
        }
        group.get("settings/sign-out-everywhere") { request, context -> Response in
            let viewer = try await viewer(request, context)
            let texts = assets.texts(viewer.language)
            let access = try await profiles.deviceAccess(accountID: try context.requireIdentity().account.id)
            let count = access.appPasswords.count + access.connectorTokens.count + access.feeds.count + access.setupLinks.count
            return WebPage(
                template: "settings-sign-out", title: texts.text("settingsSignOutEverywhere"),
                page: ["alsoRevoke": texts.text("settingsAlsoRevokeDevices", ["count": String(count)])], stylesheets: ["settings.css"]
            ).response(assets, viewer: viewer)
        }
    }

    private func settingsPage(_ request: Request, _ context: JadwalRequestContext, _ extras: SettingsExtras) async throws -> Response {
        let identity = try context.requireIdentity()
        let account = identity.account
        let viewer = try await viewer(request, context)
        let texts = assets.texts(viewer.language)
        let passwords = try await appPasswords.active(accountID: account.id)
        let sessions = try await profiles.activeSessions(accountID: account.id)
        let devices = try await self.notifications.devices(accountID: account.id)
        let access = try await profiles.deviceAccess(accountID: account.id)
        let notifications = try await self.notifications.settings(accountID: account.id)
        let when = SettingsDates(language: viewer.language, zone: TimeZone(identifier: account.timeZone) ?? .gmt)
        let errors = extras.errors

        let profile = extras.profile
        let chosenZone = profile?.timeZone ?? account.timeZone
        var zones = SettingsPages.timeZones.map { ["value": $0, "selected": $0 == chosenZone] as [String: Any] }
        // A zone typed into a hand-made request is shown back, so the message has something to point at.
        if !SettingsPages.timeZones.contains(chosenZone) { zones.insert(["value": chosenZone, "selected": true], at: 0) }
        let chosenLanguage = profile?.language ?? account.language.rawValue
        let languages = [("en", "English"), ("ar", "العربية")].map { code, name -> [String: Any] in
            ["value": code, "label": name, "selected": code == chosenLanguage]
        }

        let hijri = WebFormats.shared(language: viewer.language, zone: TimeZone(identifier: account.timeZone) ?? .gmt)
        var page: [String: Any] = [
            "sections": SettingsPages.sections.map { ["href": $0.href, "label": texts.text($0.key)] },
            "name": profile?.name ?? account.name, "email": account.email.value, "zones": zones, "languages": languages,
            "showHijri": profile.map { $0.showHijri == "on" } ?? account.showHijri,
            "hijriExample": hijri.hijri(hijri.localDay(clock.now)) ?? "",
            "errors": errors, "hasErrors": !errors.isEmpty,
            "passwordName": extras.passwordName ?? "",
            "passwords": passwords.map { password -> [String: Any] in
                [
                    "id": password.id.uuidString.lowercased(), "name": password.name, "created": when.string(password.createdAt),
                    "lastUsed": password.lastUsedAt.map(when.string) ?? texts.text("settingsNeverUsed"),
                    "revokeLabel": texts.text("settingsRevokeNamed", ["name": password.name]),
                    "confirm": texts.text("settingsConfirmRevoke", ["name": password.name]),
                ]
            },
            "sessions": sessions.map { session -> [String: Any] in
                let device = SettingsPages.device(userAgent: session.userAgent) ?? texts.text("settingsUnknownDevice")
                var values: [String: Any] = [
                    "id": session.id.uuidString.lowercased(), "device": device, "method": texts.text("settingsMethod_\(session.method.rawValue)"),
                    "created": when.string(session.createdAt), "lastUsed": when.string(session.lastUsedAt),
                    "current": session.id == identity.session.id, "signOutLabel": texts.text("settingsSignOutNamed", ["device": device]),
                ]
                if let address = session.clientAddress, !address.isEmpty { values["address"] = address }
                return values
            },
            "devices": devices.map { device -> [String: Any] in
                [
                    "id": device.id.uuidString.lowercased(), "name": device.name, "created": when.string(device.createdAt),
                    "lastUsed": device.lastUsedAt.map(when.string) ?? texts.text("settingsNeverUsed"),
                    "removeLabel": texts.text("settingsRemoveNamed", ["name": device.name]),
                ]
            },
            "hasDevices": !devices.isEmpty, "hasPasswords": !passwords.isEmpty,
            "access": SettingsPages.accessLines(access, texts: texts, when: when),
            "kinds": NotificationKind.allCases.map { kind -> [String: Any] in
                [
                    "value": kind.rawValue, "label": texts.text("settingsKind_\(kind.rawValue)"),
                    "email": notifications.emailKinds.contains(kind), "push": notifications.pushKinds.contains(kind),
                ]
            },
            "quietDuringSleep": notifications.quietDuringSleep, "quietDuringPrayer": notifications.quietDuringPrayer,
        ]
        if let saved = request.uri.queryParameters.get("saved"), ["profile", "revoked", "signedOut", "removed", "notifications"].contains(saved) {
            page["saved"] = texts.text("settingsSaved_\(saved)")
        }
        if let created = extras.newPassword {
            page["newPassword"] = ["name": created.name, "password": created.password, "username": created.username]
        }
        if let link = extras.setupLink {
            var values: [String: Any] = [
                "url": link.url, "expires": when.string(link.expiresAt), "deviceName": link.deviceName,
                "expiresNote": texts.text("settingsSetupExpires", ["time": when.string(link.expiresAt)]),
            ]
            if let qr = SettingsPages.qrCode(link.url, title: texts.text("settingsQRTitle")) { values["qr"] = qr }
            page["setupLink"] = values
        }
        return WebPage(
            template: "settings", title: texts.text("settingsTitle"), page: page, status: extras.status, scripts: ["settings.js"],
            stylesheets: ["settings.css"]
        ).response(assets, viewer: viewer)
    }
}

/// Dates on the settings page ("12 Mar 2026, 14:05") in the person's language and zone.
package struct SettingsDates {
    private let formatter: DateFormatter

    package init(language: Language, zone: TimeZone) {
        formatter = DateFormatter()
        formatter.locale = Locale(identifier: language == .arabic ? "ar" : "en-GB")
        formatter.timeZone = zone
        formatter.calendar = Foundation.Calendar(identifier: .gregorian)
        formatter.setLocalizedDateFormatFromTemplate("dMMMyjmm")
    }

    package func string(_ date: Date) -> String { formatter.string(from: date) }
}
