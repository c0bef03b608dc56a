import Foundation
import HTTPTypes
import Hummingbird
import JadwalTestSupport
import Logging
import NIOCore
import ServiceLifecycle

/// A feed host on a loopback port, serving what a test puts there: calendars with ETags (and
/// 304s), redirects, error statuses, slow and oversized answers, web pages instead of feeds.
/// Real HTTP, so the server's fetcher is exercised end to end.
struct FeedServer: Sendable {
    enum Answer: Sendable {
        case calendar(String, etag: Bool = true, maxAge: Int? = nil)
        case redirect(String)
        case status(Int)
        case html
        /// A body of this many bytes, announced in Content-Length.
        case oversized(Int)
        /// A calendar answered only once the test opens the gate (`release()`): a slow feed
        /// whose slowness the test decides, not a clock.
        case held(String)
    }

    actor Host {
        var answers: [String: Answer] = [:]
        /// Every request: the path and its If-None-Match.
        var requests: [(path: String, ifNoneMatch: String?)] = []

        var gateOpen = false
        var held: [CheckedContinuation<Void, Never>] = []

        func set(_ name: String, _ answer: Answer) { answers[name] = answer }
        /// Answers every held request, and later ones at once.
        func release() {
            gateOpen = true
            for waiting in held { waiting.resume() }
            held = []
        }
        /// How many requests are being held now.
        var holding: Int { held.count }
        func count(_ name: String) -> Int { requests.filter { $0.path == name }.count }

        func respond(_ name: String, ifNoneMatch: String?) async -> Response {
            requests.append((name, ifNoneMatch))
            switch answers[name] ?? .status(404) {
            case .held(let text):
                if !gateOpen { await withCheckedContinuation { held.append($0) } }
                return Response(status: .ok, headers: [.contentType: "text/calendar; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: text)))
            case .calendar(let text, let withETag, let maxAge):
                let tag = "\"" + String(text.hashValue, radix: 16) + "\""
                var headers: HTTPFields = [.contentType: "text/calendar; charset=utf-8"]
                if withETag { headers[.eTag] = tag }
                if let maxAge { headers[.cacheControl] = "max-age=\(maxAge)" }
                if withETag, ifNoneMatch == tag { return Response(status: .notModified, headers: headers) }
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
            case .redirect(let location):
                return Response(status: .init(code: 302), headers: [.location: location])
            case .status(let code):
                return Response(status: .init(code: code), body: .init(byteBuffer: ByteBuffer(string: "status \(code)")))
            case .html:
                return Response(status: .ok, headers: [.contentType: "text/html"],
                                body: .init(byteBuffer: ByteBuffer(string: "<!DOCTYPE html><html><body>Sign in to see this calendar</body></html>")))
            case .oversized(let bytes):
                return Response(status: .ok, headers: [.contentType: "text/calendar"],
                                body: .init(byteBuffer: ByteBuffer(repeating: UInt8(ascii: "x"), count: bytes)))
            }
        }
    }

    let host: Host
    let port: Int

    func url(_ name: String) -> String { "http://127.0.0.1:\(port)/feeds/\(name)" }

    static func run<T: Sendable>(_ body: @Sendable (FeedServer) async throws -> T) async throws -> T {
        let host = Host()
        let router = Router()
        router.get("feeds/{name}") { request, context -> Response in
            await host.respond(context.parameters.get("name") ?? "", ifNoneMatch: request.headers[.ifNoneMatch])
        }
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) },
            logger: TestEnvironment.logger)
        let services = ServiceGroup(configuration: .init(services: [app], logger: TestEnvironment.logger))
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await services.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw CancellationError() }
            do {
                let result = try await body(FeedServer(host: host, port: port))
                await host.release()
                await services.triggerGracefulShutdown()
                try await group.waitForAll()
                return result
            } catch {
                await host.release()
                await services.triggerGracefulShutdown()
                try? await group.waitForAll()
                throw error
            }
        }
    }
}
