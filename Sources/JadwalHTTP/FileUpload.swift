import Foundation
import Hummingbird
import MultipartKit
import NIOCore

/// A large upload written to a temporary file as it streams in, never held in memory: the raw
/// body, or the `file` part of a `multipart/form-data` form (whose small fields come along).
/// Refused with 413 as soon as it passes `limit`. The caller deletes the file (``remove()``).
package struct FileUpload: Sendable {
    package let url: URL
    package let bytes: Int
    /// The name the browser gave the file, if any.
    package let filename: String?
    /// The form's small fields (not the file), by name.
    package let fields: [String: String]

    package func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    /// Streams `request`'s file into a new file under `directory` (the system's temporary one by default).
    package static func receive(_ request: Request, limit: Int, what: String, directory: URL = FileManager.default.temporaryDirectory)
        async throws -> FileUpload {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit { throw tooLarge(limit, what: what) }
        let url = directory.appendingPathComponent("jadwal-upload-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600]),
              let handle = try? FileHandle(forWritingTo: url)
        else { throw APIError(.internalServerError, code: "upload_failed", message: "The server could not store the upload.") }
        var finished = false
        defer {
            try? handle.close()
            if !finished { try? FileManager.default.removeItem(at: url) }
        }
        let contentType = request.headers[.contentType] ?? ""
        var received = 0
        if !contentType.lowercased().hasPrefix("multipart/form-data") {
            for try await chunk in request.body {
                received += chunk.readableBytes
                if received > limit { throw tooLarge(limit, what: what) }
                try handle.write(contentsOf: chunk.readableBytesView)
            }
            finished = true
            return FileUpload(url: url, bytes: received, filename: nil, fields: [:])
        }
        guard let boundary = HeaderParameters(contentType).value("boundary"), !boundary.isEmpty, boundary.utf8.count <= 200 else {
            throw APIError.badRequest("invalid_multipart", "A multipart/form-data body needs a boundary parameter in its Content-Type.")
        }
        let form = FileFormCollector(handle: handle, fieldLimit: ChatUpload.fieldLimit)
        let parser = MultipartParser(boundary: boundary)
        parser.onHeader = { name, value in form.header(name, value) }
        parser.onBody = { buffer in form.body(&buffer) }
        parser.onPartComplete = { form.complete() }
        for try await chunk in request.body {
            received += chunk.readableBytes
            if received > limit { throw tooLarge(limit, what: what) }
            do {
                try parser.execute(chunk)
            } catch {
                throw APIError.badRequest("invalid_multipart", "The multipart/form-data body is malformed.")
            }
            if let failure = form.failure { throw failure }
        }
        guard form.fileComplete else {
            throw APIError.badRequest("missing_file", "The form has no complete part named 'file': send the \(what) as the 'file' field (or as the whole body).")
        }
        finished = true
        return FileUpload(url: url, bytes: form.fileBytes, filename: form.filename, fields: form.fields)
    }

    package static func tooLarge(_ limit: Int, what: String) -> APIError {
        APIError(
            .contentTooLarge, code: "file_too_large",
            message: "The \(what) is larger than \(limit >> 20) MB, the most this server takes in one upload. Import it on the server with the command line.")
    }
}

/// Collects the parts `MultipartParser` reports: the first `file` part straight into the file,
/// the small fields in memory.
private final class FileFormCollector {
    let handle: FileHandle
    let fieldLimit: Int
    private var headers: [(String, String)] = []
    private var current = ByteBuffer()
    private var overflow = false
    private var writing = false
    private(set) var fileComplete = false
    private(set) var fileBytes = 0
    private(set) var filename: String?
    private(set) var fields: [String: String] = [:]
    private(set) var failure: APIError?

    init(handle: FileHandle, fieldLimit: Int) {
        self.handle = handle
        self.fieldLimit = fieldLimit
    }

    private var disposition: HeaderParameters? {
        headers.first { $0.0.lowercased() == "content-disposition" }.map { HeaderParameters($0.1) }
    }

    func header(_ name: String, _ value: String) { headers.append((name, value)) }

    func body(_ buffer: inout ByteBuffer) {
        if !fileComplete, disposition?.value("name") == "file" {
            writing = true
            if filename == nil { filename = disposition?.value("filename") }
            fileBytes += buffer.readableBytes
            do {
                try handle.write(contentsOf: buffer.readableBytesView)
            } catch {
                failure = APIError(.internalServerError, code: "upload_failed", message: "The server could not store the upload.")
            }
            return
        }
        if current.readableBytes + buffer.readableBytes > fieldLimit {
            overflow = true
            return
        }
        current.writeBuffer(&buffer)
    }

    func complete() {
        if let disposition, let name = disposition.value("name") {
            if name == "file", !fileComplete {
                // The first file part, even an empty one (which then fails to read as an export).
                fileComplete = true
                writing = false
                if filename == nil { filename = disposition.value("filename") }
            } else if name != "file", !overflow, fields[name] == nil {
                fields[name] = String(buffer: current)
            }
        }
        headers = []
        current = ByteBuffer()
        overflow = false
    }
}
