import Foundation
import JadwalCore

/// Header and body encodings for outgoing mail (RFC 2045 quoted-printable and base64,
/// RFC 2047 encoded-words, RFC 5322 folding and dates).
package enum MIMEEncoding {
    /// Lines that carry encoded-words may be at most 76 characters (RFC 2047 §2).
    package static let maxHeaderLine = 76
    /// An encoded-word may be at most 75 characters (RFC 2047 §2).
    package static let maxEncodedWord = 75
    /// The hard limit for any line (RFC 5322 §2.1.1), without the CRLF.
    package static let maxLine = 998

    // MARK: Line ends

    /// Every CR, LF and CRLF becomes CRLF.
    package static func normalizeLineEndings(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\r":
                out.append("\r")
                out.append("\n")
                previousWasCR = true
            case "\n":
                if !previousWasCR {
                    out.append("\r")
                    out.append("\n")
                }
                previousWasCR = false
            default:
                out.append(scalar)
                previousWasCR = false
            }
        }
        return String(out)
    }

    /// True when CRLF-separated `text` is printable ASCII (and tabs) in lines of at most 998 octets.
    package static func isSevenBitSafe(_ text: String) -> Bool {
        var lineLength = 0
        var previousWasCR = false
        for byte in text.utf8 {
            if previousWasCR {
                guard byte == 0x0A else { return false }
                previousWasCR = false
                lineLength = 0
                continue
            }
            switch byte {
            case 0x0D: previousWasCR = true
            case 0x09, 0x20...0x7E:
                lineLength += 1
                if lineLength > maxLine { return false }
            default: return false
            }
        }
        return !previousWasCR
    }

    // MARK: Bodies

    /// Base64 in lines of 76 characters separated by CRLF.
    package static func base64Lines(_ bytes: [UInt8]) -> String {
        let encoded = Data(bytes).base64EncodedString()
        var lines: [Substring] = []
        var index = encoded.startIndex
        while index < encoded.endIndex {
            let end = encoded.index(index, offsetBy: 76, limitedBy: encoded.endIndex) ?? encoded.endIndex
            lines.append(encoded[index..<end])
            index = end
        }
        return lines.joined(separator: "\r\n")
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// Quoted-printable (RFC 2045 §6.7) of CRLF-separated text; encoded lines are at most 76 characters.
    package static func quotedPrintable(_ text: String) -> String {
        var output: [UInt8] = []
        let lines = Array(text.utf8).split(separator: 0x0A, omittingEmptySubsequences: false)
        for (lineIndex, rawLine) in lines.enumerated() {
            var line = Array(rawLine)
            if line.last == 0x0D { line.removeLast() }
            if lineIndex > 0 { output += [0x0D, 0x0A] }
            var column = 0
            for (byteIndex, byte) in line.enumerated() {
                let isLast = byteIndex == line.count - 1
                let token: [UInt8]
                switch byte {
                case 0x09, 0x20:
                    token = isLast ? escape(byte) : [byte]
                case 0x21...0x7E where byte != 0x3D:
                    token = [byte]
                default:
                    token = escape(byte)
                }
                // Leave room for the "=" of a soft line break unless this is the line's last token.
                let limit = isLast ? maxHeaderLine : maxHeaderLine - 1
                if column + token.count > limit {
                    output += [0x3D, 0x0D, 0x0A]
                    column = 0
                }
                output += token
                column += token.count
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func escape(_ byte: UInt8) -> [UInt8] {
        [0x3D, hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
    }

    // MARK: Headers

    /// Control characters (CR and LF above all) never reach a header: they become spaces.
    package static func sanitizeHeaderText(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let isBreak = scalar.properties.generalCategory == .control
                || scalar.value == 0x2028 || scalar.value == 0x2029
            out.append(isBreak ? Unicode.Scalar(0x20) : scalar)
        }
        return String(out)
    }

    /// Whether `text` must be carried in encoded-words: anything beyond printable ASCII, or
    /// something a decoder could mistake for an encoded-word.
    package static func needsEncoding(_ text: String) -> Bool {
        text.utf8.contains { $0 < 0x20 || $0 > 0x7E } || text.contains("=?")
    }

    /// `text` as UTF-8 "B" encoded-words, never splitting a character (grapheme cluster when it
    /// fits, otherwise a Unicode scalar). The first word is at most `firstLength` characters long,
    /// the others at most `length`.
    package static func encodedWords(_ text: String, firstLength: Int, length: Int) -> [String] {
        let overhead = "=?UTF-8?B??=".count
        func payloadBytes(_ wordLength: Int) -> Int { max(1, (wordLength - overhead) / 4) * 3 }

        var words: [String] = []
        var chunk: [UInt8] = []
        var capacity = payloadBytes(firstLength)
        func flush() {
            guard !chunk.isEmpty else { return }
            words.append("=?UTF-8?B?" + Data(chunk).base64EncodedString() + "?=")
            chunk = []
            capacity = payloadBytes(length)
        }
        for character in text {
            let bytes = Array(String(character).utf8)
            if bytes.count <= payloadBytes(length) {
                if chunk.count + bytes.count > capacity { flush() }
                chunk += bytes
            } else {
                // A very long grapheme cluster (e.g. an emoji sequence): split between scalars.
                for scalar in character.unicodeScalars {
                    let scalarBytes = Array(String(scalar).utf8)
                    if chunk.count + scalarBytes.count > capacity { flush() }
                    chunk += scalarBytes
                }
            }
        }
        flush()
        return words.isEmpty ? ["=?UTF-8?B??="] : words
    }

    /// An unstructured header (Subject). Plain ASCII is folded at spaces; anything else becomes
    /// encoded-words, one per line, each line at most 76 characters.
    package static func unstructuredHeader(name: String, value: String) -> String {
        let clean = sanitizeHeaderText(value)
        let prefix = name + ":"
        if !needsEncoding(clean) {
            let words = clean.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            if words.allSatisfy({ $0.count <= maxLine - 1 - prefix.count }) {
                return fold(prefix: prefix, tokens: words, limit: 78)
            }
        }
        let words = encodedWords(
            clean,
            firstLength: min(maxEncodedWord, maxHeaderLine - prefix.count - 1),
            length: maxEncodedWord
        )
        return prefix + " " + words.joined(separator: "\r\n ")
    }

    /// "From"/"To" with display names: ASCII names as atoms or quoted-strings, other names as
    /// encoded-words; folded between tokens at 76 characters.
    package static func addressHeader(name: String, addresses: [MailAddress]) -> String {
        var tokens: [String] = []
        for (index, address) in addresses.enumerated() {
            var addressTokens = mailboxTokens(address)
            if index < addresses.count - 1, let last = addressTokens.popLast() {
                addressTokens.append(last + ",")
            }
            tokens += addressTokens
        }
        return fold(prefix: name + ":", tokens: tokens, limit: maxHeaderLine)
    }

    private static let atext = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-/=?^_`{|}~".utf8)

    package static func mailboxTokens(_ address: MailAddress) -> [String] {
        let email = sanitizeHeaderText(address.email).replacingOccurrences(of: " ", with: "")
        let displayName = sanitizeHeaderText(address.name ?? "").trimmingCharacters(in: .whitespaces)
        guard !displayName.isEmpty else { return [email] }
        let angle = "<" + email + ">"
        if needsEncoding(displayName) {
            return phraseWords(displayName) + [angle]
        }
        let words = displayName.split(separator: " ")
        if words.allSatisfy({ $0.utf8.allSatisfy { atext.contains($0) } }) {
            return words.map(String.init) + [angle]
        }
        let quoted = displayName
            .replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "\"", with: "\\\"")
        return ["\"" + quoted + "\"", angle]
    }

    /// A display name as encoded-words of at most 75 characters: one word when it fits, otherwise
    /// split after spaces (each space stays inside the word before it, as RFC 2047 decoders drop
    /// the whitespace between adjacent encoded-words). Splitting only at spaces also keeps names
    /// intact for decoders that, unlike RFC 2047, keep that whitespace (Python's address parser):
    /// they show at worst a doubled space, never a space inside a word.
    package static func phraseWords(_ name: String) -> [String] {
        let maxBytes = (maxEncodedWord - "=?UTF-8?B??=".count) / 4 * 3
        func word(_ text: String) -> String { "=?UTF-8?B?" + Data(text.utf8).base64EncodedString() + "?=" }
        guard name.utf8.count > maxBytes else { return [word(name)] }

        var pieces: [String] = []
        var current = ""
        for character in name {
            current.append(character)
            if character == " " {
                pieces.append(current)
                current = ""
            }
        }
        if !current.isEmpty { pieces.append(current) }

        var words: [String] = []
        var chunk = ""
        for piece in pieces {
            if chunk.utf8.count + piece.utf8.count <= maxBytes {
                chunk += piece
                continue
            }
            if !chunk.isEmpty { words.append(word(chunk)) }
            chunk = ""
            if piece.utf8.count <= maxBytes {
                chunk = piece
            } else {
                words += encodedWords(piece, firstLength: maxEncodedWord, length: maxEncodedWord)
            }
        }
        if !chunk.isEmpty { words.append(word(chunk)) }
        return words
    }

    /// Joins tokens with single spaces, starting a continuation line before a token that
    /// would make the current line longer than `limit` (even the first one: "To:" may stand alone).
    package static func fold(prefix: String, tokens: [String], limit: Int) -> String {
        var out = prefix
        var lineLength = prefix.count
        var tokensOnLine = 0
        for token in tokens {
            if lineLength + 1 + token.count > limit && (tokensOnLine > 0 || token.count < limit) {
                out += "\r\n " + token
                lineLength = 1 + token.count
                tokensOnLine = 1
            } else {
                out += " " + token
                lineLength += 1 + token.count
                tokensOnLine += 1
            }
        }
        return out
    }

    package static func messageIDHeaderValue(_ messageID: String) -> String {
        let clean = sanitizeHeaderText(messageID).replacingOccurrences(of: " ", with: "")
        if clean.hasPrefix("<") && clean.hasSuffix(">") { return clean }
        return "<" + clean + ">"
    }

    /// RFC 5322 date in UTC, e.g. "Sat, 21 Nov 2026 06:55:25 +0000".
    package static func rfc5322Date(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let weekday = days[((c.weekday ?? 1) - 1 + 7) % 7]
        let month = months[((c.month ?? 1) - 1 + 12) % 12]
        func two(_ n: Int?) -> String { let v = n ?? 0; return v < 10 ? "0\(v)" : "\(v)" }
        return "\(weekday), \(two(c.day)) \(month) \(c.year ?? 1970) \(two(c.hour)):\(two(c.minute)):\(two(c.second)) +0000"
    }

    /// A multipart boundary derived from `seed` (so rendering is deterministic) that occurs in
    /// none of `avoiding`. "=_" cannot occur in quoted-printable or base64 output at all.
    package static func boundary(seed: String, avoiding contents: [String]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in seed.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        var attempt = 0
        while true {
            let candidate = "=_jadwal_" + String(hash, radix: 16) + (attempt == 0 ? "" : "_\(attempt)")
            if !contents.contains(where: { $0.contains(candidate) }) { return candidate }
            attempt += 1
        }
    }

    // MARK: SMTP

    /// Dot-stuffing for DATA (RFC 5321 §4.5.2): a line that starts with "." gets another ".".
    /// The result ends with CRLF, ready for the terminating ".\r\n".
    package static func dotStuffed(_ message: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(message.utf8.count + 16)
        var atLineStart = true
        for byte in message.utf8 {
            if atLineStart && byte == UInt8(ascii: ".") { out.append(UInt8(ascii: ".")) }
            out.append(byte)
            atLineStart = byte == 0x0A
        }
        if !out.isEmpty && !(out.count >= 2 && out[out.count - 2] == 0x0D && out[out.count - 1] == 0x0A) {
            out += [0x0D, 0x0A]
        }
        return out
    }
}
