import Foundation

/// One POST of the WhatsApp Business Platform (Cloud API) "messages" webhook, read: the incoming
/// messages it carries, in delivery order.
///
/// A delivery can hold several entries, changes and messages; it can also hold only the statuses
/// of messages the business sent (`statuses[]`), which are counted and otherwise ignored.
/// Check the signature (`CloudAPISignature`) on the raw bytes before reading them here.
public struct CloudAPIWebhook: Sendable, Hashable {
    /// The `object` of every WhatsApp Business Account webhook.
    public static let businessAccountObject = "whatsapp_business_account"

    /// The `changes[].field`s that carry chat messages: what customers wrote, and (on a number
    /// shared with the WhatsApp Business app) echoes of what the owner wrote from the app.
    static let chatFields: Set<String> = ["messages", "smb_message_echoes"]

    /// The messages, in the order of `entry[]`, `changes[]`, `messages[]` (or `message_echoes[]`).
    public var messages: [CloudAPIMessage]
    /// How many `statuses[]` items (sent, delivered, read, failed) the delivery held.
    public var statusCount: Int

    public init(messages: [CloudAPIMessage], statusCount: Int) {
        self.messages = messages
        self.statusCount = statusCount
    }

    /// Reads a delivery's body. Fields Jadwal does not use are ignored; a missing or mistyped
    /// field that it needs is an error naming its path.
    public init(body: Data) throws(CloudAPIWebhookError) {
        let notification: CloudAPIWire.Notification
        do {
            notification = try JSONDecoder().decode(CloudAPIWire.Notification.self, from: body)
        } catch let error as DecodingError {
            throw Self.error(from: error)
        } catch {
            throw CloudAPIWebhookError(path: nil, reason: .notJSON)
        }
        guard notification.object == Self.businessAccountObject else {
            throw CloudAPIWebhookError(path: nil, reason: .notWhatsAppBusinessAccount(object: notification.object))
        }
        guard let entries = notification.entry else { throw CloudAPIWebhookError(path: "entry", reason: .missing) }

        var messages: [CloudAPIMessage] = []
        var statusCount = 0
        for (entryIndex, entry) in entries.enumerated() {
            let entryPath = "entry[\(entryIndex)]"
            guard let changes = entry.changes else {
                throw CloudAPIWebhookError(path: entryPath + ".changes", reason: .missing)
            }
            for (changeIndex, change) in changes.enumerated() {
                let changePath = "\(entryPath).changes[\(changeIndex)]"
                guard let field = change.field else {
                    throw CloudAPIWebhookError(path: changePath + ".field", reason: .missing)
                }
                // Other fields (account_update, message_template_status_update, ...) carry no chat.
                guard Self.chatFields.contains(field) else { continue }
                guard let value = change.value else {
                    throw CloudAPIWebhookError(path: changePath + ".value", reason: .missing)
                }
                statusCount += value.statuses?.count ?? 0
                let echoes = field == "smb_message_echoes"
                guard let items = echoes ? value.messageEchoes : value.messages, !items.isEmpty else { continue }
                let valuePath = changePath + ".value"
                let listPath = valuePath + (echoes ? ".message_echoes" : ".messages")
                let phoneNumberID = try Self.required(
                    value.metadata?.phoneNumberID, at: valuePath + ".metadata.phone_number_id")
                for (messageIndex, message) in items.enumerated() {
                    messages.append(try Self.message(
                        message, at: "\(listPath)[\(messageIndex)]", echo: echoes,
                        phoneNumberID: phoneNumberID, contacts: value.contacts ?? []))
                }
            }
        }
        self.init(messages: messages, statusCount: statusCount)
    }

    // MARK: the work

    private static func message(
        _ message: CloudAPIWire.Message, at path: String, echo: Bool, phoneNumberID: String, contacts: [CloudAPIWire.Contact]
    ) throws(CloudAPIWebhookError) -> CloudAPIMessage {
        let from = try required(message.from, at: path + ".from")
        let customer = echo ? try required(message.to, at: path + ".to") : from
        let id = try required(message.id, at: path + ".id")
        let timestampText = try required(message.timestamp, at: path + ".timestamp")
        guard let seconds = unixSeconds(timestampText) else {
            throw CloudAPIWebhookError(path: path + ".timestamp", reason: .notUnixSeconds(value: timestampText))
        }
        let type = try required(message.type, at: path + ".type")

        let text: String?
        switch type {
        case "text":
            // A text message is its body; without one there is nothing to read.
            text = try required(message.text?.body, at: path + ".text.body", allowEmpty: true)
        case "image": text = message.image?.caption
        case "video": text = message.video?.caption
        case "document": text = message.document?.caption
        default: text = nil
        }
        // An echo's contacts, when present, name the customer, not the sender.
        let senderName = echo ? nil : contacts.first(where: { $0.waID == from })?.profile?.name
        return CloudAPIMessage(
            phoneNumberID: phoneNumberID, from: from, customer: customer, sentByBusiness: echo, senderName: senderName, id: id,
            timestamp: Date(timeIntervalSince1970: TimeInterval(seconds)), type: type, text: text,
            contextMessageID: message.context?.id)
    }

    private static func required(
        _ value: String?, at path: String, allowEmpty: Bool = false
    ) throws(CloudAPIWebhookError) -> String {
        guard let value else { throw CloudAPIWebhookError(path: path, reason: .missing) }
        guard allowEmpty || !value.isEmpty else { throw CloudAPIWebhookError(path: path, reason: .empty) }
        return value
    }

    /// Seconds since 1970 from a string of ASCII digits. At most 12 digits: a year beyond 30000
    /// is a bug on the sender's side (or milliseconds), not a message time.
    static func unixSeconds(_ text: String) -> Int64? {
        let utf8 = text.utf8
        guard (1...12).contains(utf8.count) else { return nil }
        var seconds: Int64 = 0
        for byte in utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            seconds = seconds * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        return seconds
    }

    /// A Codable failure as a path and a reason a person can act on.
    private static func error(from error: DecodingError) -> CloudAPIWebhookError {
        switch error {
        case .typeMismatch(let type, let context):
            let path = jsonPath(context.codingPath)
            guard let path else { return CloudAPIWebhookError(path: nil, reason: .notAnObject) }
            return CloudAPIWebhookError(path: path, reason: .wrongType(expected: typeName(type)))
        case .valueNotFound(_, let context):
            // A null where an object or array must be; at the top, a body of `null`.
            guard let path = jsonPath(context.codingPath) else {
                return CloudAPIWebhookError(path: nil, reason: .notAnObject)
            }
            return CloudAPIWebhookError(path: path, reason: .missing)
        case .keyNotFound(let key, let context):
            return CloudAPIWebhookError(path: jsonPath(context.codingPath + [key]), reason: .missing)
        case .dataCorrupted(let context):
            // Only the JSON reader itself reports corruption here (the top level, empty path).
            guard let path = jsonPath(context.codingPath) else {
                return CloudAPIWebhookError(path: nil, reason: .notJSON)
            }
            return CloudAPIWebhookError(path: path, reason: .wrongType(expected: "a valid value"))
        @unknown default:
            return CloudAPIWebhookError(path: nil, reason: .notJSON)
        }
    }

    /// `entry[0].changes[1].value`: array positions in brackets, keys joined by dots.
    static func jsonPath(_ codingPath: [any CodingKey]) -> String? {
        guard !codingPath.isEmpty else { return nil }
        var path = ""
        for key in codingPath {
            if let index = key.intValue {
                path += "[\(index)]"
            } else {
                if !path.isEmpty { path += "." }
                path += key.stringValue
            }
        }
        return path
    }

    private static func typeName(_ type: Any.Type) -> String {
        // JSONDecoder names the container it wanted: [String: Any] for an object, [Any] for an array.
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(String.self): return "a string"
        case ObjectIdentifier([String: Any].self): return "an object"
        case ObjectIdentifier([Any].self): return "an array"
        default: return "a JSON " + String(describing: type)
        }
    }
}
