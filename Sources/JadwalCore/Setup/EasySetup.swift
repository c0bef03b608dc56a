import Foundation

/// Easy Setup's one-time links: issued to the signed-in person, spent by the device that opens
/// them. Spending one tells the person, and gives the device what its profile carries: a fresh
/// app password for a CalDAV account, or a prayer-times feed of its own.
public struct EasySetup: Sendable {
    let store: StoreAccess<any NoticeStore & AccountStore & CalendarFeedStore & SetupTokenStore>
    let clock: Clock
    let random: RandomSource
    /// Where the server is reached: links and feed addresses start with it.
    let publicURL: String
    /// Makes an app password for the account under a device's name; returns the password, shown once.
    let makeAppPassword: @Sendable (_ accountID: UUID, _ name: String) async throws -> String

    public init(
        store: any Store, clock: Clock, random: RandomSource, publicURL: String,
        makeAppPassword: @escaping @Sendable (_ accountID: UUID, _ name: String) async throws -> String
    ) {
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
        self.random = random
        self.publicURL = publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL
        self.makeAppPassword = makeAppPassword
    }

    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case invalidDeviceName
        /// A prayer-times profile needs a place first.
        case prayerNotSet
        /// Unknown link, or its account is disabled.
        case notFound
        /// Used already, or expired.
        case spent

        public var description: String {
            switch self {
            case .invalidDeviceName: "a device's name must be at most 100 characters without control characters"
            case .prayerNotSet: "set your place for prayer times first"
            case .notFound: "no setup link at this address"
            case .spent: "this setup link was already used or has expired (links last 15 minutes)"
            }
        }
    }

    public struct Link: Sendable, Hashable, Encodable {
        public let url: String
        public let expiresAt: Date
        public let deviceName: String
    }

    /// What a spent link gives its device's profile.
    public struct Claim: Sendable {
        public let account: Account
        public let deviceName: String
        /// The CalDAV account's new app password, for a `.caldav` link.
        public let appPassword: String?
        /// The prayer-times feed address, for a `.prayerSubscription` link.
        public let prayerFeedURL: String?
    }

    /// A new one-time link for a device.
    public func issueLink(_ kind: SetupToken.Kind, accountID: UUID, deviceName raw: String?) async throws -> Link {
        guard let deviceName = SetupToken.deviceName(raw) else { throw Problem.invalidDeviceName }
        let token = SecretToken(random: random)
        let now = clock.now
        let record = SetupToken(
            digest: token.digest, kind: kind, accountID: accountID, deviceName: deviceName, createdAt: now, expiresAt: now + SetupToken.lifetime)
        try await store.transaction { tx in
            if kind == .prayerSubscription, try await tx.prayerSettings(accountID: accountID) == nil { throw Problem.prayerNotSet }
            try await tx.insertSetupToken(record)
        }
        return Link(url: "\(publicURL)/setup/\(token.value).mobileconfig", expiresAt: record.expiresAt, deviceName: deviceName)
    }

    /// Spends a link (first, so two downloads cannot both get a password), tells the person, and
    /// makes what the device's profile carries.
    public func claim(_ presented: String) async throws -> Claim {
        let token = SecretToken(presented: presented)
        let now = clock.now
        let (setup, account, hasPrayer) = try await store.transaction { tx -> (SetupToken, Account, Bool) in
            guard let setup = try await tx.setupToken(digest: token.digest) else { throw Problem.notFound }
            guard setup.usedAt == nil, setup.expiresAt > now else { throw Problem.spent }
            guard let account = try await tx.account(id: setup.accountID), !account.isDisabled else { throw Problem.notFound }
            guard try await tx.markSetupTokenUsed(digest: token.digest, at: now) else { throw Problem.spent }
            let text = NotificationText(account: account).setupDone(device: setup.deviceName)
            try await NotificationDispatch.post(
                NotificationDraft(kind: .setupDone, reasonKey: "setup:\(token.digest.hex)", title: text.title, body: text.body, urgent: true),
                account: account, now: now, random: random, tx: tx)
            return (setup, account, try await tx.prayerSettings(accountID: account.id) != nil)
        }
        switch setup.kind {
        case .caldav:
            let password = try await makeAppPassword(account.id, setup.deviceName)
            return Claim(account: account, deviceName: setup.deviceName, appPassword: password, prayerFeedURL: nil)
        case .prayerSubscription:
            guard hasPrayer else { throw Problem.notFound }
            // A feed of its own, so this device's subscription does not end another's.
            let feedToken = SecretToken(random: random)
            let feed = CalendarFeed(digest: feedToken.digest, accountID: account.id, kind: .prayerTimes, alarmMinutesBefore: nil, createdAt: now)
            try await store.transaction { tx in try await tx.insertCalendarFeed(feed) }
            return Claim(account: account, deviceName: setup.deviceName, appPassword: nil, prayerFeedURL: "\(publicURL)/feeds/\(feedToken.value).ics")
        }
    }
}
