import Foundation
import ICalendar
import Scheduling

/// A to-do as stored: the object (name, ETag) and its main VTODO read through `Todo`.
public struct StoredTask: Sendable {
    public let object: CalendarObject
    public let todo: Todo
    /// When it is due (``TaskDue/instant(_:resolver:zone:)``); nil for an undated to-do.
    public let due: Date?
    /// CREATED, else DTSTAMP; nil when neither can be read.
    public let created: Date?

    /// Reads the object's main VTODO; nil when it holds none that can be read. DATE and
    /// floating values are read in `zone`.
    public init?(object: CalendarObject, parsed: Component?, zone: ZoneRules) {
        guard let parsed, object.component == .todo,
              let main = parsed.master("VTODO"),
              let todo = try? Todo(component: main)
        else { return nil }
        self.object = object
        self.todo = todo
        due = todo.due.flatMap { TaskDue.instant($0, resolver: TimeZoneResolver(calendar: parsed), zone: zone) }
        let stamp = todo.created ?? (try? main.first("DTSTAMP")?.dateValue())
        created = stamp.flatMap { TaskDue.seconds($0, resolver: TimeZoneResolver(), floating: zone) }
            .map { Date(timeIntervalSince1970: TimeInterval($0)) }
    }
}

/// The account's task list — the "Tasks" calendar iOS Reminders shows — and the orders and
/// filters the API lists it in.
public enum TaskList {
    /// Which to-dos to list.
    public enum Filter: String, Sendable, CaseIterable {
        /// Needs action or in process.
        case open
        case completed
        /// Every one, cancelled included.
        case all

        public func includes(_ todo: Todo) -> Bool {
            switch self {
            case .open: todo.isOpen
            case .completed: todo.effectiveStatus == .completed
            case .all: true
            }
        }
    }

    public enum Order: String, Sendable, CaseIterable {
        /// 1 first, 9 last, undefined (0 or none) after 9; ties by due date, then oldest first.
        case priority
        /// Earliest first, undated last; ties by priority, then oldest first.
        case due
        /// Newest first.
        case created

        public func sorted(_ tasks: [StoredTask]) -> [StoredTask] {
            func rank(_ task: StoredTask) -> Int {
                guard let priority = task.todo.priority, priority != 0 else { return 10 }
                return priority
            }
            func due(_ task: StoredTask) -> Date { task.due ?? .distantFuture }
            func created(_ task: StoredTask) -> Date { task.created ?? .distantPast }
            return tasks.sorted { a, b in
                switch self {
                case .priority:
                    if rank(a) != rank(b) { return rank(a) < rank(b) }
                    if due(a) != due(b) { return due(a) < due(b) }
                    if created(a) != created(b) { return created(a) < created(b) }
                case .due:
                    if due(a) != due(b) { return due(a) < due(b) }
                    if rank(a) != rank(b) { return rank(a) < rank(b) }
                    if created(a) != created(b) { return created(a) < created(b) }
                case .created:
                    if created(a) != created(b) { return created(a) > created(b) }
                }
                return a.object.name < b.object.name
            }
        }
    }

    /// Refused when the account has no task list and its slug is taken by an event calendar.
    public struct Missing: Error, Sendable, CustomStringConvertible {
        public init() {}

        public var description: String {
            "there is no task list: the calendar '\(DefaultCalendars.tasksSlug)' holds no to-dos; rename or delete it so Jadwal can make one"
        }
    }

    /// The account's task list: the "Tasks" calendar, else the first calendar that holds to-dos.
    /// With `creating`, one is made when there is none (a person may have deleted it).
    public static func calendar(for account: Account, creating: Bool, now: Date, random: RandomSource, tx: any CalendarStore) async throws -> CalendarCollection? {
        if let tasks = try await tx.calendar(accountID: account.id, slug: DefaultCalendars.tasksSlug), tasks.components.contains(.todo) {
            return tasks
        }
        let calendars = try await tx.calendars(accountID: account.id)
        if let other = calendars.filter({ $0.components.contains(.todo) }).min(by: { ($0.order ?? .max) < ($1.order ?? .max) }) { return other }
        guard creating else { return nil }
        guard !calendars.contains(where: { $0.slug == DefaultCalendars.tasksSlug }),
              let made = DefaultCalendars.make(for: account, now: now, random: random).first(where: { $0.slug == DefaultCalendars.tasksSlug })
        else { throw Missing() }
        try await tx.insertCalendar(made)
        return made
    }

    /// Every readable to-do in `calendar`. Dates and floating times are the person's: their zone
    /// now, not the calendar's, which was fixed when it was made (with the account, often
    /// before the person set their zone).
    public static func tasks(in calendar: CalendarCollection, account: Account, tx: any CalendarStore,
                             parse: AccountBusyTime.Parse = { try? ICalendarParser().parseCalendar($0.icalendar) }) async throws -> [StoredTask] {
        let zone = ZoneRules(ianaIdentifier: account.timeZone) ?? .utc
        return try await tx.calendarObjects(calendarID: calendar.id).compactMap { object in
            StoredTask(object: object, parsed: parse(object), zone: zone)
        }
    }
}

/// An event of the Task Time calendar that holds time for a to-do (its RELATED-TO).
public struct PlannedTaskBlock: Sendable, Hashable {
    /// The event's object name in Task Time.
    public let name: String
    /// The to-do's UID.
    public let taskUID: String
    public let title: String
    public let range: TimeRange

    /// Every block in the account's Task Time calendar (none when it was never made). An event
    /// a person moved on their phone is read where it is now.
    public static func all(account: Account, tx: any CalendarStore, busyTime: AccountBusyTime = AccountBusyTime()) async throws
        -> (calendar: CalendarCollection?, blocks: [PlannedTaskBlock], others: Set<String>) {
        guard let calendar = try await tx.calendar(accountID: account.id, slug: DefaultCalendars.plannedTasksSlug),
              calendar.components.contains(.event)
        else { return (nil, [], []) }
        var blocks: [PlannedTaskBlock] = []
        var others: Set<String> = []
        for object in try await tx.calendarObjects(calendarID: calendar.id) {
            let start = object.firstStart ?? Date(timeIntervalSince1970: 0)
            // Jadwal writes single events; a series someone made here is read for a year at most.
            let end = min(object.lastEnd ?? .distantFuture, start.addingTimeInterval(366 * 86_400))
            guard let window = try? TimeRange(start: start, end: max(end, start.addingTimeInterval(1))) else { continue }
            let occurrences = busyTime.occurrences(of: object, calendar: calendar, accountZone: account.timeZone, in: window, limit: 400)
            var linked = false
            for occurrence in occurrences {
                guard let task = occurrence.relatedTo, !task.isEmpty else { continue }
                linked = true
                blocks.append(PlannedTaskBlock(name: object.name, taskUID: task, title: occurrence.title ?? "", range: occurrence.range))
            }
            if !linked { others.insert(EventOccurrence.reference(calendarID: calendar.id, objectName: object.name)) }
        }
        return (calendar, blocks.sorted { $0.range.start < $1.range.start }, others)
    }
}

/// A person's to-dos as the list screens show them: the task list (made again if deleted) and
/// its to-dos in the chosen order, each with the time planned for it.
public struct Tasks: Sendable {
    let store: StoreAccess<any CalendarShareStore & CalendarStore & CalendarViewStore>
    let clock: Clock
    let random: RandomSource
    let busyTime: AccountBusyTime
    let parse: @Sendable (CalendarObject) -> Component?

    public init(store: any Store, clock: Clock, random: RandomSource, busyTime: AccountBusyTime, parse: @escaping @Sendable (CalendarObject) -> Component?) {
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
        self.random = random
        self.busyTime = busyTime
        self.parse = parse
    }

    /// The account's task list, made again if the person deleted it; `TaskList.Missing` when its
    /// slug is taken by an event calendar.
    public func list(account: Account) async throws -> CalendarCollection {
        let now = clock.now
        return try await store.transaction { tx in
            guard let list = try await TaskList.calendar(for: account, creating: true, now: now, random: random, tx: tx) else { throw TaskList.Missing() }
            return list
        }
    }

    /// The account's task list if it has one (nothing is made).
    public func existingList(account: Account) async throws -> CalendarCollection? {
        let now = clock.now
        return try await store.read { tx in try await TaskList.calendar(for: account, creating: false, now: now, random: random, tx: tx) }
    }

    /// A stored to-do of the account's task list, with the list.
    public func task(named name: String, account: Account) async throws -> (CalendarCollection, CalendarObject)? {
        let now = clock.now
        return try await store.read { tx in
            guard let list = try await TaskList.calendar(for: account, creating: false, now: now, random: random, tx: tx),
                  let object = try await tx.calendarObject(calendarID: list.id, name: name)
            else { return nil }
            return (list, object)
        }
    }

    /// The to-dos `filter` keeps, in `order`, each with the time planned for it.
    /// The to-dos `filter` takes, in `order`; with `category`, only those carrying it.
    public func listed(account: Account, order: TaskList.Order, filter: TaskList.Filter, category: String? = nil) async throws
        -> [(task: StoredTask, planned: [PlannedTaskBlock]?)] {
        let now = clock.now
        let parse = self.parse
        let busyTime = self.busyTime
        return try await store.read { tx in
            guard let list = try await TaskList.calendar(for: account, creating: false, now: now, random: random, tx: tx) else { return [] }
            let tasks = try await TaskList.tasks(in: list, account: account, tx: tx, parse: parse)
            let planned = Dictionary(grouping: try await PlannedTaskBlock.all(account: account, tx: tx, busyTime: busyTime).blocks, by: \.taskUID)
            let chosen = tasks.filter { task in
                filter.includes(task.todo) && (category.map { ItemCategories.matches(task.todo.source, $0) } ?? true)
            }
            return order.sorted(chosen).map { ($0, planned[$0.todo.uid]) }
        }
    }

    /// Every to-do's planned time, by the to-do's UID.
    public func planned(account: Account) async throws -> [String: [PlannedTaskBlock]] {
        let busyTime = self.busyTime
        return try await store.read { tx in
            Dictionary(grouping: try await PlannedTaskBlock.all(account: account, tx: tx, busyTime: busyTime).blocks, by: \.taskUID)
        }
    }

    /// The stored to-do as the lists read it (parsed once per version).
    public func parsed(_ object: CalendarObject) -> Component? { parse(object) }
}
