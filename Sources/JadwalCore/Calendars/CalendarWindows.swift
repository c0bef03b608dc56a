import Foundation
import PrayerTimes

/// What the calendar views show for a span of time, read once for the web's month, week, day
/// and agenda views and the API's `/events` alike: the event instances of every calendar the
/// person sees (or only those they show in their views), narrowed to a category, each instance's
/// open conflicts, and the to-dos due on the span's days.
public struct CalendarWindows: Sendable {
    let integrated: IntegratedCalendar
    let conflicts: Conflicts
    let tasks: Tasks

    public init(integrated: IntegratedCalendar, conflicts: Conflicts, tasks: Tasks) {
        self.integrated = integrated
        self.conflicts = conflicts
        self.tasks = tasks
    }

    public struct Window: Sendable {
        /// In order, at most `IntegratedCalendar.maxInstances`.
        public var instances: [IntegratedCalendar.Instance]
        public var truncated: Bool
        /// Every category the span's instances carry before narrowing, each once (without regard
        /// to case), in the person's sort order: what a category menu offers.
        public var categories: [String]
        public var marks: ConflictMarks
        /// Due on the days asked for, not cancelled, soonest first.
        public var todos: [DueTodo]
    }

    /// - Parameters:
    ///   - shownOnly: leaves out the calendars the person hides from their views.
    ///   - todosDue: the days (in the person's zone) whose to-dos come too; nil for none.
    public func window(
        account: Account, from start: Date, to end: Date, shownOnly: Bool, category: String?, todosDue days: ClosedRange<LocalDate>?
    ) async throws -> Window {
        let (everything, truncated) = try await integrated.instances(account: account, from: start, to: end, shownOnly: shownOnly)
        var seen = Set<String>()
        let categories = everything.flatMap { ItemCategories.of($0.occurrence.component) }
            .filter { seen.insert($0.lowercased()).inserted }.sorted { $0.localizedStandardCompare($1) == .orderedAscending }
        let instances = category.map { wanted in everything.filter { ItemCategories.matches($0.occurrence.component, wanted) } } ?? everything
        var todos: [DueTodo] = []
        if let days {
            todos = try await tasks.dueTodos(account: account, from: days.lowerBound, through: days.upperBound).filter { todo in
                !todo.isCancelled && (category.map { ItemCategories.matches(todo.task.todo.source, $0) } ?? true)
            }
        }
        return Window(
            instances: instances, truncated: truncated, categories: categories, marks: try await conflicts.marks(accountID: account.id), todos: todos)
    }
}
