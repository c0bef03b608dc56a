import Foundation
import PrayerTimes

/// Prayer alerts as durable jobs: each upcoming alert is a `prayer.alert` job due at its time,
/// so it fires once, on time, and after a restart. `prayer.alerts.schedule` replaces an account's
/// queued alerts with those of its current settings (queued in the transaction that changes the
/// place, method or the alerts themselves); a daily sweep schedules every account with alerts on
/// past the horizon. An alert posts a `prayer` notification, which goes to every channel the
/// person chose for that kind: the feed and live stream always, email, APNs and Web Push.
public struct PrayerAlerts: Sendable {
    public static let scheduleJob: JobKind = "prayer.alerts.schedule"
    public static let alertJob: JobKind = "prayer.alert"
    public static let sweepJob: JobKind = "prayer.alerts.sweep"
    /// How far ahead alerts are queued; the sweep runs daily, well inside it.
    public static let horizon: TimeInterval = 2 * 86_400
    public static let sweepInterval: TimeInterval = 86_400
    /// An alert this late (the server was down) is dropped: the prayer's time has moved on.
    public static let latestDelivery: TimeInterval = 30 * 60

    let store: StoreAccess<any NoticeStore & AccountStore & PrayerAlertStore>
    let clock: Clock
    let random: RandomSource

    public init(store: any Store, clock: Clock, random: RandomSource) {
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
        self.random = random
    }

    /// The payload of `prayer.alerts.schedule`.
    public struct Target: Sendable, Hashable, Codable {
        public var accountID: UUID
    }

    public static func subject(_ accountID: UUID) -> String { "prayer-alerts:" + accountID.uuidString.lowercased() }

    // MARK: Settings

    public func settings(accountID: UUID) async throws -> PrayerAlertSettings {
        try await store.read { tx in try await tx.prayerAlertSettings(accountID: accountID) ?? PrayerAlertSettings() }
    }

    /// Saves a change and reschedules in the same transaction. Alerts need a place: turning one
    /// on before prayer settings exist is `PrayerPreferences.Problem.notSet`.
    public func save(_ change: PrayerAlertChange, accountID: UUID) async throws -> PrayerAlertSettings {
        let now = clock.now
        return try await store.transaction { tx in
            let next = try change.applied(to: try await tx.prayerAlertSettings(accountID: accountID) ?? PrayerAlertSettings())
            if next.isOn, try await tx.prayerSettings(accountID: accountID) == nil { throw PrayerPreferences.Problem.notSet }
            try await tx.savePrayerAlertSettings(next, accountID: accountID, at: now)
            try await Self.reschedule(accountID: accountID, now: now, random: random, tx: tx)
            return next
        }
    }

    /// The alerts queued from now on (what the settings page shows as "next").
    public func upcoming(accountID: UUID, limit: Int = 10) async throws -> [PrayerAlert] {
        let now = clock.now
        return try await store.read { tx in
            guard let alerts = try await tx.prayerAlertSettings(accountID: accountID), alerts.isOn,
                  let prayer = try await tx.prayerSettings(accountID: accountID)
            else { return [] }
            return Array(try Self.window(accountID: accountID, prayer: prayer, alerts: alerts, now: now).prefix(limit))
        }
    }

    // MARK: Jobs

    /// Queues a schedule job for the account in the caller's transaction (prayer settings or
    /// alerts changed), replacing one already queued.
    public static func reschedule(accountID: UUID, now: Date, random: RandomSource, tx: any JobStore) async throws {
        let subject = subject(accountID)
        try await tx.cancelQueuedJobs(kind: scheduleJob, subject: subject)
        try await tx.enqueue(Job.new(scheduleJob, payload: json(Target(accountID: accountID)), maxAttempts: 5, runAt: now, now: now, id: random.uuid(), subject: subject))
    }

    /// Replaces the account's queued alerts with those of its current settings; how many were queued.
    @discardableResult
    public func schedule(_ target: Target) async throws -> Int {
        let now = clock.now
        return try await store.transaction { tx in
            let subject = Self.subject(target.accountID)
            try await tx.cancelQueuedJobs(kind: Self.alertJob, subject: subject)
            guard let account = try await tx.account(id: target.accountID), !account.isDisabled,
                  let alerts = try await tx.prayerAlertSettings(accountID: account.id), alerts.isOn,
                  let prayer = try await tx.prayerSettings(accountID: account.id)
            else { return 0 }
            let planned = try Self.window(accountID: account.id, prayer: prayer, alerts: alerts, now: now)
            for alert in planned {
                try await tx.enqueue(Job.new(Self.alertJob, payload: Self.json(alert), maxAttempts: 5, runAt: alert.fireAt, now: now, id: random.uuid(), subject: subject))
            }
            return planned.count
        }
    }

    /// Posts the alert as an urgent notification (quiet hours never hold what the person asked to
    /// be woken or called for), once per prayer and day. Nil when nothing was posted: too late,
    /// or the settings changed since it was queued (the reschedule queued the right one).
    public func fire(_ alert: PrayerAlert) async throws -> AccountNotification? {
        let now = clock.now
        guard now.timeIntervalSince(alert.fireAt) <= Self.latestDelivery else { return nil }
        return try await store.transaction { tx in
            guard let account = try await tx.account(id: alert.accountID), !account.isDisabled,
                  let alerts = try await tx.prayerAlertSettings(accountID: account.id), alerts.isOn,
                  let prayer = try await tx.prayerSettings(accountID: account.id),
                  let day = try? LocalDate(iso8601: alert.day),
                  let current = try PrayerAlert.plan(accountID: account.id, prayer: prayer, alerts: alerts, from: day, through: day)
                      .first(where: { $0.reasonKey == alert.reasonKey }),
                  abs(current.fireAt.timeIntervalSince(alert.fireAt)) < 60
            else { return nil }
            let calendar = PrayerCalendar(settings: prayer, language: account.language)
            let name = calendar.title(current.prayer, jumuah: current.isJumuah)
            let text = NotificationText(account: account).prayerAlert(name: name, time: current.prayerTime, firesAt: current.fireAt)
            let draft = NotificationDraft(
                kind: .prayer, reasonKey: current.reasonKey, title: text.title, body: text.body,
                links: ["url": "/calendar?view=day&date=\(current.day)", "prayer": current.isJumuah ? "jumuah" : current.prayer.rawValue],
                urgent: true)
            return try await NotificationDispatch.post(draft, account: account, now: now, random: random, tx: tx)
        }
    }

    /// Queues a schedule job for every account with alerts on, and the next sweep; how many accounts.
    public func sweep() async throws -> Int {
        let now = clock.now
        return try await store.transaction { tx in
            let accounts = try await tx.accountsWithPrayerAlerts()
            for accountID in accounts { try await Self.reschedule(accountID: accountID, now: now, random: random, tx: tx) }
            try await tx.queueSweep(Self.sweepJob, at: now.addingTimeInterval(Self.sweepInterval), now: now, random: random)
            return accounts.count
        }
    }

    /// Makes sure a sweep is queued (at start-up: the first one runs at once).
    public func ensureSweep() async throws {
        let now = clock.now
        try await store.transaction { tx in try await tx.ensureSweep(Self.sweepJob, now: now, random: random) }
    }


    /// The alerts firing after `now` and within the horizon. The place's days from yesterday to
    /// the day after tomorrow cover the horizon in any zone.
    static func window(accountID: UUID, prayer: PrayerSettings, alerts: PrayerAlertSettings, now: Date) throws -> [PrayerAlert] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: prayer.timeZone) ?? .gmt
        let parts = calendar.dateComponents([.year, .month, .day], from: now)
        let today = try LocalDate(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
        return try PrayerAlert.plan(accountID: accountID, prayer: prayer, alerts: alerts, from: today.adding(days: -1), through: today.adding(days: 3))
            .filter { $0.fireAt > now && $0.fireAt <= now.addingTimeInterval(horizon) }
    }

    static func json(_ value: some Encodable) -> String { ReminderQueue.json(value) }

    public static func decode<T: Decodable>(_ type: T.Type, from payload: String) throws -> T { try ReminderQueue.decode(type, from: payload) }
}
