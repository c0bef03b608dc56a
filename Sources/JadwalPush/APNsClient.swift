import AsyncHTTPClient
import Foundation
import JadwalCore
import Logging
import Metrics
import NIOCore
import NIOFoundationCompat
import NIOPosix
import NIOSSL
import ServiceLifecycle

/// Sends notifications to Apple devices through APNs with token authentication, over one
/// long-lived HTTP/2 connection (AsyncHTTPClient negotiates `h2` by ALPN, the only protocol APNs
/// speaks, and multiplexes concurrent sends on it).
///
/// As a `Service` it closes its connections when the server shuts down; outside a service group
/// call `shutdown()`.
public struct APNsClient: Service, Sendable {
    public let endpoint: String
    public let topic: String
    package let timeout: Duration
    package let httpClient: HTTPClient
    package let tokens: APNsProviderTokens
    package let logger: Logger
    /// APNs' error bodies are a few dozen bytes.
    package static let maximumAnswerBytes = 16 * 1024

    public init(
        configuration: APNsConfiguration, clock: Clock = .system,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, logger: Logger
    ) {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.minimumTLSVersion = .tlsv12
        if !configuration.additionalTrustRoots.isEmpty {
            tls.additionalTrustRoots = [.certificates(configuration.additionalTrustRoots)]
        }
        var http = HTTPClient.Configuration()
        http.tlsConfiguration = tls
        http.httpVersion = .automatic
        // The bearer token must never follow a redirect somewhere else.
        http.redirectConfiguration = .disallow
        http.timeout.connect = .seconds(10)
        // A connection that cannot be made (refused, untrusted certificate) fails the send at once
        // with its cause; the caller's job retries with backoff instead of this request spinning.
        http.connectionPool.retryConnectionEstablishment = false
        // APNs asks providers to keep their connection open rather than reconnect for each push.
        http.connectionPool.idleTimeout = .minutes(10)
        httpClient = HTTPClient(eventLoopGroup: eventLoopGroup, configuration: http)
        tokens = APNsProviderTokens(keyID: configuration.keyID, teamID: configuration.teamID, signingKey: configuration.signingKey, clock: clock)
        endpoint = configuration.endpoint
        topic = configuration.topic
        timeout = configuration.timeout
        var logger = logger
        logger[metadataKey: "apns.endpoint"] = "\(configuration.endpoint)"
        self.logger = logger
    }

    /// Sends `notification` to the device with `deviceToken` (hex, as the app registered it).
    ///
    /// Throws only when the notification itself cannot be sent (too large, a collapse ID over 64
    /// bytes), before anything reaches APNs; everything APNs or the network says is an outcome.
    /// A provider token APNs refuses as expired or invalid is replaced and the send tried once more.
    public func send(_ notification: PushNotification, to deviceToken: String) async throws(PushNotificationError) -> PushOutcome {
        if let collapseID = notification.collapseID, collapseID.utf8.count > 64 {
            throw .collapseIDTooLong(bytes: collapseID.utf8.count)
        }
        let payload = try APNsPayload.encode(notification)
        var logger = self.logger
        logger[metadataKey: "apns.id"] = "\(notification.id.uuidString.lowercased())"
        guard let token = APNsDeviceToken.normalized(deviceToken) else {
            // APNs would answer 400 BadDeviceToken; no need to ask.
            return finish(.deviceGone(reason: "BadDeviceToken", since: nil), logger: logger)
        }
        logger[metadataKey: "apns.device"] = "…\(token.suffix(8))"

        let outcome: PushOutcome
        do {
            var providerToken = try await tokens.token()
            var exchange = await post(payload, of: notification, to: token, providerToken: providerToken)
            if case .answered(let answer) = exchange, answer.isProviderTokenRefusal {
                logger.notice("APNs refused the provider token; signing a new one and sending once more",
                              metadata: ["apns.reason": "\(answer.reason ?? "")"])
                providerToken = try await tokens.replace(providerToken)
                exchange = await post(payload, of: notification, to: token, providerToken: providerToken)
                if case .answered(let again) = exchange, again.isProviderTokenRefusal {
                    logger.error("APNs refuses this server's provider tokens: check JADWAL_APNS_KEY_ID, JADWAL_APNS_TEAM_ID and the key file")
                }
            }
            switch exchange {
            case .answered(let answer): outcome = answer.outcome(sentID: notification.id)
            case .failed(let reason): outcome = .retryLater(reason: reason)
            }
        } catch {
            // Signing with a key that parsed cannot fail in practice; if it does, it always will.
            outcome = .rejected(reason: "cannot sign the provider token: \(error)")
        }
        return finish(outcome, logger: logger)
    }

    /// Closes the connections. Sends after this fail as `.retryLater`.
    public func shutdown() async throws {
        do {
            try await httpClient.shutdown()
        } catch let error as HTTPClientError where error == .alreadyShutdown {}
    }

    public func run() async throws {
        try? await gracefulShutdown()
        try await shutdown()
    }

    private func finish(_ outcome: PushOutcome, logger: Logger) -> PushOutcome {
        Counter(label: "jadwal_push_sends_total", dimensions: [("outcome", outcome.label)]).increment()
        switch outcome {
        case .delivered:
            logger.debug("push delivered to APNs")
        case .deviceGone(let reason, _):
            logger.info("APNs says the device token is gone", metadata: ["apns.reason": "\(reason)"])
        case .retryLater(let reason):
            logger.warning("push not delivered, to be retried", metadata: ["apns.reason": "\(reason)"])
        case .rejected(let reason):
            logger.error("APNs refused the push", metadata: ["apns.reason": "\(reason)"])
        }
        return outcome
    }

    package enum Exchange: Sendable {
        case answered(APNsAnswer)
        /// No answer: the connection, TLS or the deadline failed.
        case failed(String)
    }

    private func post(_ payload: Data, of notification: PushNotification, to deviceToken: String, providerToken: APNsProviderToken) async -> Exchange {
        var request = HTTPClientRequest(url: "\(endpoint)/3/device/\(deviceToken)")
        request.method = .POST
        request.headers.add(name: "authorization", value: "bearer \(providerToken.value)")
        request.headers.add(name: "apns-id", value: notification.id.uuidString.lowercased())
        request.headers.add(name: "apns-topic", value: topic)
        request.headers.add(name: "apns-push-type", value: notification.pushType)
        request.headers.add(name: "apns-priority", value: "\(notification.priority)")
        let expiration = notification.expiration.map { max(0, Int64($0.timeIntervalSince1970.rounded(.down))) } ?? 0
        request.headers.add(name: "apns-expiration", value: "\(expiration)")
        if let collapseID = notification.collapseID { request.headers.add(name: "apns-collapse-id", value: collapseID) }
        request.body = .bytes(ByteBuffer(data: payload))

        let prepared = request
        let client = httpClient
        let timeout = self.timeout
        let logger = self.logger
        do {
            // AsyncHTTPClient's deadline ends with the response head; the race covers the body too.
            return try await withThrowingTaskGroup(of: Exchange.self) { group in
                group.addTask {
                    let response = try await client.execute(prepared, timeout: TimeAmount(timeout))
                    let body = try await response.body.collect(upTo: Self.maximumAnswerBytes)
                    if response.version != .http2 {
                        // APNs speaks only HTTP/2: whatever answered is not APNs (a proxy?).
                        logger.warning("the APNs endpoint answered over \(response.version), not HTTP/2")
                    }
                    return .answered(APNsAnswer(
                        status: Int(response.status.code), apnsIDHeader: response.headers.first(name: "apns-id"), body: Data(buffer: body)))
                }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return .failed("no answer from APNs within \(timeout)")
                }
                defer { group.cancelAll() }
                return try await group.next() ?? .failed("no answer from APNs")
            }
        } catch {
            return .failed(Self.describe(error, endpoint: endpoint))
        }
    }

    package static func describe(_ error: any Error, endpoint: String) -> String {
        switch error {
        case let error as HTTPClientError:
            switch error {
            case .deadlineExceeded, .readTimeout, .writeTimeout, .connectTimeout, .getConnectionFromPoolTimeout:
                return "no answer from \(endpoint) in time (\(error))"
            case .remoteConnectionClosed:
                return "\(endpoint) closed the connection before answering"
            case .alreadyShutdown:
                return "the APNs client is shut down"
            default:
                return "HTTP to \(endpoint) failed: \(error)"
            }
        case let error as NIOSSLError:
            return "TLS with \(endpoint) failed: \(error)"
        case let error as BoringSSLError:
            return "TLS with \(endpoint) failed: \(error)"
        case let error as NIOConnectionError:
            return "cannot connect to \(endpoint): \(error.connectionErrors.first.map { "\($0.error)" } ?? "\(error)")"
        case let error as IOError:
            return "cannot connect to \(endpoint): \(error)"
        case is NIOTooManyBytesError:
            return "APNs answered with more than \(maximumAnswerBytes) bytes"
        case is CancellationError:
            return "cancelled"
        default:
            return "cannot reach \(endpoint): \(error)"
        }
    }
}
