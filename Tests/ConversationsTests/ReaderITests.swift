import Foundation
import Testing
@testable import Conversations

/// Reader I's mechanisms, each on wording none of the fixtures uses. 2026-12-06 is a Sunday; the
/// chats are in Riyadh time unless a test says otherwise.
@Suite struct ReaderITests {
    static func start(_ outcome: ConversationOutcome) -> String? { ExtractionTests.start(outcome) }

    @Test("a day said for the answer is no day for the plan, and the yes to it answers the request", arguments: [
        ("Bowling Thursday night?", "not sure yet, depends on work", "ok text me tomorrow about it", "sure thing", "2026-12-10"),
        ("تيجي معانا المعرض الخميس؟", "يمكن، لسه مش عارف", "طب قولي بكرة", "ماشي", "2026-12-10"),
        ("nrou7 3al mall el khamis?", "mumkin, ba3ref ba3dein", "ok 2olli bokra", "tamam", "2026-12-10"),
    ])
    func answerDay(proposal: String, hedge: String, request: String, yes: String, expected: String) {
        let result = ExtractionTests.reply(proposal, hedge, request, yes)
        #expect(result.state == .proposed, "\(request)")
        #expect(Self.start(result) == expected, "\(request)")
    }

    @Test func theDayOfAPlanAfterIfStays() {
        // "let me know if Friday works", "message me when you're free Friday" name the plan's day, not when to answer.
        for counter in ["can't Thursday, let me know if Friday works?", "can't Thursday, message me when you're free Friday?"] {
            let result = ExtractionTests.reply("Picnic Thursday?", counter, "Friday works")
            #expect(result.state == .agreed, "\(counter)")
            #expect(Self.start(result) == "2026-12-11", "\(counter)")
        }
    }

    @Test func theDayOfOnesOwnObligationAfterButIsTheExcuse() {
        // "ولازم انام" with the joined "and" is one's own obligation; after "but" the day is the excuse's.
        let result = ExtractionTests.reply("نروح البحر الجمعة؟", "ودي، بس عندي دوام السبت ولازم انام بدري، ما اقدر")
        #expect(result.state == .denied)
        #expect(Self.start(result) == "2026-12-11")
    }

    @Test func inTheMaghrebAnObligationWithAnNVerbIsOnesOwn() {
        // "lazem nraja3" is "I must revise"; "j'ai un concours lundi" is one's own day.
        let zone = TimeZone(identifier: "Africa/Casablanca") ?? ExtractionTests.zone
        let result = ExtractionTests.reply("Samedi on fait une rando?", "désolé, ma nqderch, j'ai un concours lundi w lazem nraja3", zone: zone)
        #expect(result.state == .denied)
        #expect(Self.start(result) == "2026-12-12")
    }

    @Test func aYesAfterButTakesBackOnesOwnNo() {
        let result = ExtractionTests.outcome([
            ("A", "2026-12-06T10:00", "Dîner chez moi samedi après le maghrib?"),
            ("B", "2026-12-06T10:01", "samedi je travaille jusqu'à 18h"),
            ("B", "2026-12-06T10:02", "mais après le maghrib ça marche, wakha"),
        ])
        #expect(result.state == .agreed)
    }

    @Test func aThingsDayDoesNotMoveThePlan() {
        // The day of a named thing, and the other's "yes thursday at 6" about it, are news.
        let result = ExtractionTests.reply("pottery wednesday at 7?", "hold on the parents evening is thursday isn't it", "yes thursday at 6", "ok great, that works")
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-09T19:00")
    }

    @Test func aThingOutOnADayIsNoNoToTheAgreedPlan() {
        // "is out Thursday" (released) neither refuses nor moves the plan agreed before it.
        let result = ExtractionTests.outcome([
            ("A", "2026-12-06T10:00", "Brunch tomorrow at 11?"),
            ("B", "2026-12-06T10:01", "👍"),
            ("B", "2026-12-06T10:02", "btw the new Pixar is out Thursday, fancy it Friday evening?"),
        ])
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-07T11:00")
    }

    @Test func someoneElsesEventIsNoPlanUnlessTheOtherIsAskedToIt() {
        let news = ExtractionTests.reply("Omar's engagement is in Amman on the 19th, did he tell you?", "no, haven't heard")
        #expect(news.state == .noEvent)
        let invited = ExtractionTests.reply("Lina's party is on Friday at 9, you're coming?", "yes!")
        #expect(invited.state == .agreed)
        #expect(Self.start(invited) == "2026-12-11T21:00")
    }

    @Test func aClauseOpeningWithAnHourAndAPlaceIsWhenToMeet() {
        let result = ExtractionTests.outcome([
            ("A", "2026-12-06T10:00", "Could you help me shift the wardrobe Tuesday morning?"),
            ("B", "2026-12-06T10:01", "sure thing"),
            ("B", "2026-12-06T10:02", "you owe me lunch though. 8 outside your building?"),
            ("A", "2026-12-06T10:03", "8 outside my building, deal"),
        ])
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-08T08:00")
    }

    @Test("Levantine \"ma fine\" is no, and \"tamem\" is yes", arguments: [
        ("bukra ma fine, 3ande shoghl", ConversationState.denied),
        ("tamem, bukra", ConversationState.agreed),
    ])
    func levantineReplies(answer: String, expected: ConversationState) {
        let result = ExtractionTests.reply("bukra mnrou7 3al ba7r?", answer)
        #expect(result.state == expected, "\(answer)")
    }

    @Test func theTwoOfUsIsNoMonday() {
        let result = ExtractionTests.reply("لازم نتغدى سوا قريب انتو الاثنين وانا", "اكيد")
        #expect(result.state == .noEvent)
    }

    @Test func aPutOffUntilTheOtherIsBackStaysRefused() {
        let result = ExtractionTests.reply("نطلع نتمشى بكرة؟", "بكرة مسافر جدة، راجع الاربعاء", "خلاص لين ترجع نشوف", "ان شاء الله")
        #expect(result.state == .denied)
    }

    @Test("a yes to a statement, or inside a question, agrees no plan", arguments: [
        "yeah it will lol. did you get the car sorted?",
        "did you get the boiler sorted?",
    ])
    func yesThatIsNoYes(answer: String) {
        let result = ExtractionTests.reply("Park run Saturday?", "maybe, depends on my ankle", "no pressure, it'll probably pour anyway", answer)
        #expect(result.state == .proposed, "\(answer)")
    }

    @Test func theHedgerAskingANewTimeIsAnsweredAfresh() {
        let result = ExtractionTests.reply("Squash Friday? court's at 6", "if my back is ok", "hope so", "back's fine! 6:30 instead?", "perfect")
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-11T18:30")
    }

    @Test func theProposersQuestionAboutSomethingElseKeepsThePlansDay() {
        let result = ExtractionTests.reply("Quiz night Thursday at 8?", "if I finish in time", "no worries. did you hear back from the bank? mine replies Tuesday")
        #expect(result.state == .proposed)
        #expect(Self.start(result) == "2026-12-10T20:00")
    }

    @Test("yes and no in other Englishes and Malay", arguments: [
        ("Och I cannae, I'm away that weekend", ConversationState.denied),
        ("InsyaAllah, jumpa nanti", ConversationState.agreed),
    ])
    func otherEnglishes(answer: String, expected: ConversationState) {
        let result = ExtractionTests.reply("Ceilidh Saturday at 7?", answer)
        #expect(result.state == expected, "\(answer)")
    }

    @Test func askingLeaveForADetailIsNoCondition() {
        let result = ExtractionTests.reply("Braai at mine Sunday at 2?", "Count me in! I'll bring my flatmate if you don't mind", "not at all")
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-13T14:00")
    }

    @Test func aYesEitherWayDropsItsCondition() {
        let result = ExtractionTests.reply("Karaoke Friday at 9?", "if I'm not too tired, yes. actually yes anyway", "yay")
        #expect(result.state == .agreed)
    }

    @Test func onesOwnObligationBesideAYesGivesNoTime() {
        let result = ExtractionTests.reply("lunch monday around 1 at the noodle bar?", "yes monday works and 1 is fine I need to be back at the office by 3 though", "great")
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-07T13:00")
    }

    @Test func aWalkUpAHillIsInTheMorning() {
        let result = ExtractionTests.reply("Fancy a walk up Arthur's Seat Sunday? I'll get you at 7", "aye, count me in")
        #expect(Self.start(result) == "2026-12-13T07:00")
    }

    @Test func freeAfterAnExcuseIsNoRefusal() {
        let result = ExtractionTests.reply("Study session Tuesday at 5 in the library?", "Tuesday I have a clinic at 9 but the afternoon is free", "so you're coming?", "yes")
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-08T17:00")
        let gulf = ExtractionTests.reply("نتعشى الاربعاء الساعة ٩ بالليل؟", "الاربعاء عندي دوام لين ٤ بس بعده فاضي", "يعني معانا؟", "اكيد")
        #expect(gulf.state == .agreed)
    }

    @Test func aNoWordAboutOthersRefusesNothing() {
        let result = ExtractionTests.reply("Brunch at Dishoom Saturday at 11?", "yes please", "I'll book, they're always fully booked at weekends")
        #expect(result.state == .agreed)
    }

    @Test func theAnswerToAQuestionAboutSomeoneElseIsNews() {
        let result = ExtractionTests.reply("نطلع للبحر باچر؟", "ان شاء الله، إذا ما عندي شغل", "زين. وصحيح، اختج رجعت من السفر؟", "اي رجعت الجمعة")
        #expect(result.state == .proposed)
        #expect(Self.start(result) == "2026-12-07")
    }

    @Test func aNoWordAboutAPlaceGettingBusyRefusesNothing() {
        let result = ExtractionTests.reply("Curry Thursday at 8?", "deal", "I'll book, it gets rammed on Thursdays and they always run out of tables")
        #expect(result.state == .agreed)
    }

    @Test func afterJumuahIsFridaysDhuhr() {
        let result = ExtractionTests.reply("Salam akhi, biryani Friday?", "InshaAllah, see you after Jumu'ah")
        #expect(result.state == .agreed)
        #expect(result.event?.startRelativeTo == .dhuhr)
        #expect(Self.start(result)?.hasPrefix("2026-12-11T") == true)
    }

    @Test func theAnswerToAQuestionAboutADeadlineIsNews() {
        let result = ExtractionTests.reply("Gig Friday night?", "yes! what time?", "doors at 8:30", "great, book it", "the tax deadline is monday right?", "yep, noon")
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-11T20:30")
    }

    @Test func twoTicketsAskTheOtherAlong() {
        let result = ExtractionTests.reply("got 2 tickets for the jazz night on Thursday!", "omg what time?", "starts at 9", "I'm in")
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-10T21:00")
    }

    @Test func anHourWithAnArabiziPartOfTheDayIsAClock() {
        // "dawam online" till Asr is one's own day; "nitla3 6 el sob7" moves the agreed trip to 06:00.
        let result = ExtractionTests.reply("nrou7 el bar ba3d bacher?", "ok, ana dawam online la el 3asr", "la la nitla3 6 el sob7", "tamam")
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-08T06:00")
    }

    @Test("a yes before \"that's …\" or \"it's …\" is still a yes", arguments: ["ok that's perfect", "yes it's a date"])
    func yesWithAPronounStillAgrees(answer: String) {
        let result = ExtractionTests.reply("Tapas Friday at 8?", answer)
        #expect(result.state == .agreed, "\(answer)")
    }
}
