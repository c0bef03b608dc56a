import _CryptoExtras
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
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

/// Google sign-in against a locally generated RSA key, published as a JWKS by a second server
/// on loopback — the same HTTP fetch and RS256 check the server does against Google.
@Suite("Google sign-in")
struct GoogleSignInTests {
    static let clientID = "jadwal-test.apps.googleusercontent.com"

    struct KeyPair: Sendable {
        let keys: JWTKeyCollection
        let jwks: String

        static func make(kid: String) async throws -> KeyPair {
            let rsa = try _RSA.Signing.PrivateKey(keySize: .bits2048)
            let privateKey = try Insecure.RSA.PrivateKey(backing: rsa)
            let (modulus, exponent) = try privateKey.publicKey.getKeyPrimitives()
            let jwks = """
                {"keys": [{"kty": "RSA", "alg": "RS256", "use": "sig", "kid": "\(kid)",
                  "n": "\(modulus.base64URLEncodedString())", "e": "\(exponent.base64URLEncodedString())"}]}
                """
            let keys = JWTKeyCollection()
            await keys.add(rsa: privateKey, digestAlgorithm: .sha256, kid: JWKIdentifier(string: kid))
            return KeyPair(keys: keys, jwks: jwks)
        }

        func idToken(
            email: String = "layla@gmail.com", verified: Bool? = true, audience: String = GoogleSignInTests.clientID,
            issuer: String = "https://accounts.google.com", expires: Date = Date() + 3600, kid: String = "google-1", nonce: String? = nil
        ) async throws -> String {
            let claims = GoogleIDTokenVerifier.Claims(
                iss: .init(value: issuer), aud: .init(value: [audience]), sub: .init(value: "1234567890"),
                exp: .init(value: expires), iat: .init(value: Date()), email: email, emailVerified: verified.map(GoogleIDTokenVerifier.Flag.init),
                name: "Layla", nonce: nonce
            )
            return try await keys.sign(claims, kid: JWKIdentifier(string: kid))
        }
    }

    /// Runs `body` with a JWKS server publishing `jwks` and a Jadwal server configured to use it.
    static func withServers(
        jwks: String, configure: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in },
        _ body: @Sendable @escaping (ServerHarness, any TestClientProtocol) async throws -> Void
    ) async throws {
        let router = Router()
        router.get("certs") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "public, max-age=3600"],
                     body: .init(byteBuffer: ByteBuffer(string: jwks)))
        }
        let keyServer = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await keyServer.test(.live) { keyClient in
            let port = try #require(keyClient.port)
            try await ServerHarness.run(clock: TestClock(Date())) { configuration in
                configuration.googleClientID = clientID
                configuration.googleJWKSURL = "http://127.0.0.1:\(port)/certs"
                configure(&configuration)
            } _: { harness, client in
                try await body(harness, client)
            }
        }
    }

    @Test("a valid ID token signs in, creates the account, and links to it next time")
    func validToken() async throws {
        let google = try await KeyPair.make(kid: "google-1")
        try await Self.withServers(jwks: google.jwks) { _, client in
            let first = try await client.send(.post, "/api/v1/auth/google", json: #"{"idToken": "\#(try await google.idToken())"}"#)
            #expect(first.status == .ok, "\(first.text)")
            let tokens = try first.json(SessionTokens.self)
            #expect(tokens.account.email == "layla@gmail.com" && tokens.account.name == "Layla")
            #expect(try await client.send(.get, "/api/v1/me", token: tokens.accessToken).status == .ok)
            let second = try await client.send(.post, "/api/v1/auth/google", json: #"{"idToken": "\#(try await google.idToken(email: "LAYLA@gmail.com"))"}"#)
            #expect(try second.json(SessionTokens.self).account.id == tokens.account.id)
        }
    }

    @Test("an existing magic-link account is the one Google signs in to")
    func linksExistingAccount() async throws {
        let google = try await KeyPair.make(kid: "google-1")
        try await Self.withServers(jwks: google.jwks) { harness, client in
            let byEmail = try await client.signIn("layla@gmail.com", harness: harness)
            let byGoogle = try await client.send(.post, "/api/v1/auth/google", json: #"{"idToken": "\#(try await google.idToken())"}"#)
            #expect(try byGoogle.json(SessionTokens.self).account.id == byEmail.account.id)
        }
    }

    @Test("tokens Google did not issue for us are refused")
    func refusals() async throws {
        let google = try await KeyPair.make(kid: "google-1")
        let impostor = try await KeyPair.make(kid: "google-1")
        let rotatedAway = try await KeyPair.make(kid: "rotated-away")
        try await Self.withServers(jwks: google.jwks) { harness, client in
            let cases: [(String, String)] = [
                ("wrong audience", try await google.idToken(audience: "someone-else.apps.googleusercontent.com")),
                ("wrong issuer", try await google.idToken(issuer: "https://evil.example")),
                ("expired", try await google.idToken(expires: Date() - 60)),
                ("unverified email", try await google.idToken(verified: false)),
                ("no email_verified", try await google.idToken(verified: nil)),
                ("signed by another key", try await impostor.idToken()),
                ("unknown key ID", try await rotatedAway.idToken(kid: "rotated-away")),
                ("not a JWT", "hello"),
            ]
            for (name, token) in cases {
                let response = try await client.send(.post, "/api/v1/auth/google", json: #"{"idToken": "\#(token)"}"#)
                #expect(response.status == .unauthorized, "\(name): \(response.text)")
                #expect(response.errorCode == "invalid_id_token", "\(name)")
            }
            #expect(try await harness.instance.store.read { tx in try await tx.accounts() }.isEmpty)
        }
    }
}
