import Foundation

/// A batch of messages from a live bridge, validated:
/// `{"messages": [{"chatId", "messageId", "sender", "fromMe", "timestamp", "text", "isGroup", "replaces"?}]}`.
///
/// Every field but `text` and `replaces` is required; `text` is absent or null for a message
/// without words; `replaces` names the message an edit changes. A message taken back is
/// `{"chatId", "messageId", "deleted": true}` (a retraction; nothing else is needed).
/// `timestamp` is Unix seconds as a JSON number, or an ISO-8601 string with an offset
/// (`2026-11-21T14:05:00+03:00`, `…Z`, fractional seconds allowed). A batch with any invalid
/// message is refused whole, with every problem listed, so a connector never half-imports.
public struct ConnectorBatch: Sendable, Hashable {
    public var messages: [ConnectorMessage]
    /// Messages taken back, applied after the batch's messages.
    public var retractions: [ConnectorRetraction]

    public init(messages: [ConnectorMessage], retractions: [ConnectorRetraction] = []) {
        self.messages = messages
        self.retractions = retractions
    }

    /// Reads and validates a batch's JSON body.
    public init(json: Data, limits: ConnectorBatchLimits = .standard) throws(ConnectorBatchError) {
        let batch: ConnectorWire.Batch
        do {
            batch = try JSONDecoder().decode(ConnectorWire.Batch.self, from: json)
        } catch DecodingError.dataCorrupted {
            throw ConnectorBatchError(problems: [ConnectorBatchProblem(path: nil, reason: .notJSON)])
        } catch is DecodingError {
            // JSON, but an array, a string, a number or null at the top.
            throw ConnectorBatchError(problems: [ConnectorBatchProblem(path: nil, reason: .notAnObject)])
        } catch {
            throw ConnectorBatchError(problems: [ConnectorBatchProblem(path: nil, reason: .notJSON)])
        }
        let slots: [ConnectorWire.Item?]
        switch batch.messages {
        case .value(let value): slots = value
        case .absent, .null:
            throw ConnectorBatchError(problems: [ConnectorBatchProblem(path: "messages", reason: .missing)])
        case .wrongType:
            throw ConnectorBatchError(
                problems: [ConnectorBatchProblem(path: "messages", reason: .wrongType(expected: "an array"))])
        }
        guard slots.count <= limits.maximumMessages else {
            throw ConnectorBatchError(problems: [ConnectorBatchProblem(
                path: "messages", reason: .tooManyMessages(count: slots.count, limit: limits.maximumMessages))])
        }

        var validator = Validator(limits: limits)
        var messages: [ConnectorMessage] = []
        var retractions: [ConnectorRetraction] = []
        messages.reserveCapacity(slots.count)
        for (index, slot) in slots.enumerated() {
            let path = "messages[\(index)]"
            guard let item = slot else {
                validator.report(path, .wrongType(expected: "an object"))
                continue
            }
            switch validator.isRetraction(item, at: path) {
            case true?:
                if let retraction = validator.retraction(item, at: path) { retractions.append(retraction) }
            case false?:
                if let message = validator.message(item, at: path) { messages.append(message) }
            case nil:
                continue  // `deleted` is neither: which fields it needs is unknown
            }
        }
        guard validator.problems.isEmpty else { throw ConnectorBatchError(problems: validator.problems) }
        self.init(messages: messages, retractions: retractions)
    }

    /// Checks the fields of one message after another, collecting every problem.
    private struct Validator {
        let limits: ConnectorBatchLimits
        var problems: [ConnectorBatchProblem] = []

        mutating func report(_ path: String, _ reason: ConnectorBatchProblem.Reason) {
            problems.append(ConnectorBatchProblem(path: path, reason: reason))
        }

        mutating func message(_ item: ConnectorWire.Item, at path: String) -> ConnectorMessage? {
            let chatID = identifier(item.chatId, at: path + ".chatId")
            let messageID = identifier(item.messageId, at: path + ".messageId")
            let sender = identifier(item.sender, at: path + ".sender")
            let fromMe = flag(item.fromMe, at: path + ".fromMe")
            let timestamp = timestamp(item.timestamp, at: path + ".timestamp")
            let (text, textValid) = text(item.text, at: path + ".text")
            let isGroup = flag(item.isGroup, at: path + ".isGroup")
            var replaces: String?
            var replacesValid = true
            switch item.replaces {
            case .absent, .null: break
            case .wrongType, .value:
                replaces = identifier(item.replaces, at: path + ".replaces")
                replacesValid = replaces != nil
            }
            guard let chatID, let messageID, let sender, let fromMe, let timestamp, textValid, let isGroup, replacesValid else {
                return nil
            }
            return ConnectorMessage(
                chatID: chatID, messageID: messageID, sender: sender, fromMe: fromMe, timestamp: timestamp,
                text: text, isGroup: isGroup, replaces: replaces)
        }

        /// `deleted: true` makes the item a retraction; false, null or absent a message; nil
        /// (reported) for anything else.
        mutating func isRetraction(_ item: ConnectorWire.Item, at path: String) -> Bool? {
            switch item.deleted {
            case .value(let deleted): return deleted
            case .absent, .null: return false
            case .wrongType:
                report(path + ".deleted", .wrongType(expected: "true or false"))
                return nil
            }
        }

        mutating func retraction(_ item: ConnectorWire.Item, at path: String) -> ConnectorRetraction? {
            let chatID = identifier(item.chatId, at: path + ".chatId")
            let messageID = identifier(item.messageId, at: path + ".messageId")
            guard let chatID, let messageID else { return nil }
            return ConnectorRetraction(chatID: chatID, messageID: messageID)
        }

        private mutating func identifier(_ field: ConnectorWire.Field<String>, at path: String) -> String? {
            switch field {
            case .absent, .null:
                report(path, .missing)
            case .wrongType:
                report(path, .wrongType(expected: "a string"))
            case .value(let value) where value.allSatisfy(\.isWhitespace):
                // Blank names nothing: two blank chat ids would merge strangers' chats.
                report(path, .empty)
            case .value(let value):
                // Unicode scalars, not Characters: one "character" can hide any number of
                // combining marks, and the limit is there to bound what is stored.
                let length = value.unicodeScalars.count
                guard length <= limits.maximumIDLength else {
                    report(path, .tooLong(length: length, limit: limits.maximumIDLength))
                    return nil
                }
                return value
            }
            return nil
        }

        private mutating func flag(_ field: ConnectorWire.Field<Bool>, at path: String) -> Bool? {
            switch field {
            case .absent, .null: report(path, .missing)
            case .wrongType: report(path, .wrongType(expected: "true or false"))
            case .value(let value): return value
            }
            return nil
        }

        /// The text and whether the field is acceptable (absent and null are: no words).
        private mutating func text(_ field: ConnectorWire.Field<String>, at path: String) -> (String?, Bool) {
            switch field {
            case .absent, .null:
                return (nil, true)
            case .wrongType:
                report(path, .wrongType(expected: "a string or null"))
                return (nil, false)
            case .value(let value):
                let bytes = value.utf8.count
                guard bytes <= limits.maximumTextBytes else {
                    report(path, .textTooLarge(bytes: bytes, limit: limits.maximumTextBytes))
                    return (nil, false)
                }
                return (value, true)
            }
        }

        private mutating func timestamp(
            _ field: ConnectorWire.Field<ConnectorWire.Timestamp>, at path: String
        ) -> Date? {
            let date: Date
            switch field {
            case .absent, .null:
                report(path, .missing)
                return nil
            case .wrongType:
                report(path, .notATimestamp)
                return nil
            case .value(.seconds(let seconds)):
                guard seconds.isFinite else {
                    report(path, .notATimestamp)
                    return nil
                }
                if !ConnectorBatch.plausible.contains(seconds),
                   ConnectorBatch.plausible.contains(seconds / 1_000) {
                    report(path, .timestampInMilliseconds)
                    return nil
                }
                date = Date(timeIntervalSince1970: seconds)
            case .value(.text(let text)):
                guard let parsed = ConnectorBatch.iso8601(text) else {
                    report(path, .notATimestamp)
                    return nil
                }
                date = parsed
            }
            guard ConnectorBatch.plausible.contains(date.timeIntervalSince1970) else {
                report(path, .timestampOutOfRange)
                return nil
            }
            return date
        }
    }

    /// 2000-01-01T00:00:00Z ..< 2100-01-01T00:00:00Z: chats are from this century; anything else
    /// is a unit mix-up (milliseconds, microseconds) or an uninitialised value.
    static let plausible: Range<TimeInterval> = 946_684_800..<4_102_444_800

    private static let iso8601Styles = [
        Date.ISO8601FormatStyle(),
        Date.ISO8601FormatStyle(includingFractionalSeconds: true),
    ]

    /// An ISO-8601 date and time with `Z` or an offset; a time without one names no instant.
    static func iso8601(_ text: String) -> Date? {
        for style in iso8601Styles {
            if let date = try? style.parse(text) { return date }
        }
        return nil
    }
}
