import Crypto
import Foundation
import JadwalCore
import JadwalTestSupport
import NIOCore
import NIOHPACK
import NIOHTTP2
import NIOPosix
import NIOSSL
import Synchronization

/// A local stand-in for APNs: HTTP/2 over TLS on 127.0.0.1 (ALPN `h2` only; a connection that
/// does not negotiate it is recorded and closed), checking each request the way Apple's
/// "Sending notification requests to APNs", "Establishing a token-based connection to APNs" and
/// "Handling notification responses from APNs" describe, and answering with APNs' status codes
/// and JSON error bodies. It keeps every request it received for the test to look at.
final class APNsTestServer: Sendable {
    /// What a request must carry to be accepted.
    struct Expectations: Sendable {
        var keyID: String
        var teamID: String
        var topic: String
        var publicKey: P256.Signing.PublicKey
    }

    /// An answer the test asks for, in place of 200, for a request that passes every check.
    enum ScriptedAnswer: Sendable {
        case status(Int, reason: String)
        /// 403 ExpiredProviderToken for this request, and for every later one with the same JWT.
        case expireProviderToken
    }

    /// One request, what was read from it, and what the server answered.
    struct Request: Sendable {
        /// Which TLS connection (1, 2, …) it came on, and its HTTP/2 stream.
        var connection: Int
        var streamID: Int
        var headers: [(name: String, value: String)]
        var body: Data
        var deviceToken: String?
        /// The provider token (JWT) from `authorization: bearer …`, and its claims once verified.
        var providerToken: String?
        var providerTokenHeader: [String: String]?
        var providerTokenIssuedAt: Date?
        var status: Int
        var reason: String?
        /// The check the request failed, in words; nil when it passed them all (a scripted
        /// error answer is not a failed check).
        var failedCheck: String?

        func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }

        /// The payload as JSON, when it is a JSON object.
        var payload: [String: Any]? { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] }
        var aps: [String: Any]? { payload?["aps"] as? [String: Any] }
        var jadwal: [String: Any]? { payload?["jadwal"] as? [String: Any] }
    }

    private struct State {
        var expectations: Expectations
        var requests: [Request] = []
        var connections = 0
        var refusedConnections: [String] = []
        var unregistered: [String: Date] = [:]
        var scripted: [ScriptedAnswer] = []
        var expiredProviderTokens: Set<String> = []
        var channels: [any Channel] = []
    }

    let port: Int
    let certificate: APNsTestCertificate
    private let listener: any Channel
    private let shared: Shared

    var endpoint: String { "https://127.0.0.1:\(port)" }

    /// Starts a server on a free loopback port. `now` is the server's clock for the JWT age check.
    static func start(_ expectations: Expectations, now: @escaping @Sendable () -> Date = { Date() }) async throws -> APNsTestServer {
        let certificate = try APNsTestCertificate()
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(certificate.certificate)], privateKey: .privateKey(certificate.privateKey))
        tls.applicationProtocols = ["h2"]
        tls.minimumTLSVersion = .tlsv12
        let context = try NIOSSLContext(configuration: tls)
        let shared = Shared(State(expectations: expectations), now: now)

        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                shared.state.withLock { $0.channels.append(channel) }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                }.flatMap {
                    channel.configureHTTP2SecureUpgrade(
                        h2ChannelConfigurator: { channel in
                            let connection = shared.state.withLock { state in
                                state.connections += 1
                                return state.connections
                            }
                            return channel.configureHTTP2Pipeline(
                                mode: .server, connectionConfiguration: .init(), streamConfiguration: .init()
                            ) { stream in
                                stream.eventLoop.makeCompletedFuture {
                                    try stream.pipeline.syncOperations.addHandler(StreamHandler(shared: shared, connection: connection))
                                }
                            }.map { _ in }
                        },
                        http1ChannelConfigurator: { channel in
                            // APNs speaks HTTP/2 only; a client that did not negotiate it gets nothing.
                            shared.state.withLock { $0.refusedConnections.append("no h2 negotiated by ALPN") }
                            return channel.close()
                        })
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        guard let port = listener.localAddress?.port else { throw TestSetupError("the APNs test server has no port") }
        return APNsTestServer(port: port, certificate: certificate, listener: listener, shared: shared)
    }

    private init(port: Int, certificate: APNsTestCertificate, listener: any Channel, shared: Shared) {
        self.port = port
        self.certificate = certificate
        self.listener = listener
        self.shared = shared
    }

    func stop() async {
        let closed: EventLoopFuture<Void> = listener.close()
        try? await closed.get()
        for channel in shared.state.withLock({ $0.channels }) { channel.close(promise: nil) }
    }

    // MARK: What the test sees and asks for

    var requests: [Request] { shared.state.withLock { $0.requests } }
    /// TLS connections that negotiated HTTP/2, and those refused for not doing so.
    var connections: Int { shared.state.withLock { $0.connections } }
    var refusedConnections: [String] { shared.state.withLock { $0.refusedConnections } }

    /// From now on, `deviceToken` is answered 410 Unregistered with this timestamp.
    func unregister(_ deviceToken: String, at date: Date) { shared.state.withLock { $0.unregistered[deviceToken] = date } }

    /// The next requests that pass every check get these answers, in order.
    func answerNext(_ answers: ScriptedAnswer...) { shared.state.withLock { $0.scripted += answers } }

    // MARK: Checking a request

    /// What the connection's stream handlers share with the server object.
    private final class Shared: Sendable {
        let state: Mutex<State>
        let now: @Sendable () -> Date

        init(_ state: State, now: @escaping @Sendable () -> Date) {
            self.state = Mutex(state)
            self.now = now
        }

        /// Checks, records and answers one complete request.
        func answer(headers: HPACKHeaders, body: Data, connection: Int, streamID: Int) -> (status: Int, apnsID: String, body: Data?) {
            let now = self.now()
            return state.withLock { state in
                var request = Request(
                    connection: connection, streamID: streamID, headers: headers.map { ($0.name, $0.value) }, body: body, status: 200)
                let verdict = Self.check(&request, expectations: state.expectations, expired: state.expiredProviderTokens, now: now)
                var timestamp: Date?
                switch verdict {
                case .failed(let status, let reason, let why):
                    (request.status, request.reason, request.failedCheck) = (status, reason, why)
                case .expiredToken:
                    (request.status, request.reason) = (403, "ExpiredProviderToken")
                case .passed:
                    if let token = request.deviceToken, let since = state.unregistered[token] {
                        (request.status, request.reason) = (410, "Unregistered")
                        timestamp = since
                    } else if !state.scripted.isEmpty {
                        switch state.scripted.removeFirst() {
                        case .status(let status, let reason):
                            (request.status, request.reason) = (status, reason)
                        case .expireProviderToken:
                            (request.status, request.reason) = (403, "ExpiredProviderToken")
                            if let jwt = request.providerToken { state.expiredProviderTokens.insert(jwt) }
                        }
                    }
                }
                state.requests.append(request)
                let apnsID = request.header("apns-id").flatMap { UUID(uuidString: $0) != nil ? $0 : nil } ?? UUID().uuidString.lowercased()
                guard let reason = request.reason else { return (request.status, apnsID, nil) }
                var json: [String: Any] = ["reason": reason]
                if let timestamp { json["timestamp"] = Int64((timestamp.timeIntervalSince1970 * 1000).rounded()) }
                return (request.status, apnsID, try? JSONSerialization.data(withJSONObject: json))
            }
        }

        enum Verdict {
            case passed
            /// A JWT the test had the server expire earlier.
            case expiredToken
            case failed(status: Int, reason: String, why: String)
        }

        static let apnsHeaders = ["apns-id", "apns-topic", "apns-push-type", "apns-priority", "apns-expiration", "apns-collapse-id", "authorization"]

        /// The checks, in the order APNs makes them: the request line, the provider token, the
        /// topic, the apns-* headers, then the payload against its push type.
        static func check(_ request: inout Request, expectations: Expectations, expired: Set<String>, now: Date) -> Verdict {
            func value(_ name: String) -> String? { request.header(name) }

            guard value(":method") == "POST" else {
                return .failed(status: 405, reason: "MethodNotAllowed", why: ":method is \(value(":method") ?? "missing"), not POST")
            }
            guard value(":scheme") == "https" else {
                return .failed(status: 400, reason: "BadPath", why: ":scheme is \(value(":scheme") ?? "missing"), not https")
            }
            guard let path = value(":path"), path.hasPrefix("/3/device/") else {
                return .failed(status: 404, reason: "BadPath", why: ":path \(value(":path") ?? "missing") is not /3/device/<token>")
            }
            let token = String(path.dropFirst("/3/device/".count))
            guard !token.isEmpty else { return .failed(status: 400, reason: "MissingDeviceToken", why: "no device token in :path") }
            guard token.count >= 64, token.count % 2 == 0, token.allSatisfy(\.isHexDigit) else {
                return .failed(status: 400, reason: "BadDeviceToken", why: "device token \(token) is not 64 or more hex digits")
            }
            request.deviceToken = token
            for name in apnsHeaders where request.headers.filter({ $0.name == name }).count > 1 {
                return .failed(status: 400, reason: "DuplicateHeaders", why: "\(name) appears more than once")
            }

            // The provider token: a bearer ES256 JWT from this team's key, at most an hour old.
            guard let authorization = value("authorization") else {
                return .failed(status: 403, reason: "MissingProviderToken", why: "no authorization header")
            }
            guard authorization.hasPrefix("bearer ") else {
                return .failed(status: 403, reason: "InvalidProviderToken", why: "authorization is not `bearer <jwt>`: \(authorization)")
            }
            let jwt = String(authorization.dropFirst("bearer ".count))
            request.providerToken = jwt
            let parts = jwt.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3, let headerData = Data(base64URLEncoded: parts[0]), let claimsData = Data(base64URLEncoded: parts[1]),
                  let signatureData = Data(base64URLEncoded: parts[2]),
                  let header = (try? JSONSerialization.jsonObject(with: headerData)) as? [String: Any],
                  let claims = (try? JSONSerialization.jsonObject(with: claimsData)) as? [String: Any]
            else {
                return .failed(status: 403, reason: "InvalidProviderToken", why: "the JWT is not three base64url parts of JSON")
            }
            request.providerTokenHeader = header.compactMapValues { $0 as? String }
            guard header["alg"] as? String == "ES256" else {
                return .failed(status: 403, reason: "InvalidProviderToken", why: "JWT alg is \(header["alg"] ?? "missing"), not ES256")
            }
            guard header["kid"] as? String == expectations.keyID else {
                return .failed(status: 403, reason: "InvalidProviderToken", why: "JWT kid is \(header["kid"] ?? "missing"), not \(expectations.keyID)")
            }
            guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureData),
                  expectations.publicKey.isValidSignature(signature, for: Data((parts[0] + "." + parts[1]).utf8))
            else {
                return .failed(status: 403, reason: "InvalidProviderToken", why: "the JWT's ES256 signature does not verify with the key \(expectations.keyID)")
            }
            guard claims["iss"] as? String == expectations.teamID else {
                return .failed(status: 403, reason: "InvalidProviderToken", why: "JWT iss is \(claims["iss"] ?? "missing"), not the team \(expectations.teamID)")
            }
            guard let iat = claims["iat"] as? Int else {
                return .failed(status: 403, reason: "InvalidProviderToken", why: "JWT iat is not a number of seconds: \(claims["iat"] ?? "missing")")
            }
            let issuedAt = Date(timeIntervalSince1970: TimeInterval(iat))
            request.providerTokenIssuedAt = issuedAt
            guard issuedAt <= now.addingTimeInterval(60) else {
                return .failed(status: 403, reason: "InvalidProviderToken", why: "JWT iat \(issuedAt) is in the future")
            }
            guard now.timeIntervalSince(issuedAt) <= 3600 else {
                return .failed(status: 403, reason: "ExpiredProviderToken", why: "JWT iat \(issuedAt) is more than an hour before \(now)")
            }
            if expired.contains(jwt) { return .expiredToken }

            guard let topic = value("apns-topic") else { return .failed(status: 400, reason: "MissingTopic", why: "no apns-topic") }
            guard topic == expectations.topic else {
                return .failed(status: 400, reason: "TopicDisallowed", why: "apns-topic \(topic) is not \(expectations.topic)")
            }
            if let id = value("apns-id"), UUID(uuidString: id) == nil {
                return .failed(status: 400, reason: "BadMessageId", why: "apns-id \(id) is not a UUID")
            }
            if let expiration = value("apns-expiration"), Int64(expiration).map({ $0 >= 0 }) != true {
                return .failed(status: 400, reason: "BadExpirationDate", why: "apns-expiration \(expiration) is not seconds since 1970")
            }
            if let collapseID = value("apns-collapse-id"), collapseID.utf8.count > 64 {
                return .failed(status: 400, reason: "BadCollapseId", why: "apns-collapse-id is \(collapseID.utf8.count) bytes, over 64")
            }
            guard let pushType = value("apns-push-type"), ["alert", "background"].contains(pushType) else {
                return .failed(status: 400, reason: "InvalidPushType", why: "apns-push-type is \(value("apns-push-type") ?? "missing"), not alert or background")
            }
            let priority = value("apns-priority") ?? "10"
            guard ["5", "10"].contains(priority) else {
                return .failed(status: 400, reason: "BadPriority", why: "apns-priority \(priority) is not 5 or 10")
            }
            if pushType == "background" && priority != "5" {
                return .failed(status: 400, reason: "BadPriority", why: "a background push must have apns-priority 5, not \(priority)")
            }

            guard !request.body.isEmpty else { return .failed(status: 400, reason: "PayloadEmpty", why: "no payload") }
            guard request.body.count <= 4096 else {
                return .failed(status: 413, reason: "PayloadTooLarge", why: "the payload is \(request.body.count) bytes, over 4096")
            }
            // Apple documents no reason for a payload that is not JSON; APNs drops such
            // notifications. This server answers 400 so the test sees it.
            guard let aps = request.aps else {
                return .failed(status: 400, reason: "BadPayload", why: "the payload is not a JSON object with an aps dictionary")
            }
            switch pushType {
            case "background":
                guard aps["content-available"] as? Int == 1 else {
                    return .failed(status: 400, reason: "InvalidPushType", why: "a background push without aps.content-available = 1")
                }
                let visible = ["alert", "sound", "badge"].filter { aps[$0] != nil }
                guard visible.isEmpty else {
                    return .failed(status: 400, reason: "InvalidPushType", why: "a background push with \(visible.joined(separator: ", "))")
                }
            default:
                guard aps["alert"] != nil else {
                    return .failed(status: 400, reason: "InvalidPushType", why: "an alert push without aps.alert")
                }
            }
            return .passed
        }
    }

    /// One HTTP/2 stream: collects the request's HEADERS and DATA frames, then answers.
    private final class StreamHandler: ChannelInboundHandler {
        typealias InboundIn = HTTP2Frame.FramePayload
        typealias OutboundOut = HTTP2Frame.FramePayload

        let shared: Shared
        let connection: Int
        private var headers: HPACKHeaders?
        private var body = Data()
        private var answered = false

        init(shared: Shared, connection: Int) {
            self.shared = shared
            self.connection = connection
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .headers(let frame):
                if headers == nil { headers = frame.headers }
                if frame.endStream { respond(context: context) }
            case .data(let frame):
                if case .byteBuffer(let buffer) = frame.data, body.count < 1 << 20 { body.append(contentsOf: buffer.readableBytesView) }
                if frame.endStream { respond(context: context) }
            default:
                break
            }
        }

        private func respond(context: ChannelHandlerContext) {
            guard !answered, let headers else { return }
            answered = true
            let streamID = (try? context.channel.syncOptions?.getOption(HTTP2StreamChannelOptions.streamID)).map { Int($0) } ?? -1
            let answer = shared.answer(headers: headers, body: body, connection: connection, streamID: streamID)
            var response = HPACKHeaders([(":status", "\(answer.status)"), ("apns-id", answer.apnsID)])
            if let body = answer.body {
                response.add(name: "content-type", value: "application/json; charset=utf-8")
                context.write(wrapOutboundOut(.headers(.init(headers: response))), promise: nil)
                context.write(wrapOutboundOut(.data(.init(data: .byteBuffer(ByteBuffer(bytes: body)), endStream: true))), promise: nil)
            } else {
                context.write(wrapOutboundOut(.headers(.init(headers: response, endStream: true))), promise: nil)
            }
            context.flush()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
}
