import Foundation

/// The calendars every account starts with: a personal calendar, the one chat extraction adds
/// agreed events to, and a task list (VTODO) that iOS Reminders shows.
public enum DefaultCalendars {
    public static let personalSlug = "personal"
    public static let chatEventsSlug = "whatsapp-events"
    public static let tasksSlug = "tasks"

    public static func make(for account: Account, now: Date) -> [CalendarCollection] {
        let arabic = account.language == .arabic
        return [
            CalendarCollection(
                id: UUID(), accountID: account.id, slug: personalSlug, displayName: arabic ? "شخصي" : "Personal",
                color: "#0B6E4FFF", order: 0, timeZone: account.timeZone, components: [.event], createdAt: now
            ),
            CalendarCollection(
                id: UUID(), accountID: account.id, slug: chatEventsSlug, displayName: arabic ? "فعاليات واتساب" : "WhatsApp Events",
                description: arabic ? "مواعيد اتُّفق عليها في المحادثات" : "Events agreed in chats, added by Jadwal",
                color: "#25D366FF", order: 1, timeZone: account.timeZone, components: [.event], createdAt: now
            ),
            CalendarCollection(
                id: UUID(), accountID: account.id, slug: tasksSlug, displayName: arabic ? "المهام" : "Tasks",
                color: "#F4A261FF", order: 2, timeZone: account.timeZone, components: [.todo], createdAt: now
            ),
        ]
    }
}

extension AccountStore where Self: CalendarStore {
    /// Creates the account with its default calendars, in the caller's transaction.
    public func insertAccountWithDefaultCalendars(_ account: Account, now: Date) async throws {
        try await insertAccount(account)
        for calendar in DefaultCalendars.make(for: account, now: now) {
            try await insertCalendar(calendar)
        }
    }
}
