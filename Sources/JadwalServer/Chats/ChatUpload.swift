import Foundation
import Hummingbird
import JadwalCore
import MultipartKit
import NIOCore

/// The export file of an import request: the raw body, or the `file` part of a
/// `multipart/form-data` form (whose other fields, such as `me`, come along). The body is read as
/// it streams in and refused as soon as it passes `limit`.
struct ChatUpload {
    var file: ByteBuffer
    /// The form's small fields (not the file), by name.
    var fields: [String: String]
    /// The name the browser gave the file, if any.
    var filename: String?

    /// Fields longer than this are not kept (only `me` is read, a name).
    static let fieldLimit = 4096

    /// Reads an uploaded export (raw or multipart, `me` from the query or the form) and imports
    /// it into the person's chats: the API's import and the settings page's form alike.
    static func importing(_ request: Request, limit: Int, into chats: Chats, accountID: UUID) async throws -> ImportView {
        let upload = try await read(request, limit: limit)
        let me = request.uri.queryParameters.get("me") ?? upload.fields["me"]
        let (chat, report) = try await chats.importExport(Data(buffer: upload.file), accountID: accountID, me: me)
        return ImportView(
            file: .init(name: upload.filename, messages: chat.export.messages.count, participants: chat.export.participants, me: chat.me),
            report: report)
    }

    static func read(_ request: Request, limit: Int) async throws -> ChatUpload {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw tooLarge(limit)
        }
        let contentType = request.headers[.contentType] ?? ""
        guard contentType.lowercased().hasPrefix("multipart/form-data") else {
            do {
                return ChatUpload(file: try await request.body.collect(upTo: limit), fields: [:], filename: nil)
            } catch is NIOTooManyBytesError {
                throw tooLarge(limit)
            }
        }
        guard let boundary = HeaderParameters(contentType).value("boundary"), !boundary.isEmpty, boundary.utf8.count <= 200 else {
            throw APIError.badRequest("invalid_multipart", "A multipart/form-data body needs a boundary parameter in its Content-Type.")
        }
        let form = FormCollector(fieldLimit: fieldLimit)
        let parser = MultipartParser(boundary: boundary)
        parser.onHeader = { name, value in form.header(name, value) }
        parser.onBody = { buffer in form.body(&buffer) }
        parser.onPartComplete = { form.complete() }
        var received = 0
        for try await chunk in request.body {
            received += chunk.readableBytes
            if received > limit { throw tooLarge(limit) }
            do {
                try parser.execute(chunk)
            } catch {
                throw APIError.badRequest("invalid_multipart", "The multipart/form-data body is malformed.")
            }
        }
        guard let file = form.file else {
            throw APIError.badRequest(
                "missing_file", "The form has no complete part named 'file': send the export as the 'file' field (or as the whole body).")
        }
        return ChatUpload(file: file, fields: form.fields, filename: form.filename)
    }

    static func tooLarge(_ limit: Int) -> APIError {
        APIError(
            .contentTooLarge, code: "file_too_large",
            message: "The export is larger than \(limit >= 1 << 20 ? "\(limit >> 20) MB" : "\(limit >> 10) KB"), the most this server imports at once. "
                + "Export the chat without media, or import it with `jadwal import-chat` on the server.")
    }
}

/// Collects the parts `MultipartParser` reports: the `file` part's bytes and the small fields.
private final class FormCollector {
    let fieldLimit: Int
    private var headers: [(String, String)] = []
    private var current = ByteBuffer()
    private var overflow = false
    private(set) var file: ByteBuffer?
    private(set) var filename: String?
    private(set) var fields: [String: String] = [:]

    init(fieldLimit: Int) { self.fieldLimit = fieldLimit }

    private var disposition: HeaderParameters? {
        headers.first { $0.0.lowercased() == "content-disposition" }.map { HeaderParameters($0.1) }
    }

    func header(_ name: String, _ value: String) { headers.append((name, value)) }

    func body(_ buffer: inout ByteBuffer) {
        let isFile = disposition?.value("name") == "file"
        if !isFile, current.readableBytes + buffer.readableBytes > fieldLimit {
            overflow = true
            return
        }
        current.writeBuffer(&buffer)
    }

    func complete() {
        if let disposition, let name = disposition.value("name") {
            if name == "file" {
                if file == nil {
                    file = current
                    filename = disposition.value("filename")
                }
            } else if !overflow, fields[name] == nil {
                fields[name] = String(buffer: current)
            }
        }
        headers = []
        current = ByteBuffer()
        overflow = false
    }
}

/// `value; name=token; other="quoted value"`: the parameters of a Content-Type or
/// Content-Disposition header.
struct HeaderParameters {
    private var values: [String: String] = [:]

    init(_ header: String) {
        var parts: [String] = []
        var part = ""
        var quoted = false
        var escaped = false
        for character in header {
            if escaped {
                part.append(character)
                escaped = false
            } else if quoted, character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == ";", !quoted {
                parts.append(part)
                part = ""
            } else {
                part.append(character)
            }
        }
        parts.append(part)
        for parameter in parts.dropFirst() {
            guard let equals = parameter.firstIndex(of: "=") else { continue }
            let name = parameter[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            let value = parameter[parameter.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if values[name] == nil { values[name] = value }
        }
    }

    func value(_ name: String) -> String? { values[name] }
}
