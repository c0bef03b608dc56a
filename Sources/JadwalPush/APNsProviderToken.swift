import Crypto
import Foundation
import JadwalCore

/// An APNs provider authentication token: an ES256 JWT with exactly the header
/// `{"alg":"ES256","kid":…}` and the claims `{"iss":<team>,"iat":<seconds>}` Apple documents.
/// Made with swift-crypto rather than jwt-kit because jwt-kit always adds `"typ":"JWT"`.
public struct APNsProviderToken: Sendable, Equatable {
    /// The compact JWT, sent as `authorization: bearer <value>`.
    public let value: String
    public let issuedAt: Date

    public init(keyID: String, teamID: String, issuedAt: Date, signingKey: P256.Signing.PrivateKey) throws {
        // JWT NumericDate: whole seconds. The IDs were checked to be letters and digits, but
        // JSONEncoder escapes whatever it is given all the same.
        let seconds = Int64(issuedAt.timeIntervalSince1970.rounded(.down))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let header = try encoder.encode(Header(alg: "ES256", kid: keyID))
        let claims = try encoder.encode(Claims(iss: teamID, iat: seconds))
        let signingInput = header.base64URLEncodedString() + "." + claims.base64URLEncodedString()
        // P-256 with SHA-256; JWS wants the raw r||s form (64 bytes), not DER.
        let signature = try signingKey.signature(for: Data(signingInput.utf8))
        value = signingInput + "." + signature.rawRepresentation.base64URLEncodedString()
        self.issuedAt = Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    package struct Header: Encodable {
        package var alg: String
        package var kid: String
    }

    package struct Claims: Encodable {
        package var iss: String
        package var iat: Int64
    }
}

/// The provider token this server currently uses. APNs refuses tokens older than an hour
/// (`ExpiredProviderToken`) and also tokens replaced more often than every 20 minutes
/// (`TooManyProviderTokenUpdates`), so one token is shared by every send and replaced only
/// when it reaches `refreshAge`, or when APNs has just refused it.
public actor APNsProviderTokens {
    /// Between Apple's 20-minute floor and one-hour ceiling, with ten minutes to spare for clock skew.
    public static let defaultRefreshAge: Duration = .seconds(50 * 60)

    package let keyID: String
    package let teamID: String
    package let signingKey: P256.Signing.PrivateKey
    package let clock: Clock
    package let refreshAge: TimeInterval
    private var current: APNsProviderToken?

    public init(
        keyID: String, teamID: String, signingKey: P256.Signing.PrivateKey, clock: Clock = .system,
        refreshAge: Duration = APNsProviderTokens.defaultRefreshAge
    ) {
        self.keyID = keyID
        self.teamID = teamID
        self.signingKey = signingKey
        self.clock = clock
        self.refreshAge = refreshAge.timeInterval
    }

    /// The token to send now: the cached one until it is `refreshAge` old, then a new one.
    public func token() throws -> APNsProviderToken {
        let now = clock.now
        // A clock that went back leaves the token as it is: its age is unknown, not negative.
        if let current, now.timeIntervalSince(current.issuedAt) < refreshAge { return current }
        return try sign(at: now)
    }

    /// A new token after APNs refused `rejected` as expired or invalid. When several sends were
    /// refused the same token at once, only the first replaces it; the others get that replacement,
    /// so one refusal never becomes a burst of updates.
    public func replace(_ rejected: APNsProviderToken) throws -> APNsProviderToken {
        if let current, current != rejected { return current }
        return try sign(at: clock.now)
    }

    private func sign(at now: Date) throws -> APNsProviderToken {
        let token = try APNsProviderToken(keyID: keyID, teamID: teamID, issuedAt: now, signingKey: signingKey)
        current = token
        return token
    }
}
