import Foundation
import Testing
@testable import Conversations

@Suite struct CloudAPISignatureTests {
    private static let secret = "jadwal-test-app-secret"

    private func verificationError(_ header: String?, _ body: Data, secret: String = secret) -> CloudAPISignatureError? {
        do {
            try CloudAPISignature(appSecret: secret).verify(header: header, body: body)
            return nil
        } catch {
            return error
        }
    }

    @Test func theFixturesNameTheirSecretAndHeader() throws {
        let file = try CloudAPISamples.signatures()
        #expect(file.appSecret == Self.secret)
        #expect(file.header == CloudAPISignature.headerName)
        #expect(Set(file.signatures.keys) == Set(CloudAPISamples.rawNames.map { $0 + ".json" }))
    }

    @Test(arguments: CloudAPISamples.rawNames)
    func everyFixtureVerifiesWithItsSignature(_ name: String) throws {
        let file = try CloudAPISamples.signatures()
        let header = try #require(file.signatures[name + ".json"])
        let body = try CloudAPISamples.body(name)
        #expect(verificationError(header, body) == nil)
        // The signature we would compute is the one Meta sent, byte for byte.
        #expect(CloudAPISignature(appSecret: Self.secret).headerValue(for: body) == header)
    }

    @Test(arguments: CloudAPISamples.rawNames)
    func aBodyWithOneByteChangedIsRefused(_ name: String) throws {
        let header = try #require(try CloudAPISamples.signatures().signatures[name + ".json"])
        let body = try CloudAPISamples.body(name)
        for position in [0, body.count / 3, body.count / 2, body.count - 1] {
            var tampered = body
            tampered[tampered.startIndex + position] ^= 0x01
            #expect(verificationError(header, tampered) == .mismatch, "byte \(position) flipped")
        }
        // One byte more or less is a different body too.
        #expect(verificationError(header, body + Data(" ".utf8)) == .mismatch)
        #expect(verificationError(header, body.dropLast()) == .mismatch)
    }

    @Test func flippingAnyByteOfTheEnglishFixtureIsRefused() throws {
        let header = try #require(try CloudAPISamples.signatures().signatures["text_message_en.json"])
        let body = try CloudAPISamples.body("text_message_en")
        for position in body.indices {
            var tampered = body
            tampered[position] ^= 0x20
            #expect(verificationError(header, tampered) == .mismatch, "byte \(position) flipped")
        }
    }

    @Test func theReadmeTamperedExampleIsRefused() throws {
        let file = try CloudAPISamples.signatures()
        let header = try #require(file.signatures["text_message_en.json"])
        let text = String(decoding: try CloudAPISamples.body("text_message_en"), as: UTF8.self)
        #expect(text.contains("8?"))
        let tampered = Data(text.replacingOccurrences(of: "8?", with: "9?").utf8)
        #expect(verificationError(header, tampered) == .mismatch)
    }

    @Test func thePrettyCopiesDoNotVerify() throws {
        // Meta signs the bytes on the wire; re-serialised JSON is a different body.
        let header = try #require(try CloudAPISamples.signatures().signatures["text_message_ar.json"])
        #expect(verificationError(header, try CloudAPISamples.body("text_message_ar.pretty")) == .mismatch)
    }

    @Test func theReadmeSanityVector() throws {
        let expected = "sha256=0329a06b62cd16b33eb6792be8c60b158d89a2ee3a876fce9a881ebb488c0914"
        let body = Data("test".utf8)
        #expect(CloudAPISignature(appSecret: "secret").headerValue(for: body) == expected)
        #expect(verificationError(expected, body, secret: "secret") == nil)
        #expect(verificationError(expected, body, secret: "Secret") == .mismatch)
    }

    @Test func theReadmeExampleSignature() throws {
        let body = try CloudAPISamples.body("text_message_en")
        let header = "sha256=942e152d74776dc75dda3f29b3322b67e83dc3e48dd1335848dc7466ccdae7da"
        #expect(verificationError(header, body) == nil)
    }

    @Test func aSignatureOfAnotherBodyOrUnderAnotherSecretIsAMismatch() throws {
        let signatures = try CloudAPISamples.signatures().signatures
        let english = try CloudAPISamples.body("text_message_en")
        let arabicHeader = try #require(signatures["text_message_ar.json"])
        let englishHeader = try #require(signatures["text_message_en.json"])
        #expect(verificationError(arabicHeader, english) == .mismatch)
        // The verify token is not the app secret.
        #expect(verificationError(englishHeader, english, secret: "meatyhamhock") == .mismatch)
    }

    @Test func upperCaseHexAndSurroundingSpacesAreTheSameSignature() throws {
        let body = try CloudAPISamples.body("text_message_en")
        let hex = "942e152d74776dc75dda3f29b3322b67e83dc3e48dd1335848dc7466ccdae7da"
        #expect(verificationError("sha256=" + hex.uppercased(), body) == nil)
        #expect(verificationError(" sha256=\(hex)\t", body) == nil)
    }

    @Test func aMissingHeaderIsItsOwnError() throws {
        let body = try CloudAPISamples.body("text_message_en")
        #expect(verificationError(nil, body) == .missingHeader)
        #expect(verificationError("", body) == .missingHeader)
        #expect(verificationError("  ", body) == .missingHeader)
        #expect(CloudAPISignatureError.missingHeader.description.contains("no X-Hub-Signature-256 header"))
    }

    @Test func malformedHeadersSayHow() throws {
        let body = try CloudAPISamples.body("text_message_en")
        let hex = "942e152d74776dc75dda3f29b3322b67e83dc3e48dd1335848dc7466ccdae7da"
        #expect(verificationError(hex, body) == .malformedHeader(.missingPrefix))
        #expect(verificationError("sha1=" + hex, body) == .malformedHeader(.missingPrefix))
        #expect(verificationError("SHA256=" + hex, body) == .malformedHeader(.missingPrefix))
        #expect(verificationError("sha256=" + hex.dropLast(), body) == .malformedHeader(.wrongLength(count: 63)))
        #expect(verificationError("sha256=" + hex + "0", body) == .malformedHeader(.wrongLength(count: 65)))
        #expect(verificationError("sha256=", body) == .malformedHeader(.wrongLength(count: 0)))
        var notHex = Array(hex)
        notHex[5] = "g"
        #expect(verificationError("sha256=" + String(notHex), body) == .malformedHeader(.notHex(offset: 5)))
        #expect(verificationError("sha256=" + String(repeating: "z", count: 64), body)
            == .malformedHeader(.notHex(offset: 0)))

        let descriptions = [
            CloudAPISignatureError.malformedHeader(.missingPrefix),
            .malformedHeader(.wrongLength(count: 63)),
            .malformedHeader(.notHex(offset: 5)),
        ].map(\.description)
        #expect(descriptions[0].contains("does not start with \"sha256=\""))
        #expect(descriptions[1].contains("63 characters"))
        #expect(descriptions[2].contains("position 5"))
        #expect(CloudAPISignatureError.mismatch.description.contains("App Secret"))
    }
}
