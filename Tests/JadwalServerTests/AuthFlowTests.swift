import Foundation
import HTTPTypes
import HummingbirdTesting
import JadwalCore
@testable import JadwalServer
@testable import JadwalHTTP
@testable import JadwalAPI
@testable import JadwalWeb
@testable import JadwalCalDAV
@testable import JadwalMail
@testable import JadwalPush
@testable import JadwalLLM
@testable import JadwalJobs
import JadwalTestSupport
import Testing

@Suite("Passwordless sign-in over HTTP")
struct AuthFlowTests {
    @Test("magic link → tokens → /me, profile, refresh rotation, sessions, logout", arguments: TestEnvironment.engines)
    func fullFlow(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let tokens = try await client.signIn("Sara@Example.com", harness: harness, userAgent: "iPhone")
            #expect(tokens.tokenType == "Bearer" && tokens.expiresIn == 300)
            #expect(tokens.account.email == "sara@example.com")

            let link = try await harness.outbox.waitForMessage(to: "sara@example.com") { $0.magicLinkToken != nil }
            #expect(link.subject == "Your Jadwal sign-in link")
            #expect(link.textBody.contains("http://127.0.0.1:0/auth/magic?token="))
            // The welcome email follows the first sign-in, once.
            let welcome = try await harness.outbox.waitForMessage(to: "sara@example.com") { $0.magicLinkToken == nil }
            #expect(welcome.subject.hasPrefix("Welcome to Jadwal"))

            var me = try await client.send(.get, "/api/v1/me", token: tokens.accessToken)
            #expect(me.status == .ok)
            #expect(try me.json(SessionTokens.AccountJSON.self).id == tokens.account.id)

            me = try await client.send(.patch, "/api/v1/me", json: #"{"name": "سارة", "timeZone": "Asia/Riyadh", "language": "ar"}"#,
                                       token: tokens.accessToken)
            #expect(me.status == .ok)
            let profile = try me.json(SessionTokens.AccountJSON.self)
            #expect(profile.name == "سارة" && profile.timeZone == "Asia/Riyadh" && profile.language == "ar")

            // Arabic-speaking accounts get their link in Arabic.
            let second = try await client.signIn("sara@example.com", harness: harness, userAgent: "Thunderbird")
            let arabicLink = try await harness.outbox.waitForMessage(to: "sara@example.com", count: 2) { $0.magicLinkToken != nil }
            #expect(arabicLink.subject == "رابط تسجيل الدخول إلى جدول")

            let listed = try await client.send(.get, "/api/v1/sessions", token: second.accessToken)
            struct List: Decodable { struct S: Decodable { let id: String; let current: Bool; let userAgent: String? }; let sessions: [S] }
            let sessions = try listed.json(List.self).sessions
            #expect(sessions.count == 2)
            #expect(sessions.first { $0.current }?.id == second.sessionId)
            #expect(Set(sessions.compactMap(\.userAgent)) == ["iPhone", "Thunderbird"])

            // Refresh rotates the refresh token and keeps the session.
            let refreshed = try await client.send(.post, "/api/v1/auth/refresh", json: #"{"refreshToken": "\#(tokens.refreshToken)"}"#)
            #expect(refreshed.status == .ok)
            let rotated = try refreshed.json(SessionTokens.self)
            #expect(rotated.sessionId == tokens.sessionId && rotated.refreshToken != tokens.refreshToken)
            #expect(try await client.send(.get, "/api/v1/me", token: rotated.accessToken).status == .ok)

            // Sign the first device out from the second.
            let removed = try await client.send(.delete, "/api/v1/sessions/\(tokens.sessionId)", token: second.accessToken)
            #expect(removed.status == .noContent)
            #expect(try await client.send(.get, "/api/v1/me", token: rotated.accessToken).errorCode == "session_revoked")
            #expect(try await client.send(.delete, "/api/v1/sessions/\(tokens.sessionId)", token: second.accessToken).status == .notFound)

            #expect(try await client.send(.post, "/api/v1/auth/logout", token: second.accessToken).status == .noContent)
            #expect(try await client.send(.get, "/api/v1/me", token: second.accessToken).status == .unauthorized)
        }
    }

    @Test("a replayed refresh token ends the session (theft detection)")
    func refreshTokenReuse() async throws {
        try await ServerHarness.run { harness, client in
            let tokens = try await client.signIn("victim@example.com", harness: harness)
            let body = #"{"refreshToken": "\#(tokens.refreshToken)"}"#
            let legit = try await client.send(.post, "/api/v1/auth/refresh", json: body)
            #expect(legit.status == .ok)
            let replay = try await client.send(.post, "/api/v1/auth/refresh", json: body)
            #expect(replay.status == .unauthorized && replay.errorCode == "refresh_token_reused")
            let newer = try legit.json(SessionTokens.self)
            #expect(try await client.send(.get, "/api/v1/me", token: newer.accessToken).errorCode == "session_revoked")
            let afterTheft = try await client.send(.post, "/api/v1/auth/refresh", json: #"{"refreshToken": "\#(newer.refreshToken)"}"#)
            #expect(afterTheft.status == .unauthorized)
        }
    }

    @Test("log out everywhere ends every session of the account only")
    func logoutAll() async throws {
        try await ServerHarness.run { harness, client in
            let phone = try await client.signIn("me@example.com", harness: harness)
            let laptop = try await client.signIn("me@example.com", harness: harness)
            let other = try await client.signIn("other@example.com", harness: harness)
            #expect(try await client.send(.post, "/api/v1/auth/logout-all", token: laptop.accessToken).status == .noContent)
            #expect(try await client.send(.get, "/api/v1/me", token: phone.accessToken).errorCode == "session_revoked")
            #expect(try await client.send(.get, "/api/v1/me", token: laptop.accessToken).errorCode == "session_revoked")
            #expect(try await client.send(.get, "/api/v1/me", token: other.accessToken).status == .ok)
            // Another account's session cannot be ended by ID.
            let stranger = try await client.signIn("stranger@example.com", harness: harness)
            #expect(try await client.send(.delete, "/api/v1/sessions/\(other.sessionId)", token: stranger.accessToken).status == .notFound)
            #expect(try await client.send(.get, "/api/v1/me", token: other.accessToken).status == .ok)
        }
    }

    @Test("the browser link page redeems by POST, not on GET")
    func magicLinkPage() async throws {
        try await ServerHarness.run { harness, client in
            _ = try await client.send(.post, "/api/v1/auth/email", json: #"{"email": "browser@example.com"}"#)
            let token = try await harness.outbox.waitForMagicLink(to: "browser@example.com")
            let page = try await client.send(.get, "/auth/magic?token=\(token)")
            #expect(page.status == .ok && page.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(page.text.contains(#"action="/auth/magic""#) && page.text.contains(token))
            // A mail scanner fetching the link did not spend the token.
            let redeemed = try await client.send(.post, "/api/v1/auth/magic", json: #"{"token": "\#(token)"}"#)
            #expect(redeemed.status == .ok)
            let home = try await client.send(.get, "/")
            #expect(home.status == .ok && home.text.contains(#"action="/signin/email""#))
        }
    }
}
