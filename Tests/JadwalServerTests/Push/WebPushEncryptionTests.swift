import Crypto
import Foundation
import JadwalCore
import JWTKit
import Testing

@testable import JadwalPush

/// RFC 8291 §5's worked example, byte for byte, and the VAPID JWT's shape (RFC 8292 §2).
@Suite("Web Push message encryption (RFC 8291) and VAPID (RFC 8292)")
struct WebPushEncryptionTests {
    /// The values of RFC 8291 §5 (base64url, as the RFC prints them).
    enum Example {
        static let plaintext = "When I grow up, I want to be a watermelon"
        static let serverPrivate = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
        static let serverPublic = "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"
        static let browserPublic = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
        static let browserPrivate = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
        static let salt = "DGv6ra1nlYgDCS1FRnbzlw"
        static let authSecret = "BTBZMqHH6r4Tts7J_aSIgg"
        static let body = "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
    }

    static func bytes(_ text: String) throws -> Data { try #require(Data(base64URLEncoded: text)) }

    @Test("the example's keys, salt and secret give the example's body exactly")
    func rfcExample() throws {
        let ephemeral = try P256.KeyAgreement.PrivateKey(rawRepresentation: try Self.bytes(Example.serverPrivate))
        #expect(ephemeral.publicKey.x963Representation.base64URLEncodedString() == Example.serverPublic)
        let body = try WebPushEncryption.encrypt(
            Data(Example.plaintext.utf8), browserKey: try Self.bytes(Example.browserPublic), authSecret: try Self.bytes(Example.authSecret),
            ephemeralKey: ephemeral, salt: try Self.bytes(Example.salt))
        #expect(body.base64URLEncodedString() == Example.body)
    }

    @Test("a message of the largest size fits one 4096-byte record; one byte more is refused before sending")
    func sizeLimit() throws {
        let browser = P256.KeyAgreement.PrivateKey()
        let auth = Data(repeating: 7, count: 16)
        let largest = try WebPushEncryption.encrypt(
            Data(repeating: 0x41, count: WebPushEncryption.maximumPlaintext), browserKey: browser.publicKey.x963Representation, authSecret: auth)
        // RFC 8030 §7.2: push services must take at least 4096 bytes of body.
        #expect(largest.count == 4096)
        #expect(throws: WebPushEncryption.Problem.tooLong(bytes: WebPushEncryption.maximumPlaintext + 1)) {
            try WebPushEncryption.encrypt(
                Data(repeating: 0x41, count: WebPushEncryption.maximumPlaintext + 1), browserKey: browser.publicKey.x963Representation, authSecret: auth)
        }
        #expect(throws: WebPushEncryption.Problem.invalidBrowserKey) {
            try WebPushEncryption.encrypt(Data("x".utf8), browserKey: Data(repeating: 4, count: 65), authSecret: auth)
        }
    }

    struct Claims: JWTPayload {
        var aud: AudienceClaim
        var exp: ExpirationClaim
        var sub: SubjectClaim
        func verify(using _: some JWTAlgorithm) throws {}
    }

    @Test("the VAPID header signs the endpoint's origin with ES256; jwt-kit verifies it with the k= public key")
    func vapid() async throws {
        let key = VAPIDKey(signingKey: P256.Signing.PrivateKey())
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let header = try key.authorization(endpoint: "https://push.example.net:8443/wpush/v2/abc?x=1", subject: "mailto:ops@example.com", now: now)
        #expect(header.hasPrefix("vapid t="))
        let parts = header.dropFirst("vapid ".count).split(separator: ",").map(String.init)
        let token = try #require(parts.first { $0.hasPrefix("t=") }.map { String($0.dropFirst(2)) })
        let published = try #require(parts.first { $0.hasPrefix("k=") }.map { String($0.dropFirst(2)) })
        #expect(published == key.publicKey)
        let publicKey = try P256.Signing.PublicKey(x963Representation: try Self.bytes(published))
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: try ES256PublicKey(pem: publicKey.pemRepresentation))
        let claims = try await keys.verify(token, as: Claims.self)
        #expect(claims.aud.value == ["https://push.example.net:8443"])
        #expect(claims.sub.value == "mailto:ops@example.com")
        #expect(claims.exp.value == now.addingTimeInterval(12 * 3600))
        let headerJSON = try JSONSerialization.jsonObject(with: try Self.bytes(String(token.split(separator: ".")[0]))) as? [String: String]
        #expect(headerJSON == ["typ": "JWT", "alg": "ES256"])
    }
}
