import DAV
import Foundation
import ICalendar
@testable import JadwalCalDAV
import JadwalCore
import Testing

/// Issue 22: caches bounded in bytes, not entries. Parsed calendars (about ten times their text)
/// are kept only while among the most recently parsed; entries are bounded by their text.
@Suite("Parsed calendar cache")
struct ParsedCalendarCacheTests {
    static func object(_ index: Int, description: Int = 0) -> CalendarObject {
        let text = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Jadwal Tests//EN", "BEGIN:VEVENT", "UID:u\(index)", "DTSTAMP:20261101T000000Z",
            "DTSTART:20261123T100000Z", "DURATION:PT1H", "SUMMARY:Event \(index)", "DESCRIPTION:" + String(repeating: "d", count: description),
            "END:VEVENT", "END:VCALENDAR",
        ].joined(separator: "\r\n") + "\r\n"
        return CalendarObject(
            calendarID: UUID(), name: "e\(index).ics", uid: "u\(index)", component: .event, icalendar: text, etag: "\"e\(index)\"",
            firstStart: nil, lastEnd: nil, updatedAt: Date(timeIntervalSince1970: 0))
    }

    @Test("held bytes never pass either bound, whatever is asked for; a parsed calendar is the same after it has left")
    func boundedInBytes() throws {
        let cache = ParsedCalendarCache(entryBytes: 20_000, parsedBytes: 5_000)
        let objects = (0..<200).map { Self.object($0, description: $0 % 7 * 100) }
        for object in objects {
            let entry = cache.entry(for: object)
            let summary = try #require(entry.calendar?.components.first?.properties.first { $0.name == "SUMMARY" }?.value)
            #expect(summary == "Event \(object.uid.dropFirst())")
            let held = cache.heldBytes
            #expect(held.entries <= 20_000 && held.parsed <= 5_000, "\(held)")
            #expect(held.entries > 0 && held.parsed > 0)
        }
        // The first object's calendar left the parsed table long ago; asked again, it is parsed again, the same.
        let again = try #require(cache.calendar(for: objects[0]))
        #expect(again.components.first?.properties.first { $0.name == "UID" }?.value == "u0")
    }

    @Test("a week query's instance index does not keep the parsed calendar")
    func indexWithoutParsedCalendar() throws {
        let cache = ParsedCalendarCache(entryBytes: 1 << 20, parsedBytes: 1)
        let entry = cache.entry(for: Self.object(1))
        let index = try #require(entry.events(floatingZone: .utc, now: Date(timeIntervalSince1970: 1_796_000_000)))
        let day = DAV.TimeRange(start: Date(timeIntervalSince1970: 1_795_392_000), end: Date(timeIntervalSince1970: 1_795_478_400))
        #expect(index.overlaps(day) == true, "the event on 2026-11-23 is found by the index")
        #expect(cache.heldBytes.parsed == 0, "a calendar larger than the whole table is not kept")
    }

    @Test("a response asked for once is let go; asked for again, it is kept and copied after that, at each place and shape apart")
    func responsesKeptOnTheSecondAsk() throws {
        let entry = ParsedCalendarCache(entryBytes: 1 << 20, parsedBytes: 1 << 20).entry(for: Self.object(1))
        let week = ParsedCalendarObject.ResponsePlace(shape: "0 getetag calendar-data", calendarHref: "/dav/a/home/", name: "e1.ics")
        let sync = ParsedCalendarObject.ResponsePlace(shape: "0 getetag", calendarHref: "/dav/a/home/", name: "e1.ics")
        let shared = ParsedCalendarObject.ResponsePlace(shape: week.shape, calendarHref: "/dav/b/shared/", name: "e1.ics")
        #expect(Self.state(entry.response(at: week)) == "first")
        #expect(Self.state(entry.response(at: sync)) == "first", "another shape is another ask")
        #expect(Self.state(entry.response(at: week)) == "again")
        entry.keep(.status("/dav/a/home/e1.ics", 200), at: week)
        #expect(Self.state(entry.response(at: week)) == "kept")
        #expect(Self.state(entry.response(at: shared)) == "first", "the same object in another calendar is another place")
        #expect(Self.state(entry.response(at: sync)) == "again")
    }

    static func state(_ answer: ParsedCalendarObject.KeptAnswer) -> String {
        switch answer {
        case .kept: "kept"
        case .askedAgain: "again"
        case .firstAsk: "first"
        }
    }
}
