import Foundation

/// A person who signs in. Created on first sign-in ("continue with email"), never with a password.
public struct Account: Sendable, Hashable, Codable {
    public var id: UUID
    public var email: EmailAddress
    public var name: String
    /// IANA zone used to read times the person types and to show their day.
    public var timeZone: String
    public var language: Language
    public var createdAt: Date
    public var disabledAt: Date?
    /// Show the Umm al-Qura (Hijri) date beside the Gregorian one in the web app's calendar.
    public var showHijri: Bool

    public init(
        id: UUID, email: EmailAddress, name: String, timeZone: String, language: Language, createdAt: Date, disabledAt: Date? = nil,
        showHijri: Bool = false
    ) {
        self.id = id
        self.email = email
        self.name = name
        self.timeZone = timeZone
        self.language = language
        self.createdAt = createdAt
        self.disabledAt = disabledAt
        self.showHijri = showHijri
    }

    public var isDisabled: Bool { disabledAt != nil }

    /// A first name guess for greetings when the person has not set a name yet.
    public var displayName: String { name.isEmpty ? String(email.value.prefix { $0 != "@" }) : name }
}

/// The languages Jadwal speaks to people in (emails, event titles, the web app).
public enum Language: String, Sendable, Hashable, Codable, CaseIterable {
    case english = "en"
    case arabic = "ar"
}

/// A change to an account's profile, validated before it reaches storage.
public struct ProfileChange: Sendable {
    public var name: String?
    public var timeZone: String?
    public var language: Language?
    public var showHijri: Bool?

    public init(name: String? = nil, timeZone: String? = nil, language: Language? = nil, showHijri: Bool? = nil) {
        self.name = name
        self.timeZone = timeZone
        self.language = language
        self.showHijri = showHijri
    }

    public enum Problem: Error, Sendable, Equatable {
        case nameTooLong(limit: Int)
        case nameHasControlCharacters
        case unknownTimeZone(String)
    }

    public static let nameLimit = 200

    /// Applies the change, or says which field is wrong.
    public func applied(to account: Account) throws(Problem) -> Account {
        var updated = account
        if let name {
            let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
            guard trimmed.count <= Self.nameLimit else { throw .nameTooLong(limit: Self.nameLimit) }
            guard !trimmed.containsControlCharacters else {
                throw .nameHasControlCharacters
            }
            updated.name = trimmed
        }
        if let timeZone {
            guard IANATimeZone.isKnown(timeZone) else {
                throw .unknownTimeZone(timeZone)
            }
            updated.timeZone = timeZone
        }
        if let language { updated.language = language }
        if let showHijri { updated.showHijri = showHijri }
        return updated
    }
}
