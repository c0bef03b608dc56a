import Foundation

/// An open to-do with an estimate, as "Plan my tasks" sees it (a VTODO's UID, SUMMARY,
/// ESTIMATED-DURATION, DUE, PRIORITY and CREATED).
public struct PlannableTask: Sendable, Hashable {
    public let id: String
    public let title: String
    /// How long the work takes, in seconds; at least a minute.
    public let estimate: TimeInterval
    /// When it must be done by; nil for "whenever", planned within the horizon.
    public let due: Date?
    /// RFC 5545: 1 is the highest, 9 the lowest, 0 undefined (ranked after 9).
    public let priority: Int
    public let created: Date

    /// Throws ``SchedulingError/invalidEstimate(taskID:seconds:)`` for an estimate under a minute
    /// (or not finite) and ``SchedulingError/invalidPriority(taskID:priority:)`` outside 0…9.
    public init(id: String, title: String, estimate: TimeInterval, due: Date? = nil, priority: Int = 0, created: Date) throws(SchedulingError) {
        guard estimate.isFinite, estimate >= 60 else { throw .invalidEstimate(taskID: id, seconds: estimate) }
        guard (0...9).contains(priority) else { throw .invalidPriority(taskID: id, priority: priority) }
        self.id = id
        self.title = title
        self.estimate = estimate
        self.due = due
        self.priority = priority
        self.created = created
    }

    /// Priority as a rank where smaller goes first: 1…9 as they are, undefined (0) last.
    var priorityRank: Int { priority == 0 ? 10 : priority }
}

/// Time planned for a task: one event linked to the to-do (`RELATED-TO`).
public struct TaskBlock: Sendable, Hashable, CustomStringConvertible {
    public let taskID: String
    public let title: String
    public let range: TimeRange

    public init(taskID: String, title: String, range: TimeRange) {
        self.taskID = taskID
        self.title = title
        self.range = range
    }

    /// The block as busy time.
    public var busyBlock: BusyBlock { BusyBlock(range, .plannedTask(taskID: taskID, title: title)) }

    public var description: String { "task \(taskID) \(range)" }
}
