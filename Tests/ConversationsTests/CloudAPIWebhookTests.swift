import Foundation
import Testing
@testable import Conversations

private func read(_ body: Data) throws -> CloudAPIWebhook {
    try CloudAPIWebhook(body: body)
}

private func readError(_ json: String) -> CloudAPIWebhookError? {
    do {
        _ = try CloudAPIWebhook(body: Data(json.utf8))
        return nil
    } catch {
        return error
    }
}

/// A delivery of one `messages` change with the given `messages` array (JSON text).
private func delivery(
    messages: String, contacts: String = #"[{"profile":{"name":"Omar"},"wa_id":"966500000001"}]"#,
    metadata: String = #"{"display_phone_number":"15550783881","phone_number_id":"106540352242922"}"#
) -> String {
    #"{"object":"whatsapp_business_account","entry":[{"id":"1","changes":[{"field":"messages","value":{"#
        + #""messaging_product":"whatsapp","metadata":\#(metadata),"contacts":\#(contacts),"messages":\#(messages)}}]}]}"#
}

private let goodText = #"{"from":"966500000001","id":"wamid.A","timestamp":"1795266000","type":"text","text":{"body":"hi"}}"#

@Suite struct CloudAPIWebhookFixtureTests {
    @Test func anEnglishTextMessage() throws {
        let webhook = try read(CloudAPISamples.body("text_message_en"))
        #expect(webhook.statusCount == 0)
        #expect(webhook.messages == [CloudAPIMessage(
            phoneNumberID: "106540352242922", from: "966501234567", senderName: "Sara Al-Harbi",
            id: "wamid.HBgMOTY2NTAxMjM0NTY3FQIAEhggQTFCMkMzRDRFNUY2QTdCOEM5RDBFMUYyQTNCNEM1RDYA",
            timestamp: Date(timeIntervalSince1970: 1_795_266_000), type: "text",
            text: "Dinner Wednesday at 8? Lusin, Kingdom Centre", contextMessageID: nil)])
    }

    @Test func anArabicReplyWithEscapedUnicode() throws {
        let webhook = try read(CloudAPISamples.body("text_message_ar"))
        let message = try #require(webhook.messages.first)
        #expect(webhook.messages.count == 1)
        #expect(message.senderName == "أبو فهد")
        #expect(message.text == "تمام، بكرة بعد العشاء ان شاء الله 👍")
        #expect(message.from == "966551234567")
        #expect(message.timestamp == Date(timeIntervalSince1970: 1_795_280_100))
        #expect(message.contextMessageID == "wamid.HBgMOTY2NTUxMjM0NTY3FQIAERgSQUJDREVGMDEyMzQ1Njc4OTAA")
        // The \u-escaped wire form and the readable copy say the same thing.
        #expect(try read(CloudAPISamples.body("text_message_ar.pretty")) == webhook)
    }

    @Test func aBatchOfATextAndAnImage() throws {
        let webhook = try read(CloudAPISamples.body("batch_text_and_image"))
        #expect(webhook.messages.map(\.type) == ["text", "image"])
        #expect(webhook.messages.map(\.text) == ["Padel tomorrow after Asr? court 3", "this one"])
        #expect(webhook.messages.map(\.timestamp) == [
            Date(timeIntervalSince1970: 1_795_351_380), Date(timeIntervalSince1970: 1_795_351_395),
        ])
        #expect(webhook.messages.map(\.senderName) == ["Khalid", "Khalid"])
        #expect(webhook.messages.map(\.id) == [
            "wamid.HBgMOTY2NTA5ODc2NTQzFQIAEhggQzNENEU1RjZBN0I4QzlEMEUxRjJBM0I0QzVENkU3RjgA",
            "wamid.HBgMOTY2NTA5ODc2NTQzFQIAEhggRDRFNUY2QTdCOEM5RDBFMUYyQTNCNEM1RDZFN0Y4QTkA",
        ])
        #expect(Set(webhook.messages.map(\.phoneNumberID)) == ["106540352242922"])
    }

    @Test func aDeliveryStatusCarriesNoMessages() throws {
        let webhook = try read(CloudAPISamples.body("status_delivered"))
        #expect(webhook.messages.isEmpty)
        #expect(webhook.statusCount == 1)
    }

    @Test func anEchoIsTheOwnersSideOfTheCustomersChat() throws {
        // On a number shared with the WhatsApp Business app, what the owner types on the phone
        // comes back as `smb_message_echoes`: from the business, to the customer.
        let body = #"{"object":"whatsapp_business_account","entry":[{"id":"1","changes":[{"field":"smb_message_echoes","value":{"#
            + #""messaging_product":"whatsapp","metadata":{"display_phone_number":"15550783881","phone_number_id":"106540352242922"},"#
            + #""message_echoes":[{"from":"15550783881","to":"966501234567","id":"wamid.E1","timestamp":"1795266100","type":"text","#
            + #""text":{"body":"Deal, see you there"}}]}}]}]}"#
        let webhook = try read(Data(body.utf8))
        let echo = try #require(webhook.messages.first)
        #expect(webhook.messages.count == 1 && echo.sentByBusiness && echo.customer == "966501234567" && echo.from == "15550783881")
        #expect(echo.text == "Deal, see you there" && echo.senderName == nil)
        let incoming = try #require(try read(CloudAPISamples.body("text_message_en")).messages.first)
        #expect(!incoming.sentByBusiness && incoming.customer == incoming.from, "the same chat key as the customer's own messages")

        let noRecipient = body.replacingOccurrences(of: #""to":"966501234567","#, with: "")
        #expect(readError(noRecipient) == CloudAPIWebhookError(path: "entry[0].changes[0].value.message_echoes[0].to", reason: .missing))
    }

    @Test(arguments: CloudAPISamples.rawNames)
    func thePrettyCopyReadsTheSame(_ name: String) throws {
        #expect(try read(CloudAPISamples.body(name + ".pretty")) == read(CloudAPISamples.body(name)))
    }
}

@Suite struct CloudAPIWebhookShapeTests {
    @Test func captionsAreTheTextOfImagesVideosAndDocuments() throws {
        let messages = [
            #"{"from":"966500000001","id":"wamid.1","timestamp":"1795266000","type":"video","video":{"caption":"the venue","id":"9"}}"#,
            #"{"from":"966500000001","id":"wamid.2","timestamp":"1795266001","type":"document","document":{"caption":"agenda","filename":"a.pdf"}}"#,
            #"{"from":"966500000001","id":"wamid.3","timestamp":"1795266002","type":"image","image":{"id":"7"}}"#,
            #"{"from":"966500000001","id":"wamid.4","timestamp":"1795266003","type":"audio","audio":{"id":"8","voice":true}}"#,
            #"{"from":"966500000001","id":"wamid.5","timestamp":"1795266004","type":"reaction","reaction":{"message_id":"wamid.1","emoji":"👍"}}"#,
        ]
        let webhook = try read(Data(delivery(messages: "[" + messages.joined(separator: ",") + "]").utf8))
        #expect(webhook.messages.map(\.text) == ["the venue", "agenda", nil, nil, nil])
        #expect(webhook.messages.map(\.type) == ["video", "document", "image", "audio", "reaction"])
    }

    @Test func theSenderNameComesFromTheMatchingContact() throws {
        let contacts = #"[{"profile":{"name":"Someone else"},"wa_id":"966500000009"},{"profile":{"name":"Omar"},"wa_id":"966500000001"}]"#
        let named = try read(Data(delivery(messages: "[\(goodText)]", contacts: contacts).utf8))
        #expect(named.messages.first?.senderName == "Omar")
        let unmatched = #"[{"profile":{"name":"Someone else"},"wa_id":"966500000009"}]"#
        #expect(try read(Data(delivery(messages: "[\(goodText)]", contacts: unmatched).utf8)).messages.first?.senderName == nil)
        let noContacts = delivery(messages: "[\(goodText)]").replacingOccurrences(of: #""contacts":"#, with: #""people":"#)
        #expect(try read(Data(noContacts.utf8)).messages.first?.senderName == nil)
    }

    @Test func unknownFieldsAreIgnored() throws {
        let json = #"{"object":"whatsapp_business_account","future":{"a":[1,2,{"b":null}]},"entry":[{"id":"1","x":true,"#
            + #""changes":[{"field":"messages","extra":1,"value":{"messaging_product":"whatsapp","new_thing":[],"#
            + #""metadata":{"phone_number_id":"106540352242922","other":5},"#
            + #""messages":[{"from":"966500000001","id":"wamid.A","timestamp":"1795266000","type":"text","#
            + #""text":{"body":"hi","preview_url":false},"identity":{"acknowledged":true}}]}}]}]}"#
        let webhook = try read(Data(json.utf8))
        #expect(webhook.messages.map(\.text) == ["hi"])
    }

    @Test func changesOfOtherFieldsAreSkipped() throws {
        let json = #"{"object":"whatsapp_business_account","entry":[{"id":"1","changes":["#
            + #"{"field":"account_update","value":{"event":"VERIFIED_ACCOUNT","messages":"not a list"}},"#
            + #"{"field":"messages","value":{"metadata":{"phone_number_id":"P"},"messages":[\#(goodText)]}}]}]}"#
        let webhook = try read(Data(json.utf8))
        #expect(webhook.messages.map(\.phoneNumberID) == ["P"])
    }

    @Test func everyEntryAndChangeIsReadInOrder() throws {
        func change(_ phone: String, _ id: String) -> String {
            #"{"field":"messages","value":{"metadata":{"phone_number_id":"\#(phone)"},"messages":["#
                + goodText.replacingOccurrences(of: "wamid.A", with: id) + "]}}"
        }
        let json = #"{"object":"whatsapp_business_account","entry":["#
            + #"{"id":"1","changes":[\#(change("P1", "m1")),\#(change("P1", "m2"))]},"#
            + #"{"id":"2","changes":[\#(change("P2", "m3"))]}]}"#
        let webhook = try read(Data(json.utf8))
        #expect(webhook.messages.map(\.id) == ["m1", "m2", "m3"])
        #expect(webhook.messages.map(\.phoneNumberID) == ["P1", "P1", "P2"])
    }

    @Test func aChangeWithBothMessagesAndStatusesCountsBoth() throws {
        let json = delivery(messages: "[\(goodText)]")
            .replacingOccurrences(of: #""messages":["#, with: #""statuses":[{"id":"s1"},{"id":"s2"}],"messages":["#)
        let webhook = try read(Data(json.utf8))
        #expect(webhook.messages.count == 1)
        #expect(webhook.statusCount == 2)
    }

    @Test func anEmptyTextBodyIsKept() throws {
        let message = goodText.replacingOccurrences(of: #""body":"hi""#, with: #""body":"""#)
        #expect(try read(Data(delivery(messages: "[\(message)]").utf8)).messages.first?.text == "")
    }
}

@Suite struct CloudAPIWebhookErrorTests {
    @Test(arguments: ["", "not json", "{\"object\":", "<xml/>"])
    func aBodyThatIsNotJSON(_ body: String) throws {
        let error = try #require(readError(body))
        #expect(error == CloudAPIWebhookError(path: nil, reason: .notJSON))
        #expect(error.description.hasPrefix("the body is not JSON"))
    }

    @Test(arguments: ["[]", "\"whatsapp_business_account\"", "42", "null"])
    func aBodyThatIsNotAnObject(_ body: String) throws {
        let error = try #require(readError(body))
        #expect(error.reason == .notAnObject)
        #expect(error.path == nil)
    }

    @Test func anotherProductsWebhookIsNamed() throws {
        // Messenger's shape: `messaging` instead of `changes`, which must not matter.
        let error = try #require(readError(#"{"object":"page","entry":[{"id":"1","messaging":[{"x":1}]}]}"#))
        #expect(error.reason == .notWhatsAppBusinessAccount(object: "page"))
        #expect(error.description.hasPrefix("\"object\" is \"page\", not \"whatsapp_business_account\""))
        let odd = try #require(readError(#"{"object":"instagram","entry":"weird"}"#))
        #expect(odd.reason == .notWhatsAppBusinessAccount(object: "instagram"))
        let missing = try #require(readError(#"{"entry":[]}"#))
        #expect(missing.reason == .notWhatsAppBusinessAccount(object: nil))
        #expect(missing.description.hasPrefix("\"object\" is missing"))
    }

    @Test func aMissingEntryOrChanges() throws {
        #expect(readError(#"{"object":"whatsapp_business_account"}"#) == CloudAPIWebhookError(path: "entry", reason: .missing))
        #expect(readError(#"{"object":"whatsapp_business_account","entry":[{"id":"1"}]}"#)
            == CloudAPIWebhookError(path: "entry[0].changes", reason: .missing))
        #expect(readError(#"{"object":"whatsapp_business_account","entry":[{"changes":[{"value":{}}]}]}"#)
            == CloudAPIWebhookError(path: "entry[0].changes[0].field", reason: .missing))
        #expect(readError(#"{"object":"whatsapp_business_account","entry":[{"changes":[{"field":"messages"}]}]}"#)
            == CloudAPIWebhookError(path: "entry[0].changes[0].value", reason: .missing))
    }

    @Test func aTimestampThatIsNotUnixSecondsNamesItsPath() throws {
        let bad = goodText.replacingOccurrences(of: "1795266000", with: "yesterday")
        let error = try #require(readError(delivery(messages: "[\(goodText),\(bad)]")))
        #expect(error == CloudAPIWebhookError(
            path: "entry[0].changes[0].value.messages[1].timestamp", reason: .notUnixSeconds(value: "yesterday")))
        #expect(error.description.hasPrefix("entry[0].changes[0].value.messages[1].timestamp is not Unix seconds"))
    }

    @Test(arguments: ["-1795266000", "1795266000.5", " 1795266000", "1795266000000000", "0x1F", "١٧٩٥٢٦٦٠٠٠"])
    func otherTimestampsThatAreNotUnixSeconds(_ timestamp: String) throws {
        let bad = goodText.replacingOccurrences(of: "1795266000", with: timestamp)
        let error = try #require(readError(delivery(messages: "[\(bad)]")))
        #expect(error.reason == .notUnixSeconds(value: timestamp))
    }

    @Test func aNumericTimestampIsTheWrongType() throws {
        let bad = goodText.replacingOccurrences(of: #""1795266000""#, with: "1795266000")
        let error = try #require(readError(delivery(messages: "[\(bad)]")))
        #expect(error == CloudAPIWebhookError(
            path: "entry[0].changes[0].value.messages[0].timestamp", reason: .wrongType(expected: "a string")))
        #expect(error.description == "entry[0].changes[0].value.messages[0].timestamp is not a string")
    }

    @Test(arguments: [
        (#""from":"966500000001","#, "from"),
        (#""id":"wamid.A","#, "id"),
        (#""timestamp":"1795266000","#, "timestamp"),
        (#""type":"text","#, "type"),
    ])
    func aMissingMessageFieldNamesItsPath(_ removed: String, _ field: String) throws {
        let bad = goodText.replacingOccurrences(of: removed, with: "")
        #expect(bad != goodText)
        let error = try #require(readError(delivery(messages: "[\(goodText),\(goodText),\(bad)]")))
        #expect(error == CloudAPIWebhookError(path: "entry[0].changes[0].value.messages[2].\(field)", reason: .missing))
        #expect(error.description == "entry[0].changes[0].value.messages[2].\(field) is missing")
    }

    @Test func anEmptySenderIsRefused() throws {
        let bad = goodText.replacingOccurrences(of: #""from":"966500000001""#, with: #""from":"""#)
        #expect(readError(delivery(messages: "[\(bad)]"))
            == CloudAPIWebhookError(path: "entry[0].changes[0].value.messages[0].from", reason: .empty))
    }

    @Test func aTextMessageNeedsItsBody() throws {
        let bad = goodText.replacingOccurrences(of: #","text":{"body":"hi"}"#, with: "")
        #expect(readError(delivery(messages: "[\(bad)]"))
            == CloudAPIWebhookError(path: "entry[0].changes[0].value.messages[0].text.body", reason: .missing))
        let nullBody = goodText.replacingOccurrences(of: #""body":"hi""#, with: #""body":null"#)
        #expect(readError(delivery(messages: "[\(nullBody)]"))
            == CloudAPIWebhookError(path: "entry[0].changes[0].value.messages[0].text.body", reason: .missing))
    }

    @Test func messagesNeedThePhoneNumberID() throws {
        let error = try #require(readError(delivery(messages: "[\(goodText)]", metadata: #"{"display_phone_number":"1"}"#)))
        #expect(error == CloudAPIWebhookError(path: "entry[0].changes[0].value.metadata.phone_number_id", reason: .missing))
        // A change without messages does not need it.
        #expect(readError(delivery(messages: "[]", metadata: "{}")) == nil)
    }

    @Test func wrongContainerTypesNameTheirPath() throws {
        let notAnArray = try #require(readError(delivery(messages: "{}")))
        #expect(notAnArray == CloudAPIWebhookError(
            path: "entry[0].changes[0].value.messages", reason: .wrongType(expected: "an array")))
        let notAnObject = try #require(readError(delivery(messages: "[\(goodText), 5]")))
        #expect(notAnObject == CloudAPIWebhookError(
            path: "entry[0].changes[0].value.messages[1]", reason: .wrongType(expected: "an object")))
        let nullMessage = try #require(readError(delivery(messages: "[\(goodText), null]")))
        #expect(nullMessage == CloudAPIWebhookError(path: "entry[0].changes[0].value.messages[1]", reason: .missing))
        let entryNotArray = try #require(readError(#"{"object":"whatsapp_business_account","entry":{}}"#))
        #expect(entryNotArray == CloudAPIWebhookError(path: "entry", reason: .wrongType(expected: "an array")))
    }
}
