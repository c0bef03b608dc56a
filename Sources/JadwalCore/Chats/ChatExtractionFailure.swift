import Conversations
import Foundation

/// A conversation Jadwal could not read as well as it should have: the model's answer was
/// unusable and the rules answered instead, reading the conversation failed, or an agreed plan
/// could not be put on the calendar. Kept for the operator (`jadwal chats failures`) with the
/// conversation, the reason and the time — never a word of the messages — and forgotten after
/// the account's retention period, like the messages themselves.
public struct ChatExtractionFailure: Sendable, Hashable {
    public var id: UUID
    public var accountID: UUID
    public var conversationID: UUID
    public var source: ChatSource
    /// A short stable code: `llm_timed_out`, `llm_invalid_answer`, `read_failed`, `unplaceable_plan`, …
    public var reason: String
    /// What happened, in a sentence that quotes no message.
    public var summary: String
    public var occurredAt: Date

    public init(id: UUID, accountID: UUID, conversationID: UUID, source: ChatSource, reason: String, summary: String, occurredAt: Date) {
        self.id = id
        self.accountID = accountID
        self.conversationID = conversationID
        self.source = source
        self.reason = reason
        self.summary = summary
        self.occurredAt = occurredAt
    }

    /// The longest summary kept: a reason names its cause, it does not carry data.
    static let summaryLimit = 300

    init(_ problem: ExtractionProblem, conversation: ChatConversation, id: UUID, at: Date) {
        self.init(
            id: id, accountID: conversation.accountID, conversationID: conversation.id, source: conversation.source, reason: problem.code,
            summary: String(problem.summary.prefix(Self.summaryLimit)), occurredAt: at)
    }
}

public protocol ChatFailureStore: Sendable {
    func insertChatExtractionFailure(_ failure: ChatExtractionFailure) async throws
    /// Failures that occurred at or after `since` (all when nil), newest first, at most `limit`.
    func chatExtractionFailures(since: Date?, limit: Int) async throws -> [ChatExtractionFailure]
    /// Forgets failures older than their account's retention period; how many went.
    @discardableResult
    func forgetExpiredChatExtractionFailures(now: Date) async throws -> Int
}

/// The operator's list of failed readings (`jadwal chats failures`).
public struct ChatFailureLog: Sendable {
    let store: StoreAccess<any ChatFailureStore>

    public init(store: any Store) {
        self.store = StoreAccess(store) { $0 }
    }

    public static let listLimit = 1...10_000

    /// Failures at or after `since` (all when nil), newest first.
    public func recent(since: Date?, limit: Int) async throws -> [ChatExtractionFailure] {
        let bounded = min(max(limit, Self.listLimit.lowerBound), Self.listLimit.upperBound)
        return try await store.read { tx in try await tx.chatExtractionFailures(since: since, limit: bounded) }
    }
}
