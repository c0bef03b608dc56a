import Foundation

/// Reads a conversation with a language model behind any OpenAI-compatible `chat/completions`
/// endpoint, and falls back to another extractor (the rules) whenever the model's answer cannot
/// be used: no answer in time, a transport or HTTP error, a response that is not a chat
/// completion, or content that fails validation. It never throws and never returns an
/// unvalidated outcome; each answer says who gave it and, for a fallback, why.
public struct LLMExtractor: ConversationExtractor {
    /// A model answers in seconds: the chat inbox asks it outside its transaction.
    public var answersSlowly: Bool { true }

    /// What a prompt may carry. A longer conversation is read by the rules instead of being cut:
    /// dropping its start could drop the proposal the end agrees to.
    public struct Limits: Sendable, Hashable {
        public var maximumMessages: Int
        /// Characters of message text, all messages together.
        public var maximumCharacters: Int
        /// The model's answer; a JSON outcome with a few events needs about 150 tokens.
        public var maximumAnswerTokens: Int

        public init(maximumMessages: Int = 60, maximumCharacters: Int = 8_000, maximumAnswerTokens: Int = 400) {
            self.maximumMessages = maximumMessages
            self.maximumCharacters = maximumCharacters
            self.maximumAnswerTokens = maximumAnswerTokens
        }
    }

    /// The model name sent in every request.
    public let model: String
    let transport: any ChatCompletionTransport
    let fallback: any ConversationExtractor
    let limits: Limits
    let observe: @Sendable (LLMExtraction) -> Void

    /// - Parameters:
    ///   - observe: called with every extraction, e.g. to log fallbacks and count them.
    public init(
        model: String, transport: any ChatCompletionTransport, fallback: any ConversationExtractor = RuleExtractor(),
        limits: Limits = Limits(), observe: @escaping @Sendable (LLMExtraction) -> Void = { _ in }
    ) {
        self.model = model
        self.transport = transport
        self.fallback = fallback
        self.limits = limits
        self.observe = observe
    }

    /// The outcome, carrying the reason the model's answer was not used (`problem`) when that
    /// was a failure rather than nothing to ask.
    public func outcome(of messages: [ChatMessage], context: ExtractionContext) async -> ConversationOutcome {
        let extraction = await extraction(of: messages, context: context)
        observe(extraction)
        var outcome = extraction.outcome
        outcome.problem = extraction.fallbackReason?.problem
        return outcome
    }

    /// The outcome with who gave it and how long the model took.
    public func extraction(of messages: [ChatMessage], context: ExtractionContext) async -> LLMExtraction {
        let clock = ContinuousClock()
        let started = clock.now
        let answer = await modelOutcome(of: messages, context: context)
        let elapsed = clock.now - started
        switch answer {
        case .success(let outcome):
            return LLMExtraction(outcome: outcome, answeredBy: .model, elapsed: elapsed)
        case .failure(let reason):
            return LLMExtraction(outcome: await fallback.outcome(of: messages, context: context), answeredBy: .rules(reason), elapsed: elapsed)
        }
    }

    func modelOutcome(of messages: [ChatMessage], context: ExtractionContext) async -> Result<ConversationOutcome, LLMFallbackReason> {
        let readable = ExtractionPrompt.readable(messages)
        guard !readable.isEmpty else { return .failure(.nothingToRead) }
        let characters = readable.reduce(0) { $0 + $1.text.count }
        guard readable.count <= limits.maximumMessages, characters <= limits.maximumCharacters else {
            return .failure(.conversationTooLong(messages: readable.count, characters: characters))
        }
        let request = ChatCompletionRequest(
            model: model, prompt: ExtractionPrompt(messages: messages, context: context), maxTokens: limits.maximumAnswerTokens)
        let body: Data
        do {
            body = try request.encoded()
        } catch {
            return .failure(.transport(.failed("the request could not be encoded: \(error)")))
        }
        guard !Task.isCancelled else { return .failure(.cancelled) }
        let response: Data
        do {
            response = try await transport.complete(body)
        } catch {
            return .failure(Task.isCancelled ? .cancelled : .transport(error))
        }
        do {
            let content = try ChatCompletionResponse.content(of: response)
            return .success(try ModelAnswer.outcome(from: content, messages: messages, context: context))
        } catch {
            return .failure(error)
        }
    }
}

/// One conversation read by the LLM extractor: the outcome, and whether the model or the
/// fallback gave it.
public struct LLMExtraction: Sendable, Hashable {
    public enum AnsweredBy: Sendable, Hashable {
        /// The model's answer, validated.
        case model
        /// The fallback extractor's answer, and why the model's was not used.
        case rules(LLMFallbackReason)
    }

    public var outcome: ConversationOutcome
    public var answeredBy: AnsweredBy
    /// From building the request to the validated answer or the failure; the fallback's own
    /// (instant) reading is not included.
    public var elapsed: Duration

    public init(outcome: ConversationOutcome, answeredBy: AnsweredBy, elapsed: Duration) {
        self.outcome = outcome
        self.answeredBy = answeredBy
        self.elapsed = elapsed
    }

    public var fallbackReason: LLMFallbackReason? {
        if case .rules(let reason) = answeredBy { return reason }
        return nil
    }
}
