import Foundation
import Testing
@testable import Conversations

/// The chat/completions request the LLM extractor sends: what the model is told (task, now,
/// zone, calendar, prayer times, the messages) and the JSON schema it must answer in.
@Suite struct LLMRequestTests {
    static let zone = TimeZone(identifier: "Asia/Riyadh")!

    static func message(_ sender: String, _ time: String, _ text: String) -> ChatMessage {
        ChatMessage(sender: sender, timestamp: ExtractionJSONLines.instant(time + ":00+03:00")!, timeZone: zone, body: text)
    }

    /// Sunday 2026-11-22, 20:00 in Riyadh.
    static let context = ExtractionContext(
        timeZone: zone, now: ExtractionJSONLines.instant("2026-11-22T20:00:00+03:00")!, prayerTimes: ExtractionTests.riyadhTimes)

    static let chat = [
        message("Sara", "2026-11-22T19:30", "Dinner tomorrow at 8pm at Nando's?\nThe one on Tahlia"),
        message("Omar", "2026-11-22T19:31", "<Media omitted>"),
        message("Omar", "2026-11-22T19:32", "This message was deleted"),
        message("Omar", "2026-11-22T19:33", "Deal 👍"),
    ]

    /// The encoded body, read back as plain JSON.
    static func body(_ messages: [ChatMessage] = chat, context: ExtractionContext = context) throws -> [String: Any] {
        let request = ChatCompletionRequest(model: "gemma-3-270m", prompt: ExtractionPrompt(messages: messages, context: context), maxTokens: 400)
        let object = try JSONSerialization.jsonObject(with: try request.encoded())
        return try #require(object as? [String: Any])
    }

    static func contents(_ body: [String: Any]) throws -> (system: String, user: String) {
        let messages = try #require(body["messages"] as? [[String: Any]])
        try #require(messages.count == 2)
        #expect(messages[0]["role"] as? String == "system")
        #expect(messages[1]["role"] as? String == "user")
        return (try #require(messages[0]["content"] as? String), try #require(messages[1]["content"] as? String))
    }

    @Test func requestAsksForDeterministicJSONFollowingTheSchema() throws {
        let body = try Self.body()
        #expect(body["model"] as? String == "gemma-3-270m")
        #expect(body["temperature"] as? Int == 0)
        #expect(body["max_tokens"] as? Int == 400)
        #expect(body["stream"] as? Bool == false)
        let format = try #require(body["response_format"] as? [String: Any])
        #expect(format["type"] as? String == "json_schema")
        let named = try #require(format["json_schema"] as? [String: Any])
        #expect(named["name"] as? String == "conversation_outcome")
        #expect(named["strict"] as? Bool == true)
        let schema = try #require(named["schema"] as? [String: Any])
        #expect(schema["required"] as? [String] == ["status", "event", "events"])
        #expect(schema["additionalProperties"] as? Bool == false)
        let properties = try #require(schema["properties"] as? [String: Any])
        let status = try #require(properties["status"] as? [String: Any])
        #expect(status["enum"] as? [String] == ["NO_EVENT", "HAS_EVENT_BUT_NOT_CONFIRMED", "HAS_EVENT_AGREED", "HAS_EVENT_DENIED"])
        let events = try #require(properties["events"] as? [String: Any])
        #expect(events["maxItems"] as? Int == 3)
        let event = try #require(events["items"] as? [String: Any])
        // Strict structured output: every field required, nullable where it may be absent.
        #expect(event["required"] as? [String] == ["title", "start", "end", "allDay", "location", "startRelativeTo"])
        let eventProperties = try #require(event["properties"] as? [String: Any])
        let start = try #require((eventProperties["start"] as? [String: Any])?["anyOf"] as? [[String: Any]])
        #expect(start.first?["pattern"] as? String == "^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2})?$")
        #expect(start.last?["type"] as? String == "null")
        let anchor = try #require((eventProperties["startRelativeTo"] as? [String: Any])?["anyOf"] as? [[String: Any]])
        #expect(anchor.first?["enum"] as? [String] == ["fajr", "dhuhr", "asr", "maghrib", "isha"])
    }

    @Test func systemMessageCarriesNowZoneCalendarAndPrayerTimes() throws {
        let (system, _) = try Self.contents(try Self.body())
        #expect(system.contains("Now: 2026-11-22T20:00 Sunday, time zone Asia/Riyadh (UTC+03:00)."))
        #expect(system.contains("The user's prayer times (adhan) on 2026-11-22: fajr 04:52, dhuhr 11:39, asr 14:43, maghrib 17:04, isha 18:34."))
        #expect(system.contains("Sunday 2026-11-22 (today)\nMonday 2026-11-23\nTuesday 2026-11-24"))
        #expect(system.contains("Sunday 2026-12-06"))
        #expect(!system.contains("2026-12-07"), "two weeks ahead, no more")
        #expect(!system.contains("Ramadan:"))
        // The task names the four states of the contract.
        for state in ConversationState.allCases { #expect(system.contains(state.rawValue)) }
    }

    @Test func userMessageIsTheChatWithLocalTimesAndSenders() throws {
        let (_, user) = try Self.contents(try Self.body())
        #expect(user == """
            The chat, oldest message first:
            [2026-11-22T19:30 Sunday] Sara: Dinner tomorrow at 8pm at Nando's? / The one on Tahlia
            [2026-11-22T19:33 Sunday] Omar: Deal 👍
            """)
    }

    @Test func mediaCaptionsAreShownAndOtherZonesUsed() throws {
        let london = TimeZone(identifier: "Europe/London")!
        let chat = [
            ChatMessage(sender: "Amy", timestamp: ExtractionJSONLines.instant("2026-07-01T09:00:00+01:00")!, timeZone: london,
                        body: "IMG-20260701-WA0001.jpg (file attached)\nthis place on Friday?"),
        ]
        let context = ExtractionContext(
            timeZone: london, now: ExtractionJSONLines.instant("2026-07-01T10:00:00+01:00")!, prayerTimes: ExtractionTests.riyadhTimes)
        let (system, user) = try Self.contents(try Self.body(chat, context: context))
        #expect(system.contains("Now: 2026-07-01T10:00 Wednesday, time zone Europe/London (UTC+01:00)."))
        #expect(user.contains("[2026-07-01T09:00 Wednesday] Amy: [image] this place on Friday?"))
    }

    @Test func ramadanAndUnknownPrayerTimesAreSaid() throws {
        let ramadan = ExtractionContext(
            timeZone: Self.zone, now: ExtractionJSONLines.instant("2027-02-20T15:00:00+03:00")!, prayerTimes: ExtractionTests.riyadhTimes)
        let (system, _) = try Self.contents(try Self.body([Self.message("A", "2027-02-20T14:00", "فطور عندنا بكرة؟")], context: ramadan))
        #expect(system.contains("It is Ramadan: breakfast (iftar, فطور) is at maghrib."))

        let unknown = ExtractionContext(
            timeZone: Self.zone, now: Self.context.now, prayerTimes: FixedPrayerTimetable(times: [:], isRamadan: { _ in false }))
        let (withoutTimes, _) = try Self.contents(try Self.body(context: unknown))
        #expect(withoutTimes.contains("The user's prayer times are not known"))
        #expect(!withoutTimes.contains("adhan) on"))
    }

    @Test func calendarStartsAtTheFirstMessageAtMostTwoWeeksBack() throws {
        let old = [Self.message("A", "2026-10-01T10:00", "coffee sometime?"), Self.message("B", "2026-11-22T19:00", "tomorrow 5pm?")]
        let (system, _) = try Self.contents(try Self.body(old))
        #expect(system.contains("Sunday 2026-11-08\n"))
        #expect(!system.contains("2026-11-07"))
        let recent = [Self.message("A", "2026-11-20T10:00", "coffee Monday?")]
        let (short, _) = try Self.contents(try Self.body(recent))
        #expect(short.contains("Calendar:\nFriday 2026-11-20\nSaturday 2026-11-21\nSunday 2026-11-22 (today)"))
    }
}
