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

    /// The account quota from `JADWAL_QUOTA_MB`, `JADWAL_QUOTA_OBJECTS` and
    /// `JADWAL_QUOTA_CALENDARS` (each optional; a missing one keeps its default).
    public static func accountQuota(environment: [String: String]) throws -> AccountQuota {
        var quota = AccountQuota()
        func whole(_ name: String, _ range: ClosedRange<Int>) throws -> Int? {
            guard let text = environment[name]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
            guard let value = Int(text), range.contains(value) else {
                throw ServerStartupError.configuration("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(text)")
            }
            return value
        }
        if let megabytes = try whole("JADWAL_QUOTA_MB", 1...16_777_216) { quota.bytes = Int64(megabytes) << 20 }
        if let objects = try whole("JADWAL_QUOTA_OBJECTS", 1...100_000_000) { quota.objects = objects }
        if let calendars = try whole("JADWAL_QUOTA_CALENDARS", 1...100_000) { quota.calendars = calendars }
        return quota
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
