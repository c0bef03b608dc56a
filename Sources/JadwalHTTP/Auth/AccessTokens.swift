import Crypto
import Foundation
import JadwalCore
import JWTKit

/// Short-lived access JWTs (HS256). They name the session, and every request also checks the
/// session in storage, so signing out takes effect at once rather than when the token expires.
package struct AccessTokens: Sendable {
    package static let issuer = "jadwal"
    package static let audience = "jadwal-api"

    package struct Claims: JWTPayload {
        package var iss: IssuerClaim
        package var aud: AudienceClaim
        package var sub: SubjectClaim
        package var sid: String
        package var iat: IssuedAtClaim
        package var exp: ExpirationClaim

        /// Time-dependent checks happen in `verify(_:)` against the injected clock.
        package func verify(using _: some JWTAlgorithm) throws {}
    }

    package let keys: JWTKeyCollection
    package let clock: Clock
    package let lifetime: Duration

    package init(secret: ServerSecret, clock: Clock, lifetime: Duration = .seconds(300)) async {
        keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(key: secret.derivedKey(purpose: "access tokens v1")), digestAlgorithm: .sha256, kid: "a1")
        self.clock = clock
        self.lifetime = lifetime
    }

    package func issue(accountID: UUID, sessionID: UUID) async throws -> String {
        let now = clock.now
        let claims = Claims(
            iss: .init(value: Self.issuer), aud: .init(value: [Self.audience]), sub: .init(value: accountID.uuidString),
            sid: sessionID.uuidString, iat: .init(value: now), exp: .init(value: now + lifetime.timeInterval)
        )
        return try await keys.sign(claims, kid: "a1")
    }

    /// The session named by a valid token, or a 401 that says what was wrong with it.
    package func verify(_ token: String) async throws -> (accountID: UUID, sessionID: UUID) {
        let claims: Claims
        do {
            claims = try await keys.verify(token, as: Claims.self)
        } catch {
            throw APIError.unauthorized("invalid_access_token", "The access token is not valid (bad signature or format). Sign in again.")
        }
        guard claims.iss.value == Self.issuer, claims.aud.value.contains(Self.audience) else {
            throw APIError.unauthorized("invalid_access_token", "The access token was not issued for this API.")
        }
        guard claims.exp.value > clock.now else {
            throw APIError.unauthorized("expired_access_token", "The access token has expired. Use the refresh token to get a new one.")
        }
        guard let accountID = UUID(uuidString: claims.sub.value), let sessionID = UUID(uuidString: claims.sid) else {
            throw APIError.unauthorized("invalid_access_token", "The access token does not name a session.")
        }
        return (accountID, sessionID)
    }
}
