import Foundation

extension ChatMessage {
    /// A message that arrived as plain text (a connector, a webhook, a labelled dataset): the
    /// placeholders WhatsApp writes for media and deleted messages are recognised as such.
    private static let padding = CharacterSet.whitespacesAndNewlines
        .union(CharacterSet(charactersIn: "\u{200E}\u{200F}\u{202A}\u{202B}\u{202C}\u{202D}\u{202E}\u{2066}\u{2067}\u{2068}\u{2069}\u{FEFF}"))

    public init(sender: String?, timestamp: Date, timeZone: TimeZone, body: String) {
        // Direction marks around a placeholder ("\u{200F}تم حذف هذه الرسالة.") hide it as much as spaces do.
        let trimmed = body.trimmingCharacters(in: Self.padding)
        let bytes = Array(trimmed.utf8)
        let result = BodyClassifier.classify(bytes[...], android: true)
        let text = String(decoding: bytes[result.text], as: UTF8.self)
        self.init(
            sender: sender, localTime: LocalDateTime(timestamp, in: timeZone), timestamp: timestamp, kind: result.kind,
            text: text, edited: result.edited, media: result.media
        )
    }
}
