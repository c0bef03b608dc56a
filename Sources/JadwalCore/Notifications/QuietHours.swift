import Foundation
import Scheduling

/// When a non-urgent notification may go out: not while the person sleeps or prays (as they
/// chose in their notification settings), but right after.
public enum QuietHours {
    /// How far ahead quiet stretches are looked for; nothing holds a notification longer.
    static let lookahead: TimeInterval = 2 * 86_400

    /// `now`, or the end of the quiet stretch `now` falls in (stretches that touch or overlap
    /// count as one: Isha running into sleep holds until morning).
    public static func deliveryTime(now: Date, account: Account, settings: NotificationSettings, tx: any CalendarStore & ConflictStore & GoalStore & PrayerSettingsStore) async throws -> Date {
        guard settings.quietDuringSleep || settings.quietDuringPrayer,
              let window = try? TimeRange(start: now.addingTimeInterval(-86_400), end: now.addingTimeInterval(lookahead))
        else { return now }
        var quiet: [TimeRange] = []
        if settings.quietDuringSleep {
            let availability = try await AccountAvailability.availability(for: account, tx: tx)
            quiet += availability.asleep.flatMap { $0.occurrences(in: window, timeZone: availability.timeZone) }
        }
        if settings.quietDuringPrayer, let prayer = try await tx.prayerSettings(accountID: account.id) {
            quiet += AccountBusyTime.prayerBlocks(settings: prayer, language: account.language, in: window).map(\.range)
        }
        return end(of: now, quiet: quiet)
    }

    /// `now` moved past every range that holds it, repeatedly (a range may start where the last ended).
    static func end(of now: Date, quiet: [TimeRange]) -> Date {
        var time = now
        let sorted = quiet.sorted { $0.start < $1.start }
        var moved = true
        while moved {
            moved = false
            for range in sorted where range.start <= time && time < range.end {
                time = range.end
                moved = true
            }
        }
        return time
    }
}
