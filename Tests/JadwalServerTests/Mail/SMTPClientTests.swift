import Foundation
import Logging
import NIOCore
import NIOPosix
import Testing

#if canImport(JadwalMail)
@testable import JadwalMail
#else
@testable import JadwalServer
import JadwalCore
@testable import JadwalHTTP
@testable import JadwalAPI
@testable import JadwalWeb
@testable import JadwalCalDAV
@testable import JadwalPush
@testable import JadwalLLM
@testable import JadwalJobs
#endif

private let logger: Logger = {
    var logger = Logger(label: "jadwal.smtp.test")
    logger.logLevel = ProcessInfo.processInfo.environment["JADWAL_TEST_SMTP_TRACE"] == nil ? .warning : .trace
    return logger
}()

private func loginMessage(to: [MailAddress] = [MailAddress("alice@example.org", name: "Alice")]) -> MailMessage {
    MailMessage(
        from: MailAddress("jadwal@example.com", name: "Jadwal"),
        to: to,
        subject: "Your Jadwal login link",
        textBody: "Hello Alice,\nOpen https://jadwal.example/login/abc123 within 15 minutes.\n"
    )
}

/// Runs `body` and returns the SMTPError it throws (recording an issue if it throws something else or nothing).
private func smtpError(_ body: () async throws -> Void) async -> SMTPError? {
    do {
        try await body()
        Issue.record("expected an SMTPError, but the call succeeded")
    } catch let error as SMTPError {
        return error
    } catch {
        Issue.record("expected an SMTPError, got \(type(of: error)): \(error)")
    }
    return nil
}

/// One server process per test; serialized so a loaded CI machine never has a dozen starting at once.
@Suite("SMTP client against a real SMTP server (aiosmtpd)", .serialized, .enabled(if: SMTPTestServer.shouldRun))
struct SMTPClientServerTests {
    @Test func plainSend() async throws {
        guard let server = try await SMTPTestServer.start() else { return }
        defer { server.stop() }
        let message = loginMessage(to: [MailAddress("alice@example.org", name: "Alice"), MailAddress("bob@example.org")])
        try await SMTPClient(configuration: server.configuration(security: .none), logger: logger).send(message)

        let received = try server.received()
        try #require(received.count == 1)
        #expect(received[0].envelope.mail_from == "jadwal@example.com")
        #expect(received[0].envelope.rcpt_tos == ["alice@example.org", "bob@example.org"])
        #expect(received[0].envelope.tls == false)
        #expect(received[0].envelope.authenticated == false)

        let parsed = try ParsedMail.parse(received[0].emlPath)
        #expect(parsed.defects.isEmpty)
        #expect(parsed.subject == "Your Jadwal login link")
        #expect(parsed.from == [.init(display_name: "Jadwal", addr_spec: "jadwal@example.com")])
        #expect(parsed.to.map(\.addr_spec) == ["alice@example.org", "bob@example.org"])
        #expect(parsed.content_type == "text/plain")
        #expect(parsed.parts.first?.content == message.textBody)
    }

    @Test func startTLSWithAuthPlain() async throws {
        guard let server = try await SMTPTestServer.start(["--starttls", "--auth", "jadwal:s3cret pass", "--auth-mechanisms", "PLAIN"]) else { return }
        defer { server.stop() }
        let configuration = server.configuration(security: .startTLS, username: "jadwal", password: "s3cret pass")
        try await SMTPClient(configuration: configuration, logger: logger).send(loginMessage())

        let received = try server.received()
        try #require(received.count == 1)
        #expect(received[0].envelope.tls)
        #expect(received[0].envelope.authenticated)
        #expect(received[0].envelope.auth_mechanism == "PLAIN")
        #expect(received[0].envelope.auth_login == "jadwal")
        #expect(received[0].envelope.rcpt_tos == ["alice@example.org"])
    }

    @Test func startTLSWithAuthLoginAndArabicPassword() async throws {
        guard let server = try await SMTPTestServer.start(["--starttls", "--auth", "فاطمة:كلمة-السر", "--auth-mechanisms", "LOGIN"]) else { return }
        defer { server.stop() }
        let configuration = server.configuration(security: .startTLSIfOffered, username: "فاطمة", password: "كلمة-السر")
        try await SMTPClient(configuration: configuration, logger: logger).send(loginMessage())

        let received = try server.received()
        try #require(received.count == 1)
        #expect(received[0].envelope.tls)
        #expect(received[0].envelope.authenticated)
        #expect(received[0].envelope.auth_mechanism == "LOGIN")
        #expect(received[0].envelope.auth_login == "فاطمة")
    }

    @Test func implicitTLSWithAuth() async throws {
        guard let server = try await SMTPTestServer.start(["--implicit-tls", "--auth", "jadwal:secret"]) else { return }
        defer { server.stop() }
        let configuration = server.configuration(security: .implicitTLS, username: "jadwal", password: "secret")
        try await SMTPClient(configuration: configuration, logger: logger).send(loginMessage())

        let received = try server.received()
        try #require(received.count == 1)
        #expect(received[0].envelope.tls)
        #expect(received[0].envelope.authenticated)
        #expect(received[0].envelope.auth_mechanism == "PLAIN")
    }

    @Test func wrongPasswordIsAPermanent535() async throws {
        guard let server = try await SMTPTestServer.start(["--starttls", "--auth", "jadwal:right"]) else { return }
        defer { server.stop() }
        let configuration = server.configuration(security: .startTLS, username: "jadwal", password: "wrong")
        let error = await smtpError { try await SMTPClient(configuration: configuration, logger: logger).send(loginMessage()) }
        #expect(error?.code == 535)
        #expect(error?.isPermanent == true)
        #expect(error?.message.contains("AUTH") == true)
        #expect(try server.received().isEmpty)
    }

    @Test func requiredStartTLSNotOfferedSendsNothing() async throws {
        guard let server = try await SMTPTestServer.start(["--auth", "jadwal:secret"]) else { return }
        defer { server.stop() }
        let configuration = server.configuration(security: .startTLS, username: "jadwal", password: "secret")
        let error = await smtpError { try await SMTPClient(configuration: configuration, logger: logger).send(loginMessage()) }
        #expect(error?.message.contains("does not offer STARTTLS") == true)
        #expect(error?.isPermanent == true)
        #expect(error?.code == nil)
        #expect(try server.received().isEmpty)
    }

    @Test func refusedRecipientsAreClassifiedByReplyCode() async throws {
        guard let server = try await SMTPTestServer.start() else { return }
        defer { server.stop() }
        let client = SMTPClient(configuration: server.configuration(security: .none), logger: logger)

        let busy = await smtpError {
            try await client.send(loginMessage(to: [MailAddress("alice@example.org"), MailAddress("busy@example.org")]))
        }
        #expect(busy?.code == 450)
        #expect(busy?.isPermanent == false)
        #expect(busy?.message.contains("Mailbox busy") == true)
        #expect(busy?.message.contains("busy@example.org") == true)

        let unknown = await smtpError { try await client.send(loginMessage(to: [MailAddress("nobody@example.org")])) }
        #expect(unknown?.code == 550)
        #expect(unknown?.isPermanent == true)

        // Nothing was delivered, and the connection state did not leak into the next send.
        #expect(try server.received().isEmpty)
        try await client.send(loginMessage())
        #expect(try server.received().map(\.envelope.rcpt_tos) == [["alice@example.org"]])
    }

    @Test func credentialsAreNotSentWithoutTLS() async throws {
        guard let server = try await SMTPTestServer.start(["--auth", "jadwal:secret"]) else { return }
        defer { server.stop() }
        let configuration = server.configuration(security: .startTLSIfOffered, username: "jadwal", password: "secret")
        let error = await smtpError { try await SMTPClient(configuration: configuration, logger: logger).send(loginMessage()) }
        #expect(error?.message.contains("refusing to send credentials without TLS") == true)
        #expect(try server.received().isEmpty)
    }

    @Test func untrustedCertificateIsRefused() async throws {
        guard let server = try await SMTPTestServer.start(["--starttls"]) else { return }
        defer { server.stop() }
        let configuration = server.configuration(security: .startTLS, trustCertificate: false)
        let error = await smtpError { try await SMTPClient(configuration: configuration, logger: logger).send(loginMessage()) }
        #expect(error?.isPermanent == false)
        #expect(error?.message.contains("TLS") == true)
        #expect(try server.received().isEmpty)
    }

    @Test func multipartWithArabicSubjectAndNamesRoundTrips() async throws {
        guard let server = try await SMTPTestServer.start() else { return }
        defer { server.stop() }
        let message = MailRenderingTests.arabicMessage(html: """
            <!doctype html>
            <html lang="ar" dir="rtl"><body>
            <p>مرحبا <b>فاطمة</b>،</p>
            <p><a href="https://jadwal.example/login?token=abc&amp;x=1">ادخل إلى جدول</a></p>
            </body></html>
            """)
        try await SMTPClient(configuration: server.configuration(security: .none), logger: logger).send(message)

        let received = try server.received()
        try #require(received.count == 1)
        #expect(received[0].envelope.rcpt_tos == ["fatima@example.org", "bob@example.org", "carol@example.org"])

        // Python's email package decodes what we encoded.
        let parsed = try ParsedMail.parse(received[0].emlPath)
        #expect(parsed.defects.isEmpty)
        #expect(parsed.subject == MailRenderingTests.arabicSubject)
        #expect(parsed.from == [.init(display_name: "جدول — التقويم", addr_spec: "jadwal@example.com")])
        #expect(parsed.to == [
            .init(display_name: "فاطمة الزهراء بنت محمد", addr_spec: "fatima@example.org"),
            .init(display_name: "Bob \"The Builder\" O'Neil", addr_spec: "bob@example.org"),
            .init(display_name: "", addr_spec: "carol@example.org"),
        ])
        #expect(parsed.content_type == "multipart/alternative")
        #expect(parsed.parts.map(\.content_type) == ["text/plain", "text/html"])
        #expect(parsed.parts.map(\.charset) == ["utf-8", "utf-8"])
        #expect(parsed.parts.first?.content == message.textBody)
        #expect(parsed.parts.last?.content == message.htmlBody)

        // And so does our own reading of the bytes as they arrived.
        let raw = String(decoding: received[0].raw, as: UTF8.self)
        let subject = try #require(MailTestText.header("Subject", in: raw))
        #expect(MailTestText.decodeEncodedWords(subject) == MailRenderingTests.arabicSubject)
        for line in MailTestText.headerLines(raw) where line.contains("=?") {
            #expect(line.count <= 76, "\(line)")
        }
    }

    @Test func dotStuffingKeepsLinesThatStartWithADot() async throws {
        guard let server = try await SMTPTestServer.start() else { return }
        defer { server.stop() }
        var message = loginMessage()
        message.textBody = "first\n.\n.leading dot\n..two dots\n.\r\nlast line"
        message.htmlBody = ".<p>html starting with a dot</p>\n.\n"
        try await SMTPClient(configuration: server.configuration(security: .none), logger: logger).send(message)

        let received = try server.received()
        try #require(received.count == 1)
        let raw = String(decoding: received[0].raw, as: UTF8.self)
        #expect(raw.contains("\r\nfirst\r\n.\r\n.leading dot\r\n..two dots\r\n.\r\nlast line\r\n"))
        let parsed = try ParsedMail.parse(received[0].emlPath)
        #expect(parsed.parts.first?.content == "first\n.\n.leading dot\n..two dots\n.\nlast line")
        #expect(parsed.parts.last?.content == message.htmlBody)
    }

    @Test func severalMessagesOneAfterAnother() async throws {
        guard let server = try await SMTPTestServer.start(["--starttls"]) else { return }
        defer { server.stop() }
        let client = SMTPClient(configuration: server.configuration(security: .startTLS), logger: logger)
        for n in 1...3 {
            var message = loginMessage()
            message.subject = "message \(n)"
            try await client.send(message)
        }
        let subjects = try server.received().map { try ParsedMail.parse($0.emlPath).subject }
        #expect(subjects == ["message 1", "message 2", "message 3"])
    }
}

@Suite("SMTP client failures without a server")
struct SMTPClientConnectionTests {
    @Test func closedPortIsATransientErrorWithoutHanging() async throws {
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(listener.localAddress?.port)
        try await listener.close()

        // A long step timeout: a refused connection must fail as "cannot connect", not by
        // waiting for it (no wall-clock bound here: they flake on shared machines).
        let configuration = SMTPConfiguration(host: "127.0.0.1", port: port, security: .none, timeout: .seconds(120))
        let error = await smtpError { try await SMTPClient(configuration: configuration, logger: logger).send(loginMessage()) }
        #expect(error?.message.contains("cannot connect") == true)
        #expect(error?.message.contains("timed out") == false)
        #expect(error?.isPermanent == false)
        #expect(error?.code == nil)
        #expect(error?.message.contains("127.0.0.1:\(port)") == true)
    }

    @Test func silentServerTimesOut() async throws {
        // Accepts connections and never says anything.
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in channel.eventLoop.makeSucceededVoidFuture() }
            .bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(listener.localAddress?.port)

        let configuration = SMTPConfiguration(host: "127.0.0.1", port: port, security: .none, timeout: .milliseconds(500))
        let start = ContinuousClock.now
        let error = await smtpError { try await SMTPClient(configuration: configuration, logger: logger).send(loginMessage()) }
        let elapsed = ContinuousClock.now - start
        try await listener.close()
        // It waited for the timeout (a lower bound holds under any load); the upper bound only catches a hang.
        #expect(elapsed >= .milliseconds(450) && elapsed < .seconds(60))
        #expect(error?.isPermanent == false)
        #expect(error?.message.contains("timed out") == true)
        #expect(error?.message.contains("greeting") == true)
    }
}
