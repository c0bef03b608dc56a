/// Where a conversation stands about a shared plan. The raw values are the labels of the
/// extraction contract (testdata/chats/README.md) and of the JSON API.
public enum ConversationState: String, Sendable, Hashable, CaseIterable, Codable {
    /// Nothing is being arranged between the two people.
    case noEvent = "NO_EVENT"
    /// A plan with at least a time frame is on the table, neither accepted nor refused.
    case proposed = "HAS_EVENT_BUT_NOT_CONFIRMED"
    /// The other person accepted a plan with at least a date.
    case agreed = "HAS_EVENT_AGREED"
    /// The latest plan was refused, or an agreed one was cancelled with no new time.
    case denied = "HAS_EVENT_DENIED"

    /// Agreed and denied conversations are settled: their text can be forgotten.
    public var isResolved: Bool { self == .agreed || self == .denied }
}
