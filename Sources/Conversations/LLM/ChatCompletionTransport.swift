import Foundation

/// Sends one OpenAI-compatible `chat/completions` request body and returns the response body.
/// The only part of the LLM extractor that talks to the outside; the server's implementation is
/// an HTTP client with the configured endpoint, key and timeout.
public protocol ChatCompletionTransport: Sendable {
    /// `request` is the JSON body to POST; the answer is the body of a 2xx response.
    func complete(_ request: Data) async throws(ChatCompletionTransportError) -> Data
}

/// Why a request got no usable response body. The extractor falls back to the rules on each.
public enum ChatCompletionTransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No complete answer within the configured time.
    case timedOut(after: Duration)
    /// No connection could be made (refused, unknown host, TLS failure).
    case unreachable(String)
    /// The server answered with a status outside 2xx; `body` is the start of its answer.
    case httpStatus(Int, body: String)
    /// Anything else that went wrong on the way (connection dropped, answer too large).
    case failed(String)

    public var description: String {
        switch self {
        case .timedOut(let after): "no answer within \(after.secondsText)"
        case .unreachable(let detail): "the endpoint cannot be reached: \(detail)"
        case .httpStatus(let status, let body): "the endpoint answered HTTP \(status)\(body.isEmpty ? "" : ": \(body)")"
        case .failed(let detail): "the request failed: \(detail)"
        }
    }
}

extension Duration {
    /// "2 s", "0.25 s": for messages people read.
    var secondsText: String {
        let milliseconds = components.seconds * 1_000 + components.attoseconds / 1_000_000_000_000_000
        if milliseconds % 1_000 == 0 { return "\(milliseconds / 1_000) s" }
        var text = String(Double(milliseconds) / 1_000)
        while text.hasSuffix("0") { text.removeLast() }
        return text + " s"
    }
}
