import Crypto
import Foundation
import JadwalCore

/// Voluntary Application Server Identification (RFC 8292): this server signs each push with its
/// P-256 key, so a push service delivers to a browser only what the server it subscribed with
/// sends. Browsers subscribe with the public key (`applicationServerKey`).
public struct VAPIDKey: Sendable {
    public let signingKey: P256.Signing.PrivateKey

    public init(signingKey: P256.Signing.PrivateKey) { self.signingKey = signingKey }

    /// The public key, uncompressed (65 bytes), base64url: what browsers subscribe with and `k=` carries.
    public var publicKey: String { signingKey.publicKey.x963Representation.base64URLEncodedString() }

    /// The `Authorization` header for a push to `endpoint`: `vapid t=<JWT>,k=<public key>` (RFC 8292
    /// §3; without a space after the comma, which RFC 7235 allows and every push service reads).
    /// The JWT's audience is the endpoint's origin and it expires in `lifetime` (at most 24 h).
    public func authorization(endpoint: String, subject: String, now: Date, lifetime: TimeInterval = 12 * 3600) throws -> String {
        guard let url = URLComponents(string: endpoint), let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else {
            throw VAPIDProblem.notAnAddress
        }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let audience = "\(scheme)://\(shownHost)" + (url.port.map { ":\($0)" } ?? "")
        let expires = Int64(now.addingTimeInterval(min(lifetime, 24 * 3600)).timeIntervalSince1970.rounded(.down))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let header = try encoder.encode(Header(typ: "JWT", alg: "ES256"))
        let claims = try encoder.encode(Claims(aud: audience, exp: expires, sub: subject))
        let signingInput = header.base64URLEncodedString() + "." + claims.base64URLEncodedString()
        // JWS ES256 wants the raw r||s signature (64 bytes), not DER.
        let signature = try signingKey.signature(for: Data(signingInput.utf8))
        return "vapid t=\(signingInput).\(signature.rawRepresentation.base64URLEncodedString()),k=\(publicKey)"
    }

    struct Header: Encodable {
        var typ: String
        var alg: String
    }

    struct Claims: Encodable {
        var aud: String
        var exp: Int64
        var sub: String
    }
}

public enum VAPIDProblem: Error, Sendable, CustomStringConvertible {
    case notAnAddress

    public var description: String { "the push endpoint is not an address" }
}
