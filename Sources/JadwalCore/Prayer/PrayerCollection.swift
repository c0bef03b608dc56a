import Foundation
import ICalendar
import PrayerTimes

/// Prayer settings as stored: their revision changes with every save.
public struct StoredPrayerSettings: Sendable, Hashable {
    public var settings: PrayerSettings
    public var revision: Int64
    public var updatedAt: Date

    public init(settings: PrayerSettings, revision: Int64, updatedAt: Date) {
        self.settings = settings
        self.revision = revision
        self.updatedAt = updatedAt
    }
}

/// The read-only "Prayer Times" calendar in every calendar home that has prayer settings: one
/// object per prayer per day over a rolling window, computed on demand and never stored.
///
/// Its revision packs the settings' revision with the window's first day, so a sync token says
/// both which settings and which days a client has; what changed since is computed, not logged.
public struct PrayerCollection: Sendable {
    public static let daysBack = 7
    public static let daysAhead = 60

    public let accountID: UUID
    public let stored: StoredPrayerSettings
    public let language: Language
    /// Today in the settings' zone.
    public let today: LocalDate

    public init(accountID: UUID, stored: StoredPrayerSettings, language: Language, now: Date) {
        self.accountID = accountID
        self.stored = stored
        self.language = language
        today = LocalDate.today(in: TimeZone(identifier: stored.settings.timeZone) ?? .gmt, now: now)
    }

    /// The account's prayer-times calendar as of `now`; nil when it has no prayer settings.
    public static func of(_ account: Account, now: Date, store: any Store) async throws -> PrayerCollection? {
        guard let stored = try await store.read({ tx in try await tx.storedPrayerSettings(accountID: account.id) }) else { return nil }
        return PrayerCollection(accountID: account.id, stored: stored, language: account.language, now: now)
    }

    /// A stable id for sync tokens, derived from the account (the collection has no row).
    public static func calendarID(accountID: UUID) -> UUID {
        var bytes = accountID.uuid
        bytes.6 ^= 0xA5
        return UUID(uuid: bytes)
    }

    static let dayBits: Int64 = 24

    public var revision: Int64 { Self.revision(settings: stored.revision, firstDay: firstDay) }

    static func revision(settings: Int64, firstDay: LocalDate) -> Int64 {
        settings << dayBits | Int64(firstDay.daysSinceEpoch)
    }

    var firstDay: LocalDate { today.adding(days: -Self.daysBack) }
    var lastDay: LocalDate { today.adding(days: Self.daysAhead) }

    /// The collection as the DAV layer sees any calendar: read-only, events only.
    public var collection: CalendarCollection {
        CalendarCollection(
            id: Self.calendarID(accountID: accountID), accountID: accountID, slug: CalendarSlug.prayerTimes,
            displayName: language == .arabic ? "مواقيت الصلاة" : "Prayer Times",
            description: language == .arabic ? "مواقيت الصلاة يحسبها جدول (للقراءة فقط)" : "Prayer times computed by Jadwal (read-only)",
            color: CalendarPalette.prayerTimes, order: 100, timeZone: stored.settings.timeZone, components: [.event], revision: revision,
            createdAt: stored.updatedAt)
    }

    /// Every object in the window, in time order.
    public func objects() throws(PrayerTimesError) -> [CalendarObject] {
        try objects(from: firstDay, through: lastDay)
    }

    /// The objects of the days `first` through `last`, one VEVENT each with its VTIMEZONE.
    /// DTSTAMP is the time the settings were saved, so an object's bytes (and ETag) change only
    /// when the settings do.
    func objects(from first: LocalDate, through last: LocalDate) throws(PrayerTimesError) -> [CalendarObject] {
        let builder = PrayerCalendar(settings: stored.settings, language: language)
        let whole = try builder.calendar(from: first, through: last, now: stored.updatedAt)
        let zones = whole.components.filter { $0.name == "VTIMEZONE" }
        var objects: [CalendarObject] = []
        for event in whole.components where event.name == "VEVENT" {
            let single = Component(
                name: "VCALENDAR",
                properties: [Property(name: "VERSION", value: "2.0"), Property(name: "PRODID", value: "-//Jadwal//Prayer Times//EN")],
                components: zones + [event])
            guard let content = try? CalendarObjectContent(text: single.serialized) else { continue }
            objects.append(CalendarObject(
                calendarID: Self.calendarID(accountID: accountID), name: Self.name(uid: content.uid), uid: content.uid, component: .event,
                icalendar: content.text, etag: content.etag, firstStart: content.firstStart, lastEnd: content.lastEnd,
                revision: revision, updatedAt: stored.updatedAt))
        }
        return objects
    }

    /// The most days one query may compute: a year and a bit, so a year view works and no
    /// request can ask for centuries of astronomy.
    public static let maxQueryDays = 400

    /// Objects of any period, not only the synced window (a calendar-query or free-busy over
    /// next year): computed for the local days that can touch [start, end), at most
    /// `maxQueryDays` of them from the start.
    public func objects(overlapping start: Date, _ end: Date) throws(PrayerTimesError) -> [CalendarObject] {
        let window = try localDays(from: start, to: end)
        return try objects(from: window.first, through: window.last).filter { $0.mayOverlap(start: start, end: end) }
    }

    /// The object a name stands for (`2027-03-05-fajr.ics`), for any day, or nil.
    public func object(named name: String) throws(PrayerTimesError) -> CalendarObject? {
        guard name.hasSuffix(".ics"), name.count > 15, let day = try? LocalDate(iso8601: String(name.prefix(10))),
              abs(day.daysSinceEpoch - today.daysSinceEpoch) <= Self.maxQueryDays
        else { return nil }
        return try objects(from: day, through: day).first { $0.name == name }
    }

    private func localDays(from start: Date, to end: Date) throws(PrayerTimesError) -> (first: LocalDate, last: LocalDate) {
        func day(_ date: Date) -> Int {
            // Any zone is within ±14 h of UTC: a day either side covers the local dates.
            Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
        }
        let todayNumber = today.daysSinceEpoch
        let limit = Double(Self.maxQueryDays + 2) * 86_400
        let clampedStart = max(start.timeIntervalSince1970, Double(todayNumber) * 86_400 - limit)
        let clampedEnd = min(end.timeIntervalSince1970, Double(todayNumber) * 86_400 + limit)
        let first = day(Date(timeIntervalSince1970: clampedStart)) - 1
        let last = min(day(Date(timeIntervalSince1970: clampedEnd)) + 1, first + Self.maxQueryDays)
        return (LocalDate(daysSinceEpoch: first), LocalDate(daysSinceEpoch: max(first, last)))
    }

    /// `2026-11-21-fajr@prayer.jadwal` → `2026-11-21-fajr.ics`.
    static func name(uid: String) -> String {
        ObjectIdentity.name(forUID: uid)
    }

    /// What changed since a revision this collection issued, or nil for one it cannot read
    /// (then the client syncs from scratch, as RFC 6578 allows).
    public func changes(since old: Int64) throws(PrayerTimesError) -> (written: [CalendarObject], deleted: [String])? {
        let oldSettings = old >> Self.dayBits
        let oldFirst = LocalDate(daysSinceEpoch: Int(old & ((1 << Self.dayBits) - 1)))
        guard old >= 0, oldSettings <= stored.revision, oldFirst <= firstDay else { return nil }
        let current = try objects()
        if oldSettings == stored.revision, oldFirst == firstDay { return ([], []) }
        let currentNames = Set(current.map(\.name))
        let oldLast = oldFirst.adding(days: Self.daysBack + Self.daysAhead)
        // Names are per day and prayer, so the old window's names are known without computing it.
        // With new settings any old name may be gone (a block set to 0, a polar day), so the
        // whole old window is checked; with the same settings only the days that left it.
        let settingsChanged = oldSettings != stored.revision
        var deleted: [String] = []
        var day = oldFirst
        while day <= oldLast && (settingsChanged || day < firstDay) {
            for prayer in PrayerCalendar.blocking {
                let name = "\(day)-\(prayer.rawValue).ics"
                if !currentNames.contains(name) { deleted.append(name) }
            }
            day = day.adding(days: 1)
        }
        if settingsChanged { return (current, deleted) }
        // Same settings: only days that entered the window are new.
        let newDays = Set((0...Self.daysBack + Self.daysAhead).map { firstDay.adding(days: $0) }.filter { $0 > oldLast }.map(\.description))
        return (current.filter { newDays.contains(String($0.name.prefix(10))) }, deleted)
    }
}
