import Crypto
import Foundation
import Hummingbird
import JadwalCore
import JadwalHTTP

/// "Continue with Google" in the browser: OpenID Connect's implicit flow, asking for an ID token
/// only, so Jadwal needs no client secret. The token comes back in the callback page's fragment
/// (never sent to any server), the page posts it here, and it is checked like the API's
/// (`GoogleIDTokenVerifier`) plus two bindings to this browser's attempt: the `state` in a
/// short-lived cookie, and the `nonce` in the token, derived from that state.
package struct GoogleWebSignIn: Sendable {
    package static let stateCookie = "jadwal_google_state"
    package let verifier: GoogleIDTokenVerifier
    package let clientID: String
    package let authorizationURL: String
    package let callbackURL: String
    package let nonceKey: SymmetricKey
    package let random: RandomSource

    package init(verifier: GoogleIDTokenVerifier, clientID: String, authorizationURL: String, callbackURL: String, secret: ServerSecret, random: RandomSource) {
        self.verifier = verifier
        self.clientID = clientID
        self.authorizationURL = authorizationURL
        self.callbackURL = callbackURL
        nonceKey = secret.derivedKey(purpose: "google nonce v1")
        self.random = random
    }

    /// Where to send the browser, and the state cookie that must come back with the answer.
    package func start(secureCookie: Bool) -> (location: String, cookie: Cookie) {
        let state = Self.base64URL(random.bytes(32))
        var components = URLComponents(string: authorizationURL) ?? URLComponents()
        components.queryItems = (components.queryItems ?? []) + [
            URLQueryItem(name: "client_id", value: clientID), URLQueryItem(name: "redirect_uri", value: callbackURL),
            URLQueryItem(name: "response_type", value: "id_token"), URLQueryItem(name: "scope", value: "openid email profile"),
            URLQueryItem(name: "nonce", value: nonce(for: state)), URLQueryItem(name: "state", value: state),
            URLQueryItem(name: "prompt", value: "select_account"),
        ]
        let cookie = Cookie(name: Self.stateCookie, value: state, maxAge: 600, path: "/auth/google", secure: secureCookie, httpOnly: true, sameSite: .lax)
        return (components.string ?? authorizationURL, cookie)
    }

    /// The verified person, when the posted state matches this browser's cookie and the token its nonce.
    package func finish(idToken: String, state: String, cookieState: String?) async throws -> (email: EmailAddress, name: String?) {
        guard let cookieState, !state.isEmpty, Array(state.utf8) == Array(cookieState.utf8) else {
            throw GoogleIDTokenVerifier.rejection("this sign-in was not started from this browser, or took longer than 10 minutes")
        }
        return try await verifier.verify(idToken, nonce: nonce(for: state))
    }

    package func nonce(for state: String) -> String {
        Self.base64URL(Array(HMAC<SHA256>.authenticationCode(for: Data(state.utf8), using: nonceKey)))
    }

    package static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
