import Foundation
import Testing
@testable import Conversations

/// The phenomena of issue 19 part 3, one by one: dialect acceptances, refusals and hedges, the
/// days and times of every dialect, and clauses whose days belong to something else.
/// 2026-12-06 is a Sunday; the chats are in Riyadh time.
@Suite struct DialectExtractionTests {
    typealias Chat = [(String, String, String)]

    static func outcome(_ messages: Chat) -> ConversationOutcome { ExtractionTests.outcome(messages) }
    static func start(_ outcome: ConversationOutcome) -> String? { ExtractionTests.start(outcome) }

    @Test("dialect and world-English acceptances", arguments: [
        "ان شاء الله حاضر", "صار", "واخا", "d'accord", "👍 works", "Half 6 it is", "ما يخالف", "اشطا", "مية مية",
        "ur a star, 6.30 it is", "yes pleaseee", "تمااام",
    ])
    func acceptances(reply: String) {
        let result = Self.outcome([("A", "2026-12-06T10:00", "Dinner tomorrow at 6.30pm?"), ("B", "2026-12-06T10:05", reply)])
        #expect(result.state == .agreed, "\(reply)")
        #expect(Self.start(result) == "2026-12-07T18:30", "\(reply)")
    }

    @Test("dialect refusals are refusals, not proposals", arguments: [
        "ما اروم والله", "مينفعش", "ما فيني بكرا", "ما اگدر", "mesh ha2dar walahi", "I no fit come o", "ما نقدرش", "sorry that's a no from me",
    ])
    func refusals(reply: String) {
        let result = Self.outcome([("A", "2026-12-06T10:00", "نتعشى بكرة الساعة ٩؟"), ("B", "2026-12-06T10:05", reply)])
        #expect(result.state == .denied, "\(reply)")
    }

    @Test("hedges leave the plan open", arguments: [
        "I'd love to but I'm not sure I can", "ان شاء الله بس مو اكيد", "momken, bashoof", "سأراجع جدولي وأبلغك", "fingers crossed 🤞",
    ])
    func hedges(reply: String) {
        let result = Self.outcome([("A", "2026-12-06T10:00", "Padel tomorrow at 8pm?"), ("B", "2026-12-06T10:05", reply)])
        #expect(result.state == .proposed, "\(reply)")
    }

    @Test func takingUpACounterTimeAgreesIt() {
        let result = Self.outcome([
            ("A", "2026-12-06T12:44", "quiz Thursday yeah. meet there quarter past 6 to nab a table?"), ("B", "2026-12-06T12:50", "Quarter past 6 it is 🍻"),
        ])
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-10T18:15")
    }

    @Test func aHedgedWordFrontingANewTimeIsACounterProposal() {
        let result = Self.outcome([
            ("A", "2026-12-06T10:00", "Aquarium Saturday at 11?"), ("B", "2026-12-06T10:05", "ok bs mumkin 11:30?"), ("A", "2026-12-06T10:06", "5alas 11:30"),
        ])
        #expect(Self.start(result) == "2026-12-12T11:30")
    }

    @Test func aYesAfterAHedgeAnswersTheAsideNotThePlan() {
        let result = Self.outcome([
            ("A", "2026-12-06T10:00", "عرس بنت عمي الخميس الجاي، بدك تيجي معي؟"), ("B", "2026-12-06T10:05", "ان شاء الله بس ما بوعدك"),
            ("A", "2026-12-06T10:06", "طيب احكيلي قبل الأربعاء"), ("B", "2026-12-06T10:07", "أكيد"),
        ])
        #expect(result.state == .proposed)
    }

    @Test("weekdays in every dialect's spelling", arguments: [
        ("نتقابل يوم التلات الساعة ٨؟", "2026-12-08T20:00"),
        ("نتقابل يوم الاربع الساعة ٨؟", "2026-12-09T20:00"),
        ("نتلاقاو نهار الحد الساعة ٨؟", "2026-12-13T20:00"),
        ("n2abel el tanen el sa3a 8?", "2026-12-07T20:00"),
        ("nitla3 el 5amis el sa3a 8?", "2026-12-10T20:00"),
        ("نطلع هالسبت الساعة ٨؟", "2026-12-12T20:00"),
        ("Roast Sunday week, half 1?", "2026-12-20T13:30"),
        ("نروح عقب باجر الساعة ٨؟", "2026-12-08T20:00"),
        ("Court booked tmrw 1830 to 1930, coming?", "2026-12-07T18:30"),
        ("بكرا ع التمانة المسا منلتقى؟", "2026-12-07T20:00"),
        ("بكرا الساعة ٧ الا تلت منلتقى؟", "2026-12-07T18:40"),
        ("on se voit demain à 10h30?", "2026-12-07T10:30"),
    ])
    func dialectDaysAndTimes(text: String, expected: String) {
        let result = Self.outcome([("A", "2026-12-06T10:00", text), ("B", "2026-12-06T10:05", "تمام")])
        #expect(Self.start(result) == expected, "\(text)")
    }

    @Test func hijriDatesResolveThroughTheRamadanCalendar() {
        // Ramadan 1448 starts on 2027-02-08 in the test calendar: 16 Ramadan is 2027-02-23.
        let result = Self.outcome([("A", "2027-01-20T10:00", "الفطور عندنا ١٦ رمضان الساعة ٦، تجي؟"), ("B", "2027-01-20T10:05", "ان شاء الله جاي")])
        #expect(Self.start(result) == "2027-02-23T18:00")
    }

    @Test func fridayAfterThePrayerIsDhuhr() {
        let result = Self.outcome([("A", "2026-12-06T10:00", "الجمعة بعد الصلاة تعال نتغدا سوا"), ("B", "2026-12-06T10:05", "ان شاء الله اكيد جاي")])
        #expect(Self.start(result) == "2026-12-11T11:39")
        #expect(result.event?.startRelativeTo == .dhuhr)
    }

    @Test func anExcuseOnThePlansDayRefusesItAndTheCounterWins() {
        let result = Self.outcome([
            ("A", "2026-12-06T10:00", "Dinner at Sufra on Tuesday?"),
            ("B", "2026-12-06T10:05", "Tuesday I have the board presentation, I'll be dead. Wednesday?"),
            ("A", "2026-12-06T10:06", "Wednesday works, 8pm? I'll book"), ("B", "2026-12-06T10:07", "perfect"),
        ])
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-09T20:00")
        #expect(result.otherEvents.isEmpty)
    }

    @Test func timesInARefusalsExcuseAreNotThePlans() {
        let result = Self.outcome([
            ("A", "2026-12-06T10:00", "n2abel 3al Corniche el talat bel leil? 9"),
            ("B", "2026-12-06T10:05", "mesh ha2dar walahi, 3andi emte7an el arba3 el sob7"),
        ])
        #expect(result.state == .denied)
        #expect(Self.start(result) == "2026-12-08T21:00")
    }

    @Test func aDeadlinesDayDoesNotBecomeThePlans() {
        let call = Self.outcome([
            ("A", "2026-12-06T17:00", "Can we talk tonight about the Airbnb? Need to decide by tmrw"), ("B", "2026-12-06T17:30", "Sure, around 8?"),
            ("A", "2026-12-06T17:31", "make it 8:20, I'll call"), ("B", "2026-12-06T17:32", "ok"),
        ])
        #expect(Self.start(call) == "2026-12-06T20:20")
        let receipts = Self.outcome([("A", "2026-12-06T11:00", "Can you send me the receipts by Thursday?"), ("B", "2026-12-06T11:40", "Ok madam, will do")])
        #expect(receipts.state == .noEvent)
        let submission = Self.outcome([("A", "2026-12-06T14:00", "lazem nsallim el project el a7ad el sa3a 12, la tnsa"), ("B", "2026-12-06T14:10", "tamam")])
        #expect(submission.state == .noEvent)
    }

    @Test func theNewClockAmongSeveralIsTheOneOffered() {
        let result = Self.outcome([
            ("A", "2026-12-06T10:00", "Lesson Thursday 4pm?"), ("B", "2026-12-06T10:05", "could we push it to Friday? Same time"),
            ("A", "2026-12-06T10:06", "Friday 4 is gone I'm afraid, I've got Friday 5.15?"), ("B", "2026-12-06T10:07", "5.15 is fine 👍"),
        ])
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-11T17:15")
    }

    @Test func nonEventsWithAgreementWordsStayNonEvents() {
        let tv = Self.outcome([("A", "2026-12-06T19:00", "مباراة الكويت والسعودية باچر الساعة ٩ على الرياضية"), ("B", "2026-12-06T19:05", "اي شفت الخبر")])
        #expect(tv.state == .noEvent)
        let weather = Self.outcome([("A", "2026-12-06T14:00", "يمه باچر الحرارة توصل ٥٠، لا تطلع الظهر"), ("B", "2026-12-06T14:10", "تدللين يمه")])
        #expect(weather.state == .noEvent)
        let deleted = Self.outcome([("A", "2026-12-06T10:00", "الأحد الساعة ٥ نلعب بلياردو؟"), ("B", "2026-12-06T10:05", "\u{200F}تم حذف هذه الرسالة.")])
        #expect(deleted.state == .proposed)
    }

    @Test func aProhibitionIsNoRefusal() {
        let result = Self.outcome([("A", "2026-12-06T21:00", "تبين نمشي ع الكورنيش يوم الأحد؟ الساعة ٧ الصبح"), ("B", "2026-12-06T21:30", "زين، بس لا تتأخرين علي")])
        #expect(result.state == .agreed)
        #expect(Self.start(result) == "2026-12-13T07:00")
    }

    @Test func aForwardedAnnouncementBecomesAPlanWhenOneAsksTheOtherAlong() {
        let result = Self.outcome([
            ("A", "2026-12-06T10:00", "Forwarded: Art Week opening night, Thursday 10 December, 6-9pm, Warehouse 45"),
            ("A", "2026-12-06T10:02", "wanna go together?"),
        ])
        #expect(result.state == .proposed)
        #expect(Self.start(result) == "2026-12-10T18:00")
    }

    @Test func dayRangesJoinAndTheSameWeekdayIsTheSameDay() {
        let result = Self.outcome([
            ("A", "2026-12-06T10:00", "Camping Thu 17th to Sat 19th? I can take the Thursday off"), ("B", "2026-12-06T10:05", "17th-19th works"),
        ])
        #expect(Self.start(result) == "2026-12-17")
        #expect(result.event?.end.map { String($0.description.prefix(10)) } == "2026-12-19")
    }

    @Test func stretchedLettersAndGulfLettersFold() {
        #expect(String(ChatText("yesss pleaseee تمااام").folded) == "yes please تمام")
        #expect(String(ChatText("ما اگدر").folded) == "ما اكدر")
    }
}
