import Foundation
import JadwalCore
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Fetches subscribed feeds: a server that fetches URLs people give it must not become their
/// way into its own network. Each hop resolves the host itself, checks every address it may
/// connect to against `FetchPolicy`, and connects to that checked address (so a name that
/// resolves differently a moment later, DNS rebinding, changes nothing); redirects are followed
/// by the same rule, at most five. The body is read up to a size cap within one deadline, and a
/// bounded number of fetches run at once, so one slow feed holds one slot, never the server.
public struct FeedFetcher: FeedFetching {
    public let policy: FetchPolicy
    let slots: FetchSlots
    let group: any EventLoopGroup
    let tls: NIOSSLContext?

    /// `additionalTrustRoots` are trusted besides the system's roots (a test server's CA).
    public init(policy: FetchPolicy, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, additionalTrustRoots: [NIOSSLCertificate] = []) {
        self.policy = policy
        self.group = group
        slots = FetchSlots(limit: policy.concurrentFetches)
        var configuration = TLSConfiguration.makeClientConfiguration()
        if !additionalTrustRoots.isEmpty { configuration.additionalTrustRoots = [.certificates(additionalTrustRoots)] }
        tls = try? NIOSSLContext(configuration: configuration)
    }

    public func fetch(_ request: FeedRequest) async throws(FeedFetchFailure) -> FeedResponse {
        do {
            return try await slots.run { try await follow(request) }
        } catch let failure as FeedFetchFailure {
            throw failure
        } catch {
            throw FeedFetchFailure(.network, "the feed could not be fetched: \(error)")
        }
    }

    /// Any request to a person's server (a CalDAV account's PROPFIND, REPORT, PUT or DELETE),
    /// under the same rules as a feed's GET: every hop's address checked, at most five redirects
    /// (each re-sent with the same method and body, which is what DAV discovery needs), the size
    /// cap, the deadline and a fetch slot. Every status is answered; what it means is the caller's.
    public func exchange(_ request: FetchRequest) async throws(FeedFetchFailure) -> FetchAnswer {
        do {
            return try await slots.run { try await redirected(request) }
        } catch let failure as FeedFetchFailure {
            throw failure
        } catch {
            throw FeedFetchFailure(.network, "\(URLComponents(string: request.url)?.host ?? "the server") could not be reached: \(error)")
        }
    }

    public func checkAddress(_ url: String) async throws(FeedFetchFailure) {
        do {
            _ = try await policy.address(for: try FetchTarget(url))
        } catch let failure as FeedFetchFailure {
            throw failure
        } catch {
            throw FeedFetchFailure(.network, "\(error)")
        }
    }

    /// A feed's GET, its answer read as a feed's.
    func follow(_ request: FeedRequest) async throws -> FeedResponse {
        var headers = [("Accept", "text/calendar, */*;q=0.5")]
        if let etag = request.etag { headers.append(("If-None-Match", etag)) }
        if let lastModified = request.lastModified { headers.append(("If-Modified-Since", lastModified)) }
        let answer = try await redirected(FetchRequest(method: "GET", url: request.url, headers: headers))
        switch answer.status {
        case 200...299:
            return .document(body: answer.body, etag: answer.header("etag"), lastModified: answer.header("last-modified"), maxAge: answer.maxAge)
        case 304:
            return .notModified(maxAge: answer.maxAge)
        case 404, 410:
            throw FeedFetchFailure(.gone, "the server says the feed is not there (HTTP \(answer.status)); check the address", status: answer.status)
        case 401, 403:
            throw FeedFetchFailure(
                .unauthorized, "the server refused access (HTTP \(answer.status)); the feed may need a fresh secret address", status: answer.status)
        default:
            throw FeedFetchFailure(.status, "the server answered HTTP \(answer.status)", status: answer.status)
        }
    }

    /// Follows redirects from the request's address, each hop checked anew; the first answer
    /// that is not a redirect.
    func redirected(_ request: FetchRequest) async throws -> FetchAnswer {
        var hop = request
        for _ in 0...policy.maxRedirects {
            let target = try FetchTarget(hop.url)
            let answer = try await exchange(target, request: hop)
            switch answer.status {
            case 301, 302, 303, 307, 308:
                guard let location = answer.header("location"), let next = URL(string: location, relativeTo: URL(string: hop.url))?.absoluteString
                else { throw FeedFetchFailure(.status, "the server redirected (HTTP \(answer.status)) without saying where", status: answer.status) }
                hop.url = next
                if answer.status == 303 {
                    hop.method = "GET"
                    hop.body = []
                }
            default:
                var final = answer
                final.url = hop.url
                return final
            }
        }
        throw FeedFetchFailure(.status, "the server redirected more than \(policy.maxRedirects) times")
    }

    /// One request and its answer, over a connection to an address the policy allows.
    func exchange(_ target: FetchTarget, request: FetchRequest) async throws -> FetchAnswer {
        let address = try await policy.address(for: target)
        let deadline = policy.timeout
        return try await withThrowingTaskGroup(of: FetchAnswer.self) { group in
            group.addTask { try await self.send(target, to: address, request: request) }
            group.addTask {
                try await Task.sleep(for: deadline)
                throw FeedFetchFailure(.network, "the feed did not answer within \(deadline.components.seconds) seconds")
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw CancellationError() }
            return first
        }
    }

    func send(_ target: FetchTarget, to address: SocketAddress, request: FetchRequest) async throws -> FetchAnswer {
        let tls = target.secure ? self.tls : nil
        if target.secure, tls == nil { throw FeedFetchFailure(.tls, "TLS is not available on this server") }
        let serverName = target.hostIsAddress ? nil : target.host
        let channel: NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>
        do {
            channel = try await ClientBootstrap(group: group)
                .connectTimeout(policy.connectTimeout)
                .connect(to: address) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if let tls {
                            try channel.pipeline.syncOperations.addHandler(try NIOSSLClientHandler(context: tls, serverHostname: serverName))
                        }
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            throw FeedFetchFailure(.network, "\(target.host) could not be reached: \(Self.describe(error))")
        }
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: target.hostHeader)
        headers.add(name: "User-Agent", value: "Jadwal (calendar subscription)")
        headers.add(name: "Accept-Encoding", value: "identity")
        headers.add(name: "Connection", value: "close")
        for (name, value) in request.headers { headers.add(name: name, value: value) }
        if !request.body.isEmpty || request.method != "GET" { headers.add(name: "Content-Length", value: String(request.body.count)) }
        let head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: request.method), uri: target.pathAndQuery, headers: headers)
        let limit = policy.maxBytes
        do {
            return try await channel.executeThenClose { inbound, outbound in
                do {
                    try await outbound.write(.head(head))
                    if !request.body.isEmpty { try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: request.body)))) }
                    try await outbound.write(.end(nil))
                } catch {
                    // A server may answer (a 401) and close before reading the body: its answer
                    // still counts; with none, reading below says the connection closed.
                }
                var answer = FetchAnswer(status: 0, headers: [:], body: [], url: request.url)
                for try await part in inbound {
                    switch part {
                    case .head(let response):
                        answer.status = Int(response.status.code)
                        answer.headers = response.headers
                        if let length = response.headers.first(name: "content-length").flatMap(Int.init), length > limit {
                            throw FeedFetchFailure(.tooLarge, "the feed is larger than \(limit / (1 << 20)) MiB")
                        }
                    case .body(let buffer):
                        guard answer.body.count + buffer.readableBytes <= limit else {
                            throw FeedFetchFailure(.tooLarge, "the feed is larger than \(limit / (1 << 20)) MiB")
                        }
                        answer.body.append(contentsOf: buffer.readableBytesView)
                    case .end:
                        return answer
                    }
                }
                throw FeedFetchFailure(.network, "\(target.host) closed the connection before the feed was complete")
            }
        } catch let failure as FeedFetchFailure {
            throw failure
        } catch let error as NIOSSLError {
            // A handshake refused for the certificate is said as such: what the person can act on.
            if case .handshakeFailed(let reason) = error, "\(reason)".contains("CERTIFICATE_VERIFY_FAILED") {
                throw FeedFetchFailure(
                    .tls, "the certificate of \(target.host) was not accepted (it is not signed by a trusted authority, has expired, or is for another name)")
            }
            throw FeedFetchFailure(.tls, "the secure connection to \(target.host) failed: \(error)")
        } catch let error as BoringSSLError {
            throw FeedFetchFailure(.tls, "the certificate of \(target.host) was not accepted: \(error)")
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw FeedFetchFailure(.network, "the connection to \(target.host) failed: \(Self.describe(error))")
        }
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? NIOConnectionError, let first = error.connectionErrors.first { return "\(first.error)" }
        if let error = error as? ChannelError, case .connectTimeout = error { return "the connection timed out" }
        return "\(error)"
    }
}

/// One request to a person's server: a feed's GET or a CalDAV method with its body.
public struct FetchRequest: Sendable {
    public var method: String
    public var url: String
    public var headers: [(String, String)]
    public var body: [UInt8]

    public init(method: String, url: String, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// What the server answered, after any redirects (`url` is the address that answered).
public struct FetchAnswer: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]
    public var url: String

    public func header(_ name: String) -> String? { headers.first(name: name) }

    /// `Cache-Control: max-age=N`, in seconds.
    var maxAge: Int? {
        for part in headers[canonicalForm: "cache-control"] {
            let directive = part.lowercased()
            if directive.hasPrefix("max-age="), let seconds = Int(directive.dropFirst("max-age=".count)), seconds > 0 { return seconds }
        }
        return nil
    }
}

/// An address to fetch, taken apart.
struct FetchTarget: Sendable {
    var secure: Bool
    var host: String
    var port: Int
    var pathAndQuery: String
    /// The host is an IP address literal (no name to resolve, no TLS server name).
    var hostIsAddress: Bool

    var hostHeader: String {
        let shown = host.contains(":") ? "[\(host)]" : host
        return port == (secure ? 443 : 80) ? shown : "\(shown):\(port)"
    }

    init(_ url: String) throws {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased() else {
            throw FeedFetchFailure(.refused, "\"\(url.prefix(80))\" is not an address")
        }
        guard scheme == "http" || scheme == "https" else {
            throw FeedFetchFailure(.refused, "only http:// and https:// addresses are fetched, not \(scheme):")
        }
        guard let host = components.host, !host.isEmpty else { throw FeedFetchFailure(.refused, "the address has no host") }
        secure = scheme == "https"
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        port = components.port ?? (secure ? 443 : 80)
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        pathAndQuery = path + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
        hostIsAddress = IPAddress(self.host) != nil
    }
}

/// Which addresses a fetch may connect to. By default only public ones: no loopback,
/// private, link-local, CGNAT, multicast or reserved addresses, unless the operator allows
/// private fetches or lists the ranges that may be reached.
public struct FetchPolicy: Sendable {
    public var allowPrivate: Bool
    public var allowed: [IPRange]
    public var maxBytes: Int
    public var maxRedirects: Int
    public var connectTimeout: TimeAmount
    /// For the whole exchange, body included.
    public var timeout: Duration
    public var concurrentFetches: Int
    /// The server's own public address (its public URL's host and port): never fetched, even
    /// where private fetches are allowed, so a feed or an account cannot point Jadwal at itself.
    public var ownHost: String?
    public var ownPort: Int?

    public init(
        allowPrivate: Bool = false, allowed: [IPRange] = [], maxBytes: Int = 20 << 20, maxRedirects: Int = 5, connectTimeout: TimeAmount = .seconds(10),
        timeout: Duration = .seconds(60), concurrentFetches: Int = 4, ownURL: String? = nil
    ) {
        self.allowPrivate = allowPrivate
        self.allowed = allowed
        self.maxBytes = maxBytes
        self.maxRedirects = maxRedirects
        self.connectTimeout = connectTimeout
        self.timeout = timeout
        self.concurrentFetches = max(1, concurrentFetches)
        if let ownURL, let own = try? FetchTarget(ownURL) {
            ownHost = own.host.lowercased()
            ownPort = own.port
        }
    }

    public func permits(_ address: IPAddress) -> Bool {
        if allowPrivate || allowed.contains(where: { $0.contains(address) }) { return true }
        return address.isPublic
    }

    /// The first address of the host that may be connected to; refused when there is none.
    func address(for target: FetchTarget) async throws -> SocketAddress {
        let candidates: [IPAddress]
        if let literal = IPAddress(target.host) {
            candidates = [literal]
        } else {
            candidates = try await Self.resolve(target.host)
        }
        guard !candidates.isEmpty else { throw FeedFetchFailure(.network, "\(target.host) has no address (DNS)") }
        guard let chosen = candidates.first(where: permits) else {
            throw FeedFetchFailure(
                .refused,
                "\(target.host) is a private or local address (\(candidates[0])); this server does not fetch from its own network unless the operator allows it (--allow-private-fetch)")
        }
        // By name, or by address for another name of the same host (a DNS alias).
        if let ownHost, ownPort == target.port {
            var ownAddresses = IPAddress(ownHost).map { [$0] } ?? []
            if ownAddresses.isEmpty { ownAddresses = (try? await Self.resolve(ownHost)) ?? [] }
            if target.host.lowercased() == ownHost || ownAddresses.contains(chosen) {
                throw FeedFetchFailure(.refused, "\(target.host) is this server's own address; Jadwal does not fetch from itself")
            }
        }
        do {
            return try SocketAddress(ipAddress: chosen.description, port: target.port)
        } catch {
            throw FeedFetchFailure(.network, "\(chosen) is not an address to connect to")
        }
    }

    /// The host's addresses, from the system resolver on a thread of its own (getaddrinfo blocks).
    static func resolve(_ host: String) async throws -> [IPAddress] {
        try await NIOThreadPool.singleton.runIfActive {
            var hints = addrinfo()
            hints.ai_family = AF_UNSPEC
            #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            #else
            hints.ai_socktype = SOCK_STREAM
            #endif
            var list: UnsafeMutablePointer<addrinfo>?
            let status = getaddrinfo(host, nil, &hints, &list)
            guard status == 0, let first = list else {
                throw FeedFetchFailure(.network, "\(host) could not be resolved (DNS)")
            }
            defer { freeaddrinfo(first) }
            var found: [IPAddress] = []
            var cursor: UnsafeMutablePointer<addrinfo>? = first
            while let entry = cursor {
                if let sockaddr = entry.pointee.ai_addr {
                    switch Int32(entry.pointee.ai_family) {
                    case AF_INET:
                        let v4 = sockaddr.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
                        found.append(IPAddress(bytes: withUnsafeBytes(of: v4) { Array($0) }))
                    case AF_INET6:
                        let v6 = sockaddr.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
                        found.append(IPAddress(bytes: withUnsafeBytes(of: v6) { Array($0) }))
                    default:
                        break
                    }
                }
                cursor = entry.pointee.ai_next
            }
            var unique: [IPAddress] = []
            for address in found where !unique.contains(address) { unique.append(address) }
            return unique
        }
    }
}

/// At most `limit` fetches at once; the others wait their turn in order.
actor FetchSlots {
    let limit: Int
    var running = 0
    var waiting: [CheckedContinuation<Void, Never>] = []

    init(limit: Int) { self.limit = limit }

    func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        if running >= limit {
            await withCheckedContinuation { waiting.append($0) }
        } else {
            running += 1
        }
        defer {
            if waiting.isEmpty { running -= 1 } else { waiting.removeFirst().resume() }
        }
        return try await body()
    }
}
