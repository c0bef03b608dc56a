import Foundation

/// One incoming message of a WhatsApp Cloud API webhook delivery.
///
/// Jadwal's conversation key for it is (`phoneNumberID`, `customer`): the business number and
/// the person on the other side. `id` is unique; Meta redelivers until it gets a 200, so
/// storage deduplicates on it.
public struct CloudAPIMessage: Sendable, Hashable {
    /// `metadata.phone_number_id`: the business phone number that received the message.
    public var phoneNumberID: String
    /// The sender's number in international format, digits only, no `+`.
    public var from: String
    /// The other side's number: `from` of an incoming message, `to` of an echo.
    public var customer: String
    /// An echo: the business's owner sent it from the WhatsApp Business app on a number shared
    /// with the Cloud API ("coexistence"), so it is the owner's side of the chat.
    public var sentByBusiness: Bool
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
        phoneNumberID: String, from: String, customer: String? = nil, sentByBusiness: Bool = false, senderName: String?, id: String,
        timestamp: Date, type: String, text: String?, contextMessageID: String?
    ) {
        self.phoneNumberID = phoneNumberID
        self.from = from
        self.customer = customer ?? from
        self.sentByBusiness = sentByBusiness
        self.senderName = senderName
        self.id = id
        self.timestamp = timestamp
        self.type = type
        self.text = text
        self.contextMessageID = contextMessageID
    }
}
