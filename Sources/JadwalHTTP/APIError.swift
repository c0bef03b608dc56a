import Foundation
import Hummingbird
import JadwalCore

/// Every API error: `{"error": {"code": "...", "message": "..."}}` with the right status.
/// `code` is stable for programs; `message` tells a person what to do.
public struct APIError: Error, HTTPResponseError, Sendable {
    public var status: HTTPResponse.Status
    public var code: String
    public var message: String
    public var headers: HTTPFields
    /// What a client needs to act, beside the message (the current state of what it tried to
    /// change, say): `error.details`.
    package var details: (any Encodable & Sendable)?

    public init(_ status: HTTPResponse.Status, code: String, message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
    }

    package init(_ status: HTTPResponse.Status, code: String, message: String, details: any Encodable & Sendable) {
        self.init(status, code: code, message: message)
        self.details = details
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        Self.jsonResponse(status: status, code: code, message: message, headers: headers, details: details)
    }

    package static func jsonResponse(
        status: HTTPResponse.Status, code: String, message: String, headers: HTTPFields = [:], details: (any Encodable & Sendable)? = nil
    ) -> Response {
        struct Envelope: Encodable {
            package struct Body: Encodable {
                package let code: String
                package let message: String
                package let details: (any Encodable & Sendable)?

                package enum Keys: String, CodingKey { case code, message, details }

                package func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: Keys.self)
                    try container.encode(code, forKey: .code)
                    try container.encode(message, forKey: .message)
                    if let details { try container.encode(details, forKey: .details) }
                }
            }
            package let error: Body
        }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let data = (try? encoder.encode(Envelope(error: .init(code: code, message: message, details: details)))) ?? Data("{}".utf8)
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

extension APIError {
    package static func badRequest(_ code: String, _ message: String) -> APIError { APIError(.badRequest, code: code, message: message) }
    package static func unauthorized(_ code: String, _ message: String) -> APIError {
        APIError(.unauthorized, code: code, message: message, headers: [.wwwAuthenticate: "Bearer realm=\"jadwal\""])
    }
    package static func notFound(_ message: String) -> APIError { APIError(.notFound, code: "not_found", message: message) }

    package static let missingAccessToken = unauthorized("missing_access_token", "Send an access token: Authorization: Bearer <token>.")

    /// The one place sign-in failures become HTTP answers.
    package init(_ failure: SignIn.Failure) {
        switch failure {
        case .rateLimited(let seconds):
            self.init(
                .tooManyRequests, code: "rate_limited",
                message: "Too many sign-in links were requested. Try again in \(seconds) seconds.",
                headers: [.retryAfter: String(seconds)]
            )
        case .unknownMagicToken:
            self = .unauthorized("invalid_magic_token", "This sign-in link is not valid. Request a new one.")
        case .expiredMagicToken:
            self = .unauthorized("expired_magic_token", "This sign-in link has expired (links last 15 minutes). Request a new one.")
        case .usedMagicToken:
            self = .unauthorized("used_magic_token", "This sign-in link was already used. Request a new one.")
        case .unknownRefreshToken:
            self = .unauthorized("invalid_refresh_token", "The refresh token is not valid. Sign in again.")
        case .refreshTokenReused:
            self = .unauthorized(
                "refresh_token_reused",
                "This refresh token was already used, so the session was ended to protect the account. Sign in again."
            )
        case .sessionRevoked:
            self = .unauthorized("session_revoked", "This session has been signed out. Sign in again.")
        case .sessionExpired:
            self = .unauthorized("session_expired", "This session has expired. Sign in again.")
        case .accountDisabled:
            self.init(.forbidden, code: "account_disabled", message: "This account is disabled. Ask the server's operator.")
        }
    }
}
