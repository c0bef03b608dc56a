import Foundation
import Scheduling

/// When a person may be offered time (a suggested slot, a planned task): awake, within working
/// hours when they set any, in their own zone.
public enum AccountAvailability {
    /// Nights are kept free until the person saves a sleep routine: 23:00–07:00.
    public static let defaultSleep = try? WeeklyHours(start: TimeOfDay(hour: 23), end: TimeOfDay(hour: 7), days: .daily)

    /// Asleep during the sleep routines (else the night the questionnaire gave, else
    /// ``defaultSleep``); within the working hours of the conflict settings (else the
    /// questionnaire's work or study hours) when set. Routine hours are read in the person's
    /// zone, which is where they live them.
    public static func availability(for account: Account, tx: any CalendarStore & ConflictStore & GoalStore) async throws -> Availability {
        let zone = TimeZone(identifier: account.timeZone) ?? .gmt
        let sleep = try await RoutineCalendar.sleepHours(account: account, tx: tx)
        let settings = try await tx.conflictSettings(accountID: account.id)
        // An answer that no longer reads (never stored so; a changed rule) is a skipped one.
        let answers = try? (try await tx.plannerAnswers(accountID: account.id)).checked()
        let asleep = !sleep.isEmpty ? sleep : (answers?.night ?? defaultSleep).map { [$0] } ?? []
        return Availability(timeZone: zone, asleep: asleep, working: (settings.workingHours ?? answers?.work).map { [$0] } ?? [])
    }
}
