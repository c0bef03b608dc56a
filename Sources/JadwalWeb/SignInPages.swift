import Foundation
import Hummingbird
import JadwalCore
import JadwalHTTP

/// Onboarding and sign-in: "Continue with email", "Check your email" with resend, the page a
/// magic link opens, signing out.
///
/// The link page does not sign in on GET: mail scanners fetch links in emails, and a single-use
/// token spent by a scanner would lock the person out. The page posts the token from the browser
/// (its script presses the button; without scripts, the person does).
extension WebRoutes {
    package struct SignInForm: Decodable {
        package var email: String?
    }

    package struct MagicForm: Decodable {
        package var token: String?
    }

    /// What the Google callback page posts: the fragment's ID token and state, or Google's error.
    package struct GoogleForm: Decodable {
        package var idToken: String?
        package var state: String?
        package var error: String?

        package enum CodingKeys: String, CodingKey {
            case idToken = "id_token", state, error
        }
    }

    package func addSignInRoutes(to router: Router<JadwalRequestContext>) {
        router.get("/") { request, _ -> Response in
            if await browser.resolve(request) != nil { return WebPage.redirect(WebScreen.landing(request)) }
            return signInPage(request, language: WebLanguage.of(request, account: nil), email: "")
        }
        router.post("signin/email") { request, context -> Response in
            let language = WebLanguage.of(request, account: nil)
            let texts = assets.texts(language)
            guard BrowserSession.isSameOrigin(request) else {
                return signInPage(request, language: language, email: "", error: texts.text("errorFormExpired"), status: .forbidden)
            }
            let form = try await decodeForm(SignInForm.self, request)
            let raw = (form.email ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            let email: EmailAddress
            do {
                email = try EmailAddress(raw)
            } catch {
                return signInPage(request, language: language, email: raw, error: texts.text("errorInvalidEmail"), status: .badRequest)
            }
            do {
                try await signIn.requestMagicLink(email: email, client: SignIn.Client(address: context.clientAddress, userAgent: request.headers[.userAgent]))
            } catch SignIn.Failure.rateLimited(let seconds) {
                var response = signInPage(
                    request, language: language, email: raw, error: texts.text("errorRateLimited", ["seconds": String(seconds)]), status: .tooManyRequests)
                response.headers[.retryAfter] = String(seconds)
                return response
            }
            var response = WebPage(template: "check-email", title: texts.text("checkEmailTitle"), page: [
                "email": email.value, "sentTo": texts.text("checkEmailSentTo", ["email": email.value]),
            ]).response(assets, viewer: .init(language: language, path: "/signin/email"))
            response.setCookie(browser.askedCookie(email: email, lifetime: signIn.magicLinkLifetime))
            return response
        }
        router.get("auth/magic") { request, _ -> Response in
            let language = WebLanguage.of(request, account: nil)
            let texts = assets.texts(language)
            let token = (request.uri.queryParameters.get("token") ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            let failed = { (key: String) in
                WebPage(template: "magic-link", title: texts.text("magicFailedTitle"), page: ["error": texts.text(key)], status: .unauthorized)
                    .response(assets, viewer: .init(language: language, path: "/auth/magic"))
            }
            guard !token.isEmpty, token.count <= 128 else { return failed("errorLinkInvalid") }
            let email: EmailAddress
            do {
                email = try await signIn.magicLinkEmail(SecretToken(presented: token))
            } catch let failure as SignIn.Failure {
                return failed(Self.textKey(failure))
            }
            // The page names the account, and presses its own button only in the browser that
            // asked for the link: elsewhere (a link someone else asked for, a mail scanner that
            // runs scripts) a person must read whose account it is and choose.
            let askedHere = browser.asked(request, email: email)
            return WebPage(template: "magic-link", title: texts.text("magicTitle"), page: [
                "token": token, "auto": askedHere, "signingInAs": texts.text("magicSigningInAs", ["email": email.value]),
                "otherBrowser": askedHere ? "" : texts.text("magicOtherBrowser", ["email": email.value]),
            ]).response(assets, viewer: .init(language: language, path: "/auth/magic"))
        }
        router.post("auth/magic") { request, context -> Response in
            let language = WebLanguage.of(request, account: nil)
            let texts = assets.texts(language)
            let form = try await decodeForm(MagicForm.self, request)
            let token = (form.token ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            let failed = { (key: String) in
                WebPage(template: "magic-link", title: texts.text("magicFailedTitle"), page: ["error": texts.text(key)], status: .unauthorized)
                    .response(assets, viewer: .init(language: language, path: "/auth/magic"))
            }
            guard BrowserSession.isSameOrigin(request) else { return failed("errorFormExpired") }
            guard !token.isEmpty, token.count <= 128 else { return failed("errorLinkInvalid") }
            let signedIn: SignedIn
            do {
                signedIn = try await signIn.redeemMagicLink(
                    SecretToken(presented: token), client: SignIn.Client(address: context.clientAddress, userAgent: request.headers[.userAgent]))
            } catch let failure as SignIn.Failure {
                return failed(Self.textKey(failure))
            }
            var response = WebPage.redirect(try await landing(signedIn.account, request))
            for cookie in try await browser.cookies(for: signedIn) { response.setCookie(cookie) }
            // The link is spent: the mark of the browser that asked for it has done its work.
            if request.cookies[BrowserSession.askedCookie] != nil { response.setCookie(browser.clearingAskedCookie()) }
            return response
        }
        router.get("auth/google") { request, _ -> Response in
            guard let google else { return WebPage.redirect("/") }
            let (location, cookie) = google.start(secureCookie: browser.secureCookies)
            var response = WebPage.redirect(location)
            response.setCookie(cookie)
            return response
        }
        router.get("auth/google/callback") { request, _ -> Response in
            let language = WebLanguage.of(request, account: nil)
            return WebPage(template: "google-callback", title: assets.texts(language).text("googleTitle"), page: [:])
                .response(assets, viewer: .init(language: language, path: "/auth/google/callback"))
        }
        router.post("auth/google") { request, context -> Response in
            let language = WebLanguage.of(request, account: nil)
            let texts = assets.texts(language)
            guard let google else { return WebPage.redirect("/") }
            let form = try await decodeForm(GoogleForm.self, request)
            var failure: String?
            if let error = form.error, !error.isEmpty {
                failure = texts.text("errorGoogleCancelled")
            } else if !BrowserSession.isSameOrigin(request) {
                failure = texts.text("errorFormExpired")
            } else {
                do {
                    let (email, name) = try await google.finish(
                        idToken: form.idToken ?? "", state: form.state ?? "", cookieState: request.cookies[GoogleWebSignIn.stateCookie]?.value)
                    let signedIn = try await signIn.signInVerified(
                        email: email, name: name, method: .google,
                        client: SignIn.Client(address: context.clientAddress, userAgent: request.headers[.userAgent]))
                    var response = WebPage.redirect(try await landing(signedIn.account, request))
                    for cookie in try await browser.cookies(for: signedIn) { response.setCookie(cookie) }
                    response.setCookie(Cookie(name: GoogleWebSignIn.stateCookie, value: "", maxAge: 0, path: "/auth/google", httpOnly: true, sameSite: .lax))
                    return response
                } catch let refusal as APIError {
                    failure = texts.text("errorGoogle", ["reason": refusal.message])
                } catch let refusal as SignIn.Failure {
                    failure = texts.text(Self.textKey(refusal))
                }
            }
            return signInPage(request, language: language, email: "", error: failure, status: .unauthorized)
        }
        router.get("language") { request, _ -> Response in
            let chosen = Language(rawValue: request.uri.queryParameters.get("to") ?? "") ?? .english
            var response = WebPage.redirect("/")
            response.setCookie(Cookie(name: WebLanguage.cookie, value: chosen.rawValue, maxAge: 365 * 86_400, path: "/", httpOnly: true, sameSite: .lax))
            return response
        }
        router.post("signout") { request, _ -> Response in
            try await signOut(request, everywhere: false)
        }
        router.post("signout/everywhere") { request, _ -> Response in
            try await signOut(request, everywhere: true)
        }
    }

    private func signOut(_ request: Request, everywhere: Bool) async throws -> Response {
        var response = WebPage.redirect("/")
        if let resolved = await browser.resolve(request) {
            let form = try await decodeForm(CSRFOnly.self, request)
            guard BrowserSession.isSameOrigin(request), browser.isValidCSRF(form._csrf, sessionID: resolved.identity.session.id) else {
                return WebPage.redirect("/settings")
            }
            if everywhere {
                try await signIn.signOutEverywhere(accountID: resolved.identity.account.id, revokingDevices: form.revokeDevices == "on")
            } else {
                try await signIn.signOut(sessionID: resolved.identity.session.id)
            }
        }
        for cookie in browser.clearingCookies() { response.setCookie(cookie) }
        return response
    }

    /// Where a browser goes once signed in: the first-run guide until it is finished or skipped.
    /// The first-run guide while it is pending, else the screen that suits the device.
    private func landing(_ account: Account, _ request: Request) async throws -> String {
        FirstRunPages.landing(try await ownership?.firstRun.status(accountID: account.id), otherwise: WebScreen.landing(request))
    }

    private struct CSRFOnly: Decodable {
        package var _csrf: String?
        /// "Also revoke every device and link", on the sign-out-everywhere form.
        package var revokeDevices: String?
    }

    private func signInPage(
        _ request: Request, language: Language, email: String, error: String? = nil, status: HTTPResponse.Status = .ok
    ) -> Response {
        let texts = assets.texts(language)
        var page: [String: Any] = ["email": email, "google": google != nil]
        if let error { page["error"] = error }
        return WebPage(template: "signin", title: texts.text("signInTitle"), page: page, status: status)
            .response(assets, viewer: .init(language: language, path: "/"))
    }

    /// A sign-in form's fields; only ever small.
    package func decodeForm<Form: Decodable>(_ type: Form.Type, _ request: Request) async throws -> Form {
        let buffer = try await request.body.collect(upTo: 16 * 1024)
        do {
            return try URLEncodedFormDecoder().decode(type, from: String(decoding: buffer.readableBytesView, as: UTF8.self))
        } catch {
            throw HTTPError(.badRequest, message: "The form could not be read. Reload the page and try again.")
        }
    }

    package static func textKey(_ failure: SignIn.Failure) -> String {
        switch failure {
        case .unknownMagicToken: "errorLinkInvalid"
        case .expiredMagicToken: "errorLinkExpired"
        case .usedMagicToken: "errorLinkUsed"
        case .accountDisabled: "errorAccountDisabled"
        case .rateLimited, .unknownRefreshToken, .refreshTokenReused, .sessionRevoked, .sessionExpired: "errorSessionEnded"
        }
    }
}
