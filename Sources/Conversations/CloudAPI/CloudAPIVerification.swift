import Crypto
import Foundation

/// The GET handshake Meta makes when a webhook URL is subscribed:
/// `?hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=…`. The answer is 200 with the
/// raw challenge as a plain-text body when the token is the one configured, 403 otherwise.
public enum CloudAPIVerification: Sendable, Hashable {
    /// Why a handshake is refused (answer 403); for the log, never for the response body.
    public enum Refusal: Sendable, Hashable, CustomStringConvertible {
        /// Jadwal has no verify token configured, so no request can prove anything.
        case noVerifyTokenConfigured
        /// `hub.mode` is absent (nil) or not `subscribe`.
        case modeNotSubscribe(String?)
        /// There is no `hub.verify_token`.
        case verifyTokenMissing
        /// `hub.verify_token` is not the configured verify token.
        case verifyTokenMismatch
        /// There is no `hub.challenge` to echo (or it is empty).
        case challengeMissing

        public var description: String {
            switch self {
            case .noVerifyTokenConfigured:
                return "no WhatsApp webhook verify token is configured; set one and enter the same value "
                    + "as the Verify Token in the Meta App Dashboard"
            case .modeNotSubscribe(let mode):
                return "hub.mode is \(mode.map { "\"\($0)\"" } ?? "missing"), not \"subscribe\""
            case .verifyTokenMissing:
                return "the request has no hub.verify_token"
            case .verifyTokenMismatch:
                return "hub.verify_token is not the configured verify token; enter the same value "
                    + "as the Verify Token in the Meta App Dashboard"
            case .challengeMissing:
                return "the request has no hub.challenge to answer with"
            }
        }
    }

    /// Answer 200 with `challenge` as the whole body (text/plain).
    case accept(challenge: String)
    /// Answer 403.
    case refuse(Refusal)

    /// Judges a handshake from its query items. Both `hub.mode` and `hub_mode` are read (some
    /// frameworks turn the dots into underscores); for a parameter given twice, the first counts.
    ///
    /// - Parameters:
    ///   - queryItems: the request's query, percent-decoded.
    ///   - verifyToken: the verify token configured in Jadwal (the one typed into the App Dashboard).
    public init(queryItems: [URLQueryItem], verifyToken: String) {
        func parameter(_ name: String) -> String? {
            let underscored = name.replacingOccurrences(of: ".", with: "_")
            return queryItems.first(where: { $0.name == name || $0.name == underscored })?.value
        }
        guard !verifyToken.isEmpty else {
            self = .refuse(.noVerifyTokenConfigured)
            return
        }
        let mode = parameter("hub.mode")
        guard mode == "subscribe" else {
            self = .refuse(.modeNotSubscribe(mode))
            return
        }
        guard let token = parameter("hub.verify_token") else {
            self = .refuse(.verifyTokenMissing)
            return
        }
        guard Self.sameToken(token, verifyToken) else {
            self = .refuse(.verifyTokenMismatch)
            return
        }
        guard let challenge = parameter("hub.challenge"), !challenge.isEmpty else {
            self = .refuse(.challengeMissing)
            return
        }
        self = .accept(challenge: challenge)
    }

    /// Exact equality in time independent of where the tokens differ: the SHA-256 digests are
    /// compared with swift-crypto's constant-time `==`, which also hides the configured token's length.
    static func sameToken(_ given: String, _ configured: String) -> Bool {
        SHA256.hash(data: Data(given.utf8)) == SHA256.hash(data: Data(configured.utf8))
    }
}
