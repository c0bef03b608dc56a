import Foundation

/// An Apple configuration profile (`.mobileconfig`) that adds a CalDAV account and, optionally,
/// a subscribed calendar, in one tap on iPhone, iPad or Mac. The payload keys are those of
/// Apple's Configuration Profile Reference (`com.apple.caldav.account`,
/// `com.apple.subscribedcalendar.account`).
public struct ConfigurationProfile: Sendable {
    public struct CalDAVAccount: Sendable {
        public var description: String
        public var hostName: String
        public var port: Int
        public var useSSL: Bool
        /// Absolute URL of the account's principal.
        public var principalURL: String
        public var username: String
        public var password: String

        public init(description: String, hostName: String, port: Int, useSSL: Bool, principalURL: String, username: String, password: String) {
            self.description = description
            self.hostName = hostName
            self.port = port
            self.useSSL = useSSL
            self.principalURL = principalURL
            self.username = username
            self.password = password
        }
    }

    public struct Subscription: Sendable {
        public var description: String
        /// The calendar's URL (https:// or http://; iOS reads webcal:// too).
        public var url: String

        public init(description: String, url: String) {
            self.description = description
            self.url = url
        }
    }

    public var displayName: String
    /// Reverse-DNS prefix for payload identifiers, e.g. `jadwal.calendar.example.com`.
    public var identifierPrefix: String
    /// Nil for a profile that only subscribes.
    public var account: CalDAVAccount?
    public let subscriptions: [Subscription]
    /// Fresh UUIDs each time: a profile installed twice is two profiles, each removable.
    public let profileUUID: UUID
    /// The CalDAV account's, then one for each subscription.
    public let payloadUUIDs: [UUID]

    public init(
        displayName: String, identifierPrefix: String, account: CalDAVAccount?, subscriptions: [Subscription] = [],
        random: RandomSource
    ) {
        self.displayName = displayName
        self.identifierPrefix = identifierPrefix
        self.account = account
        self.subscriptions = subscriptions
        self.profileUUID = random.uuid()
        self.payloadUUIDs = (0...subscriptions.count).map { _ in random.uuid() }
    }

    public static let contentType = "application/x-apple-aspen-config"

    /// The property list, as a dictionary PropertyListSerialization can write.
    public var propertyList: [String: Any] {
        var payloads: [[String: Any]] = []
        let caldavUUID = payloadUUIDs[0]
        if let account {
            payloads.append([
                "PayloadType": "com.apple.caldav.account",
                "PayloadVersion": 1,
                "PayloadIdentifier": "\(identifierPrefix).caldav.\(caldavUUID.uuidString)",
                "PayloadUUID": caldavUUID.uuidString,
                "PayloadDisplayName": "\(displayName) CalDAV",
                "PayloadDescription": "Syncs your \(displayName) calendars and tasks.",
                "CalDAVAccountDescription": account.description,
                "CalDAVHostName": account.hostName,
                "CalDAVPort": account.port,
                "CalDAVUseSSL": account.useSSL,
                "CalDAVPrincipalURL": account.principalURL,
                "CalDAVUsername": account.username,
                "CalDAVPassword": account.password,
            ])
        }
        for (index, subscription) in subscriptions.enumerated() {
            let uuid = payloadUUIDs[index + 1]
            payloads.append([
                "PayloadType": "com.apple.subscribedcalendar.account",
                "PayloadVersion": 1,
                "PayloadIdentifier": "\(identifierPrefix).subscription.\(uuid.uuidString)",
                "PayloadUUID": uuid.uuidString,
                "PayloadDisplayName": subscription.description,
                "SubCalAccountDescription": subscription.description,
                "SubCalAccountHostName": subscription.url,
                "SubCalAccountUseSSL": subscription.url.lowercased().hasPrefix("https://"),
            ])
        }
        return [
            "PayloadType": "Configuration",
            "PayloadVersion": 1,
            "PayloadIdentifier": "\(identifierPrefix).profile.\(profileUUID.uuidString)",
            "PayloadUUID": profileUUID.uuidString,
            "PayloadDisplayName": displayName,
            "PayloadDescription": "Adds your \(displayName) calendars to this device. It contains an app password you can revoke in \(displayName).",
            "PayloadOrganization": displayName,
            "PayloadRemovalDisallowed": false,
            "PayloadContent": payloads,
        ]
    }

    /// The profile as an XML property list (unsigned; iOS shows it as "Not Verified" unless the
    /// operator signs it, which a self-hosted server usually cannot).
    public func data() throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: propertyList, format: .xml, options: 0)
    }
}
