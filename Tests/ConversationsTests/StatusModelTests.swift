import Foundation
import Testing
@testable import Conversations

/// The learned status model (Extraction/Learned): shipped, deterministic, and deciding only the state.
@Suite struct StatusModelTests {
    static let chat: [(String, String, String)] = [
        ("A", "2026-12-06T10:00", "Dinner Thursday at 8?"), ("B", "2026-12-06T10:05", "yalla deal, see you there 👍"),
    ]

    static func messages(_ chat: [(String, String, String)]) -> [ChatMessage] {
        chat.map { sender, time, text in
            ChatMessage(sender: sender, timestamp: ExtractionJSONLines.instant(time + ":00+03:00")!, timeZone: ExtractionTests.zone, body: text)
        }
    }

    @Test func theShippedWeightsDecode() throws {
        let model = try #require(StatusModel.shipped)
        #expect(model.weights.count == StatusFeatures.bucketCount * 4)
        #expect(model.weights.contains { $0 != 0 })
    }

    @Test func theSameChatGivesTheSameFeaturesAndAnswer() {
        let messages = Self.messages(Self.chat)
        let context = ExtractionContext(timeZone: ExtractionTests.zone, now: messages.last!.timestamp, prayerTimes: ExtractionTests.riyadhTimes)
        let first = RuleExtractor(statusModel: .shipped).statusFeatures(of: messages, context: context)
        let second = RuleExtractor(statusModel: .shipped).statusFeatures(of: messages, context: context)
        #expect(first.features.buckets == second.features.buckets)
        #expect(first.features.buckets == first.features.buckets.sorted())
        #expect(RuleExtractor(statusModel: .shipped).outcomeNow(of: messages, context: context) == RuleExtractor(statusModel: .shipped).outcomeNow(of: messages, context: context))
        let outcome = RuleExtractor(statusModel: .shipped).outcomeNow(of: messages, context: context)
        #expect(outcome.state == .agreed)
        #expect(ExtractionTests.start(outcome) == "2026-12-10T20:00")
    }

    @Test func theRulesKeepTheirStateUnlessTheModelFavoursAnotherByMoreThanTheMargin() {
        // no event, proposed, agreed, denied
        #expect(StatusModel.decide([0, 1, 0.5, 0], rules: .agreed, margin: 0) == .proposed)
        #expect(StatusModel.decide([0, 1, 0.5, 0], rules: .agreed, margin: 0.5) == .agreed)
        #expect(StatusModel.decide([0, 0, 0, 0], rules: .denied, margin: 0) == .denied)
    }

    @Test func aStateTheModelGivesTakesTheRulesPlan() {
        let messages = Self.messages([("A", "2026-12-06T10:00", "Dinner Thursday at 8?"), ("B", "2026-12-06T10:05", "hmm")])
        let context = ExtractionContext(timeZone: ExtractionTests.zone, now: messages.last!.timestamp, prayerTimes: ExtractionTests.riyadhTimes)
        var tracker = ConversationTracker()
        let reader = MessageReader(monthFirst: false, isRamadan: { _ in false })
        for message in messages { tracker.take(reader.read(message.text, sentAt: LocalDateTime(message.timestamp, in: context.timeZone)), from: message.sender ?? "") }
        let plans = PlanOutcome(plans: tracker.plans, prayerTimes: context.prayerTimes)
        let ruled = plans.outcome
        #expect(ruled.state == .proposed)
        let agreed = plans.outcome(as: .agreed, ruled: ruled)
        #expect(agreed.state == .agreed)
        #expect(ExtractionTests.start(agreed) == "2026-12-10T20:00")
        #expect(plans.outcome(as: .noEvent, ruled: ruled) == ConversationOutcome(state: .noEvent))
        #expect(plans.outcome(as: .denied, ruled: ruled).event == ruled.event)
    }
}
