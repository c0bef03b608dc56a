import Foundation
import ICalendar
import JadwalCore
import PrayerTimes
import Testing

@Suite("Prayer times as a calendar")
struct PrayerCalendarTests {
    static let riyadh = PrayerSettings(latitude: 24.6877, longitude: 46.7219, timeZone: "Asia/Riyadh", placeName: "Riyadh / الرياض", method: .ummAlQura)

    @Test("one busy event per prayer, block-long, in the place's zone; Jumu'ah on Friday")
    func week() throws {
        var settings = Self.riyadh
        settings.blocks.isha = 30
        let calendar = PrayerCalendar(settings: settings, language: .english, alarmMinutesBefore: 10)
        // 2026-03-01 is a Sunday; the 6th a Friday.
        let vcalendar = try calendar.calendar(from: try LocalDate(iso8601: "2026-03-01"), through: try LocalDate(iso8601: "2026-03-07"), now: Date())
        let text = vcalendar.serialized
        let parsed = try ICalendarParser().parseCalendar(text)
        let events = parsed.components(named: "VEVENT")
        #expect(events.count == 35)
        #expect(parsed.components(named: "VTIMEZONE").first?.first("TZID")?.value == "Asia/Riyadh")
        #expect(events.allSatisfy { $0.first("DTSTART")?.parameter("TZID") == "Asia/Riyadh" && $0.first("TRANSP")?.value == "OPAQUE" })
        #expect(events.allSatisfy { $0.components(named: "VALARM").first?.first("TRIGGER")?.value == "-PT10M" })
        let titles = events.compactMap { $0.first("SUMMARY")?.text }
        #expect(titles.filter { $0 == "Jumu'ah" }.count == 1 && titles.filter { $0 == "Dhuhr" }.count == 6)
        let jumuah = try #require(events.first { $0.first("SUMMARY")?.text == "Jumu'ah" })
        #expect(jumuah.first("DTSTART")?.value.hasPrefix("20260306T") == true && jumuah.first("DURATION")?.value == "PT60M")
        #expect(events.first { $0.first("SUMMARY")?.text == "Isha" }?.first("DURATION")?.value == "PT30M")
        // Start times are the computed ones, written as local time.
        let schedule = try settings.calculator().schedule(for: try LocalDate(iso8601: "2026-03-01"))
        let fajr = try #require(events.first { $0.first("UID")?.value == "2026-03-01-fajr@prayer.jadwal" })
        var local = Calendar(identifier: .gregorian)
        local.timeZone = try #require(TimeZone(identifier: "Asia/Riyadh"))
        let c = local.dateComponents([.hour, .minute], from: try #require(schedule.fajr.date))
        #expect(fajr.first("DTSTART")?.value == String(format: "20260301T%02d%02d00", c.hour ?? 0, c.minute ?? 0))
    }

    @Test("Arabic titles for Arabic speakers; no alarm unless asked")
    func arabic() throws {
        let calendar = PrayerCalendar(settings: Self.riyadh, language: .arabic)
        let vcalendar = try calendar.calendar(from: try LocalDate(iso8601: "2026-03-06"), through: try LocalDate(iso8601: "2026-03-06"), now: Date())
        let titles = vcalendar.components(named: "VEVENT").compactMap { $0.first("SUMMARY")?.text }
        #expect(titles == ["الفجر", "صلاة الجمعة", "العصر", "المغرب", "العشاء"])
        #expect(vcalendar.first("X-WR-CALNAME")?.text == "أوقات الصلاة")
        #expect(vcalendar.components(named: "VEVENT").allSatisfy { $0.components(named: "VALARM").isEmpty })
    }

    @Test("polar night leaves out the prayers that have no time instead of inventing one")
    func polarNight() throws {
        let svalbard = PrayerSettings(latitude: 78.22, longitude: 15.65, timeZone: "Arctic/Longyearbyen", method: .muslimWorldLeague)
        let calendar = PrayerCalendar(settings: svalbard, language: .english)
        let day = try LocalDate(iso8601: "2026-12-21")
        let events = try calendar.calendar(from: day, through: day, now: Date()).components(named: "VEVENT")
        let schedule = try svalbard.calculator().schedule(for: day)
        let expected = [Prayer.fajr, .dhuhr, .asr, .maghrib, .isha].filter { schedule[$0].date != nil }.count
        #expect(events.count == expected && expected < 5)
    }
}
