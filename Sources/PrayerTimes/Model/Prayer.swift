import Foundation

/// The five daily prayers and sunrise (the end of Fajr's time), in the order of the day.
public enum Prayer: String, Sendable, Hashable, CaseIterable, Codable {
    case fajr, sunrise, dhuhr, asr, maghrib, isha

    public var englishName: String {
        switch self {
        case .fajr: return "Fajr"
        case .sunrise: return "Sunrise"
        case .dhuhr: return "Dhuhr"
        case .asr: return "Asr"
        case .maghrib: return "Maghrib"
        case .isha: return "Isha"
        }
    }

    public var arabicName: String {
        switch self {
        case .fajr: return "الفجر"
        case .sunrise: return "الشروق"
        case .dhuhr: return "الظهر"
        case .asr: return "العصر"
        case .maghrib: return "المغرب"
        case .isha: return "العشاء"
        }
    }
}

/// Why a time does not exist on a given day.
public enum PrayerTimeUnavailability: Error, Sendable, Hashable, CustomStringConvertible {
    /// The Sun does not rise (polar night): no sunrise, sunset, or times measured from them.
    case polarNight
    /// The Sun does not set (polar day): no sunrise, sunset, or times measured from them.
    case polarDay
    /// The Sun never reaches the altitude that defines the time (for example the Asr shadow).
    case sunDoesNotReachAltitude

    public var description: String {
        switch self {
        case .polarNight: return "no sunrise or sunset: the Sun stays below the horizon (polar night)"
        case .polarDay: return "no sunrise or sunset: the Sun stays above the horizon (polar day)"
        case .sunDoesNotReachAltitude: return "the Sun does not reach the altitude that defines this time"
        }
    }
}

/// A computed time, or the reason there is none.
public enum PrayerTime: Sendable, Hashable {
    case at(Date)
    case unavailable(PrayerTimeUnavailability)

    /// The instant, or nil when unavailable.
    public var date: Date? {
        if case .at(let date) = self { return date }
        return nil
    }
}

/// One local day's prayer times at one place.
public struct PrayerSchedule: Sendable, Hashable {
    /// The local calendar date.
    public let date: LocalDate
    public let timeZone: TimeZone
    public let fajr: PrayerTime
    public let sunrise: PrayerTime
    public let dhuhr: PrayerTime
    public let asr: PrayerTime
    public let maghrib: PrayerTime
    public let isha: PrayerTime
    /// Fajr minus the parameters' imsak interval.
    public let imsak: PrayerTime
    /// Halfway from sunset to the next sunrise.
    public let midnight: PrayerTime
    /// Two thirds of the way from sunset to the next sunrise.
    public let lastThirdOfNight: PrayerTime

    public subscript(prayer: Prayer) -> PrayerTime {
        switch prayer {
        case .fajr: return fajr
        case .sunrise: return sunrise
        case .dhuhr: return dhuhr
        case .asr: return asr
        case .maghrib: return maghrib
        case .isha: return isha
        }
    }

    /// Set when the Sun neither rises nor sets on this day.
    public var polarCondition: PrayerTimeUnavailability? {
        if case .unavailable(let reason) = sunrise, reason == .polarDay || reason == .polarNight { return reason }
        return nil
    }

    /// The Umm al-Qura Hijri date of the local date.
    public var hijriDate: HijriDate? { HijriDate(gregorian: date) }
}
