import Foundation
import HTTPTypes
import Hummingbird
import JadwalCore
import JadwalHTTP
import PrayerTimes

/// The first-run guide (`/welcome`), shown after the first sign-in and reopened from Settings →
/// Your account and data: language, time zone (this browser's proposed by `welcome.js`), the
/// place for prayer times (proposed from the zone, saved only when the person confirms), the
/// phone (an Easy Setup link as a QR code), chats, the planner's questionnaire (a link to it that
/// comes back here) and notifications. Each step saves through the
/// service the settings pages use; every step can be skipped, and so can the whole guide.
package enum FirstRunPages {
    package enum Step: String, CaseIterable, Sendable {
        case language, zone, place, phone, chats, planner, notifications

        package var next: Step? {
            let all = Self.allCases
            guard let index = all.firstIndex(of: self), index + 1 < all.count else { return nil }
            return all[index + 1]
        }
    }

    package struct LanguageForm: Decodable {
        package var language: String?
    }

    package struct ZoneForm: Decodable {
        package var timeZone: String?
    }

    package struct PlaceForm: Decodable {
        package var city: String?
        package var method: String?
    }

    /// Where a signed-in browser lands: the guide until it is finished or skipped, else the calendar.
    package static func landing(_ status: FirstRun.Status?, otherwise: String) -> String {
        status?.isPending == true ? "/welcome" : otherwise
    }

    /// The proposed city as the city field takes it: its name in the person's language and its
    /// country, so the confirmed city is the proposed one (two countries may share a name).
    package static func cityField(_ city: City, language: Language) -> String {
        "\(language == .arabic ? city.arabicName : city.englishName), \(city.countryCode)"
    }
}

extension WebRoutes {
    /// What a POST adds to the step it renders again.
    package struct FirstRunExtras {
        package var errors: [String: String] = [:]
        package var place: FirstRunPages.PlaceForm?
        package var zone: String?
        package var setupLink: EasySetup.Link?
        package var status: HTTPResponse.Status = .ok
    }

    package func addFirstRunPages(to group: RouterGroup<JadwalRequestContext>) {
        guard let ownership else { return }
        group.get("welcome") { request, context in
            let step = request.uri.queryParameters.get("step").flatMap(FirstRunPages.Step.init(rawValue:)) ?? .language
            return try await firstRunPage(request, context, step: step, FirstRunExtras())
        }
        group.post("welcome/language") { request, context -> Response in
            let account = try context.requireIdentity().account
            guard let language = Language(rawValue: try context.form(FirstRunPages.LanguageForm.self).language ?? "") else {
                let texts = assets.texts(account.language)
                return try await firstRunPage(request, context, step: .language, .init(
                    errors: ["language": texts.text("settingsErrorLanguage")], status: .unprocessableContent))
            }
            _ = try await profiles.save(ProfileChange(language: language), accountID: account.id)
            return WebPage.redirect("/welcome?step=zone")
        }
        group.post("welcome/zone") { request, context -> Response in
            let account = try context.requireIdentity().account
            let zone = (try context.form(FirstRunPages.ZoneForm.self).timeZone ?? "").trimmingCharacters(in: .whitespaces)
            do {
                _ = try await profiles.save(ProfileChange(timeZone: zone), accountID: account.id)
            } catch let problem as ProfileChange.Problem {
                let shown = FieldProblem(problem)
                return try await firstRunPage(request, context, step: .zone, .init(
                    errors: [shown.field: assets.texts(account.language).text(shown.key, shown.values)], zone: zone, status: .unprocessableContent))
            }
            return WebPage.redirect("/welcome?step=place")
        }
        group.post("welcome/place") { request, context -> Response in
            let account = try context.requireIdentity().account
            let form = try context.form(FirstRunPages.PlaceForm.self)
            let texts = assets.texts(account.language)
            let city = (form.city ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            let method = (form.method ?? "").isEmpty ? nil : form.method
            // A place saved before (coordinates, say) is kept when no city is typed.
            if city.isEmpty, try await prayer.settings(accountID: account.id) != nil {
                if let method { _ = try await prayer.save(PrayerSettingsChange(method: method), accountID: account.id) }
                return WebPage.redirect("/welcome?step=phone")
            }
            guard !city.isEmpty else {
                return try await firstRunPage(request, context, step: .place, .init(
                    errors: ["city": texts.text("prayerErrorNoPlace")], place: form, status: .unprocessableContent))
            }
            do {
                _ = try await prayer.save(PrayerSettingsChange(city: city, method: method), accountID: account.id)
            } catch let problem as PrayerSettingsChange.Problem {
                let shown = FieldProblem(problem)
                return try await firstRunPage(request, context, step: .place, .init(
                    errors: [shown.field == "method" ? "method" : "city": texts.text(shown.key)], place: form, status: .unprocessableContent))
            }
            return WebPage.redirect("/welcome?step=phone")
        }
        group.post("welcome/phone") { request, context -> Response in
            let account = try context.requireIdentity().account
            guard let deviceName = SetupToken.deviceName(try context.form(SettingsPages.NameForm.self).name) else {
                return try await firstRunPage(request, context, step: .phone, .init(
                    errors: ["setupName": assets.texts(account.language).text("settingsErrorDeviceName", ["limit": "100"])], status: .unprocessableContent))
            }
            let link = try await setup.issueLink(.caldav, accountID: account.id, deviceName: deviceName)
            return try await firstRunPage(request, context, step: .phone, .init(setupLink: link))
        }
        group.post("welcome/notifications") { request, context -> Response in
            let account = try context.requireIdentity().account
            let form = try context.form(SettingsPages.NotificationsForm.self)
            let current = try await notifications.settings(accountID: account.id)
            // The step shows the channels only; quiet hours keep what they were.
            let change = NotificationSettingsChange(
                email: form.email ?? [], push: form.push ?? [], quietDuringSleep: current.quietDuringSleep, quietDuringPrayer: current.quietDuringPrayer)
            do {
                _ = try await notifications.updateSettings(change, accountID: account.id)
            } catch is NotificationSettingsChange.Problem {
                return try await firstRunPage(request, context, step: .notifications, .init(
                    errors: ["notifications": assets.texts(account.language).text("settingsErrorKinds")], status: .unprocessableContent))
            }
            try await ownership.firstRun.finish(.completed, accountID: account.id)
            return WebPage.redirect("/calendar")
        }
        group.post("welcome/finish") { _, context -> Response in
            try await ownership.firstRun.finish(.completed, accountID: try context.requireIdentity().account.id)
            return WebPage.redirect("/calendar")
        }
        group.post("welcome/skip") { _, context -> Response in
            try await ownership.firstRun.finish(.skipped, accountID: try context.requireIdentity().account.id)
            return WebPage.redirect("/calendar")
        }
    }

    private func firstRunPage(
        _ request: Request, _ context: JadwalRequestContext, step: FirstRunPages.Step, _ extras: FirstRunExtras
    ) async throws -> Response {
        let account = try context.requireIdentity().account
        let viewer = try await viewer(request, context)
        let texts = assets.texts(viewer.language)
        let all = FirstRunPages.Step.allCases
        var page: [String: Any] = [
            "steps": all.map { ["name": $0.rawValue, "label": texts.text("welcomeStep_\($0.rawValue)"), "current": $0 == step] as [String: Any] },
            "stepCount": texts.text("welcomeStep", ["number": String((all.firstIndex(of: step) ?? 0) + 1), "count": String(all.count)]),
            "stepTitle": texts.text("welcomeStep_\(step.rawValue)"),
            "next": step.next.map { $0.rawValue as Any } ?? false,
            "errors": extras.errors, "hasErrors": !extras.errors.isEmpty,
            "is\(step.rawValue.prefix(1).uppercased() + step.rawValue.dropFirst())": true,
        ]
        switch step {
        case .language:
            page["languages"] = [("en", "English"), ("ar", "العربية")].map { code, name -> [String: Any] in
                ["value": code, "label": name, "selected": code == account.language.rawValue]
            }
        case .zone:
            let chosen = extras.zone ?? account.timeZone
            var zones = SettingsPages.timeZones.map { ["value": $0, "selected": $0 == chosen] as [String: Any] }
            if !SettingsPages.timeZones.contains(chosen) { zones.insert(["value": chosen, "selected": true], at: 0) }
            page["zones"] = zones
        case .place:
            let saved = try await prayer.settings(accountID: account.id)
            let proposal = FirstRun.Proposal(timeZone: account.timeZone)
            let city: String
            let method: String
            if let form = extras.place {
                (city, method) = (form.city ?? "", form.method ?? "")
            } else if let saved {
                // Already set (the guide reopened): what is saved, as the prayer page shows it.
                let prayerForm = PrayerPages.form(saved, language: viewer.language)
                (city, method) = (prayerForm.city ?? "", saved.method.rawValue)
            } else {
                (city, method) = (proposal.city.map { FirstRunPages.cityField($0, language: viewer.language) } ?? "", proposal.method?.rawValue ?? "")
            }
            page["city"] = city
            if let saved {
                let place = city.isEmpty ? "\(saved.latitude), \(saved.longitude) (\(saved.timeZone))" : city
                page["proposal"] = texts.text("welcomePlaceSaved", ["place": place])
            } else {
                page["proposal"] = proposal.city.map { found in
                    texts.text("welcomePlaceProposed", [
                        "zone": account.timeZone, "city": viewer.language == .arabic ? found.arabicName : found.englishName,
                    ])
                } ?? texts.text("welcomePlaceNone", ["zone": account.timeZone])
            }
            page["methods"] = [["value": "", "label": texts.text("prayerMethodUsual"), "selected": method.isEmpty] as [String: Any]]
                + CalculationMethod.allCases.map { candidate -> [String: Any] in
                    ["value": candidate.rawValue, "label": texts.text("prayerMethod_\(candidate.rawValue)"), "selected": candidate.rawValue == method]
                }
        case .phone:
            if let link = extras.setupLink {
                let when = SettingsDates(language: viewer.language, zone: TimeZone(identifier: account.timeZone) ?? .gmt)
                var values: [String: Any] = ["url": link.url, "expiresNote": texts.text("settingsSetupExpires", ["time": when.string(link.expiresAt)])]
                if let qr = SettingsPages.qrCode(link.url, title: texts.text("settingsQRTitle")) { values["qr"] = qr }
                page["setupLink"] = values
            }
        case .chats:
            page["chatCount"] = texts.text("welcomeChatsCount", ["count": String(try await chats.conversations(accountID: account.id).count)])
        case .planner:
            // The questionnaire returns here when saved or skipped.
            page["questionnaire"] = QuestionnairePages.path + "?next=" + WebPage.pathSegment("/welcome?step=notifications")
            if let savedAt = try await planning.questionnaire(account: account).savedAt {
                let when = SettingsDates(language: viewer.language, zone: TimeZone(identifier: account.timeZone) ?? .gmt)
                page["plannerAnswered"] = texts.text("welcomePlannerAnswered", ["when": when.string(savedAt)])
            }
        case .notifications:
            let settings = try await notifications.settings(accountID: account.id)
            page["kinds"] = NotificationKind.allCases.map { kind -> [String: Any] in
                [
                    "value": kind.rawValue, "label": texts.text("settingsKind_\(kind.rawValue)"),
                    "email": settings.emailKinds.contains(kind), "push": settings.pushKinds.contains(kind),
                ]
            }
        }
        return WebPage(
            template: "welcome", title: texts.text("welcomeTitle"), page: page, status: extras.status, scripts: ["welcome.js"],
            stylesheets: ["settings.css", "account.css"]
        ).response(assets, viewer: viewer)
    }
}
