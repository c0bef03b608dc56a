import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import JadwalCore

/// The web app's sign-in: an ordinary session (the same refresh-token family the API uses,
/// listed with the person's devices and revoked by "log out everywhere") carried in two
/// HTTP-only cookies: the 5-minute access JWT and the refresh token that renews it.
///
/// State-changing requests also carry a CSRF token: an HMAC of the session id, so it needs no
/// storage and dies with the session.
package struct BrowserSession: Sendable {
    package static let accessCookie = "jadwal_access"
    package static let refreshCookie = "jadwal_refresh"
    /// A page and its scripts ask at once; a refresh token rotated this recently by one of them
    /// is a sibling request, not a stolen token.
    package static let concurrentRefreshGrace: Duration = .seconds(30)
    package static let csrfHeader = "X-CSRF-Token"
    package static let csrfField = "_csrf"
    /// Set by the browser that asks for a sign-in link, so the link's page knows it was opened
    /// where it was asked for: an HMAC of the email, readable only by the link page.
    package static let askedCookie = "jadwal_asked"

    package let sessions: AccessSessions
    package let csrfKey: SymmetricKey
    private let askedKey: SymmetricKey
    /// Cookies get `Secure` when Jadwal serves TLS itself or its public URL is https.
    package let secureCookies: Bool

    package init(sessions: AccessSessions, secret: ServerSecret, secureCookies: Bool) {
        self.sessions = sessions
        csrfKey = secret.derivedKey(purpose: "csrf v1")
        askedKey = secret.derivedKey(purpose: "sign-in asked v1")
        self.secureCookies = secureCookies
    }

    /// A signed-in browser: who, and the cookies to send back when the session was renewed.
    package struct Resolved: Sendable {
        package var identity: JadwalRequestContext.Identity
        package var renewal: [Cookie]
    }

    /// Runs the rest of the request and puts the renewed cookies on its answer, error answers
    /// included: the old refresh token is spent, and a browser left holding it would soon look
    /// like a thief replaying it.
    package static func deliver(_ renewal: [Cookie], _ request: Request, _ context: JadwalRequestContext, _ body: () async throws -> Response) async throws
        -> Response {
        guard !renewal.isEmpty else { return try await body() }
        var response: Response
        do {
            response = try await body()
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        for cookie in renewal { response.setCookie(cookie) }
        return response
    }

    /// Whether the request carries any session cookie (so a failure means "signed out", not "anonymous").
    package static func hasCookies(_ request: Request) -> Bool {
        request.cookies[accessCookie] != nil || request.cookies[refreshCookie] != nil
    }

    /// The session the cookies stand for, renewing the access token from the refresh token when
    /// it has expired; nil when the browser is not (or no longer) signed in.
    package func resolve(_ request: Request) async -> Resolved? {
        if let access = request.cookies[Self.accessCookie]?.value, !access.isEmpty,
           let identity = try? await sessions.identity(accessToken: access) {
            return Resolved(identity: identity, renewal: [])
        }
        guard let refresh = request.cookies[Self.refreshCookie]?.value, !refresh.isEmpty, refresh.count <= 128 else { return nil }
        do {
            switch try await sessions.signIn.resume(SecretToken(presented: refresh), concurrentWithin: Self.concurrentRefreshGrace) {
            case .rotated(let signedIn):
                return Resolved(identity: .init(account: signedIn.account, session: signedIn.session), renewal: try await cookies(for: signedIn))
            case .concurrent(let account, let session):
                return Resolved(identity: .init(account: account, session: session), renewal: [])
            }
        } catch {
            return nil
        }
    }

    /// The cookies that sign a browser in.
    package func cookies(for signedIn: SignedIn) async throws -> [Cookie] {
        let access = try await sessions.accessTokens.issue(accountID: signedIn.account.id, sessionID: signedIn.session.id)
        let maxAge = Int(signedIn.session.expiresAt.timeIntervalSince(signedIn.session.lastUsedAt))
        return [cookie(Self.accessCookie, access, maxAge: maxAge), cookie(Self.refreshCookie, signedIn.refreshToken.value, maxAge: maxAge)]
    }

    /// The cookies that sign a browser out.
    package func clearingCookies() -> [Cookie] {
        [cookie(Self.accessCookie, "", maxAge: 0), cookie(Self.refreshCookie, "", maxAge: 0)]
    }

    private func cookie(_ name: String, _ value: String, maxAge: Int) -> Cookie {
        // Lax, not Strict: the link in a sign-in email is a navigation from another site.
        Cookie(name: name, value: value, maxAge: max(0, maxAge), path: "/", secure: secureCookies, httpOnly: true, sameSite: .lax)
    }

    // MARK: Which browser asked for a link

    /// The cookie that marks this browser as the one that asked for a link to `email`; it
    /// lasts as long as the link.
    package func askedCookie(email: EmailAddress, lifetime: Duration) -> Cookie {
        Cookie(
            name: Self.askedCookie, value: askedMark(email), maxAge: Int(lifetime.components.seconds), path: "/auth/magic", secure: secureCookies,
            httpOnly: true, sameSite: .lax)
    }

    package func clearingAskedCookie() -> Cookie {
        Cookie(name: Self.askedCookie, value: "", maxAge: 0, path: "/auth/magic", secure: secureCookies, httpOnly: true, sameSite: .lax)
    }

    /// Whether this browser asked for a link to `email`.
    package func asked(_ request: Request, email: EmailAddress) -> Bool {
        Self.equalInConstantTime(request.cookies[Self.askedCookie]?.value, askedMark(email))
    }

    private func askedMark(_ email: EmailAddress) -> String {
        Data(HMAC<SHA256>.authenticationCode(for: Data(email.value.utf8), using: askedKey)).base64URLEncodedString()
    }

    // MARK: CSRF

    package func csrfToken(sessionID: UUID) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data(sessionID.uuidString.utf8), using: csrfKey)
        return Data(mac).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    package func isValidCSRF(_ presented: String?, sessionID: UUID) -> Bool {
        Self.equalInConstantTime(presented, csrfToken(sessionID: sessionID))
    }

    /// The comparison must not tell an attacker how much of a guess was right.
    static func equalInConstantTime(_ presented: String?, _ expected: String) -> Bool {
        guard let presented else { return false }
        let a = Array(presented.utf8), b = Array(expected.utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// A state-changing request from a browser must come from a Jadwal page: when the browser
    /// names the request's origin, it must be this server's.
    package static func isSameOrigin(_ request: Request) -> Bool {
        if let site = request.headers[.secFetchSite], site != "same-origin", site != "none" { return false }
        guard let origin = request.headers[.origin], origin != "null" else { return true }
        guard let host = request.head.authority else { return false }
        return URL(string: origin).map { url in
            let port = url.port.map { ":\($0)" } ?? ""
            return "\(url.host ?? "")\(port)" == host
        } ?? false
    }
}

extension HTTPField.Name {
    package static let secFetchSite = Self("Sec-Fetch-Site")!
    package static let csrfToken = Self(BrowserSession.csrfHeader)!
}

extension Request {
    /// GET, HEAD and OPTIONS change nothing; everything else needs CSRF proof from a browser.
    package var isStateChanging: Bool { ![.get, .head, .options].contains(method) }
}
