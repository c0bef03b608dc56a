import Conversations
import Foundation
import PrayerTimes

/// The extractor's view of a person's prayer times: the adhan computed from their stored prayer
/// settings, told on the conversation's wall clock. Without settings no adhan is known, and
/// prayer-relative plans stay without a time.
public struct AccountPrayerTimetable: PrayerTimetable {
    let calculator: PrayerCalculator?
    /// The conversation's zone, which may differ from the place the prayers are computed for.
    let zone: TimeZone

    public init(settings: PrayerSettings?, conversationZone: TimeZone) {
        calculator = try? settings?.calculator()
        zone = conversationZone
    }

    public func adhan(_ prayer: PrayerAnchor, on day: Conversations.LocalDateTime) -> (hour: Int, minute: Int)? {
        guard let calculator, let date = try? LocalDate(year: day.year, month: day.month, day: day.day) else { return nil }
        guard let instant = calculator.schedule(for: date)[Self.prayer(prayer)].date else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.hour, .minute], from: instant)
        guard let hour = parts.hour, let minute = parts.minute else { return nil }
        return (hour, minute)
    }

    public func isRamadan(_ day: Conversations.LocalDateTime) -> Bool {
        guard let date = try? LocalDate(year: day.year, month: day.month, day: day.day) else { return false }
        return HijriDate(gregorian: date)?.isRamadan ?? false
    }

    static func prayer(_ anchor: PrayerAnchor) -> Prayer {
        switch anchor {
        case .fajr: .fajr
        case .dhuhr: .dhuhr
        case .asr: .asr
        case .maghrib: .maghrib
        case .isha: .isha
        }
    }
}
