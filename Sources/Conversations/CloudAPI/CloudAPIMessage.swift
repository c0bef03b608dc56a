import Foundation

/// One incoming message of a WhatsApp Cloud API webhook delivery.
///
/// Jadwal's conversation key for it is (`phoneNumberID`, `from`): the business number it was
/// sent to and the person who sent it. `id` is unique; Meta redelivers until it gets a 200, so
/// storage deduplicates on it.
public struct CloudAPIMessage: Sendable, Hashable {
    /// `metadata.phone_number_id`: the business phone number that received the message.
    public var phoneNumberID: String
    /// The sender's number in international format, digits only, no `+`.
    public var from: String
    /// The sender's profile name from `contacts[]` (matched by `wa_id`), when Meta sent one.
    public var senderName: String?
    /// The `wamid.…` id.
    public var id: String
    /// When WhatsApp received the message.
    public var timestamp: Date
    /// Meta's message type as sent: `text`, `image`, `video`, `document`, `audio`, `reaction`, ...
    public var type: String
    /// The words of the message: `text.body` of a text, the caption of an image, video or
    /// document; nil when the message carries none.
    public var text: String?
    /// The id of the message this one replies to (`context.id`).
    public var contextMessageID: String?

    public init(
        phoneNumberID: String, from: String, senderName: String?, id: String, timestamp: Date, type: String,
        text: String?, contextMessageID: String?
    ) {
        self.phoneNumberID = phoneNumberID
        self.from = from
        self.senderName = senderName
        self.id = id
        self.timestamp = timestamp
        self.type = type
        self.text = text
        self.contextMessageID = contextMessageID
    }
}
