import Foundation
import ICalendar
import Scheduling

/// "Plan my tasks" for one account: the open to-dos with an estimate are given time in the Task
/// Time calendar, one event per block, each linked to its to-do with RELATED-TO, written through
/// `CalendarWrites` so phones see the plan. Reading, planning and writing are one transaction.
///
/// The rules are ``TaskPlan``'s; this type reads what it needs from storage and writes what it
/// decides. Blocks that have started are left alone; future blocks are placed afresh, and one
/// placed exactly where it already was (same task, title and time) is left as it is rather than
/// rewritten. Future blocks of to-dos that are done, cancelled, deleted or no longer estimated go.
public struct TaskPlanner: Sendable {
    /// A block in the answer: the to-do's UID and title, the time, and the event's object name.
    public struct Block: Sendable, Hashable {
        public let task: String
        public let title: String
        public let range: TimeRange
        public let name: String
    }

    /// An open to-do that was not planned because it cannot be (no estimate).
    public struct Skipped: Sendable, Hashable {
        public let task: String
        public let title: String
        public let reason: String
    }

    public struct Outcome: Sendable {
        /// New events written.
        public var placed: [Block]
        /// Events left where they were: blocks that had started, and future blocks the plan put
        /// back in the same place.
        public var kept: [Block]
        /// Events deleted.
        public var removed: [Block]
        public var unplaced: [UnplacedTask]
        public var skipped: [Skipped]
    }

    /// The marker on every event the planner writes.
    public static let markerProperty = "X-JADWAL-TASK-PLAN"

    let store: StoreAccess<any CalendarWriteStore & CalendarShareStore>
    let clock: Clock
    let writes: CalendarWrites
    let busyTime: AccountBusyTime
    let options: TaskPlan.Options
    let random: RandomSource

    public init(
        store: any Store, clock: Clock, random: RandomSource, busyTime: AccountBusyTime = AccountBusyTime(),
        options: TaskPlan.Options = .standard
    ) {
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
        self.random = random
        writes = CalendarWrites(store: store, clock: clock, random: random)
        self.busyTime = busyTime
        self.options = options
    }

    // Two plans of one account at the same moment on PostgreSQL can both place blocks; the next
    // plan takes the doubles away (their future blocks are all "existing" and replaced once).
    public func plan(account: Account) async throws -> Outcome {
        let now = clock.now
        return try await store.transaction { tx in
            let list = try await TaskList.calendar(for: account, creating: false, now: now, random: random, tx: tx)
            var stored: [StoredTask] = []
            if let list { stored = try await TaskList.tasks(in: list, account: account, tx: tx, parse: busyTime.parse) }

            let (tasks, skipped) = Self.plannable(stored)
            // Blocks the person accepted from the two-week plan stay where they are: they are
            // the person's decision, not this plan's.
            let pinnedNames = Set(try await tx.planItems(accountID: account.id, states: [.accepted]).compactMap { item -> String? in
                if case .task = item.subject { return item.event?.name }
                return nil
            })

            let (taskTime, planned, otherEvents) = try await PlannedTaskBlock.all(account: account, tx: tx, busyTime: busyTime)
            let planning = Set(tasks.map(\.id))
            var existing: [TaskBlock] = []
            var pinned: [TaskBlock] = []
            var names: [TaskBlock: [String]] = [:]
            var stale: [PlannedTaskBlock] = []
            for block in planned {
                if planning.contains(block.taskUID) {
                    let taskBlock = TaskBlock(taskID: block.taskUID, title: block.title, range: block.range)
                    if names[taskBlock] == nil {
                        if pinnedNames.contains(block.name) { pinned.append(taskBlock) } else { existing.append(taskBlock) }
                    }
                    names[taskBlock, default: []].append(block.name)
                } else if block.range.start > now {
                    stale.append(block)
                }
            }

            let latestDue = tasks.compactMap(\.due).max() ?? now
            let end = min(max(now.addingTimeInterval(options.horizon), latestDue), now.addingTimeInterval(366 * 86_400)).addingTimeInterval(86_400)
            let window = try TimeRange(start: now, end: end)
            // Events someone put in Task Time by hand are not plan blocks: they stay busy.
            let busy = try await busyTime.blocks(account: account, in: window, tx: tx).map { block in
                if case .plannedTask(let reference, let title) = block.kind, otherEvents.contains(reference) {
                    return BusyBlock(block.range, .event(id: reference, title: title))
                }
                return block
            }
            // Awake (the sleep routines, or 23:00–07:00 until there is one), within working hours if set.
            let availability = try await AccountAvailability.availability(for: account, tx: tx)
            let plan = TaskPlan(tasks: tasks, busy: BusyTime(busy, window: window), availability: availability, now: now,
                                existing: existing, pinned: pinned, options: options)

            var kept = plan.kept.map { Block($0, name: names[$0]?.first ?? "") }
            var removing = plan.removed
            var placing: [TaskBlock] = []
            for block in plan.placed {
                if let index = removing.firstIndex(of: block), let name = names[block]?.first {
                    removing.remove(at: index)
                    kept.append(Block(block, name: name))
                } else {
                    placing.append(block)
                }
            }

            var removed: [Block] = []
            var deleted: Set<String> = []
            let removals: [Block] = removing.flatMap { block in (names[block] ?? []).map { Block(block, name: $0) } }
                + stale.map { Block(task: $0.taskUID, title: $0.title, range: $0.range, name: $0.name) }
            if let taskTime {
                for block in removals where deleted.insert(block.name).inserted {
                    try await writes.delete(name: block.name, in: taskTime, source: .taskPlan, transaction: tx)
                    removed.append(block)
                }
            }

            var placed: [Block] = []
            if !placing.isEmpty {
                let calendar: CalendarCollection
                if let taskTime {
                    calendar = taskTime
                } else {
                    calendar = try await tx.eventCalendar(DefaultCalendars.plannedTasks(for: account, now: now, random: random))
                }
                for block in placing {
                    let identity = ObjectIdentity.new(random: random)
                    let text = Self.eventText(for: block, uid: identity.uid, timeZone: account.timeZone, now: now)
                    let content: CalendarObjectContent
                    do {
                        content = try CalendarObjectContent(text: text)
                    } catch {
                        throw PlanningFailure(description: "the event for task \(block.taskID) could not be written: \(error)")
                    }
                    let name = identity.name
                    _ = try await writes.put(content, name: name, in: calendar, ifNoneMatch: true, source: .taskPlan, transaction: tx)
                    placed.append(Block(block, name: name))
                }
            }
            func inOrder(_ blocks: [Block]) -> [Block] { blocks.sorted { ($0.range.start, $0.name) < ($1.range.start, $1.name) } }
            return Outcome(placed: inOrder(placed), kept: inOrder(kept), removed: inOrder(removed), unplaced: plan.unplaced, skipped: skipped)
        }
    }

    /// The open to-dos that can be planned (those with an estimate of a minute or more), and the
    /// others with why not.
    public static func plannable(_ stored: [StoredTask]) -> (tasks: [PlannableTask], skipped: [Skipped]) {
        var tasks: [PlannableTask] = []
        var skipped: [Skipped] = []
        for task in stored where task.todo.isOpen {
            let title = task.todo.title ?? ""
            guard let estimate = task.todo.estimate else {
                skipped.append(Skipped(task: task.todo.uid, title: title, reason: "no estimate"))
                continue
            }
            do {
                tasks.append(try PlannableTask(
                    id: task.todo.uid, title: title, estimate: TimeInterval(estimate.totalSeconds), due: task.due,
                    priority: task.todo.priority ?? 0, created: task.created ?? .distantPast))
            } catch {
                skipped.append(Skipped(task: task.todo.uid, title: title, reason: "estimate under a minute"))
            }
        }
        return (tasks, skipped)
    }

    /// Jadwal wrote an event it cannot read back: a bug, reported rather than stored.
    public struct PlanningFailure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The event for one block: linked to the to-do, marked as the planner's.
    static func eventText(for block: TaskBlock, uid: String, timeZone: String, now: Date) -> String {
        let title = block.title.isEmpty ? "To-do" : block.title
        return PlacedEvent.text(
            title: title, range: block.range, uid: uid, timeZone: timeZone, now: now,
            description: "Time Jadwal planned for the to-do \"\(title)\". Plan again to move it.",
            properties: [("RELATED-TO", block.taskID), (markerProperty, "1")], product: "-//Jadwal//Task Plan//EN")
    }
}

extension TaskPlanner.Block {
    init(_ block: TaskBlock, name: String) {
        self.init(task: block.taskID, title: block.title, range: block.range, name: name)
    }
}
