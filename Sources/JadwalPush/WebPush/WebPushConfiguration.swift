import Crypto
import Foundation
import JadwalCore
import JadwalFetch
import NIOSSL

/// How this server sends Web Push: its VAPID key (made on first start and kept in the data
/// directory, or given), the subject push services may contact, and which addresses it may post
/// to (the same rule as every other fetch: public addresses only unless the operator allows more).
public struct WebPushConfiguration: Sendable {
    public var key: P256.Signing.PrivateKey
    public var subject: String
    public var allowPrivate: Bool
    public var allowed: [IPRange]
    /// Trusted besides the system roots: for a test push service only.
    public var additionalTrustRoots: [NIOSSLCertificate]
    public var timeout: Duration

    public init(
        key: P256.Signing.PrivateKey, subject: String, allowPrivate: Bool = false, allowed: [IPRange] = [], additionalTrustRoots: [NIOSSLCertificate] = [],
        timeout: Duration = .seconds(30)
    ) {
        self.key = key
        self.subject = subject
        self.allowPrivate = allowPrivate
        self.allowed = allowed
        self.additionalTrustRoots = additionalTrustRoots
        self.timeout = timeout
    }
}

extension ConfigurationValue {
    /// `JADWAL_VAPID_SUBJECT`: a `mailto:` or `https:` address; nil when unset.
    public static func vapidSubject(_ text: String?) throws -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        let lower = text.lowercased()
        guard (lower.hasPrefix("mailto:") && text.count > 7) || (lower.hasPrefix("https://") && URLComponents(string: text)?.host != nil),
              !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else {
            throw ServerStartupError.configuration("JADWAL_VAPID_SUBJECT must be a mailto: or https: address (RFC 8292), not \(text)")
        }
        return text
    }

    /// `JADWAL_VAPID_PRIVATE_KEY`: the key as base64url of its 32 bytes (what `web-push
    /// generate-vapid-keys` prints) or as a PEM; nil when unset.
    public static func vapidKey(_ text: String?) throws -> P256.Signing.PrivateKey? {
        guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        if text.contains("-----BEGIN"), let key = try? P256.Signing.PrivateKey(pemRepresentation: text) { return key }
        if let raw = Data(base64URLEncoded: text), raw.count == 32, let key = try? P256.Signing.PrivateKey(rawRepresentation: raw) { return key }
        throw ServerStartupError.configuration(
            "JADWAL_VAPID_PRIVATE_KEY must be a P-256 private key: 32 bytes in base64url, or a PEM (\"-----BEGIN PRIVATE KEY-----\")")
    }

    /// `JADWAL_WEBPUSH_CA_FILE`: certificates to trust besides the system's (a test push service).
    public static func webPushTrustRoots(_ path: String?) throws -> [NIOSSLCertificate] {
        guard let path = path?.trimmingCharacters(in: .whitespaces), !path.isEmpty else { return [] }
        let roots: [NIOSSLCertificate]
        do {
            roots = try NIOSSLCertificate.fromPEMFile(path)
        } catch {
            throw ServerStartupError.configuration("JADWAL_WEBPUSH_CA_FILE: cannot read \(path) as PEM certificates: \(error)")
        }
        guard !roots.isEmpty else { throw ServerStartupError.configuration("JADWAL_WEBPUSH_CA_FILE: \(path) holds no certificate") }
        return roots
    }
}
