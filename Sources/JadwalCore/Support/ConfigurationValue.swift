import Foundation
import Logging

/// Reading configuration values people type (flags, environment variables) into typed settings,
/// with errors that name the setting. Adapters add their own readers in extensions (`smtp(url:)`
/// in JadwalMail, the APNs and LLM settings in theirs).
public enum ConfigurationValue {
    public static func logLevel(_ text: String) throws -> Logger.Level {
        guard let level = Logger.Level(rawValue: text.lowercased()) else {
            throw ServerStartupError.configuration(
                "log level must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")), not \(text)")
        }
        return level
    }

    public static func bool(_ text: String, name: String) throws -> Bool {
        switch text.lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off", "": return false
        default: throw ServerStartupError.configuration("\(name) must be true or false, not \(text)")
        }
    }
}

/// A setting that stops the server from starting, with the sentence that names it.
public enum ServerStartupError: Error, CustomStringConvertible {
    case tls(String)
    case configuration(String)

    public var description: String {
        switch self {
        case .tls(let message): "TLS: \(message)"
        case .configuration(let message): message
        }
    }
}
