import Foundation
import Hummingbird
import JadwalCore

/// The one check behind every signed-in request: an access JWT naming a live session.
package struct AccessSessions: Sendable {
    package let accessTokens: AccessTokens
    package let signIn: SignIn

    package init(accessTokens: AccessTokens, signIn: SignIn) {
        self.accessTokens = accessTokens
        self.signIn = signIn
    }

    /// The account and live session an access token stands for; the API, CalDAV's Bearer
    /// authentication and the web app's cookies share it.
    package func identity(accessToken: String) async throws -> JadwalRequestContext.Identity {
        let (accountID, sessionID) = try await accessTokens.verify(accessToken)
        let account: Account
        let session: SignInSession
        do {
            (account, session) = try await signIn.activeSession(id: sessionID)
        } catch let failure as SignIn.Failure {
            throw APIError(failure)
        }
        guard account.id == accountID else { throw APIError.unauthorized("invalid_access_token", "The access token does not match its session.") }
        return .init(account: account, session: session)
    }
}

/// Requires `Authorization: Bearer <access JWT>` naming a live session, or, from the web app's
/// scripts, the browser's session cookies (with the CSRF header on anything that changes data),
/// and puts the account on the request context.
package struct SessionMiddleware: RouterMiddleware {
    package typealias Context = JadwalRequestContext
    package let sessions: AccessSessions
    package let browser: BrowserSession

    package init(sessions: AccessSessions, browser: BrowserSession) {
        self.sessions = sessions
        self.browser = browser
    }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization] else {
            guard BrowserSession.hasCookies(request) else { throw APIError.missingAccessToken }
            return try await handleBrowser(request, context: context, next: next)
        }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw APIError.unauthorized("invalid_authorization_header", "Use the form: Authorization: Bearer <access token>.")
        }
        let identity = try await sessions.identity(accessToken: String(parts[1]).trimmingCharacters(in: .whitespaces))
        return try await next(request, context.signedIn(identity))
    }

    private func handleBrowser(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let resolved = await browser.resolve(request) else {
            throw APIError.unauthorized("session_expired", "Your session has ended. Sign in again.")
        }
        if request.isStateChanging {
            guard BrowserSession.isSameOrigin(request),
                  browser.isValidCSRF(request.headers[.csrfToken], sessionID: resolved.identity.session.id)
            else {
                throw APIError(.forbidden, code: "csrf_failed", message: "This request did not come from a Jadwal page. Reload the page and try again.")
            }
        }
        return try await BrowserSession.deliver(resolved.renewal, request, context) { try await next(request, context.signedIn(resolved.identity)) }
    }
}

extension JadwalRequestContext {
    package func signedIn(_ identity: Identity) -> Self {
        var context = self
        context.identity = identity
        context.logger[metadataKey: "account"] = .string(identity.account.id.uuidString)
        return context
    }
}
