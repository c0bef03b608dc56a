import Foundation

/// A bearer secret (magic link, refresh token, setup token): 32 random bytes, base64url.
/// Only its SHA-256 digest is ever stored, so a copy of the database cannot sign anyone in.
public struct SecretToken: Sendable, Hashable, CustomStringConvertible {
    public let value: String

    public init(random: RandomSource) {
        value = Data(random.bytes(32)).base64URLEncodedString()
    }

    /// Wraps a token presented by a client. Anything can be presented; it just won't match.
    public init(presented: String) { value = presented }

    public var digest: TokenDigest { TokenDigest(of: value) }

    /// Never print secrets into logs by accident.
    public var description: String { "SecretToken(…)" }
}

/// Hex SHA-256 of a token: the lookup key in storage.
public struct TokenDigest: Sendable, Hashable, Codable {
    public let hex: String

    public init(of token: String) {
        hex = token.sha256Hex
    }

    public init(hex: String) { self.hex = hex }
}

extension Data {
    public func base64URLEncodedString() -> String {
        base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    public init?(base64URLEncoded string: String) {
        var base64 = string.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        self.init(base64Encoded: base64)
    }
}
