import Foundation

/// One message of a chat, whatever it came from (an export file, a webhook, a connector).
public struct ChatMessage: Sendable, Hashable {
    /// What a message is, for the extractor: only `text`, and the caption of `media`, carry words.
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
        /// Something a person wrote.
        case text
        /// An attachment (left out of the export or attached); `text` holds its caption, if any.
        case media
        /// "This message was deleted", "You deleted this message"; `text` is empty.
        case deleted
        /// A notice from WhatsApp itself (encryption, blocked contact, missed call); `sender` is nil.
        case system
    }

    /// The kind of attachment of a `media` message.
    public enum Media: String, Sendable, Hashable, CaseIterable, Codable {
        case image
        case video
        case audio
        case sticker
        case gif
        case contact
        case document
        /// A view-once photo or video (Android exports write `null`).
        case viewOnce = "view_once"
        /// The export only says a media file was left out (Android `<Media omitted>`).
        case unknown
    }

    /// The sender as the export names them (a contact name or a phone number); nil for system messages.
    public var sender: String?
    /// The wall-clock time the exporting phone showed, with no zone.
    public var localTime: LocalDateTime
    /// `localTime` read in the chat's time zone.
    public var timestamp: Date
    public var kind: Kind
    /// The body without invisible direction marks and without the "edited" marker; lines joined by "\n".
    public var text: String
    /// The export marked the message as edited.
    public var edited: Bool
    /// The attachment of a `media` message, nil otherwise.
    public var media: Media?
    /// The 1-based line of the source file where the message starts, when it came from a file.
    public var line: Int?

    public init(
        sender: String?, localTime: LocalDateTime, timestamp: Date, kind: Kind, text: String,
        edited: Bool = false, media: Media? = nil, line: Int? = nil
    ) {
        self.sender = sender
        self.localTime = localTime
        self.timestamp = timestamp
        self.kind = kind
        self.text = text
        self.edited = edited
        self.media = media
        self.line = line
    }
}
