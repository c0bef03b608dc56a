/// What a word or phrase of a chat message means to the extractor.
enum Cue: Hashable, Sendable {
    // What the message does to a plan.
    case accept
    /// "صار", "ih", "can", "bet": yes only as (nearly) the whole reply; inside a sentence they mean other things.
    case acceptAlone
    case deny
    /// "but", بس, لكن: what follows outweighs a yes before it ("I'd love to but…").
    case contrast
    /// "maybe", "let me check", بشوف: neither yes nor no.
    case tentative
    /// "better", "instead", احسن, "a7san": "7 better" offers another time in a word or two.
    case preference
    /// "too bad", "never mind", خسارة, "ya khsara": the proposer taking the other's no.
    case regret
    /// "you don't need to join", "مو لازم تجي": the invitation after it is waived.
    case waiver
    /// "and then", وبعدها, "w ba3dein": what follows is a plan of its own after the one before.
    case sequence
    /// "if it's sunny", اذا: a yes that hangs on something.
    case conditional
    /// An agreed plan is called off or put off.
    case cancel
    /// "what time?", الساعة كم: the day may be fine, the time is open.
    case askTime
    /// "when?", متى
    case askWhen
    /// "let's", "want to", وش رايك, تعال: an invitation to do something together.
    case invite
    /// Words that look like other cues but are not ("no worries", "can't wait", ما فيه مشكلة is `accept`).
    case neutral

    // Why a time in a message is not a plan between the two people.
    case past
    case ownPlan
    case thirdParty
    case inquiry
    /// Deadlines, deliveries, broadcasts, weather: times of things, not meetings.
    case notAMeeting
    case hypothetical
    case forwarded
    /// "soon", "someday", مرة: a wish with no time frame.
    case noTimeFrame
    /// "by", "before", قبل, لين in front of a day: a deadline, not the plan's day ("send it by Thursday").
    case deadline

    // Days.
    case relativeDay(Int)
    /// "tonight", الليلة: today, in the evening.
    case tonight
    /// 1 = Sunday ... 7 = Saturday.
    case weekday(Int)
    case month(Int)
    /// A Hijri month (9 = Ramadan, 10 = Shawwal): "١٦ رمضان".
    case hijriMonth(Int)
    /// "Sunday week", "الخميس اللي بعده", "after next": a week later than the plain weekday.
    case weekLater
    case next
    case this
    case last
    case week
    case weekend
    /// "next week" and other frames wider than a day.
    case vagueFrame
    case wholeDay
    /// A holiday on a fixed day of the year: "Boxing Day", "New Year's Eve".
    case fixedDate(month: Int, day: Int)
    /// "in" (in 3 days), بعد (بعد ٣ ايام) before a count of days.
    case dayUnit(Int)

    // Times of day.
    case partOfDay(PartOfDay)
    case prayer(PrayerAnchor)
    /// العشاء: the night prayer after بعد/قبل/صلاة, otherwise dinner.
    case ishaOrDinner
    /// "iftar", الفطور in Ramadan: the Maghrib adhan.
    case iftar
    case fridayPrayer
    case after
    case before
    case clockLead
    case meridiem(isPM: Bool)
    case oClock
    case halfPast
    case quarterPast
    case quarterTo
    case thirdPast
    case thirdTo
    /// UK "half 10" = 10:30.
    case halfBefore
    case approximately
    case rangeFrom
    case rangeTo
    case durationUnit(minutes: Int)
    /// ساعتين, "an hour", نص ساعة: a whole duration in one word.
    case duration(minutes: Int)
    case numberWord(Int)
    case sameTime
    case or
    case either

    // What and where.
    case activity(Activity)
    case locationLead
    /// "court", "terminal", "gate": the number after it is not a time.
    case numberLabel
    /// "people", "riyal", "km": the number before it is not a time.
    case quantityUnit
}

enum PartOfDay: Hashable, Sendable {
    case morning, noon, afternoon, evening, night

    var isPM: Bool { self != .morning }
}

/// A kind of get-together, with its title in both languages and the half of the day it
/// usually falls in (dinner at 8 is 20:00; breakfast at 8 is 08:00).
struct Activity: Hashable, Sendable {
    enum Bias: Hashable, Sendable {
        case morning, evening, none
        /// Suhoor: "at 2" is 02:00, "at 11" is 23:00.
        case smallHours
    }

    var english: String
    var arabic: String
    var bias: Bias
    /// Meals and outings name the plan better than a generic "meet".
    var weight: Int

    init(_ english: String, _ arabic: String, _ bias: Bias = .none, weight: Int = 2) {
        self.english = english
        self.arabic = arabic
        self.bias = bias
        self.weight = weight
    }
}
