import Foundation
import Testing
@testable import Conversations

private let riyadh = TimeZone(identifier: "Asia/Riyadh")!
private let newYork = TimeZone(identifier: "America/New_York")!

private func parse(_ text: String, zone: TimeZone = riyadh) throws -> WhatsAppExport {
    try WhatsAppExportParser(timeZone: zone).parse(Data(text.utf8))
}

private func parseError(_ data: Data) -> WhatsAppExportError? {
    do {
        _ = try WhatsAppExportParser(timeZone: riyadh).parse(data)
        return nil
    } catch {
        return error
    }
}

private func utc(_ text: String) -> Date {
    try! Date(text, strategy: .iso8601)
}

@Suite struct BadInputTests {
    @Test func invalidUTF8IsRefusedWithItsLine() throws {
        var bytes = Array("21/11/2026, 14:05 - Omar: hello\n21/11/2026, 14:06 - Omar: caf".utf8)
        bytes.append(0xE9) // Latin-1 "é"
        bytes.append(contentsOf: Array("\n".utf8))
        let error = try #require(parseError(Data(bytes)))
        #expect(error.line == 2)
        #expect(error.reason == .invalidUTF8(byteOffset: bytes.count - 2))
        #expect(error.description.hasPrefix("line 2: the file is not UTF-8 text"))
        // The same through the [UInt8] entry point.
        #expect(throws: error) { try WhatsAppExportParser(timeZone: riyadh).parse(bytes: bytes) }
    }

    @Test func aTruncatedMultiByteCharacterIsInvalid() throws {
        let bytes = Array("21/11/2026, 14:05 - Omar: 👍".utf8).dropLast()
        let error = try #require(parseError(Data(bytes)))
        #expect(error.line == 1)
    }

    @Test func otherTextIsNotAnExport() throws {
        let text = "Dear Omar,\nthe meeting is on 21/11/2026, 14:05.\n"
        let error = try #require(parseError(Data(text.utf8)))
        #expect(error.line == 1)
        #expect(error.reason == .notAnExport(excerpt: "Dear Omar,"))
        #expect(error.description.hasPrefix("line 1: this does not look like a WhatsApp export"))
    }

    @Test func theLineNumberIsTheFirstLineWithText() throws {
        // Blank lines before the first header are allowed; the first text line is judged.
        let text = "\n\u{FEFF}\n  \n{\"messages\": []}\n"
        let error = try #require(parseError(Data(text.utf8)))
        #expect(error.line == 4)
    }

    @Test func aCSVIsNotAnExport() throws {
        let text = "date,time,sender,text\n2026-11-21,14:05,Omar,hello\n"
        let error = try #require(parseError(Data(text.utf8)))
        #expect(error.line == 1)
    }

    @Test(arguments: ["", "\n\n", "\u{FEFF}", "\r\n \r\n"])
    func anEmptyFileIsAnError(_ text: String) throws {
        let error = try #require(parseError(Data(text.utf8)))
        #expect(error.reason == .empty)
        #expect(error.line == nil)
        #expect(error.description.hasPrefix("the file is empty"))
    }

    @Test func anImpossibleDateNamesItsLine() throws {
        let text = "21/11/2026, 14:05 - Omar: hi\n31/02/2026, 14:06 - Omar: hi\n"
        let error = try #require(parseError(Data(text.utf8)))
        #expect(error.line == 2)
        #expect(error.reason == .impossibleDate(date: "31/2/2026"))
    }

    @Test func aFileWithBothDateOrdersIsRefused() throws {
        let text = """
            21/11/2026, 14:05 - Omar: day first here
            21/11/2026, 14:06 - Omar: ok
            11/25/2026, 14:07 - Omar: month first here
            """
        let error = try #require(parseError(Data(text.utf8)))
        #expect(error.line == 3)
        #expect(error.reason == .inconsistentDateOrder(date: "11/25/2026", otherLine: 1, otherDate: "21/11/2026"))
    }
}

@Suite struct ShapeTests {
    @Test func onlySystemLines() throws {
        let text = """
            19/11/2026, 17:02 - Messages and calls are end-to-end encrypted. No one outside of this chat, not even WhatsApp, can read or listen to them. Tap to learn more.
            19/11/2026, 17:03 - You blocked this contact. Tap to unblock.
            19/11/2026, 17:04 - Missed voice call

            """
        let export = try parse(text)
        #expect(export.messages.count == 3)
        #expect(export.messages.allSatisfy { $0.kind == .system && $0.sender == nil })
        #expect(export.participants.isEmpty)
        #expect(export.messages[2].text == "Missed voice call")
    }

    @Test func lineEndingsBOMsAndMarks() throws {
        // CRLF, a lone CR, LF; a BOM at the start and another mid-file; an iOS LRM before "[".
        let text = "\u{FEFF}[21/11/2026, 14:05:33] Lena: one\r\ntwo\r[21/11/2026, 14:06:00] Omar: three\n"
            + "\u{FEFF}[21/11/2026, 14:07:00] Lena: four\n\u{200E}[21/11/2026, 14:08:00] Omar: \u{200E}image omitted\n"
        let export = try parse(text)
        #expect(export.messages.map(\.text) == ["one\ntwo", "three", "four", ""])
        #expect(export.messages.map(\.line) == [1, 3, 4, 5])
        #expect(export.messages[3].kind == .media)
        #expect(export.messages[3].media == .image)
    }

    @Test func sendersAreCleaned() throws {
        let text = """
            [21/11/2026, 14:05:33] \u{202A}+40\u{A0}521\u{A0}028\u{A0}61\u{A0}88\u{202C}: hi
            [21/11/2026, 14:05:34] ~\u{202F}Lena K.: hello
            21/11/2026, 14:06 - +1 (571) 370-4480: a: b: c
            """
        let export = try parse(text)
        #expect(export.messages.map { $0.sender } == ["+40 521 028 61 88", "Lena K.", "+1 (571) 370-4480"])
        #expect(export.messages[2].text == "a: b: c")
        #expect(export.participants == ["+40 521 028 61 88", "Lena K.", "+1 (571) 370-4480"])
    }

    @Test func placeholdersAndMarkers() throws {
        let text = """
            [21/11/2026, 14:05:00] Lena: \u{200E}<attached: 00000035-PHOTO-2026-11-21-14-05-00.jpg>
            [21/11/2026, 14:05:01] Lena: Minutes.pdf \u{200E}document omitted
            [21/11/2026, 14:05:02] Lena: Are we on? \u{200E}<This message was edited>
            21/11/2026, 14:06 - Omar: PTT-20261121-WA0001.opus (file attached)
            21/11/2026, 14:07 - Omar: VID-20261121-WA0002.mp4 (file attached)
            see you at 8
            21/11/2026, 14:08 - Omar: null
            [21/11/2026, 14:09:00] Lena: null
            [21/11/2026, 14:10:00] Lena: \u{200E}Missed voice call
            [21/11/2026, 14:11:00] Lena: Missed voice call
            """
        let export = try parse(text)
        let kinds = export.messages.map { "\($0.kind.rawValue)/\($0.media?.rawValue ?? "-")" }
        #expect(kinds == [
            "media/image", "media/document", "text/-", "media/audio", "media/video", "media/view_once",
            "text/-", "system/-", "text/-",
        ])
        #expect(export.messages[2].text == "Are we on?")
        #expect(export.messages[2].edited)
        #expect(export.messages[4].text == "see you at 8")
        #expect(export.messages[6].text == "null")
        #expect(export.messages[7].sender == nil)
        #expect(export.messages[8].sender == "Lena")
    }

    @Test func otherLayouts() throws {
        let finnish = try parse("[12.3.2022 klo 14.08.18] Aino: moi\n")
        #expect(finnish.messages.first?.localTime.description == "2022-03-12T14:08:18")
        let persian = try parse("۲۰۲۱/۵/۳۰، ۱۸:۴۴ - Reza: salam\n")
        #expect(persian.messages.first?.localTime.description == "2021-05-30T18:44:00")
        #expect(persian.dateOrder == .yearMonthDay)
        let croatian = try parse("13. 6. 2018. 09:41 - Ivan: bok\n")
        #expect(croatian.messages.first?.localTime.description == "2018-06-13T09:41:00")
        let spanish = try parse("21/11/2026, 12:05\u{A0}a.\u{A0}m. - Ana: hola\n")
        #expect(spanish.messages.first?.localTime.description == "2026-11-21T00:05:00")
        let arabicAM = try parse("٢٤‏/٤‏/٢٠٢٢، ١٢:٠٧\u{202F}ص - سلطان: هلا\n")
        #expect(arabicAM.messages.first?.localTime.description == "2022-04-24T00:07:00")
    }

    @Test func aBodyMayStartOnTheNextLine() throws {
        let export = try parse("21/11/2026, 14:05 - Omar: \nfirst words\n\n")
        #expect(export.messages[0].text == "first words")
        #expect(export.messages[0].kind == .text)
    }

    @Test func headerLookalikesContinueTheMessage() throws {
        let text = """
            21/11/2026, 14:05 - Omar: list:
            21/12 dinner
            21/12/2026 dinner at 8
            21/12/2026, 25:00 - not a time
            [21/12/2026] bracketed date only
            """
        let export = try parse(text)
        #expect(export.messages.count == 1)
        #expect(export.messages[0].text.split(separator: "\n").count == 5)
    }

    @Test func fileOrderIsKeptEvenWhenTimeGoesBack() throws {
        let text = """
            [20/11/2026, 21:40:11] Sara: first
            [18/11/2026, 09:12:04] Sara: \u{200E}Messages and calls are end-to-end encrypted. No one outside of this chat, not even WhatsApp, can read or listen to them.
            [20/11/2026, 21:41:02] Omar: third
            """
        let export = try parse(text)
        #expect(export.messages.map(\.kind) == [.text, .system, .text])
        #expect(export.messages[1].localTime.day == 18)
    }

    @Test func aHundredThousandLines() throws {
        var text = ""
        text.reserveCapacity(100_000 * 70)
        var lines = 0
        var messages = 0
        while lines < 100_000 {
            let minute = messages
            let day = 1 + (minute / 1_440) % 28, month = 1 + (minute / 40_320) % 12
            let hour = (minute / 60) % 24, minuteOfHour = minute % 60
            let sender = messages % 2 == 0 ? "Sara" : "Omar"
            text += "\(day)/\(month)/2026, \(hour):\(minuteOfHour < 10 ? "0" : "")\(minuteOfHour) - \(sender): "
                + "dinner tomorrow after isha? بكرة بعد العشاء \(messages)\n"
            lines += 1
            messages += 1
            if messages % 4 == 0, lines < 100_000 {
                text += "and a second line\n"
                lines += 1
            }
        }
        let export = try parse(text)
        #expect(export.messages.count == messages)
        #expect(export.messages.count == 80_000)
        #expect(export.participants == ["Sara", "Omar"])
        #expect(export.messages[3].text.hasSuffix("\nand a second line"))
        #expect(export.messages.last?.localTime.description == "2026-02-28T13:19:00")
    }
}

@Suite struct DateOrderTests {
    private func order(_ dates: [String], preferred: DateOrder = .dayMonthYear) throws -> DateOrder {
        let text = dates.map { "\($0), 10:00 - Omar: hi\n" }.joined()
        return try WhatsAppExportParser(timeZone: riyadh, preferredDateOrder: preferred).parse(Data(text.utf8)).dateOrder
    }

    @Test func aValueAbove12DecidesTheOrder() throws {
        #expect(try order(["3/4/26", "3/4/26", "13/4/26"]) == .dayMonthYear)
        #expect(try order(["3/4/26", "4/13/26"]) == .monthDayYear)
        // The deciding date can come last; the first lines are then read with it.
        let text = "3/4/26, 10:00 - Omar: a\n3/5/26, 10:00 - Omar: b\n3/25/26, 10:00 - Omar: c\n"
        let export = try parse(text)
        #expect(export.messages.map(\.localTime.description) == [
            "2026-03-04T10:00:00", "2026-03-05T10:00:00", "2026-03-25T10:00:00",
        ])
    }

    @Test func chronologyDecidesWhenBothFit() throws {
        // Every value is at most 12, so both orders fit: the one that keeps the chat close together wins.
        #expect(try order(["12/1/26", "12/3/26", "12/4/26"]) == .monthDayYear) // Dec 1–4, not Jan–Apr 12
        #expect(try order(["1/12/26", "3/12/26", "4/12/26"]) == .dayMonthYear)
        #expect(try order(["5/6/26", "6/6/26", "7/6/26"]) == .dayMonthYear) // consecutive days
        #expect(try order(["6/5/26", "6/6/26", "6/7/26"]) == .monthDayYear)
        // 1/2, 1/3: d/m goes Feb 1 -> Mar 1, m/d goes Jan 2 -> Jan 3; both forward, m/d closer.
        #expect(try order(["1/2/26", "1/3/26"]) == .monthDayYear)
        // 2/1, 1/2: d/m is Jan 2 -> Feb 1 (forward); m/d is Feb 1 -> Jan 2 (back in time).
        #expect(try order(["2/1/26", "1/2/26"]) == .dayMonthYear)
    }

    @Test func aTieFallsBackToThePreference() throws {
        #expect(try order(["9/12/2026", "9/12/2026"]) == .dayMonthYear)
        #expect(try order(["9/12/2026"], preferred: .monthDayYear) == .monthDayYear)
    }

    @Test func twoDigitYearsAreThisCentury() throws {
        let export = try parse("21/11/26, 14:05 - Omar: hi\n")
        #expect(export.messages[0].localTime.year == 2026)
    }
}

@Suite struct TimeZoneTests {
    @Test func instantsUseTheGivenZone() throws {
        let text = "21/11/2026, 14:05 - Omar: hi\n1/7/2026, 14:05 - Omar: summer\n"
        let export = try parse(text, zone: newYork)
        #expect(export.messages[0].timestamp == utc("2026-11-21T19:05:00Z")) // EST, UTC-5
        #expect(export.messages[1].timestamp == utc("2026-07-01T18:05:00Z")) // EDT, UTC-4
    }

    @Test func aTimeInTheSpringForwardGapMovesForward() throws {
        // 2026-03-08 02:00 EST -> 03:00 EDT in New York: 02:30 does not exist.
        let text = """
            8/3/2026, 01:59 - Omar: before
            8/3/2026, 02:30 - Omar: in the gap
            8/3/2026, 03:00 - Omar: after
            """
        let export = try parse(text, zone: newYork)
        #expect(export.messages[0].timestamp == utc("2026-03-08T06:59:00Z"))
        #expect(export.messages[1].timestamp == utc("2026-03-08T07:30:00Z")) // = 03:30 EDT
        #expect(export.messages[2].timestamp == utc("2026-03-08T07:00:00Z"))
        #expect(export.messages[1].localTime.description == "2026-03-08T02:30:00") // as written
    }

    @Test func aRepeatedHourKeepsTheChatInOrder() throws {
        // 2026-11-01 02:00 EDT -> 01:00 EST: 01:00–01:59 happens twice.
        let text = """
            1/11/2026, 01:10 - Omar: first 01:10 (EDT)
            1/11/2026, 01:50 - Omar: 01:50 (EDT)
            1/11/2026, 01:20 - Omar: second 01:20 (EST, after the clocks went back)
            1/11/2026, 02:10 - Omar: after
            """
        let export = try parse(text, zone: newYork)
        #expect(export.messages.map(\.timestamp) == [
            utc("2026-11-01T05:10:00Z"), utc("2026-11-01T05:50:00Z"),
            utc("2026-11-01T06:20:00Z"), utc("2026-11-01T07:10:00Z"),
        ])
    }

    @Test func aRepeatedTimeAloneIsTheFirstOne() throws {
        let export = try parse("1/11/2026, 01:30 - Omar: hi\n", zone: newYork)
        #expect(export.messages[0].timestamp == utc("2026-11-01T05:30:00Z"))
    }

    @Test func londonAroundItsTransitions() throws {
        let london = TimeZone(identifier: "Europe/London")!
        let text = """
            29/3/2026, 00:30 - Omar: GMT
            29/3/2026, 01:30 - Omar: gap
            29/3/2026, 02:30 - Omar: BST
            """
        let export = try parse(text, zone: london)
        #expect(export.messages.map(\.timestamp) == [
            utc("2026-03-29T00:30:00Z"), utc("2026-03-29T01:30:00Z"), utc("2026-03-29T01:30:00Z"),
        ])
    }
}
