import CivilTime
import Foundation

/// A date in the Umm al-Qura Hijri calendar (Saudi Arabia's official calendar), from Foundation's
/// `.islamicUmmAlQura` calendar, which follows the published Umm al-Qura tables.
public struct HijriDate: Sendable, Hashable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// The Hijri date of the daytime of the Gregorian day (the civil convention of the
    /// Umm al-Qura calendar; the religious day begins at the previous sunset).
    public init?(gregorian: LocalDate) {
        let noon = Date(timeIntervalSince1970: Double(gregorian.daysSinceEpoch) * 86_400 + 43_200)
        let components = Self.calendar.dateComponents([.year, .month, .day], from: noon)
        guard let year = components.year, let month = components.month, let day = components.day else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    public var isRamadan: Bool { month == 9 }

    public var monthName: String { Self.englishMonthNames[(month - 1 + 12) % 12] }
    public var arabicMonthName: String { Self.arabicMonthNames[(month - 1 + 12) % 12] }

    /// For example "16 Ramadan 1447 AH".
    public var description: String { "\(day) \(monthName) \(year) AH" }
    /// For example "16 رمضان 1447 هـ".
    public var arabicDescription: String { "\(day) \(arabicMonthName) \(year) هـ" }

    static let englishMonthNames = [
        "Muharram", "Safar", "Rabi al-Awwal", "Rabi al-Thani", "Jumada al-Ula", "Jumada al-Akhirah",
        "Rajab", "Shaban", "Ramadan", "Shawwal", "Dhu al-Qadah", "Dhu al-Hijjah",
    ]
    static let arabicMonthNames = [
        "محرم", "صفر", "ربيع الأول", "ربيع الآخر", "جمادى الأولى", "جمادى الآخرة",
        "رجب", "شعبان", "رمضان", "شوال", "ذو القعدة", "ذو الحجة",
    ]

    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .islamicUmmAlQura)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        return calendar
    }()
}

/// Caches which Gregorian days fall in Ramadan, one Gregorian year at a time, so a year of
/// schedules asks Foundation's calendar a few times instead of once a day.
struct RamadanDays: Sendable {
    /// False for one-off lookups, where asking the calendar directly is cheaper.
    let cachesYears: Bool
    private var year: Int = .min
    private var days: ClosedRange<Int>? = nil
    private var secondDays: ClosedRange<Int>? = nil

    init(cachesYears: Bool) {
        self.cachesYears = cachesYears
    }

    mutating func contains(_ date: LocalDate) -> Bool {
        guard cachesYears else { return HijriDate(gregorian: date)?.isRamadan == true }
        if date.year != year { load(year: date.year) }
        let day = date.daysSinceEpoch
        return days?.contains(day) == true || secondDays?.contains(day) == true
    }

    private mutating func load(year: Int) {
        self.year = year
        days = nil
        secondDays = nil
        // Ramadan is 29 or 30 days and a Gregorian year holds at most two of them in part; find
        // them by stepping 20 days (shorter than a month) and widening around each hit.
        guard let first = try? LocalDate(year: year, month: 1, day: 1) else { return }
        let start = first.daysSinceEpoch
        let end = start + (CivilDays.isLeap(year) ? 366 : 365) - 1
        var found: [ClosedRange<Int>] = []
        var probe = start
        while probe <= end + 19 {
            let day = min(probe, end)
            if isRamadan(day), !found.contains(where: { $0.contains(day) }) {
                var low = day
                while isRamadan(low - 1) { low -= 1 }
                var high = day
                while isRamadan(high + 1) { high += 1 }
                found.append(low...high)
            }
            if probe >= end { break }
            probe += 20
        }
        days = found.first
        secondDays = found.count > 1 ? found[1] : nil
    }

    private func isRamadan(_ day: Int) -> Bool {
        HijriDate(gregorian: LocalDate(daysSinceEpoch: day))?.isRamadan == true
    }
}
