import Foundation
import JadwalCore
import JadwalHTTP
import PrayerTimes
import Synchronization

/// Dates and times as the person reads them: in their language's conventions (ICU via
/// Foundation) and their time zone. One per language and zone, shared by requests: opening ICU's
/// formatters cost a month page a tenth of its time, and `DateFormatter` locks its own state.
package struct WebFormats: Sendable {
    private static let made = Mutex<[String: WebFormats]>([:])

    package static func shared(language: Language, zone: TimeZone) -> WebFormats {
        let key = language.rawValue + " " + zone.identifier
        if let made = made.withLock({ $0[key] }) { return made }
        let formats = WebFormats(language: language, zone: zone)
        made.withLock { table in
            if table.count >= 256 { table.removeAll() }  // zones people use are few; bounded all the same
            table[key] = formats
        }
        return formats
    }

    package let language: Language
    package let zone: TimeZone
    private let time: DateFormatter
    private let fullDay: DateFormatter
    private let monthYear: DateFormatter
    private let shortDay: DateFormatter
    private let weekdayShort: DateFormatter
    private let dayNumber: DateFormatter
    private let calendar: Foundation.Calendar

    private init(language: Language, zone: TimeZone) {
        self.language = language
        self.zone = zone
        var calendar = Foundation.Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        self.calendar = calendar
        let locale = Locale(identifier: language == .arabic ? "ar" : "en-GB")
        func formatter(_ template: String) -> DateFormatter {
            let formatter = DateFormatter()
            formatter.locale = locale
            formatter.timeZone = zone
            formatter.calendar = calendar
            formatter.setLocalizedDateFormatFromTemplate(template)
            return formatter
        }
        time = formatter("jmm")
        fullDay = formatter("EEEEdMMMMy")
        monthYear = formatter("MMMMy")
        shortDay = formatter("EEEdMMM")
        weekdayShort = formatter("EEE")
        dayNumber = formatter("d")
    }

    package func time(_ date: Date) -> String { time.string(from: date) }
    package func fullDay(_ day: LocalDate) -> String { fullDay.string(from: noon(day)) }
    package func monthYear(_ day: LocalDate) -> String { monthYear.string(from: noon(day)) }
    package func shortDay(_ day: LocalDate) -> String { shortDay.string(from: noon(day)) }
    package func weekday(_ day: LocalDate) -> String { weekdayShort.string(from: noon(day)) }
    package func dayNumber(_ day: LocalDate) -> String { dayNumber.string(from: noon(day)) }

    /// The day an instant falls on in the person's zone.
    package func localDay(_ instant: Date) -> LocalDate { CalendarLayout.localDay(instant, calendar: calendar) }

    /// "09:00–10:30", or one time for an event that takes none.
    package func timeRange(_ start: Date, _ end: Date) -> String {
        end > start ? "\(time(start))–\(time(end))" : time(start)
    }

    /// The Umm al-Qura date, for people who asked to see it.
    package func hijri(_ day: LocalDate) -> String? {
        guard let hijri = HijriDate(gregorian: day) else { return nil }
        return language == .arabic ? hijri.arabicDescription : hijri.description
    }

    /// The Hijri dates a span of days covers, shortened where the month or year is shared:
    /// "14–20 Rabi' al-Awwal 1448 AH", "28 Safar – 5 Rabi' al-Awwal 1448 AH".
    package func hijri(from first: LocalDate, through last: LocalDate) -> String? {
        guard let start = HijriDate(gregorian: first), let end = HijriDate(gregorian: last) else { return nil }
        let arabic = language == .arabic
        if start == end { return hijri(first) }
        func month(_ date: HijriDate) -> String { arabic ? date.arabicMonthName : date.monthName }
        let era = arabic ? "هـ" : "AH"
        if start.year == end.year && start.month == end.month {
            return "\(start.day)–\(end.day) \(month(end)) \(end.year) \(era)"
        }
        if start.year == end.year { return "\(start.day) \(month(start)) – \(end.day) \(month(end)) \(end.year) \(era)" }
        return "\(arabic ? start.arabicDescription : start.description) – \(arabic ? end.arabicDescription : end.description)"
    }

    /// Midday of a local day in the zone: safe from clock changes at midnight.
    private func noon(_ day: LocalDate) -> Date {
        return calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: 12))
            ?? Date(timeIntervalSince1970: Double(day.daysSinceEpoch) * 86_400 + 43_200)
    }
}

extension WebFormats {
    /// A UTC date-time as stored (`2026-11-25T15:30:00Z`) on the person's wall clock, as a form's
    /// `datetime-local` value (`2026-11-25T18:30`); nil for text that is not a UTC date-time.
    package static func wallClock(utc text: String, zone: String) -> String? {
        guard text.hasSuffix("Z"), let instant = ISO8601DateFormatter().date(from: text) else { return nil }
        return wallClockFormatter(zone: zone).string(from: instant)
    }

    /// Reads and writes `2026-12-08T10:00` on `zone`'s wall clock (a form's date and time fields).
    package static func wallClockFormatter(zone: String) -> DateFormatter {
        let wall = DateFormatter()
        wall.locale = Locale(identifier: "en_US_POSIX")
        wall.timeZone = TimeZone(identifier: zone) ?? .gmt
        wall.dateFormat = "yyyy-MM-dd'T'HH:mm"
        return wall
    }
}
