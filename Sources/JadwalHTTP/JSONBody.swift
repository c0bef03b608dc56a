import Foundation
import Hummingbird
import JadwalCore
import NIOCore

extension Request {
    /// Reads a JSON body of at most `limit` bytes into `T`, turning every way it can be wrong
    /// into a 4xx that names the problem (and the field, when there is one).
    package func decodeJSON<T: Decodable>(as type: T.Type, limit: Int = 64 * 1024) async throws -> T {
        let body = try await jsonBody(limit: limit)
        do {
            return try JSONDecoder().decode(T.self, from: body)
        } catch let error as DecodingError {
            throw APIError.badRequest(error.apiCode, error.apiMessage)
        }
    }

    /// The same for a body that may be left out: nil when there is none.
    package func decodeJSONIfPresent<T: Decodable>(as type: T.Type, limit: Int = 64 * 1024) async throws -> T? {
        let buffer: ByteBuffer
        do {
            buffer = try await body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw APIError(.contentTooLarge, code: "body_too_large", message: "The request body is larger than \(limit) bytes.")
        }
        guard buffer.readableBytes > 0 else { return nil }
        if let contentType = headers[.contentType], !contentType.lowercased().hasPrefix("application/json") {
            throw APIError(.unsupportedMediaType, code: "unsupported_media_type", message: "Send the body as JSON (Content-Type: application/json).")
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer: buffer))
        } catch let error as DecodingError {
            throw APIError.badRequest(error.apiCode, error.apiMessage)
        }
    }

    /// The bytes of a JSON body of at most `limit` bytes, for bodies read by their own parser:
    /// a 415 for another content type, a 413 past the limit, a 400 when there is none.
    package func jsonBody(limit: Int) async throws -> Data {
        if let contentType = headers[.contentType], !contentType.lowercased().hasPrefix("application/json") {
            throw APIError(.unsupportedMediaType, code: "unsupported_media_type", message: "Send the body as JSON (Content-Type: application/json).")
        }
        let buffer: ByteBuffer
        do {
            buffer = try await body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw APIError(.contentTooLarge, code: "body_too_large", message: "The request body is larger than \(limit) bytes.")
        }
        guard buffer.readableBytes > 0 else { throw APIError.badRequest("empty_body", "The request needs a JSON body.") }
        return Data(buffer: buffer)
    }
}

extension DecodingError {
    package var apiCode: String {
        switch self {
        case .dataCorrupted(let context) where context.codingPath.isEmpty: "malformed_json"
        case .keyNotFound: "missing_field"
        default: "invalid_field"
        }
    }

    package var apiMessage: String {
        func path(_ codingPath: [any CodingKey]) -> String { codingPath.map(\.stringValue).joined(separator: ".") }
        switch self {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "The body is not valid JSON."
        case .dataCorrupted(let context):
            return "Field '\(path(context.codingPath))' is not valid: \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "Field '\(path(context.codingPath + [key]))' is required."
        case .typeMismatch(let type, let context):
            return "Field '\(path(context.codingPath))' must be \(Self.describe(type))."
        case .valueNotFound(let type, let context):
            return "Field '\(path(context.codingPath))' must be \(Self.describe(type)), not null."
        @unknown default:
            return "The body could not be read."
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Double.Type: "a number"
        case is Bool.Type: "true or false"
        default: "of type \(type)"
        }
    }
}

/// A JSON response with an explicit status.
package struct JSONResponse<Value: Encodable & Sendable>: ResponseGenerator {
    package var status: HTTPResponse.Status = .ok
    package var value: Value

    package init(_ value: Value, status: HTTPResponse.Status = .ok) {
        self.value = value
        self.status = status
    }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        try EncodedJSONResponse(try APIJSON.encoder().encode(value), status: status).response(from: request, context: context)
    }
}

/// How every JSON answer is written: ISO 8601 dates, sorted keys, slashes as they are.
package enum APIJSON {
    package static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

/// A JSON answer already written (by `APIJSON.encoder()`, or by `JSONText`).
package struct EncodedJSONResponse: ResponseGenerator {
    package var status: HTTPResponse.Status
    private var body: Body

    private enum Body: Sendable {
        case buffer(ByteBuffer)
        /// `JSONText`'s bytes, sent in slices: a long list is megabytes, and a second buffer as
        /// large (fresh pages to fault in and fill) cost more than the slices' copies.
        case written([UInt8])
    }

    /// Bytes at most in one slice of a written answer.
    static let slice = 256 * 1024

    package init(_ data: Data, status: HTTPResponse.Status = .ok) {
        self.body = .buffer(ByteBuffer(bytes: data))
        self.status = status
    }

    package init(_ json: JSONText, status: HTTPResponse.Status = .ok) {
        self.body = json.bytes.count > Self.slice ? .written(json.bytes) : .buffer(ByteBuffer(bytes: json.bytes))
        self.status = status
    }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        let headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        switch body {
        case .buffer(let buffer):
            return Response(status: status, headers: headers, body: .init(byteBuffer: buffer))
        case .written(let bytes):
            return Response(status: status, headers: headers, body: ResponseBody(contentLength: bytes.count) { writer in
                var start = 0
                while start < bytes.count {
                    let end = min(start + Self.slice, bytes.count)
                    try await writer.write(ByteBuffer(bytes: bytes[start..<end]))
                    start = end
                }
                try await writer.finish(nil)
            })
        }
    }
}
