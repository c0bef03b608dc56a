/// A plan read from a conversation: proposed, agreed, refused or cancelled.
public struct ExtractedEvent: Sendable, Hashable {
    /// A short description in the conversation's language ("Dinner", "عشاء"); nil when none was said.
    public var title: String?
    /// Local wall time in the conversation's zone; for an all-day event only the date counts.
    /// Nil for a vague plan ("sometime next week").
    public var start: LocalDateTime?
    /// Set only when a range or duration was stated; for all-day events the last day, inclusive.
    public var end: LocalDateTime?
    public var allDay: Bool
    public var location: String?
    /// The prayer the start was taken from, for prayer-relative times.
    public var startRelativeTo: PrayerAnchor?

    public init(
        title: String? = nil, start: LocalDateTime? = nil, end: LocalDateTime? = nil, allDay: Bool = false,
        location: String? = nil, startRelativeTo: PrayerAnchor? = nil
    ) {
        self.title = title
        self.start = start
        self.end = end
        self.allDay = allDay
        self.location = location
        self.startRelativeTo = startRelativeTo
    }
}

/// What a conversation amounts to: its state and the plan behind it.
public struct ConversationOutcome: Sendable, Hashable {
    public var state: ConversationState
    /// The earliest standing agreed event when agreed; the proposal, or the refused or cancelled
    /// plan, otherwise; nil for no event.
    public var event: ExtractedEvent?
    /// Further agreed events in the same conversation.
    public var otherEvents: [ExtractedEvent]
    /// Set when the reading went wrong on the way (the model's answer was unusable and the rules
    /// gave this one): what the operator's failure list records.
    public var problem: ExtractionProblem?

    public init(state: ConversationState, event: ExtractedEvent? = nil, otherEvents: [ExtractedEvent] = [], problem: ExtractionProblem? = nil) {
        self.state = state
        self.event = event
        self.otherEvents = otherEvents
        self.problem = problem
    }

    /// Every agreed event, earliest first; empty unless the state is agreed.
    public var agreedEvents: [ExtractedEvent] {
        guard state == .agreed, let event else { return [] }
        return [event] + otherEvents
    }
}
