import Foundation

/// A password for one device's CalDAV account (HTTP Basic), shown once when made and stored
/// only as a bcrypt hash. Revoking it signs that device out without touching the others.
public struct AppPassword: Sendable, Hashable {
    public var id: UUID
    public var accountID: UUID
    /// What the person calls the device ("Sara's iPhone").
    public var name: String
    public var passwordHash: String
    public var createdAt: Date
    public var lastUsedAt: Date?
    public var revokedAt: Date?

    public init(id: UUID, accountID: UUID, name: String, passwordHash: String, createdAt: Date, lastUsedAt: Date? = nil, revokedAt: Date? = nil) {
        self.id = id
        self.accountID = accountID
        self.name = name
        self.passwordHash = passwordHash
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.revokedAt = revokedAt
    }

    public static let nameLimit = 100

    /// A new password: 20 characters from an alphabet without look-alikes (no 0/O, 1/l/I), in
    /// groups of five so people can type it on a phone: about 100 bits.
    public static func generate(random: RandomSource) -> String {
        let alphabet = Array("abcdefghijkmnpqrstuvwxyz23456789")
        let characters = random.bytes(20).map { alphabet[Int($0) % alphabet.count] }
        return stride(from: 0, to: 20, by: 5).map { String(characters[$0..<$0 + 5]) }.joined(separator: "-")
    }

    /// Cleans a device name a person typed, or says why it cannot be used.
    public static func validName(_ raw: String) -> String? {
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= nameLimit,
              !trimmed.containsControlCharacters
        else { return nil }
        return trimmed
    }
}
