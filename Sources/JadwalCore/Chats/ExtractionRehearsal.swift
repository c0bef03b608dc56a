import Conversations
import Foundation
import Synchronization

/// Keeps a slow extractor (a model over HTTP, seconds per answer) out of the database's write
/// transaction, where it would hold every other writer — phones syncing included — for as long
/// as the model thinks.
///
/// A batch is first rehearsed in a transaction that is rolled back, with `questions` as its
/// extractor: it notes what it is asked and answers "no event" (the questions a batch asks
/// depend on its messages and the conversations' standing events, never on earlier answers).
/// The questions are then put to the real extractor with no transaction open, and the batch runs
/// for real with `answers`. A question the rehearsal did not see — another delivery changed the
/// conversation in between — is put to the real extractor there and then.
final class ExtractionRehearsal: Sendable {
    /// What a question is known by. The prayer times in the context are left out: they are
    /// read from the same settings in both runs, a moment apart.
    struct Question: Hashable, Sendable {
        var messages: [ChatMessage]
        var zone: String
        var now: Date

        init(_ messages: [ChatMessage], _ context: ExtractionContext) {
            self.messages = messages
            zone = context.timeZone.identifier
            now = context.now
        }
    }

    private let asked = Mutex<[(Question, ExtractionContext)]>([])

    /// The extractor of the rehearsal.
    var questions: some ConversationExtractor { Noting(rehearsal: self) }

    /// The real extractor's answers to every question the rehearsal asked, one at a time (a
    /// local model serves one request at a time anyway); once the task is cancelled, no more
    /// are asked.
    func answers(from extractor: any ConversationExtractor) async -> some ConversationExtractor {
        var known: [Question: ConversationOutcome] = [:]
        for (question, context) in asked.withLock({ $0 }) where known[question] == nil {
            if Task.isCancelled { break }
            known[question] = await extractor.outcome(of: question.messages, context: context)
        }
        return Answering(known: known, fallback: extractor)
    }

    private struct Noting: ConversationExtractor {
        let rehearsal: ExtractionRehearsal

        func outcome(of messages: [ChatMessage], context: ExtractionContext) async -> ConversationOutcome {
            rehearsal.asked.withLock { $0.append((Question(messages, context), context)) }
            return ConversationOutcome(state: .noEvent)
        }
    }

    private struct Answering: ConversationExtractor {
        let known: [Question: ConversationOutcome]
        let fallback: any ConversationExtractor

        func outcome(of messages: [ChatMessage], context: ExtractionContext) async -> ConversationOutcome {
            if let answer = known[Question(messages, context)] { return answer }
            return await fallback.outcome(of: messages, context: context)
        }
    }
}
