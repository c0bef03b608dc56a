/// Why a WhatsApp Cloud API webhook delivery was not accepted as signed by Meta. Each case says
/// what to check, because the person reading the log is usually setting the webhook up.
public enum CloudAPISignatureError: Error, Sendable, Hashable, CustomStringConvertible {
    /// How a present `X-Hub-Signature-256` header fails to be `sha256=` and 64 hex digits.
    public enum Malformation: Sendable, Hashable {
        /// The value does not start with `sha256=` (Meta's older `X-Hub-Signature` is `sha1=`).
        case missingPrefix
        /// After `sha256=` there are `count` characters instead of 64.
        case wrongLength(count: Int)
        /// The character at `offset` (0-based, after `sha256=`) is not a hex digit.
        case notHex(offset: Int)
    }

    /// The request has no `X-Hub-Signature-256` header (or it is empty).
    case missingHeader
    /// The header is there but is not `sha256=<64 hex digits>`.
    case malformedHeader(Malformation)
    /// A well-formed signature that the body does not match under the configured app secret.
    case mismatch

    public var description: String {
        switch self {
        case .missingHeader:
            return "the request has no X-Hub-Signature-256 header; Meta signs every webhook delivery, "
                + "so this request did not come from Meta, or a proxy in front of Jadwal dropped the header"
        case .malformedHeader(.missingPrefix):
            return "the X-Hub-Signature-256 header does not start with \"sha256=\"; "
                + "expected sha256= followed by 64 lowercase hex digits"
        case .malformedHeader(.wrongLength(let count)):
            return "the X-Hub-Signature-256 header has \(count) characters after \"sha256=\"; "
                + "an HMAC-SHA256 signature is 64 hex digits"
        case .malformedHeader(.notHex(let offset)):
            return "the X-Hub-Signature-256 header has a character that is not a hex digit "
                + "(position \(offset) after \"sha256=\"); expected 64 hex digits"
        case .mismatch:
            return "the X-Hub-Signature-256 signature does not match the request body; check that the app secret "
                + "configured in Jadwal is the App Secret of the Meta app (App Dashboard > App settings > Basic), "
                + "not the verify token or an access token, and that nothing between Meta and Jadwal changes the body"
        }
    }
}
