import Conversations
import Foundation

/// Where a chat's messages came from.
public enum ChatSource: String, Sendable, Hashable, Codable, CaseIterable {
    /// WhatsApp's "Export chat" file, uploaded or imported with `jadwal import-chat`.
    case export
    /// The WhatsApp Business Cloud API webhook.
    case cloudAPI = "cloud-api"
    /// A bridge on the user's side posting to `/api/v1/chats/messages` with a connector token.
    case connector

    /// Messages arrive as they are typed, so a conversation is read only once it has been quiet
    /// for a while (`ChatInbox.quietPeriod`); an export is finished and is read at once.
    public var isLive: Bool { self != .export }
}

/// One chat Jadwal follows for an account: who it is with, where it stands, the plan read from
/// it and the events Jadwal put on the calendar because of it. Its messages live beside it
/// (`ChatMessageRecord`); their text is kept only while the conversation is open.
public struct ChatConversation: Sendable, Hashable {
    public var id: UUID
    public var accountID: UUID
    public var source: ChatSource
    /// The chat's identity within the source: the connector's or Cloud API's chat id, or for an
    /// export the other participants' names.
    public var chatKey: String
    /// Who the chat is with, as people read it (a contact name, a group's name, a number).
    public var partnerName: String
    public var isGroup: Bool
    public var state: ConversationState
    /// The plan behind the state: the agreed, proposed, refused or cancelled event; nil for no event.
    public var proposal: ChatPlan?
    /// Every event Jadwal created from this chat, with what still has to follow from it.
    public var events: [ChatEventLink]
    /// New messages wait to be read: extraction was paused (they are read when it resumes), or
    /// a live chat is not quiet yet (`readAfter`).
    public var awaitingExtraction: Bool
    /// A live chat's messages are read from then on, when no newer message came (each new one
    /// moves it); nil when nothing waits for quiet.
    public var readAfter: Date?
    /// How many messages were ever stored: the next message's position.
    public var messageCount: Int64
    /// When the newest message was sent.
    public var lastActivityAt: Date
    /// When the conversation last became agreed or denied; nil while it is open.
    public var resolvedAt: Date?
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: UUID, accountID: UUID, source: ChatSource, chatKey: String, partnerName: String, isGroup: Bool,
        state: ConversationState = .noEvent, proposal: ChatPlan? = nil, events: [ChatEventLink] = [], awaitingExtraction: Bool = false,
        messageCount: Int64 = 0, lastActivityAt: Date, resolvedAt: Date? = nil, createdAt: Date, updatedAt: Date, readAfter: Date? = nil
    ) {
        self.readAfter = readAfter
        self.id = id
        self.accountID = accountID
        self.source = source
        self.chatKey = chatKey
        self.partnerName = partnerName
        self.isGroup = isGroup
        self.state = state
        self.proposal = proposal
        self.events = events
        self.awaitingExtraction = awaitingExtraction
        self.messageCount = messageCount
        self.lastActivityAt = lastActivityAt
        self.resolvedAt = resolvedAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The path of the conversation in the JSON API (the link events carry back to it).
    public var apiPath: String { "/api/v1/chats/\(id.uuidString.lowercased())" }
}

/// A plan as Jadwal keeps and shows it: `ExtractedEvent` with the dates written the way the
/// extraction contract writes them (`2026-11-23T18:34`, or `2026-11-23` for all-day; for all-day
/// events `end` is the last day, inclusive).
public struct ChatPlan: Sendable, Hashable, Codable {
    public var title: String?
    public var start: String?
    public var end: String?
    public var allDay: Bool
    public var location: String?
    public var startRelativeTo: PrayerAnchor?

    public init(_ event: ExtractedEvent) {
        title = event.title
        start = event.start.map { Self.text($0, allDay: event.allDay) }
        end = event.end.map { Self.text($0, allDay: event.allDay) }
        allDay = event.allDay
        location = event.location
        startRelativeTo = event.startRelativeTo
    }

    /// The plan as the extractor's type again (dates that do not read back are dropped).
    public var event: ExtractedEvent {
        ExtractedEvent(
            title: title, start: start.flatMap(Self.local), end: end.flatMap(Self.local), allDay: allDay, location: location,
            startRelativeTo: startRelativeTo)
    }

    static func text(_ value: Conversations.LocalDateTime, allDay: Bool) -> String {
        let full = value.description  // YYYY-MM-DDTHH:MM:SS
        return allDay ? String(full.prefix(10)) : String(full.prefix(16))
    }

    static func local(_ text: String) -> Conversations.LocalDateTime? {
        let digits = text.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        guard digits.count == 3 || digits.count >= 5 else { return nil }
        return Conversations.LocalDateTime(
            year: digits[0], month: digits[1], day: digits[2], hour: digits.count >= 5 ? digits[3] : 0, minute: digits.count >= 5 ? digits[4] : 0)
    }
}

/// An event Jadwal wrote to the "WhatsApp Events" calendar because a chat agreed on it.
public struct ChatEventLink: Sendable, Hashable, Codable {
    public enum Status: String, Sendable, Hashable, Codable {
        /// On the calendar as agreed (possibly moved since).
        case active
        /// The chat cancelled it: it stays on the calendar with STATUS:CANCELLED.
        case cancelled
        /// Someone deleted it from the calendar; Jadwal does not bring it back.
        case removed
    }

    public var uid: String
    /// The resource name in the calendar (`<name>.ics`).
    public var objectName: String
    public var calendarID: UUID
    /// What the event says now.
    public var plan: ChatPlan
    public var status: Status
    public var createdAt: Date
    public var updatedAt: Date
    /// The messages of the reading that agreed (or moved) the event without which it would not
    /// have been agreed: when one of them is taken back (deleted for everyone), so is the event.
    /// Kept for live chats only, whose messages can be taken back; nil for older links.
    public var dependsOn: [Dependency]?

    /// A message the event's agreement rested on, and what the reading said without it.
    public struct Dependency: Sendable, Hashable, Codable {
        public var messageID: String
        /// The time the event had before this reading moved it, when the reading agreed that
        /// time without the message: the event goes back there instead of being cancelled.
        public var without: ChatPlan?
        /// The conversation's state and plan as read without the message.
        public var state: ConversationState
        public var proposal: ChatPlan?

        public init(messageID: String, without: ChatPlan?, state: ConversationState, proposal: ChatPlan?) {
            self.messageID = messageID
            self.without = without
            self.state = state
            self.proposal = proposal
        }
    }

    public init(
        uid: String, objectName: String, calendarID: UUID, plan: ChatPlan, status: Status = .active,
        createdAt: Date, updatedAt: Date
    ) {
        self.uid = uid
        self.objectName = objectName
        self.calendarID = calendarID
        self.plan = plan
        self.status = status
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// What Jadwal did to an event from a chat (the person is told each time).
public enum ChatEventChange: String, Sendable, Hashable, Codable {
    case created, moved, cancelled
}
