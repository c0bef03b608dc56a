import JadwalCore
import Logging

/// The transport when no SMTP server is configured: the message goes to the log at `.notice`,
/// with its recipients, subject and text body, so a login link can be copied from the server output.
public struct LogMailTransport: MailTransport {
    private let logger: Logger

    public init(logger: Logger) {
        self.logger = logger
    }

    public func send(_ message: MailMessage) async throws {
        let recipients = message.to.map { address in
            address.name.map { "\($0) <\(address.email)>" } ?? address.email
        }
        logger.notice(
            """
            email not sent (no SMTP server configured)
            To: \(recipients.joined(separator: ", "))
            Subject: \(message.subject)

            \(message.textBody)
            """,
            metadata: [
                "mail.to": .array(message.to.map { .string($0.email) }),
                "mail.subject": .string(message.subject),
            ]
        )
    }
}
