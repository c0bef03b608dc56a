import Crypto
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
import JWTKit
import Testing

/// Every way a client can get sign-in wrong gets the right status and a JSON error a person
/// can act on — never a 500.
@Suite("Auth error matrix")
struct AuthErrorMatrixTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let method: HTTPRequest.Method
        let path: String
        let body: String?
        let contentType: String?
        let status: HTTPResponse.Status
        let code: String
        var testDescription: String { name }
    }

    static let bodyCases: [Case] = [
        Case(name: "malformed JSON", method: .post, path: "/api/v1/auth/email", body: #"{"email": "#, contentType: "application/json", status: .badRequest, code: "malformed_json"),
        Case(name: "not an object", method: .post, path: "/api/v1/auth/email", body: "[1, 2]", contentType: "application/json", status: .badRequest, code: "invalid_field"),
        Case(name: "missing field", method: .post, path: "/api/v1/auth/email", body: "{}", contentType: "application/json", status: .badRequest, code: "missing_field"),
        Case(name: "wrong type", method: .post, path: "/api/v1/auth/email", body: #"{"email": 42}"#, contentType: "application/json", status: .badRequest, code: "invalid_field"),
        Case(name: "null field", method: .post, path: "/api/v1/auth/email", body: #"{"email": null}"#, contentType: "application/json", status: .badRequest, code: "invalid_field"),
        Case(name: "empty body", method: .post, path: "/api/v1/auth/email", body: "", contentType: "application/json", status: .badRequest, code: "empty_body"),
        Case(name: "invalid email", method: .post, path: "/api/v1/auth/email", body: #"{"email": "not-an-email"}"#, contentType: "application/json", status: .badRequest, code: "invalid_email"),
        Case(name: "form instead of JSON", method: .post, path: "/api/v1/auth/email", body: "email=a@example.com", contentType: "application/x-www-form-urlencoded", status: .unsupportedMediaType, code: "unsupported_media_type"),
        Case(name: "body too large", method: .post, path: "/api/v1/auth/email", body: #"{"email": ""# + String(repeating: "a", count: 70_000) + #""}"#, contentType: "application/json", status: .contentTooLarge, code: "body_too_large"),
        Case(name: "unknown magic token", method: .post, path: "/api/v1/auth/magic", body: #"{"token": "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}"#, contentType: "application/json", status: .unauthorized, code: "invalid_magic_token"),
        Case(name: "empty magic token", method: .post, path: "/api/v1/auth/magic", body: #"{"token": ""}"#, contentType: "application/json", status: .unauthorized, code: "invalid_magic_token"),
        Case(name: "huge magic token", method: .post, path: "/api/v1/auth/magic", body: #"{"token": ""# + String(repeating: "x", count: 5000) + #""}"#, contentType: "application/json", status: .unauthorized, code: "invalid_magic_token"),
        Case(name: "unknown refresh token", method: .post, path: "/api/v1/auth/refresh", body: #"{"refreshToken": "nope"}"#, contentType: "application/json", status: .unauthorized, code: "invalid_refresh_token"),
        Case(name: "google not configured", method: .post, path: "/api/v1/auth/google", body: #"{"idToken": "x.y.z"}"#, contentType: "application/json", status: .notFound, code: "google_sign_in_not_configured"),
        Case(name: "no access token", method: .get, path: "/api/v1/me", body: nil, contentType: nil, status: .unauthorized, code: "missing_access_token"),
        Case(name: "no access token on logout", method: .post, path: "/api/v1/auth/logout", body: nil, contentType: nil, status: .unauthorized, code: "missing_access_token"),
        Case(name: "unknown route", method: .get, path: "/api/v1/nothing-here", body: nil, contentType: nil, status: .notFound, code: "not_found"),
    ]

    @Test("malformed requests", arguments: bodyCases)
    func malformedRequests(_ testCase: Case) async throws {
        try await ServerHarness.run { _, client in
            var headers: HTTPFields = [:]
            if let type = testCase.contentType { headers[.contentType] = type }
            let response = try await client.send(testCase.method, testCase.path, json: testCase.body, headers: headers)
            #expect(response.status == testCase.status, "\(response.text)")
            let error = try response.json(ErrorBody.self)
            #expect(error.error.code == testCase.code)
            #expect(!error.error.message.isEmpty)
            #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
            #expect(response.headers[RequestIDMiddleware.header] != nil)
        }
    }

    @Test("expired and used magic links")
    func expiredAndUsed() async throws {
        try await ServerHarness.run { harness, client in
            _ = try await client.send(.post, "/api/v1/auth/email", json: #"{"email": "slow@example.com"}"#)
            let late = try await harness.outbox.waitForMagicLink(to: "slow@example.com")
            harness.clock.advance(by: 16 * 60)
            let expired = try await client.send(.post, "/api/v1/auth/magic", json: #"{"token": "\#(late)"}"#)
            #expect(expired.status == .unauthorized && expired.errorCode == "expired_magic_token")

            let tokens = try await client.signIn("twice@example.com", harness: harness)
            #expect(!tokens.accessToken.isEmpty)
            let token = try #require(await harness.outbox.magicLinks(to: "twice@example.com").first)
            let used = try await client.send(.post, "/api/v1/auth/magic", json: #"{"token": "\#(token)"}"#)
            #expect(used.status == .unauthorized && used.errorCode == "used_magic_token")
        }
    }

    @Test("bad access tokens: tampered, expired, alg none, wrong audience, wrong key, revoked, malformed header")
    func badAccessTokens() async throws {
        try await ServerHarness.run { harness, client in
            let tokens = try await client.signIn("jwt@example.com", harness: harness)
            let good = tokens.accessToken
            #expect(try await client.send(.get, "/api/v1/me", token: good).status == .ok)

            // Tampered: a payload that claims another subject, keeping the old signature.
            let parts = good.split(separator: ".").map(String.init)
            var payload = try JSONSerialization.jsonObject(with: try #require(Data(base64URLEncoded: parts[1]))) as? [String: Any] ?? [:]
            payload["sub"] = UUID().uuidString
            let forgedPayload = try JSONSerialization.data(withJSONObject: payload).base64URLEncodedString()
            var response = try await client.send(.get, "/api/v1/me", token: "\(parts[0]).\(forgedPayload).\(parts[2])")
            #expect(response.status == .unauthorized && response.errorCode == "invalid_access_token")

            // A changed signature character. Not the last one: of a 32-byte HMAC's 43 base64url
            // characters the last carries 2 padding bits, so some changes there decode to the same bytes.
            var signature = Array(parts[2])
            signature[0] = signature[0] == "A" ? "B" : "A"
            let flipped = "\(parts[0]).\(parts[1]).\(String(signature))"
            #expect(try await client.send(.get, "/api/v1/me", token: flipped).errorCode == "invalid_access_token")

            // alg: none, no signature.
            let noneHeader = Data(#"{"alg":"none","typ":"JWT"}"#.utf8).base64URLEncodedString()
            response = try await client.send(.get, "/api/v1/me", token: "\(noneHeader).\(parts[1]).")
            #expect(response.status == .unauthorized && response.errorCode == "invalid_access_token")

            // Signed with the server's own key but for another audience.
            let keys = JWTKeyCollection()
            let secret = try ServerSecret(base64: try #require(harness.instance.configuration.secretKey))
            await keys.add(hmac: HMACKey(key: secret.derivedKey(purpose: "access tokens v1")), digestAlgorithm: .sha256, kid: "a1")
            let now = harness.clock.now
            let wrongAudience = AccessTokens.Claims(
                iss: .init(value: "jadwal"), aud: .init(value: ["someone-else"]), sub: .init(value: tokens.account.id),
                sid: tokens.sessionId, iat: .init(value: now), exp: .init(value: now + 300)
            )
            response = try await client.send(.get, "/api/v1/me", token: try await keys.sign(wrongAudience, kid: "a1"))
            #expect(response.status == .unauthorized && response.errorCode == "invalid_access_token")

            // Signed with another key.
            let otherKeys = JWTKeyCollection()
            await otherKeys.add(hmac: HMACKey(key: SymmetricKey(size: .bits256)), digestAlgorithm: .sha256, kid: "a1")
            var valid = wrongAudience
            valid.aud = .init(value: ["jadwal-api"])
            #expect(try await client.send(.get, "/api/v1/me", token: try await otherKeys.sign(valid, kid: "a1")).errorCode == "invalid_access_token")

            // Garbage and a wrong scheme.
            #expect(try await client.send(.get, "/api/v1/me", token: "not.a.jwt").errorCode == "invalid_access_token")
            response = try await client.send(.get, "/api/v1/me", headers: [.authorization: "Basic dXNlcjpwYXNz"])
            #expect(response.status == .unauthorized && response.errorCode == "invalid_authorization_header")

            // Expired: five minutes and a second later.
            harness.clock.advance(by: 301)
            response = try await client.send(.get, "/api/v1/me", token: good)
            #expect(response.status == .unauthorized && response.errorCode == "expired_access_token")

            // Revoked: a fresh token for a session that was signed out.
            let fresh = try await client.signIn("jwt@example.com", harness: harness)
            #expect(try await client.send(.post, "/api/v1/auth/logout", token: fresh.accessToken).status == .noContent)
            response = try await client.send(.get, "/api/v1/me", token: fresh.accessToken)
            #expect(response.status == .unauthorized && response.errorCode == "session_revoked")
        }
    }

    @Test("invalid profile changes name the field")
    func invalidProfile() async throws {
        try await ServerHarness.run { harness, client in
            let tokens = try await client.signIn("profile@example.com", harness: harness)
            for body in [#"{"timeZone": "Mars/Olympus"}"#, #"{"language": "xx"}"#, #"{"name": "\#(String(repeating: "n", count: 201))"}"#, #"{"name": 5}"#] {
                let response = try await client.send(.patch, "/api/v1/me", json: body, token: tokens.accessToken)
                #expect(response.status == .badRequest, "\(body)")
                #expect(response.errorCode == "invalid_field", "\(body)")
            }
            let me = try await client.send(.get, "/api/v1/me", token: tokens.accessToken)
            #expect(try me.json(SessionTokens.AccountJSON.self).timeZone == "UTC", "nothing changed")
        }
    }

    @Test("rate limits answer 429 with Retry-After")
    func rateLimit() async throws {
        try await ServerHarness.run { harness, client in
            for _ in 0..<5 {
                #expect(try await client.send(.post, "/api/v1/auth/email", json: #"{"email": "spam@example.com"}"#).status == .accepted)
            }
            let limited = try await client.send(.post, "/api/v1/auth/email", json: #"{"email": "spam@example.com"}"#)
            #expect(limited.status == .tooManyRequests && limited.errorCode == "rate_limited")
            #expect(Int(limited.headers[.retryAfter] ?? "") == 900)
            harness.clock.advance(by: 15 * 60)
            #expect(try await client.send(.post, "/api/v1/auth/email", json: #"{"email": "spam@example.com"}"#).status == .accepted)
            // Per client address: 20 links in the window, whatever the email.
            for index in 0..<19 {
                #expect(try await client.send(.post, "/api/v1/auth/email", json: #"{"email": "u\#(index)@example.com"}"#).status == .accepted)
            }
            let byAddress = try await client.send(.post, "/api/v1/auth/email", json: #"{"email": "fresh@example.com"}"#)
            #expect(byAddress.status == .tooManyRequests)
        }
    }

    @Test("a disabled account cannot sign in or use its sessions")
    func disabledAccount() async throws {
        try await ServerHarness.run { harness, client in
            let tokens = try await client.signIn("gone@example.com", harness: harness)
            let store = harness.instance.store
            try await store.transaction { tx in
                guard var account = try await tx.account(email: try EmailAddress("gone@example.com")) else { return }
                account.disabledAt = Date()
                try await tx.updateAccount(account)
            }
            let me = try await client.send(.get, "/api/v1/me", token: tokens.accessToken)
            #expect(me.status == .forbidden && me.errorCode == "account_disabled")
            _ = try await client.send(.post, "/api/v1/auth/email", json: #"{"email": "gone@example.com"}"#)
            let token = try await harness.outbox.waitForMagicLink(to: "gone@example.com", count: 2)
            let redeemed = try await client.send(.post, "/api/v1/auth/magic", json: #"{"token": "\#(token)"}"#)
            #expect(redeemed.status == .forbidden && redeemed.errorCode == "account_disabled")
        }
    }
}
