/// How much one connector batch may carry. The defaults keep a batch small enough to validate
/// and store in one transaction, and one runaway message from filling the database.
public struct ConnectorBatchLimits: Sendable, Hashable {
    /// The most messages in one batch.
    public var maximumMessages: Int
    /// The most UTF-8 bytes of one message's text.
    public var maximumTextBytes: Int
    /// The most characters (Unicode scalars) of `chatId`, `messageId` and `sender`.
    public var maximumIDLength: Int

    /// 1,000 messages, 64 KiB of text each, ids of 256 characters.
    public static let standard = ConnectorBatchLimits(
        maximumMessages: 1_000, maximumTextBytes: 65_536, maximumIDLength: 256)

    public init(maximumMessages: Int, maximumTextBytes: Int, maximumIDLength: Int) {
        self.maximumMessages = maximumMessages
        self.maximumTextBytes = maximumTextBytes
        self.maximumIDLength = maximumIDLength
    }
}
