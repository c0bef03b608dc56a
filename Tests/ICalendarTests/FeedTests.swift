import Foundation
import Testing
@testable import ICalendar

/// Reading published feeds the lenient way: one bad component never costs the others.
@Suite struct FeedTests {
    static func feed(_ body: String, lineEnd: String = "\r\n") -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//EN"] + body.split(separator: "\n").map(String.init) + ["END:VCALENDAR"])
            .joined(separator: lineEnd) + lineEnd
    }

    static let event = "BEGIN:VEVENT\nUID:a@x\nDTSTAMP:20260101T000000Z\nDTSTART:20260301T100000Z\nSUMMARY:A\nEND:VEVENT"

    @Test(arguments: ["\r\n", "\n", "\r"])
    func readsEveryLineEnding(_ end: String) throws {
        let feed = try ICalendarFeed(text: Self.feed(Self.event, lineEnd: end))
        #expect(feed.items.map(\.uid) == ["a@x"] && feed.problems.isEmpty)
    }

    @Test func skipsAByteOrderMarkAndJoinsUTF8FoldedMidCharacter() throws {
        // "ليلى" is folded between the two bytes of its second letter.
        let name = Array("SUMMARY:عشاء مع ليلى".utf8)
        let cut = 21
        var bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:b@x\r\nDTSTART:20260301T100000Z\r\n".utf8)
        bytes += Array(name[..<cut]) + Array("\r\n ".utf8) + Array(name[cut...]) + Array("\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)
        let feed = try ICalendarFeed(bytes: bytes)
        let item = try #require(feed.items.first)
        #expect(item.calendar.components.first?.first("SUMMARY")?.text == "عشاء مع ليلى")
    }

    @Test func oneBrokenComponentIsSkippedAndSaid() throws {
        let broken = "BEGIN:VEVENT\nUID:bad@x\nDTSTART;TZID=\"unclosed:20260301T100000\nEND:VEVENT"
        let feed = try ICalendarFeed(text: Self.feed(broken + "\n" + Self.event))
        #expect(feed.items.map(\.uid) == ["a@x"])
        // The unreadable line goes (said with its own line number), and without a start the event goes too.
        #expect(feed.problems.map(\.skipped) == [false, true], "\(feed.problems)")
        #expect(feed.problems[0].line == 6 && feed.problems[1].component == "VEVENT bad@x" && feed.problems[1].line == 4)
        #expect(feed.componentCount == 2)
    }

    @Test func mendsMissingStampsAndUIDsTheSameWayEveryTime() throws {
        let text = Self.feed("BEGIN:VEVENT\nLAST-MODIFIED:20260105T080000Z\nDTSTART:20260301T100000Z\nSUMMARY:No UID\nEND:VEVENT")
        let once = try ICalendarFeed(text: text), again = try ICalendarFeed(text: text)
        let item = try #require(once.items.first)
        #expect(item.uid.hasPrefix("jadwal-feed-") && item.text == again.items.first?.text)
        #expect(item.calendar.components.first?.first("DTSTAMP")?.value == "20260105T080000Z")
        #expect(once.problems.map(\.skipped) == [false])
    }

    @Test func groupsOverridesWithTheirMasterAndKeepsTheNewerOfDuplicates() throws {
        let body = """
            BEGIN:VEVENT
            UID:r@x
            DTSTAMP:20260101T000000Z
            RECURRENCE-ID:20260308T100000Z
            DTSTART:20260308T120000Z
            END:VEVENT
            BEGIN:VEVENT
            UID:r@x
            DTSTAMP:20260101T000000Z
            DTSTART:20260301T100000Z
            RRULE:FREQ=WEEKLY;COUNT=4
            SUMMARY:Old
            END:VEVENT
            BEGIN:VEVENT
            UID:r@x
            DTSTAMP:20260101T000000Z
            SEQUENCE:2
            DTSTART:20260301T100000Z
            RRULE:FREQ=WEEKLY;COUNT=4
            SUMMARY:New
            END:VEVENT
            """
        let feed = try ICalendarFeed(text: Self.feed(body))
        let item = try #require(feed.items.first)
        #expect(feed.items.count == 1)
        #expect(item.calendar.components.map { $0.first("SUMMARY")?.value ?? "override" } == ["New", "override"], "the master first")
        #expect(feed.problems.count == 1 && feed.problems[0].reason.contains("same UID"))
    }

    @Test func carriesTheZonesEachItemUsesAndReadsOffsetNamedZones() throws {
        let body = """
            BEGIN:VTIMEZONE
            TZID:Custom Zone
            BEGIN:STANDARD
            DTSTART:19700101T000000
            TZOFFSETFROM:+0400
            TZOFFSETTO:+0400
            END:STANDARD
            END:VTIMEZONE
            BEGIN:VEVENT
            UID:z1@x
            DTSTAMP:20260101T000000Z
            DTSTART;TZID=Custom Zone:20260301T100000
            END:VEVENT
            BEGIN:VEVENT
            UID:z2@x
            DTSTAMP:20260101T000000Z
            DTSTART;TZID="(UTC+03:00) Kuwait, Riyadh":20260301T100000
            END:VEVENT
            BEGIN:VEVENT
            UID:z3@x
            DTSTAMP:20260101T000000Z
            DTSTART;TZID=Mars/Olympus:20260301T100000
            END:VEVENT
            """
        let feed = try ICalendarFeed(text: Self.feed(body))
        #expect(feed.items.count == 3)
        #expect(feed.items[0].calendar.components(named: "VTIMEZONE").count == 1)
        #expect(feed.items[1].calendar.components(named: "VTIMEZONE").isEmpty)
        #expect(TimeZoneResolver().rules(for: "(UTC+03:00) Kuwait, Riyadh")?.offset(atUTC: 0) == 3 * 3600)
        #expect(TimeZoneResolver().rules(for: "GMT-05:30")?.offset(atUTC: 0) == -(5 * 3600 + 1800))
        #expect(TimeZoneResolver().rules(for: "GMT+0300")?.offset(atUTC: 0) == 3 * 3600)
        #expect(TimeZoneResolver().rules(for: "GMT+3 hours") == nil)
        // The unknown zone is dropped (floating time) and said.
        #expect(feed.items[2].calendar.components.last?.first("DTSTART")?.parameter("TZID") == nil)
        #expect(feed.problems.contains { $0.reason.contains("Mars/Olympus") && !$0.skipped })
    }

    @Test func readsTheFeedsNameColourZoneAndRefreshInterval() throws {
        let feed = try ICalendarFeed(text: Self.feed("X-WR-CALNAME:Holidays\nX-APPLE-CALENDAR-COLOR:#FF2968\nX-WR-TIMEZONE:Asia/Riyadh\nREFRESH-INTERVAL;VALUE=DURATION:P1D\n" + Self.event))
        #expect(feed.name == "Holidays" && feed.color == "#FF2968" && feed.timeZone == "Asia/Riyadh" && feed.refreshInterval == 86_400)
    }

    @Test func anUnclosedComponentAtTheEndIsSkipped() throws {
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n" + Self.event.replacingOccurrences(of: "\n", with: "\r\n") + "\r\nBEGIN:VEVENT\r\nUID:cut@x\r\nDTSTART:2026"
        let feed = try ICalendarFeed(text: text)
        #expect(feed.items.map(\.uid) == ["a@x"] && feed.problems.first?.reason.contains("no END:VEVENT") == true)
    }

    @Test func aBareComponentWithNoCalendarAroundItIsRead() throws {
        let feed = try ICalendarFeed(text: Self.event.replacingOccurrences(of: "\n", with: "\r\n") + "\r\n")
        #expect(feed.items.map(\.uid) == ["a@x"])
    }

    @Test func anUnreadableLineOrValueIsLeftOutAndTheEventKept() throws {
        let body = """
            BEGIN:VEVENT
            UID:m@x
            DTSTAMP:20260101T000000Z
            DTSTART:20260301T100000Z
            X-APPLE-RADIUS
            RRULE:
            EXDATE:tomorrow
            DURATION:an hour
            SUMMARY:Kept
            END:VEVENT
            BEGIN:VEVENT
            UID:s@x
            DTSTAMP:20260101T000000Z
            DTSTART:20260301T100000Z
            RRULE:FREQ=FORTNIGHTLY
            END:VEVENT
            BEGIN:VEVENT
            UID:d@x
            DTSTAMP:20260101T000000Z
            DTSTART:2026-03-01
            END:VEVENT
            """
        let feed = try ICalendarFeed(text: Self.feed(body))
        let kept = try #require(feed.items.first)
        #expect(feed.items.map(\.uid) == ["m@x"])
        #expect(kept.calendar.components[0].properties.map(\.name) == ["UID", "DTSTAMP", "DTSTART", "SUMMARY"])
        #expect(feed.problems.filter { !$0.skipped }.count == 4, "\(feed.problems)")
        #expect(feed.problems.filter(\.skipped).map(\.component) == ["VEVENT s@x", "VEVENT d@x"])
    }

    @Test func aWebPageOrNothingIsNotACalendar() {
        #expect(throws: ICalendarFeed.Failure.self) { try ICalendarFeed(text: "<!DOCTYPE html><html><body>Sign in</body></html>") }
        #expect(throws: ICalendarFeed.Failure.self) { try ICalendarFeed(bytes: []) }
        do {
            _ = try ICalendarFeed(text: "<html><body>login</body></html>")
        } catch {
            #expect(error.description.contains("web page"))
        }
    }

    @Test(arguments: ParserSerializerTests.realWorldFiles)
    func exportsOfTheBigClientsReadWithoutProblems(_ name: String) throws {
        let feed = try ICalendarFeed(text: try Fixtures.text(name))
        #expect(!feed.items.isEmpty && feed.problems.filter(\.skipped).isEmpty, "\(feed.problems)")
    }
}
