/// The JSON of a connector batch, read leniently: each field records whether it was absent,
/// null, of the wrong type or a value, instead of throwing, so that `ConnectorBatch` can report
/// every problem of every message rather than the first one Codable trips over.
enum ConnectorWire {
    /// What a field of the body held.
    enum Field<Value> {
        case absent
        case null
        case wrongType
        case value(Value)
    }

    /// A timestamp as sent: a number (Unix seconds) or a string (ISO-8601).
    enum Timestamp {
        case seconds(Double)
        case text(String)
    }

    struct Batch: Decodable {
        /// Each element is an item, or nil when it is not a JSON object.
        let messages: Field<[Item?]>

        private enum CodingKeys: String, CodingKey { case messages }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if !container.contains(.messages) {
                messages = .absent
            } else if try container.decodeNil(forKey: .messages) {
                messages = .null
            } else if let slots = try? container.decode([Slot].self, forKey: .messages) {
                messages = .value(slots.map(\.item))
            } else {
                messages = .wrongType
            }
        }
    }

    /// One element of `messages`, whatever JSON it is.
    struct Slot: Decodable {
        let item: Item?

        init(from decoder: any Decoder) throws {
            item = try? Item(from: decoder)
        }
    }

    struct Item: Decodable {
        let chatId: Field<String>
        let messageId: Field<String>
        let sender: Field<String>
        let fromMe: Field<Bool>
        let timestamp: Field<Timestamp>
        let text: Field<String>
        let isGroup: Field<Bool>
        let deleted: Field<Bool>
        let replaces: Field<String>

        enum CodingKeys: String, CodingKey {
            case chatId, messageId, sender, fromMe, timestamp, text, isGroup, deleted, replaces
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            chatId = Self.field(String.self, container, .chatId)
            messageId = Self.field(String.self, container, .messageId)
            sender = Self.field(String.self, container, .sender)
            fromMe = Self.field(Bool.self, container, .fromMe)
            text = Self.field(String.self, container, .text)
            isGroup = Self.field(Bool.self, container, .isGroup)
            deleted = Self.field(Bool.self, container, .deleted)
            replaces = Self.field(String.self, container, .replaces)
            switch Self.field(Double.self, container, .timestamp) {
            case .value(let seconds): timestamp = .value(.seconds(seconds))
            case .wrongType:
                if let text = try? container.decode(String.self, forKey: .timestamp) {
                    timestamp = .value(.text(text))
                } else {
                    timestamp = .wrongType
                }
            case .absent: timestamp = .absent
            case .null: timestamp = .null
            }
        }

        private static func field<Value: Decodable>(
            _ type: Value.Type, _ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys
        ) -> Field<Value> {
            guard container.contains(key) else { return .absent }
            if (try? container.decodeNil(forKey: key)) == true { return .null }
            guard let value = try? container.decode(type, forKey: key) else { return .wrongType }
            return .value(value)
        }
    }
}
