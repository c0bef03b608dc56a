import Foundation

/// A password for one device's CalDAV account (HTTP Basic), shown once when made and stored
/// only as a bcrypt hash. Revoking it signs that device out without touching the others.
public struct AppPassword: Sendable, Hashable {
    public var id: UUID
    public var accountID: UUID
    /// What the person calls the device ("Sara's iPhone").
    public var name: String
    public var passwordHash: String
    /// The password's first group, which is not secret: it picks this password out of the
    /// account's, so a sign-in costs one bcrypt however many devices there are. Nil for
    /// passwords made before it existed (four groups).
    public var lookupID: String?
    public var createdAt: Date
    public var lastUsedAt: Date?
    public var revokedAt: Date?

    public init(
        id: UUID, accountID: UUID, name: String, passwordHash: String, lookupID: String? = nil, createdAt: Date, lastUsedAt: Date? = nil,
        revokedAt: Date? = nil
    ) {
        self.id = id
        self.accountID = accountID
        self.name = name
        self.passwordHash = passwordHash
        self.lookupID = lookupID
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.revokedAt = revokedAt
    }

    public static let nameLimit = 100

    /// Letters without look-alikes (no 0/O, 1/l/I), so people can type a password on a phone.
    static let alphabet = Array("abcdefghijkmnpqrstuvwxyz23456789")
    static let groupLength = 5

    /// A new password: the lookup id, then 20 secret characters (about 100 bits), in groups of
    /// five: `look-secret-secret-secret-secret`.
    public static func generate(random: RandomSource) -> (lookupID: String, password: String) {
        let characters = random.bytes(25).map { alphabet[Int($0) % alphabet.count] }
        let groups = stride(from: 0, to: 25, by: groupLength).map { String(characters[$0..<$0 + groupLength]) }
        return (groups[0], groups.joined(separator: "-"))
    }

    /// The lookup id a presented password carries, or nil when it has the older four-group shape
    /// (or no shape Jadwal ever issued).
    public static func lookupID(in presented: String) -> String? {
        let groups = presented.split(separator: "-", omittingEmptySubsequences: false)
        guard groups.count == 5, groups.allSatisfy({ $0.count == groupLength }) else { return nil }
        return String(groups[0])
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
