/// One thing wrong with a connector batch, at a JSON path like `messages[3].messageId`.
public struct ConnectorBatchProblem: Sendable, Hashable, CustomStringConvertible {
    public enum Reason: Sendable, Hashable {
        /// The body is not JSON.
        case notJSON
        /// The body is JSON but not an object.
        case notAnObject
        /// The field is absent or null.
        case missing
        /// The field is an empty string, or only spaces.
        case empty
        /// The field has the wrong JSON type; `expected` is "a string", "true or false", ...
        case wrongType(expected: String)
        /// The batch has `count` messages, more than `limit`.
        case tooManyMessages(count: Int, limit: Int)
        /// An id or sender has `length` characters, more than `limit`.
        case tooLong(length: Int, limit: Int)
        /// A text has `bytes` UTF-8 bytes, more than `limit`.
        case textTooLarge(bytes: Int, limit: Int)
        /// The timestamp is neither a number of Unix seconds nor an ISO-8601 string with an offset.
        case notATimestamp
        /// A number of Unix seconds that only makes sense as milliseconds.
        case timestampInMilliseconds
        /// A readable timestamp outside 2000–2099: a bug on the connector's side.
        case timestampOutOfRange
    }

    /// Where: `messages[3].messageId`; nil for the body as a whole.
    public let path: String?
    public let reason: Reason

    public init(path: String?, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    public var description: String {
        let subject = path ?? "the body"
        switch reason {
        case .notJSON:
            return "the body is not JSON; expected {\"messages\": [...]}"
        case .notAnObject:
            return "the body is not a JSON object; expected {\"messages\": [...]}"
        case .missing:
            return "\(subject) is missing"
        case .empty:
            return "\(subject) is empty"
        case .wrongType(let expected):
            return "\(subject) is not \(expected)"
        case .tooManyMessages(let count, let limit):
            return "the batch has \(count) messages; at most \(limit) are taken at once, send them in smaller batches"
        case .tooLong(let length, let limit):
            return "\(subject) is \(length) characters long; at most \(limit) are allowed"
        case .textTooLarge(let bytes, let limit):
            return "\(subject) is \(bytes) bytes of UTF-8; at most \(limit) are allowed"
        case .notATimestamp:
            return "\(subject) is not Unix seconds or ISO-8601; send seconds as a JSON number (1795266000) "
                + "or a string with an offset (\"2026-11-21T14:05:00+03:00\")"
        case .timestampInMilliseconds:
            return "\(subject) looks like milliseconds; send Unix seconds (divide by 1000)"
        case .timestampOutOfRange:
            return "\(subject) is not between the years 2000 and 2099"
        }
    }
}
