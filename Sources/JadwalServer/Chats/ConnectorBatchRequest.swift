import Conversations
import Foundation
import JadwalCore

/// The body a chat bridge posts to `/api/v1/chats/messages`:
/// `{"messages": [{"chatId", "messageId", "sender", "fromMe", "timestamp", "text", "isGroup"}]}`.
/// Every field but `text` is required (`text` is absent or null for a message without words);
/// `timestamp` is Unix seconds or ISO 8601 with an offset. `incomingMessages(now:)` hands the
/// validated batch to `ChatConnectorRoutes.deliver`.
struct ConnectorBatchRequest: Decodable, Sendable {
    struct Message: Decodable, Sendable {
        let chatId: String
        let messageId: String
        let sender: String
        let fromMe: Bool
        let timestamp: Timestamp
        let text: String?
        let isGroup: Bool
    }

    /// Unix seconds or an ISO 8601 string with an offset.
    struct Timestamp: Decodable, Sendable {
        let date: Date?
        let written: String
        let looksLikeMilliseconds: Bool

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Double.self) {
                written = String(number)
                looksLikeMilliseconds = number > 100_000_000_000
                date = number.isFinite && !looksLikeMilliseconds ? Date(timeIntervalSince1970: number) : nil
            } else {
                let text = try container.decode(String.self)
                written = text
                looksLikeMilliseconds = false
                let fractional = ISO8601DateFormatter()
                fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
                date = fractional.date(from: text) ?? ISO8601DateFormatter().date(from: text)
            }
        }
    }

    let messages: [Message]

    static let messageLimit = 1000
    static let textLimit = 65_536
    static let idLimit = 256
    static let nameLimit = 200
    static let earliest = Date(timeIntervalSince1970: 946_684_800)  // 2000-01-01
    static let latest = Date(timeIntervalSince1970: 4_102_444_800)  // 2100-01-01

    /// The batch as incoming messages, or a 400 naming the first field that is wrong.
    func incomingMessages() throws(APIError) -> [IncomingChatMessage] {
        guard (1...Self.messageLimit).contains(messages.count) else {
            throw .badRequest("invalid_field", "Field 'messages' must hold 1 to \(Self.messageLimit) messages.")
        }
        var result: [IncomingChatMessage] = []
        result.reserveCapacity(messages.count)
        for (index, message) in messages.enumerated() {
            func invalid(_ field: String, _ rule: String) -> APIError {
                .badRequest("invalid_field", "Field 'messages[\(index)].\(field)' \(rule).")
            }
            for (field, value, limit) in [("chatId", message.chatId, Self.idLimit), ("messageId", message.messageId, Self.idLimit),
                                          ("sender", message.sender, Self.nameLimit)] {
                let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !trimmed.isEmpty, trimmed.count <= limit, !trimmed.containsControlCharacters else {
                    throw invalid(field, "must be 1 to \(limit) characters without control characters")
                }
            }
            guard (message.text?.count ?? 0) <= Self.textLimit else { throw invalid("text", "must be at most \(Self.textLimit) characters") }
            if message.timestamp.looksLikeMilliseconds {
                throw invalid("timestamp", "looks like milliseconds; send Unix seconds, not \(message.timestamp.written)")
            }
            guard let sentAt = message.timestamp.date, sentAt >= Self.earliest, sentAt < Self.latest else {
                throw invalid("timestamp", "must be Unix seconds or an ISO 8601 date-time with an offset, in 2000–2099, not \(message.timestamp.written)")
            }
            result.append(IncomingChatMessage(
                chatKey: message.chatId, isGroup: message.isGroup, externalID: message.messageId,
                sender: message.sender.trimmingCharacters(in: .whitespacesAndNewlines), fromMe: message.fromMe, sentAt: sentAt,
                text: message.text ?? ""))
        }
        return result
    }
}
