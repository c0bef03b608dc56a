import Crypto
import Foundation
import JadwalCore

/// Message encryption for Web Push (RFC 8291) in the `aes128gcm` content coding (RFC 8188):
/// an ephemeral P-256 key agreed with the browser's key, mixed with its authentication secret
/// by HKDF-SHA-256, seals the message in one record. Only the browser can read it; the push
/// service carries bytes.
public enum WebPushEncryption {
    /// The record size written in the header. One record always: a push message is at most
    /// 4096 bytes (RFC 8030 §7.2 lets push services refuse more).
    public static let recordSize: UInt32 = 4096
    /// The header (salt, record size, key id length, the 65-byte key) and the AEAD tag.
    public static let overhead = 16 + 4 + 1 + 65 + 16
    /// The most plaintext one message carries (one byte goes to the last-record delimiter).
    public static let maximumPlaintext = Int(recordSize) - overhead - 1

    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case invalidBrowserKey
        case invalidAuthSecret
        case tooLong(bytes: Int)

        public var description: String {
            switch self {
            case .invalidBrowserKey: "the subscription's p256dh is not a P-256 public key"
            case .invalidAuthSecret: "the subscription's auth secret is not 16 bytes"
            case .tooLong(let bytes): "a push message carries at most \(WebPushEncryption.maximumPlaintext) bytes, not \(bytes)"
            }
        }
    }

    /// The `aes128gcm` body for `plaintext`. The ephemeral key and the salt are parameters so
    /// RFC 8291 §5's example can be checked byte for byte; each message needs fresh ones.
    public static func encrypt(
        _ plaintext: Data, browserKey: Data, authSecret: Data, ephemeralKey: P256.KeyAgreement.PrivateKey = .init(),
        salt: Data = Data((0..<16).map { _ in UInt8.random(in: 0...255) })
    ) throws -> Data {
        guard authSecret.count == 16 else { throw Problem.invalidAuthSecret }
        guard plaintext.count <= maximumPlaintext else { throw Problem.tooLong(bytes: plaintext.count) }
        let browser: P256.KeyAgreement.PublicKey
        do {
            browser = try P256.KeyAgreement.PublicKey(x963Representation: browserKey)
        } catch {
            throw Problem.invalidBrowserKey
        }
        let serverPublic = ephemeralKey.publicKey.x963Representation
        let shared = try ephemeralKey.sharedSecretFromKeyAgreement(with: browser)
        // §3.4: IKM = HKDF(salt = auth_secret, IKM = ecdh_secret, info = "WebPush: info" 0x00 ua_public as_public, L = 32).
        var keyInfo = Data("WebPush: info".utf8)
        keyInfo.append(0)
        keyInfo.append(browser.x963Representation)
        keyInfo.append(serverPublic)
        let ikm = shared.hkdfDerivedSymmetricKey(using: SHA256.self, salt: authSecret, sharedInfo: keyInfo, outputByteCount: 32)
        // RFC 8188 §2.2–2.3: the content key and nonce from the salt.
        let prk = HKDF<SHA256>.extract(inputKeyMaterial: ikm, salt: salt)
        let cek = HKDF<SHA256>.expand(pseudoRandomKey: prk, info: Data("Content-Encoding: aes128gcm\u{0}".utf8), outputByteCount: 16)
        let nonceBytes = HKDF<SHA256>.expand(pseudoRandomKey: prk, info: Data("Content-Encoding: nonce\u{0}".utf8), outputByteCount: 12)
        // One record, the last: the plaintext, then the delimiter 0x02 (no padding).
        var record = plaintext
        record.append(0x02)
        let sealed = try AES.GCM.seal(record, using: cek, nonce: try AES.GCM.Nonce(data: nonceBytes.withUnsafeBytes { Data($0) }))
        var body = Data()
        body.append(salt)
        withUnsafeBytes(of: recordSize.bigEndian) { body.append(contentsOf: $0) }
        body.append(UInt8(serverPublic.count))
        body.append(serverPublic)
        body.append(sealed.ciphertext)
        body.append(sealed.tag)
        return body
    }
}
