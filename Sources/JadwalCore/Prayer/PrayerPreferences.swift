import Foundation
import PrayerTimes

/// Where a person prays and the subscription address of their prayer times: saved, read and
/// revoked by one set of rules for the JSON API and the web app.
public struct PrayerPreferences: Sendable {
    let store: StoreAccess<any AccountStore & CalendarFeedStore & JobStore & PrayerAlertStore & PrayerSettingsStore>
    let clock: Clock
    let random: RandomSource
    /// Where the server is reached: the feed's address starts with it.
    let publicURL: String

    /// The feed covers a week back and two months ahead; subscribers refetch daily.
    public static let feedDaysBack = 7
    public static let feedDaysAhead = 60
    public static let alarmLimit = 0...1440

    public init(store: any Store, clock: Clock, random: RandomSource, publicURL: String) {
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
        self.random = random
        self.publicURL = publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL
    }

    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// Nothing to compute or subscribe to until the person says where they pray.
        case notSet
        case invalidAlarm
        case noFeed

        public var description: String {
            switch self {
            case .notSet: "prayer settings are not set yet"
            case .invalidAlarm: "an alarm must be between \(PrayerPreferences.alarmLimit.lowerBound) and \(PrayerPreferences.alarmLimit.upperBound) minutes before"
            case .noFeed: "there is no prayer-times feed to revoke"
            }
        }
    }

    /// A feed's address, shown once: it is the key to the feed.
    public struct FeedLink: Sendable, Hashable, Encodable {
        public let url: String
        public let webcalURL: String
        public let alarmMinutesBefore: Int?
    }

    public func settings(accountID: UUID) async throws -> PrayerSettings? {
        try await store.read { tx in try await tx.prayerSettings(accountID: accountID) }
    }

    /// The saved settings, or `Problem.notSet`.
    public func requiredSettings(accountID: UUID) async throws -> PrayerSettings {
        guard let settings = try await settings(accountID: accountID) else { throw Problem.notSet }
        return settings
    }

    /// Validates a change against the saved settings and saves the result.
    public func save(_ change: PrayerSettingsChange, accountID: UUID) async throws -> PrayerSettings {
        let now = clock.now
        return try await store.transaction { tx in
            let next = try change.applied(to: try await tx.prayerSettings(accountID: accountID))
            try await tx.savePrayerSettings(next, accountID: accountID, at: now)
            // Alerts follow the new place, method or zone: the queued ones are replaced.
            if try await tx.prayerAlertSettings(accountID: accountID)?.isOn == true {
                try await PrayerAlerts.reschedule(accountID: accountID, now: now, random: random, tx: tx)
            }
            return next
        }
    }

    /// A new subscription address. One live feed per account: a new one revokes the old.
    public func newFeed(accountID: UUID, alarmMinutesBefore alarm: Int?) async throws -> FeedLink {
        if let alarm, !Self.alarmLimit.contains(alarm) { throw Problem.invalidAlarm }
        _ = try await requiredSettings(accountID: accountID)
        let token = SecretToken(random: random)
        let now = clock.now
        try await store.transaction { tx in
            _ = try await tx.revokeCalendarFeeds(accountID: accountID, kind: .prayerTimes, at: now)
            try await tx.insertCalendarFeed(CalendarFeed(
                digest: token.digest, accountID: accountID, kind: .prayerTimes, alarmMinutesBefore: alarm, createdAt: now))
        }
        let url = "\(publicURL)/feeds/\(token.value).ics"
        let webcal = url.replacingOccurrences(of: #"^https?://"#, with: "webcal://", options: .regularExpression)
        return FeedLink(url: url, webcalURL: webcal, alarmMinutesBefore: alarm)
    }

    public func revokeFeed(accountID: UUID) async throws {
        let now = clock.now
        let revoked = try await store.transaction { tx in try await tx.revokeCalendarFeeds(accountID: accountID, kind: .prayerTimes, at: now) }
        guard revoked > 0 else { throw Problem.noFeed }
    }

    /// The calendar a feed address serves (a week back, two months ahead), or nil when the
    /// address is unknown or revoked, its account disabled, or no place is set.
    public func feedCalendar(token presented: String) async throws -> PrayerCalendar? {
        let token = SecretToken(presented: presented)
        let found = try await store.read { tx -> (CalendarFeed, Account, PrayerSettings?)? in
            guard let feed = try await tx.calendarFeed(digest: token.digest), feed.revokedAt == nil,
                  let account = try await tx.account(id: feed.accountID), !account.isDisabled
            else { return nil }
            return (feed, account, try await tx.prayerSettings(accountID: account.id))
        }
        guard let (feed, account, savedSettings) = found, let settings = savedSettings else { return nil }
        return PrayerCalendar(settings: settings, language: account.language, alarmMinutesBefore: feed.alarmMinutesBefore)
    }
}
