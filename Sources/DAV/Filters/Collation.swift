import Foundation

/// A comparator from the IANA collation registry (RFC 4790) as CalDAV uses them (RFC 4791 §7.5).
///
/// Each collation maps a string to a canonical byte sequence; equality and substring operations
/// then work on those bytes, which is how RFC 4790 defines them.
public enum Collation: String, Sendable, Hashable, CaseIterable {
    /// RFC 4790 §9.3: exact octets.
    case octet = "i;octet"
    /// RFC 4790 §9.2: only a–z fold to A–Z; every other octet is compared as is.
    case asciiCasemap = "i;ascii-casemap"
    /// RFC 5051: simple titlecase mapping per character, then NFKD.
    case unicodeCasemap = "i;unicode-casemap"

    /// RFC 4791 §7.5.1: text-match defaults to i;ascii-casemap.
    public static let defaultForTextMatch: Collation = .asciiCasemap

    /// The canonical form this collation compares.
    public func key(_ text: String) -> [UInt8] {
        switch self {
        case .octet:
            return Array(text.utf8)
        case .asciiCasemap:
            return text.utf8.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }
        case .unicodeCasemap:
            return Array(Self.unicodeCasemapKey(text).utf8)
        }
    }

    /// RFC 5051 §2: each character to its titlecase (UnicodeData field 14, the *simple* mapping),
    /// then Unicode normalisation form KD. Swift exposes the full titlecase mapping; where that is
    /// a single scalar it equals the simple one, and where it expands (ß → Ss, ŉ → ʼN) the simple
    /// mapping is the character itself, so multi-scalar results are ignored.
    ///
    /// One deliberate addition: the titlecase step runs again on the NFKD result. Compatibility
    /// decompositions can yield lower-case letters (ﬁ → f i), and without the second pass "ﬁle"
    /// could never match "FILE" although "file" does. The extra pass changes nothing else, since
    /// titlecasing is idempotent.
    private static func unicodeCasemapKey(_ text: String) -> String {
        let decomposed = titlecased(text).decomposedStringWithCompatibilityMapping
        return titlecased(decomposed)
    }

    private static func titlecased(_ text: String) -> String {
        var mapped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let title = scalar.properties.titlecaseMapping.unicodeScalars
            if title.count == 1, let single = title.first {
                mapped.append(single)
            } else {
                mapped.append(scalar)
            }
        }
        return String(mapped)
    }
}

/// How a text-match compares (RFC 4790 §4.2 operations; `match-type` from RFC 6352 §10.5.4,
/// which CalDAV clients and servers also accept). CalDAV's own default is substring.
public enum MatchType: String, Sendable, Hashable, CaseIterable {
    case equals
    case contains
    case startsWith = "starts-with"
    case endsWith = "ends-with"
}

extension Collation {
    /// Whether `value` matches `pattern` under this collation and match type.
    public func matches(_ value: String, _ pattern: String, matchType: MatchType = .contains) -> Bool {
        let haystack = key(value)
        let needle = key(pattern)
        switch matchType {
        case .equals: return haystack == needle
        case .startsWith: return haystack.starts(with: needle)
        case .endsWith: return haystack.count >= needle.count && haystack.suffix(needle.count).elementsEqual(needle)
        case .contains: return Self.contains(haystack, needle)
        }
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard haystack.count >= needle.count else { return false }
        let first = needle[0]
        var index = 0
        let lastStart = haystack.count - needle.count
        while index <= lastStart {
            if haystack[index] == first {
                var offset = 1
                while offset < needle.count && haystack[index + offset] == needle[offset] { offset += 1 }
                if offset == needle.count { return true }
            }
            index += 1
        }
        return false
    }
}
