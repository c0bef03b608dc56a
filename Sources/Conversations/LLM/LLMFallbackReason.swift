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
}
