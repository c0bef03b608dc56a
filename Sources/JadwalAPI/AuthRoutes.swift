import Foundation
import Hummingbird
import JadwalCore
import JadwalHTTP

/// `/api/v1/auth/*`: magic link, Google, refresh, sign-out.
package struct AuthRoutes: Sendable {
    package let signIn: SignIn
    package let accessTokens: AccessTokens
    package let google: GoogleIDTokenVerifier?
    /// Woken on sign-out, so the account's notification streams check their sessions at once.
    package let hub: NotificationHub?

    package init(signIn: SignIn, accessTokens: AccessTokens, google: GoogleIDTokenVerifier?, hub: NotificationHub? = nil) {
        self.signIn = signIn
        self.accessTokens = accessTokens
        self.google = google
        self.hub = hub
    }

    /// `POST /api/v1/auth/logout-all`'s optional body.
    package struct SignOutEverywhere: Decodable {
        /// Also revoke every app password, connector token, feed address and unspent setup link.
        let revokeDevices: Bool?
    }

    package struct RevokedView: Encodable, Sendable {
        package let appPasswords: Int
        package let connectorTokens: Int
        package let feeds: Int
        package let setupLinks: Int
    }

    package struct EmailRequest: Decodable { let email: String }
    package struct TokenRequest: Decodable { let token: String }
    package struct RefreshRequest: Decodable { let refreshToken: String }
    package struct GoogleRequest: Decodable { let idToken: String }

    package struct SessionTokens: Encodable, Sendable {
        package let accessToken: String
        package let tokenType = "Bearer"
        package let expiresIn: Int
        package let refreshToken: String
        package let sessionId: String
        package let account: AccountView
    }

    package struct Accepted: Encodable, Sendable {
        package let status: String
        package let message: String
    }

    package func addPublicRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.post("email") { request, context in try await requestLink(request, context) }
        group.post("magic") { request, context in try await redeem(request, context) }
        group.post("refresh") { request, context in try await refresh(request, context) }
        group.post("google") { request, context in try await signInWithGoogle(request, context) }
    }

    package func addSessionRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.post("logout") { _, context -> Response in
            let identity = try context.requireIdentity()
            try await signIn.signOut(sessionID: identity.session.id)
            hub?.wake(identity.account.id)
            return Response(status: .noContent)
        }
        group.post("logout-all") { request, context -> Response in
            let accountID = try context.requireIdentity().account.id
            let body = try await request.body.collect(upTo: 4096)
            var revokeDevices = false
            if body.readableBytes > 0 {
                do {
                    revokeDevices = try JSONDecoder().decode(SignOutEverywhere.self, from: Data(body.readableBytesView)).revokeDevices ?? false
                } catch {
                    throw APIError.badRequest("invalid_json", "The body must be empty or {\"revokeDevices\": true}.")
                }
            }
            let revoked = try await signIn.signOutEverywhere(accountID: accountID, revokingDevices: revokeDevices)
            hub?.wake(accountID)
            guard revokeDevices else { return Response(status: .noContent) }
            return try JSONResponse(["revoked": RevokedView(
                appPasswords: revoked.appPasswords, connectorTokens: revoked.connectorTokens, feeds: revoked.feeds, setupLinks: revoked.setupLinks)])
                .response(from: request, context: context)
        }
    }

    private func requestLink(_ request: Request, _ context: JadwalRequestContext) async throws -> JSONResponse<Accepted> {
        let body = try await request.decodeJSON(as: EmailRequest.self)
        let email: EmailAddress
        do {
            email = try EmailAddress(body.email)
        } catch {
            throw APIError.badRequest("invalid_email", "Field 'email' is not a valid email address: \(error).")
        }
        try await mappingFailures {
            try await signIn.requestMagicLink(email: email, client: client(request, context))
        }
        return JSONResponse(
            Accepted(status: "sent", message: "A sign-in link is on its way to \(email). It works once, for 15 minutes."),
            status: .accepted
        )
    }

    private func redeem(_ request: Request, _ context: JadwalRequestContext) async throws -> JSONResponse<SessionTokens> {
        let body = try await request.decodeJSON(as: TokenRequest.self)
        let token = body.token.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty, token.count <= 128 else {
            throw APIError.unauthorized("invalid_magic_token", "This sign-in link is not valid. Request a new one.")
        }
        let signedIn = try await mappingFailures {
            try await signIn.redeemMagicLink(SecretToken(presented: token), client: client(request, context))
        }
        return JSONResponse(try await tokens(for: signedIn))
    }

    private func refresh(_ request: Request, _ context: JadwalRequestContext) async throws -> JSONResponse<SessionTokens> {
        let body = try await request.decodeJSON(as: RefreshRequest.self)
        guard !body.refreshToken.isEmpty, body.refreshToken.count <= 128 else { throw APIError(.unknownRefreshToken) }
        let signedIn = try await mappingFailures { try await signIn.refresh(SecretToken(presented: body.refreshToken)) }
        return JSONResponse(try await tokens(for: signedIn))
    }

    private func signInWithGoogle(_ request: Request, _ context: JadwalRequestContext) async throws -> JSONResponse<SessionTokens> {
        guard let google else {
            throw APIError(
                .notFound, code: "google_sign_in_not_configured",
                message: "Google sign-in is not set up on this server (the operator sets JADWAL_GOOGLE_CLIENT_ID). Use the email link."
            )
        }
        let body = try await request.decodeJSON(as: GoogleRequest.self, limit: 16 * 1024)
        let (email, name) = try await google.verify(body.idToken)
        let signedIn = try await mappingFailures {
            try await signIn.signInVerified(email: email, name: name, method: .google, client: client(request, context))
        }
        return JSONResponse(try await tokens(for: signedIn))
    }

    private func tokens(for signedIn: SignedIn) async throws -> SessionTokens {
        SessionTokens(
            accessToken: try await accessTokens.issue(accountID: signedIn.account.id, sessionID: signedIn.session.id),
            expiresIn: Int(accessTokens.lifetime.timeInterval), refreshToken: signedIn.refreshToken.value,
            sessionId: signedIn.session.id.uuidString, account: AccountView(signedIn.account)
        )
    }

    private func client(_ request: Request, _ context: JadwalRequestContext) -> SignIn.Client {
        SignIn.Client(address: context.clientAddress, userAgent: request.headers[.userAgent])
    }
}

/// Runs sign-in work, turning its failures into API errors.
package func mappingFailures<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let failure as SignIn.Failure {
        throw APIError(failure)
    }
}

/// An account as the API shows it.
package struct AccountView: Encodable, Sendable {
    package let id: String
    package let email: String
    package let name: String
    package let timeZone: String
    package let language: String
    package let showHijri: Bool
    package let createdAt: Date

    package init(_ account: Account) {
        id = account.id.uuidString
        email = account.email.value
        name = account.name
        timeZone = account.timeZone
        language = account.language.rawValue
        showHijri = account.showHijri
        createdAt = account.createdAt
    }
}
