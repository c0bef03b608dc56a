import Conversations
import Foundation
import JadwalCore
import Testing

@Suite("A WhatsApp export as incoming messages")
struct ChatExportImportTests {
    static let chat = """
        21/09/2026, 16:00 - Sara Ahmed: Dinner tomorrow at 8pm at Nando's?
        21/09/2026, 16:01 - Omar: Deal 👍
        21/09/2026, 16:01 - Omar: ok
        21/09/2026, 16:01 - Omar: ok
        21/09/2026, 16:02 - Sara Ahmed: <Media omitted>
        21/09/2026, 16:03 - Messages and calls are end-to-end encrypted.
        """

    static func parse(_ text: String) throws -> WhatsAppExport {
        try WhatsAppExportParser(timeZone: TimeZone(identifier: "Asia/Riyadh")!).parse(Data(text.utf8))
    }

    @Test("which participant is the account's owner: asked for, the settings' name, the account's name, or the question")
    func choosingMe() throws {
        let export = try Self.parse(Self.chat)
        #expect(try ChatExportImport(export: export, requestedMe: "omar", settingsName: nil, accountName: "x").me == "Omar")
        #expect(try ChatExportImport(export: export, requestedMe: nil, settingsName: "  OMAR ", accountName: "x").me == "Omar")
        #expect(try ChatExportImport(export: export, requestedMe: nil, settingsName: nil, accountName: "sara  ahmed").me == "Sara Ahmed")
        #expect(throws: ChatImportProblem.whoIsMe(participants: ["Sara Ahmed", "Omar"])) {
            try ChatExportImport(export: export, requestedMe: nil, settingsName: "Layla", accountName: "omar.k")
        }
        #expect(throws: ChatImportProblem.notAParticipant("Layla", participants: ["Sara Ahmed", "Omar"])) {
            try ChatExportImport(export: export, requestedMe: "Layla", settingsName: nil, accountName: "Omar")
        }
        let alone = try Self.parse("21/09/2026, 16:00 - Omar: anyone?")
        #expect(throws: ChatImportProblem.nobodyElse(me: "Omar")) {
            try ChatExportImport(export: alone, requestedMe: "Omar", settingsName: nil, accountName: "")
        }
        #expect(ChatImportProblem.whoIsMe(participants: ["A", "B"]).description.contains("\"A\", \"B\""))
    }

    @Test("messages with words, with ids a longer export of the same chat reproduces")
    func stableIDs() throws {
        let chat = try ChatExportImport(export: try Self.parse(Self.chat), requestedMe: "Omar", settingsName: nil, accountName: "")
        let messages = chat.messages
        #expect(messages.map(\.text) == ["Dinner tomorrow at 8pm at Nando's?", "Deal 👍", "ok", "ok"])
        #expect(messages.map(\.fromMe) == [false, true, true, true])
        #expect(Set(messages.map(\.chatKey)) == ["Sara Ahmed"] && messages.allSatisfy { !$0.isGroup })
        #expect(Set(messages.map(\.externalID)).count == 4, "the second identical \"ok\" of the minute is its own message")
        #expect(messages[3].externalID == messages[2].externalID + "#2")

        let longer = try ChatExportImport(
            export: try Self.parse(Self.chat + "\n21/09/2026, 17:00 - Sara Ahmed: Sorry, I have to cancel dinner tomorrow"),
            requestedMe: "Omar", settingsName: nil, accountName: "")
        #expect(Array(longer.messages.prefix(4).map(\.externalID)) == messages.map(\.externalID))
        #expect(longer.messages.count == 5)

        let group = try ChatExportImport(
            export: try Self.parse(Self.chat + "\n21/09/2026, 17:00 - Khalid: me too"), requestedMe: "Omar", settingsName: nil, accountName: "")
        #expect(group.messages.allSatisfy(\.isGroup) && group.others == ["Sara Ahmed", "Khalid"])
        #expect(group.messages[0].chatKey == "Khalid, Sara Ahmed")
    }
}
