import AsyncHTTPClient
import Conversations
import Foundation
import JadwalCore
import NIOCore
import NIOFoundationCompat
import NIOPosix

/// Posts chat/completions requests with AsyncHTTPClient: the configured endpoint, an optional
/// bearer key, and one deadline for the whole exchange, answer body included.
public struct HTTPChatCompletionTransport: ChatCompletionTransport {
    public let endpoint: String
    package let apiKey: String?
    public let timeout: Duration
    package let httpClient: HTTPClient
    /// A model's answer is a few hundred bytes; anything far larger is not one.
    package static let maximumResponseBytes = 1 << 20

    /// One client for the process. A refused connection fails at once instead of being retried
    /// until the deadline: the rules can answer straight away, and an import does not wait.
    public static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .seconds(5)
        return HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
    }()

    public init(endpoint: String, apiKey: String? = nil, timeout: Duration, httpClient: HTTPClient = client) {
        self.endpoint = endpoint
        self.apiKey = apiKey
        self.timeout = timeout
        self.httpClient = httpClient
    }

    public init(_ configuration: LLMConfiguration, httpClient: HTTPClient = client) {
        self.init(endpoint: configuration.endpoint, apiKey: configuration.apiKey, timeout: configuration.timeout, httpClient: httpClient)
    }

    public func complete(_ request: Data) async throws(ChatCompletionTransportError) -> Data {
        var outgoing = HTTPClientRequest(url: endpoint)
        outgoing.method = .POST
        outgoing.headers.add(name: "Content-Type", value: "application/json")
        outgoing.headers.add(name: "Accept", value: "application/json")
        outgoing.headers.add(name: "User-Agent", value: "jadwal")
        if let apiKey { outgoing.headers.add(name: "Authorization", value: "Bearer \(apiKey)") }
        outgoing.body = .bytes(ByteBuffer(data: request))

        let prepared = outgoing
        let timeout = self.timeout
        let client = httpClient
        do {
            // AsyncHTTPClient's deadline ends with the response head; the race covers the body too.
            return try await withThrowingTaskGroup(of: Data.self) { group in
                group.addTask {
                    let response = try await client.execute(prepared, timeout: TimeAmount(timeout))
                    let body = try await response.body.collect(upTo: Self.maximumResponseBytes)
                    guard (200..<300).contains(Int(response.status.code)) else {
                        throw ChatCompletionTransportError.httpStatus(
                            Int(response.status.code), body: String(String(buffer: body).prefix(300)))
                    }
                    return Data(buffer: body)
                }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    throw ChatCompletionTransportError.timedOut(after: timeout)
                }
                defer { group.cancelAll() }
                guard let first = try await group.next() else { throw ChatCompletionTransportError.failed("no result") }
                return first
            }
        } catch {
            throw Self.classify(error, timeout: timeout)
        }
    }

    package static func classify(_ error: any Error, timeout: Duration) -> ChatCompletionTransportError {
        switch error {
        case let error as ChatCompletionTransportError:
            return error
        case let error as HTTPClientError:
            switch error {
            case .deadlineExceeded, .readTimeout, .writeTimeout, .connectTimeout, .getConnectionFromPoolTimeout:
                return .timedOut(after: timeout)
            case .remoteConnectionClosed:
                return .failed("the server closed the connection before answering")
            default:
                return .failed("\(error)")
            }
        case is NIOTooManyBytesError:
            return .failed("the answer is larger than \(maximumResponseBytes) bytes")
        case let error as NIOConnectionError:
            return .unreachable(error.connectionErrors.first.map { "\($0.error)" } ?? "\(error)")
        case let error as IOError:
            return .unreachable("\(error)")
        case is CancellationError:
            return .failed("cancelled")
        default:
            return .failed("\(error)")
        }
    }
}

extension TimeAmount {
    package init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
