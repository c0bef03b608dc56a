import Foundation

/// How Jadwal treats a person's chats.
public struct ChatSettings: Sendable, Hashable, Codable {
    /// Messages are still stored, but not read for plans, until extraction resumes.
    public var extractionPaused: Bool
    /// Group chats are ignored unless this is on.
    public var allowGroups: Bool
    /// Days message text is kept at most, counted from when it was sent, even in open conversations.
    public var retentionDays: Int
    /// The person's name as chats show it, when it differs from the account's name (which
    /// participant of an export is the account's owner).
    public var meName: String?
    /// The WhatsApp Business phone number ID (Meta's `phone_number_id`, not the phone number)
    /// whose Cloud API webhook deliveries belong to this account; one account per number.
    public var cloudAPIPhoneNumberID: String?
    /// How long an event agreed in a chat lasts when the chat stated no end and its title names
    /// no kind of plan with a length of its own (`PlanLength`).
    public var eventMinutes: Int
    /// Days of WhatsApp history read when a device is linked (the bridge's history sync).
    public var whatsAppHistoryDays: Int

    public static let defaultRetentionDays = 14
    public static let defaultWhatsAppHistoryDays = 7
    public static let whatsAppHistoryDaysLimit = 0...30
    public static let eventMinutesLimit = 5...1440
    public static let retentionLimit = 1...365
    public static let meNameLimit = 200
    /// Meta's phone number IDs are 15 or so digits; the limit only bounds what is stored.
    public static let phoneNumberIDLimit = 1...64

    public init(
        extractionPaused: Bool = false, allowGroups: Bool = false, retentionDays: Int = Self.defaultRetentionDays, meName: String? = nil,
        cloudAPIPhoneNumberID: String? = nil, eventMinutes: Int = PlanLength.defaultMinutes, whatsAppHistoryDays: Int = Self.defaultWhatsAppHistoryDays
    ) {
        self.eventMinutes = eventMinutes
        self.whatsAppHistoryDays = whatsAppHistoryDays
        self.extractionPaused = extractionPaused
        self.allowGroups = allowGroups
        self.retentionDays = retentionDays
        self.meName = meName
        self.cloudAPIPhoneNumberID = cloudAPIPhoneNumberID
    }
}

/// A change to chat settings; anything not given keeps its value.
public struct ChatSettingsChange: Sendable, Codable {
    public var extractionPaused: Bool?
    public var allowGroups: Bool?
    public var retentionDays: Int?
    /// An empty string clears the name.
    public var meName: String?
    /// An empty string unlinks the number.
    public var cloudAPIPhoneNumberID: String?
    public var eventMinutes: Int?
    public var whatsAppHistoryDays: Int?

    public init(
        extractionPaused: Bool? = nil, allowGroups: Bool? = nil, retentionDays: Int? = nil, meName: String? = nil, cloudAPIPhoneNumberID: String? = nil,
        eventMinutes: Int? = nil, whatsAppHistoryDays: Int? = nil
    ) {
        self.eventMinutes = eventMinutes
        self.whatsAppHistoryDays = whatsAppHistoryDays
        self.extractionPaused = extractionPaused
        self.allowGroups = allowGroups
        self.retentionDays = retentionDays
        self.meName = meName
        self.cloudAPIPhoneNumberID = cloudAPIPhoneNumberID
    }

    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case retentionDays
        case meName
        case cloudAPIPhoneNumberID
        case eventMinutes
        case whatsAppHistoryDays

        public var description: String {
            switch self {
            case .retentionDays:
                "'retentionDays' must be between \(ChatSettings.retentionLimit.lowerBound) and \(ChatSettings.retentionLimit.upperBound)"
            case .meName: "'meName' must be at most \(ChatSettings.meNameLimit) characters without control characters"
            case .cloudAPIPhoneNumberID:
                "'cloudAPIPhoneNumberID' must be the Phone number ID from Meta's WhatsApp API Setup page: digits only, at most \(ChatSettings.phoneNumberIDLimit.upperBound)"
            case .eventMinutes:
                "'eventMinutes' must be a whole number of minutes from \(ChatSettings.eventMinutesLimit.lowerBound) to \(ChatSettings.eventMinutesLimit.upperBound)"
            case .whatsAppHistoryDays:
                "'whatsAppHistoryDays' must be a whole number of days from \(ChatSettings.whatsAppHistoryDaysLimit.lowerBound) to \(ChatSettings.whatsAppHistoryDaysLimit.upperBound)"
            }
        }
    }

    public func applied(to settings: ChatSettings) throws(Problem) -> ChatSettings {
        var updated = settings
        if let extractionPaused { updated.extractionPaused = extractionPaused }
        if let allowGroups { updated.allowGroups = allowGroups }
        if let retentionDays {
            guard ChatSettings.retentionLimit.contains(retentionDays) else { throw .retentionDays }
            updated.retentionDays = retentionDays
        }
        if let eventMinutes {
            guard ChatSettings.eventMinutesLimit.contains(eventMinutes) else { throw .eventMinutes }
            updated.eventMinutes = eventMinutes
        }
        if let whatsAppHistoryDays {
            guard ChatSettings.whatsAppHistoryDaysLimit.contains(whatsAppHistoryDays) else { throw .whatsAppHistoryDays }
            updated.whatsAppHistoryDays = whatsAppHistoryDays
        }
        if let meName {
            let trimmed = meName.trimmingCharacters(in: .whitespacesAndNewlines)
            guard trimmed.count <= ChatSettings.meNameLimit, !trimmed.containsControlCharacters else { throw .meName }
            updated.meName = trimmed.isEmpty ? nil : trimmed
        }
        if let cloudAPIPhoneNumberID {
            let trimmed = cloudAPIPhoneNumberID.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty {
                updated.cloudAPIPhoneNumberID = nil
            } else {
                guard ChatSettings.phoneNumberIDLimit.contains(trimmed.count), trimmed.allSatisfy({ $0.isASCII && $0.isNumber }) else { throw .cloudAPIPhoneNumberID }
                updated.cloudAPIPhoneNumberID = trimmed
            }
        }
        return updated
    }
}

/// A per-person token a chat bridge (a whatsapp-web.js or whatsmeow script) posts messages
/// with. Only its SHA-256 digest is stored; it can do nothing but deliver messages.
public struct ChatConnectorToken: Sendable, Hashable {
    public var id: UUID
    public var accountID: UUID
    public var name: String
    public var digest: TokenDigest
    public var createdAt: Date
    public var lastUsedAt: Date?
    public var revokedAt: Date?

    /// Tokens start with this, so a leaked one is recognisable (and searchable in logs).
    public static let prefix = "jadwal_ct_"
    public static let nameLimit = 100

    public init(id: UUID, accountID: UUID, name: String, digest: TokenDigest, createdAt: Date, lastUsedAt: Date? = nil, revokedAt: Date? = nil) {
        self.id = id
        self.accountID = accountID
        self.name = name
        self.digest = digest
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.revokedAt = revokedAt
    }

    /// A new token's secret value: the prefix and 32 random bytes.
    public static func newSecret(random: RandomSource) -> String {
        prefix + SecretToken(random: random).value
    }

    /// A name as given, trimmed; nil when empty, too long or with control characters.
    public static func validName(_ raw: String) -> String? {
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= nameLimit, !trimmed.containsControlCharacters else { return nil }
        return trimmed
    }
}
