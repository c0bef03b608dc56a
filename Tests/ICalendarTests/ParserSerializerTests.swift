import Foundation
import Testing
@testable import ICalendar

@Suite struct ParserSerializerTests {
    static let realWorldFiles = ["apple.ics", "google.ics", "outlook.ics", "thunderbird.ics"]

    @Test(arguments: realWorldFiles)
    func realWorldFileRoundTripsUnchanged(_ name: String) throws {
        let text = try Fixtures.text(name)
        let calendar = try ICalendarParser().parseCalendar(text)
        let written = calendar.serialized
        // Fixtures are written unfolded with CRLF; every line short enough must come back byte for byte.
        for (original, again) in zip(unfoldedLines(text), unfoldedLines(written)) {
            #expect(original == again)
        }
        #expect(unfoldedLines(text).count == unfoldedLines(written).count)
        #expect(try ICalendarParser().parseCalendar(written) == calendar)
        #expect(ICalendarValidator().validate(text).isEmpty, "\(ICalendarValidator().validate(text))")
    }

    func unfoldedLines(_ text: String) -> [String] {
        text.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n").filter { !$0.isEmpty }
    }

    @Test func unknownAndExtensionDataSurvives() throws {
        let calendar = try ICalendarParser().parseCalendar(try Fixtures.text("apple.ics"))
        let event = try #require(calendar.components(named: "VEVENT").first)
        let location = try #require(event.first("X-APPLE-STRUCTURED-LOCATION"))
        #expect(location.parameter("X-ADDRESS") == "King Fahd Rd, Riyadh")
        #expect(location.value == "geo:24.711667,46.674167")
        #expect(event.serialized.replacingOccurrences(of: "\r\n ", with: "").contains("X-APPLE-STRUCTURED-LOCATION;VALUE=URI;X-ADDRESS=\"King Fahd Rd, Riyadh\";X-APPLE-RADIUS=70.5;X-TITLE=Office:geo:24.711667,46.674167"))
        #expect(calendar.first("X-APPLE-CALENDAR-COLOR")?.value == "#34AADC")
    }

    @Test func foldsAt75OctetsWithoutSplittingUTF8() {
        let summary = String(repeating: "جدول ✓ ", count: 40)
        let component = Component(name: "VEVENT", properties: [Property(name: "SUMMARY", text: summary)])
        let text = component.serialized
        for line in text.components(separatedBy: "\r\n") {
            #expect(line.utf8.count <= 75)
            #expect(String(validating: Array(line.utf8), as: UTF8.self) != nil)
        }
        let back = try? ICalendarParser().parse(text)
        #expect(back?.first?.first("SUMMARY")?.text == summary)
    }

    @Test func unfoldsLFOnlyTabsAndLowerCaseNames() throws {
        let text = "begin:vcalendar\nversion:2.0\nprodid:x\nbegin:vevent\nuid:1\nsummary:Hello\n\tWorld\n  again\ndtstart:20260101T090000Z\nend:vevent\nend:vcalendar"
        let calendar = try ICalendarParser().parseCalendar(text)
        let event = try #require(calendar.components.first)
        #expect(event.name == "VEVENT")
        #expect(event.first("SUMMARY")?.value == "HelloWorld again")
        #expect(event.first("DTSTART")?.line == 9)
    }

    @Test func parametersQuotedMultiValuedAndCaretEscaped() throws {
        let line = "ATTENDEE;MEMBER=\"mailto:a@x.org\",\"mailto:b@x.org\";CN=\"Doe; John\";X-NOTE=say ^'hi^'^nbye:mailto:j@x.org"
        let calendar = try ICalendarParser().parseCalendar("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\n\(line)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
        let p = try #require(calendar.components.first?.first("ATTENDEE"))
        #expect(p.parameters.first { $0.name == "MEMBER" }?.values == ["mailto:a@x.org", "mailto:b@x.org"])
        #expect(p.parameter("CN") == "Doe; John")
        #expect(p.parameter("X-NOTE") == "say \"hi\"\nbye")
        #expect(p.value == "mailto:j@x.org")
        var out: [UInt8] = []
        ICalendarSerializer().write(p, into: &out)
        #expect(String(decoding: out, as: UTF8.self).replacingOccurrences(of: "\r\n ", with: "") == line + "\r\n")
    }

    @Test func textEscaping() {
        let text = "a, b; c\\d\nnext"
        #expect(TextCoding.escape(text) == "a\\, b\\; c\\\\d\\nnext")
        #expect(TextCoding.unescape(TextCoding.escape(text)) == text)
        #expect(Property(name: "CATEGORIES", value: "a\\,b,c").textList == ["a,b", "c"])
    }

    @Test func valueTypes() throws {
        #expect(try DateOrDateTime.parse("20260105") == .date(CivilDate(year: 2026, month: 1, day: 5)))
        #expect(try DateOrDateTime.parse("20260105T093000Z") == .dateTime(LocalDateTime(year: 2026, month: 1, day: 5, hour: 9, minute: 30), .utc))
        #expect(try DateOrDateTime.parse("20260105T093000", tzid: "Asia/Riyadh").tzid == "Asia/Riyadh")
        #expect(try DateOrDateTime.parse("20260105T093000").reference == .floating)
        let d = try Duration.parse("-P1W")
        #expect(d.nominalDays == -7 && d.exactSeconds == 0)
        #expect(try Duration.parse("P1DT2H3M4S").totalSeconds == 86_400 + 7384)
        #expect(try Duration.parse("PT15M").icalValue == "PT15M")
        #expect(throws: ICalendarError.self) { try Duration.parse("P1H") }
        #expect(throws: ICalendarError.self) { try Duration.parse("PT") }
        let period = try Period.parse("20260102T090000Z/PT1H")
        #expect(period.end == .duration(Duration(hours: 1)))
        #expect(try Period.parse("20260102T090000Z/20260102T100000Z").icalValue == "20260102T090000Z/20260102T100000Z")
        #expect(try UTCOffset.parse("-0500").seconds == -18_000)
        #expect(try UTCOffset.parse("+053000").icalValue == "+0530")
        #expect(throws: ICalendarError.self) { try UTCOffset.parse("-0000") }
        let rule = try RecurrenceRule.parse("FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;X-FOO=bar")
        #expect(rule.bySetPos == [-1] && rule.byDay.count == 5 && rule.extensionParts.first?.value == "bar")
        #expect(try RecurrenceRule.parse(rule.icalValue) == rule)
    }

    @Test func binaryAndURIKeptAsIs() throws {
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nATTACH;ENCODING=BASE64;VALUE=BINARY;FMTTYPE=image/png:iVBORw0KGgo=\r\nURL;VALUE=URI:https://example.com/a?b=c;d\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let calendar = try ICalendarParser().parseCalendar(text)
        #expect(calendar.serialized == text)
    }
}

@Suite struct BadInputTests {
    func error(_ text: String, limits: ICalendarParser.Limits = .init()) -> ICalendarError? {
        do { _ = try ICalendarParser(limits: limits).parse(text); return nil } catch { return error as? ICalendarError }
    }

    @Test func truncatedFileNamesTheOpenComponent() throws {
        let full = try Fixtures.text("google.ics")
        let cut = String(full.prefix(full.utf8.count / 2))
        let e = try #require(error(cut))
        #expect(e.kind == .unbalancedComponent || e.kind == .malformedContentLine)
        #expect(e.line != nil)
    }

    @Test func missingEnd() throws {
        let e = try #require(error("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:1\r\nEND:VCALENDAR\r\n"))
        #expect(e.kind == .unbalancedComponent)
        #expect(e.line == 4)
        #expect(e.description.contains("END:VCALENDAR does not match BEGIN:VEVENT on line 2"))
        let e2 = try #require(error("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:1\r\n"))
        #expect(e2.line == 2 && e2.message.contains("never closed"))
    }

    @Test func invalidDatesAreReportedWithLines() {
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:1\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260230T090000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let problems = ICalendarValidator().validate(text)
        #expect(problems.contains { $0.line == 7 && $0.message.contains("2026-02-30 does not exist") })
    }

    @Test(arguments: ["FREQ=FOO", "FREQ=DAILY;BYHOUR=24", "FREQ=DAILY;INTERVAL=0", "FREQ=DAILY;COUNT=-1", "BYDAY=MO",
                      "FREQ=WEEKLY;BYDAY=XX", "FREQ=DAILY;FREQ=DAILY", "FREQ=MONTHLY;BYMONTHDAY=0", "FREQ=YEARLY;BYWEEKNO=54",
                      "FREQ=DAILY;UNTIL=20260230", "FREQ=DAILY;NOPE=1", "FREQ=MONTHLY;BYDAY=+0MO"])
    func badRecurrenceRules(_ rule: String) {
        #expect(throws: ICalendarError.self) { try RecurrenceRule.parse(rule) }
    }

    @Test func hugeCountIsBoundedByWindowAndCap() throws {
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:s\r\nDTSTART:20260101T000000Z\r\nRRULE:FREQ=SECONDLY;COUNT=999999999999\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:t\r\nDTSTART:20260101T000000Z\r\nRRULE:FREQ=SECONDLY\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let calendar = try ICalendarParser().parseCalendar(text)
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            let result = CalendarExpander(calendar: calendar, options: ExpansionOptions(maxInstances: 5000))
                .expand(from: 1_767_225_600, to: 1_767_225_600 + 365 * 86_400)
            #expect(result.occurrences.count == 5000)
            #expect(result.truncated)
        }
        #expect(elapsed < .seconds(5))
        // Far from DTSTART with a plain COUNT: skipped arithmetically, the count still holds.
        let far = CalendarExpander(calendar: calendar, options: ExpansionOptions(maxInstances: 10))
            .expand(from: 1_767_225_600 + 20 * 365 * 86_400, to: 1_767_225_600 + 21 * 365 * 86_400)
        #expect(far.occurrences.count == 10 && far.truncated)
        let counted = try ICalendarParser().parseCalendar(text.replacingOccurrences(of: "COUNT=999999999999", with: "COUNT=100"))
        let after = CalendarExpander(calendar: counted).expand(from: 1_767_225_600 + 99, to: 1_767_225_600 + 200)
        #expect(after.occurrences.filter { $0.uid == "s" }.map(\.start) == [.instant(1_767_225_600 + 99)])
        // A COUNT with BY parts must be walked from DTSTART: the period budget stops it instead of hanging.
        let filtered = try ICalendarParser().parseCalendar(text.replacingOccurrences(of: "COUNT=999999999999", with: "COUNT=999999999999;BYSECOND=1,2"))
        let budgeted = CalendarExpander(calendar: filtered, options: ExpansionOptions(maxInstances: 10, periodBudget: 50_000))
            .expand(from: 1_767_225_600 + 20 * 365 * 86_400, to: 1_767_225_600 + 21 * 365 * 86_400)
        #expect(budgeted.truncated)
    }

    @Test func ruleThatNeverMatchesTerminates() throws {
        let rule = try RecurrenceRule.parse("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30")
        var iterator = RecurrenceIterator(rule: rule, start: LocalDateTime(year: 2026, month: 1, day: 1))
        #expect(iterator.next() == nil)
        let secondly = try RecurrenceRule.parse("FREQ=SECONDLY;INTERVAL=2;BYSECOND=1")
        var it2 = RecurrenceIterator(rule: secondly, start: LocalDateTime(year: 2026, month: 1, day: 1), periodBudget: 100_000)
        #expect(it2.next() == nil)
        #expect(it2.exhaustedBudget)
    }

    @Test func deepNestingIsRefused() throws {
        let depth = 10_000
        let text = String(repeating: "BEGIN:X\r\n", count: depth) + String(repeating: "END:X\r\n", count: depth)
        let e = try #require(error(text))
        #expect(e.kind == .nestingTooDeep && e.line == 13)
    }

    @Test func tenMegabyteDescriptionParsesAndLimitApplies() throws {
        let big = String(repeating: "a", count: 10 << 20)
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDESCRIPTION:\(big)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let calendar = try ICalendarParser().parseCalendar(text)
        #expect(calendar.components.first?.first("DESCRIPTION")?.value.utf8.count == 10 << 20)
        let e = try #require(error(text, limits: .init(maxLineBytes: 1 << 20)))
        #expect(e.kind == .lineTooLong && e.line == 3)
    }

    @Test func controlCharactersAreRefused() throws {
        let e = try #require(error("BEGIN:VCALENDAR\r\nSUMMARY:bell\u{07}here\r\nEND:VCALENDAR\r\n"))
        #expect(e.kind == .controlCharacter && e.line == 2)
        #expect(error("BEGIN:VCALENDAR\r\nSUMMARY:tab\there\r\nEND:VCALENDAR\r\n") == nil)
    }

    @Test func invalidUTF8IsRefusedWithLine() throws {
        var bytes = Array("BEGIN:VCALENDAR\r\nSUMMARY:caf".utf8)
        bytes += [0xC3, 0x28]  // broken two-byte sequence
        bytes += Array("\r\nEND:VCALENDAR\r\n".utf8)
        do {
            _ = try ICalendarParser().parse(bytes: bytes)
            Issue.record("invalid UTF-8 accepted")
        } catch let e as ICalendarError {
            #expect(e.kind == .invalidUTF8 && e.line == 2)
        }
        #expect(throws: ICalendarError.self) { try ICalendarParser().parse(bytes: [0xED, 0xA0, 0x80]) }  // surrogate
        #expect(throws: ICalendarError.self) { try ICalendarParser().parse(bytes: [0xC0, 0x80]) }  // overlong
    }

    @Test func malformedLines() throws {
        #expect(error("BEGIN:VCALENDAR\r\nNOCOLON\r\nEND:VCALENDAR")?.message.contains("missing ':'") == true)
        #expect(error("BEGIN:VCALENDAR\r\nX;P=\"open:v\r\nEND:VCALENDAR")?.kind == .malformedContentLine)
        #expect(error(" leading continuation")?.line == 1)
        #expect(error("SUMMARY:outside\r\n")?.kind == .invalidStructure)
        #expect(error("END:VEVENT\r\n")?.kind == .unbalancedComponent)
        #expect(error(":novalue\r\n")?.kind == .malformedContentLine)
    }

    @Test func arbitraryBytesNeverCrash() {
        var generator = SplitMix(seed: 42)
        let pieces = ["BEGIN:VEVENT\r\n", "END:VEVENT\r\n", "BEGIN:VCALENDAR\r\n", "END:VCALENDAR\r\n", "DTSTART:2026", "RRULE:FREQ=",
                      ";TZID=\"", ":", "\r\n ", "\n", "\u{0}", "é", "RRULE:FREQ=SECONDLY;BYSETPOS=-1;BYDAY=MO\r\n", "DTSTART:20260101T000000Z\r\n"]
        for _ in 0..<2000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(generator.next() % 30) {
                if generator.next() % 3 == 0 {
                    bytes.append(UInt8(truncatingIfNeeded: generator.next()))
                } else {
                    bytes += Array(pieces[Int(generator.next() % UInt64(pieces.count))].utf8)
                }
            }
            if let roots = try? ICalendarParser().parse(bytes: bytes) {
                for root in roots {
                    _ = root.serialized
                    _ = ICalendarValidator().validate(roots)
                    _ = CalendarExpander(calendar: root, options: .init(maxInstances: 100)).expand(from: 0, to: 2_000_000_000)
                }
            }
        }
    }
}

struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct SerializerSafetyTests {
    @Test func rawLineBreaksCannotInjectContentLines() throws {
        let evil = Property(name: "SUMMARY", value: "hi\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:injected")
        let event = Component(name: "VEVENT", properties: [Property(name: "UID", value: "1"), evil])
        let back = try ICalendarParser().parse(event.serialized)
        #expect(back.count == 1 && back[0].properties.count == 2)
        #expect(back[0].first("SUMMARY")?.text == "hi\nEND:VEVENT\nBEGIN:VEVENT\nUID:injected")
        let param = Property(name: "X-A", parameters: [Parameter("X-P", "a\"b:c\nd")], value: "v")
        let again = try ICalendarParser().parse(Component(name: "X-C", properties: [param]).serialized)
        #expect(again.first?.first("X-A")?.parameter("X-P") == "a\"b:c\nd")
    }

    @Test func serialisingTwiceIsStable() throws {
        for name in ParserSerializerTests.realWorldFiles {
            let once = try ICalendarParser().parseCalendar(try Fixtures.text(name)).serialized
            #expect(try ICalendarParser().parseCalendar(once).serialized == once)
        }
    }
}
