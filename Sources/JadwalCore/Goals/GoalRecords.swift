import Foundation
import Scheduling

/// A goal as one account stores it, with when it was made and last changed.
public struct StoredGoal: Sendable, Hashable, Codable {
    /// Validated again when read back (``Goal``'s decoding), so a stored goal that no longer
    /// validates is refused rather than planned.
    public var goal: Goal
    public var createdAt: Date
    public var updatedAt: Date

    public init(goal: Goal, createdAt: Date, updatedAt: Date) {
        self.goal = goal
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    public var id: String { goal.id }
}

/// One item of a person's two-week plan: a proposal waiting for an answer, or one they accepted
/// (with the event it became) or rejected (never proposed again).
public struct PlanItem: Sendable, Hashable, Codable {
    public enum State: String, Sendable, Hashable, Codable, CaseIterable {
        case proposed, accepted, rejected
    }

    /// The event an accepted item became.
    public struct EventReference: Sendable, Hashable, Codable {
        public var calendarID: UUID
        public var name: String

        public init(calendarID: UUID, name: String) {
            self.calendarID = calendarID
            self.name = name
        }
    }

    /// The proposal's id (``Proposal/id``), kept when an accepted session's event moves.
    public let id: String
    public var subject: ProposalSubject
    public var title: String
    public var range: TimeRange
    public var reason: ProposalReason
    public var state: State
    public var event: EventReference?
    public var proposedAt: Date
    public var decidedAt: Date?

    public init(id: String, subject: ProposalSubject, title: String, range: TimeRange, reason: ProposalReason, state: State,
                event: EventReference? = nil, proposedAt: Date, decidedAt: Date? = nil) {
        self.id = id
        self.subject = subject
        self.title = title
        self.range = range
        self.reason = reason
        self.state = state
        self.event = event
        self.proposedAt = proposedAt
        self.decidedAt = decidedAt
    }

    /// A fresh proposal of the planner, waiting for an answer.
    public init(_ proposal: Proposal, at now: Date) {
        self.init(id: proposal.id, subject: proposal.subject, title: proposal.title, range: proposal.range, reason: proposal.reason,
                  state: .proposed, proposedAt: now)
    }

    /// The goal it is a session of; nil for a to-do's block.
    public var goalID: String? {
        if case .goal(let id) = subject { return id }
        return nil
    }

    /// The goal it belongs to: a session's, or a wind-down's sleep goal (deleting the goal takes it).
    public var ownerGoalID: String? {
        switch subject {
        case .goal(let id), .windDown(let id): id
        case .task: nil
        }
    }

    /// What the planner is told about it.
    public var placement: ItemPlacement { ItemPlacement(subject: subject, range: range) }

    private enum CodingKeys: String, CodingKey { case id, subject, title, start, end, reason, state, event, proposedAt, decidedAt }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let start = try c.decode(Date.self, forKey: .start), end = try c.decode(Date.self, forKey: .end)
        guard let range = try? TimeRange(start: start, end: end) else {
            throw DecodingError.dataCorruptedError(forKey: .end, in: c, debugDescription: "end must be after start")
        }
        self.init(
            id: try c.decode(String.self, forKey: .id), subject: try c.decode(ProposalSubject.self, forKey: .subject),
            title: try c.decode(String.self, forKey: .title), range: range, reason: try c.decode(ProposalReason.self, forKey: .reason),
            state: try c.decode(State.self, forKey: .state), event: try c.decodeIfPresent(EventReference.self, forKey: .event),
            proposedAt: try c.decode(Date.self, forKey: .proposedAt), decidedAt: try c.decodeIfPresent(Date.self, forKey: .decidedAt))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(subject, forKey: .subject)
        try c.encode(title, forKey: .title)
        try c.encode(range.start, forKey: .start)
        try c.encode(range.end, forKey: .end)
        try c.encode(reason, forKey: .reason)
        try c.encode(state, forKey: .state)
        try c.encodeIfPresent(event, forKey: .event)
        try c.encode(proposedAt, forKey: .proposedAt)
        try c.encodeIfPresent(decidedAt, forKey: .decidedAt)
    }
}

/// What the planner has learned from a person's answers, as stored (one model per account).
public struct PlannerLearning: Sendable, Hashable, Codable {
    public var model: LearnedPreferences

    public init(model: LearnedPreferences = LearnedPreferences()) {
        self.model = model
    }
}

/// One thing a person tracked: a night's sleep (bedtime to wake), an exercise session (kind,
/// minutes), or a custom measure with its unit.
public struct TrackerEntry: Sendable, Hashable {
    /// Where an entry came from, when not typed in by the person.
    public enum Source: String, Sendable, Hashable, Codable, CaseIterable {
        /// Imported from Apple Health's export; ``TrackerEntry/externalID`` keys it there.
        case appleHealth = "apple-health"
        /// A session of the two-week plan, marked done or skipped.
        case plan
    }

    /// What became of a planned session.
    public enum Outcome: String, Sendable, Hashable, Codable, CaseIterable {
        case done, skipped
    }

    public let id: UUID
    /// `sleep`, `exercise`, or a custom measure's name (`weight`, `water`).
    public var metric: String
    /// Bedtime for sleep; when it happened otherwise.
    public var start: Date
    /// Wake time for sleep; the end of an exercise session; nil for a measure taken at an instant.
    public var end: Date?
    /// Minutes for sleep and exercise (asleep, for a night imported from Health); the measure otherwise.
    public var value: Double
    public var unit: String
    /// The kind of exercise (`run`, `swim`).
    public var kind: String?
    public var note: String?
    public var createdAt: Date
    public var updatedAt: Date
    /// nil when the person entered it.
    public var source: Source?
    /// The entry's key in its source (an import's), so importing again adds nothing.
    public var externalID: String?
    /// The goal and plan item of a session marked done or skipped.
    public var goalID: String?
    public var planItemID: String?
    public var outcome: Outcome?

    public init(id: UUID, metric: String, start: Date, end: Date?, value: Double, unit: String, kind: String?, note: String?,
                createdAt: Date, updatedAt: Date, source: Source? = nil, externalID: String? = nil, goalID: String? = nil,
                planItemID: String? = nil, outcome: Outcome? = nil) {
        self.id = id
        self.metric = metric
        self.start = start
        self.end = end
        self.value = value
        self.unit = unit
        self.kind = kind
        self.note = note
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.source = source
        self.externalID = externalID
        self.goalID = goalID
        self.planItemID = planItemID
        self.outcome = outcome
    }

    /// Counted in sums and streaks: everything but a session marked skipped.
    public var counts: Bool { outcome != .skipped }
}

/// The last plan made for a person: when, why, and the to-dos it could not place (with the
/// reason), kept so the plan page can show them until the next plan. Also when the weekly plan
/// was last made, so the weekly job makes one a week and no more.
public struct PlanRun: Sendable, Hashable, Codable {
    /// What made the plan.
    public enum Trigger: String, Sendable, Hashable, Codable, CaseIterable {
        /// The person asked (`POST /api/v1/plan/proposals`, the web's Plan button).
        case asked
        /// The weekly job.
        case weekly
        /// A calendar change broke a proposal waiting for an answer; only it was replaced.
        case replan
    }

    public var plannedAt: Date
    public var trigger: Trigger
    public var unplacedTasks: [StoredUnplacedTask]
    /// When the weekly job last made a plan; nil when it never did.
    public var weeklyAt: Date?

    public init(plannedAt: Date, trigger: Trigger, unplacedTasks: [StoredUnplacedTask] = [], weeklyAt: Date? = nil) {
        self.plannedAt = plannedAt
        self.trigger = trigger
        self.unplacedTasks = unplacedTasks
        self.weeklyAt = weeklyAt
    }
}

/// A to-do the plan could not place, as stored with its plan: which, and why.
public struct StoredUnplacedTask: Sendable, Hashable, Codable {
    public var taskID: String
    public var title: String
    public var reason: UnplacedTask.Reason

    public init(taskID: String, title: String, reason: UnplacedTask.Reason) {
        self.taskID = taskID
        self.title = title
        self.reason = reason
    }

    public init(_ unplaced: UnplacedTask) {
        self.init(taskID: unplaced.task.id, title: unplaced.task.title, reason: unplaced.reason)
    }

    private enum CodingKeys: String, CodingKey { case taskID, title, reason, due, end, needed, free, longestBlock }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try c.decode(String.self, forKey: .reason)
        let reason: UnplacedTask.Reason
        switch kind {
        case "dueDatePassed":
            reason = .dueDatePassed(try c.decode(Date.self, forKey: .due))
        case "noRoomBeforeDue", "noRoomInHorizon":
            let needed = try c.decode(Double.self, forKey: .needed), free = try c.decode(Double.self, forKey: .free)
            let longest = try c.decode(Double.self, forKey: .longestBlock)
            reason = kind == "noRoomBeforeDue"
                ? .noRoomBeforeDue(due: try c.decode(Date.self, forKey: .due), needed: needed, free: free, longestBlock: longest)
                : .noRoomInHorizon(end: try c.decode(Date.self, forKey: .end), needed: needed, free: free, longestBlock: longest)
        default:
            throw DecodingError.dataCorruptedError(forKey: .reason, in: c, debugDescription: "unknown reason '\(kind)'")
        }
        self.init(taskID: try c.decode(String.self, forKey: .taskID), title: try c.decode(String.self, forKey: .title), reason: reason)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(taskID, forKey: .taskID)
        try c.encode(title, forKey: .title)
        switch reason {
        case .dueDatePassed(let due):
            try c.encode("dueDatePassed", forKey: .reason)
            try c.encode(due, forKey: .due)
        case .noRoomBeforeDue(let due, let needed, let free, let longest):
            try c.encode("noRoomBeforeDue", forKey: .reason)
            try c.encode(due, forKey: .due)
            try c.encode(needed, forKey: .needed)
            try c.encode(free, forKey: .free)
            try c.encode(longest, forKey: .longestBlock)
        case .noRoomInHorizon(let end, let needed, let free, let longest):
            try c.encode("noRoomInHorizon", forKey: .reason)
            try c.encode(end, forKey: .end)
            try c.encode(needed, forKey: .needed)
            try c.encode(free, forKey: .free)
            try c.encode(longest, forKey: .longestBlock)
        }
    }
}
