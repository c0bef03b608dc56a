/// Why a reading is not the one it should have been, for the operator's failure list: the
/// outcome still stands (the rules answered), but something went wrong on the way. Its words
/// never quote a message, so it can be kept after the messages are gone.
public struct ExtractionProblem: Sendable, Hashable, CustomStringConvertible {
    /// A short stable code (`llm_timed_out`, `read_failed`, …).
    public var code: String
    /// One sentence naming the cause.
    public var summary: String

    public init(code: String, summary: String) {
        self.code = code
        self.summary = summary
    }

    public var description: String { "\(code): \(summary)" }
}
