import Foundation
import Testing
@testable import Conversations

/// The rule-based extractor on the labelled conversations (the public dev set and our own
/// differently-worded set), and on the phenomena of the labelling rules one by one.
@Suite struct ExtractionTests {
    /// Ramadan 1448 AH runs from 2027-02-08 to 2027-03-09 in the tabular calendar the CLI uses.
    static let ramadan: @Sendable (LocalDateTime) -> Bool = { day in
        let start = LocalDateTime(year: 2027, month: 2, day: 8)!, end = LocalDateTime(year: 2027, month: 3, day: 9)!
        return day >= start && day <= end
    }

    static let riyadhTimes = FixedPrayerTimetable(
        times: [.fajr: (4, 52), .dhuhr: (11, 39), .asr: (14, 43), .maghrib: (17, 4), .isha: (18, 34)], isRamadan: ramadan)

    struct LabelledItem: Decodable {
        struct Expected: Decodable {
            struct Event: Decodable { var start: String? }
            var status: String
            var event: Event?
            var otherEvents: [Event]?
        }
        var id: String
        var lang: String
        var expected: Expected
    }

    struct Prediction: Decodable {
        struct Event: Decodable { var start: String? }
        var id: String?
        var status: String
        var event: Event?
        var events: [Event]?
        var error: String?
    }

    static func lines(_ name: String) throws -> [String] {
        guard let url = Bundle.module.url(forResource: name, withExtension: "jsonl", subdirectory: "Fixtures/extraction") else {
            throw SampleExports.FixtureMissing(name: name + ".jsonl")
        }
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// Status and agreed starts per item; the labels stay in the line and are ignored by the reader.
    @Test("labelled sets", arguments: ["dev", "generalisation"])
    func labelledSet(name: String) throws {
        try Self.check(name, statusAtLeast: 0.95, startsAtLeast: 0.95)
    }

    /// The dev2 sets by other authors (issue 19): held a little below what the rules reach (status
    /// 0.93 and 0.94, agreed starts 0.87 and 0.89 of agreed items), so a rule that breaks them fails here.
    @Test("second labelled sets", arguments: ["dev2-en-mixed", "dev2-ar"])
    func secondLabelledSet(name: String) throws {
        try Self.check(name, statusAtLeast: 0.90, startsAtLeast: 0.84)
    }

    static func check(_ name: String, statusAtLeast statusGoal: Double, startsAtLeast startGoal: Double) throws {
        let contract = ExtractionJSONLines(isRamadan: Self.ramadan)
        var statusRight = 0, startsRight = 0, agreedItems = 0, total = 0
        var misses: [String] = []
        for line in try Self.lines(name) {
            let item = try JSONDecoder().decode(LabelledItem.self, from: Data(line.utf8))
            let prediction = try JSONDecoder().decode(Prediction.self, from: Data(contract.predict(line: line).utf8))
            total += 1
            #expect(prediction.id == item.id)
            #expect(prediction.error == nil, "\(item.id): \(prediction.error ?? "")")
            if prediction.status == item.expected.status { statusRight += 1 } else {
                misses.append("\(item.id): \(prediction.status) instead of \(item.expected.status)")
            }
            guard item.expected.status == "HAS_EVENT_AGREED" else { continue }
            agreedItems += 1
            let gold = ([item.expected.event] + (item.expected.otherEvents ?? [])).compactMap { $0?.start }.sorted()
            let predicted = ([prediction.event] + (prediction.events ?? [])).compactMap { $0?.start }.sorted()
            if gold == predicted { startsRight += 1 } else { misses.append("\(item.id): starts \(predicted) instead of \(gold)") }
        }
        let statusAccuracy = Double(statusRight) / Double(max(total, 1))
        let startAccuracy = Double(startsRight) / Double(max(agreedItems, 1))
        #expect(total > 40)
        #expect(statusAccuracy >= statusGoal, "\(name) status accuracy \(statusAccuracy): \(misses)")
        #expect(startAccuracy >= startGoal, "\(name) agreed start accuracy \(startAccuracy): \(misses)")
    }

    // MARK: phenomena

    static let zone = TimeZone(identifier: "Asia/Riyadh")!

    /// A conversation of (sender, "YYYY-MM-DDTHH:MM", text) in Riyadh time.
    /// A proposal by A on Sunday 2026-12-06 at 10:00, then the answers a minute apart, B and A in turn.
    static func reply(_ proposal: String, _ answers: String..., zone: TimeZone = zone) -> ConversationOutcome {
        var chat = [("A", "2026-12-06T10:00", proposal)]
        for (index, answer) in answers.enumerated() {
            chat.append((index % 2 == 0 ? "B" : "A", "2026-12-06T10:0\(index + 1)", answer))
        }
        return outcome(chat, zone: zone)
    }

    static func outcome(_ messages: [(String, String, String)], zone: TimeZone = zone) -> ConversationOutcome {
        let chat = messages.map { sender, time, text in
            ChatMessage(sender: sender, timestamp: ExtractionJSONLines.instant(time + ":00+03:00")!, timeZone: zone, body: text)
        }
        let context = ExtractionContext(timeZone: zone, now: chat.last?.timestamp ?? Date(), prayerTimes: riyadhTimes)
        return RuleExtractor().outcomeNow(of: chat, context: context)
    }

    static func start(_ outcome: ConversationOutcome) -> String? {
        outcome.event?.start.map { String($0.description.prefix(outcome.event?.allDay == true ? 10 : 16)) }
    }

    @Test func clockTimesTakeTheirHalfOfTheDayFromContext() {
        // 2026-12-06 is a Sunday.
        let cases: [(String, String)] = [
            ("Dinner tomorrow at 8?", "2026-12-07T20:00"),
            ("Breakfast tomorrow at 8?", "2026-12-07T08:00"),
            ("Meeting tomorrow at 3?", "2026-12-07T15:00"),
            ("Coffee tomorrow, half 10?", "2026-12-07T10:30"),
            ("Gym tomorrow morning, quarter to 7?", "2026-12-07T06:45"),
            ("نتعشى بكرة الساعة ٧ الا ربع؟", "2026-12-07T18:45"),
            ("نتقابل بكرة الساعة ٣ العصر؟", "2026-12-07T15:00"),
            ("بكرة الساعة ٨ ونص نروح المول؟", "2026-12-07T20:30"),
            ("Lunch tomorrow at noon?", "2026-12-07T12:00"),
            ("Drinks tomorrow 7ish?", "2026-12-07T19:00"),
            ("Call tomorrow at 21:30?", "2026-12-07T21:30"),
        ]
        for (text, expected) in cases {
            let result = Self.outcome([("A", "2026-12-06T10:00", text), ("B", "2026-12-06T10:05", "ok")])
            #expect(result.state == .agreed, "\(text)")
            #expect(Self.start(result) == expected, "\(text)")
        }
    }

    @Test func daysResolveAgainstTheMessageThatSaysThem() {
        // Sunday 2026-12-06; "tomorrow" at 23:50 is Monday even when the yes comes after midnight.
        let late = Self.outcome([("A", "2026-12-06T23:50", "Padel tomorrow at 9pm?"), ("B", "2026-12-07T00:10", "deal")])
        #expect(Self.start(late) == "2026-12-07T21:00")
        let weekday = Self.outcome([("A", "2026-12-06T10:00", "Cinema Thursday at 9?"), ("B", "2026-12-06T10:05", "👍")])
        #expect(Self.start(weekday) == "2026-12-10T21:00")
        let nextWeek = Self.outcome([("A", "2026-12-09T10:00", "نجتمع الاسبوع الجاي يوم الاثنين الساعة ١٠ الصبح؟"), ("B", "2026-12-09T10:05", "تمام")])
        #expect(Self.start(nextWeek) == "2026-12-14T10:00")
        let rollover = Self.outcome([("A", "2026-12-30T10:00", "Dinner Friday Jan 1, 9pm?"), ("B", "2026-12-30T10:05", "yes")])
        #expect(Self.start(rollover) == "2027-01-01T21:00")
        let dayAfter = Self.outcome([("A", "2026-12-06T10:00", "ba3d bokra el sa3a 7 fe Riyadh Park?"), ("B", "2026-12-06T10:05", "inshallah")])
        #expect(Self.start(dayAfter) == "2026-12-08T19:00")
    }

    @Test func prayerTimesAnchorPlansWithoutAClock() {
        let isha = Self.outcome([("A", "2026-12-06T19:30", "وش رايك نتعشى بكرة بعد العشاء؟"), ("B", "2026-12-06T19:45", "اتفقنا")])
        #expect(Self.start(isha) == "2026-12-07T18:34")
        #expect(isha.event?.startRelativeTo == .isha)
        #expect(isha.event?.title == "عشاء")
        let friday = Self.outcome([("A", "2026-12-06T10:00", "Lunch after Friday prayer?"), ("B", "2026-12-06T10:05", "sure")])
        #expect(Self.start(friday) == "2026-12-11T11:39")
        let clockWins = Self.outcome([("A", "2026-12-06T10:00", "بكرة الساعة ٥ العصر نلعب بادل؟"), ("B", "2026-12-06T10:05", "تم")])
        #expect(Self.start(clockWins) == "2026-12-07T17:00")
        #expect(clockWins.event?.startRelativeTo == nil)
        // In Ramadan "after breakfast" is after iftar, at Maghrib.
        let iftar = Self.outcome([("A", "2027-02-20T15:00", "تعال عندنا الاثنين بعد الفطور"), ("B", "2027-02-20T15:30", "ان شاء الله جاي")])
        #expect(Self.start(iftar) == "2027-02-22T17:04")
    }

    @Test func theLastWordDecidesTheState() {
        let tentative = Self.outcome([("A", "2026-12-06T10:00", "مباراة السبت الساعة ٨ نشوفها بالاستراحة؟"), ("B", "2026-12-06T10:05", "ان شاء الله بس ما اوعدك")])
        #expect(tentative.state == .proposed)
        let refused = Self.outcome([("A", "2026-12-06T10:00", "Bowling Thursday 8pm?"), ("B", "2026-12-06T10:05", "Sorry can't this week")])
        #expect(refused.state == .denied)
        #expect(Self.start(refused) == "2026-12-10T20:00")
        let countered = Self.outcome([
            ("A", "2026-12-06T10:00", "Squash Thursday at 7?"), ("B", "2026-12-06T10:05", "Can't Thursday. Friday?"),
            ("A", "2026-12-06T10:10", "Friday works"),
        ])
        #expect(countered.state == .agreed)
        #expect(Self.start(countered) == "2026-12-11T19:00")
        let cancelled = Self.outcome([
            ("A", "2026-12-06T10:00", "Lunch tomorrow 1pm?"), ("B", "2026-12-06T10:05", "Sure"),
            ("B", "2026-12-07T09:00", "So sorry, I have to cancel today"),
        ])
        #expect(cancelled.state == .denied)
        let negated = Self.outcome([("A", "2026-12-06T10:00", "نروح السينما الخميس؟"), ("B", "2026-12-06T10:05", "مش هينفع الخميس")])
        #expect(negated.state == .denied)
        let proposersOwnOK = Self.outcome([("A", "2026-12-06T10:00", "Coffee tomorrow at 8?"), ("A", "2026-12-06T10:01", "ok?")])
        #expect(proposersOwnOK.state == .proposed)
        let timeOpen = Self.outcome([("A", "2026-12-06T10:00", "نتقابل بكرة؟"), ("B", "2026-12-06T10:02", "اوكي، الساعة كم؟")])
        #expect(timeOpen.state == .proposed)
        #expect(Self.start(timeOpen) == "2026-12-07")
    }

    @Test func timesThatAreNotPlansBetweenTheTwo() {
        let texts = [
            "I have a dentist appointment tomorrow at 4, wish me luck",
            "My sister's wedding is this Saturday",
            "The meeting yesterday at 3 went well",
            "[Forwarded] Team offsite Monday 9am at HQ",
            "What time does the gym open on Fridays?",
            "عندي موعد اسنان بكرة الساعة ٤",
            "يقولون بكرة فيه مطر",
            "التسليم يوم الاحد",
        ]
        for text in texts {
            let result = Self.outcome([("A", "2026-12-06T10:00", text), ("B", "2026-12-06T10:05", "ok")])
            #expect(result.state == .noEvent, "\(text)")
        }
    }

    @Test func twoPlansInOneMessageAreTwoEvents() {
        let result = Self.outcome([
            ("A", "2027-01-13T18:00", "So: cinema Friday 8pm, and brunch Sunday at 11?"), ("B", "2027-01-13T18:10", "Both work!"),
        ])
        #expect(result.state == .agreed)
        #expect(result.agreedEvents.compactMap { $0.start?.description } == ["2027-01-15T20:00:00", "2027-01-17T11:00:00"])
    }

    @Test func badLinesAreAnsweredNotDropped() throws {
        let contract = ExtractionJSONLines(isRamadan: Self.ramadan)
        let notJSON = try JSONDecoder().decode(Prediction.self, from: Data(contract.predict(line: "{not json").utf8))
        #expect(notJSON.status == "NO_EVENT")
        #expect(notJSON.error == "the line is not JSON")
        let badTime = try JSONDecoder().decode(Prediction.self, from: Data(contract.predict(
            line: #"{"id":"x1","now":"2026-11-22T20:00:00+03:00","timezone":"Asia/Riyadh","me":"A","messages":[{"sender":"B","time":"yesterday","text":"hi"}]}"#
        ).utf8))
        #expect(badTime.id == "x1")
        #expect(badTime.status == "NO_EVENT")
        #expect(badTime.error?.contains("messages[0].time") == true)
        let badZone = try JSONDecoder().decode(Prediction.self, from: Data(contract.predict(
            line: #"{"id":"x2","now":"2026-11-22T20:00:00+03:00","timezone":"Mars/Olympus","me":"A","messages":[]}"#
        ).utf8))
        #expect(badZone.error?.contains("Mars/Olympus") == true)
    }

    @Test func aWholeExportedChatIsReadInSlicesWithTheSameAnswer() {
        // Long enough to be read on every core: the plan is agreed in the first slice and
        // cancelled in the last, with small talk (and a stray "ok") between them.
        var chat: [(String, String, String)] = [("A", "2026-12-06T10:00", "Lunch tomorrow 1pm?"), ("B", "2026-12-06T10:05", "Sure")]
        for index in 0..<(RuleExtractor.parallelReadingThreshold + 1_001) {
            let minute = 10 + index % 40
            chat.append((index % 2 == 0 ? "A" : "B", "2026-12-06T11:\(minute)", ["haha", "والله تعبان", "ok", "how was work?"][index % 4]))
        }
        chat.append(("B", "2026-12-07T09:00", "So sorry, I have to cancel today"))
        let whole = Self.outcome(chat)
        #expect(whole.state == .denied)
        #expect(whole == Self.outcome([chat[0], chat[1], chat[chat.count - 1]]))
        #expect(Self.outcome(Array(chat.dropLast())).state == .agreed)
    }

    @Test func theSameConversationGivesTheSameAnswer() throws {
        let contract = ExtractionJSONLines(isRamadan: Self.ramadan)
        for line in try Self.lines("dev").prefix(30) {
            #expect(contract.predict(line: line) == contract.predict(line: line))
        }
    }
}
