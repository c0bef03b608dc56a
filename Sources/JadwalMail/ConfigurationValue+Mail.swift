import Foundation
import JadwalCore

extension ConfigurationValue {
    /// `smtp://user:password@host:587` (STARTTLS required), `smtps://…:465` (TLS from the start).
    /// Query: `security=starttls|starttls-if-offered|none`, `ca=/path/to/ca.pem`, `helo=name`.
    public static func smtp(url: String) throws -> SMTPConfiguration {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              let host = components.host, !host.isEmpty
        else {
            throw ServerStartupError.configuration("JADWAL_SMTP_URL must look like smtp://user:password@mail.example.com:587")
        }
        var security: SMTPConfiguration.Security
        let defaultPort: Int
        switch scheme {
        case "smtp": (security, defaultPort) = (.startTLS, 587)
        case "smtps": (security, defaultPort) = (.implicitTLS, 465)
        default: throw ServerStartupError.configuration("JADWAL_SMTP_URL scheme must be smtp or smtps, not \(scheme)")
        }
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
        if let value = query["security"] {
            switch value {
            case "starttls": security = .startTLS
            case "starttls-if-offered": security = .startTLSIfOffered
            case "tls": security = .implicitTLS
            case "none": security = .none
            default:
                throw ServerStartupError.configuration("JADWAL_SMTP_URL security= must be starttls, starttls-if-offered, tls or none, not \(value)")
            }
        }
        var configuration = SMTPConfiguration(host: host, port: components.port ?? defaultPort, security: security)
        configuration.username = components.user?.removingPercentEncoding
        configuration.password = components.password?.removingPercentEncoding
        configuration.trustRootsFile = query["ca"]
        if let helo = query["helo"] { configuration.heloName = helo }
        return configuration
    }

    /// `Name <address@example.com>` or a bare address.
    public static func mailAddress(_ text: String) throws -> MailAddress {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let open = trimmed.lastIndex(of: "<"), trimmed.hasSuffix(">") {
            let name = trimmed[..<open].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            let address = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
            guard address.contains("@") else { throw ServerStartupError.configuration("JADWAL_MAIL_FROM: '\(address)' is not an email address") }
            return MailAddress(address, name: name.isEmpty ? nil : name)
        }
        guard trimmed.contains("@") else { throw ServerStartupError.configuration("JADWAL_MAIL_FROM: '\(trimmed)' is not an email address") }
        return MailAddress(trimmed)
    }
}
