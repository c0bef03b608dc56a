import Foundation
import Synchronization
import Testing
import ZIPFoundation
@testable import Conversations

private let riyadh = TimeZone(identifier: "Asia/Riyadh")!
private let parser = WhatsAppExportParser(timeZone: riyadh)

private func archiveError(
    _ zip: Data, maximumSize: Int = WhatsAppExportArchive.defaultMaximumChatTextSize
) -> WhatsAppExportArchiveError? {
    do {
        _ = try WhatsAppExportArchive.chatText(in: zip, maximumSize: maximumSize)
        return nil
    } catch {
        return error
    }
}

private func parseError(_ zip: Data) -> WhatsAppExportArchiveError? {
    do {
        _ = try parser.parse(zip: zip)
        return nil
    } catch {
        return error
    }
}

@Suite struct WhatsAppExportArchiveTests {
    @Test func anIOSExportWithMedia() throws {
        let chat = try SampleExports.data("ios_en-GB_24h")
        let zip = try ZipFixtures.archive([
            ("00000012-PHOTO-2026-11-21-14-05-33.jpg", ZipFixtures.media(40_000)),
            ("_chat.txt", chat),
            ("00000013-AUDIO-2026-11-21-14-06-10.opus", ZipFixtures.media(9_000, seed: 3)),
        ])
        #expect(WhatsAppExportArchive.isZip(zip))
        let found = try WhatsAppExportArchive.chatText(in: zip)
        #expect(found.name == "_chat.txt")
        #expect(found.data == chat)
        #expect(try parser.parse(zip: zip) == parser.parse(chat))
    }

    @Test func anAndroidExportWithMedia() throws {
        let chat = try SampleExports.data("android_en-GB_24h")
        let zip = try ZipFixtures.archive([
            ("WhatsApp Chat with Omar.txt", chat),
            ("IMG-20261121-WA0001.jpg", ZipFixtures.media(30_000)),
            ("PTT-20261121-WA0002.opus", ZipFixtures.media(5_000, seed: 9)),
        ])
        let found = try WhatsAppExportArchive.chatText(in: zip)
        #expect(found.name == "WhatsApp Chat with Omar.txt")
        let export = try parser.parse(zip: zip)
        #expect(export == (try parser.parse(chat)))
        #expect(!export.messages.isEmpty)
    }

    @Test func anArabicAndroidExportWithStoredEntries() throws {
        let chat = try SampleExports.data("android_ar_arabic-indic_12h")
        let zip = try ZipFixtures.archive([
            ("IMG-20261121-WA0001.jpg", ZipFixtures.media(1_000)),
            ("محادثة واتساب مع عمر.txt", chat),
        ], compression: .none)
        #expect(try WhatsAppExportArchive.chatText(in: zip).name == "محادثة واتساب مع عمر.txt")
        #expect(try parser.parse(zip: zip) == parser.parse(chat))
    }

    @Test func chatTxtIsPreferredOverOtherTextFiles() throws {
        let zip = try ZipFixtures.archive([
            ("notes.txt", Data("not the chat".utf8)),
            ("WhatsApp Chat with Omar.txt", Data("not this either".utf8)),
            ("_chat.txt", try SampleExports.data("ios_en-US_12h")),
        ])
        #expect(try WhatsAppExportArchive.chatText(in: zip).name == "_chat.txt")
    }

    @Test func theAndroidNameIsPreferredOverAnotherTextFile() throws {
        let zip = try ZipFixtures.archive([
            ("readme.txt", Data("hello".utf8)),
            ("WhatsApp Chat - Family.txt", try SampleExports.data("android_en-US_12h")),
        ])
        #expect(try WhatsAppExportArchive.chatText(in: zip).name == "WhatsApp Chat - Family.txt")
    }

    @Test func theOnlyTextFileIsTheChat() throws {
        let chat = try SampleExports.data("android_en-US_12h")
        let zip = try ZipFixtures.archive([("IMG-1.jpg", ZipFixtures.media(10)), ("Family.TXT", chat)])
        #expect(try WhatsAppExportArchive.chatText(in: zip).data == chat)
    }

    @Test func aReZippedFolderFromMacOSIsRead() throws {
        let chat = try SampleExports.data("ios_ar_latin-digits_24h")
        let zip = try ZipFixtures.archive([
            ("WhatsApp Chat - Omar/", Data()),
            ("WhatsApp Chat - Omar/_chat.txt", chat),
            ("__MACOSX/WhatsApp Chat - Omar/._chat.txt", Data([0, 5, 22, 7])),
            ("WhatsApp Chat - Omar/._notes.txt", Data([0, 5, 22, 7])),
        ])
        let found = try WhatsAppExportArchive.chatText(in: zip)
        #expect(found.name == "WhatsApp Chat - Omar/_chat.txt")
        #expect(found.data == chat)
    }

    @Test func aTopLevelChatWinsOverNestedOnes() throws {
        let zip = try ZipFixtures.archive([
            ("old/_chat.txt", Data("old".utf8)),
            ("_chat.txt", try SampleExports.data("ios_en-US_12h")),
        ])
        #expect(try WhatsAppExportArchive.chatText(in: zip).name == "_chat.txt")
    }

    @Test func twoChatsAreNotGuessedBetween() throws {
        let twoChats = try ZipFixtures.archive([("a/_chat.txt", Data("a".utf8)), ("b/_chat.txt", Data("b".utf8))])
        #expect(archiveError(twoChats) == .ambiguousChatText(candidates: ["a/_chat.txt", "b/_chat.txt"]))
        let twoTexts = try ZipFixtures.archive([("notes.txt", Data("a".utf8)), ("todo.txt", Data("b".utf8))])
        let error = try #require(archiveError(twoTexts))
        #expect(error == .ambiguousChatText(candidates: ["notes.txt", "todo.txt"]))
        #expect(error.description.hasSuffix(": notes.txt, todo.txt"))
    }

    @Test func aZipWithoutAChatListsWhatItHolds() throws {
        let zip = try ZipFixtures.archive([("a.jpg", ZipFixtures.media(100)), ("b.opus", ZipFixtures.media(50))])
        let error = try #require(archiveError(zip))
        #expect(error == .noChatText(found: ["a.jpg", "b.opus"]))
        #expect(error.description == "the zip holds no WhatsApp chat text file; found: a.jpg, b.opus")
    }

    @Test func anEmptyArchiveIsAZipWithoutAChat() throws {
        let empty = try ZipFixtures.archive([])
        #expect(WhatsAppExportArchive.isZip(empty))
        #expect(archiveError(empty) == .noChatText(found: []))
    }

    @Test func aTruncatedZipIsNotComplete() throws {
        let zip = try ZipFixtures.archive([
            ("_chat.txt", try SampleExports.data("ios_en-GB_24h")), ("IMG.jpg", ZipFixtures.media(20_000)),
        ])
        let half = zip.prefix(zip.count / 2)
        #expect(WhatsAppExportArchive.isZip(half))
        let error = try #require(archiveError(half))
        #expect(error == .notACompleteZip)
        #expect(error.description.hasPrefix("the file is not a complete zip archive"))
        // Cut just before the end record too.
        #expect(archiveError(zip.dropLast(10)) == .notACompleteZip)
    }

    @Test func textIsNotAZip() throws {
        let text = try SampleExports.data("ios_en-GB_24h")
        #expect(!WhatsAppExportArchive.isZip(text))
        #expect(!WhatsAppExportArchive.isZip(Data()))
        #expect(!WhatsAppExportArchive.isZip(Data("PK".utf8)))
        #expect(archiveError(text) == .notACompleteZip)
        #expect(archiveError(Data()) == .notACompleteZip)
    }

    @Test func aChatOverTheCapIsRefusedBeforeExtraction() throws {
        let chat = try SampleExports.data("ios_en-GB_24h")
        let zip = try ZipFixtures.archive([("_chat.txt", chat)])
        let error = try #require(archiveError(zip, maximumSize: chat.count - 1))
        #expect(error == .chatTextTooLarge(name: "_chat.txt", limit: chat.count - 1))
        #expect(error.description.contains("_chat.txt is larger than"))
        #expect(try WhatsAppExportArchive.chatText(in: zip, maximumSize: chat.count).data == chat)
        let stored = try ZipFixtures.archive([("_chat.txt", chat)], compression: .none)
        #expect(archiveError(stored, maximumSize: 100) == .chatTextTooLarge(name: "_chat.txt", limit: 100))
    }

    @Test func aBombThatUnderstatesItsSizeIsStoppedWhileInflating() throws {
        // 8 MB of zeros deflate to a few KB; the headers are then made to claim 100 bytes.
        let zip = try ZipFixtures.archive([("_chat.txt", Data(count: 8_000_000))])
        var bomb = zip
        let local = try #require(bomb.offset(of: [0x50, 0x4B, 0x03, 0x04]))
        let central = try #require(bomb.offset(of: [0x50, 0x4B, 0x01, 0x02]))
        bomb.replaceSubrange((local + 22)..<(local + 26), with: [100, 0, 0, 0])
        bomb.replaceSubrange((central + 24)..<(central + 28), with: [100, 0, 0, 0])
        #expect(bomb.count < 100_000)
        #expect(archiveError(bomb, maximumSize: 1_000_000) == .chatTextTooLarge(name: "_chat.txt", limit: 1_000_000))
        // Under a cap above the real size, the lie is caught by the size check instead.
        #expect(archiveError(bomb, maximumSize: 9_000_000) == .damagedEntry(name: "_chat.txt"))
    }

    @Test func aDamagedEntryIsRefused() throws {
        let chat = try SampleExports.data("ios_en-GB_24h")
        for compression in [CompressionMethod.deflate, .none] {
            var zip = try ZipFixtures.archive([("_chat.txt", chat)], compression: compression)
            let local = try #require(zip.offset(of: [0x50, 0x4B, 0x03, 0x04]))
            zip[zip.startIndex + local + 30 + "_chat.txt".utf8.count + 40] ^= 0x55
            #expect(archiveError(zip) == .damagedEntry(name: "_chat.txt"), "\(compression)")
        }
    }

    @Test func aChatThatIsNotAnExportNamesTheFile() throws {
        let zip = try ZipFixtures.archive([("_chat.txt", Data("Dear Omar,\nsee you\n".utf8))])
        let error = try #require(parseError(zip))
        #expect(error == .export(
            name: "_chat.txt", WhatsAppExportError(line: 1, reason: .notAnExport(excerpt: "Dear Omar,"))))
        #expect(error.description.hasPrefix("_chat.txt: line 1: this does not look like a WhatsApp export"))
    }
}

/// The value of `work`, or nil when it has not finished within `seconds` (it is left running).
private func finishing<Value: Sendable>(
    within seconds: Double, _ work: @escaping @Sendable () -> Value
) -> Value? {
    let result = Mutex<Value?>(nil)
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        let value = work()
        result.withLock { $0 = .some(value) }
        done.signal()
    }
    guard done.wait(timeout: .now() + seconds) == .success else { return nil }
    return result.withLock { $0 }
}

/// Archives no zip tool makes, which ZIPFoundation 0.9.20 alone would crash or hang on.
@Suite struct CraftedArchiveTests {
    private let text = Data("21/11/2026, 14:05 - Omar: hi\n".utf8)

    @Test func theRawBuilderMakesReadableArchives() throws {
        let zip = ZipFixtures.raw(data: text, crc32: text.crc32(checksum: 0))
        #expect(try WhatsAppExportArchive.chatText(in: zip).data == text)
    }

    @Test func aLocalHeaderOffsetPastTheEndIsRefused() throws {
        // ZIPFoundation's in-memory reader traps on this (a negative range), killing the process.
        for offset in [UInt32(10_000), 0x7FFF_FFF0, UInt32.max] {
            let zip = ZipFixtures.raw(data: text, crc32: text.crc32(checksum: 0), localHeaderOffset: offset)
            #expect(archiveError(zip) == .notACompleteZip, "offset \(offset)")
        }
    }

    @Test func aCentralDirectoryPastTheEndIsRefused() throws {
        var zip = ZipFixtures.raw(data: text, crc32: text.crc32(checksum: 0))
        let end = try #require(zip.offset(of: [0x50, 0x4B, 0x05, 0x06]))
        zip.replaceSubrange((end + 16)..<(end + 20), with: [0xF0, 0xFF, 0xFF, 0x7F])
        #expect(archiveError(zip) == .notACompleteZip)
    }

    @Test func aDeflateStreamThatRunsOffTheEndIsDamagedNotEndless() throws {
        // A stored deflate block announcing 65,535 bytes, with 5 there: ZIPFoundation's own
        // extraction waits for the rest forever. Swift Testing's time limit cannot stop a
        // synchronous loop, so the work runs on its own thread and the test gives up waiting.
        let stream = Data([0x00, 0xFF, 0xFF, 0x00, 0x00]) + Data("hello".utf8)
        let zip = ZipFixtures.raw(method: 8, data: stream, crc32: 1, uncompressedSize: 100)
        let outcome = try #require(finishing(within: 20) { archiveError(zip) }, "still inflating after 20 s")
        #expect(outcome == .damagedEntry(name: "_chat.txt"))
    }

    @Test func zip64IsRefusedWithAReason() throws {
        let extra = Data([0x01, 0x00, 0x08, 0x00, 0, 0, 0, 0, 0, 0, 0, 0])
        let withExtra = ZipFixtures.raw(data: text, crc32: text.crc32(checksum: 0), centralExtra: extra)
        #expect(archiveError(withExtra) == .zip64)
        let withLocator = ZipFixtures.raw(data: text, crc32: text.crc32(checksum: 0), zip64Locator: true)
        #expect(archiveError(withLocator) == .zip64)
        #expect(WhatsAppExportArchiveError.zip64.description.contains("ZIP64"))
        // An unrelated extra field is fine.
        let other = Data([0x55, 0x54, 0x05, 0x00, 1, 0, 0, 0, 0])
        #expect(archiveError(ZipFixtures.raw(data: text, crc32: text.crc32(checksum: 0), centralExtra: other)) == nil)
    }

    @Test func anotherCompressionMethodIsNamed() throws {
        let zip = ZipFixtures.raw(method: 12, data: text, crc32: text.crc32(checksum: 0))
        let error = try #require(archiveError(zip))
        #expect(error == .unsupportedCompression(name: "_chat.txt", method: 12))
        #expect(error.description.hasPrefix("_chat.txt is compressed with method 12"))
    }
}
