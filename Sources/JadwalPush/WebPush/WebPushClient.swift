import Crypto
import Foundation
import JadwalCore
import JadwalFetch
import Logging
import Metrics
import NIOCore

/// Sends Web Push messages (RFC 8030 §5): an encrypted POST to the browser's push service,
/// signed with this server's VAPID key. Every request goes through the SSRF-safe fetcher
/// (JadwalFetch), so an endpoint that resolves to a private address is refused on each send,
/// not only when it was registered.
public struct WebPushClient: Sendable {
    public let key: VAPIDKey
    /// The VAPID `sub` claim: how the push service's operator reaches this server's (`mailto:` or `https:`).
    public let subject: String
    let fetcher: FeedFetcher
    let clock: Clock
    let logger: Logger

    public init(configuration: WebPushConfiguration, clock: Clock = .system, logger: Logger) {
        key = VAPIDKey(signingKey: configuration.key)
        subject = configuration.subject
        // Push services answer in a few bytes and at once: a small cap and a short deadline.
        fetcher = FeedFetcher(
            policy: FetchPolicy(
                allowPrivate: configuration.allowPrivate, allowed: configuration.allowed, maxBytes: 64 * 1024, maxRedirects: 0,
                connectTimeout: .seconds(10), timeout: configuration.timeout, concurrentFetches: 8),
            additionalTrustRoots: configuration.additionalTrustRoots)
        self.clock = clock
        self.logger = logger
    }

    /// How the push service should treat one message (RFC 8030 §5.2–5.4).
    public struct Options: Sendable {
        /// Seconds the push service keeps it for a browser that is offline.
        public var ttl: Int
        /// `very-low`, `low`, `normal` or `high`.
        public var urgency: String
        /// A newer message with the same topic replaces one still waiting (at most 32 base64url characters).
        public var topic: String?

        public init(ttl: Int = 86_400, urgency: String = "normal", topic: String? = nil) {
            self.ttl = ttl
            self.urgency = urgency
            self.topic = topic
        }
    }

    /// Encrypts `payload` to the subscription and posts it; what the push service said.
    public func send(_ payload: Data, to subscription: WebPushSubscription, options: Options = Options()) async -> WebPushOutcome {
        let outcome = await post(payload, to: subscription, options: options)
        Counter(label: "jadwal_web_push_sends_total", dimensions: [("outcome", outcome.label)]).increment()
        return outcome
    }

    private func post(_ payload: Data, to subscription: WebPushSubscription, options: Options) async -> WebPushOutcome {
        guard let keys = subscription.keyBytes else { return .gone(reason: "the stored subscription's keys are not valid") }
        let body: Data
        let authorization: String
        do {
            body = try WebPushEncryption.encrypt(payload, browserKey: keys.publicKey, authSecret: keys.auth)
            authorization = try key.authorization(endpoint: subscription.endpoint, subject: subject, now: clock.now)
        } catch let problem as WebPushEncryption.Problem {
            return problem == .tooLong(bytes: payload.count) ? .rejected(reason: problem.description) : .gone(reason: problem.description)
        } catch {
            return .rejected(reason: "\(error)")
        }
        var headers = [
            ("Content-Type", "application/octet-stream"), ("Content-Encoding", "aes128gcm"), ("TTL", String(max(0, options.ttl))),
            ("Urgency", options.urgency), ("Authorization", authorization),
        ]
        if let topic = options.topic { headers.append(("Topic", topic)) }
        let answer: FetchAnswer
        do throws(FeedFetchFailure) {
            answer = try await fetcher.exchange(FetchRequest(method: "POST", url: subscription.endpoint, headers: headers, body: Array(body)))
        } catch {
            switch error.kind {
            case .refused: return .rejected(reason: error.message)
            default: return .retryLater(reason: error.message)
            }
        }
        return WebPushOutcome(status: answer.status, retryAfter: answer.header("retry-after"))
    }
}

/// What became of one push to one browser.
public enum WebPushOutcome: Sendable, Equatable {
    /// The push service took it (201 Created, or another 2xx).
    case delivered
    /// The subscription expired or was unsubscribed (404, 410): forget it.
    case gone(reason: String)
    /// Busy, failing or unreachable: send again later.
    case retryLater(reason: String)
    /// Refused for a reason sending again will not change (a bad VAPID signature, too large).
    case rejected(reason: String)

    init(status: Int, retryAfter: String?) {
        switch status {
        case 200...299: self = .delivered
        case 404, 410: self = .gone(reason: "the push service answered \(status): the subscription is no longer valid")
        case 429, 500...599: self = .retryLater(reason: "the push service answered \(status)" + (retryAfter.map { " (Retry-After: \($0))" } ?? ""))
        default: self = .rejected(reason: "the push service answered \(status)")
        }
    }

    package var label: String {
        switch self {
        case .delivered: "delivered"
        case .gone: "gone"
        case .retryLater: "retry_later"
        case .rejected: "rejected"
        }
    }
}
