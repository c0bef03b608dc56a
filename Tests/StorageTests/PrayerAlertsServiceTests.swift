import Foundation
import JadwalCore
import JadwalTestSupport
import PrayerTimes
import Storage
import Testing

/// Prayer alerts in process on a real store, with the clock moved by hand: which alerts are
/// queued (from the calculator's times), that one fires once and urgently, that they follow a
/// new place, that they survive a restart (the jobs are rows), Jumu'ah on Fridays, and no
/// alert for a prayer without a time.
@Suite("Prayer alerts service on every engine", .serialized)
struct PrayerAlertsServiceTests {
    /// Monday 21 September 2026, 17:13 in Riyadh: Asr has passed, Maghrib is next.
    static let t0 = Date(timeIntervalSince1970: 1_790_000_000)

    /// Runs the due prayer jobs as a worker would; what `fire` posted.
    @discardableResult
    static func drain(_ store: any Store, _ alerts: PrayerAlerts, now: Date) async throws -> [AccountNotification] {
        var posted: [AccountNotification] = []
        while let job = try await store.transaction({ tx in try await tx.claimNextJob(worker: "test", now: now, lease: .seconds(60)) }) {
            switch job.kind {
            case PrayerAlerts.scheduleJob: try await alerts.schedule(try PrayerAlerts.decode(PrayerAlerts.Target.self, from: job.payload))
            case PrayerAlerts.alertJob: if let notification = try await alerts.fire(try PrayerAlerts.decode(PrayerAlert.self, from: job.payload)) { posted.append(notification) }
            default: break
            }
            try await store.transaction { tx in try await tx.completeJob(id: job.id, at: now) }
        }
        return posted
    }

    static func queued(_ store: any Store) async throws -> [PrayerAlert] {
        try await store.read { tx in try await tx.jobs(state: .queued, limit: 500) }
            .filter { $0.kind == PrayerAlerts.alertJob }
            .map { try PrayerAlerts.decode(PrayerAlert.self, from: $0.payload) }
            .sorted { $0.fireAt < $1.fireAt }
    }

    /// What the calculator says, independently of the alert code: the prayers' times at `place`
    /// on the local days around `now`, minus the lead, within the next 48 hours.
    static func expected(_ settings: PrayerSettings, prayers: [Prayer], lead: Int, now: Date) throws -> [Date] {
        let calculator = try settings.calculator()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = calculator.timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: now)
        let today = try LocalDate(year: parts.year!, month: parts.month!, day: parts.day!)
        return calculator.schedules(from: today.adding(days: -1), through: today.adding(days: 3))
            .flatMap { schedule in prayers.compactMap { schedule[$0].date?.addingTimeInterval(TimeInterval(-lead * 60)) } }
            .filter { $0 > now && $0 <= now.addingTimeInterval(48 * 3600) }
            .sorted()
    }

    @Test("queued from the times, fired once and urgently, moved with the place, kept across a restart", arguments: TestEnvironment.engines)
    func lifecycle(engine: TestEngine) async throws {
        let location = try await TestEnvironment.freshDatabase(engine)
        var store = try SQLStore(location: location, logger: TestEnvironment.logger)
        try await store.migrate()
        let clock = TestClock(Self.t0)
        let account = Account(id: UUID(), email: try EmailAddress("salma@example.com"), name: "Salma", timeZone: "Asia/Riyadh", language: .english, createdAt: Self.t0)
        let stranger = Account(id: UUID(), email: try EmailAddress("nadia@example.com"), name: "Nadia", timeZone: "UTC", language: .arabic, createdAt: Self.t0)
        try await store.transaction { tx in
            try await tx.insertAccountWithDefaultCalendars(account, now: Self.t0, random: .system)
            try await tx.insertAccountWithDefaultCalendars(stranger, now: Self.t0, random: .system)
        }
        let preferences = PrayerPreferences(store: store, clock: clock.clock, random: .system, publicURL: "https://jadwal.test")
        var alerts = PrayerAlerts(store: store, clock: clock.clock, random: .system)

        // Off until chosen; turning one on needs a place; bad values are refused by name.
        #expect(try await alerts.settings(accountID: account.id) == PrayerAlertSettings())
        await #expect(throws: PrayerPreferences.Problem.notSet) { try await alerts.save(PrayerAlertChange(prayers: ["fajr"]), accountID: stranger.id) }
        _ = try await alerts.save(PrayerAlertChange(prayers: []), accountID: stranger.id)  // off needs no place
        let riyadh = try await preferences.save(PrayerSettingsChange(city: "Riyadh"), accountID: account.id)
        await #expect(throws: PrayerAlertChange.Problem.unknownPrayer("sunrise")) { try await alerts.save(PrayerAlertChange(prayers: ["sunrise"]), accountID: account.id) }
        await #expect(throws: PrayerAlertChange.Problem.leadOutOfRange(field: "minutesBefore")) { try await alerts.save(PrayerAlertChange(minutesBefore: 121), accountID: account.id) }

        let saved = try await alerts.save(PrayerAlertChange(prayers: ["isha", "maghrib", "fajr"], minutesBefore: 10), accountID: account.id)
        #expect(saved.prayers == [.fajr, .maghrib, .isha] && saved.minutesBefore == 10)
        try await Self.drain(store, alerts, now: clock.now)
        var queued = try await Self.queued(store)
        #expect(queued.map(\.fireAt) == (try Self.expected(riyadh, prayers: [.fajr, .maghrib, .isha], lead: 10, now: clock.now)))
        #expect(queued.count == 6, "two days of three prayers")
        #expect(queued.allSatisfy { $0.accountID == account.id && $0.prayerTime.timeIntervalSince($0.fireAt) == 600 })
        let first = try #require(queued.first)
        #expect(first.prayer == .maghrib && first.day == "2026-09-21")

        // Nothing before its time; at its time one urgent notification that goes to every channel.
        #expect(try await Self.drain(store, alerts, now: clock.now).isEmpty)
        clock.advance(by: first.fireAt.timeIntervalSince(clock.now))
        let posted = try await Self.drain(store, alerts, now: clock.now)
        let notification = try #require(posted.first)
        #expect(posted.count == 1 && notification.kind == .prayer && notification.urgent)
        #expect(notification.title.hasPrefix("Maghrib at ") && notification.body == "In 10 min.")
        #expect(notification.deliverAfter == clock.now, "not held by quiet hours (the prayer's own block)")
        #expect(try await alerts.fire(first) == nil, "the same prayer on the same day is told once")
        #expect(try await Self.queued(store).count == 5)

        // A new place replaces the queued alerts in the same transaction; an old one no longer fires.
        let staleIsha = try #require(try await Self.queued(store).first)
        let jeddah = try await preferences.save(PrayerSettingsChange(city: "Jeddah"), accountID: account.id)
        try await Self.drain(store, alerts, now: clock.now)
        queued = try await Self.queued(store)
        #expect(queued.map(\.fireAt) == (try Self.expected(jeddah, prayers: [.fajr, .maghrib, .isha], lead: 10, now: clock.now)))
        #expect(abs(staleIsha.fireAt.timeIntervalSince(queued[0].fireAt)) > 60, "Jeddah's Isha is not Riyadh's")
        clock.advance(by: staleIsha.fireAt.timeIntervalSince(clock.now))
        #expect(try await alerts.fire(staleIsha) == nil, "an alert queued for the old place is dropped")

        // A restart: a new store and service on the same database fire what was queued.
        try await store.shutdown()
        store = try SQLStore(location: location, logger: TestEnvironment.logger)
        try await store.migrate()
        alerts = PrayerAlerts(store: store, clock: clock.clock, random: .system)
        let next = try #require(try await Self.queued(store).first { $0.fireAt >= clock.now })
        clock.advance(by: next.fireAt.timeIntervalSince(clock.now) + 30)
        let afterRestart = try await Self.drain(store, alerts, now: clock.now)
        #expect(afterRestart.map(\.reasonKey) == [next.reasonKey], "\(afterRestart.map(\.title))")

        // An alert the server was down for (30 minutes late and more) is dropped, not shown late.
        let late = try #require(try await Self.queued(store).first)
        clock.advance(by: late.fireAt.timeIntervalSince(clock.now) + PrayerAlerts.latestDelivery + 1)
        #expect(try await alerts.fire(late) == nil)

        // The daily sweep schedules every account with alerts on, and the next sweep.
        #expect(try await alerts.sweep() == 1)
        _ = try await alerts.save(PrayerAlertChange(prayers: []), accountID: account.id)
        try await Self.drain(store, alerts, now: clock.now)
        #expect(try await Self.queued(store).isEmpty, "turning every alert off cancels the queued ones")
        #expect(try await alerts.sweep() == 0)
        try await store.shutdown()
    }

    @Test("Jumu'ah instead of Dhuhr on Fridays when asked, with its own lead; Dhuhr otherwise")
    func jumuah() throws {
        let riyadh = try PrayerSettingsChange(city: "Riyadh").applied(to: nil)
        let thursday = try LocalDate(iso8601: "2026-09-24"), saturday = try LocalDate(iso8601: "2026-09-26")
        let id = UUID()
        let withJumuah = try PrayerAlert.plan(
            accountID: id, prayer: riyadh, alerts: PrayerAlertSettings(prayers: [.dhuhr], minutesBefore: 5, jumuah: true, jumuahMinutesBefore: 45),
            from: thursday, through: saturday)
        #expect(withJumuah.map(\.reasonKey) == ["prayer:2026-09-24:dhuhr", "prayer:2026-09-25:jumuah", "prayer:2026-09-26:dhuhr"])
        #expect(withJumuah.map { Int($0.prayerTime.timeIntervalSince($0.fireAt) / 60) } == [5, 45, 5])
        #expect(withJumuah[1].isJumuah && withJumuah[1].prayer == .dhuhr)
        let without = try PrayerAlert.plan(
            accountID: id, prayer: riyadh, alerts: PrayerAlertSettings(prayers: [.dhuhr], minutesBefore: 5), from: thursday, through: saturday)
        #expect(without.map(\.reasonKey) == ["prayer:2026-09-24:dhuhr", "prayer:2026-09-25:dhuhr", "prayer:2026-09-26:dhuhr"])
        let fridayOnly = try PrayerAlert.plan(
            accountID: id, prayer: riyadh, alerts: PrayerAlertSettings(prayers: [], jumuah: true), from: thursday, through: saturday)
        #expect(fridayOnly.map(\.reasonKey) == ["prayer:2026-09-25:jumuah"])
        // The Arabic title is the same one the prayer calendar uses.
        #expect(PrayerCalendar(settings: riyadh, language: .arabic).title(.dhuhr, jumuah: true) == "صلاة الجمعة")
    }

    @Test("no alert for a prayer the high-latitude rule cannot place (Tromsø at midsummer)")
    func polarDay() throws {
        let tromso = try PrayerSettingsChange(latitude: 69.6492, longitude: 18.9553, timeZone: "Europe/Oslo").applied(to: nil)
        let day = try LocalDate(iso8601: "2026-06-21")
        let schedule = try tromso.calculator().schedule(for: day)
        let missing = PrayerAlertSettings.alertable.filter { schedule[$0].date == nil }
        try #require(!missing.isEmpty, "the midnight sun leaves some prayers without a time")
        let planned = try PrayerAlert.plan(
            accountID: UUID(), prayer: tromso, alerts: PrayerAlertSettings(prayers: PrayerAlertSettings.alertable), from: day, through: day)
        #expect(Set(planned.map(\.prayer)) == Set(PrayerAlertSettings.alertable).subtracting(missing))
        #expect(planned.allSatisfy { schedule[$0.prayer].date == $0.prayerTime })
    }
}
