import Conversations
import Foundation
import JadwalCore
import Logging
import Metrics

/// The extractor chat imports and connector batches are read with: the rules, or the LLM in
/// front of them when one is configured. Every LLM reading is counted in
/// `jadwal_chat_extractions_total{answered_by, reason}` and every fallback is logged with its reason.
public enum ChatExtractors {
    public static func make(_ llm: LLMConfiguration?, logger: Logger) -> any ConversationExtractor {
        guard let llm else { return RuleExtractor() }
        let transport = HTTPChatCompletionTransport(llm)
        logger.notice("chats are read by the LLM at \(llm.endpoint) (model \(llm.model), timeout \(llm.timeout)); the rules answer when it cannot")
        return LLMExtractor(model: llm.model, transport: transport, observe: { extraction in
            record(extraction, logger: logger)
        })
    }

    package static func record(_ extraction: LLMExtraction, logger: Logger) {
        let milliseconds = Int(extraction.elapsed.components.seconds * 1_000 + extraction.elapsed.components.attoseconds / 1_000_000_000_000_000)
        switch extraction.answeredBy {
        case .model:
            Counter(label: "jadwal_chat_extractions_total", dimensions: [("answered_by", "model"), ("reason", "")]).increment()
            logger.debug("the LLM read a conversation", metadata: ["state": "\(extraction.outcome.state.rawValue)", "ms": "\(milliseconds)"])
        case .rules(let reason):
            Counter(label: "jadwal_chat_extractions_total", dimensions: [("answered_by", "rules"), ("reason", reason.code)]).increment()
            logger.notice("the rules read a conversation instead of the LLM: \(reason)", metadata: ["reason": "\(reason.code)", "ms": "\(milliseconds)"])
        }
    }
}
