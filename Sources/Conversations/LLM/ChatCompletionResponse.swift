import Foundation

/// The parts of a `chat/completions` response the extractor reads: the first choice's message
/// content and why generation stopped.
struct ChatCompletionResponse: Decodable {
    struct Choice: Decodable {
        struct Message: Decodable {
            var content: String?
            var refusal: String?
        }
        var message: Message?
        var finishReason: String?

        enum CodingKeys: String, CodingKey {
            case message
            case finishReason = "finish_reason"
        }
    }

    struct Problem: Decodable {
        var message: String?
    }

    var choices: [Choice]?
    /// Some servers answer 200 with an error object instead of choices.
    var error: Problem?

    /// The model's text, or why there is none.
    static func content(of body: Data) throws(LLMFallbackReason) -> String {
        let response: ChatCompletionResponse
        do {
            response = try JSONDecoder().decode(ChatCompletionResponse.self, from: body)
        } catch {
            throw .notAChatCompletion("the body is not a JSON chat completion (\(Self.start(of: body)))")
        }
        if let problem = response.error {
            throw .notAChatCompletion("the server reported an error: \(problem.message ?? "no message")")
        }
        guard let choice = response.choices?.first, let message = choice.message else {
            throw .notAChatCompletion("it has no choice with a message")
        }
        if choice.finishReason == "length" { throw .truncated }
        if let refusal = message.refusal, !refusal.isEmpty {
            throw .notAChatCompletion("the model refused: \(refusal)")
        }
        guard let content = message.content, !content.allSatisfy(\.isWhitespace) else {
            throw .notAChatCompletion("the message has no content")
        }
        return content
    }

    /// The first characters of a body, for a message a person can look into.
    static func start(of body: Data) -> String {
        let text = String(decoding: body.prefix(120), as: UTF8.self)
        return text.isEmpty ? "empty" : "starts with \(text.debugDescription)"
    }
}
