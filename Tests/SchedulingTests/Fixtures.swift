import Foundation
import Testing
@testable import Scheduling

/// Zones and wall-clock readings for the tests: "2026-03-29 02:30" in a zone, as an instant.
enum Zones {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    static let riyadh = TimeZone(identifier: "Asia/Riyadh")!
    static let newYork = TimeZone(identifier: "America/New_York")!
    static let utc = TimeZone(identifier: "UTC")!
}

/// The instant a clock in `zone` reads `text` ("YYYY-MM-DD HH:MM"), resolved as Foundation does.
func at(_ text: String, _ zone: TimeZone = Zones.berlin) -> Date {
    let numbers = text.split(whereSeparator: { "- :".contains($0) }).compactMap { Int($0) }
    precondition(numbers.count == 5, "bad test time \(text)")
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    let parts = DateComponents(year: numbers[0], month: numbers[1], day: numbers[2], hour: numbers[3], minute: numbers[4])
    guard let date = calendar.date(from: parts) else { preconditionFailure("bad test time \(text)") }
    return date
}

/// An instant in UTC: "2026-03-29T01:30Z" style readings for exact expectations.
func utc(_ text: String) -> Date { at(text, Zones.utc) }

func span(_ start: String, _ end: String, _ zone: TimeZone = Zones.berlin) throws -> TimeRange {
    try TimeRange(start: at(start, zone), end: at(end, zone))
}

func event(_ id: String, _ start: String, _ end: String, _ zone: TimeZone = Zones.berlin, title: String? = nil) throws -> BusyBlock {
    BusyBlock(try span(start, end, zone), .event(id: id, title: title ?? id))
}

func prayer(_ name: PrayerName, _ start: String, minutes: Double = 20, _ zone: TimeZone = Zones.berlin) throws -> BusyBlock {
    BusyBlock(try TimeRange(start: at(start, zone), duration: minutes * 60), .prayer(name))
}

func time(_ text: String) throws -> TimeOfDay { try TimeOfDay(parsing: text) }

/// A Berlin day's five prayers at plausible March times.
func marchPrayers(on day: String) throws -> [BusyBlock] {
    try [
        prayer(.fajr, "\(day) 05:00"), prayer(.dhuhr, "\(day) 12:30"), prayer(.asr, "\(day) 15:30"),
        prayer(.maghrib, "\(day) 18:30"), prayer(.isha, "\(day) 20:00"),
    ]
}

/// Readable instants in failure messages: "2026-03-10 14:00" on the Berlin clock.
func berlinClock(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = Zones.berlin
    let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
    return String(format: "%04d-%02d-%02d %02d:%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!)
}
