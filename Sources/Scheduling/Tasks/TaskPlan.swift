import Foundation

/// "Plan my tasks": time blocks for open to-dos in free time before they are due.
///
/// The rules:
/// - Tasks go in order of due date (undated last), then priority (1 first, undefined after 9),
///   then creation, then id; each is placed as early as it fits, so work due sooner is never
///   crowded out by work due later (earliest deadline first).
/// - Blocks lie in allowed hours (``Availability``), never over a busy block (events, prayers,
///   routines) or another task's block, start on the local `step` grid, not before `now`, and end
///   by the task's due date. Undated tasks are planned within `horizon` from now.
/// - One block per task, unless the estimate is longer than `maxBlockLength`: then it is split
///   into the fewest parts no longer than that, as equal as the grid allows (5 h with a 2 h limit
///   is 1 h 45, 1 h 45 and 1 h 30 on a 15-minute grid), each at least `breakBetweenParts` after
///   the previous. A task is placed whole or not at all: when its parts do not all fit before the
///   due date, it is reported in ``unplaced`` with the reason, and the time stays free for the
///   next task.
/// - Re-planning: `existing` blocks that have started by `now` (or are over) are kept and count
///   against their task's estimate; the rest are returned in ``removed`` and their time planned
///   afresh. Future planned-task blocks in the busy time are ignored for the same reason (the
///   caller may pass busy time read from the calendars, task blocks included).
public struct TaskPlan: Sendable {
    /// How blocks are cut and where they may go.
    public struct Options: Sendable, Hashable {
        /// The start grid, in seconds (15 minutes: :00, :15, :30, :45).
        public let step: TimeInterval
        /// The longest single block; nil never splits a task.
        public let maxBlockLength: TimeInterval?
        /// The least time between two parts of one task.
        public let breakBetweenParts: TimeInterval
        /// How far ahead undated tasks are planned.
        public let horizon: TimeInterval

        /// Throws ``SchedulingError/invalidSetting(field:reason:)`` for a step that is not a whole
        /// number of minutes (1…1440), a block limit that is not a positive multiple of the step,
        /// a negative break or a horizon outside one day … one year.
        public init(step: TimeInterval = 15 * 60, maxBlockLength: TimeInterval? = 2 * 3600,
                    breakBetweenParts: TimeInterval = 15 * 60, horizon: TimeInterval = 14 * 86_400) throws(SchedulingError) {
            try FreeSlotSearch.checkStep(step)
            if let maxBlockLength {
                guard maxBlockLength >= step, maxBlockLength.truncatingRemainder(dividingBy: step) == 0 else {
                    throw .invalidSetting(field: "maxBlockLength", reason: "\(maxBlockLength) s is not a positive multiple of the \(step) s step")
                }
            }
            guard breakBetweenParts.isFinite, breakBetweenParts >= 0 else {
                throw .invalidSetting(field: "breakBetweenParts", reason: "\(breakBetweenParts) s must be zero or more")
            }
            guard (86_400...TaskPlan.longestHorizon).contains(horizon) else {
                throw .invalidSetting(field: "horizon", reason: "\(horizon) s is out of range (expected one day … one year)")
            }
            self.step = step
            self.maxBlockLength = maxBlockLength
            self.breakBetweenParts = breakBetweenParts
            self.horizon = horizon
        }

        /// 15-minute grid, blocks of at most 2 hours with 15 minutes between parts, two weeks ahead.
        public static let standard = Options(uncheckedStep: 15 * 60, maxBlockLength: 2 * 3600, breakBetweenParts: 15 * 60, horizon: 14 * 86_400)

        private init(uncheckedStep step: TimeInterval, maxBlockLength: TimeInterval?, breakBetweenParts: TimeInterval, horizon: TimeInterval) {
            self.step = step
            self.maxBlockLength = maxBlockLength
            self.breakBetweenParts = breakBetweenParts
            self.horizon = horizon
        }
    }

    /// Existing blocks that had started by `now`, and the pinned ones: left where they are.
    public let kept: [TaskBlock]
    /// New blocks, in time order.
    public let placed: [TaskBlock]
    /// Existing blocks that had not started: their events are to be replaced by ``placed``.
    public let removed: [TaskBlock]
    /// Tasks that could not be placed (whole) before their due date, in planning order.
    public let unplaced: [UnplacedTask]

    /// Kept and placed blocks together, in time order.
    public var blocks: [TaskBlock] { (kept + placed).sorted { $0.range.start < $1.range.start } }

    /// Nothing is planned further ahead than this, whatever the due dates.
    static let longestHorizon: TimeInterval = 366 * 86_400

    public init(tasks: [PlannableTask], busy: BusyTime, availability: Availability, now: Date,
                existing: [TaskBlock] = [], pinned: [TaskBlock] = [], options: Options = .standard) {
        let calendar = availability.calendar
        let kept = existing.filter { $0.range.start <= now } + pinned
        self.kept = kept
        self.removed = existing.filter { $0.range.start > now }

        let begin = calendar.alignUp(now, step: options.step)
        let latestDue = tasks.compactMap(\.due).max() ?? begin
        let end = min(max(begin.addingTimeInterval(options.horizon), latestDue), begin.addingTimeInterval(Self.longestHorizon))
        var free = Self.freeTime(busy: busy, availability: availability, kept: kept, from: begin, to: end, now: now)

        let order = tasks.sorted { a, b in
            let x = a.due ?? .distantFuture, y = b.due ?? .distantFuture
            if x != y { return x < y }
            if a.priorityRank != b.priorityRank { return a.priorityRank < b.priorityRank }
            if a.created != b.created { return a.created < b.created }
            return a.id < b.id
        }
        var placed: [TaskBlock] = []
        var unplaced: [UnplacedTask] = []
        for task in order {
            let done = kept.filter { $0.taskID == task.id }.reduce(0) { $0 + $1.range.duration }
            let remaining = task.estimate - done
            guard remaining > 0 else { continue }
            let deadline = min(task.due ?? end, end)
            if let due = task.due, due <= begin {
                unplaced.append(UnplacedTask(task: task, reason: .dueDatePassed(due)))
                continue
            }
            let parts = Self.parts(of: remaining, options: options)
            if let blocks = Self.place(parts, for: task, in: &free, from: begin, deadline: deadline, options: options, calendar: calendar) {
                placed += blocks
            } else {
                let freeBefore = free.reduce(0) { total, gap in
                    total + (min(gap.end, deadline) > gap.start ? min(gap.end, deadline).timeIntervalSince(gap.start) : 0)
                }
                let longest = parts.max() ?? remaining
                let dueWithinPlan = task.due.map { $0 <= end } ?? false
                let reason: UnplacedTask.Reason = dueWithinPlan
                    ? .noRoomBeforeDue(due: deadline, needed: remaining, free: freeBefore, longestBlock: longest)
                    : .noRoomInHorizon(end: deadline, needed: remaining, free: freeBefore, longestBlock: longest)
                unplaced.append(UnplacedTask(task: task, reason: reason))
            }
        }
        self.placed = placed.sorted { $0.range.start < $1.range.start }
        self.unplaced = unplaced
    }

    /// Allowed time from `from` to `to`, minus busy blocks (future task blocks aside) and kept blocks.
    static func freeTime(busy: BusyTime, availability: Availability, kept: [TaskBlock], from: Date, to: Date, now: Date) -> [TimeRange] {
        guard let window = try? TimeRange(start: from, end: to) else { return [] }
        var free: [TimeRange] = []
        for allowed in availability.allowedRanges(in: window) {
            free += busy.freeRanges(in: allowed) { block in
                if case .plannedTask = block.kind { return block.range.start > now }
                return false
            }
        }
        return Availability.subtract(Availability.union(kept.map(\.range)), from: free)
    }

    /// The lengths of a task's blocks: the whole remaining time, or the fewest parts no longer
    /// than the limit, whole grid steps shared out evenly, the odd remainder on the last part.
    static func parts(of remaining: TimeInterval, options: Options) -> [TimeInterval] {
        guard let limit = options.maxBlockLength, remaining > limit else { return [remaining] }
        let count = Int((remaining / limit).rounded(.up))
        let steps = Int((remaining / options.step).rounded(.down))
        let leftover = remaining - Double(steps) * options.step
        let each = steps / count, extra = steps % count
        return (0..<count).map { index in
            Double(each + (index < extra ? 1 : 0)) * options.step + (index == count - 1 ? leftover : 0)
        }
    }

    /// Places every part as early as it fits, in order, or nothing; carves them out of `free`.
    static func place(_ parts: [TimeInterval], for task: PlannableTask, in free: inout [TimeRange], from begin: Date,
                      deadline: Date, options: Options, calendar: LocalCalendar) -> [TaskBlock]? {
        var trial = free
        var blocks: [TaskBlock] = []
        var earliest = begin
        for length in parts {
            var placedRange: TimeRange?
            var index = 0
            while index < trial.count {
                let gap = trial[index]
                if gap.end <= earliest { index += 1; continue }
                let start = calendar.alignUp(max(gap.start, earliest), step: options.step)
                let finish = start.addingTimeInterval(length)
                if finish > deadline { break }  // every later gap starts later still
                if finish <= gap.end {
                    let range = TimeRange(uncheckedStart: start, end: finish)
                    var pieces: [TimeRange] = []
                    if gap.start < start { pieces.append(TimeRange(uncheckedStart: gap.start, end: start)) }
                    if finish < gap.end { pieces.append(TimeRange(uncheckedStart: finish, end: gap.end)) }
                    trial.replaceSubrange(index...index, with: pieces)
                    placedRange = range
                    break
                }
                index += 1
            }
            guard let range = placedRange else { return nil }
            blocks.append(TaskBlock(taskID: task.id, title: task.title, range: range))
            earliest = range.end.addingTimeInterval(options.breakBetweenParts)
        }
        free = trial
        return blocks
    }
}

/// A task "Plan my tasks" could not place, and why: reported, never silently dropped.
public struct UnplacedTask: Sendable, Hashable, CustomStringConvertible {
    public enum Reason: Sendable, Hashable {
        /// The due date is not after now.
        case dueDatePassed(Date)
        /// Not enough free allowed time before the due date, or only in pieces too short.
        /// `free` is what was left once earlier-ranked tasks were placed.
        case noRoomBeforeDue(due: Date, needed: TimeInterval, free: TimeInterval, longestBlock: TimeInterval)
        /// An undated task (or one due beyond a year) that does not fit within the horizon.
        case noRoomInHorizon(end: Date, needed: TimeInterval, free: TimeInterval, longestBlock: TimeInterval)
    }

    public let task: PlannableTask
    public let reason: Reason

    public var description: String { Self.description(id: task.id, title: task.title, reason: reason) }

    /// "task <id> "<title>": <why>", for a to-do known by its id and title.
    public static func description(id: String, title: String, reason: Reason) -> String {
        let name = "task \(id) \"\(title)\""
        switch reason {
        case .dueDatePassed(let due):
            return "\(name): its due date \(SchedulingError.stamp(due)) has passed"
        case .noRoomBeforeDue(let due, let needed, let free, let longest):
            return "\(name): " + shortage(needed: needed, free: free, longest: longest, before: "before it is due at \(SchedulingError.stamp(due))")
        case .noRoomInHorizon(let end, let needed, let free, let longest):
            return "\(name): " + shortage(needed: needed, free: free, longest: longest, before: "before \(SchedulingError.stamp(end)), the end of the planning horizon")
        }
    }

    private static func shortage(needed: TimeInterval, free: TimeInterval, longest: TimeInterval, before: String) -> String {
        let need = SlotExplanation.englishLength(Int((needed / 60).rounded(.up)))
        let have = SlotExplanation.englishLength(Int((free / 60).rounded(.down)))
        if free >= needed {
            let block = SlotExplanation.englishLength(Int((longest / 60).rounded(.up)))
            let shape = longest >= needed ? "one free stretch of \(need)" : "\(need) in blocks of up to \(block)"
            return "needs \(shape) \(before); \(have) is free in allowed hours, but in shorter pieces"
        }
        return "needs \(need) \(before), but only \(have) is free in allowed hours"
    }
}
