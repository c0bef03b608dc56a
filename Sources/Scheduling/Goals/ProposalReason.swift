import Foundation

/// Why a proposal sits where it does, as values: the app can word it as it likes, and
/// ``sentence(in:)`` words it once in English or Arabic:
/// "Tuesday 06:30 — you prefer mornings; Fajr is at 05:02; free until 08:00" /
/// "الثلاثاء 06:30 — وقتك المفضّل: الصباح؛ صلاة الفجر الساعة 05:02؛ متاح حتى 08:00".
public struct ProposalReason: Sendable, Hashable, Codable {
    /// The local day of the start, 1 = Monday … 7 = Sunday.
    public let isoWeekday: Int
    /// The local clock reading of the start.
    public let start: TimeOfDay
    /// What made the place, most telling first.
    public let factors: [ReasonFactor]

    public init(isoWeekday: Int, start: TimeOfDay, factors: [ReasonFactor]) {
        self.isoWeekday = isoWeekday
        self.start = start
        self.factors = factors
    }

    /// "Tuesday 06:30 — you prefer mornings; Fajr is at 05:02; free until 08:00".
    public func sentence(in language: ReasonLanguage) -> String {
        let day = ReasonLanguage.weekday(isoWeekday, language)
        let head = "\(day) \(start)"
        guard !factors.isEmpty else { return head }
        let separator = language == .english ? "; " : "؛ "
        return head + " — " + factors.map { $0.phrase(in: language) }.joined(separator: separator)
    }
}

/// The languages reasons are worded in.
public enum ReasonLanguage: String, Sendable, Hashable, Codable, CaseIterable {
    case english, arabic

    static func weekday(_ isoWeekday: Int, _ language: ReasonLanguage) -> String {
        let index = SlotExplanation.weekdayIndex(isoWeekday)
        return language == .english ? SlotExplanation.englishWeekdays[index] : SlotExplanation.arabicWeekdays[index]
    }
}

/// One thing that placed a proposal.
public enum ReasonFactor: Sendable, Hashable, Codable {
    /// The learned preference: the person accepted, or moved sessions to, this part of this
    /// weekday before ("you accepted Tuesday mornings before").
    case learned(LearnedSignal, isoWeekday: Int, part: DayPart)
    /// A stated preference for this part of the day ("you prefer mornings").
    case preferredTime(DayPart, source: PreferenceSource)
    /// The nearest prayer on the same local day, by its start ("Fajr is at 05:02").
    case prayer(PrayerName, at: TimeOfDay)
    /// Nothing else is planned until then on the same day ("free until 08:00").
    case freeUntil(TimeOfDay)
    /// Days since the goal's previous session, when it spreads the week ("2 days after the last session").
    case daysSinceLastSession(Int)
    /// A to-do's due date ("due Thursday 17:00").
    case due(isoWeekday: Int, at: TimeOfDay)
    /// A to-do without a due date.
    case noDueDate
    /// A to-do goes as early as it fits, as "Plan my tasks" places it.
    case earliestFreeTime
    /// A long to-do split in parts ("part 2 of 3").
    case part(Int, of: Int)
    /// The nights that were shorter than the sleep goal ("you slept under 7 h 30 the last 3 nights").
    case sleptUnder(minutes: Int, nights: Int)
    /// When the block ends and sleep should begin ("to be asleep by 23:00").
    case asleepBy(TimeOfDay)

    /// The factor as a phrase of a reason sentence.
    public func phrase(in language: ReasonLanguage) -> String {
        language == .english ? english : arabic
    }

    private var english: String {
        switch self {
        case .learned(.accepted, let weekday, let part):
            "you accepted \(ReasonLanguage.weekday(weekday, .english)) \(part.englishPlural) before"
        case .learned(.movedHere, let weekday, let part):
            "you moved sessions to \(ReasonLanguage.weekday(weekday, .english)) \(part.englishPlural) before"
        case .preferredTime(let part, .questionnaire): "you prefer \(part.englishPlural)"
        case .preferredTime(let part, .goal): "you chose \(part.englishPlural) for this goal"
        case .prayer(let name, let time): "\(name.englishName) is at \(time)"
        case .freeUntil(let time): "free until \(time)"
        case .daysSinceLastSession(let days): "\(days) day\(days == 1 ? "" : "s") after the last session"
        case .due(let weekday, let time): "due \(ReasonLanguage.weekday(weekday, .english)) \(time)"
        case .noDueDate: "no due date"
        case .earliestFreeTime: "the earliest free time"
        case .part(let index, let count): "part \(index) of \(count)"
        case .sleptUnder(let minutes, let nights): "you slept under \(Self.duration(minutes, .english)) the last \(nights) nights"
        case .asleepBy(let time): "to be asleep by \(time)"
        }
    }

    /// "7 h 30" / "7 س 30 د"; whole hours without minutes.
    static func duration(_ minutes: Int, _ language: ReasonLanguage) -> String {
        let hours = minutes / 60, rest = minutes % 60
        switch language {
        case .english: return rest == 0 ? "\(hours) h" : hours == 0 ? "\(rest) min" : "\(hours) h \(rest)"
        case .arabic: return rest == 0 ? "\(hours) س" : hours == 0 ? "\(rest) د" : "\(hours) س \(rest) د"
        }
    }

    // Arabic phrases avoid gendered second-person forms where the written word would show them:
    // "قبلت" without vowel marks reads for a man or a woman alike.
    private var arabic: String {
        switch self {
        case .learned(.accepted, let weekday, let part):
            "قبلت مواعيد \(part.arabic(on: weekday)) من قبل"
        case .learned(.movedHere, let weekday, let part):
            "نقلت جلسات إلى \(part.arabic(on: weekday)) من قبل"
        case .preferredTime(let part, .questionnaire): "وقتك المفضّل: \(part.arabicName)"
        case .preferredTime(let part, .goal): "اخترت \(part.arabicName) لهذا الهدف"
        case .prayer(let name, let time): "صلاة \(name.arabicName) الساعة \(time)"
        case .freeUntil(let time): "متاح حتى \(time)"
        case .daysSinceLastSession(let days): "بعد \(Self.arabicDays(days)) من الجلسة السابقة"
        case .due(let weekday, let time): "موعده النهائي \(ReasonLanguage.weekday(weekday, .arabic)) \(time)"
        case .noDueDate: "بلا موعد نهائي"
        case .earliestFreeTime: "أقرب وقت متاح"
        case .part(let index, let count): "الجزء \(index) من \(count)"
        case .sleptUnder(let minutes, let nights): "نمت أقل من \(Self.duration(minutes, .arabic)) في آخر \(Self.arabicNights(nights))"
        case .asleepBy(let time): "للنوم بحلول \(time)"
        }
    }

    /// "ليلة", "ليلتين", "3 ليالٍ", "11 ليلة".
    public static func arabicNights(_ n: Int) -> String {
        switch n {
        case 1: "ليلة"
        case 2: "ليلتين"
        case 3...10: "\(n) ليالٍ"
        default: "\(n) ليلة"
        }
    }

    /// "يوم", "يومين", "3 أيام", "11 يومًا": the counted noun agrees with its number.
    public static func arabicDays(_ n: Int) -> String {
        switch n {
        case 1: "يوم"
        case 2: "يومين"
        case 3...10: "\(n) أيام"
        default: "\(n) يومًا"
        }
    }
}

/// What the person did that taught the planner a time is good.
public enum LearnedSignal: String, Sendable, Hashable, Codable {
    case accepted
    case movedHere
}

extension DayPart {
    var englishPlural: String {
        switch self {
        case .morning: "mornings"
        case .afternoon: "afternoons"
        case .evening: "evenings"
        case .night: "nights"
        }
    }

    var arabicName: String {
        switch self {
        case .morning: "الصباح"
        case .afternoon: "بعد الظهر"
        case .evening: "المساء"
        case .night: "الليل"
        }
    }

    /// "صباح الثلاثاء", "مساء الثلاثاء"; the night as "الثلاثاء ليلًا", because "ليلة الثلاثاء"
    /// is the night *before* Tuesday.
    func arabic(on isoWeekday: Int) -> String {
        let day = ReasonLanguage.weekday(isoWeekday, .arabic)
        switch self {
        case .morning: return "صباح \(day)"
        case .afternoon: return "بعد ظهر \(day)"
        case .evening: return "مساء \(day)"
        case .night: return "\(day) ليلًا"
        }
    }
}

extension PrayerName: Codable {}
