import Foundation
import ICalendar
import PrayerTimes

/// Prayer times as an iCalendar calendar: one busy event per prayer, as long as the person's
/// block for it, in the place's time zone (with its VTIMEZONE), titled in their language.
/// Computed on demand for a window; never stored.
public struct PrayerCalendar: Sendable {
    public var settings: PrayerSettings
    public var language: Language
    /// Minutes before each prayer for a reminder; nil for none.
    public var alarmMinutesBefore: Int?

    public init(settings: PrayerSettings, language: Language, alarmMinutesBefore: Int? = nil) {
        self.settings = settings
        self.language = language
        self.alarmMinutesBefore = alarmMinutesBefore
    }

    /// The prayers that block time. Sunrise ends Fajr's time but is not a prayer.
    static let blocking: [Prayer] = [.fajr, .dhuhr, .asr, .maghrib, .isha]

    public var calendarName: String { language == .arabic ? "أوقات الصلاة" : "Prayer Times" }

    /// The VCALENDAR for the local days `first` through `last`.
    public func calendar(from first: LocalDate, through last: LocalDate, now: Date) throws(PrayerTimesError) -> Component {
        let calculator = try settings.calculator()
        let zone = calculator.timeZone
        var components: [Component] = []
        if let vtimezone = VTimeZoneWriter.component(forIANAIdentifier: settings.timeZone, fromYear: Swift.max(1970, first.year - 1)) {
            components.append(vtimezone)
        }
        let stamp = Self.stamp(now, zone: .gmt) + "Z"
        for block in blocks(calculator.schedules(from: first, through: last)) {
            let (prayer, jumuah) = (block.prayer, block.isJumuah)
            var properties = [
                Property(name: "UID", value: "\(block.date)-\(prayer.rawValue)@prayer.jadwal"),
                Property(name: "DTSTAMP", value: stamp),
                Property(name: "DTSTART", parameters: [Parameter("TZID", settings.timeZone)], value: Self.stamp(block.start, zone: zone)),
                Property(name: "DURATION", value: "PT\(block.minutes)M"),
                Property(name: "SUMMARY", text: title(prayer, jumuah: jumuah)),
                Property(name: "TRANSP", value: "OPAQUE"),
                Property(name: "CATEGORIES", text: language == .arabic ? "صلاة" : "Prayer"),
            ]
            if let place = settings.placeName { properties.append(Property(name: "LOCATION", text: place)) }
            var alarms: [Component] = []
            if let before = alarmMinutesBefore {
                alarms.append(Component(name: "VALARM", properties: [
                    Property(name: "ACTION", value: "DISPLAY"),
                    Property(name: "DESCRIPTION", text: title(prayer, jumuah: jumuah)),
                    Property(name: "TRIGGER", value: before == 0 ? "PT0S" : "-PT\(before)M"),
                ]))
            }
            components.append(Component(name: "VEVENT", properties: properties, components: alarms))
        }
        return Component(
            name: "VCALENDAR",
            properties: [
                Property(name: "VERSION", value: "2.0"),
                Property(name: "PRODID", value: "-//Jadwal//Prayer Times//EN"),
                Property(name: "CALSCALE", value: "GREGORIAN"),
                Property(name: "METHOD", value: "PUBLISH"),
                Property(name: "X-WR-CALNAME", text: calendarName),
                Property(name: "X-WR-TIMEZONE", value: settings.timeZone),
                // Subscribing clients refetch daily, so the rolling window stays ahead.
                Property(name: "REFRESH-INTERVAL", parameters: [Parameter("VALUE", "DURATION")], value: "P1D"),
                Property(name: "X-PUBLISHED-TTL", value: "P1D"),
            ],
            components: components
        )
    }

    /// One prayer's block of time: from the adhan, for the person's minutes for it.
    public struct Block: Sendable, Hashable {
        public var prayer: Prayer
        /// Dhuhr on a Friday, with the Jumu'ah block's length.
        public var isJumuah: Bool
        public var start: Date
        public var minutes: Int
        /// The local day it is on, in the place's zone.
        public var date: LocalDate

        public var end: Date { start.addingTimeInterval(TimeInterval(minutes * 60)) }
    }

    /// The blocks of the local days `first` through `last`: the calendar's events, and the busy
    /// time conflicts and planning keep clear.
    public func blocks(from first: LocalDate, through last: LocalDate) throws(PrayerTimesError) -> [Block] {
        blocks(try settings.calculator().schedules(from: first, through: last))
    }

    func blocks(_ schedules: [PrayerSchedule]) -> [Block] {
        var blocks: [Block] = []
        for schedule in schedules {
            let friday = schedule.date.weekday == 5
            for prayer in Self.blocking {
                guard let start = schedule[prayer].date else { continue }  // polar day/night: no block, never a wrong one
                let jumuah = friday && prayer == .dhuhr
                let minutes = jumuah ? settings.blocks.jumuah : settings.blocks.minutes(for: prayer)
                guard minutes > 0 else { continue }
                blocks.append(Block(prayer: prayer, isJumuah: jumuah, start: start, minutes: minutes, date: schedule.date))
            }
        }
        return blocks
    }

    public func title(_ prayer: Prayer, jumuah: Bool) -> String {
        if jumuah { return language == .arabic ? "صلاة الجمعة" : "Jumu'ah" }
        return language == .arabic ? prayer.arabicName : prayer.englishName
    }

    /// An iCalendar DATE-TIME as read on the wall clock of `zone` (without the UTC `Z`).
    static func stamp(_ date: Date, zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d%02d%02dT%02d%02d%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
    }
}

extension PrayerBlocks {
    public func minutes(for prayer: Prayer) -> Int {
        switch prayer {
        case .fajr: fajr
        case .sunrise: 0
        case .dhuhr: dhuhr
        case .asr: asr
        case .maghrib: maghrib
        case .isha: isha
        }
    }
}
