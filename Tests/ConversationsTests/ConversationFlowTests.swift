import Foundation
import Testing
@testable import Conversations

/// How the tracker follows a long chat (blind round 1): replies that repeat the plan, the
/// proposer asking again after an excuse, weekdays that name the plan's own day, and new days
/// after an agreement. 2026-12-06 is a Sunday; the chats are in Riyadh time.
@Suite struct ConversationFlowTests {
    typealias Chat = [(String, String, String)]

    static func outcome(_ messages: Chat) -> ConversationOutcome { ExtractionTests.outcome(messages) }
    static func start(_ outcome: ConversationOutcome) -> String? { ExtractionTests.start(outcome) }

    @Test("repeating the plan's when back agrees it", arguments: ["Chale I dey. 3 o'clock", "باهي برشا، السبت الساعة ٣", "Saturday 3"])
    func anEchoAgrees(reply: String) {
        let result = Self.outcome([("A", "2026-12-06T10:00", "Saturday we go to the beach? Like 3 o'clock"), ("B", "2026-12-06T10:05", reply)])
        #expect(result.state == .agreed, "\(reply)")
        #expect(Self.start(result) == "2026-12-12T15:00", "\(reply)")
    }

    @Test func anEchoWithAQuestionOnlyAsks() {
        let result = Self.outcome([("A", "2026-12-06T10:00", "Saturday we go to the beach? Like 3 o'clock"), ("B", "2026-12-06T10:05", "3 o'clock?")])
        #expect(result.state == .proposed)
    }

    @Test func theProposerAskingAgainAfterAnExcuseReopensThePlan() {
        let result = Self.outcome([
            ("A", "2026-12-06T10:00", "Camping trip the 17th, you in?"), ("B", "2026-12-06T10:05", "17th I have a flight landing at 4am"),
            ("A", "2026-12-06T10:06", "so come sleep and join us later no"), ("B", "2026-12-06T10:10", "ok ok, count me in"),
        ])
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-17")
    }

    @Test func aBareWeekdayInAnswerNamesThePlansOwnDay() {
        let result = Self.outcome([
            ("A", "2026-12-06T10:00", "Braai at mine Saturday the 19th, you keen? around 1"), ("B", "2026-12-06T10:05", "the 19th I have my cousin's wedding"),
            ("A", "2026-12-06T10:06", "What about the Sunday then, the 20th? Same time"), ("B", "2026-12-06T10:10", "Sunday works"),
        ])
        #expect(result.state == .agreed)
        #expect(Self.start(result)?.hasPrefix("2026-12-20") == true)
    }

    @Test func anotherDayAfterAnAgreementIsNotAReschedule() {
        let result = Self.outcome([
            ("A", "2026-12-06T10:00", "can you help me load the truck saturday at 8am?"), ("B", "2026-12-06T10:05", "yeah I can do that"),
            ("A", "2026-12-06T10:06", "and dinner's on me after, maybe friday?"), ("B", "2026-12-06T10:10", "friday I've got a recital, how about tuesday? 7pm"),
            ("A", "2026-12-06T10:11", "tuesday 7 works"), ("B", "2026-12-06T10:12", "deal. text me the address for saturday"),
        ])
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-08T19:00")
        #expect(result.otherEvents.map { String($0.start?.description.prefix(16) ?? "") } == ["2026-12-12T08:00"])
    }

    @Test func aPartOfTheDayAboutSomethingElseLeavesTheClock() {
        let result = Self.outcome([
            ("A", "2026-12-06T10:00", "Friday brunch at Zuma? 12:30"), ("B", "2026-12-06T10:05", "Friday I have my cousin's engagement bas it's at night, brunch mashi"),
        ])
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-11T12:30")
    }

    @Test("yes-words inside a sentence about something else are not a yes", arguments: [
        "the 12th I'm in Jeddah for work", "thanks for asking, I'll see how the week goes",
    ])
    func sentenceYesWords(reply: String) {
        let result = Self.outcome([("A", "2026-12-06T10:00", "Dinner on the 12th at 8?"), ("B", "2026-12-06T10:05", reply)])
        #expect(result.state != .agreed, "\(reply)")
    }

    @Test("short yes-words as a sentence of their own are a yes", arguments: ["ugh fine. see you there", "I'm in!", "thanks!! 8 it is"])
    func shortYesWords(reply: String) {
        let result = Self.outcome([("A", "2026-12-06T10:00", "Dinner on the 12th at 8?"), ("B", "2026-12-06T10:05", reply)])
        #expect(result.state == .agreed, "\(reply)")
    }

    @Test func theFrenchHourAfterAWeekdayIsAClock() {
        let result = Self.outcome([
            ("A", "2026-12-06T10:00", "Samedi on va au match? On se voit à 19h devant la porte 3"), ("B", "2026-12-06T10:05", "Wakha, samedi 19h porte 3"),
        ])
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-12T19:00")
    }

    @Test func arabiziProgressiveIsNotThreeInTheMorning() {
        let result = Self.outcome([
            ("A", "2026-12-06T10:00", "ba3d bokra fi concert, el sa3a 8, bitiji?"), ("B", "2026-12-06T10:05", "akeed!! 3am bmoot 3ala hal band"),
        ])
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-08T20:00")
    }

    @Test func aNoThenAMaybeIsAMaybe() {
        let result = Self.outcome([
            ("A", "2026-12-06T10:00", "Manly ferry Saturday, u in? leaving at 11"),
            ("B", "2026-12-06T10:05", "sorry driving, yeah sounds fun but I might have my niece Saturday so let me see how that pans out and I'll let you know"),
        ])
        #expect(result.state == .proposed)
    }

    @Test func aMaybeThenANoIsANo() {
        let result = Self.outcome([("A", "2026-12-06T10:00", "Padel Saturday at 11?"), ("B", "2026-12-06T10:05", "let me check... no sorry, can't")])
        #expect(result.state == .denied)
    }

    @Test func aHedgeNamingAClashStaysAHedge() {
        let result = Self.outcome([
            ("A", "2026-12-06T10:00", "مسوي عشا للشباب يوم الجمعة بالاستراحة بعد المغرب، تعال"),
            ("B", "2026-12-06T10:05", "ان شاء الله بس ما اوعدك، الجمعة عندي مشوار للشرقية"),
        ])
        #expect(result.state == .proposed)
    }

    @Test func aTimeTiedToTheOpeningIsThePlans() {
        let result = Self.outcome([("A", "2026-12-06T10:00", "waterworld tmrw?? 10ish when it opens"), ("B", "2026-12-06T10:05", "yesss")])
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-07T10:00")
    }

    @Test func aClosingTimeIsNotTheStart() {
        let result = Self.outcome([("A", "2026-12-06T10:00", "let's do the souq Thursday at 6? it closes at 10"), ("B", "2026-12-06T10:05", "ok")])
        #expect(Self.start(result) == "2026-12-10T18:00")
    }

    @Test("something came up calls the plan off", arguments: [
        "so sorry, something came up, can we do another day?", "والله صار عندي ظرف، خليها مرة ثانية",
    ])
    func somethingCameUp(message: String) {
        let result = Self.outcome([
            ("A", "2026-12-06T10:00", "dinner Thursday at 8?"), ("B", "2026-12-06T10:05", "ok deal"), ("B", "2026-12-06T11:00", message),
        ])
        #expect(result.state == .denied, "\(message)")
    }

    @Test func dontBailHoldsThePlan() {
        let result = Self.outcome([
            ("A", "2026-12-06T10:00", "dinner Thursday at 8?"), ("B", "2026-12-06T10:05", "ok deal"), ("A", "2026-12-06T10:06", "great, dont bail on me this time"),
        ])
        #expect(result.state == .agreed)
    }

    @Test func aWeekFromTodayInArabizi() {
        let result = Self.outcome([("A", "2026-12-06T10:00", "nrou7 el mat3am mn el youm l usbu3?"), ("B", "2026-12-06T10:05", "tamam")])
        #expect(Self.start(result) == "2026-12-13")
    }

    @Test func havingTimeIsNotAnExcuse() {
        let result = Self.outcome([
            ("A", "2026-12-06T10:00", "بكرا عندي شوية وقت من ٥ لـ ٧، منعمل مانيكير سوا عند نايلز؟"), ("B", "2026-12-06T10:05", "أكيد!"),
        ])
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-07T17:00")
    }

    @Test func aNoNamingTheAgreedActivityCallsItOff() {
        let result = Self.outcome([
            ("A", "2026-12-06T10:00", "فاكرة اتفقنا على سينما بكرة؟ الحفلة الساعة ٧"), ("B", "2026-12-06T10:05", "أيوة طبعاً"),
            ("B", "2026-12-06T11:00", "معلش جدتي تعبت ولازم أسافر، مش هقدر آجي السينما"),
        ])
        #expect(result.state == .denied)
    }

    @Test func aFormalProposalAndAFormalRefusal() {
        let result = Self.outcome([
            ("A", "2026-12-06T10:00", "نقترح عقد ورشة العمل يوم الخميس من الساعة ٩ حتى ١٢ ظهراً"),
            ("B", "2026-12-06T10:05", "نعتذر، لدينا تدقيق خارجي طوال يوم الخميس، ولا يمكننا المشاركة"),
        ])
        #expect(result.state == .denied)
    }

    @Test func aKickOffTimeInAnInvitationIsTheStart() {
        let result = Self.outcome([("A", "2026-12-06T10:00", "braai at mine Saturday, you keen? kick off around 1, till late"), ("B", "2026-12-06T10:05", "sure")])
        #expect(Self.start(result) == "2026-12-12T13:00")
    }

    @Test func aMatchKickOffOnTheTelevisionIsNoPlan() {
        let result = Self.outcome([("A", "2026-12-06T10:00", "Bokke vs Wales on Saturday, kick off 5pm on SuperSport"), ("B", "2026-12-06T10:05", "ja I saw")])
        #expect(result.state == .noEvent)
    }

    @Test("Maghrebi 'مع' before an hour is the time, and its yes-words agree", arguments: [
        ("نهار السبت نروحو للبحر؟ نخرجو الصباح بكري مع 8", "مليح", "2026-12-12T08:00"),
        ("نهار الأحد نمشيو لسيدي بوسعيد؟ في القهوة العالية، مع الأربعة", "باهي", "2026-12-13T16:00"),
    ])
    func maghrebiTimes(proposal: String, reply: String, start: String) {
        let result = Self.outcome([("A", "2026-12-06T10:00", proposal), ("B", "2026-12-06T10:05", reply)])
        #expect(result.state == .agreed)
        #expect(Self.start(result) == start)
    }

    @Test func withANumberOfPeopleIsNoTime() {
        let result = Self.outcome([("A", "2026-12-06T10:00", "نطلع السبت مع 3 من الشباب؟"), ("B", "2026-12-06T10:05", "تمام")])
        #expect(Self.start(result) == "2026-12-12")
    }

    @Test func gulfArabiziTheDayAfterTomorrow() {
        let result = Self.outcome([("A", "2026-12-06T10:00", "3ugb bacher tit3asha 3indna? el sa3a 8"), ("B", "2026-12-06T10:05", "akeed")])
        #expect(Self.start(result) == "2026-12-08T20:00")
    }

    // MARK: an answer is bound to what it answers

    @Test("a yes to a side question after the proposal does not agree the plan", arguments: [
        "btw did you get the card I sent?", "شفت الصور اللي ارسلتها؟",
    ])
    func aYesToASideQuestionIsNotTheplansYes(aside: String) {
        let result = Self.outcome([
            ("A", "2026-12-06T10:00", "Padel Saturday at 5?"), ("A", "2026-12-06T10:01", aside), ("B", "2026-12-06T10:05", "yes"),
        ])
        #expect(result.state == .proposed, "\(aside)")
    }

    @Test("a yes to a request aside answers the request", arguments: ["also send me the pics from last time", "وابعتلي الصور", "w 3ayetli ba3d el sala"])
    func aYesToARequestIsNotThePlansYes(request: String) {
        let result = Self.outcome([
            ("A", "2026-12-06T10:00", "Tipaza on Friday?"), ("A", "2026-12-06T10:01", request), ("B", "2026-12-06T10:05", "ok"),
        ])
        #expect(result.state == .proposed, "\(request)")
    }

    @Test("after a no, 'but …' from the one who said no is an offer, and the other's yes agrees it", arguments: [
        "بس الصبح فاضي", "بس العصر فاضية",
    ])
    func anOfferAfterANoIsAnsweredByTheYes(offer: String) {
        let result = Self.outcome([
            ("A", "2026-12-06T10:00", "Wadi trip on Friday?"), ("B", "2026-12-06T10:05", "can't, I have a wedding"),
            ("B", "2026-12-06T10:06", offer), ("A", "2026-12-06T10:10", "akeed"),
        ])
        #expect(result.state == .agreed, "\(offer)")
    }

    @Test func takingBackTheOthersEarlierOfferAgreesIt() {
        let result = Self.outcome([
            ("A", "2026-12-06T10:00", "Tennis Saturday at 4:30pm?"), ("B", "2026-12-06T10:05", "how about 8pm instead"),
            ("A", "2026-12-06T10:06", "8 is too dark for the courts"), ("B", "2026-12-06T10:10", "ok fine, 4:30 then"),
        ])
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-12T16:30")
    }

    @Test func aYesAgreesTheLatestProposalNotAnOlderOneStillOpen() {
        let result = Self.outcome([
            ("A", "2026-12-06T10:00", "cinema Friday at 8pm?"), ("B", "2026-12-06T10:05", "hmm let me check"),
            ("A", "2026-12-06T10:06", "and brunch Sunday at 11am?"), ("B", "2026-12-06T10:10", "yes!"),
        ])
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-13T11:00")
    }

    @Test func aYesAfterACounterProposalAgreesTheCounterProposal() {
        let result = Self.outcome([
            ("A", "2026-12-06T10:00", "Padel Saturday at 5?"), ("B", "2026-12-06T10:05", "can't Saturday, Sunday?"), ("A", "2026-12-06T10:06", "ok"),
        ])
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-13T17:00")
    }

    // MARK: only plans between the two people

    @Test("the sender's or someone else's schedule is no plan", arguments: [
        "I'm meeting the client in Westlands on Thursday at 10 so I'll be offline the whole morning",
        "عندها موعد في المستشفى يوم الاربعاء الساعة ١٠",
        "did you hear Mona's wedding is on the 20th?",
    ])
    func someoneElsesScheduleIsNoPlan(report: String) {
        let result = Self.outcome([("A", "2026-12-06T10:00", report), ("B", "2026-12-06T10:05", "ok")])
        #expect(result.state == .noEvent, "\(report)")
    }

    @Test("asking for a thing to be sent, or asking aside beside one's own schedule, is no plan", arguments: [
        "can you send me the beneficiary list tonight?", "how are things? my flight to Paris is at 2pm",
    ])
    func aRequestOrAnAsideIsNoPlan(message: String) {
        let result = Self.outcome([("A", "2026-12-06T10:00", message), ("B", "2026-12-06T10:05", "ok sure")])
        #expect(result.state == .noEvent, "\(message)")
    }

    @Test("'I cancelled it' in the dialects calls an agreed plan off", arguments: ["el khamees keda malghy", "مستحيل اوصل، لغيت الحجز"])
    func dialectCancellation(message: String) {
        let result = Self.outcome([
            ("A", "2026-12-06T10:00", "football Thursday at 8pm?"), ("B", "2026-12-06T10:05", "tamam"), ("B", "2026-12-06T11:00", message),
        ])
        #expect(result.state == .denied, "\(message)")
    }

    @Test("the answer to a question about news is news, and a question about a forwarded card invites no one", arguments: [
        [("A", "2026-12-06T10:00", "سمعت بلي الخضرة تلعب الاثنين الجاي مع تونس؟"), ("B", "2026-12-06T10:05", "ايه، الماتش مع 9 تاع الليل"),
         ("A", "2026-12-06T10:06", "إن شاء الله نربحو")],
        [("A", "2026-12-06T10:00", "Forwarded: school starts on Sunday the 13th"), ("A", "2026-12-06T10:01", "are your kids ready for school?"),
         ("B", "2026-12-06T10:05", "not yet, still need the bags")],
    ])
    func newsStaysNews(chat: [(String, String, String)]) {
        #expect(Self.outcome(chat).state == .noEvent)
    }

    @Test("a call-off on a condition is a condition", arguments: ["ok if no rain then go. if rain we cancel", "اذا مطرت نلغيها"])
    func aConditionalCancellationIsACondition(reply: String) {
        let result = Self.outcome([("A", "2026-12-06T10:00", "cycling Saturday at 7am?"), ("B", "2026-12-06T10:05", reply)])
        #expect(result.state == .proposed, "\(reply)")
    }

    @Test func anInvitationToSomeoneElsesEventMakesItAPlan() {
        let result = Self.outcome([
            ("A", "2026-12-06T10:00", "did you hear Mona's wedding is on the 20th?"), ("B", "2026-12-06T10:05", "yes I got the card"),
            ("A", "2026-12-06T10:06", "wanna go together?"), ("B", "2026-12-06T10:10", "sure"),
        ])
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-20")
    }
}
