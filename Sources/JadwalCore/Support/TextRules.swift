import Crypto
import Foundation

/// Rules about text that several inputs share, kept in one place.
extension String {
    /// Names people type (accounts, calendars, devices) must not carry control characters.
    public var containsControlCharacters: Bool {
        unicodeScalars.contains { CharacterSet.controlCharacters.contains($0) }
    }

    /// Nothing but white space and line breaks: what `trimmingCharacters(in:
    /// .whitespacesAndNewlines)` leaves empty, decided scalar by scalar without bridging to
    /// NSString (which cost as much as encrypting the message, per message of an import).
    public var isBlank: Bool {
        unicodeScalars.allSatisfy { CharacterSet.whitespacesAndNewlines.contains($0) }
    }

    /// A refusal's description as a sentence a person reads: capitalised, with a full stop.
    public var asSentence: String {
        prefix(1).uppercased() + dropFirst() + "."
    }

    /// Lower-case hex SHA-256 of the UTF-8 text: token digests, content ETags, fingerprints.
    public var sha256Hex: String {
        // Hex by table: String(format:) per byte was a tenth of a calendar PUT's time.
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in SHA256.hash(data: Data(utf8)) {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}

public enum IANATimeZone {
    /// Only real IANA names: Foundation also accepts abbreviations like "EST", which are ambiguous.
    public static func isKnown(_ identifier: String) -> Bool {
        identifier == "UTC" || TimeZone.knownTimeZoneIdentifiers.contains(identifier)
    }
}
