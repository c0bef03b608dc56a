import Crypto
import Foundation

/// Rules about text that several inputs share, kept in one place.
extension String {
    /// Names people type (accounts, calendars, devices) must not carry control characters.
    public var containsControlCharacters: Bool {
        unicodeScalars.contains { CharacterSet.controlCharacters.contains($0) }
    }

    /// Lower-case hex SHA-256 of the UTF-8 text: token digests, content ETags, fingerprints.
    public var sha256Hex: String {
        SHA256.hash(data: Data(utf8)).map { String(format: "%02x", $0) }.joined()
    }
}

public enum IANATimeZone {
    /// Only real IANA names: Foundation also accepts abbreviations like "EST", which are ambiguous.
    public static func isKnown(_ identifier: String) -> Bool {
        identifier == "UTC" || TimeZone.knownTimeZoneIdentifiers.contains(identifier)
    }
}
