import CivilTime
import Foundation

extension LocalDateTime {
    /// Midnight (or `hour`:`minute`) of the day `days` after 1970-01-01.
    init(daysSinceEpoch days: Int, hour: Int = 0, minute: Int = 0) {
        let (year, month, day) = CivilDays.date(since1970: days)
        // Every day number names a real date; the fallback only keeps the initializer total.
        self = LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute)
            ?? LocalDateTime(year: 1970, month: 1, day: 1)!
    }

    /// The wall-clock time of an instant in a zone.
    init(_ instant: Date, in zone: TimeZone) {
        let seconds = Int(instant.timeIntervalSince1970.rounded(.down)) + zone.secondsFromGMT(for: instant)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = seconds - days * 86_400
        self.init(daysSinceEpoch: days, hour: rest / 3_600, minute: rest % 3_600 / 60)
    }

    /// 1 = Sunday ... 7 = Saturday (1970-01-01 was a Thursday).
    var weekday: Int {
        let days = daysSinceEpoch
        return ((days + 4) % 7 + 7) % 7 + 1
    }

    /// The date alone, at midnight.
    var midnight: LocalDateTime { LocalDateTime(daysSinceEpoch: daysSinceEpoch) }

    func adding(days: Int) -> LocalDateTime {
        LocalDateTime(daysSinceEpoch: daysSinceEpoch + days, hour: hour, minute: minute)
    }

    func at(hour: Int, minute: Int) -> LocalDateTime {
        LocalDateTime(daysSinceEpoch: daysSinceEpoch, hour: hour, minute: minute)
    }

    func adding(minutes: Int) -> LocalDateTime {
        let total = hour * 60 + minute + minutes
        let dayShift = total >= 0 ? total / 1_440 : (total - 1_439) / 1_440
        let rest = total - dayShift * 1_440
        return LocalDateTime(daysSinceEpoch: daysSinceEpoch + dayShift, hour: rest / 60, minute: rest % 60)
    }
}
