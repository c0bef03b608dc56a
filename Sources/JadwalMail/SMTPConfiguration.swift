import Foundation
import JadwalCore

/// Where and how to submit mail.
public struct SMTPConfiguration: Sendable {
    public enum Security: String, Sendable {
        /// STARTTLS is required: fail (before any credentials or mail are sent) if the server does not offer it.
        case startTLS
        /// STARTTLS when the server offers it, otherwise plain text. Credentials are never sent in plain text.
        case startTLSIfOffered
        /// TLS from the first byte (usually port 465).
        case implicitTLS
        /// Plain text only (a local relay). Credentials, if configured, are sent in plain text.
        case none
    }

    public var host: String
    public var port: Int
    public var security: Security
    public var username: String?
    public var password: String?
    /// The name sent with EHLO.
    public var heloName: String
    /// A PEM CA bundle to trust instead of the system roots; nil = system defaults.
    public var trustRootsFile: String?
    /// The limit for each step of the dialogue (connect, each reply, each write).
    public var timeout: Duration

    public init(
        host: String,
        port: Int = 587,
        security: Security = .startTLS,
        username: String? = nil,
        password: String? = nil,
        heloName: String = "localhost",
        trustRootsFile: String? = nil,
        timeout: Duration = .seconds(30)
    ) {
        self.host = host
        self.port = port
        self.security = security
        self.username = username
        self.password = password
        self.heloName = heloName
        self.trustRootsFile = trustRootsFile
        self.timeout = timeout
    }
}

/// A failed submission. `isPermanent` errors (5xx replies, invalid addresses, a server that
/// cannot satisfy the configured security) will fail again if retried; 4xx replies, timeouts and
/// connection failures are transient.
public struct SMTPError: Error, Sendable, CustomStringConvertible {
    /// The server's reply code, nil when the failure was not a reply (connection, timeout, TLS).
    public var code: Int?
    /// What went wrong, with the server's reply text when there was one.
    public var message: String
    public var isPermanent: Bool

    public init(code: Int?, message: String, isPermanent: Bool) {
        self.code = code
        self.message = message
        self.isPermanent = isPermanent
    }

    public var description: String {
        let kind = isPermanent ? "permanent" : "transient"
        if let code { return "SMTP error \(code) (\(kind)): \(message)" }
        return "SMTP error (\(kind)): \(message)"
    }
}
