import Foundation
import PrayerTimes

/// Which prayers a person wants to be told about, and how early. Off (no prayer) until chosen.
public struct PrayerAlertSettings: Sendable, Hashable, Codable {
    /// The prayers an alert can be for, in the day's order. Sunrise ends Fajr's time but is not a prayer.
    public static let alertable: [Prayer] = [.fajr, .dhuhr, .asr, .maghrib, .isha]
    /// Minutes before the prayer's time; 0 is at the time.
    public static let leadLimit = 0...120

    /// A subset of `alertable`, in the day's order.
    public var prayers: [Prayer]
    public var minutesBefore: Int
    /// On Fridays, an alert for Jumu'ah instead of Dhuhr (at Dhuhr's time, `jumuahMinutesBefore`
    /// early: people leave for the sermon sooner), whether or not Dhuhr is on.
    public var jumuah: Bool
    public var jumuahMinutesBefore: Int

    public init(prayers: [Prayer] = [], minutesBefore: Int = 0, jumuah: Bool = false, jumuahMinutesBefore: Int = 30) {
        self.prayers = Self.alertable.filter(prayers.contains)
        self.minutesBefore = minutesBefore
        self.jumuah = jumuah
        self.jumuahMinutesBefore = jumuahMinutesBefore
    }

    /// At least one alert would fire.
    public var isOn: Bool { !prayers.isEmpty || jumuah }
}

/// A change to prayer alerts from the API or the web form; anything not given keeps its value.
public struct PrayerAlertChange: Sendable, Decodable {
    public var prayers: [String]?
    public var minutesBefore: Int?
    public var jumuah: Bool?
    public var jumuahMinutesBefore: Int?

    public init(prayers: [String]? = nil, minutesBefore: Int? = nil, jumuah: Bool? = nil, jumuahMinutesBefore: Int? = nil) {
        self.prayers = prayers
        self.minutesBefore = minutesBefore
        self.jumuah = jumuah
        self.jumuahMinutesBefore = jumuahMinutesBefore
    }

    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case unknownPrayer(String)
        case leadOutOfRange(field: String)

        public var description: String {
            switch self {
            case .unknownPrayer(let name):
                "'prayers': '\(name)' is not a prayer with an alert (\(PrayerAlertSettings.alertable.map(\.rawValue).joined(separator: ", ")))"
            case .leadOutOfRange(let field):
                "'\(field)' must be a whole number of minutes from \(PrayerAlertSettings.leadLimit.lowerBound) to \(PrayerAlertSettings.leadLimit.upperBound)"
            }
        }
    }

    public func applied(to current: PrayerAlertSettings) throws(Problem) -> PrayerAlertSettings {
        var next = current
        if let prayers {
            var chosen: [Prayer] = []
            for name in prayers {
                let key = name.trimmingCharacters(in: .whitespaces).lowercased()
                guard let prayer = PrayerAlertSettings.alertable.first(where: { $0.rawValue == key }) else { throw .unknownPrayer(name) }
                chosen.append(prayer)
            }
            next.prayers = PrayerAlertSettings.alertable.filter(chosen.contains)
        }
        if let minutesBefore {
            guard PrayerAlertSettings.leadLimit.contains(minutesBefore) else { throw .leadOutOfRange(field: "minutesBefore") }
            next.minutesBefore = minutesBefore
        }
        if let jumuah { next.jumuah = jumuah }
        if let jumuahMinutesBefore {
            guard PrayerAlertSettings.leadLimit.contains(jumuahMinutesBefore) else { throw .leadOutOfRange(field: "jumuahMinutesBefore") }
            next.jumuahMinutesBefore = jumuahMinutesBefore
        }
        return next
    }
}

/// One alert: a prayer on one local day of the place, and when it fires.
public struct PrayerAlert: Sendable, Hashable, Codable {
    public var accountID: UUID
    public var prayer: Prayer
    public var isJumuah: Bool
    /// The local day at the place (`2026-11-27`).
    public var day: String
    public var prayerTime: Date
    public var fireAt: Date

    public init(accountID: UUID, prayer: Prayer, isJumuah: Bool, day: String, prayerTime: Date, fireAt: Date) {
        self.accountID = accountID
        self.prayer = prayer
        self.isJumuah = isJumuah
        self.day = day
        self.prayerTime = prayerTime
        self.fireAt = fireAt
    }

    /// One notification per prayer and day, however often it is scheduled.
    public var reasonKey: String { "prayer:\(day):\(isJumuah ? "jumuah" : prayer.rawValue)" }

    /// The alerts of the place's local days `first` through `last`, in time order. A prayer
    /// whose time does not exist that day (polar day or night, beyond what the high-latitude rule
    /// can place) has no alert: never one at a made-up time.
    public static func plan(
        accountID: UUID, prayer settings: PrayerSettings, alerts: PrayerAlertSettings, from first: LocalDate, through last: LocalDate
    ) throws(PrayerTimesError) -> [PrayerAlert] {
        guard alerts.isOn else { return [] }
        var planned: [PrayerAlert] = []
        for schedule in try settings.calculator().schedules(from: first, through: last) {
            let friday = schedule.date.weekday == 5
            for prayer in PrayerAlertSettings.alertable {
                let jumuah = friday && prayer == .dhuhr && alerts.jumuah
                guard jumuah || alerts.prayers.contains(prayer), let time = schedule[prayer].date else { continue }
                let lead = jumuah ? alerts.jumuahMinutesBefore : alerts.minutesBefore
                planned.append(PrayerAlert(
                    accountID: accountID, prayer: prayer, isJumuah: jumuah, day: schedule.date.description, prayerTime: time,
                    fireAt: time.addingTimeInterval(-TimeInterval(lead * 60))))
            }
        }
        return planned.sorted { $0.fireAt < $1.fireAt }
    }
}
