import Foundation
import Testing
@testable import Conversations

private func batch(_ json: String, limits: ConnectorBatchLimits = .standard) throws -> ConnectorBatch {
    try ConnectorBatch(json: Data(json.utf8), limits: limits)
}

private func problems(_ json: String, limits: ConnectorBatchLimits = .standard) -> [ConnectorBatchProblem] {
    do {
        _ = try ConnectorBatch(json: Data(json.utf8), limits: limits)
        return []
    } catch {
        return error.problems
    }
}

private func item(
    chatId: String = #""966500000001@s.whatsapp.net""#, messageId: String = #""3EB0C767D71D""#,
    sender: String = #""Omar""#, fromMe: String = "false", timestamp: String = "1795266000",
    text: String? = #""Dinner Wednesday at 8?""#, isGroup: String = "false"
) -> String {
    var fields = [
        #""chatId":\#(chatId)"#, #""messageId":\#(messageId)"#, #""sender":\#(sender)"#,
        #""fromMe":\#(fromMe)"#, #""timestamp":\#(timestamp)"#, #""isGroup":\#(isGroup)"#,
    ]
    if let text { fields.append(#""text":\#(text)"#) }
    return "{" + fields.joined(separator: ",") + "}"
}

private func body(_ items: [String]) -> String {
    #"{"messages":["# + items.joined(separator: ",") + "]}"
}

private func problem(_ path: String?, _ reason: ConnectorBatchProblem.Reason) -> ConnectorBatchProblem {
    ConnectorBatchProblem(path: path, reason: reason)
}

@Suite struct ConnectorBatchTests {
    @Test func aGoodBatch() throws {
        let result = try batch(body([
            item(),
            item(
                chatId: #""120363041234567890@g.us""#, messageId: #""B2""#, sender: #""أبو فهد""#, fromMe: "true",
                timestamp: #""2026-11-21T14:05:00+03:00""#, text: #""بكرة بعد العشاء""#, isGroup: "true"),
            item(messageId: #""C3""#, timestamp: #""2026-11-21T11:05:00.250Z""#, text: "null"),
            item(messageId: #""D4""#, timestamp: "1795266000.5", text: nil),
        ]))
        #expect(result.messages == [
            ConnectorMessage(
                chatID: "966500000001@s.whatsapp.net", messageID: "3EB0C767D71D", sender: "Omar", fromMe: false,
                timestamp: Date(timeIntervalSince1970: 1_795_266_000), text: "Dinner Wednesday at 8?", isGroup: false),
            ConnectorMessage(
                chatID: "120363041234567890@g.us", messageID: "B2", sender: "أبو فهد", fromMe: true,
                timestamp: Date(timeIntervalSince1970: 1_795_259_100), text: "بكرة بعد العشاء", isGroup: true),
            ConnectorMessage(
                chatID: "966500000001@s.whatsapp.net", messageID: "C3", sender: "Omar", fromMe: false,
                timestamp: Date(timeIntervalSince1970: 1_795_259_100.25), text: nil, isGroup: false),
            ConnectorMessage(
                chatID: "966500000001@s.whatsapp.net", messageID: "D4", sender: "Omar", fromMe: false,
                timestamp: Date(timeIntervalSince1970: 1_795_266_000.5), text: nil, isGroup: false),
        ])
    }

    @Test func anEmptyBatchIsNothingToImport() throws {
        #expect(try batch(#"{"messages":[]}"#).messages.isEmpty)
    }

    @Test func unknownFieldsAreIgnored() throws {
        let json = #"{"connector":"baileys","messages":[{"quoted":{"id":"x"},"#
            + item().dropFirst()
            + "]}"
        #expect(try batch(json).messages.count == 1)
    }

    @Test func theTimestampFormsAgree() throws {
        let seconds = try batch(body([item(timestamp: "1795266000")])).messages[0].timestamp
        // 1795266000 is 2026-11-21 13:00 UTC, 16:00 in Riyadh.
        for text in ["\"2026-11-21T13:00:00Z\"", "\"2026-11-21T16:00:00+03:00\"", "\"2026-11-21T08:00:00-05:00\"",
                     "\"2026-11-21T13:00:00.000Z\""] {
            #expect(try batch(body([item(timestamp: text)])).messages[0].timestamp == seconds, "\(text)")
        }
    }
}

@Suite struct ConnectorBatchErrorTests {
    @Test func notJSONOrNotAnObject() {
        #expect(problems("") == [problem(nil, .notJSON)])
        #expect(problems("messages: []") == [problem(nil, .notJSON)])
        #expect(problems("[]") == [problem(nil, .notAnObject)])
        #expect(problems("\"hello\"") == [problem(nil, .notAnObject)])
        #expect(problems("null") == [problem(nil, .notAnObject)])
        #expect(problems("1795266000") == [problem(nil, .notAnObject)])
    }

    @Test func theMessagesArray() {
        #expect(problems("{}") == [problem("messages", .missing)])
        #expect(problems(#"{"messages":null}"#) == [problem("messages", .missing)])
        #expect(problems(#"{"messages":{}}"#) == [problem("messages", .wrongType(expected: "an array"))])
        #expect(problems(#"{"messages":"[]"}"#) == [problem("messages", .wrongType(expected: "an array"))])
    }

    @Test func anItemThatIsNotAnObject() {
        #expect(problems(body([item(), "5", item(), "null"])) == [
            problem("messages[1]", .wrongType(expected: "an object")),
            problem("messages[3]", .wrongType(expected: "an object")),
        ])
    }

    @Test func aMissingMessageIdNamesItsItem() throws {
        let missing = item().replacingOccurrences(of: #""messageId":"3EB0C767D71D","#, with: "")
        let found = problems(body([item(), item(), item(), missing]))
        #expect(found == [problem("messages[3].messageId", .missing)])
        #expect(found.first?.description == "messages[3].messageId is missing")
    }

    @Test func everyRequiredFieldIsChecked() {
        let bare = problems(body(["{}"]))
        #expect(bare == [
            problem("messages[0].chatId", .missing),
            problem("messages[0].messageId", .missing),
            problem("messages[0].sender", .missing),
            problem("messages[0].fromMe", .missing),
            problem("messages[0].timestamp", .missing),
            problem("messages[0].isGroup", .missing),
        ])
        let nulls = problems(body([item(chatId: "null", fromMe: "null", timestamp: "null")]))
        #expect(nulls == [
            problem("messages[0].chatId", .missing),
            problem("messages[0].fromMe", .missing),
            problem("messages[0].timestamp", .missing),
        ])
    }

    @Test func wrongTypes() {
        let found = problems(body([item(chatId: "42", sender: "[]", fromMe: #""true""#, text: "7", isGroup: "1")]))
        #expect(found == [
            problem("messages[0].chatId", .wrongType(expected: "a string")),
            problem("messages[0].sender", .wrongType(expected: "a string")),
            problem("messages[0].fromMe", .wrongType(expected: "true or false")),
            problem("messages[0].text", .wrongType(expected: "a string or null")),
            problem("messages[0].isGroup", .wrongType(expected: "true or false")),
        ])
        #expect(found[2].description == "messages[0].fromMe is not true or false")
    }

    @Test func emptyIdsAreRefused() {
        #expect(problems(body([item(chatId: #""""#, messageId: #""""#, sender: #""""#)])) == [
            problem("messages[0].chatId", .empty),
            problem("messages[0].messageId", .empty),
            problem("messages[0].sender", .empty),
        ])
    }

    @Test(arguments: [#""yesterday""#, #""2026-11-21T14:05:00""#, #""2026-11-21""#, #""21/11/2026 14:05""#,
                      #""1795266000""#, "true", "{}", "[1795266000]"])
    func aTimestampThatIsNeitherForm(_ timestamp: String) {
        let found = problems(body([item(timestamp: timestamp)]))
        #expect(found == [problem("messages[0].timestamp", .notATimestamp)])
        #expect(found.first?.description.hasPrefix("messages[0].timestamp is not Unix seconds or ISO-8601") == true)
    }

    @Test func aTimestampInMilliseconds() {
        let found = problems(body([item(timestamp: "1795266000000")]))
        #expect(found == [problem("messages[0].timestamp", .timestampInMilliseconds)])
        #expect(found.first?.description.contains("milliseconds") == true)
    }

    @Test(arguments: ["0", "-1", "123", "1e300", #""1970-01-01T00:00:00Z""#, #""2150-01-01T00:00:00Z""#])
    func anImplausibleTimestamp(_ timestamp: String) {
        #expect(problems(body([item(timestamp: timestamp)])) == [problem("messages[0].timestamp", .timestampOutOfRange)])
    }

    @Test func theTextLimitIsInBytes() throws {
        let limit = ConnectorBatchLimits.standard.maximumTextBytes
        #expect(limit == 65_536)
        let fits = String(repeating: "ب", count: limit / 2) // two bytes each
        #expect(try batch(body([item(text: "\"\(fits)\"")])).messages[0].text == fits)
        let over = fits + "b"
        let found = problems(body([item(text: "\"\(over)\"")]))
        #expect(found == [problem("messages[0].text", .textTooLarge(bytes: limit + 1, limit: limit))])
        #expect(found.first?.description == "messages[0].text is 65537 bytes of UTF-8; at most 65536 are allowed")
    }

    @Test func theIdLimitIsInCharacters() throws {
        let fits = String(repeating: "x", count: 256)
        #expect(try batch(body([item(chatId: "\"\(fits)\"", messageId: "\"\(fits)\"", sender: "\"\(fits)\"")])).messages.count == 1)
        let found = problems(body([item(messageId: "\"\(fits)y\"", sender: "\"" + String(repeating: "ع", count: 300) + "\"")]))
        #expect(found == [
            problem("messages[0].messageId", .tooLong(length: 257, limit: 256)),
            problem("messages[0].sender", .tooLong(length: 300, limit: 256)),
        ])
        // Combining marks count: a "character" of 300 scalars is 300 long.
        let stacked = "a" + String(repeating: "\u{0301}", count: 299)
        #expect(problems(body([item(sender: "\"\(stacked)\"")])) == [problem("messages[0].sender", .tooLong(length: 300, limit: 256))])
    }

    @Test func atMostAThousandMessages() throws {
        let thousand = Array(repeating: item(), count: 1_000)
        #expect(try batch(body(thousand)).messages.count == 1_000)
        let found = problems(body(thousand + [item()]))
        #expect(found == [problem("messages", .tooManyMessages(count: 1_001, limit: 1_000))])
        #expect(found.first?.description.contains("at most 1000") == true)
    }

    @Test func limitsCanBeSet() {
        let small = ConnectorBatchLimits(maximumMessages: 2, maximumTextBytes: 4, maximumIDLength: 3)
        #expect(problems(body([item(), item(), item()]), limits: small)
            == [problem("messages", .tooManyMessages(count: 3, limit: 2))])
        #expect(problems(body([item(chatId: #""abcd""#, messageId: #""abc""#, sender: #""ab""#, text: #""hello""#)]), limits: small) == [
            problem("messages[0].chatId", .tooLong(length: 4, limit: 3)),
            problem("messages[0].text", .textTooLarge(bytes: 5, limit: 4)),
        ])
    }

    @Test func oneBadItemRefusesTheWholeBatchWithEveryProblem() throws {
        let items = [
            item(messageId: #""ok1""#),
            item(messageId: "null", timestamp: #""soon""#),
            item(messageId: #""ok2""#),
            item(messageId: #""ok3""#, isGroup: #""no""#),
        ]
        do {
            _ = try ConnectorBatch(json: Data(body(items).utf8))
            Issue.record("a batch with invalid items was accepted")
        } catch {
            #expect(error.problems == [
                problem("messages[1].messageId", .missing),
                problem("messages[1].timestamp", .notATimestamp),
                problem("messages[3].isGroup", .wrongType(expected: "true or false")),
            ])
            #expect(error.description.hasPrefix("the batch was refused, nothing was imported: messages[1].messageId is missing; "))
        }
    }

    @Test func aLongListOfProblemsIsShortenedInTheDescription() {
        let error = ConnectorBatchError(problems: (0..<25).map { problem("messages[\($0)].chatId", .missing) })
        #expect(error.description.hasSuffix("messages[19].chatId is missing; and 5 more"))
        #expect(!error.description.contains("messages[20]"))
    }
}
