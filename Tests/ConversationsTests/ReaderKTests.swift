import Foundation
import Testing
@testable import Conversations

/// Reader K's mechanisms, each on wording none of the fixtures uses. 2026-12-06 is a Sunday; the
/// chats are in Riyadh time.
@Suite struct ReaderKTests {
    static func start(_ outcome: ConversationOutcome) -> String? { ExtractionTests.start(outcome) }

    @Test("a when for today already passed when said is no plan; the plan after it keeps its own day", arguments: [
        "finally handed in the thesis today at 2, what a week",
        "خلصت المقابلة اليوم الساعة ٤ الحمدلله",
    ])
    func passedWhen(statement: String) {
        let result = ExtractionTests.outcome([
            ("A", "2026-12-06T18:00", statement),
            ("A", "2026-12-06T18:01", "bowling tomorrow to celebrate?"),
            ("B", "2026-12-06T18:02", "sure, what time?"),
            ("A", "2026-12-06T18:03", "7"),
            ("B", "2026-12-06T18:04", "7 works"),
        ])
        #expect(result.state == .agreed, "\(statement)")
        #expect(Self.start(result) == "2026-12-07T19:00", "\(statement)")
    }

    @Test("a when for today still to come, or in the night to come, is a plan", arguments: [
        ("dinner today at 8?", "2026-12-06T20:00"),
        ("suhoor tonight at 2am?", "2026-12-07T02:00"),
    ])
    func comingWhen(proposal: String, expected: String) {
        let result = ExtractionTests.outcome([
            ("A", "2026-12-06T18:00", proposal),
            ("B", "2026-12-06T18:01", "yes go on"),
        ])
        #expect(result.state == .agreed, "\(proposal)")
        #expect(Self.start(result) == expected, "\(proposal)")
    }
}

extension ReaderKTests {
    @Test func theProposersOtherTimeRightAfterANoCounters() {
        // "el sob7 ma agdar" "5alaha ba3d el maghrib": another time of the same day, said at once, is offered.
        let result = ExtractionTests.outcome([
            ("A", "2026-12-06T10:00", "nrou7 el souq bukra?"),
            ("B", "2026-12-06T10:01", "el sob7 ma agdar"),
            ("A", "2026-12-06T10:02", "5alaha ba3d el maghrib"),
            ("B", "2026-12-06T10:03", "tamam ba3d el maghrib"),
        ])
        #expect(result.state == .agreed)
        #expect(result.event?.startRelativeTo == .maghrib)
        #expect(Self.start(result)?.hasPrefix("2026-12-07T") == true)
    }
}
