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
        let (accountID, sessionID) = try await accessTokens.verify(String(parts[1]).trimmingCharacters(in: .whitespaces))
        let account: Account
        let session: SignInSession
        do {
            (account, session) = try await signIn.activeSession(id: sessionID)
        } catch let failure as SignIn.Failure {
            throw APIError(failure)
        }
        guard account.id == accountID else { throw APIError.unauthorized("invalid_access_token", "The access token does not match its session.") }
        var context = context
        context.identity = .init(account: account, session: session)
        context.logger[metadataKey: "account"] = .string(account.id.uuidString)
        return try await next(request, context)
    }
}
