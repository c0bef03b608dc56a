import Foundation
import ICalendar
import PrayerTimes

/// One day of a person's life as one list, in order: the events of every calendar they show
/// (their own, shared with them, subscribed), the time planned for to-dos, routines, the day's
/// prayer times, and the to-dos due that day — and, today, those overdue. What the Today screen
/// and `GET /api/v1/today` show.
///
/// Order: what has no time of its own on the day comes first (all-day events, events that began
/// on an earlier day, to-dos due on the day without a time, overdue to-dos), then everything
/// timed by its start (a to-do by its due time).
public struct DayAgenda: Sendable {
    let store: StoreAccess<any BusyTimeStore & CalendarViewStore>
    let clock: Clock
    let integrated: IntegratedCalendar
    let tasks: Tasks

    public init(store: any Store, clock: Clock, integrated: IntegratedCalendar, tasks: Tasks) {
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
        self.integrated = integrated
        self.tasks = tasks
    }

    public struct Entry: Sendable {
        public enum Kind: String, Sendable, Codable {
            case event, routine, taskTime = "task-time", prayer, todo
        }

        public var kind: Kind
        public var title: String?
        /// When it starts (a to-do: when it is due; nil for a to-do due on a day).
        public var start: Date?
        public var end: Date?
        /// Without a time of its own on this day: all-day, begun on an earlier day, or a to-do
        /// due on the day (or overdue).
        public var untimed: Bool
        public var isAllDay: Bool = false
        /// The calendar it is in; nil for a prayer (computed, not stored).
        public var calendar: CalendarCollection?
        public var objectName: String?
        /// The instance of a repeating event, as the integrated view names it.
        public var recurrenceID: String?
        public var location: String?
        public var isCancelled: Bool = false
        /// An event whose end is its start: a moment, shown as a marker.
        public var isDeadline: Bool = false
        public var eventColor: String?
        public var categories: [String] = []
        /// Open conflicts of this event instance (`/conflicts`).
        public var conflicts: [UUID] = []
        /// A prayer's name and whether it is Friday's Jumu'ah.
        public var prayer: Prayer?
        public var isJumuah: Bool = false
        /// A to-do as stored (ETag, status, due).
        public var todo: DueTodo?
        /// A to-do due before this day and not done.
        public var isOverdue: Bool = false
    }

    public struct Day: Sendable {
        public var date: LocalDate
        public var isToday: Bool
        /// Midnight to midnight in the person's zone.
        public var start: Date
        public var end: Date
        public var entries: [Entry]
        /// The person has no prayer settings: the list has no prayers.
        public var hasPrayerSettings: Bool
        /// More events than one read shows (`IntegratedCalendar.maxInstances`).
        public var truncated: Bool
    }

    /// The day `date` (today in the person's zone when nil).
    public func day(account: Account, date asked: LocalDate? = nil) async throws -> Day {
        let now = clock.now
        let rules = ZoneRules(ianaIdentifier: account.timeZone) ?? .utc
        let today = LocalDate(daysSinceEpoch: rules.local(forUTC: Int64(now.timeIntervalSince1970.rounded(.down))).date.daysSinceEpoch)
        let date = asked ?? today
        let start = Self.midnight(date, rules), end = Self.midnight(date.adding(days: 1), rules)
        let (instances, truncated) = try await integrated.instances(account: account, from: start, to: end, shownOnly: true)
        let (settings, conflicts, todos) = try await store.read { tx in
            (try await tx.prayerSettings(accountID: account.id), try await tx.conflicts(accountID: account.id, includeResolved: false),
             try await Tasks.dueTodos(account: account, tx: tx, parse: tasks.parse))
        }
        let marks = ConflictMarks(conflicts, now: now)
        // The read is generous at the edges (a date is placed in the person's zone only now): an
        // all-day event that ended at this midnight is not on this day.
        let onDay = instances.filter { $0.start < end && ($0.end > start || ($0.end == $0.start && $0.start >= start)) }
        var entries: [Entry] = onDay.map { instance in
            let occurrence = instance.occurrence
            let kind: Entry.Kind = switch instance.calendar.slug {
            case DefaultCalendars.routinesSlug: .routine
            case DefaultCalendars.plannedTasksSlug: .taskTime
            default: .event
            }
            return Entry(
                kind: kind, title: occurrence.summary, start: instance.start, end: instance.end,
                untimed: occurrence.isAllDay || instance.start < start, isAllDay: occurrence.isAllDay, calendar: instance.calendar,
                objectName: instance.objectName, recurrenceID: occurrence.recurrenceId?.iso8601, location: occurrence.component.first("LOCATION")?.text,
                isCancelled: occurrence.isCancelled, isDeadline: !occurrence.isAllDay && instance.start == instance.end,
                eventColor: EventColor.of(occurrence.component), categories: ItemCategories.of(occurrence.component),
                conflicts: marks.conflicts(of: instance))
        }
        if let settings { entries += Self.prayers(settings, language: account.language, from: start, to: end) }
        for todo in todos where !todo.isCancelled {
            let dueOnDay = todo.dueDay == date
            // Today also lists what is overdue and what was done today (so a to-do just marked
            // done stays where it was, struck through, and can be marked back).
            let overdue = date == today && todo.dueDay < date && !todo.isDone
            let doneToday = date == today && todo.dueDay < date && todo.isDone && (todo.completedAt.map { $0 >= start && $0 < end } ?? false)
            guard dueOnDay || overdue || doneToday else { continue }
            entries.append(Entry(
                kind: .todo, title: todo.task.todo.title, start: todo.dueIsDate || !dueOnDay ? nil : todo.due, end: nil,
                untimed: todo.dueIsDate || !dueOnDay, calendar: todo.calendar, objectName: todo.task.object.name,
                categories: ItemCategories.of(todo.task.todo.source), todo: todo, isOverdue: overdue))
        }
        entries.sort(by: Self.order)
        return Day(date: date, isToday: date == today, start: start, end: end, entries: entries, hasPrayerSettings: settings != nil, truncated: truncated)
    }

    /// Untimed first (overdue to-dos before the day's own), then by start; ties by kind
    /// (a prayer before what starts with it) and title.
    static func order(_ a: Entry, _ b: Entry) -> Bool {
        func rank(_ entry: Entry) -> Int {
            switch entry.kind {
            case .prayer: 0
            case .event: 1
            case .routine: 2
            case .taskTime: 3
            case .todo: entry.isOverdue ? -1 : 4
            }
        }
        if a.untimed != b.untimed { return a.untimed }
        let (sa, sb) = (a.untimed ? .distantPast : a.start ?? .distantPast, b.untimed ? .distantPast : b.start ?? .distantPast)
        if sa != sb { return sa < sb }
        if rank(a) != rank(b) { return rank(a) < rank(b) }
        return (a.title ?? "", a.objectName ?? "") < (b.title ?? "", b.objectName ?? "")
    }

    /// The five prayers whose adhan falls in `[from, to)`: the place may keep another zone than
    /// the person, so its days either side are asked too. A prayer the high-latitude rule leaves
    /// without a time is not listed.
    static func prayers(_ settings: PrayerSettings, language: Language, from: Date, to: Date) -> [Entry] {
        let names = PrayerCalendar(settings: settings, language: language)
        let rules = ZoneRules(ianaIdentifier: settings.timeZone) ?? .utc
        let first = LocalDate(daysSinceEpoch: rules.local(forUTC: Int64(from.timeIntervalSince1970)).date.daysSinceEpoch).adding(days: -1)
        guard let schedules = try? settings.calculator().schedules(from: first, through: first.adding(days: 3)) else { return [] }
        var entries: [Entry] = []
        for schedule in schedules {
            for prayer in PrayerCalendar.blocking {
                guard let time = schedule[prayer].date, time >= from, time < to else { continue }
                let jumuah = schedule.date.weekday == 5 && prayer == .dhuhr
                entries.append(Entry(
                    kind: .prayer, title: names.title(prayer, jumuah: jumuah), start: time, end: time, untimed: false, prayer: prayer, isJumuah: jumuah))
            }
        }
        return entries
    }

    static func midnight(_ date: LocalDate, _ rules: ZoneRules) -> Date {
        // A day whose midnight a clock change skips starts at the first instant it has.
        let civil = CivilDate(daysSinceEpoch: date.daysSinceEpoch)
        return Date(timeIntervalSince1970: TimeInterval(rules.utcSeconds(for: LocalDateTime(date: civil))))
    }
}
