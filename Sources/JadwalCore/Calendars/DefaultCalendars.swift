import Foundation

/// The colours of the calendars Jadwal makes itself, one per calendar. They stay apart for
/// people with red-green colour blindness too: under simulated protanopia and deuteranopia
/// (Machado et al. 2009) every two differ by at least 10 in CIEDE2000 (`CalendarPaletteTests`),
/// as in the Okabe–Ito palette most of them come from. The web app never relies on colour alone:
/// every chip also names its calendar.
public enum CalendarPalette {
    public static let personal = "#0B6E4FFF"
    public static let chatEvents = "#56B4E9FF"
    public static let tasks = "#E69F00FF"
    public static let routines = "#CC79A7FF"
    public static let plannedTasks = "#D55E00FF"
    public static let goals = "#3A3A3AFF"
    public static let prayerTimes = "#1D4E89FF"

    public static let all = [personal, chatEvents, tasks, routines, plannedTasks, goals, prayerTimes]
}

/// The calendars every account starts with: a personal calendar, the one chat extraction adds
/// agreed events to, and a task list (VTODO) that iOS Reminders shows.
public enum DefaultCalendars {
    public static let personalSlug = "personal"
    public static let chatEventsSlug = "whatsapp-events"
    public static let tasksSlug = "tasks"
    /// Made when the first routine is saved: each routine is one recurring event in it.
    public static let routinesSlug = "routines"
    /// Made when tasks are first planned: the time blocks "Plan my tasks" places, each linked
    /// to its to-do with RELATED-TO.
    public static let plannedTasksSlug = "planned-tasks"

    public static func make(for account: Account, now: Date, random: RandomSource) -> [CalendarCollection] {
        let arabic = account.language == .arabic
        return [
            CalendarCollection(
                id: random.uuid(), accountID: account.id, slug: personalSlug, displayName: arabic ? "شخصي" : "Personal",
                color: CalendarPalette.personal, order: 0, timeZone: account.timeZone, components: [.event], createdAt: now
            ),
            CalendarCollection(
                id: random.uuid(), accountID: account.id, slug: chatEventsSlug, displayName: arabic ? "فعاليات واتساب" : "WhatsApp Events",
                description: arabic ? "مواعيد اتُّفق عليها في المحادثات" : "Events agreed in chats, added by Jadwal",
                color: CalendarPalette.chatEvents, order: 1, timeZone: account.timeZone, components: [.event], createdAt: now
            ),
            CalendarCollection(
                id: random.uuid(), accountID: account.id, slug: tasksSlug, displayName: arabic ? "المهام" : "Tasks",
                color: CalendarPalette.tasks, order: 2, timeZone: account.timeZone, components: [.todo], createdAt: now
            ),
        ]
    }

    /// Where invitations land (RFC 6638 §9.2's schedule-default-calendar-URL): the Personal
    /// calendar, else the first of the person's own that holds events and is theirs to write
    /// (not a subscription or a mirror of another server); nil when there is none.
    public static func invitationCalendar(among calendars: [CalendarCollection]) -> CalendarCollection? {
        let writable = calendars.filter { $0.components.contains(.event) && !$0.isSubscribed && !$0.isMirrored && !$0.isComputed && $0.sharing == nil }
        return writable.first { $0.slug == personalSlug } ?? writable.first
    }

    /// The calendar that holds the account's daily routines.
    public static func routines(for account: Account, now: Date, random: RandomSource) -> CalendarCollection {
        let arabic = account.language == .arabic
        return CalendarCollection(
            id: random.uuid(), accountID: account.id, slug: routinesSlug, displayName: arabic ? "الروتين" : "Routine",
            description: arabic ? "الروتين اليومي، يديره جدول" : "Daily routines, kept by Jadwal",
            color: CalendarPalette.routines, order: 3, timeZone: account.timeZone, components: [.event], createdAt: now)
    }

    /// The calendar that holds the time planned for to-dos.
    public static func plannedTasks(for account: Account, now: Date, random: RandomSource) -> CalendarCollection {
        let arabic = account.language == .arabic
        return CalendarCollection(
            id: random.uuid(), accountID: account.id, slug: plannedTasksSlug, displayName: arabic ? "وقت المهام" : "Task Time",
            description: arabic ? "أوقات خطّطها جدول لإنجاز المهام" : "Time Jadwal planned for your to-dos",
            color: CalendarPalette.plannedTasks, order: 4, timeZone: account.timeZone, components: [.event], createdAt: now)
    }
}

/// A feature's own calendar was found under its slug but holds no events (the person made a
/// task list with that name): Jadwal will not write events into it.
public struct CalendarSlugTaken: Error, Sendable, Equatable, CustomStringConvertible {
    public let slug: String
    public var description: String {
        "the calendar '\(slug)' exists but does not hold events; rename or delete it so Jadwal can make its own"
    }
}

extension CalendarStore {
    /// The account's event calendar under `calendar.slug`, inserted from `calendar` when there is
    /// none yet (accounts made before a feature existed do not have its calendar, and a person may
    /// delete it; it comes back when next needed).
    public func eventCalendar(_ calendar: CalendarCollection) async throws -> CalendarCollection {
        if let existing = try await self.calendar(accountID: calendar.accountID, slug: calendar.slug) {
            guard existing.components.contains(.event) else { throw CalendarSlugTaken(slug: calendar.slug) }
            return existing
        }
        try await insertCalendar(calendar)
        return calendar
    }
}

extension AccountStore where Self: CalendarStore {
    /// Creates the account with its default calendars, in the caller's transaction.
    public func insertAccountWithDefaultCalendars(_ account: Account, now: Date, random: RandomSource) async throws {
        try await insertAccount(account)
        for calendar in DefaultCalendars.make(for: account, now: now, random: random) {
            try await insertCalendar(calendar)
        }
    }
}
