import Foundation
import Testing
@testable import Conversations

/// Reader G's mechanisms, each on wording none of the fixtures uses. 2026-12-06 is a Sunday; the
/// chats are in Riyadh time.
@Suite struct ReaderGTests {
    static func outcome(_ messages: [(String, String, String)]) -> ConversationOutcome { ExtractionTests.outcome(messages) }
    static func start(_ outcome: ConversationOutcome) -> String? { ExtractionTests.start(outcome) }

    @Test("a time binds to the day of its own clause, not to one's own shift or flight beside it", arguments: [
        ("I'm on night duty Tuesday till 8am, so shall we do chai Wednesday at 5?", "2026-12-09T17:00"),
        ("My shift ends Thursday at 6. Lunch Saturday at 1?", "2026-12-12T13:00"),
    ])
    func timeBindsToItsClause(proposal: String, expected: String) {
        let result = ExtractionTests.reply(proposal, "yes")
        #expect(result.state == .agreed, "\(proposal)")
        #expect(Self.start(result) == expected, "\(proposal)")
    }

    @Test func anExcuseBesideACounterGivesNoTime() {
        let result = ExtractionTests.reply("Coffee tomorrow at 4?", "can't, at work till 6. Saturday?", "Saturday works")
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-12T16:00")
    }

    @Test("a short counter with a word of preference, then a short yes, settles the counter", arguments: [
        ("Gym tomorrow 6am?", "7 better", "deal", "2026-12-07T07:00"),
        ("ahwa el sabt 11?", "12 a7san", "tamam", "2026-12-12T12:00"),
        ("نتقابل الخميس الساعة ٦ المسا؟", "٧ احسن", "تم", "2026-12-10T19:00"),
    ])
    func shortCounter(proposal: String, counter: String, yes: String, expected: String) {
        let result = ExtractionTests.reply(proposal, counter, yes)
        #expect(result.state == .agreed, "\(counter)")
        #expect(Self.start(result) == expected, "\(counter)")
    }

    @Test("a bare hour right after the place is the time", arguments: [
        ("بكرة في كافيه بارنز ٨؟", "2026-12-07T20:00"),
        ("bokra fel mall 6?", "2026-12-07T18:00"),
    ])
    func hourAfterPlace(proposal: String, expected: String) {
        let result = ExtractionTests.reply(proposal, "tamam")
        #expect(Self.start(result) == expected, "\(proposal)")
    }

    @Test func egyptianArabiziNextWeekday() {
        let result = ExtractionTests.reply("net2abel el arba3 el gaya 5?", "mashy")
        #expect(Self.start(result) == "2026-12-09T17:00")
    }

    @Test("a no in front of promising hedges", arguments: ["ان شاء الله، بس ما اقدر اوعدك", "can't promise, I'll try", "ما بقدر اوعدك"])
    func cannotPromise(reply: String) {
        #expect(ExtractionTests.reply("نتعشى السبت الساعة ٨؟", reply).state == .proposed, "\(reply)")
    }

    @Test("a negated no is no refusal", arguments: ["Sure, I'm not busy that night", "yes, never busy for you"])
    func negatedNo(reply: String) {
        #expect(ExtractionTests.reply("Movie Friday 9pm?", reply).state == .agreed, "\(reply)")
    }

    @Test("an apology before a yes is politeness", arguments: ["sorry for the late reply! yes count me in", "آسف على التأخير بالرد، أكيد جاي"])
    func apologyThenYes(reply: String) {
        #expect(ExtractionTests.reply("Brunch Sunday at 11?", reply).state == .agreed, "\(reply)")
    }

    @Test("the ما…ش negation of a verb of coming says no", arguments: ["والله ما نلحقش، عندي خدمة", "مانقدرش السبت", "مقدرش اجي"])
    func circumfixNegation(reply: String) {
        #expect(ExtractionTests.reply("نتغداو السبت مع 2؟", reply).state == .denied, "\(reply)")
    }

    @Test func oneIsNotAndSunday() {
        // "واحد" (one) is not و + احد (and Sunday).
        let result = ExtractionTests.reply("بكرة نلعب الساعة ٨، ناقصنا واحد، تجي؟")
        #expect(result.state == .proposed)
        #expect(Self.start(result) == "2026-12-07T20:00")
    }

    @Test func aRentDeadlineInArabiziIsNoPlan() {
        #expect(ExtractionTests.reply("el ejar lazem yitdafa3 qabl el khamis", "ok").state == .noEvent)
    }

    @Test("dialect yes-words", arguments: ["قشطة يا معلم", "ع راسي", "3a rasi"])
    func dialectYes(reply: String) {
        #expect(ExtractionTests.reply("نلعب كورة الجمعة الساعة ٤؟", reply).state == .agreed, "\(reply)")
    }

    @Test func aRangeGivesItsStartTheEndsHalfOfTheDay() {
        let result = ExtractionTests.reply("badminton Saturday? court booked 7 to 8am", "done")
        #expect(Self.start(result) == "2026-12-12T07:00")
    }

    @Test("prayers as Arabizi spells them", arguments: [("bokra ba3d el 3sha padel?", "2026-12-07T18:34"), ("bokra ba3d el fagr jogging?", "2026-12-07T04:52")])
    func arabiziPrayers(proposal: String, expected: String) {
        #expect(Self.start(ExtractionTests.reply(proposal, "tamam")) == expected, "\(proposal)")
    }

    @Test func weWillMakeItCounters() {
        let result = ExtractionTests.reply("نتعشى بكرة الساعة ٩ ونص بالليل؟", "مرة حلو، بس نخليها ١٠", "خلاص ١٠")
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-07T22:00")
    }

    @Test func frenchMonthsAndHours() {
        let result = ExtractionTests.reply("on se fait un brunch samedi 2 janvier? vers 11h", "samedi c'est bon, 11h ça marche")
        #expect(Self.start(result) == "2027-01-02T11:00")
    }

    @Test func aNewWhenInAnswerToTheOthersQuestionOffersIt() {
        let result = Self.outcome([
            ("A", "2026-12-06T10:00", "painting workshop Tuesday 5 to 7, wanna come?"), ("B", "2026-12-06T10:05", "Tuesday I have class till 5:30 😕"),
            ("B", "2026-12-06T10:06", "any other day?"), ("A", "2026-12-06T10:08", "there's one on Wednesday too, same time"),
            ("B", "2026-12-06T10:10", "Wednesday works"),
        ])
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-09T17:00")
    }

    @Test func frenchNewsIsNoPlan() {
        #expect(ExtractionTests.reply("T'as vu? le mariage de Amel c'est le 26 décembre à la salle El Djazair", "Oui, mais je serai à Paris").state == .noEvent)
    }

    @Test("not promising hedges", arguments: ["نشوف كان نروح بكري، ما نوعدكش", "نفسي آجي بس مش وعد", "inshallah, mesh wa3d"])
    func notPromising(reply: String) {
        #expect(ExtractionTests.reply("نروح الحمام الخميس العصر؟", reply).state == .proposed, "\(reply)")
    }

    @Test func theProposerTakingTheNoRefusesThePlan() {
        let result = ExtractionTests.reply("Bowling Friday 8?", "ugh I wish, cousins in town all weekend", "aw too bad, have fun with them")
        #expect(result.state == .denied)
    }

    @Test func theOneWhoSaidNoOffersAnotherDayAfterBut() {
        let result = Self.outcome([
            ("A", "2026-12-06T10:00", "بتقدر تيجي تساعدنا بالتعزيل يوم السبت؟"), ("B", "2026-12-06T10:05", "السبت عندي دوام لحد الساعة ٤"),
            ("B", "2026-12-06T10:06", "بس بقدر آجي الاحد اذا بيمشي الحال"), ("A", "2026-12-06T10:08", "الاحد منيح"),
        ])
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-13")
    }

    @Test func aWaivedInvitationInvitesNobody() {
        #expect(ExtractionTests.reply("I'm presenting to the client Friday 10am, you don't need to join", "sounds good").state == .noEvent)
    }

    @Test func askingWhetherTheOtherWatchesIsNoPlan() {
        #expect(ExtractionTests.reply("el matsh bokra el sa3a 7, hatetfarag?", "la2, hanam badry").state == .noEvent)
    }

    @Test func thanksForAnEveningThatWas() {
        #expect(ExtractionTests.reply("thanks for having us tonight, the kids loved it", "anytime! next time at yours", "deal").state == .noEvent)
    }

    @Test func aJoinedAndBeforeTheNegation() {
        #expect(ExtractionTests.reply("نمشيو للحمام نهار الخميس مع 3؟", "الخميس عندي الخدمة حتى ل 6 وما نقدرش").state == .denied)
    }

    @Test("and then another activity with its own when is a second plan on the same day", arguments: [
        "deal, and then dinner at 8?", "tamam, w ba3dein 3asha el sa3a 8?",
    ])
    func aSecondPlanAfterAndThen(reply: String) {
        let result = ExtractionTests.reply("Padel Saturday at 5?", reply, "perfect")
        #expect(result.state == .agreed, "\(reply)")
        #expect(Self.start(result) == "2026-12-12T17:00", "\(reply)")
        #expect(result.otherEvents.map { String($0.start?.description.prefix(16) ?? "") } == ["2026-12-12T20:00"], "\(reply)")
    }

    @Test("a when stated that the other answers by watching it was news", arguments: [
        ("the derby's tomorrow at 9", "yeah I'll watch it at home"), ("الماتش بكرة الساعة ٩", "اه هتفرج عليه في البيت"),
    ])
    func statedWhenAnsweredByWatching(statement: String, reply: String) {
        #expect(ExtractionTests.reply(statement, reply).state == .noEvent, "\(statement)")
    }

    @Test func awayForWorkOnThePlansDayTurnsItDown() {
        let result = ExtractionTests.reply("free on Saturday the 12th? let's visit grandma", "the 12th I'm in Dammam for work till the 14th")
        #expect(result.state == .denied)
    }

    @Test("a number after a name is no time, a time with its minutes still is", arguments: [
        ("hike Trail 5 this Saturday?", "2026-12-12"), ("game at Stout Fri Dec 11th? first pitch 7:05", "2026-12-11T19:05"),
    ])
    func numbersAfterNames(proposal: String, expected: String) {
        #expect(Self.start(ExtractionTests.reply(proposal)) == expected, "\(proposal)")
    }

    @Test("the proposer's no that asks for another day moves the agreed plan", arguments: [
        "اسف صار عندي دوام الاربعاء، نخليها الخميس نفس الوقت؟", "sorry I'm stuck at the office Wednesday, Thursday same time?",
    ])
    func aNoThatAsksForAnotherDay(move: String) {
        let result = ExtractionTests.reply("نجتمع الاربعاء الساعة ٧ المسا في الكوفي؟", "اوكي", move, "ماشي")
        #expect(result.state == .agreed, "\(move)")
        #expect(Self.start(result) == "2026-12-10T19:00", "\(move)")
    }

    @Test func aMaybeButANewTimeCounters() {
        let result = ExtractionTests.reply("نتقابل بكرة الساعة ٤ العصر؟", "ممكن بس خليها ٤ ونص", "تمام")
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-07T16:30")
    }

    @Test func aNoToADontPromises() {
        let result = ExtractionTests.reply("tennis tomorrow at 8am?", "9?", "fine 9 dont be late", "wont")
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-07T09:00")
    }

    @Test func anOrdinalStreetIsNoDate() {
        #expect(Self.start(ExtractionTests.reply("Fri Dec 11th after work? like 6:15 by the entrance on 14th st", "👍 works")) == "2026-12-11T18:15")
    }

    @Test func anObligationOfOnesOwnInvitesNobody() {
        #expect(ExtractionTests.reply("لازم اروح السوق بكرة").state == .noEvent)
        #expect(ExtractionTests.reply("لازم نروح السوق بكرة").state == .proposed)
    }

    @Test func frenchCallOffAndHedges() {
        let called = ExtractionTests.reply("c'est confirmé pour mercredi 19h au cinéma?", "oui c'est bon", "mauvaise nouvelle, ils ont annulé la séance", "bon, tant pis")
        #expect(called.state == .denied)
        let hedged = ExtractionTests.reply("dimanche pique-nique au parc vers 11h ?", "s'il fait beau je viens", "ok on voit samedi", "d'acc")
        #expect(hedged.state == .proposed)
        #expect(Self.start(hedged) == "2026-12-13T11:00")
    }
}
