import AsyncHTTPClient
import Foundation
import JadwalCore
import JWTKit
import NIOCore
import NIOFoundationCompat

/// Verifies Google ID tokens: RS256 signature against Google's published keys (JWKS), issuer,
/// audience (our OAuth client ID), expiry and a verified email.
package actor GoogleIDTokenVerifier {
    package struct Claims: JWTPayload {
        package var iss: IssuerClaim
        package var aud: AudienceClaim
        package var sub: SubjectClaim
        package var exp: ExpirationClaim
        package var iat: IssuedAtClaim?
        package var email: String?
        package var emailVerified: Flag?
        package var name: String?
        /// Set by the browser flow: binds the token to the sign-in that asked for it.
        package var nonce: String?

        package enum CodingKeys: String, CodingKey {
            case iss, aud, sub, exp, iat, email, name, nonce
            case emailVerified = "email_verified"
        }

        package func verify(using _: some JWTAlgorithm) throws {}
    }

    /// Google has sent `email_verified` both as a boolean and as the string "true".
    package struct Flag: Codable, Sendable {
        package let value: Bool
        package init(_ value: Bool) { self.value = value }
        package init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let bool = try? container.decode(Bool.self) {
                value = bool
            } else {
                value = (try container.decode(String.self)).lowercased() == "true"
            }
        }
        package func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
    }

    package static let issuers: Set<String> = ["accounts.google.com", "https://accounts.google.com"]

    package let clientID: String
    package let jwksURL: String
    package let clock: Clock
    package let httpClient: HTTPClient
    private var keys: JWTKeyCollection?
    private var keysFetchedAt: Date?
    private var keysMaxAge: TimeInterval = 3600

    package init(clientID: String, jwksURL: String, clock: Clock, httpClient: HTTPClient = .shared) {
        self.clientID = clientID
        self.jwksURL = jwksURL
        self.clock = clock
        self.httpClient = httpClient
    }

    /// The verified email and name, or an APIError saying what failed. A browser sign-in passes
    /// the nonce it sent, so a token obtained for another sign-in is refused.
    package func verify(_ idToken: String, nonce: String? = nil) async throws -> (email: EmailAddress, name: String?) {
        var keys = try await currentKeys(forceRefresh: false)
        let claims: Claims
        do {
            claims = try await keys.verify(idToken, as: Claims.self)
        } catch let error as JWTError where error.errorType == .unknownKID {
            // Google rotates keys; an unknown key ID means our copy is old.
            keys = try await currentKeys(forceRefresh: true)
            claims = try await verifyOrReject(idToken, keys: keys)
        } catch {
            throw Self.rejection("the signature or format is not valid")
        }
        guard Self.issuers.contains(claims.iss.value) else { throw Self.rejection("it was not issued by Google") }
        guard claims.aud.value.contains(clientID) else { throw Self.rejection("it was issued for another application (audience)") }
        guard claims.exp.value > clock.now else { throw Self.rejection("it has expired") }
        if let nonce, claims.nonce != nonce { throw Self.rejection("it was issued for another sign-in (nonce)") }
        guard let rawEmail = claims.email else { throw Self.rejection("it carries no email address") }
        guard claims.emailVerified?.value == true else { throw Self.rejection("Google has not verified its email address") }
        guard let email = try? EmailAddress(rawEmail) else { throw Self.rejection("its email address is not valid") }
        return (email, claims.name)
    }

    private func verifyOrReject(_ token: String, keys: JWTKeyCollection) async throws -> Claims {
        do {
            return try await keys.verify(token, as: Claims.self)
        } catch {
            throw Self.rejection("the signature or format is not valid")
        }
    }

    package static func rejection(_ reason: String) -> APIError {
        .unauthorized("invalid_id_token", "The Google ID token was refused: \(reason).")
    }

    private func currentKeys(forceRefresh: Bool) async throws -> JWTKeyCollection {
        if !forceRefresh, let keys, let fetched = keysFetchedAt, clock.now.timeIntervalSince(fetched) < keysMaxAge {
            return keys
        }
        // Refetch at most once a minute even when asked, so forged key IDs cannot make us hammer Google.
        if forceRefresh, let keys, let fetched = keysFetchedAt, clock.now.timeIntervalSince(fetched) < 60 {
            return keys
        }
        let fresh = try await fetchKeys()
        keys = fresh
        keysFetchedAt = clock.now
        return fresh
    }

    private func fetchKeys() async throws -> JWTKeyCollection {
        let unavailable = APIError(
            .badGateway, code: "identity_provider_unavailable",
            message: "Google's signing keys could not be fetched; try again in a moment."
        )
        do {
            let request = HTTPClientRequest(url: jwksURL)
            let response = try await httpClient.execute(request, timeout: .seconds(10))
            guard response.status == .ok else { throw unavailable }
            if let cacheControl = response.headers.first(name: "cache-control"),
               let maxAge = cacheControl.split(separator: ",").compactMap({ part -> TimeInterval? in
                   let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=")
                   return pair.count == 2 && pair[0] == "max-age" ? TimeInterval(pair[1]) : nil
               }).first {
                keysMaxAge = min(max(maxAge, 60), 86400)
            }
            let body = try await response.body.collect(upTo: 1 << 20)
            let collection = JWTKeyCollection()
            try await collection.add(jwksJSON: String(buffer: body))
            return collection
        } catch let error as APIError {
            throw error
        } catch {
            throw unavailable
        }
    }
}
