import Foundation

extension ChatMessage {
    /// A message that arrived as plain text (a connector, a webhook, a labelled dataset): the
    /// placeholders WhatsApp writes for media and deleted messages are recognised as such.
    public init(sender: String?, timestamp: Date, timeZone: TimeZone, body: String) {
        let trimmed = body.trimmingCharacters(in: .whitespacesAndNewlines)
        let bytes = Array(trimmed.utf8)
        let result = BodyClassifier.classify(bytes[...], android: true)
        let text = String(decoding: bytes[result.text], as: UTF8.self)
        self.init(
            sender: sender, localTime: LocalDateTime(timestamp, in: timeZone), timestamp: timestamp, kind: result.kind,
            text: text, edited: result.edited, media: result.media
        )
    }
}
