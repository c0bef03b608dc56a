import Foundation

/// A syntactically valid email address, normalised (trimmed, lower-cased) so that one person
/// has one account whatever capitalisation they type.
public struct EmailAddress: Sendable, Hashable, Codable, CustomStringConvertible {
    public let value: String

    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case empty, tooLong, missingAt, invalidLocalPart, invalidDomain

        public var description: String {
            switch self {
            case .empty: "the email address is empty"
            case .tooLong: "the email address is longer than 254 characters"
            case .missingAt: "the email address needs exactly one '@'"
            case .invalidLocalPart: "the part before '@' is not valid"
            case .invalidDomain: "the part after '@' is not a valid domain name"
            }
        }
    }

    public init(_ raw: String) throws(Problem) {
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard !trimmed.isEmpty else { throw .empty }
        guard trimmed.utf8.count <= 254 else { throw .tooLong }
        let parts = trimmed.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw .missingAt }
        let local = parts[0], domain = parts[1]
        // Deliberately simpler than RFC 5322's quoted forms, which no mail provider hands out.
        let localAllowed = Set("abcdefghijklmnopqrstuvwxyz0123456789.!#$%&'*+/=?^_`{|}~-")
        guard !local.isEmpty, local.count <= 64, local.allSatisfy({ localAllowed.contains($0) }),
              !local.hasPrefix("."), !local.hasSuffix("."), !local.contains("..")
        else { throw .invalidLocalPart }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        let labelAllowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-")
        guard labels.count >= 2,
              labels.allSatisfy({ label in
                  !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                      && label.unicodeScalars.allSatisfy { labelAllowed.contains(Character($0)) || $0.value > 127 }
              })
        else { throw .invalidDomain }
        value = trimmed
    }

    public var description: String { value }
}
