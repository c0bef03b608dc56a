import Foundation

/// The two-week plan: proposed sessions for a person's goals and blocks for their to-dos, each
/// with a reason, for the person to accept or reject one by one.
///
/// The rules:
/// - Nothing is proposed over busy time (events of any source, prayers, routines: the caller's
///   ``BusyTime``) or over accepted items, and no two proposals overlap. Accepted items are
///   inputs, never outputs: re-planning never moves them; they count towards their goal's target
///   and gaps, and towards their to-do's estimate.
/// - Proposals start on the local 15-minute grid, not before now, within the horizon (the rest of
///   today and the following `horizonDays − 1` local days). To-dos also end within it; a goal's
///   session may end after it when its window crosses midnight on the last day (sleep).
/// - Hours: the night (the questionnaire's sleep → wake) is closed to everything but sleep
///   goals; work hours are closed to exercise, sleep and other goals. To-dos go in work hours
///   when given, else in waking hours, as "Plan my tasks" does.
/// - To-dos first, because their due dates are hard: earliest due first, then priority, then
///   creation, each placed as early as it fits and ending by its due date, split like
///   ``TaskPlan`` (parts of at most 2 h, 15 min apart), whole or not at all; those that do not
///   fit are in ``unplacedTasks``.
/// - Then goals, sleep first, then longer sessions, then by id. A session lies inside one
///   occurrence of the goal's window, on its days. Per day (perDay) or per local Monday-to-Sunday
///   week (perWeek), sessions are added until the target is met, counting accepted ones; a week
///   cut by the horizon or already begun asks for its share of the target by allowed days left
///   (3 a week with 2 of 7 days left asks for 1). Every two sessions of a goal are at least its
///   minimum gap apart. Periods left short are in ``shortfalls``.
/// - Each session goes to the free start with the highest score, the earliest among equals:
///   `learnedScale × learned weight` of its hour of the week (``LearnedPreferences``), plus
///   ``preferredTimeBonus`` in the preferred part of the day, plus up to ``spreadBonus`` the
///   further it is from the goal's other sessions (a weekly goal's second session on a day is
///   taken only when no other day has room), plus less than 1 for starting earlier in the window.
///   The learned weight dominates: one rejection outweighs every other term together.
/// - Never a rejected slot again: a subject is never proposed over a range rejected for it.
/// - Intensity: off proposes nothing; light keeps ``lightBuffer`` free around every proposal and
///   at most ``lightDailyLimit`` items (accepted and proposed) on a local day.
///
/// Deterministic: the same input gives the same plan, whatever the order of goals or blocks.
public struct TwoWeekPlan: Sendable {
    public struct Input: Sendable {
        public let now: Date
        public let timeZone: TimeZone
        public let horizonDays: Int
        public let goals: [Goal]
        public let tasks: [PlannableTask]
        /// Everything busy: events (any source), prayer blocks, routines. Should cover the horizon.
        public let busy: BusyTime
        /// Items accepted earlier (any time, so this week's count is right).
        public let accepted: [ItemPlacement]
        /// Proposals rejected earlier.
        public let rejected: [ItemPlacement]
        public let preferences: PlannerPreferences
        public let learned: LearnedPreferences

        /// Throws ``SchedulingError/invalidSetting(field:reason:)`` for a horizon outside 1 … 28
        /// days, or two goals (or two to-dos) with the same id.
        public init(now: Date, timeZone: TimeZone, horizonDays: Int = 14, goals: [Goal], tasks: [PlannableTask] = [],
                    busy: BusyTime, accepted: [ItemPlacement] = [], rejected: [ItemPlacement] = [],
                    preferences: PlannerPreferences, learned: LearnedPreferences = LearnedPreferences()) throws(SchedulingError) {
            guard (1...28).contains(horizonDays) else {
                throw .invalidSetting(field: "horizonDays", reason: "\(horizonDays) is out of range (expected 1 … 28)")
            }
            guard Set(goals.map(\.id)).count == goals.count else {
                throw .invalidSetting(field: "goals", reason: "two goals have the same id")
            }
            guard Set(tasks.map(\.id)).count == tasks.count else {
                throw .invalidSetting(field: "tasks", reason: "two to-dos have the same id")
            }
            self.now = now
            self.timeZone = timeZone
            self.horizonDays = horizonDays
            self.goals = goals
            self.tasks = tasks
            self.busy = busy
            self.accepted = accepted
            self.rejected = rejected
            self.preferences = preferences
            self.learned = learned
        }
    }

    /// Every proposal, in time order.
    public let proposals: [Proposal]
    /// Goal periods that got fewer sessions than they wanted, by goal order, then time.
    public let shortfalls: [GoalShortfall]
    /// To-dos that could not be placed whole before their due date (or the horizon's end).
    public let unplacedTasks: [UnplacedTask]
    /// From now (on the grid) to the end of the last local day; nil when nothing of it is left.
    public let horizon: TimeRange?

    /// The start grid: 15 minutes.
    public static let step: TimeInterval = 15 * 60
    /// Points per unit of learned weight.
    public static let learnedScale = 20.0
    /// Points for a start in the preferred part of the day.
    public static let preferredTimeBonus = 4.0
    /// Points for a start as far from the goal's other sessions as the target allows.
    public static let spreadBonus = 3.0
    /// Light intensity: items on one local day at most.
    public static let lightDailyLimit = 2
    /// Light intensity: time kept free before and after every proposal.
    public static let lightBuffer: TimeInterval = 15 * 60

    public init(_ input: Input) {
        var planner = Planner(input)
        guard let horizon = planner.horizon, input.preferences.intensity != .off else {
            self.proposals = []
            self.shortfalls = []
            self.unplacedTasks = []
            self.horizon = planner.horizon
            return
        }
        planner.placeTasks()
        for goal in Planner.order(input.goals) { planner.place(goal) }
        self.proposals = planner.proposalsWithReasons()
        self.shortfalls = planner.shortfalls
        self.unplacedTasks = planner.unplaced
        self.horizon = horizon
    }
}

/// The planner's working state: free time left, what is placed so far, counts per day.
private struct Planner {
    let input: Input
    typealias Input = TwoWeekPlan.Input
    let calendar: LocalCalendar
    let horizon: TimeRange?
    /// The local days of the horizon, today first, and where each begins.
    let days: [LocalCalendar.Day]
    let dayStarts: [Date]
    let buffer: TimeInterval
    let dailyLimit: Int
    /// The horizon less busy time and accepted items (each padded by the buffer), less
    /// everything proposed so far (padded too). Sorted, disjoint.
    var free: [TimeRange]
    let night: [TimeRange]
    let work: [TimeRange]
    /// The horizon and one more day, for sessions that start on the last day and end after it.
    let span: TimeRange?
    /// Items per horizon day, accepted and proposed.
    var itemsPerDay: [Int]

    struct Placed {
        let subject: ProposalSubject
        let title: String
        let range: TimeRange
        /// Index and count of a to-do's parts.
        var part: (Int, Int) = (1, 1)
    }
    var placed: [Placed] = []
    var shortfalls: [GoalShortfall] = []
    var unplaced: [UnplacedTask] = []

    init(_ input: Input) {
        self.input = input
        let calendar = LocalCalendar(timeZone: input.timeZone)
        self.calendar = calendar
        var days = [calendar.day(containing: input.now)]
        while days.count < input.horizonDays, let last = days.last { days.append(calendar.day(after: last)) }
        self.days = days
        self.dayStarts = days.map(\.start)
        let begin = calendar.alignUp(input.now, step: TwoWeekPlan.step)
        let end = calendar.end(of: days[days.count - 1])
        let horizon = begin < end ? TimeRange(uncheckedStart: begin, end: end) : nil
        self.horizon = horizon
        let light = input.preferences.intensity == .light
        buffer = light ? TwoWeekPlan.lightBuffer : 0
        dailyLimit = light ? TwoWeekPlan.lightDailyLimit : .max
        itemsPerDay = Array(repeating: 0, count: days.count)
        guard let horizon else {
            free = []; night = []; work = []; span = nil
            return
        }
        // A session starts within the horizon but may run on into the next day (sleep on the
        // last night), so free time is kept a day further.
        let span = TimeRange(uncheckedStart: horizon.start, end: horizon.end.addingTimeInterval(86_400))
        self.span = span
        // Busy time and accepted items, padded, reaching into the span.
        let reach = TimeRange(uncheckedStart: span.start.addingTimeInterval(-buffer), end: span.end.addingTimeInterval(buffer))
        var taken = input.busy.merged.filter { $0.overlaps(reach) }
        taken += input.accepted.map(\.range).filter { $0.overlaps(reach) }
        free = Availability.subtract(Availability.union(taken.map { Self.padded($0, by: light ? TwoWeekPlan.lightBuffer : 0) }), from: [span])
        night = Availability.union(input.preferences.night.occurrences(in: span, calendar: calendar))
        work = Availability.union(input.preferences.work?.occurrences(in: span, calendar: calendar) ?? [])
        for item in input.accepted {
            if let day = dayIndex(of: item.range.start) { itemsPerDay[day] += 1 }
        }
    }

    // MARK: To-dos

    mutating func placeTasks() {
        guard let horizon else { return }
        let options = TaskPlan.Options.standard
        // Waking hours, within work hours when the person has any.
        var open = Availability.subtract(night, from: [horizon])  // to-dos end within the horizon
        if input.preferences.work != nil { open = Self.intersect(open, work) }
        let order = input.tasks.sorted { a, b in
            let x = a.due ?? .distantFuture, y = b.due ?? .distantFuture
            if x != y { return x < y }
            if a.priorityRank != b.priorityRank { return a.priorityRank < b.priorityRank }
            if a.created != b.created { return a.created < b.created }
            return a.id < b.id
        }
        for task in order {
            let subject = ProposalSubject.task(id: task.id)
            let done = input.accepted.filter { $0.subject == subject }.reduce(0) { $0 + $1.range.duration }
            let remaining = task.estimate - done
            guard remaining > 0 else { continue }
            if let due = task.due, due <= horizon.start {
                unplaced.append(UnplacedTask(task: task, reason: .dueDatePassed(due)))
                continue
            }
            let deadline = min(task.due ?? horizon.end, horizon.end)
            let rejected = Availability.union(input.rejected.filter { $0.subject == subject }.map(\.range))
            var trial = Availability.subtract(rejected, from: Self.intersect(free, open))
            let freeBefore = trial.reduce(0) { total, gap in total + max(0, min(gap.end, deadline).timeIntervalSince(gap.start)) }
            var counts = itemsPerDay
            trial = removingFullDays(trial, counts: counts)
            let parts = TaskPlan.parts(of: remaining, options: options)
            var blocks: [TimeRange] = []
            var earliest = horizon.start
            // Part by part rather than all at once, so a light plan's daily limit holds per part.
            for length in parts {
                guard let block = TaskPlan.place([length], for: task, in: &trial, from: earliest, deadline: deadline,
                                                 options: options, calendar: calendar)?.first
                else { break }
                blocks.append(block.range)
                trial = Availability.subtract([Self.padded(block.range, by: buffer)], from: trial)
                if let day = dayIndex(of: block.range.start) { counts[day] += 1 }
                trial = removingFullDays(trial, counts: counts)
                earliest = block.range.end.addingTimeInterval(options.breakBetweenParts)
            }
            guard blocks.count == parts.count else {
                let longest = parts.max() ?? remaining
                let reason: UnplacedTask.Reason = (task.due.map { $0 <= horizon.end } ?? false)
                    ? .noRoomBeforeDue(due: deadline, needed: remaining, free: freeBefore, longestBlock: longest)
                    : .noRoomInHorizon(end: deadline, needed: remaining, free: freeBefore, longestBlock: longest)
                unplaced.append(UnplacedTask(task: task, reason: reason))
                continue
            }
            for (index, range) in blocks.enumerated() {
                placed.append(Placed(subject: subject, title: task.title, range: range, part: (index + 1, blocks.count)))
            }
            itemsPerDay = counts
            take(blocks)
        }
    }

    // MARK: Goals

    /// Sleep first (long and tied to the night), then longer sessions (harder to fit), then id.
    static func order(_ goals: [Goal]) -> [Goal] {
        goals.sorted { a, b in
            let x = a.category == .sleep ? 0 : 1, y = b.category == .sleep ? 0 : 1
            if x != y { return x < y }
            if a.minutesPerSession != b.minutesPerSession { return a.minutesPerSession > b.minutesPerSession }
            return a.id < b.id
        }
    }

    /// A free start for a goal, with the parts of its score that do not change while placing.
    struct Candidate {
        let range: TimeRange
        /// Horizon day of the window occurrence it lies in (the period of a daily goal).
        let occurrenceDay: Int
        /// Horizon day of the start (for the light limit).
        let startDay: Int
        let score: Double
        var alive = true
    }

    mutating func place(_ goal: Goal) {
        guard let horizon, let span else { return }
        let subject = ProposalSubject.goal(id: goal.id)
        let length = goal.sessionLength
        let step = TwoWeekPlan.step

        // Occurrences from a week back, so accepted sessions find the occurrence (and so the day
        // and week) they count towards.
        let lookBack = TimeRange(uncheckedStart: horizon.start.addingTimeInterval(-8 * 86_400), end: horizon.end)
        let occurrences = goal.window.occurrences(in: lookBack, calendar: calendar)  // all start before the horizon ends
        var closed: [TimeRange] = []
        if goal.category != .sleep { closed += night }
        if goal.category != .focus { closed += work }
        closed += input.rejected.filter { $0.subject == subject }.map(\.range)
        closed = Availability.union(closed)
        let preferred = input.preferences.preferredTime(for: goal)

        var candidates: [Candidate] = []
        var usable = Set<Int>()  // occurrence days whose remaining window can hold a session
        for occurrence in occurrences {
            guard let inHorizon = occurrence.intersection(span) else { continue }
            let day = dayOffset(of: occurrence.start)
            if inHorizon.duration >= length { usable.insert(day) }
            let pieces = Availability.subtract(closed, from: Self.intersect(free, [inHorizon]))
            for piece in pieces {
                var start = calendar.alignUp(piece.start, step: step)
                // Starts before the horizon's end always fall on one of its days.
                while start.addingTimeInterval(length) <= piece.end, start < horizon.end, let startDay = dayIndex(of: start) {
                    let reading = LocalReading(start, timeZone: input.timeZone)
                    let hour = HourOfWeek(isoWeekday: reading.isoWeekday, hour: reading.minuteOfDay / 60)
                    var score = TwoWeekPlan.learnedScale * input.learned.weight(goalID: goal.id, at: hour)
                    if let preferred, DayPart.containing(hour: hour.hour) == preferred.part { score += TwoWeekPlan.preferredTimeBonus }
                    // Earlier in the window scores a little more: a tie-break, always below 1.
                    score += 1 - start.timeIntervalSince(occurrence.start) / (occurrence.duration + 1)
                    candidates.append(Candidate(range: TimeRange(uncheckedStart: start, end: start.addingTimeInterval(length)),
                                                occurrenceDay: day, startDay: startDay, score: score))
                    start.addTimeInterval(step)
                }
            }
        }

        // Sessions that count: accepted ones (by the occurrence they lie in), then chosen ones.
        var sessions: [(range: TimeRange, day: Int)] = input.accepted.filter { $0.subject == subject }.map { item in
            let occurrence = occurrences.first { $0.contains(item.range.start) }
            return (item.range, dayOffset(of: occurrence?.start ?? item.range.start))
        }
        let weekly: Bool
        if case .perWeek = goal.target { weekly = true } else { weekly = false }
        let target = goal.target.count
        let ideal = weekly ? 7 * 86_400 / Double(target) : goal.window.clockLength / Double(target)
        let todayWeekday = days[0].isoWeekday
        func period(_ day: Int) -> Int {
            weekly ? Int((Double(day + todayWeekday - 1) / 7).rounded(.down)) : day
        }

        // Periods in time order, with their candidates.
        var byPeriod: [Int: [Int]] = [:]
        for index in candidates.indices { byPeriod[period(candidates[index].occurrenceDay), default: []].append(index) }
        let periods = Set(usable.map(period)).sorted()
        var chosen: [TimeRange] = []
        for p in periods {
            let already = sessions.filter { period($0.day) == p }.count
            var wanted = target - already
            if weekly {
                let left = usable.filter { period($0) == p }.count
                let share = Int((Double(target * left) / Double(goal.window.days.numbers.count)).rounded(.up))
                wanted = min(wanted, share)
            }
            guard wanted > 0 else { continue }
            var proposed = 0
            let indices = byPeriod[p] ?? []
            while proposed < wanted {
                var best: Int?
                var bestScore = -Double.infinity
                for index in indices where candidates[index].alive {
                    let candidate = candidates[index]
                    guard itemsPerDay[candidate.startDay] < dailyLimit else { continue }
                    var nearest = Double.infinity
                    var sameDay = false
                    var fits = true
                    for session in sessions {
                        let gapOK = candidate.range.start >= session.range.end.addingTimeInterval(goal.minimumGap)
                            || candidate.range.end.addingTimeInterval(goal.minimumGap) <= session.range.start
                        if !gapOK { fits = false; break }
                        nearest = min(nearest, abs(candidate.range.start.timeIntervalSince(session.range.start)))
                        if session.day == candidate.occurrenceDay { sameDay = true }
                    }
                    guard fits else { continue }
                    var score = candidate.score + TwoWeekPlan.spreadBonus * min(nearest, ideal) / ideal
                    if weekly && sameDay { score -= 100 }
                    if score > bestScore { bestScore = score; best = index }
                }
                guard let best else { break }
                let range = candidates[best].range
                sessions.append((range, candidates[best].occurrenceDay))
                chosen.append(range)
                itemsPerDay[candidates[best].startDay] += 1
                let blocked = Self.padded(range, by: buffer)
                for index in candidates.indices where candidates[index].alive && candidates[index].range.overlaps(blocked) {
                    candidates[index].alive = false
                }
                proposed += 1
            }
            if proposed < wanted {
                let first = usable.filter { period($0) == p }.min() ?? 0
                shortfalls.append(GoalShortfall(goalID: goal.id, periodStart: dayStart(first), wanted: wanted, proposed: proposed))
            }
        }
        for range in chosen { placed.append(Placed(subject: subject, title: goal.title, range: range)) }
        take(chosen)
    }

    // MARK: Reasons

    func proposalsWithReasons() -> [Proposal] {
        let goals = Dictionary(uniqueKeysWithValues: input.goals.map { ($0.id, $0) })
        let tasks = Dictionary(uniqueKeysWithValues: input.tasks.map { ($0.id, $0) })
        let ordered = placed.sorted { $0.range.start != $1.range.start ? $0.range.start < $1.range.start : $0.subject.description < $1.subject.description }
        let starts = (ordered.map(\.range) + input.accepted.map(\.range)).map(\.start).sorted()
        return ordered.map { item in
            let reading = LocalReading(item.range.start, timeZone: input.timeZone)
            var factors: [ReasonFactor] = []
            switch item.subject {
            case .goal(let id):
                if let goal = goals[id] { factors += goalFactors(goal, item.range, reading) }
            case .task(let id):
                if item.part.1 > 1 { factors.append(.part(item.part.0, of: item.part.1)) }
                if let due = tasks[id]?.due {
                    let dueReading = LocalReading(due, timeZone: input.timeZone)
                    factors.append(.due(isoWeekday: dueReading.isoWeekday, at: dueReading.time))
                } else {
                    factors.append(.noDueDate)
                }
                factors.append(.earliestFreeTime)
            case .windDown:
                break
            }
            let day = calendar.day(containing: item.range.start)
            let dayEnd = calendar.end(of: day)
            if let prayer = nearestPrayer(to: item.range, from: day.start, to: dayEnd) { factors.append(prayer) }
            if let next = nextTaken(after: item.range.end, starts: starts), next < dayEnd {
                factors.append(.freeUntil(LocalReading(next, timeZone: input.timeZone).time))
            }
            return Proposal(subject: item.subject, title: item.title, range: item.range,
                            reason: ProposalReason(isoWeekday: reading.isoWeekday, start: reading.time, factors: factors))
        }
    }

    private func goalFactors(_ goal: Goal, _ range: TimeRange, _ reading: LocalReading) -> [ReasonFactor] {
        var factors: [ReasonFactor] = []
        let hour = HourOfWeek(isoWeekday: reading.isoWeekday, hour: reading.minuteOfDay / 60)
        let part = DayPart.containing(hour: hour.hour)
        if let signal = input.learned.evidence(goalID: goal.id, at: hour) {
            factors.append(.learned(signal, isoWeekday: reading.isoWeekday, part: part))
        }
        if let preferred = input.preferences.preferredTime(for: goal), preferred.part == part {
            factors.append(.preferredTime(part, source: preferred.source))
        }
        if case .perWeek = goal.target {
            let subject = ProposalSubject.goal(id: goal.id)
            let earlier = (placed.filter { $0.subject == subject }.map(\.range) + input.accepted.filter { $0.subject == subject }.map(\.range))
                .filter { $0.start < range.start }.map(\.start).max()
            if let earlier {
                let days = dayOffset(of: range.start) - dayOffset(of: earlier)
                if days >= 1 { factors.append(.daysSinceLastSession(days)) }
            }
        }
        return factors
    }

    /// The prayer ending last before `range` or starting first after it, the nearer one, on the
    /// same local day.
    private func nearestPrayer(to range: TimeRange, from dayStart: Date, to dayEnd: Date) -> ReasonFactor? {
        let around = input.busy.prayers(endingBy: range.start, startingFrom: range.end)
        var best: (distance: TimeInterval, block: BusyBlock)?
        if let before = around.before, before.range.start >= dayStart {
            best = (range.start.timeIntervalSince(before.range.end), before)
        }
        if let after = around.after, after.range.start < dayEnd {
            let distance = after.range.start.timeIntervalSince(range.end)
            if distance < best?.distance ?? .infinity { best = (distance, after) }
        }
        guard let block = best?.block, case .prayer(let name) = block.kind else { return nil }
        return .prayer(name, at: LocalReading(block.range.start, timeZone: input.timeZone).time)
    }

    /// The first busy block, accepted item or proposal starting at or after `instant`.
    private func nextTaken(after instant: Date, starts: [Date]) -> Date? {
        let merged = input.busy.merged
        let busyIndex = BusyTime.firstIndex(in: merged) { $0.start >= instant }
        let startIndex = BusyTime.firstIndex(in: starts) { $0 >= instant }
        let candidates = [busyIndex < merged.count ? merged[busyIndex].start : nil, startIndex < starts.count ? starts[startIndex] : nil]
        return candidates.compactMap { $0 }.min()
    }

    // MARK: Free time

    /// Marks `ranges` (padded) as taken for everything placed later.
    private mutating func take(_ ranges: [TimeRange]) {
        guard !ranges.isEmpty else { return }
        free = Availability.subtract(Availability.union(ranges.map { Self.padded($0, by: buffer) }), from: free)
    }

    /// `ranges` without the horizon days that already hold the daily limit.
    private func removingFullDays(_ ranges: [TimeRange], counts: [Int]) -> [TimeRange] {
        guard dailyLimit != .max else { return ranges }
        let full = counts.indices.filter { counts[$0] >= dailyLimit }.map { TimeRange(uncheckedStart: dayStarts[$0], end: dayEnd($0)) }
        return full.isEmpty ? ranges : Availability.subtract(full, from: ranges)
    }

    private func dayEnd(_ index: Int) -> Date {
        index + 1 < dayStarts.count ? dayStarts[index + 1] : calendar.end(of: days[index])
    }

    private func dayStart(_ offset: Int) -> Date {
        offset >= 0 && offset < dayStarts.count ? dayStarts[offset] : calendar.day(containing: dayStarts[0].addingTimeInterval(Double(offset) * 86_400 + 43_200)).start
    }

    /// The horizon day holding `instant`, or nil outside the horizon's days.
    func dayIndex(of instant: Date) -> Int? {
        guard let first = dayStarts.first, instant >= first, instant < dayEnd(dayStarts.count - 1) else { return nil }
        return BusyTime.firstIndex(in: dayStarts) { $0 > instant } - 1
    }

    /// Local days from today to the day holding `instant`; negative before today.
    func dayOffset(of instant: Date) -> Int {
        if let index = dayIndex(of: instant) { return index }
        let start = calendar.day(containing: instant).start
        // Days are 23–25 hours long; rounding the hours between midnights counts them exactly.
        return Int((start.timeIntervalSince(dayStarts[0]) / 86_400).rounded())
    }

    static func padded(_ range: TimeRange, by seconds: TimeInterval) -> TimeRange {
        seconds == 0 ? range : TimeRange(uncheckedStart: range.start.addingTimeInterval(-seconds), end: range.end.addingTimeInterval(seconds))
    }

    /// The time in both lists; both sorted and disjoint.
    static func intersect(_ a: [TimeRange], _ b: [TimeRange]) -> [TimeRange] {
        var result: [TimeRange] = []
        var i = 0, j = 0
        while i < a.count, j < b.count {
            if let shared = a[i].intersection(b[j]) { result.append(shared) }
            if a[i].end < b[j].end { i += 1 } else { j += 1 }
        }
        return result
    }
}
