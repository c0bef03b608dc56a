import Foundation
import Testing
@testable import Conversations

/// Reader L's mechanisms, each on wording none of the fixtures uses. 2026-12-06 is a Sunday; the
/// chats are in Riyadh time unless a test says otherwise.
@Suite struct ReaderLTests {
    static func start(_ outcome: ConversationOutcome) -> String? { ExtractionTests.start(outcome) }

    @Test func anEmojiClosesTheExcuseBeforeTheCounter() {
        // "I'm in <Place>" says where one is; the day after the emoji is the one asked.
        let result = ExtractionTests.reply("climbing Saturday at 11?", "Saturday I'm in Leeds 🙈 Sunday at 11?", "Sunday's grand")
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-13T11:00")
    }

    @Test("the proposer's bare ok? asks for the plan again", arguments: ["deal?", "خلاص تمام؟"])
    func bareConfirmation(question: String) {
        let result = ExtractionTests.reply("skating Thursday at 6?", "I'm done with class at 4 so should be fine", question, "yes")
        #expect(result.state == .agreed, "\(question)")
        #expect(Self.start(result) == "2026-12-10T18:00", "\(question)")
    }

    @Test("asking what the other does on a day proposes nothing", arguments: ["what are you doing Friday night?", "هلا، كيفك؟ وين العيد؟"])
    func theOthersDoings(question: String) {
        let result = ExtractionTests.reply(question, "staying in with family", "fair enough")
        #expect(result.state == .noEvent, "\(question)")
    }

    @Test func whatIfAWhenAsksForIt() {
        let result = ExtractionTests.outcome([
            ("A", "2026-12-06T10:00", "bowling Friday at 7?"),
            ("B", "2026-12-06T10:01", "Friday I'm on a late shift"),
            ("B", "2026-12-06T10:02", "what if Saturday at 7 instead?"),
            ("A", "2026-12-06T10:03", "let me check with Sam first"),
            ("B", "2026-12-06T10:04", "ok"),
        ])
        #expect(result.state == .proposed)
        #expect(Self.start(result) == "2026-12-12T19:00")
    }

    @Test("the Maghrebi ila is if", arguments: [
        ("nemchiw l bhar ghedda?", "ila salit l khedma bekri, wakha"),
        ("نمشيو للسينما نهار السبت مع التسعة؟", "واخا، إلا ما خدمتش"),
    ])
    func theMaghrebiIlaIsIf(proposal: String, answer: String) {
        let zone = TimeZone(identifier: "Africa/Casablanca") ?? ExtractionTests.zone
        let result = ExtractionTests.reply(proposal, answer, zone: zone)
        #expect(result.state == .proposed, "\(answer)")
    }

    @Test func aKinWordAfterANoCallsTheOther() {
        let zone = TimeZone(identifier: "Africa/Algiers") ?? ExtractionTests.zone
        let result = ExtractionTests.reply("غدوة نروحو للبحر؟ مع العشرة", "غدوة ما نقدرش خويا، عندي خدمة", zone: zone)
        #expect(result.state == .denied)
    }

    @Test("the part of the day of a no stays with the refused day", arguments: [
        ("brunch tomorrow at 10am?", "tomorrow morning I can't, got a class. Thursday at 4?", "Thursday 4 works"),
        ("نفطر بكرة الساعة ٩ الصبح؟", "بكرة الصبح ما اقدر، عندي محاضرة. وش رايك الخميس الساعة ٤؟", "تمام الخميس"),
    ])
    func theRefusedPartOfTheDay(proposal: String, counter: String, answer: String) {
        let result = ExtractionTests.reply(proposal, counter, answer)
        #expect(result.state == .agreed, "\(counter)")
        #expect(Self.start(result) == "2026-12-10T16:00", "\(counter)")
    }

    @Test("the inviter's answer to when? offers that when", arguments: [
        ("you still coming to help me paint the flat?", "sure, when?", "Saturday, I'm starting at 9am", "2026-12-12T09:00"),
        ("تجين تساعديني في تجهيز العزيمة؟", "أكيد، متى؟", "الخميس، بنبدأ الطبخ الساعة ٤ العصر", "2026-12-10T16:00"),
    ])
    func theAnswerToWhen(invitation: String, question: String, answer: String, expected: String) {
        let result = ExtractionTests.reply(invitation, question, answer, "ok")
        #expect(result.state == .agreed, "\(answer)")
        #expect(Self.start(result) == expected, "\(answer)")
    }

    @Test func aReminderTellsAThingsDayThatTheOtherMayBeAskedTo() {
        let asked = ExtractionTests.reply("padel Thursday at 8?", "yes", "and don't forget Sara's leaving drinks at the Crown on Friday, 7. you're coming right?", "wouldn't miss it")
        #expect(asked.state == .agreed)
        #expect(Self.start(asked) == "2026-12-10T20:00")
        #expect(asked.otherEvents.compactMap { $0.start.map { String($0.description.prefix(16)) } } == ["2026-12-11T19:00"])
        let told = ExtractionTests.reply("don't forget your car's booked in for its service on Monday at 8", "ah thanks, totally slipped my mind")
        #expect(told.state == .noEvent)
    }

    @Test func aWeekdaySaidInTheSmallHoursNamesTheDayJustBegun() {
        // 2026-12-11 is a Friday.
        let result = ExtractionTests.outcome([
            ("A", "2026-12-11T00:10", "you still up? could you drop me at the airport Friday at 8am?"),
            ("B", "2026-12-11T00:12", "sure, Friday 8am"),
        ])
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-11T08:00")
    }

    @Test("an excuse then free leaves the plan open", arguments: [
        ("nrou7 el ba7ar el khamees el 3a9er?", "el khamees 3indi dawam lain 2, ba3deen free", "ya3ni ok?", "ok zain"),
        ("نتمشى الخميس الساعة ٥؟", "الخميس عندي محاضرة لين ٣، بعدها فاضي", "خلاص تمام؟", "تمام"),
    ])
    func freeAfterThen(proposal: String, excuse: String, question: String, answer: String) {
        let result = ExtractionTests.reply(proposal, excuse, question, answer)
        #expect(result.state == .agreed, "\(excuse)")
        #expect(Self.start(result)?.hasPrefix("2026-12-10T") == true, "\(excuse)")
    }

    @Test func canWeDoAnHourCounters() {
        let result = ExtractionTests.reply("quiz night Thursday?", "yes! what time", "half 7?", "can we do 8, I've got netball till 7", "fine 8 it is")
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-10T20:00")
    }

    @Test func anApologyForAnsweringLateRefusesNothing() {
        let result = ExtractionTests.outcome([
            ("A", "2026-12-06T10:00", "hike Saturday at 8am?"),
            ("B", "2026-12-06T10:01", "sorry, was asleep!"),
            ("B", "2026-12-06T10:02", "yes I'm in"),
        ])
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-12T08:00")
    }

    @Test func besideAnHourAskedOnesOwnHourIsAnAside() {
        let result = ExtractionTests.reply("dinner Friday?", "yes!", "7 then? I'm getting there at 6:30 to save seats", "see you then")
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-11T19:00")
    }

    @Test func seeYouAtTheHourSaysYes() {
        let result = ExtractionTests.reply("padel Tuesday at 6?", "see you at 6!")
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-08T18:00")
    }

    @Test func jam3aOwnedByAPlaceIsTheUniversity() {
        let result = ExtractionTests.reply("bukra 3al 4 bnidros fi el maktabe ta3 el jam3a?", "tamam, ana jay")
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-07T16:00")
    }

    @Test func anHourTakenUpWithItIsIsAClock() {
        let result = ExtractionTests.reply("karaoke Friday?", "yes! what time does it start", "half 8, but we should get there for 8 to grab a booth", "ok 8 it is")
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-11T20:00")
    }

    @Test func anotherDayAskedForAfterAgreeingIsAChangeOfMind() {
        let result = ExtractionTests.outcome([
            ("A", "2026-12-06T10:00", "nails Thursday at 5?"),
            ("B", "2026-12-06T10:01", "yesss"),
            ("B", "2026-12-06T10:02", "ugh my manager moved the stocktake to Thursday evening 😤 can we do Friday?"),
            ("A", "2026-12-06T10:03", "Friday I've got my son's recital at 6, can't"),
        ])
        #expect(result.state == .denied)
    }

    @Test func anArabiziRangeStartsAtItsFirstHour() {
        let result = ExtractionTests.reply("bukra nil3ab padel men 4 l 6 fi el nadi?", "tamam")
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-07T16:00")
    }

    @Test("notices, results and someone else's invitation make no plan between the two", arguments: [
        ("FYI the lift maintenance is Thursday, use the stairs from 9 to 12", "ok thanks"),
        ("my driving test results come out on the 20th 😬", "you'll smash it"),
        ("my cousin's engagement party is on Friday, she wants me to come", "aww cute"),
    ])
    func noPlanBetweenTheTwo(statement: String, answer: String) {
        let result = ExtractionTests.reply(statement, answer)
        #expect(result.state == .noEvent, "\(statement)")
    }

    @Test func aWishWithNoTimeFrameTouchesNoPlan() {
        let result = ExtractionTests.reply("street parade Saturday at 11, wanna come watch?", "depends on work", "anyway we should hang out more sometime", "for sure!")
        #expect(result.state == .proposed)
        #expect(Self.start(result) == "2026-12-12T11:00")
    }

    @Test("the way back gives no start, and the same day is no today", arguments: [
        "نطلع حتا يوم الجمعة الساعة ٧ الصبح، ونرجع نفس اليوم بالليل",
        "road trip? we leave Friday at 7am, back the same day at night",
        "نخرجو للغابة نهار الجمعة مع السابعة الصباح، نرجعو نهار الأحد",
    ])
    func wayBack(proposal: String) {
        let result = ExtractionTests.reply(proposal, "yes count me in")
        #expect(result.state == .agreed, "\(proposal)")
        #expect(Self.start(result) == "2026-12-11T07:00", "\(proposal)")
    }

    @Test func aYesSayingBackTheOthersHourKeepsThePlanAgreed() {
        let result = ExtractionTests.reply("match Saturday at 8?", "yes!", "I'll wait for you by the station gate at 4:45 then", "ok, 4:45 station")
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-12T16:45")
    }

    @Test func pushingTheMeetingPutsItOff() {
        let result = ExtractionTests.reply("sync on the budget Wednesday at 3pm?", "works for me", "ugh, we have to push our sync, I'll let you know a new day", "no worries")
        #expect(result.state == .denied)
    }
}
