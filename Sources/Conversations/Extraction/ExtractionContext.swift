import Foundation

/// What the extractor knows besides the messages: the conversation's zone, the moment of
/// analysis, and the user's prayer times.
public struct ExtractionContext: Sendable {
    public var timeZone: TimeZone
    public var now: Date
    public var prayerTimes: any PrayerTimetable

    public init(timeZone: TimeZone, now: Date, prayerTimes: any PrayerTimetable) {
        self.timeZone = timeZone
        self.now = now
        self.prayerTimes = prayerTimes
    }
}

/// Reads a conversation and says what was arranged in it. The rule-based extractor is the
/// default; an LLM-backed one may stand in front of it and fall back to it.
public protocol ConversationExtractor: Sendable {
    /// `messages` in the order they were sent; senders are compared by name.
    func outcome(of messages: [ChatMessage], context: ExtractionContext) async -> ConversationOutcome

    /// True when an answer may take seconds (a model over the network), so that callers ask
    /// with no database transaction open.
    var answersSlowly: Bool { get }
}

extension ConversationExtractor {
    public var answersSlowly: Bool { false }
}
