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
