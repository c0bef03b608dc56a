import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import JadwalServer
import JadwalCore
@testable import JadwalHTTP
@testable import JadwalAPI
@testable import JadwalWeb
@testable import JadwalCalDAV
@testable import JadwalMail
@testable import JadwalPush
@testable import JadwalLLM
@testable import JadwalJobs

@Suite("Web app: Continue with Google (ID token in the fragment, state cookie, nonce)")
struct WebGoogleSignInTests {
    static func query(_ location: String) -> [String: String] {
        Dictionary(URLComponents(string: location)?.queryItems?.map { ($0.name, $0.value ?? "") } ?? [], uniquingKeysWith: { a, _ in a })
    }

    @Test("the button sends the browser to Google with a state and nonce; the token posted back with them signs in")
    func signsIn() async throws {
        let google = try await GoogleSignInTests.KeyPair.make(kid: "google-1")
        try await GoogleSignInTests.withServers(jwks: google.jwks, configure: {
            $0.googleAuthorizationURL = "https://accounts.example/o/oauth2/v2/auth"
            $0.publicURL = "http://cal.example"
        }) { _, client in
            var browser = TestBrowser()
            #expect(try await browser.get(client, "/").text.contains(#"href="/auth/google""#))
            let started = try await browser.get(client, "/auth/google")
            let location = try #require(started.headers[.location])
            #expect(started.status == .seeOther && location.hasPrefix("https://accounts.example/o/oauth2/v2/auth?"))
            let query = Self.query(location)
            #expect(query["client_id"] == GoogleSignInTests.clientID && query["response_type"] == "id_token")
            #expect(query["redirect_uri"] == "http://cal.example/auth/google/callback" && query["scope"] == "openid email profile")
            let state = try #require(query["state"]), nonce = try #require(query["nonce"])
            #expect(browser.cookies[GoogleWebSignIn.stateCookie] == state)

            let callback = try await browser.get(client, "/auth/google/callback")
            #expect(callback.status == .ok && callback.text.contains(#"id="google-callback""#))

            // A token without this sign-in's nonce, and a state from another browser, are refused.
            let noNonce = try await google.idToken(email: "layla@gmail.com")
            let refused = try await browser.post(client, "/auth/google", [("id_token", noNonce), ("state", state)])
            #expect(refused.status == .unauthorized && refused.text.contains("nonce"))
            let token = try await google.idToken(email: "layla@gmail.com", nonce: nonce)
            var stranger = TestBrowser()
            let otherBrowser = try await stranger.post(client, "/auth/google", [("id_token", token), ("state", state)])
            #expect(otherBrowser.status == .unauthorized && stranger.cookies["jadwal_access"] == nil)
            let cancelled = try await browser.post(client, "/auth/google", [("error", "access_denied"), ("state", state)])
            #expect(cancelled.status == .unauthorized && cancelled.text.contains("cancelled"))

            let signedIn = try await browser.post(client, "/auth/google", [("id_token", token), ("state", state)])
            #expect(signedIn.status == .seeOther && signedIn.headers[.location] == "/welcome", "a first sign-in opens the first-run guide")
            #expect(browser.cookies["jadwal_access"] != nil && browser.cookies[GoogleWebSignIn.stateCookie] == nil)
            let calendar = try await browser.get(client, "/calendar")
            #expect(calendar.status == .ok)
        }
    }

    @Test("without a Google client ID there is no button, and /auth/google goes back to sign-in")
    func notConfigured() async throws {
        try await ServerHarness.run { _, client in
            var browser = TestBrowser()
            #expect(try await browser.get(client, "/").text.contains("/auth/google") == false)
            let started = try await browser.get(client, "/auth/google")
            #expect(started.status == .seeOther && started.headers[.location] == "/")
        }
    }
}
