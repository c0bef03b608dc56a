import Foundation
import ICalendar
import PrayerTimes

/// A to-do with a due date, in a calendar the person shows in their views: the task list, a
/// list of their own, a subscribed course feed read as to-dos, or one shared with them.
public struct DueTodo: Sendable {
    public let calendar: CalendarCollection
    public let task: StoredTask
    /// The day it is due in the person's zone.
    public let dueDay: LocalDate
    /// Due on a day (a DATE), not at a time.
    public let dueIsDate: Bool
    /// When it was completed (COMPLETED), if it says.
    public let completedAt: Date?

    public var isDone: Bool { task.todo.effectiveStatus == .completed }
    public var isCancelled: Bool { task.todo.effectiveStatus == .cancelled }
    /// The instant it is due: its time, or the end of its day for a DATE.
    public var due: Date? { task.due }
    /// Whether the person may mark it done or not done: not in a calendar shared with them to read.
    public var canComplete: Bool { !calendar.isReadOnlyShare }
}

extension Tasks {
    /// Every to-do with a due date in the calendars the person shows in their views (hidden ones
    /// left out, as the views leave their events out), whatever its status.
    public func dueTodos(account: Account) async throws -> [DueTodo] {
        let parse = self.parse
        return try await store.read { tx in try await Self.dueTodos(account: account, tx: tx, parse: parse) }
    }

    /// The to-dos due from `first` through `last` (days in the person's zone).
    public func dueTodos(account: Account, from first: LocalDate, through last: LocalDate) async throws -> [DueTodo] {
        try await dueTodos(account: account).filter { $0.dueDay >= first && $0.dueDay <= last }
    }

    static func dueTodos(account: Account, tx: any CalendarShareStore & CalendarStore & CalendarViewStore, parse: @Sendable (CalendarObject) -> Component?) async throws -> [DueTodo] {
        let zone = ZoneRules(ianaIdentifier: account.timeZone) ?? .utc
        let hidden = try await tx.hiddenCalendarIDs(accountID: account.id)
        var found: [DueTodo] = []
        for calendar in try await Calendars.visible(accountID: account.id, tx: tx) where calendar.components.contains(.todo) && !hidden.contains(calendar.id) {
            for object in try await tx.calendarObjects(calendarID: calendar.id) where object.component == .todo {
                let parsed = parse(object)
                guard let task = StoredTask(object: object, parsed: parsed, zone: zone), let value = task.todo.due else { continue }
                let resolver = TimeZoneResolver(calendar: parsed ?? Component(name: "VCALENDAR"))
                let day: LocalDate
                if value.isDate {
                    day = LocalDate(daysSinceEpoch: value.local.date.daysSinceEpoch)
                } else {
                    guard let seconds = TaskDue.seconds(value, resolver: resolver, floating: zone) else { continue }
                    day = LocalDate(daysSinceEpoch: zone.local(forUTC: seconds).date.daysSinceEpoch)
                }
                let completed = task.todo.completed.flatMap { TaskDue.seconds($0, resolver: resolver, floating: zone) }
                found.append(DueTodo(
                    calendar: calendar, task: task, dueDay: day, dueIsDate: value.isDate,
                    completedAt: completed.map { Date(timeIntervalSince1970: TimeInterval($0)) }))
            }
        }
        return found.sorted { ($0.due ?? .distantFuture, $0.task.object.name) < ($1.due ?? .distantFuture, $1.task.object.name) }
    }

    public enum CompletionProblem: Error, Sendable, Equatable {
        /// No such to-do in a calendar the person sees.
        case notFound
    }

    /// Marks a to-do done (`COMPLETED`, `PERCENT-COMPLETE:100`) or not done, in any calendar
    /// the person sees that holds it, through the write path phones sync from. `ifMatch` is the
    /// ETag the person saw: a to-do changed since is refused (`CalendarWrites.Refusal`).
    public func setDone(_ done: Bool, name: String, calendarID: UUID, account: Account, ifMatch: String?) async throws -> CalendarObject {
        let found = try await store.read { tx -> (CalendarCollection, CalendarObject)? in
            guard let calendar = try await Calendars.visible(id: calendarID, accountID: account.id, tx: tx),
                  let object = try await tx.calendarObject(calendarID: calendar.id, name: name), object.component == .todo
            else { return nil }
            return (calendar, object)
        }
        guard let (calendar, object) = found, let parsed = parse(object), let main = parsed.master("VTODO"),
              let uid = main.first("UID")?.value
        else { throw CompletionProblem.notFound }
        let text: String
        do {
            text = try TaskDraft(status: done ? "completed" : "needs-action").icalendar(uid: uid, existing: parsed, defaultTimeZone: account.timeZone, now: clock.now)
        } catch {
            // The status words are TaskDraft's own; a stored to-do it cannot rewrite is not one to mark.
            throw CompletionProblem.notFound
        }
        let content = try CalendarObjectContent(text: text)
        return try await CalendarWrites(store: store.store, clock: clock, random: random).put(
            content, name: object.name, in: calendar, ifMatch: ifMatch ?? object.etag, source: .api).object
    }
}
