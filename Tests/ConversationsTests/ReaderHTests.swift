import Foundation
import Testing
@testable import Conversations

/// Reader H's mechanisms, each on wording none of the fixtures uses. 2026-12-06 is a Sunday; the
/// chats are in Riyadh time.
@Suite struct ReaderHTests {
    static func start(_ outcome: ConversationOutcome) -> String? { ExtractionTests.start(outcome) }

    @Test("the hour that closes the answer to \"what time?\" is the plan's time", arguments: [
        ("Fancy the flea market Saturday?", "sure, what time?", "I'll pick you up 4", "great", "2026-12-12T16:00"),
        ("نروح الحديقة الخميس؟", "ماشي، الساعة كام؟", "هعدي عليك ٥", "تمام", "2026-12-10T17:00"),
        ("nrou7 3al ba7r yom el sabt?", "akeed, ay sa3a?", "mnetla2a 3nd el mat3am 6", "tamam", "2026-12-12T18:00"),
    ])
    func hourAnswersWhatTime(proposal: String, question: String, answer: String, yes: String, expected: String) {
        let result = ExtractionTests.reply(proposal, question, answer, yes)
        #expect(result.state == .agreed, "\(answer)")
        #expect(Self.start(result) == expected, "\(answer)")
    }

    @Test func aBareHourAsksNothingWithoutTheQuestion() {
        // No "what time?" before it: "room 5" stays no time.
        let result = ExtractionTests.reply("Study group Thursday?", "yes, I'll be in room 5")
        #expect(Self.start(result) == "2026-12-10")
    }

    @Test("busy until an hour says when one is free; it is no refusal", arguments: [
        ("Movie Friday evening?", "Friday I have office till 7, after that I'm free", "ok 8 pm show then", "done", "2026-12-11T20:00"),
        ("بتيجي نلعب تنس بكرة؟", "بكرة عندي شغل لحد الساعة ٥", "طيب منلعب الساعة ٧", "تمام", "2026-12-07T19:00"),
    ])
    func busyUntil(proposal: String, excuse: String, counter: String, yes: String, expected: String) {
        let result = ExtractionTests.reply(proposal, excuse, counter, yes)
        #expect(result.state == .agreed, "\(excuse)")
        #expect(Self.start(result) == expected, "\(excuse)")
    }

    @Test func busyUntilStillRefusesAWholeDay() {
        let result = ExtractionTests.reply("Beach Saturday, all day?", "Saturday I'm at work till 4")
        #expect(result.state == .denied)
    }

    @Test("an hour said with a prayer is a clock in that part of the day", arguments: [
        ("نطلع البر الخميس؟", "كم الساعة؟", "امرك ٤ العصر", "2026-12-10T16:00"),
        ("momken tewassalni el matar el khamis?", "akeed, el sa3a kam?", "3 el fagr", "2026-12-10T03:00"),
    ])
    func hourWithPrayer(proposal: String, question: String, answer: String, expected: String) {
        let result = ExtractionTests.reply(proposal, question, answer, "ok")
        #expect(Self.start(result) == expected, "\(answer)")
    }

    @Test("\"what time?\" in other dialects", arguments: ["wa9tach?", "à quelle heure?", "قديش الساعة؟"])
    func askTimeFamily(question: String) {
        let result = ExtractionTests.reply("ciné samedi?", "ok " + question, "mnetla2a 3nd el cinema 9", "ok")
        #expect(Self.start(result) == "2026-12-12T21:00", "\(question)")
    }
}
