import Conversations
import Foundation
import JadwalCore

/// The body a chat bridge posts to `/api/v1/chats/messages`:
/// `{"messages": [{"chatId", "messageId", "sender", "fromMe", "timestamp", "text", "isGroup", "chatName"}]}`.
/// `timestamp` is Unix seconds (whatsapp-web.js) or ISO 8601 (whatsmeow); `sender` may be left
/// out of the owner's own messages; `isGroup` defaults to whether the chat id is a group's
/// (`…@g.us`); `chatName` is optional.
struct ConnectorBatch: Decodable, Sendable {
    struct Message: Decodable, Sendable {
        let chatId: String
        let messageId: String
        let sender: String?
        let fromMe: Bool
        let timestamp: Timestamp
        let text: String
        let isGroup: Bool?
        let chatName: String?
    }

    /// Unix seconds (milliseconds when the number is that large) or an ISO 8601 string.
    struct Timestamp: Decodable, Sendable {
        let date: Date?
        let written: String

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Double.self) {
                written = String(number)
                date = number.isFinite ? Date(timeIntervalSince1970: number > 100_000_000_000 ? number / 1000 : number) : nil
            } else {
                let text = try container.decode(String.self)
                written = text
                let formatter = ISO8601DateFormatter()
                formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
                date = formatter.date(from: text) ?? ISO8601DateFormatter().date(from: text)
            }
        }
    }

    let messages: [Message]

    static let messageLimit = 1000
    static let textLimit = 65_536
    static let idLimit = 256
    static let nameLimit = 200
    /// WhatsApp did not exist before 2009.
    static let earliest = Date(timeIntervalSince1970: 1_230_768_000)

    /// The batch as incoming messages, or a 400 naming the first field that is wrong.
    func incomingMessages(now: Date) throws(APIError) -> [IncomingChatMessage] {
        guard (1...Self.messageLimit).contains(messages.count) else {
            throw .badRequest("invalid_field", "Field 'messages' must hold 1 to \(Self.messageLimit) messages.")
        }
        var result: [IncomingChatMessage] = []
        result.reserveCapacity(messages.count)
        for (index, message) in messages.enumerated() {
            func invalid(_ field: String, _ rule: String) -> APIError {
                .badRequest("invalid_field", "Field 'messages[\(index)].\(field)' \(rule).")
            }
            for (field, value) in [("chatId", message.chatId), ("messageId", message.messageId)] {
                guard !value.isEmpty, value.count <= Self.idLimit, !value.containsControlCharacters else {
                    throw invalid(field, "must be 1 to \(Self.idLimit) characters without control characters")
                }
            }
            let sender = message.sender?.trimmingCharacters(in: .whitespacesAndNewlines)
            if let sender, sender.count > Self.nameLimit || sender.containsControlCharacters {
                throw invalid("sender", "must be at most \(Self.nameLimit) characters without control characters")
            }
            if !message.fromMe, (sender ?? "").isEmpty {
                throw invalid("sender", "is required for messages that are not from you")
            }
            if let name = message.chatName, name.count > Self.nameLimit || name.containsControlCharacters {
                throw invalid("chatName", "must be at most \(Self.nameLimit) characters without control characters")
            }
            guard message.text.count <= Self.textLimit else { throw invalid("text", "must be at most \(Self.textLimit) characters") }
            guard let sentAt = message.timestamp.date, sentAt >= Self.earliest, sentAt <= now + 86_400 else {
                throw invalid("timestamp", "must be Unix seconds or an ISO 8601 date-time between 2009 and now, not \(message.timestamp.written)")
            }
            result.append(IncomingChatMessage(
                chatKey: message.chatId, chatName: message.chatName, isGroup: message.isGroup ?? message.chatId.hasSuffix("@g.us"),
                externalID: message.messageId, sender: (sender?.isEmpty ?? true) ? nil : sender, fromMe: message.fromMe, sentAt: sentAt,
                text: message.text))
        }
        return result
    }
}
