import Conversations
import Foundation
import Synchronization

/// Keeps a slow extractor (a model over HTTP, seconds per answer) out of the database's write
/// transaction, where it would hold every other writer — phones syncing included — for as long
/// as the model thinks.
///
/// A batch is first rehearsed in a transaction that is rolled back, with `questions` as its
/// extractor: it notes what it is asked and answers "no event". The questions are then put to
/// the real extractor with no transaction open. Most questions a batch asks depend only on its
/// messages and the conversations' standing events; some depend on an answer (an agreement is
/// read again without each of its last messages, to note what it rests on), so the batch is
/// rehearsed again with the answers known until a rehearsal asks nothing new (at most three
/// times). The batch then runs for real with `answers`. A question the rehearsal did not see — another delivery changed the
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

    /// Questions the last rehearsal asked that have no answer yet.
    private let asked = Mutex<[(Question, ExtractionContext)]>([])
    /// The real extractor's answers so far.
    private let known = Mutex<[Question: ConversationOutcome]>([:])

    /// The extractor of a rehearsal: known answers as they are, "no event" for the rest (noted).
    var questions: some ConversationExtractor { Noting(rehearsal: self) }

    /// The last rehearsal asked something not answered yet.
    var hasUnanswered: Bool { asked.withLock { !$0.isEmpty } }

    /// Puts the questions the last rehearsal noted to the real extractor, one at a time (a
    /// local model serves one request at a time anyway); once the task is cancelled, no more
    /// are asked.
    func answerNoted(from extractor: any ConversationExtractor) async {
        for (question, context) in asked.withLock({ questions in defer { questions = [] }; return questions }) {
            if known.withLock({ $0[question] != nil }) { continue }
            if Task.isCancelled { break }
            let answer = await extractor.outcome(of: question.messages, context: context)
            known.withLock { $0[question] = answer }
        }
    }

    /// The real extractor's answers to every question rehearsed, and the extractor itself for
    /// any other (another delivery changed the conversation in between).
    func answers(from extractor: any ConversationExtractor) -> some ConversationExtractor {
        Answering(known: known.withLock { $0 }, fallback: extractor)
    }

    private struct Noting: ConversationExtractor {
        let rehearsal: ExtractionRehearsal

        func outcome(of messages: [ChatMessage], context: ExtractionContext) async -> ConversationOutcome {
            let question = Question(messages, context)
            if let answer = rehearsal.known.withLock({ $0[question] }) { return answer }
            rehearsal.asked.withLock { $0.append((question, context)) }
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
