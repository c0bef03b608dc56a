import Foundation

/// One message sent in by a live bridge (a connector that relays a WhatsApp account, say),
/// validated. The conversation key is `chatID`; storage deduplicates on (`chatID`, `messageID`).
public struct ConnectorMessage: Sendable, Hashable {
    /// The chat the message belongs to, as the connector names it.
    public var chatID: String
    /// The message's id, unique within its chat.
    public var messageID: String
    /// Who wrote it, as the connector names them (a number, a contact name).
    public var sender: String
    /// The account owner wrote it.
    public var fromMe: Bool
    /// When it was sent.
    public var timestamp: Date
    /// The words of the message; nil for a message without text (a photo without caption, a sticker).
    public var text: String?
    /// The chat is a group chat.
    public var isGroup: Bool
    /// The id of the message (in the same chat) this one edits; nil for a new message.
    public var replaces: String?

    public init(
        chatID: String, messageID: String, sender: String, fromMe: Bool, timestamp: Date, text: String?,
        isGroup: Bool, replaces: String? = nil
    ) {
        self.replaces = replaces
        self.chatID = chatID
        self.messageID = messageID
        self.sender = sender
        self.fromMe = fromMe
        self.timestamp = timestamp
        self.text = text
        self.isGroup = isGroup
    }
}

/// A message its sender took back ("deleted for everyone"): `{"chatId", "messageId", "deleted": true}`.
public struct ConnectorRetraction: Sendable, Hashable {
    public var chatID: String
    public var messageID: String

    public init(chatID: String, messageID: String) {
        self.chatID = chatID
        self.messageID = messageID
    }
}
