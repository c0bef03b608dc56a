import Foundation
import HTTPTypes
import Hummingbird
import JadwalCore
import JadwalHTTP

/// Settings → Your account and data: the sign-in address (changed by a link to the new one),
/// the export, the first-run guide again, the privacy page, and deleting the account (by typing
/// the address, or by a link emailed to it). The pages the emailed links open need no session:
/// the link is the proof, and like sign-in links they act only when their button is pressed
/// (mail scanners fetch links). `/privacy` is for everyone, signed in or not, in both languages.
extension WebRoutes {
    package struct AddressForm: Decodable {
        package var email: String?
    }

    package struct DeleteForm: Decodable {
        package var confirmEmail: String?
    }

    package struct TokenForm: Decodable {
        package var token: String?
    }

    /// What a POST adds to the account page it renders.
    package struct AccountExtras {
        package var errors: [String: String] = [:]
        package var newEmail: String?
        package var status: String?
        package var code: HTTPResponse.Status = .ok
        package var headers: HTTPFields = [:]
    }

    package func addAccountPages(to group: RouterGroup<JadwalRequestContext>) {
        guard let ownership else { return }
        group.get("settings/account") { request, context in try await accountPage(request, context, AccountExtras()) }
        group.post("settings/account/email") { request, context -> Response in
            let account = try context.requireIdentity().account
            let texts = assets.texts(account.language)
            let typed = (try context.form(AddressForm.self).email ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            guard let email = try? EmailAddress(typed) else {
                return try await accountPage(request, context, .init(
                    errors: ["email": texts.text("accountErrorAddress")], newEmail: typed, code: .unprocessableContent))
            }
            do {
                try await ownership.emailChanges.request(email, accountID: account.id)
            } catch EmailChanges.Problem.sameAddress {
                return try await accountPage(request, context, .init(
                    errors: ["email": texts.text("accountErrorSameAddress")], newEmail: typed, code: .unprocessableContent))
            } catch EmailChanges.Problem.rateLimited(let seconds) {
                return try await accountPage(request, context, .init(
                    errors: ["email": texts.text("accountErrorTooMany", ["seconds": String(seconds)])], newEmail: typed, code: .tooManyRequests,
                    headers: [.retryAfter: String(seconds)]))
            }
            // The same words whether or not another account has the address.
            return try await accountPage(request, context, .init(status: texts.text("accountAddressSent", ["email": email.value])))
        }
        group.get("settings/account/export") { _, context -> Response in
            let account = try context.requireIdentity().account
            let files = try await ownership.export.files(accountID: account.id)
            return CalendarDownload.zipResponse(
                try CalendarDownload.archive(files.map { (path: $0.path, data: $0.data) }), named: ownership.export.fileName())
        }
        group.get("settings/account/delete") { request, context in try await deletePage(request, context, AccountExtras()) }
        group.post("settings/account/delete") { request, context -> Response in
            let account = try context.requireIdentity().account
            let typed = try context.form(DeleteForm.self).confirmEmail ?? ""
            do {
                try await ownership.deletion.delete(accountID: account.id, confirmation: .typedEmail(typed))
            } catch AccountDeletion.Problem.emailMismatch {
                let texts = assets.texts(account.language)
                return try await deletePage(request, context, .init(
                    errors: ["confirmEmail": texts.text("accountDeleteMismatch", ["email": account.email.value])], newEmail: typed, code: .unprocessableContent))
            }
            return goodbye(account)
        }
        group.post("settings/account/delete-link") { request, context -> Response in
            let account = try context.requireIdentity().account
            let texts = assets.texts(account.language)
            do {
                try await ownership.deletion.requestLink(accountID: account.id)
            } catch AccountDeletion.Problem.rateLimited(let seconds) {
                return try await deletePage(request, context, .init(
                    status: texts.text("accountErrorTooMany", ["seconds": String(seconds)]), code: .tooManyRequests, headers: [.retryAfter: String(seconds)]))
            }
            return try await deletePage(request, context, .init(status: texts.text("accountDeleteLinkSent", ["email": account.email.value])))
        }
    }

    /// The pages that need no session: what the emailed links open, the privacy page.
    package func addPublicAccountPages(to router: Router<JadwalRequestContext>) {
        router.get("privacy") { request, _ in try await privacyPage(request) }
        guard let ownership else { return }
        router.get("account/email") { request, _ -> Response in
            let language = WebLanguage.of(request, account: nil)
            let texts = assets.texts(language)
            let token = request.uri.queryParameters.get("token") ?? ""
            do {
                let (account, newEmail) = try await ownership.emailChanges.pending(SecretToken(presented: token))
                return linkPage(texts.text("accountLinkEmailTitle"), language: account.language, [
                    "question": assets.texts(account.language).text("accountLinkEmailQuestion", ["new": newEmail.value, "old": account.email.value]),
                    "action": "/account/email", "token": token, "button": assets.texts(account.language).text("accountLinkEmailButton"),
                    "buttonClass": "primary",
                ])
            } catch let problem as EmailChanges.Problem {
                return linkPage(texts.text("accountLinkEmailTitle"), language: language, ["error": texts.text(Self.textKey(problem))], status: Self.status(problem))
            }
        }
        router.post("account/email") { request, _ -> Response in
            let language = WebLanguage.of(request, account: nil)
            let texts = assets.texts(language)
            guard BrowserSession.isSameOrigin(request) else {
                return linkPage(texts.text("accountLinkEmailTitle"), language: language, ["error": texts.text("errorFormExpired")], status: .forbidden)
            }
            let token = try await decodeForm(TokenForm.self, request).token ?? ""
            do {
                let account = try await ownership.emailChanges.confirm(SecretToken(presented: token))
                let own = assets.texts(account.language)
                return linkPage(own.text("accountLinkEmailTitle"), language: account.language, [
                    "done": own.text("accountLinkEmailDone", ["email": account.email.value]),
                ])
            } catch let problem as EmailChanges.Problem {
                return linkPage(texts.text("accountLinkEmailTitle"), language: language, ["error": texts.text(Self.textKey(problem))], status: Self.status(problem))
            }
        }
        router.get("account/delete") { request, _ -> Response in
            let language = WebLanguage.of(request, account: nil)
            let texts = assets.texts(language)
            let token = request.uri.queryParameters.get("token") ?? ""
            do {
                let account = try await ownership.deletion.account(forLink: SecretToken(presented: token))
                let own = assets.texts(account.language)
                return linkPage(own.text("accountLinkDeleteTitle"), language: account.language, [
                    "question": own.text("accountLinkDeleteQuestion", ["email": account.email.value]), "action": "/account/delete", "token": token,
                    "button": own.text("accountLinkDeleteButton"), "buttonClass": "danger",
                ])
            } catch let problem as AccountDeletion.Problem {
                return linkPage(texts.text("accountLinkDeleteTitle"), language: language, ["error": texts.text(Self.textKey(problem))], status: Self.status(problem))
            }
        }
        router.post("account/delete") { request, _ -> Response in
            let language = WebLanguage.of(request, account: nil)
            let texts = assets.texts(language)
            guard BrowserSession.isSameOrigin(request) else {
                return linkPage(texts.text("accountLinkDeleteTitle"), language: language, ["error": texts.text("errorFormExpired")], status: .forbidden)
            }
            let token = try await decodeForm(TokenForm.self, request).token ?? ""
            do {
                return goodbye(try await ownership.deletion.delete(link: SecretToken(presented: token)))
            } catch let problem as AccountDeletion.Problem {
                return linkPage(texts.text("accountLinkDeleteTitle"), language: language, ["error": texts.text(Self.textKey(problem))], status: Self.status(problem))
            }
        }
    }

    private func accountPage(_ request: Request, _ context: JadwalRequestContext, _ extras: AccountExtras) async throws -> Response {
        guard let ownership else { throw HTTPError(.notFound) }
        let account = try context.requireIdentity().account
        let viewer = try await viewer(request, context)
        let texts = assets.texts(viewer.language)
        let guide: String
        switch try await ownership.firstRun.status(accountID: account.id) {
        case .pending: guide = texts.text("accountGuidePending")
        case .finished(let record):
            let when = SettingsDates(language: viewer.language, zone: TimeZone(identifier: account.timeZone) ?? .gmt)
            guide = texts.text("accountGuideFinished_\(record.state.rawValue)", ["date": when.string(record.at)])
        }
        var page: [String: Any] = [
            "email": account.email.value, "newEmail": extras.newEmail ?? "", "errors": extras.errors, "guideState": guide,
        ]
        if let status = extras.status { page["status"] = status }
        var response = WebPage(template: "account", title: texts.text("accountTitle"), page: page, status: extras.code, stylesheets: ["settings.css", "account.css"])
            .response(assets, viewer: viewer)
        for field in extras.headers { response.headers.append(field) }
        return response
    }

    private func deletePage(_ request: Request, _ context: JadwalRequestContext, _ extras: AccountExtras) async throws -> Response {
        let account = try context.requireIdentity().account
        let viewer = try await viewer(request, context)
        let texts = assets.texts(viewer.language)
        let count = try await calendars.all(accountID: account.id).filter { !$0.isComputed }.count
        var page: [String: Any] = [
            "what": texts.text("accountDeleteWhat", ["email": account.email.value]),
            "calendars": texts.text("accountDeleteCalendars", ["count": String(count)]),
            "final": texts.text("accountDeleteFinal", ["email": account.email.value]),
            "byLink": texts.text("accountDeleteByLink", ["email": account.email.value]),
            "typed": extras.newEmail ?? "", "errors": extras.errors,
        ]
        if let status = extras.status { page["status"] = status }
        var response = WebPage(template: "account-delete", title: texts.text("accountDeleteQuestion"), page: page, status: extras.code,
                               stylesheets: ["settings.css", "account.css"]).response(assets, viewer: viewer)
        for field in extras.headers { response.headers.append(field) }
        return response
    }

    /// After a deletion: this browser's session went with the account.
    private func goodbye(_ account: Account) -> Response {
        let texts = assets.texts(account.language)
        var response = linkPage(texts.text("accountDeletedTitle"), language: account.language, [
            "done": texts.text("accountDeletedText", ["email": account.email.value]), "again": texts.text("accountDeletedAgain"),
        ])
        for cookie in browser.clearingCookies() { response.setCookie(cookie) }
        return response
    }

    private func linkPage(_ heading: String, language: Language, _ values: [String: Any], status: HTTPResponse.Status = .ok) -> Response {
        let texts = assets.texts(language)
        var page = values
        page["heading"] = heading
        page["nextHref"] = "/"
        page["nextLabel"] = texts.text("accountSignIn")
        return WebPage(template: "account-link", title: heading, page: page, status: status, stylesheets: ["account.css"])
            .response(assets, viewer: .init(language: language, path: "/account"))
    }

    private func privacyPage(_ request: Request) async throws -> Response {
        let resolved = await browser.resolve(request)
        let account = resolved?.identity.account
        let language = request.uri.queryParameters.get("lang").flatMap(Language.init(rawValue:)) ?? WebLanguage.of(request, account: account)
        let texts = assets.texts(language)
        var retention = ChatSettings.defaultRetentionDays
        var yours = false
        if let account {
            retention = try await chats.settings(accountID: account.id).retentionDays
            yours = true
        }
        let sessionDays = Int(signIn.sessionLifetime.timeInterval / 86_400)
        let page: [String: Any] = [
            "signedIn": account != nil,
            "chats": texts.text("privacyHowLongChats", [
                "days": String(retention), "yours": texts.text(yours ? "privacyHowLongChatsYours" : "privacyHowLongChatsDefault"),
                "min": String(ChatSettings.retentionLimit.lowerBound), "max": String(ChatSettings.retentionLimit.upperBound),
            ]),
            "sessions": texts.text("privacyHowLongSessions", ["days": String(sessionDays), "forget": "30"]),
        ]
        var viewer = WebPage.Viewer(language: language, path: "/privacy")
        if let identity = resolved?.identity, identity.account.language == language {
            viewer = WebPage.Viewer(language: language, identity: identity, csrf: browser.csrfToken(sessionID: identity.session.id), path: "/privacy")
        }
        return WebPage(template: "privacy", title: texts.text("privacyTitle"), page: page, stylesheets: ["account.css"]).response(assets, viewer: viewer)
    }

    static func textKey(_ problem: EmailChanges.Problem) -> String {
        switch problem {
        case .unknownLink, .sameAddress, .rateLimited: "accountLinkInvalid"
        case .expiredLink: "accountLinkExpired"
        case .usedLink: "accountLinkUsed"
        case .addressTaken: "accountLinkTaken"
        case .noAccount: "accountLinkGone"
        }
    }

    static func textKey(_ problem: AccountDeletion.Problem) -> String {
        switch problem {
        case .unknownLink, .emailMismatch, .rateLimited: "accountLinkInvalid"
        case .expiredLink: "accountLinkExpired"
        case .usedLink: "accountLinkUsed"
        case .noAccount: "accountLinkGone"
        }
    }

    static func status(_ problem: EmailChanges.Problem) -> HTTPResponse.Status {
        switch problem {
        case .expiredLink: .gone
        case .usedLink, .addressTaken: .conflict
        case .noAccount: .notFound
        default: .badRequest
        }
    }

    static func status(_ problem: AccountDeletion.Problem) -> HTTPResponse.Status {
        switch problem {
        case .expiredLink: .gone
        case .usedLink: .conflict
        case .noAccount: .notFound
        default: .badRequest
        }
    }
}
