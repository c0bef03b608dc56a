import Foundation
import JadwalCore
import Logging
import NIOCore
import NIOPosix
import NIOSSL

/// Submits mail to an SMTP server (RFC 5321) over SwiftNIO: EHLO, STARTTLS or implicit TLS,
/// AUTH PLAIN/LOGIN, one transaction per message, QUIT. One connection per `send`.
public struct SMTPClient: MailTransport {
    public let configuration: SMTPConfiguration
    private let eventLoopGroup: any EventLoopGroup
    private let logger: Logger

    public init(
        configuration: SMTPConfiguration,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger
    ) {
        self.configuration = configuration
        self.eventLoopGroup = eventLoopGroup
        self.logger = logger
    }

    public func send(_ message: MailMessage) async throws {
        var logger = self.logger
        logger[metadataKey: "smtp.server"] = "\(configuration.host):\(configuration.port)"

        // Refuse anything that could smuggle commands into the dialogue before connecting.
        try Self.validateCommandArgument(configuration.heloName, what: "EHLO name")
        try Self.validateAddress(message.from.email)
        guard !message.to.isEmpty else {
            throw SMTPError(code: nil, message: "the message has no recipients", isPermanent: true)
        }
        for recipient in message.to { try Self.validateAddress(recipient.email) }

        let domain = message.from.email.split(separator: "@").last.map(String.init) ?? configuration.heloName
        let rendered = message.rendered(date: Date(), messageID: "<\(UUID().uuidString.lowercased())@\(domain)>")

        let session = try await SMTPSession.connect(
            configuration: configuration, group: eventLoopGroup, logger: logger
        )
        do {
            try await session.deliver(message, rendered: rendered)
        } catch {
            await session.abandon(after: error)
            throw Self.mapped(error, configuration: configuration)
        }
        await session.quit()
        logger.info("mail sent", metadata: ["mail.to": "\(message.to.map(\.email))"])
    }

    package static func validateAddress(_ email: String) throws(SMTPError) {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count >= 2, parts.allSatisfy({ !$0.isEmpty }) else {
            throw SMTPError(code: nil, message: "invalid email address \(email.debugDescription)", isPermanent: true)
        }
        try validateCommandArgument(email, what: "email address")
        if email.contains(where: { "<>()[],;\\\"".contains($0) }) {
            throw SMTPError(code: nil, message: "invalid email address \(email.debugDescription)", isPermanent: true)
        }
    }

    package static func validateCommandArgument(_ value: String, what: String) throws(SMTPError) {
        guard !value.isEmpty, value.utf8.count <= 254,
              !value.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.properties.generalCategory == .control })
        else {
            throw SMTPError(code: nil, message: "invalid \(what) \(value.debugDescription)", isPermanent: true)
        }
    }

    /// Every error that leaves `send` is an `SMTPError`.
    package static func mapped(_ error: any Error, configuration: SMTPConfiguration) -> SMTPError {
        if let error = error as? SMTPError { return error }
        let server = "\(configuration.host):\(configuration.port)"
        if let error = error as? NIOSSLError {
            return SMTPError(code: nil, message: "TLS with \(server) failed: \(error)", isPermanent: false)
        }
        if let error = error as? BoringSSLError {
            return SMTPError(code: nil, message: "TLS with \(server) failed: \(error)", isPermanent: false)
        }
        return SMTPError(code: nil, message: "connection to \(server) failed: \(error)", isPermanent: false)
    }
}

/// One connection's dialogue. Not shared between tasks: it lives inside one `send`.
package final class SMTPSession {
    private let channel: any Channel
    private let continuation: AsyncThrowingStream<SMTPReply, any Error>.Continuation
    private var replies: AsyncThrowingStream<SMTPReply, any Error>.AsyncIterator
    private let configuration: SMTPConfiguration
    private let stepTimeout: TimeAmount
    private let logger: Logger
    private var isTLS: Bool
    private var extensions: [String: [String]] = [:]

    private init(
        channel: any Channel,
        stream: AsyncThrowingStream<SMTPReply, any Error>,
        continuation: AsyncThrowingStream<SMTPReply, any Error>.Continuation,
        configuration: SMTPConfiguration,
        logger: Logger
    ) {
        self.channel = channel
        self.replies = stream.makeAsyncIterator()
        self.continuation = continuation
        self.configuration = configuration
        self.stepTimeout = Self.timeAmount(configuration.timeout)
        self.logger = logger
        self.isTLS = configuration.security == .implicitTLS
    }

    package static func timeAmount(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        let limit = Int64.max / 1_000_000_000 - 1
        guard seconds < limit else { return .nanoseconds(Int64.max) }
        return .nanoseconds(max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
    }

    package static func makeTLSContext(_ configuration: SMTPConfiguration) throws -> NIOSSLContext {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.minimumTLSVersion = .tlsv12
        if let file = configuration.trustRootsFile {
            tls.trustRoots = .file(file)
        }
        do {
            return try NIOSSLContext(configuration: tls)
        } catch {
            throw SMTPError(code: nil, message: "cannot set up TLS (trust roots \(configuration.trustRootsFile ?? "system")): \(error)", isPermanent: true)
        }
    }

    /// The SNI and certificate name: a host name, or nil for an IP address (then NIOSSL checks
    /// the certificate against the peer's address).
    package static func serverHostname(_ host: String) -> String? {
        if (try? SocketAddress(ipAddress: host, port: 0)) != nil { return nil }
        return host
    }

    package static func connect(configuration: SMTPConfiguration, group: any EventLoopGroup, logger: Logger) async throws -> SMTPSession {
        let (stream, continuation) = AsyncThrowingStream<SMTPReply, any Error>.makeStream()
        let tlsContext: NIOSSLContext? = configuration.security == .none ? nil : try makeTLSContext(configuration)
        let implicitTLS = configuration.security == .implicitTLS
        let hostname = serverHostname(configuration.host)
        let timeout = timeAmount(configuration.timeout)

        let bootstrap = ClientBootstrap(group: group)
            .connectTimeout(timeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if implicitTLS, let tlsContext {
                        try channel.pipeline.syncOperations.addHandler(
                            NIOSSLClientHandler(context: tlsContext, serverHostname: hostname)
                        )
                    }
                    try channel.pipeline.syncOperations.addHandler(SMTPReplyHandler(continuation: continuation))
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.connect(host: configuration.host, port: configuration.port).get()
        } catch {
            continuation.finish()
            throw SMTPError(
                code: nil,
                message: "cannot connect to \(configuration.host):\(configuration.port): \(error)",
                isPermanent: false
            )
        }
        return SMTPSession(
            channel: channel, stream: stream, continuation: continuation,
            configuration: configuration, logger: logger
        )
    }

    // MARK: The dialogue

    package func deliver(_ message: MailMessage, rendered: String) async throws {
        try await expect(readReply(step: "greeting"), 220, step: "greeting")
        try await hello()

        switch configuration.security {
        case .startTLS:
            guard extensions["STARTTLS"] != nil else {
                throw SMTPError(
                    code: nil,
                    message: "\(configuration.host):\(configuration.port) does not offer STARTTLS, which the configuration requires (security: startTLS); nothing was sent",
                    isPermanent: true
                )
            }
            try await startTLS()
        case .startTLSIfOffered:
            if extensions["STARTTLS"] != nil { try await startTLS() }
        case .implicitTLS, .none:
            break
        }

        if let username = configuration.username {
            try await authenticate(username: username, password: configuration.password ?? "")
        }

        let needsUTF8 = ([message.from] + message.to).contains { $0.email.utf8.contains { $0 >= 0x80 } }
        var mailFrom = "MAIL FROM:<\(message.from.email)>"
        if needsUTF8 {
            guard extensions["SMTPUTF8"] != nil else {
                throw SMTPError(code: nil, message: "an address is not ASCII and the server does not offer SMTPUTF8", isPermanent: true)
            }
            mailFrom += " SMTPUTF8"
        }
        try await command(mailFrom, expecting: [250], step: "MAIL FROM")
        for recipient in message.to {
            try await command("RCPT TO:<\(recipient.email)>", expecting: [250, 251], step: "RCPT TO <\(recipient.email)>")
        }
        try await command("DATA", expecting: [354], step: "DATA")

        var data = channel.allocator.buffer(capacity: rendered.utf8.count + 64)
        data.writeBytes(MIMEEncoding.dotStuffed(rendered))
        data.writeString(".\r\n")
        try await write(data, step: "message data")
        try await expect(readReply(step: "end of data"), 250, step: "end of data")
    }

    /// EHLO, falling back to HELO for servers that do not know it; records the extensions.
    private func hello() async throws {
        try await write("EHLO \(configuration.heloName)")
        let reply = try await readReply(step: "EHLO")
        if reply.code == 250 {
            extensions = [:]
            for line in reply.lines.dropFirst() {
                let words = line.split(separator: " ").map(String.init)
                guard let keyword = words.first else { continue }
                extensions[keyword.uppercased()] = Array(words.dropFirst())
            }
            logger.debug("EHLO", metadata: ["smtp.extensions": "\(extensions.keys.sorted())"])
            return
        }
        guard reply.code == 500 || reply.code == 502 else {
            try expect(reply, 250, step: "EHLO")
            return
        }
        extensions = [:]
        try await command("HELO \(configuration.heloName)", expecting: [250], step: "HELO")
    }

    private func startTLS() async throws {
        let context = try Self.makeTLSContext(configuration)
        try await write("STARTTLS")
        let reply = try await readReply(step: "STARTTLS")
        try expect(reply, 220, step: "STARTTLS")
        guard !reply.followedByBufferedData else {
            throw SMTPError(code: nil, message: "the server sent data after agreeing to STARTTLS (possible injection); aborted", isPermanent: false)
        }
        let hostname = Self.serverHostname(configuration.host)
        try await withStepTimeout("TLS handshake") {
            try await channel.eventLoop.submit { [channel] in
                let handler = try NIOSSLClientHandler(context: context, serverHostname: hostname)
                try channel.pipeline.syncOperations.addHandler(handler, position: .first)
            }.get()
        }
        isTLS = true
        // RFC 3207 §4.2: forget everything learned before TLS and greet again.
        try await hello()
    }

    private func authenticate(username: String, password: String) async throws {
        guard isTLS || configuration.security == .none else {
            throw SMTPError(
                code: nil,
                message: "refusing to send credentials without TLS: \(configuration.host):\(configuration.port) did not offer STARTTLS (set security to none to allow plain-text AUTH)",
                isPermanent: true
            )
        }
        guard let offered = extensions["AUTH"].map({ Set($0.map { $0.uppercased() }) }) else {
            throw SMTPError(code: nil, message: "credentials are configured but the server offers no AUTH", isPermanent: true)
        }
        func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }

        if offered.contains("PLAIN") {
            logger.debug("AUTH PLAIN")
            try await command(
                "AUTH PLAIN " + base64("\u{0}\(username)\u{0}\(password)"),
                expecting: [235], step: "AUTH PLAIN", logAs: "AUTH PLAIN <credentials>"
            )
        } else if offered.contains("LOGIN") {
            logger.debug("AUTH LOGIN")
            try await command("AUTH LOGIN", expecting: [334], step: "AUTH LOGIN")
            try await command(base64(username), expecting: [334], step: "AUTH LOGIN (user name)", logAs: "<user name>")
            try await command(base64(password), expecting: [235], step: "AUTH LOGIN (password)", logAs: "<password>")
        } else {
            throw SMTPError(
                code: nil,
                message: "the server offers AUTH \(offered.sorted().joined(separator: " ")) but only PLAIN and LOGIN are supported",
                isPermanent: true
            )
        }
    }

    /// Best-effort QUIT after a successful transaction, then close.
    package func quit() async {
        do {
            try await write("QUIT")
            _ = try await readReply(step: "QUIT")
        } catch {
            logger.debug("QUIT failed", metadata: ["error": "\(error)"])
        }
        await close()
    }

    /// After a failure: say QUIT if the server is still talking to us (it rejected something), then close.
    package func abandon(after error: any Error) async {
        if error is SMTPError, channel.isActive {
            try? await write("QUIT")
            _ = try? await readReply(step: "QUIT")
        }
        await close()
    }

    private func close() async {
        continuation.finish()
        try? await channel.close()
    }

    // MARK: Steps

    private func command(_ line: String, expecting codes: Set<Int>, step: String, logAs: String? = nil) async throws {
        try await write(line, logAs: logAs)
        let reply = try await readReply(step: step)
        guard codes.contains(reply.code) else {
            throw Self.failure(reply, step: step)
        }
    }

    private func expect(_ reply: SMTPReply, _ code: Int, step: String) throws {
        guard reply.code == code else { throw Self.failure(reply, step: step) }
    }

    package static func failure(_ reply: SMTPReply, step: String) -> SMTPError {
        SMTPError(
            code: reply.code,
            message: "\(step) was answered \(reply.code) \(reply.text)",
            isPermanent: reply.isPermanentFailure
        )
    }

    private func write(_ line: String, logAs: String? = nil) async throws {
        logger.trace("C: \(logAs ?? line)")
        var buffer = channel.allocator.buffer(capacity: line.utf8.count + 2)
        buffer.writeString(line)
        buffer.writeString("\r\n")
        try await write(buffer, step: logAs ?? line)
    }

    private func write(_ buffer: ByteBuffer, step: String) async throws {
        do {
            try await withStepTimeout("writing \(step)") {
                try await channel.writeAndFlush(buffer)
            }
        } catch let writeError {
            if writeError is SMTPError { throw writeError }
            // The connection failed; the reply stream holds the cause (a TLS alert, a reset, ...).
            // Closing first guarantees the stream ends, so this cannot wait.
            try? await channel.close()
            while try await replies.next() != nil {}
            throw writeError
        }
    }

    private func readReply(step: String) async throws -> SMTPReply {
        let reply = try await withStepTimeout("the reply to \(step)") {
            try await replies.next()
        }
        guard let reply else {
            throw SMTPError(code: nil, message: "the connection ended while waiting for the reply to \(step)", isPermanent: false)
        }
        logger.trace("S: \(reply.code) \(reply.text)")
        return reply
    }

    /// Runs one step; if it takes longer than the configured timeout the connection is closed
    /// and the step fails with a transient timeout error.
    private func withStepTimeout<T>(_ step: String, _ body: () async throws -> T) async throws -> T {
        let timeoutError = SMTPError(
            code: nil,
            message: "timed out after \(configuration.timeout) waiting for \(step) from \(configuration.host):\(configuration.port)",
            isPermanent: false
        )
        let fired = TimeoutFlag()
        let continuation = self.continuation
        let channel = self.channel
        let scheduled = channel.eventLoop.scheduleTask(in: stepTimeout) {
            fired.set()
            continuation.finish(throwing: timeoutError)
            channel.close(promise: nil)
        }
        defer { scheduled.cancel() }
        do {
            return try await body()
        } catch {
            if fired.isSet { throw timeoutError }
            throw error
        }
    }
}

/// Set once by the timeout task on the event loop, read by the waiting task.
private final class TimeoutFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    package func set() { lock.withLock { value = true } }
    package var isSet: Bool { lock.withLock { value } }
}
