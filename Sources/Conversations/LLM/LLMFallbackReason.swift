/// Why the LLM extractor answered with the rules instead of the model. Every path that does not
/// end in a validated model answer has one, so logs, metrics and tests can tell them apart.
public enum LLMFallbackReason: Error, Sendable, Hashable, CustomStringConvertible {
    /// The model got no request: no message has words to read.
    case nothingToRead
    /// The model got no request: the conversation is longer than the prompt may carry.
    case conversationTooLong(messages: Int, characters: Int)
    /// The request did not come back (time-out, connection, HTTP status).
    case transport(ChatCompletionTransportError)
    /// The response is not a chat/completions answer with a message.
    case notAChatCompletion(String)
    /// The model stopped at the token limit: its JSON is cut off.
    case truncated
    /// The message content is not the JSON object the schema asks for.
    case notTheSchema(String)
    /// The JSON has the right shape but says something impossible (a date that does not exist,
    /// an end before the start, an agreed event without a time...).
    case invalidAnswer(String)
    /// The task reading the conversation was cancelled while waiting for the model.
    case cancelled

    /// A short stable name for metrics and log fields.
    public var code: String {
        switch self {
        case .nothingToRead: "nothing_to_read"
        case .conversationTooLong: "conversation_too_long"
        case .transport(.timedOut): "timed_out"
        case .transport(.unreachable): "unreachable"
        case .transport(.httpStatus): "http_status"
        case .transport(.failed): "transport_failed"
        case .notAChatCompletion: "not_a_chat_completion"
        case .truncated: "truncated"
        case .notTheSchema: "not_the_schema"
        case .invalidAnswer: "invalid_answer"
        case .cancelled: "cancelled"
        }
    }

    public var description: String {
        switch self {
        case .nothingToRead: "no message has words to read"
        case .conversationTooLong(let messages, let characters):
            "the conversation (\(messages) messages, \(characters) characters) is longer than the prompt may carry"
        case .transport(let error): "\(error)"
        case .notAChatCompletion(let detail): "the response is not a chat completion: \(detail)"
        case .truncated: "the model's answer was cut off at the token limit"
        case .notTheSchema(let detail): "the model's answer is not the requested JSON: \(detail)"
        case .invalidAnswer(let detail): "the model's answer is not valid: \(detail)"
        case .cancelled: "the extraction was cancelled"
        }
    }

    /// The failure an operator should see, or nil when nothing went wrong (no words to read, the
    /// server stopping). Its words name the cause only: the details of a model's answer may
    /// quote the conversation, so they are left out.
    public var problem: ExtractionProblem? {
        let summary: String
        switch self {
        case .nothingToRead, .cancelled: return nil
        case .conversationTooLong(let messages, let characters):
            summary = "the conversation (\(messages) messages, \(characters) characters) was too long for the model; the rules read it"
        case .transport(.timedOut): summary = "the model did not answer in time; the rules read the conversation"
        case .transport(.unreachable): summary = "the model's server could not be reached; the rules read the conversation"
        case .transport(.httpStatus(let status, _)): summary = "the model's server answered HTTP \(status); the rules read the conversation"
        case .transport(.failed): summary = "the request to the model failed; the rules read the conversation"
        case .notAChatCompletion: summary = "the model's server did not answer with a chat completion; the rules read the conversation"
        case .truncated: summary = "the model's answer was cut off at the token limit; the rules read the conversation"
        case .notTheSchema: summary = "the model's answer was not the requested JSON; the rules read the conversation"
        case .invalidAnswer: summary = "the model's answer failed validation; the rules read the conversation"
        }
        return ExtractionProblem(code: "llm_" + code, summary: summary)
    }
}
