import Foundation
import Hummingbird
import JadwalCore

/// Requires `Authorization: Bearer <access JWT>` naming a live session, and puts the account on
/// the request context.
struct SessionMiddleware: RouterMiddleware {
    typealias Context = JadwalRequestContext
    let accessTokens: AccessTokens
    let signIn: SignIn

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization] else { throw APIError.missingAccessToken }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw APIError.unauthorized("invalid_authorization_header", "Use the form: Authorization: Bearer <access token>.")
        }
        let identity = try await identity(accessToken: String(parts[1]).trimmingCharacters(in: .whitespaces))
        var context = context
        context.identity = identity
        context.logger[metadataKey: "account"] = .string(identity.account.id.uuidString)
        return try await next(request, context)
    }

    /// The account and live session an access token stands for; the one check the API and
    /// CalDAV's Bearer authentication share.
    func identity(accessToken: String) async throws -> JadwalRequestContext.Identity {
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
