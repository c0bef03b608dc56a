/// A clock time as said: "8", "7:30pm", "half 10", "٧ الا ربع". Which half of the day a bare
/// "8" means is settled later, when the plan's activity and part of the day are known.
struct SpokenClock: Hashable, Sendable {
    var hour: Int
    var minute: Int
    /// Set by "pm", "am", "صباحا", "مساء" and the like; nil when the half of the day was not said.
    var isPM: Bool?

    /// Written as a 24-hour time ("19:30", "00:15"), so no half of the day is to be guessed.
    var isTwentyFourHour: Bool { hour == 0 || hour > 12 }
}

/// The part of one message that describes one plan: when, what and where.
struct PlanFragment: Sendable {
    /// Resolved days (midnight, local); several when they are alternatives ("Thursday or Friday").
    var days: [LocalDateTime] = []
    var daysAreAlternatives = false
    /// The last day of a multi-day event ("Feb 26 to 28").
    var lastDay: LocalDateTime?
    /// A frame wider than a day: "next week", "the weekend", "late Feb".
    var isVague = false
    var clock: SpokenClock?
    /// Further clock times in the same plan, in order ("Friday 4 is gone, I've got 5.15?"): when
    /// the first only repeats the plan's time, the last new one is what is offered.
    var laterClocks: [SpokenClock] = []
    var endClock: SpokenClock?
    var durationMinutes: Int?
    var anchor: PrayerAnchor?
    /// A prayer named beside a clock time ("٣ العصر"): it only says which half of the day.
    var prayerAsPartOfDay: PrayerAnchor?
    var partOfDay: PartOfDay?
    var wholeDay = false
    /// "same time", نفس الوقت: keep the time of the plan this answers.
    var sameTime = false
    var activity: Activity?
    var location: String?
    /// The one day came from a bare weekday ("Sunday works"): in a reply it may name the plan's
    /// own day a week further on ("the Sunday then, the 20th").
    var dayIsPlainWeekday = false

    /// Said after "and then", وبعدها with an activity of its own: another plan after the one before it.
    var followsOn = false

    var hasDay: Bool { !days.isEmpty }
    var hasTime: Bool { clock != nil || anchor != nil }
    var hasWhen: Bool { hasDay || hasTime || isVague }

    /// Said for the day the message was sent ("today at 4"), with a clock that had passed by then
    /// in either half of the day and no end still to come: a when already gone. The small hours
    /// ("tonight, around 1am") and a night said are the night to come.
    func hasPassed(before sentAt: LocalDateTime) -> Bool {
        guard days == [sentAt.midnight], endClock == nil, let clock, (0...23).contains(clock.hour),
              partOfDay != .night, partOfDay != .evening, !(clock.isPM == false && clock.hour < 6) else { return false }
        let latestHour: Int
        if clock.isTwentyFourHour || clock.isPM == false {
            latestHour = clock.hour
        } else {
            latestHour = clock.hour % 12 + 12
        }
        return latestHour * 60 + clock.minute < sentAt.hour * 60 + sentAt.minute
    }
}

/// What one message says: what it does to a plan (accepts, refuses, ...), why it might not be
/// about a plan between the two people at all, and the plans it describes.
struct MessageReading: Sendable {
    var accepts = false
    var denies = false
    var isTentative = false
    /// "don't bail", "لا تتأخر": tells the other not to do something; a bare no after it promises.
    var forbidsSomething = false
    /// A clause is about a broadcast, a deadline or the weather ("هتفرج عليه في البيت", "I'll watch it at home").
    var speaksOfOtherThing = false
    /// "the recital is friday right", "Gaz's stag is in Newcastle on the 24th", "أمج سوت الكبة؟":
    /// tells the day of a thing or asks after someone else's doings, not a plan; the answer is news too.
    var tellsAThingsDay = false
    /// "too bad", "never mind", خسارة: said by the proposer, the other's no is taken.
    var regrets = false
    var isConditional = false
    var cancels = false
    var asksTime = false
    var asksWhen = false
    var invites = false
    var leavesChoiceOpen = false
    var isQuestion = false

    var isPast = false
    var isOwnPlan = false
    var isThirdParty = false
    var isInquiry = false
    var isNotAMeeting = false
    var isHypothetical = false
    var isForwarded = false
    var hasNoTimeFrame = false
    /// Who the message is about (labelling rule 1): it speaks of the sender alone or of others
    /// ("I'm meeting the client Thursday at 10", "عندها موعد الاربعاء") and names neither "we"
    /// nor "you". Such a statement reports a schedule; it proposes nothing to the other person.
    var isAboutOthersOnly = false
    /// Names the other or both ("we", "you", "let's", "معك"): a statement without it names no one of the two.
    var namesTheTwo = false
    /// The whole reply only takes note ("got it", "ok noted", "thx for the heads up").
    var onlyTakesNote = false
    /// "did you see Divya's card?", "سمعتي ان عرس منى في ٢٠ فبراير؟": a question about what the
    /// other person knows, not an invitation.
    var asksWhatOtherKnows = false
    /// "let me know", "send pics", "خبريني", "3ayetli": asks the other to do something aside; a
    /// yes after it answers the request, not a plan.
    var requestsAside = false
    /// Opens with "but" ("بس الصبح فاضي", "but I can do Sunday"): after a no, an offer instead.
    var opensWithContrast = false
    /// Opens with "also", "and", "وكمان", "w": what follows is one more thing, not a change to the last.
    var opensWithAddition = false
    /// "can you send me the list tonight?": asks for a thing to be sent, not for a meeting.
    var asksToSend = false
    /// The "?" closes a clause that names the when ("Friday at 8?"), not another one ("w enti? my flight is at 2").
    var asksAboutTheWhen = false
    /// Every "?" closes only "you?", "and you?", "w enti?": a question about the other's own day.
    var asksOnlyAboutTheOther = false
    /// Words and numbers in the message: a short reply that repeats the plan's when agrees to it.
    var wordCount = 0

    var fragments: [PlanFragment] = []
    /// Days named in a clause about the sender's own commitments ("Sunday I have the board
    /// presentation"): said in reply to a plan on that day, they turn it down.
    var excuseDays: [LocalDateTime] = []
    /// Clock times of those clauses ("the suhoor alarm for 4:45"): an echo of one ("4:45??") proposes nothing.
    var excuseClocks: [SpokenClock] = []
    /// One of those clauses ends with the hour one is free ("at work till 2"): a constraint, not a no.
    var busyUntil = false
    /// "يعني معنا؟", "you coming?": asks whether the other joins; it answers to the plan on the table.
    var asksToJoin = false
    /// After an excuse, "but" and being free ("but afternoon is free", "بس العصر نقدر"): no refusal.
    var freeAfterExcuse = false
    /// A bare hour closing a clause ("bnmorr 3aleki 8"), read as a time only in answer to "what time?".
    var closingHour: SpokenClock?
    /// Mostly Arabic script: titles are given in Arabic.
    var isArabic = false
    /// The message's own local time: relative days were resolved against it.
    var sentAt: LocalDateTime
    /// The folded text (lower case, Arabic variants folded): the status model reads its letters.
    var folded: [Character] = []

    init(sentAt: LocalDateTime) {
        self.sentAt = sentAt
    }

    /// Says why a time in this message is not a plan between the two people.
    var isVetoed: Bool { isPast || isOwnPlan || isThirdParty || isInquiry || isNotAMeeting || isHypothetical || isForwarded }

    /// The message's only fragment, or a merge of all of them when it describes one plan.
    var mainFragment: PlanFragment? { fragments.first }
}
