import Foundation
import JadwalCore

/// Google's OAuth for its CalDAV (the operator's Google sign-in client, with its secret): the
/// consent page asking for the calendars offline, the token endpoint that redeems a code and
/// renews access tokens, and Google's CalDAV principals. Every request goes through the
/// fetcher, so the same address rules, sizes and timeouts hold.
public struct GoogleOAuth: GoogleCalendarAuthorization {
    public struct Endpoints: Sendable {
        public var consent: String
        public var token: String
        /// Google's CalDAV root (`https://apidata.googleusercontent.com/caldav/v2/`).
        public var caldav: String

        public init(consent: String, token: String, caldav: String) {
            self.consent = consent
            self.token = token
            self.caldav = caldav.hasSuffix("/") ? caldav : caldav + "/"
        }
    }

    let clientID: String
    let clientSecret: String
    let endpoints: Endpoints
    let fetcher: FeedFetcher

    public init(clientID: String, clientSecret: String, endpoints: Endpoints, fetcher: FeedFetcher) {
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.endpoints = endpoints
        self.fetcher = fetcher
    }

    /// Read and write the person's calendars; their address to find their CalDAV principal.
    static let scope = "openid email https://www.googleapis.com/auth/calendar"

    public func consentURL(state: String, redirectURI: String) -> String {
        var components = URLComponents(string: endpoints.consent) ?? URLComponents()
        components.queryItems = (components.queryItems ?? []) + [
            URLQueryItem(name: "client_id", value: clientID), URLQueryItem(name: "redirect_uri", value: redirectURI),
            URLQueryItem(name: "response_type", value: "code"), URLQueryItem(name: "scope", value: Self.scope),
            // A refresh token, and asked again each time so Google gives one again.
            URLQueryItem(name: "access_type", value: "offline"), URLQueryItem(name: "prompt", value: "consent"),
            URLQueryItem(name: "state", value: state),
        ]
        return components.string ?? endpoints.consent
    }

    public func redeem(code: String, redirectURI: String) async throws(FeedFetchFailure) -> (refreshToken: String, email: String) {
        let answer = try await token([
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI), ("client_id", clientID), ("client_secret", clientSecret),
        ])
        guard let refresh = answer["refresh_token"] as? String, !refresh.isEmpty else {
            throw FeedFetchFailure(.status, "Google gave no refresh token; remove Jadwal's access in your Google account and connect again")
        }
        // The ID token comes straight from Google's token endpoint over TLS, so its claims are
        // read without checking its signature (OpenID Connect Core §3.1.3.7).
        guard let idToken = answer["id_token"] as? String, let email = Self.email(inIDToken: idToken) else {
            throw FeedFetchFailure(.status, "Google's answer did not say which Google account this is")
        }
        return (refresh, email)
    }

    /// A fresh access token for a refresh token.
    func accessToken(refreshToken: String) async throws(FeedFetchFailure) -> String {
        let answer = try await token([
            ("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("client_id", clientID), ("client_secret", clientSecret),
        ])
        guard let access = answer["access_token"] as? String, !access.isEmpty else {
            throw FeedFetchFailure(.status, "Google's token answer had no access token")
        }
        return access
    }

    public func principalURL(email: String) -> String {
        endpoints.caldav + (email.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? email) + "/user"
    }

    /// A POST to the token endpoint; an `invalid_grant` (access withdrawn) is "unauthorized".
    private func token(_ fields: [(String, String)]) async throws(FeedFetchFailure) -> [String: Any] {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        let body = fields.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }.joined(separator: "&")
        let answer = try await fetcher.exchange(FetchRequest(
            method: "POST", url: endpoints.token, headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")],
            body: Array(body.utf8)))
        let object = (try? JSONSerialization.jsonObject(with: Data(answer.body))) as? [String: Any] ?? [:]
        guard answer.status == 200 else {
            let reason = (object["error"] as? String) ?? "HTTP \(answer.status)"
            if reason == "invalid_grant" || answer.status == 401 {
                throw FeedFetchFailure(.unauthorized, "Google no longer lets Jadwal read this calendar (\(reason)); connect Google Calendar again", status: 401)
            }
            throw FeedFetchFailure(.status, "Google's token endpoint refused: \(reason)", status: answer.status)
        }
        return object
    }

    static func email(inIDToken token: String) -> String? {
        let parts = token.split(separator: ".")
        guard parts.count >= 2 else { return nil }
        guard let data = Data(base64URLEncoded: String(parts[1])), let claims = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
              let email = claims["email"] as? String, email.contains("@")
        else { return nil }
        return email
    }
}
