import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import JadwalCore
import Logging

/// Gives each request an ID (the client's `X-Request-ID` when it is sane), logs it with every
/// line, and returns it, so a user's report can be matched to the server's logs.
package struct RequestIDMiddleware: RouterMiddleware {

    package init() {
    }
    package typealias Context = JadwalRequestContext
    package static let header = HTTPField.Name("X-Request-ID")!

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let incoming = request.headers[Self.header].flatMap { value in
            value.count <= 64 && value.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") } ? value : nil
        }
        context.requestID = incoming ?? context.id
        context.logger[metadataKey: "request_id"] = .string(context.requestID)
        // JSONErrorMiddleware sits inside this one, so every failure arrives here as a response.
        var response = try await next(request, context)
        response.headers[Self.header] = context.requestID
        return response
    }
}

/// Turns every error into the JSON error shape. Errors that are not ours are logged and
/// answered as 500 without detail; tests make sure no input reaches that branch.
package struct JSONErrorMiddleware: RouterMiddleware {

    package init() {
    }
    package typealias Context = JadwalRequestContext

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            return response(for: error, request: request, context: context)
        }
    }

    private func response(for error: any Error, request: Request, context: Context) -> Response {
        switch error {
        case let error as APIError:
            return APIError.jsonResponse(status: error.status, code: error.code, message: error.message, headers: error.headers, details: error.details)
        case let error as HTTPError:
            let code: String
            let message: String
            switch error.status {
            case .notFound:
                (code, message) = ("not_found", "There is nothing at \(request.method) \(request.uri.path).")
            case .methodNotAllowed:
                (code, message) = ("method_not_allowed", "\(request.method) is not allowed on \(request.uri.path).")
            case .contentTooLarge:
                (code, message) = ("body_too_large", "The request body is too large.")
            default:
                (code, message) = (error.status.reasonPhrase.lowercased().replacingOccurrences(of: " ", with: "_"), error.body ?? error.status.reasonPhrase)
            }
            return APIError.jsonResponse(status: error.status, code: code, message: message, headers: error.headers)
        case let full as AccountQuota.Exceeded:
            return APIError.jsonResponse(
                status: HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage"), code: "quota_exceeded", message: "Nothing was saved: \(full).")
        case is StorageFull:
            context.logger.error("database disk full; nothing was written")
            return APIError.jsonResponse(
                status: HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage"), code: "server_storage_full",
                message: "The server has run out of disk space, so nothing was saved. Tell the server's operator; the same request works again once space is freed.")
        case let error as StoreUnavailable:
            // Nothing was written: the client may send the same request again.
            context.logger.warning("database unavailable", metadata: ["reason": "\(error.reason)"])
            var headers = HTTPFields()
            headers[.retryAfter] = String(error.retryAfterSeconds)
            return APIError.jsonResponse(
                status: .serviceUnavailable, code: "database_busy",
                message: "The server is too busy to take this now (\(error.reason)). Nothing was changed; try again in \(error.retryAfterSeconds) s.",
                headers: headers)
        case let error as any HTTPResponseError:
            return (try? error.response(from: request, context: context))
                ?? APIError.jsonResponse(status: error.status, code: "error", message: error.status.reasonPhrase)
        default:
            context.logger.error("unhandled error", metadata: ["error": "\(String(reflecting: error))"])
            return APIError.jsonResponse(
                status: .internalServerError, code: "internal_error",
                message: "Something went wrong on the server. The request ID in X-Request-ID helps the operator find it."
            )
        }
    }
}

/// Takes the client address from `X-Forwarded-For`, but only on connections from a trusted
/// proxy: read from the right, the first hop that is not a trusted proxy is the client (a client
/// can write anything to the left of what its proxy appended). Installed only when the operator
/// says a proxy sits in front.
package struct ForwardedClientMiddleware: RouterMiddleware {
    package typealias Context = JadwalRequestContext
    package static let header = HTTPField.Name("X-Forwarded-For")!
    package let trustedProxies: [IPNetwork]

    package init(trustedProxies: [IPNetwork]) {
        self.trustedProxies = trustedProxies
    }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if trustedProxies.containsAddress(context.remoteAddress?.ipAddress), let client = client(in: request.headers[values: Self.header]) {
            context.clientAddress = client
        }
        return try await next(request, context)
    }

    /// The client among the hops of every `X-Forwarded-For` field, or nil when none is an address.
    package func client(in fields: [String]) -> String? {
        let hops = fields.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        var client: String?
        for hop in hops.reversed() {
            guard IPNetwork.bytes(of: hop) != nil else { break }
            client = hop
            if !trustedProxies.containsAddress(hop) { break }
        }
        return client
    }
}
