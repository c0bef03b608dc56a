import Foundation
import Testing
@testable import Conversations

@Suite struct WhatsAppSampleTests {
    let riyadh = TimeZone(identifier: "Asia/Riyadh")!

    @Test func everySampleIsBundled() {
        #expect(SampleExports.names.count >= 11)
    }

    @Test(arguments: SampleExports.names)
    func sampleParsesToItsExpectedJSON(_ name: String) throws {
        let expected = try SampleExports.expected(name)
        #expect(expected.file == name + ".txt")
        let export = try WhatsAppExportParser(timeZone: riyadh).parse(SampleExports.data(name))

        let got = export.messages.map(ExpectedMessage.init)
        #expect(got.count == expected.messages.count)
        for (index, (message, wanted)) in zip(got, expected.messages).enumerated() {
            #expect(message == wanted, "message \(index) of \(name)")
        }
        // Riyadh is UTC+3 all year: every instant is the wall clock minus three hours.
        for message in export.messages {
            let utc = message.localTime.secondsSinceEpochAsUTC - 3 * 3_600
            #expect(message.timestamp == Date(timeIntervalSince1970: TimeInterval(utc)))
        }
        // The person the sample calls "me" is one of the participants.
        if let me = expected.me, name != "misc_layouts_mixed" {
            #expect(export.participants.contains(me))
        }
    }

    @Test func samplesNamedByTheirDateOrder() throws {
        let parser = WhatsAppExportParser(timeZone: riyadh)
        #expect(try parser.parse(SampleExports.data("ios_en-US_12h")).dateOrder == .monthDayYear)
        #expect(try parser.parse(SampleExports.data("android_en-US_12h")).dateOrder == .monthDayYear)
        #expect(try parser.parse(SampleExports.data("ios_en-GB_24h")).dateOrder == .dayMonthYear)
        // 9/12/2026 on every line: ambiguous, so day/month/year (FORMATS.md §3 rule 2).
        #expect(try parser.parse(SampleExports.data("android_ar_latin-digits_24h")).dateOrder == .dayMonthYear)
    }

    @Test func sampleLinesAreRecorded() throws {
        let export = try WhatsAppExportParser(timeZone: riyadh).parse(SampleExports.data("android_en-GB_edge-cases"))
        #expect(export.messages.map(\.line) == [1, 4, 5, 6, 7, 8, 9, 12])
        #expect(export.participants == ["Yousef 🏎️", "Omar"])
    }
}
