import Crypto
import Foundation
import JadwalCore
import JadwalTestSupport
import JWTKit
import Testing

@testable import JadwalServer
@testable import JadwalHTTP
@testable import JadwalAPI
@testable import JadwalWeb
@testable import JadwalCalDAV
@testable import JadwalMail
@testable import JadwalPush
@testable import JadwalLLM
@testable import JadwalJobs

/// A P-256 key made with `openssl ecparam -name prime256v1 -genkey | openssl pkcs8 -topk8 -nocrypt`,
/// the form of Apple's `.p8` files, and its public key as openssl printed it.
enum APNsKnownKey {
    static let privatePEM = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgFsTI+zA1NEIK6SNK
        GbdbIxi2MUgPusb/i+WG86hfO9ihRANCAASY+t6R7nJfNMkKlDRsd73HGfPSuu+7
        cbyYoaeFxnIDWtent2bihv8KGPvR0o8O7o01SPxu1/HsW9OlhSpDvOC/
        -----END PRIVATE KEY-----
        """
    static let publicPEM = """
        -----BEGIN PUBLIC KEY-----
        MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEmPreke5yXzTJCpQ0bHe9xxnz0rrv
        u3G8mKGnhcZyA1rXp7dm4ob/Chj70dKPDu6NNUj8btfx7FvTpYUqQ7zgvw==
        -----END PUBLIC KEY-----
        """
}

@Suite("APNs provider token (ES256 JWT)")
struct APNsProviderTokenTests {
    struct Claims: JWTPayload {
        var iss: IssuerClaim
        var iat: IssuedAtClaim
        func verify(using _: some JWTAlgorithm) throws {}
    }

    @Test("the JWT has exactly Apple's header and claims, a raw 64-byte signature, and verifies with jwt-kit against openssl's public key")
    func shape() async throws {
        let key = try P256.Signing.PrivateKey(pemRepresentation: APNsKnownKey.privatePEM)
        let token = try APNsProviderToken(
            keyID: "ABC123DEFG", teamID: "DEF123GHIJ", issuedAt: Date(timeIntervalSince1970: 1_700_000_000.75), signingKey: key)

        let parts = token.value.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        try #require(parts.count == 3)
        // base64url: no padding, no + or /.
        for part in parts { #expect(!part.contains("=") && !part.contains("+") && !part.contains("/"), "\(part)") }
        #expect(parts[0] == "eyJhbGciOiJFUzI1NiIsImtpZCI6IkFCQzEyM0RFRkcifQ")
        #expect(try String(decoding: #require(Data(base64URLEncoded: parts[0])), as: UTF8.self) == #"{"alg":"ES256","kid":"ABC123DEFG"}"#)
        #expect(try String(decoding: #require(Data(base64URLEncoded: parts[1])), as: UTF8.self) == #"{"iat":1700000000,"iss":"DEF123GHIJ"}"#)
        #expect(token.issuedAt == Date(timeIntervalSince1970: 1_700_000_000), "whole seconds, rounded down")
        let signature = try #require(Data(base64URLEncoded: parts[2]))
        #expect(signature.count == 64, "r||s, not DER")

        let keys = JWTKeyCollection()
        await keys.add(ecdsa: try ES256PublicKey(pem: APNsKnownKey.publicPEM), kid: "ABC123DEFG")
        let claims = try await keys.verify(token.value, as: Claims.self)
        #expect(claims.iss.value == "DEF123GHIJ")
        #expect(claims.iat.value == Date(timeIntervalSince1970: 1_700_000_000))

        // And the signature is over exactly the first two parts.
        let publicKey = try P256.Signing.PublicKey(pemRepresentation: APNsKnownKey.publicPEM)
        let ecdsa = try P256.Signing.ECDSASignature(rawRepresentation: signature)
        #expect(publicKey.isValidSignature(ecdsa, for: Data((parts[0] + "." + parts[1]).utf8)))
        #expect(!publicKey.isValidSignature(ecdsa, for: Data((parts[0] + "." + parts[0]).utf8)))
    }

    @Test("one token is reused until 50 minutes old, then replaced; the clock going back keeps it")
    func reuse() async throws {
        let clock = TestClock()
        let tokens = APNsProviderTokens(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", signingKey: P256.Signing.PrivateKey(), clock: clock.clock)
        let first = try await tokens.token()
        #expect(first.issuedAt == Date(timeIntervalSince1970: clock.now.timeIntervalSince1970.rounded(.down)))
        clock.advance(by: 20 * 60)
        #expect(try await tokens.token() == first)
        clock.advance(by: 29 * 60 + 59)
        #expect(try await tokens.token() == first, "49:59 old")
        clock.advance(by: -3600)
        #expect(try await tokens.token() == first, "a clock that went back does not make a new token")
        clock.advance(by: 3600 + 1)
        let second = try await tokens.token()
        #expect(second != first, "50 minutes old")
        #expect(second.issuedAt.timeIntervalSince(first.issuedAt) == 50 * 60)
        #expect(try await tokens.token() == second)
    }

    @Test("a refused token is replaced once, however many sends report it")
    func replaceOnce() async throws {
        let clock = TestClock()
        let tokens = APNsProviderTokens(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", signingKey: P256.Signing.PrivateKey(), clock: clock.clock)
        let refused = try await tokens.token()
        let replacements = try await withThrowingTaskGroup(of: APNsProviderToken.self) { group in
            for _ in 0..<10 { group.addTask { try await tokens.replace(refused) } }
            return try await group.reduce(into: [APNsProviderToken]()) { $0.append($1) }
        }
        #expect(Set(replacements.map(\.value)).count == 1)
        #expect(replacements[0] != refused, "a new signature even within the same second")
        #expect(try await tokens.token() == replacements[0])
    }
}
