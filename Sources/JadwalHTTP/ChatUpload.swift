import Conversations
import Foundation
import Hummingbird
import JadwalCore
import MultipartKit
import NIOCore

/// The export file of an import request: the raw body, or the `file` part of a
/// `multipart/form-data` form (whose other fields, such as `me`, come along). The body is read as
/// it streams in and refused as soon as it passes `limit`.
package struct ChatUpload {
    package var file: ByteBuffer
    /// The form's small fields (not the file), by name.
    package var fields: [String: String]
    /// The name the browser gave the file, if any.
    package var filename: String?

    /// Fields longer than this are not kept (only `me` is read, a name).
    package static let fieldLimit = 4096

    /// Reads an uploaded export (raw or multipart, `me` from the query or the form) and imports
    /// it into the person's chats: the API's import and the settings page's form alike.
    package static func importing(_ request: Request, limit: Int, into chats: Chats, accountID: UUID) async throws -> ImportView {
        let upload = try await read(request, limit: limit)
        let me = request.uri.queryParameters.get("me") ?? upload.fields["me"]
        let (chat, report) = try await chats.importExport(Data(buffer: upload.file), accountID: accountID, me: me)
        return ImportView(
            file: .init(name: upload.filename, messages: chat.export.messages.count, participants: chat.export.participants, me: chat.me),
            report: report)
    }

    package static func read(_ request: Request, limit: Int) async throws -> ChatUpload {
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

    package static func tooLarge(_ limit: Int) -> APIError {
        APIError(
            .contentTooLarge, code: "file_too_large",
            message: "The export is larger than \(limit >= 1 << 20 ? "\(limit >> 20) MB" : "\(limit >> 10) KB"), the most this server imports at once. "
                + "Export the chat without media, or import it with `jadwal import-chat` on the server.")
    }
}

/// Collects the parts `MultipartParser` reports: the `file` part's bytes and the small fields.
private final class FormCollector {
    package let fieldLimit: Int
    private var headers: [(String, String)] = []
    private var current = ByteBuffer()
    private var overflow = false
    private(set) var file: ByteBuffer?
    private(set) var filename: String?
    private(set) var fields: [String: String] = [:]

    package init(fieldLimit: Int) { self.fieldLimit = fieldLimit }

    private var disposition: HeaderParameters? {
        headers.first { $0.0.lowercased() == "content-disposition" }.map { HeaderParameters($0.1) }
    }

    package func header(_ name: String, _ value: String) { headers.append((name, value)) }

    package func body(_ buffer: inout ByteBuffer) {
        let isFile = disposition?.value("name") == "file"
        if !isFile, current.readableBytes + buffer.readableBytes > fieldLimit {
            overflow = true
            return
        }
        current.writeBuffer(&buffer)
    }

    package func complete() {
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
package struct HeaderParameters {
    private var values: [String: String] = [:]

    package init(_ header: String) {
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

    package func value(_ name: String) -> String? { values[name] }
}

/// What an import or a delivery did.
package struct DeliveryView: Encodable, Sendable {
    package struct Conversation: Encodable, Sendable {
        package let id: String
        package let partner: String
        package let source: ChatSource
        package let isGroup: Bool
        package let state: ConversationState
        package let proposal: ChatPlan?
        package let newMessages: Int
        package let awaitingExtraction: Bool
    }

    package struct Event: Encodable, Sendable {
        package let conversationId: String
        package let uid: String
        package let name: String
        package let change: ChatEventChange
        package let title: String?
        package let start: String?
    }

    package let messages: ChatInbox.Report.Messages
    package let conversations: [Conversation]
    package let events: [Event]
    package let skippedGroupChats: Int

    package init(_ report: ChatInbox.Report) {
        messages = report.messages
        conversations = report.conversations.map {
            Conversation(
                id: $0.id.uuidString.lowercased(), partner: $0.partner, source: $0.source, isGroup: $0.isGroup, state: $0.state,
                proposal: $0.proposal, newMessages: $0.newMessages, awaitingExtraction: $0.awaitingExtraction)
        }
        events = report.events.map {
            Event(conversationId: $0.conversationID.uuidString.lowercased(), uid: $0.uid, name: $0.objectName, change: $0.change, title: $0.title, start: $0.start)
        }
        skippedGroupChats = report.skippedGroupChats
    }
}

package struct ImportView: Encodable, Sendable {
    package struct File: Encodable, Sendable {
        package let name: String?
        /// Messages in the file, system notices and media included.
        package let messages: Int
        package let participants: [String]
        package let me: String
    }

    package let file: File
    package let messages: ChatInbox.Report.Messages
    package let conversations: [DeliveryView.Conversation]
    package let events: [DeliveryView.Event]

    package init(file: File, report: ChatInbox.Report) {
        self.file = file
        let delivery = DeliveryView(report)
        messages = delivery.messages
        conversations = delivery.conversations
        events = delivery.events
    }
}
