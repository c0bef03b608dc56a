import Conversations
import Foundation

/// A chat message as it arrives, from any source, before it is stored.
public struct IncomingChatMessage: Sendable, Hashable {
    /// The chat's identity within the source (see `ChatConversation.chatKey`).
    public var chatKey: String
    /// The chat's name, when the source says it (a contact or group name).
    public var chatName: String?
    public var isGroup: Bool
    /// The source's id of the message: what makes a second delivery a duplicate.
    public var externalID: String
    /// The sender's name or number as the source gives it.
    public var sender: String?
    /// Written by the account's owner.
    public var fromMe: Bool
    public var sentAt: Date
    /// `text`, or `media` with a caption; other kinds carry no words and are not stored.
    public var kind: ChatMessage.Kind
    public var text: String
    /// The id of the message this one edits: it takes the original's place while the original's
    /// text is still held, and is read as said again once the chat was settled.
    public var replaces: String?

    public init(
        chatKey: String, chatName: String? = nil, isGroup: Bool = false, externalID: String, sender: String?, fromMe: Bool, sentAt: Date,
        kind: ChatMessage.Kind = .text, text: String, replaces: String? = nil
    ) {
        self.replaces = replaces
        self.chatKey = chatKey
        self.chatName = chatName
        self.isGroup = isGroup
        self.externalID = externalID
        self.sender = sender
        self.fromMe = fromMe
        self.sentAt = sentAt
        self.kind = kind
        self.text = text
    }

    /// Worth storing: a message with words in it.
    var carriesText: Bool {
        (kind == .text || kind == .media) && !text.isBlank
    }
}

/// A message its sender took back (WhatsApp's "delete for everyone"), named by its chat and id.
public struct ChatMessageRetraction: Sendable, Hashable {
    public var chatKey: String
    public var externalID: String

    public init(chatKey: String, externalID: String) {
        self.chatKey = chatKey
        self.externalID = externalID
    }

    public init(_ retraction: ConnectorRetraction) {
        self.init(chatKey: retraction.chatID, externalID: retraction.messageID)
    }

    /// How an edit is stored once the message it edits was settled: beside it, as said again.
    /// Taking the original back takes these with it.
    static func editPrefix(of externalID: String) -> String { externalID + "~edit~" }
}

extension IncomingChatMessage {
    /// A message a chat bridge delivered.
    public init(_ message: ConnectorMessage) {
        self.init(
            chatKey: message.chatID, isGroup: message.isGroup, externalID: message.messageID,
            sender: message.sender.trimmingCharacters(in: .whitespacesAndNewlines), fromMe: message.fromMe, sentAt: message.timestamp,
            text: message.text ?? "", replaces: message.replaces)
    }

    /// A message the Cloud API webhook delivered. The chat is the business number and the person
    /// on the other side; the owner's own side only arrives as echoes, from a number shared with
    /// the WhatsApp Business app.
    public init(_ message: CloudAPIMessage) {
        self.init(
            chatKey: message.phoneNumberID + ":" + message.customer, chatName: message.senderName, externalID: message.id,
            sender: message.senderName ?? message.from, fromMe: message.sentByBusiness, sentAt: message.timestamp,
            kind: message.type == "text" ? .text : .media, text: message.text ?? "")
    }
}

/// A stored chat message. Its row outlives its text: once the conversation is resolved, or the
/// retention period is over, `sealedText` is dropped and the row stays only so the same message
/// delivered again is recognised and ignored.
public struct ChatMessageRecord: Sendable, Hashable {
    public var conversationID: UUID
    public var externalID: String
    /// Order of storing within the conversation (breaks ties between equal send times).
    public var position: Int64
    public var sender: String?
    public var fromMe: Bool
    public var kind: ChatMessage.Kind
    public var sentAt: Date
    /// The encrypted text; nil once forgotten.
    public var sealedText: SealedText?
    public var createdAt: Date

    public init(
        conversationID: UUID, externalID: String, position: Int64, sender: String?, fromMe: Bool, kind: ChatMessage.Kind, sentAt: Date,
        sealedText: SealedText?, createdAt: Date
    ) {
        self.conversationID = conversationID
        self.externalID = externalID
        self.position = position
        self.sender = sender
        self.fromMe = fromMe
        self.kind = kind
        self.sentAt = sentAt
        self.sealedText = sealedText
        self.createdAt = createdAt
    }
}
