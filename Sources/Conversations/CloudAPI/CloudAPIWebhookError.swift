/// Why a WhatsApp Cloud API webhook body could not be read: what is wrong, and where, as a JSON
/// path like `entry[0].changes[0].value.messages[1].timestamp`.
public struct CloudAPIWebhookError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Reason: Sendable, Hashable {
        /// The body is not JSON at all.
        case notJSON
        /// The top level is JSON but not an object.
        case notAnObject
        /// `object` is not `whatsapp_business_account` (nil: there is no `object`).
        case notWhatsAppBusinessAccount(object: String?)
        /// A field the message needs is absent or null.
        case missing
        /// A field that must name something is an empty string.
        case empty
        /// A field has the wrong JSON type; `expected` is "a string", "an array", "an object", ...
        case wrongType(expected: String)
        /// `timestamp` is not a string of Unix seconds; `value` is what was sent.
        case notUnixSeconds(value: String)
    }

    /// Where the problem is (`entry[0].changes[0].value.messages[1].from`); nil for the body as a whole.
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
            return "the body is not JSON; a WhatsApp Cloud API webhook delivers a JSON object"
        case .notAnObject:
            return "the body is JSON but not an object; a WhatsApp Cloud API webhook delivers "
                + "{\"object\": \"whatsapp_business_account\", \"entry\": [...]}"
        case .notWhatsAppBusinessAccount(let object):
            let found = object.map { "\"\($0)\"" } ?? "missing"
            return "\"object\" is \(found), not \"whatsapp_business_account\"; "
                + "this endpoint takes the WhatsApp Business Account webhook only"
        case .missing:
            return "\(subject) is missing"
        case .empty:
            return "\(subject) is empty"
        case .wrongType(let expected):
            return "\(subject) is not \(expected)"
        case .notUnixSeconds(let value):
            let shown = value.count > 40 ? String(value.prefix(40)) + "…" : value
            return "\(subject) is not Unix seconds (\"\(shown)\"); Meta sends a string of digits such as \"1795266000\""
        }
    }
}
