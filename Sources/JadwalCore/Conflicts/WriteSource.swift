/// Who wrote a calendar object: conflicts remember it, and whether to tell the person about a
/// conflict depends on it.
public enum WriteSource: String, Sendable, Hashable, Codable, CaseIterable {
    /// A CalDAV client: the person's phone or computer.
    case caldav
    /// The JSON API (the web app).
    case api
    /// Jadwal itself, from an agreement read in a chat.
    case chat
    /// A daily routine's series.
    case routine
    /// "Plan my tasks".
    case taskPlan = "task-plan"
    /// A subscribed calendar's refresh: an event appeared or moved in a feed.
    case feed
    /// A goal session the person accepted from the two-week plan.
    case goalPlan = "goal-plan"
    /// A connected CalDAV account's sync: the change was made on the other server.
    case remote
    /// The server delivered a meeting's invitation, update or cancellation into an attendee's
    /// calendar, or an attendee's answer into the organizer's copy.
    case invitation

    /// Jadwal added the event by itself (from a chat, or a feed's change), so the person may not
    /// know it is there.
    public var addedByJadwal: Bool { self == .chat || self == .feed || self == .invitation }
}
