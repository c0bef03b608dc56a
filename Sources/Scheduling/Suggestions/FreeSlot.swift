import Foundation

/// A free stretch offered for an event, and why it was chosen.
public struct FreeSlot: Sendable, Hashable, CustomStringConvertible {
    public let range: TimeRange
    public let explanation: SlotExplanation

    public init(range: TimeRange, explanation: SlotExplanation) {
        self.range = range
        self.explanation = explanation
    }

    public var description: String { "\(range) (\(explanation))" }
}

/// Where a suggested slot sits relative to the original time and the day's prayers, as values,
/// so that an app can word it as it likes; ``description`` and ``arabicDescription`` word it
/// once ("same day, 30 min later, after Asr" / "في اليوم نفسه، متأخرًا 30 دقيقة، بعد صلاة العصر").
public struct SlotExplanation: Sendable, Hashable, CustomStringConvertible {
    /// Which local day, relative to the original's.
    public enum Day: Sendable, Hashable {
        case sameDay
        case nextDay
        /// Two or more days after the original's day.
        case later(days: Int, isoWeekday: Int)
    }

    /// A prayer next to the slot on the same day.
    public enum PrayerNeighbour: Sendable, Hashable {
        /// The slot starts after this prayer's block ends.
        case after(PrayerName)
        /// The slot ends before this prayer's block starts.
        case before(PrayerName)
    }

    public let day: Day
    /// Seconds from the original's clock time on the slot's day to the slot's start: 0 is the
    /// same time, positive later, negative earlier. On the same day that is the original start
    /// itself; on another day, the same clock reading there ("next day, same time").
    public let offset: TimeInterval
    /// The nearer of the prayer just before the slot and the one just after it, on the slot's
    /// local day; nil when that day has no prayer blocks.
    public let prayer: PrayerNeighbour?

    public init(day: Day, offset: TimeInterval, prayer: PrayerNeighbour?) {
        self.day = day
        self.offset = offset
        self.prayer = prayer
    }

    /// English: "same day, 30 min later, after Asr"; "next day, same time"; "Tuesday, 1 h 15 min earlier, before Maghrib".
    public var description: String {
        var parts: [String] = []
        switch day {
        case .sameDay: parts.append("same day")
        case .nextDay: parts.append("next day")
        case .later(_, let weekday): parts.append(Self.englishWeekdays[Self.weekdayIndex(weekday)])
        }
        let minutes = Self.roundedMinutes(offset)
        if minutes == 0 {
            parts.append("same time")
        } else {
            parts.append("\(Self.englishLength(abs(minutes))) \(minutes > 0 ? "later" : "earlier")")
        }
        switch prayer {
        case .after(let name): parts.append("after \(name.englishName)")
        case .before(let name): parts.append("before \(name.englishName)")
        case nil: break
        }
        return parts.joined(separator: ", ")
    }

    /// Arabic: "في اليوم نفسه، متأخرًا 30 دقيقة، بعد صلاة العصر". Numbers in Western digits, as
    /// times are shown elsewhere in the app.
    public var arabicDescription: String {
        var parts: [String] = []
        switch day {
        case .sameDay: parts.append("في اليوم نفسه")
        case .nextDay: parts.append("في اليوم التالي")
        case .later(_, let weekday): parts.append("يوم " + Self.arabicWeekdays[Self.weekdayIndex(weekday)])
        }
        let minutes = Self.roundedMinutes(offset)
        if minutes == 0 {
            parts.append("في الموعد نفسه")
        } else {
            parts.append("\(minutes > 0 ? "متأخرًا" : "مبكرًا") \(Self.arabicLength(abs(minutes)))")
        }
        switch prayer {
        case .after(let name): parts.append("بعد صلاة \(name.arabicName)")
        case .before(let name): parts.append("قبل صلاة \(name.arabicName)")
        case nil: break
        }
        return parts.joined(separator: "، ")
    }

    static let englishWeekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    static let arabicWeekdays = ["الاثنين", "الثلاثاء", "الأربعاء", "الخميس", "الجمعة", "السبت", "الأحد"]

    /// 0 for Monday … 6 for Sunday; any number is brought into the week rather than trap.
    static func weekdayIndex(_ isoWeekday: Int) -> Int { ((isoWeekday - 1) % 7 + 7) % 7 }

    static func roundedMinutes(_ seconds: TimeInterval) -> Int {
        Int((seconds / 60).rounded())
    }

    /// "45 min", "1 h", "2 h 30 min".
    static func englishLength(_ minutes: Int) -> String {
        let hours = minutes / 60, rest = minutes % 60
        switch (hours, rest) {
        case (0, _): return "\(rest) min"
        case (_, 0): return "\(hours) h"
        default: return "\(hours) h \(rest) min"
        }
    }

    /// "30 دقيقة", "ساعة", "ساعتين و15 دقيقة": the counted noun agrees with its number as Arabic
    /// requires (singular for 1 and 11+, dual for 2, plural for 3–10), in the accusative that
    /// follows "متأخرًا"/"مبكرًا".
    static func arabicLength(_ minutes: Int) -> String {
        let hours = minutes / 60, rest = minutes % 60
        let hourText = counted(hours, one: "ساعة", two: "ساعتين", few: "ساعات", many: "ساعة")
        let minuteText = counted(rest, one: "دقيقة", two: "دقيقتين", few: "دقائق", many: "دقيقة")
        switch (hours, rest) {
        case (0, _): return minuteText
        case (_, 0): return hourText
        default: return hourText + " و" + minuteText
        }
    }

    private static func counted(_ n: Int, one: String, two: String, few: String, many: String) -> String {
        switch n {
        case 1: one
        case 2: two
        case 3...10: "\(n) \(few)"
        default: "\(n) \(many)"
        }
    }
}
