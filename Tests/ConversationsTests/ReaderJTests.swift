import Foundation
import Testing
@testable import Conversations

/// Reader J's mechanisms, each on wording none of the fixtures uses. 2026-12-06 is a Sunday; the
/// chats are in Riyadh time.
@Suite struct ReaderJTests {
    static func start(_ outcome: ConversationOutcome) -> String? { ExtractionTests.start(outcome) }

    @Test("a time just before the hour takes that hour's half of the day", arguments: [
        ("Help me paint the fence Tuesday? quarter to 10 at mine", "2026-12-08T09:45"),
        ("Tuesday, meet at the gate at 9:50?", "2026-12-08T09:50"),
        ("Lunch Tuesday? quarter to 1 at the deli", "2026-12-08T12:45"),
        ("Tuesday, meet at the gate at quarter to 9?", "2026-12-08T20:45"),
    ])
    func quarterTo(proposal: String, expected: String) {
        let result = ExtractionTests.reply(proposal, "ok see you then")
        #expect(result.state == .agreed, "\(proposal)")
        #expect(Self.start(result) == expected, "\(proposal)")
    }

    @Test("a forwarded card is an announcement, not a plan", arguments: [
        "Fwd: Blood drive at the community hall Wednesday 4pm, walk-ins welcome",
        "Weitergeleitet: Hoffest am Samstag um 15 Uhr, alle willkommen",
        "Transféré : vernissage de l'expo jeudi à 19h",
    ])
    func forwarded(card: String) {
        let result = ExtractionTests.reply(card, "ok thanks")
        #expect(result.state == .noEvent, "\(card)")
    }

    @Test("an Arabizi prayer with its article glued on is that prayer", arguments: [
        ("bokra ba3d elmaghrib nit3asha barra?", PrayerAnchor.maghrib),
        ("el thulatha ba3d el3asr nitla3 el ba7ar?", PrayerAnchor.asr),
    ])
    func gluedArticle(proposal: String, anchor: PrayerAnchor) {
        let result = ExtractionTests.reply(proposal, "tamam akeed")
        #expect(result.state == .agreed, "\(proposal)")
        #expect(result.event?.startRelativeTo == anchor, "\(proposal)")
    }

    @Test func jumaahIsFridaysDhuhr() {
        let result = ExtractionTests.reply("Friday after Jumaah we makan at the warung ok?", "Can, see you")
        #expect(result.state == .agreed)
        #expect(result.event?.startRelativeTo == .dhuhr)
        #expect(Self.start(result)?.hasPrefix("2026-12-11T") == true)
    }

    @Test func aCancelThatPromisesWordLaterStaysACancel() {
        // "I'll let you know when he's better" puts the plan off with no time; it does not soften the no.
        let result = ExtractionTests.outcome([
            ("A", "2026-12-06T10:00", "Dinner at ours Wednesday at 8?"),
            ("B", "2026-12-06T10:01", "yes please, we'll come"),
            ("B", "2026-12-06T18:00", "so sorry, my husband's got the flu, we can't do Wednesday. I'll let you know when he's better"),
            ("A", "2026-12-06T18:05", "no worries, get well soon"),
        ])
        #expect(result.state == .denied)
        #expect(Self.start(result) == "2026-12-09T20:00")
    }

    @Test func aMaybeWithoutAPutOffStillSoftensTheNo() {
        let result = ExtractionTests.reply("Dinner Wednesday at 8?", "sorry I can't, actually let me check and I'll let you know")
        #expect(result.state == .proposed)
    }

    @Test func theThingsStartIsNotWhenTheTwoMeet() {
        let result = ExtractionTests.reply("Jazz at the Blue Note Thursday? doors open 9 but let's grab a drink nearby at 8", "deal")
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-10T20:00")
    }

    @Test("the proposer's nudge asks about the plan on the table", arguments: ["So?", "Obviously. So?", "so ur in?"])
    func nudge(nudge: String) {
        let result = ExtractionTests.reply("Go-karting Saturday at 4?", "lol I'm rubbish at it", nudge, "fine, go on")
        #expect(result.state == .agreed, "\(nudge)")
        #expect(Self.start(result) == "2026-12-12T16:00", "\(nudge)")
    }

    @Test func withMeAsksTheOtherAlong() {
        let result = ExtractionTests.reply("climbing with me? Tuesday at 7, the new wall is open", "haha ok fine")
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-08T19:00")
    }

    @Test func aListMarkIsNoHour() {
        let result = ExtractionTests.outcome([
            ("A", "2026-12-06T10:00", "two things"),
            ("A", "2026-12-06T10:01", "1) Wednesday after isha, karak at the corniche?"),
            ("B", "2026-12-06T10:02", "yes!"),
        ])
        #expect(result.state == .agreed)
        #expect(result.event?.startRelativeTo == .isha)
        #expect(Self.start(result)?.hasPrefix("2026-12-09T") == true)
    }

    @Test func anInvitationWithItsOwnWhenTakesNotTheDayOfSomeoneElsesDoings() {
        let result = ExtractionTests.reply("you around this week? my cousin lands on Tuesday", "mostly yeah", "dinner Thursday at 8 then?", "sounds good")
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-10T20:00")
    }

    @Test func aReminderOfADeadlineDoesNotTakeUpAForwardedCard() {
        let result = ExtractionTests.reply("Fwd: Night market at the old port opens Thursday 6pm", "cool", "and the visa form is due Monday, don't forget", "ok")
        #expect(result.state == .noEvent)
    }

    @Test func aForecastIsNoExcuseAndAConditionalYesIsNoAgreement() {
        let result = ExtractionTests.reply("Hike Saturday at 7?", "the forecast says rain on Saturday", "so?", "if it's dry I'm in, otherwise no",
                                "ok we'll see", "how's your mum doing?", "much better thanks", "ok good to hear")
        #expect(result.state == .proposed)
        #expect(Self.start(result) == "2026-12-12T07:00")
    }

    @Test func aNewHourFarFromTheOldOneIsReadAfreshAndKwayesAnswers() {
        // The flight's "٣ الضهر" said which half of the day 3 was in; "١١ ونص" three hours and more away is the morning.
        let result = ExtractionTests.reply("بكرة ممكن توديني المطار؟ الطيارة الساعة ٣ الضهر", "اكيد، اجيك الساعة ١١ ونص كويس؟", "كويس شديد")
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-07T11:30")
    }

    @Test("an if about running late holds no condition on the plan", arguments: [
        "ok! but if I'm running late save me a seat",
        "ماشي، بس لو اتأخرت شوية استنوني",
    ])
    func ifLate(answer: String) {
        let result = ExtractionTests.reply("Cinema Monday at 8?", answer)
        #expect(result.state == .agreed, "\(answer)")
        #expect(Self.start(result) == "2026-12-07T20:00", "\(answer)")
    }

    @Test func notThisTimeInTheLevantRefuses() {
        let result = ExtractionTests.reply("نطلع ع الجبل الخميس؟", "مش هالمرة خيي")
        #expect(result.state == .denied)
    }

    @Test func onesOwnAbsenceAfterButIsNoCounter() {
        // The span of one's absence starting on the plan's day turns the plan down; it does not move it.
        let result = ExtractionTests.reply("BBQ at ours Thursday from 4?", "we'd love to but we're away up north from Thursday till Sunday")
        #expect(result.state == .denied)
        #expect(Self.start(result) == "2026-12-10T16:00")
    }

    @Test func aYesWithAQuestionAfterButStaysAYes() {
        // "yes, but what time? I have a class till 11": one's own day asked around is no absence.
        let result = ExtractionTests.reply("Picnic Saturday?", "yes! but what time? I have a class till 11")
        #expect(result.state != .denied)
    }

    @Test func takingNoteOfAWhenThatNamesNoOneIsTakingNoteOfNews() {
        #expect(ExtractionTests.reply("residents' meeting moved to Wednesday 6pm", "ok noted").state == .noEvent)
        // With "you and me" the same words take the plan.
        #expect(ExtractionTests.reply("Dinner Thursday 8pm at Nando's, you and me", "got it").state == .agreed)
    }
}
