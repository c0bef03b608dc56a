import Foundation
import ICalendar
import Scheduling

/// The two-week plan of one person: proposes sessions for their goals and blocks for their
/// to-dos against their real busy time (``TwoWeekPlan`` decides), keeps the proposals until they
/// are answered, and turns each accepted one into an event through ``CalendarWrites`` (a goal's
/// session in the Goals calendar, a to-do's block in Task Time as "Plan my tasks" writes it), so
/// conflict checks, reminders and sync tokens follow as for any event. Accepts and rejects teach the
/// planner (``LearnedPreferences``); so do accepted sessions' events the person later moved or
/// deleted, which are read when the plan is next made.
///
/// Re-planning replaces only the proposals still waiting; accepted and rejected items stay,
/// and the planner never moves what was accepted.
public struct TwoWeekPlanning: Sendable {
    public enum Refusal: Error, Sendable, Equatable {
        case notFound(id: String)
        /// Accepted or rejected already.
        case alreadyDecided(id: String, state: PlanItem.State)
        /// Its time has begun: too late to accept.
        case started(id: String)
        /// Something took the time after the plan was made; plan again.
        case slotTaken(id: String, overlaps: [EventConflict.Overlap])
        /// Only an accepted goal session can be marked done or skipped.
        case notASession(id: String, state: PlanItem.State)
        /// A session that has not begun cannot be done or skipped yet.
        case notStarted(id: String, start: Date)
        /// Minutes done outside 1 … 1440.
        case minutes(Int)
    }

    /// A session marked: the item, and the tracker entry that records it.
    public struct Marked: Sendable {
        public let item: PlanItem
        public let entry: TrackerEntry
    }

    /// A fresh plan: the proposals, the accepted sessions in the same days, and the goal
    /// periods that could not get all they wanted.
    public struct Plan: Sendable {
        public let proposals: [PlanItem]
        public let accepted: [PlanItem]
        public let shortfalls: [GoalShortfall]
        /// To-dos that do not fit before their due date (or in the two weeks).
        public let unplacedTasks: [UnplacedTask]
        /// From now to the end of the last day; nil when the planner had no time left (late on
        /// the last minute of a day).
        public let horizon: TimeRange?
        public let intensity: PlannerIntensity
    }

    /// What accepting everything did: the accepted items, and the ones refused and why.
    public struct AcceptedAll: Sendable {
        public let accepted: [PlanItem]
        public let refused: [Refusal]
    }

    public static let horizonDays = 14
    /// The property that links an accepted session's event to its goal.
    public static let goalProperty = "X-JADWAL-GOAL"
    /// The property that links an accepted item's event to its plan item.
    public static let itemProperty = "X-JADWAL-PLAN-ITEM"
    /// Reads the Goals calendar after a phone (or any client but Jadwal's plan) changed it:
    /// sessions moved, deleted, marked done or skipped.
    public static let sessionsJob: JobKind = "plan.sessions"

    let store: StoreAccess<any CalendarWriteStore & CalendarShareStore & TrackerStore>
    let clock: Clock
    let random: RandomSource
    let busyTime: AccountBusyTime
    let writes: CalendarWrites

    public init(store: any Store, clock: Clock, random: RandomSource, busyTime: AccountBusyTime = AccountBusyTime()) {
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
        self.random = random
        self.busyTime = busyTime
        writes = CalendarWrites(store: store, clock: clock, random: random)
    }

    // MARK: Planning

    /// Proposes the next ``horizonDays`` days for every goal, in place of the proposals still
    /// waiting. Learns first from accepted sessions' events moved or deleted since.
    public func propose(account: Account) async throws -> Plan {
        let now = clock.now
        return try await store.transaction { tx in try await propose(account: account, trigger: .asked, now: now, tx: tx) }
    }

    /// The same in the caller's transaction; the plan is recorded as made by `trigger`.
    func propose(account: Account, trigger: PlanRun.Trigger, now: Date, tx: any BusyTimeStore & GoalStore & JobStore & TrackerStore) async throws -> Plan {
        let zone = TimeZone(identifier: account.timeZone) ?? .gmt
        var learning = try await tx.plannerLearning(accountID: account.id)
        if try await readSessions(account: account, zone: zone, now: now, learning: &learning, tx: tx) {
            try await tx.savePlannerLearning(learning, accountID: account.id, at: now)
        }
        let made = try await planInput(account: account, zone: zone, now: now, learning: learning, tx: tx)
        let plan = TwoWeekPlan(made.input)
        let proposals = plan.proposals.map { PlanItem($0, at: now) }
        try await tx.replaceProposedPlanItems(accountID: account.id, with: proposals + made.windDowns)
        var run = try await tx.planRun(accountID: account.id) ?? PlanRun(plannedAt: now, trigger: trigger)
        run.plannedAt = now
        run.trigger = trigger
        run.unplacedTasks = plan.unplacedTasks.map(StoredUnplacedTask.init)
        if trigger == .weekly { run.weeklyAt = now }
        try await tx.savePlanRun(run, accountID: account.id)
        let shown = made.accepted.filter { item in plan.horizon.map { item.range.overlaps($0) } ?? false }
        return Plan(proposals: (proposals + made.windDowns).sorted { $0.range.start < $1.range.start }, accepted: shown, shortfalls: plan.shortfalls,
                    unplacedTasks: plan.unplacedTasks, horizon: plan.horizon, intensity: made.preferences.intensity)
    }

    /// What a plan is made from, read in one transaction.
    struct PlanInput {
        let input: TwoWeekPlan.Input
        let preferences: PlannerPreferences
        /// Accepted items of the last week and ahead.
        let accepted: [PlanItem]
        /// Wind-down blocks still waiting for an answer: kept, and busy for the plan.
        let windDowns: [PlanItem]
    }

    /// The planner's input: goals, to-dos, busy time, accepted and rejected items, the
    /// questionnaire and what was learned. `keeping` are proposals that stay as they are (a
    /// re-plan): they hold their time and count towards their goal or to-do as accepted items
    /// do. Wind-down blocks in `dropping` are left out.
    func planInput(account: Account, zone: TimeZone, now: Date, learning: PlannerLearning, keeping kept: [PlanItem] = [],
                   dropping: Set<String> = [], tx: any BusyTimeStore & GoalStore) async throws -> PlanInput {
        let goals = try await tx.goals(accountID: account.id).map(\.goal)
        let preferences = try await Self.preferences(account: account, tx: tx)
        // One more day: a night's session that starts on the last day ends after it.
        let window = try TimeRange(start: now, duration: TimeInterval(Self.horizonDays + 1) * 86_400)
        let busy = try await busyBlocks(account: account, in: window, tx: tx)
        let sleepGoals = goals.contains { $0.category == .sleep }
        // A sleep goal is placed over the person's sleep routine, so the routine does not
        // hold that time; the questionnaire's night still closes it to every other goal.
        var blocks = sleepGoals ? busy.blocks.filter { !busy.isSleepRoutine($0) } : busy.blocks
        let decided = try await tx.planItems(accountID: account.id, states: [.accepted, .rejected])
        // Earlier in this week counts towards a weekly goal; older items change nothing.
        let recent = now.addingTimeInterval(-8 * 86_400)
        let accepted = decided.filter { $0.state == .accepted && $0.range.end > recent }
        let rejected = decided.filter { $0.state == .rejected && $0.range.end > now }
        // A wind-down block suggested after short nights waits for its answer through a re-plan.
        let windDowns = try await tx.planItems(accountID: account.id, states: [.proposed]).filter { item in
            if case .windDown = item.subject { return item.range.start >= now && !dropping.contains(item.id) }
            return false
        }
        blocks += windDowns.map { BusyBlock($0.range, .event(id: $0.id, title: $0.title)) }
        // To-dos as "Plan my tasks" sees them; time already given to one (its blocks in Task
        // Time, planned or accepted) counts towards its estimate.
        let (tasks, given) = try await plannableTasks(account: account, now: now, tx: tx)
        let input = try TwoWeekPlan.Input(
            now: now, timeZone: zone, horizonDays: Self.horizonDays, goals: goals, tasks: tasks, busy: BusyTime(blocks, window: window),
            accepted: accepted.filter { !Self.isTask($0) }.map(\.placement) + given + kept.map(\.placement), rejected: rejected.map(\.placement),
            preferences: preferences, learned: learning.model)
        return PlanInput(input: input, preferences: preferences, accepted: accepted, windDowns: windDowns)
    }

    static func isTask(_ item: PlanItem) -> Bool {
        if case .task = item.subject { return true }
        return false
    }

    /// The open to-dos with an estimate, and the time their Task Time blocks already give them.
    func plannableTasks(account: Account, now: Date, tx: any CalendarStore) async throws -> (tasks: [PlannableTask], given: [ItemPlacement]) {
        guard let list = try await TaskList.calendar(for: account, creating: false, now: now, random: random, tx: tx) else { return ([], []) }
        let stored = try await TaskList.tasks(in: list, account: account, tx: tx, parse: busyTime.parse)
        let tasks = TaskPlanner.plannable(stored).tasks
        let ids = Set(tasks.map(\.id))
        let given = try await PlannedTaskBlock.all(account: account, tx: tx, busyTime: busyTime).blocks
            .filter { ids.contains($0.taskUID) }
            .map { ItemPlacement(subject: .task(id: $0.taskUID), range: $0.range) }
        return (tasks, given)
    }

    /// The plan's items in `states`, by start; proposals whose time has begun are left out.
    public func items(account: Account, states: Set<PlanItem.State>) async throws -> [PlanItem] {
        let now = clock.now
        return try await store.read { tx in
            try await tx.planItems(accountID: account.id, states: states).filter { $0.state != .proposed || $0.range.start >= now }
        }
    }

    /// What became of accepted sessions marked done or skipped in the last two months, by item id.
    public func outcomes(account: Account) async throws -> [String: TrackerEntry.Outcome] {
        let now = clock.now
        return try await store.read { tx in
            let entries = try await tx.trackerEntries(accountID: account.id, metric: nil, from: now.addingTimeInterval(-61 * 86_400),
                                                      to: now.addingTimeInterval(2 * 86_400), limit: 100_000)
            var outcomes: [String: TrackerEntry.Outcome] = [:]
            for entry in entries {
                if let id = entry.planItemID, let outcome = entry.outcome { outcomes[id] = outcome }
            }
            return outcomes
        }
    }

    public func item(id: String, account: Account) async throws -> PlanItem {
        try await store.read { tx in
            guard let item = try await tx.planItem(id: id, accountID: account.id) else { throw Refusal.notFound(id: id) }
            return item
        }
    }

    // MARK: Answers

    /// Accepts a proposal: its time must still be free; it becomes an event in the Goals calendar
    /// (made on first use), and the planner learns the hour.
    public func accept(id: String, account: Account) async throws -> PlanItem {
        let now = clock.now
        return try await store.transaction { tx in
            guard let item = try await tx.planItem(id: id, accountID: account.id) else { throw Refusal.notFound(id: id) }
            var learning = try await tx.plannerLearning(accountID: account.id)
            let busy = try await busyBlocks(account: account, in: item.range, tx: tx)
            let goals = try await tx.goals(accountID: account.id)
            let accepted = try await accept(item, account: account, goals: goals, busy: busy, learning: &learning, now: now, tx: tx)
            try await tx.savePlannerLearning(learning, accountID: account.id, at: now)
            return accepted
        }
    }

    /// Accepts every proposal still waiting whose time is free, in time order; the others are
    /// refused one by one and left waiting.
    public func acceptAll(account: Account) async throws -> AcceptedAll {
        let now = clock.now
        return try await store.transaction { tx in
            let waiting = try await tx.planItems(accountID: account.id, states: [.proposed]).filter { $0.range.start >= now }
            guard let first = waiting.map(\.range.start).min(), let last = waiting.map(\.range.end).max() else {
                return AcceptedAll(accepted: [], refused: [])
            }
            var learning = try await tx.plannerLearning(accountID: account.id)
            // Read once for them all: proposals never overlap each other, so accepting one
            // cannot take another's time.
            let busy = try await busyBlocks(account: account, in: try TimeRange(start: first, end: last), tx: tx)
            let goals = try await tx.goals(accountID: account.id)
            var accepted: [PlanItem] = []
            var refused: [Refusal] = []
            for item in waiting {
                do {
                    accepted.append(try await accept(item, account: account, goals: goals, busy: busy, learning: &learning, now: now, tx: tx))
                } catch let refusal as Refusal {
                    refused.append(refusal)
                }
            }
            if !accepted.isEmpty { try await tx.savePlannerLearning(learning, accountID: account.id, at: now) }
            return AcceptedAll(accepted: accepted, refused: refused)
        }
    }

    /// Rejects a proposal: never proposed there again, and its hour is proposed less.
    public func reject(id: String, account: Account) async throws -> PlanItem {
        let now = clock.now
        let zone = TimeZone(identifier: account.timeZone) ?? .gmt
        return try await store.transaction { tx in
            guard var item = try await tx.planItem(id: id, accountID: account.id) else { throw Refusal.notFound(id: id) }
            guard item.state == .proposed else { throw Refusal.alreadyDecided(id: id, state: item.state) }
            item.state = .rejected
            item.decidedAt = now
            try await tx.updatePlanItem(item, accountID: account.id)
            if let goalID = item.goalID {
                var learning = try await tx.plannerLearning(accountID: account.id)
                learning.model.record(.rejected(item.range.start), goalID: goalID, timeZone: zone)
                try await tx.savePlannerLearning(learning, accountID: account.id, at: now)
            }
            return item
        }
    }

    /// Forgets what the planner learned, about one goal or all of them.
    public func forgetLearning(account: Account, goalID: String? = nil) async throws {
        let now = clock.now
        try await store.transaction { tx in
            var learning = try await tx.plannerLearning(accountID: account.id)
            if let goalID {
                guard try await tx.goal(id: goalID, accountID: account.id) != nil else { throw Goals.Problem.notFound(id: goalID) }
                learning.model.reset(goalID: goalID)
            } else {
                learning.model.resetAll()
            }
            try await tx.savePlannerLearning(learning, accountID: account.id, at: now)
        }
    }

    public func learning(account: Account) async throws -> LearnedPreferences {
        try await store.read { tx in try await tx.plannerLearning(accountID: account.id).model }
    }

    // MARK: Questionnaire

    public func answers(account: Account) async throws -> PlannerAnswers {
        try await store.read { tx in try await tx.plannerAnswers(accountID: account.id) }
    }

    /// The answers, and when they were last saved (nil: the questionnaire was never answered nor
    /// skipped, so a first-run step may offer it).
    public func questionnaire(account: Account) async throws -> (answers: PlannerAnswers, savedAt: Date?) {
        try await store.read { tx in
            (try await tx.plannerAnswers(accountID: account.id), try await tx.plannerAnswersSavedAt(accountID: account.id))
        }
    }

    /// Saves the questionnaire (skipped questions as nil), each answer checked first.
    public func saveAnswers(_ answers: PlannerAnswers, account: Account) async throws -> PlannerAnswers {
        _ = try answers.checked()
        let now = clock.now
        return try await store.transaction { tx in
            try await tx.savePlannerAnswers(answers, accountID: account.id, at: now)
            // Work days and the night set when the weekly plan is made.
            if !(try await tx.goals(accountID: account.id)).isEmpty {
                try await Self.queueWeekly(account: account, now: now, random: random, tx: tx)
            }
            return answers
        }
    }

    /// The questionnaire's answers as the planner reads them; a skipped question falls back to
    /// what the person set elsewhere (the sleep routine, working hours) and then to 07:00–23:00
    /// awake, every part of the day alike, the full plan.
    static func preferences(account: Account, tx: any CalendarStore & ConflictStore & GoalStore) async throws -> PlannerPreferences {
        let answers = (try? (try await tx.plannerAnswers(accountID: account.id)).checked()) ?? PlannerAnswers.Checked()
        let sleepHours = try await RoutineCalendar.sleepHours(account: account, tx: tx).first
        let work: WeeklyHours?
        if let answered = answers.work { work = answered } else { work = try await tx.conflictSettings(accountID: account.id).workingHours }
        let defaultWake = try TimeOfDay(hour: 7), defaultSleep = try TimeOfDay(hour: 23)
        let wake = answers.wake ?? sleepHours?.end ?? defaultWake
        let sleep = answers.sleep ?? sleepHours?.start ?? defaultSleep
        let intensity = answers.intensity ?? .full
        if let preferences = try? PlannerPreferences(
            wake: wake, sleep: sleep, work: work, exerciseTime: answers.exerciseTime, focusTime: answers.focusTime, intensity: intensity) {
            return preferences
        }
        // One answer and the routine disagree so that the night is empty: the defaults hold.
        return try PlannerPreferences(
            wake: defaultWake, sleep: defaultSleep, work: work, exerciseTime: answers.exerciseTime, focusTime: answers.focusTime, intensity: intensity)
    }

    // MARK: Inside a transaction

    /// Busy time over `window`, and which of it is the person's sleep routines.
    struct Busy: Sendable {
        var blocks: [BusyBlock]
        var sleepRoutines: Set<String>

        func isSleepRoutine(_ block: BusyBlock) -> Bool {
            if case .routine(let id, _) = block.kind { return sleepRoutines.contains(id) }
            return false
        }

        /// What an item of the plan runs into: everything busy, but a sleep goal's session and
        /// a wind-down block go over the sleep routine.
        func overlaps(of item: PlanItem, goals: [StoredGoal]) -> [BusyOverlap] {
            let goal = item.goalID.flatMap { id in goals.first { $0.id == id } }?.goal
            var blocks = goal?.category == .sleep ? self.blocks.filter { !isSleepRoutine($0) } : self.blocks
            if case .windDown = item.subject { blocks = blocks.filter { !isSleepRoutine($0) } }
            return BusyTime(blocks).overlaps(with: item.range)
        }
    }

    func busyBlocks(account: Account, in window: TimeRange, tx: any BusyTimeStore) async throws -> Busy {
        let blocks = try await busyTime.blocks(account: account, in: window, tx: tx)
        var sleepRoutines: Set<String> = []
        if let calendar = try await tx.calendar(accountID: account.id, slug: DefaultCalendars.routinesSlug) {
            for routine in try await RoutineCalendar.list(account: account, tx: tx).routines where routine.fields.kind == .sleep {
                sleepRoutines.insert(EventOccurrence.reference(calendarID: calendar.id, objectName: routine.objectName))
            }
        }
        return Busy(blocks: blocks, sleepRoutines: sleepRoutines)
    }

    /// Accepts one waiting item against busy time read in this transaction.
    func accept(_ item: PlanItem, account: Account, goals: [StoredGoal], busy: Busy, learning: inout PlannerLearning, now: Date,
                tx: any CalendarWriteStore) async throws -> PlanItem {
        guard item.state == .proposed else { throw Refusal.alreadyDecided(id: item.id, state: item.state) }
        guard item.range.start >= now else { throw Refusal.started(id: item.id) }
        let overlaps = busy.overlaps(of: item, goals: goals)
        guard overlaps.isEmpty else { throw Refusal.slotTaken(id: item.id, overlaps: overlaps.map(ConflictCheck.overlap)) }

        let identity = ObjectIdentity.new(random: random)
        let arabic = account.language == .arabic
        let calendar: CalendarCollection
        let text: String
        switch item.subject {
        case .task(let uid):
            // Written as "Plan my tasks" writes its blocks, so the to-do shows its planned time;
            // "Plan my tasks" keeps it where it is (the accepted item pins it).
            if let existing = try await tx.calendar(accountID: account.id, slug: DefaultCalendars.plannedTasksSlug), existing.components.contains(.event) {
                calendar = existing
            } else {
                calendar = try await tx.eventCalendar(DefaultCalendars.plannedTasks(for: account, now: now, random: random))
            }
            text = PlacedEvent.text(
                title: item.title.isEmpty ? "To-do" : item.title, range: item.range, uid: identity.uid, timeZone: account.timeZone, now: now,
                description: arabic ? "وقت للمهمة \"\(item.title)\"، قبلته من خطة الأسبوعين في جدول."
                    : "Time for the to-do \"\(item.title)\", accepted from your two-week plan in Jadwal.",
                properties: [("RELATED-TO", uid), (TaskPlanner.markerProperty, "1"), (Self.itemProperty, item.id)], product: "-//Jadwal//Goals//EN")
        case .goal(let goalID), .windDown(let goalID):
            calendar = try await tx.eventCalendar(DefaultCalendars.goals(for: account, now: now, id: random.uuid()))
            let description: String
            if case .windDown = item.subject {
                description = arabic ? "وقت للاسترخاء قبل النوم، اقترحه جدول بعد ليالٍ قصيرة." : "Time to wind down before bed, suggested by Jadwal after short nights."
            } else {
                description = arabic ? "جلسة لهدفك \"\(item.title)\"، قبلتها من خطة الأسبوعين في جدول. ضع ✓ أول العنوان إذا أنجزتها، أو ✗ إذا فاتتك."
                    : "A session for your goal \"\(item.title)\", accepted from your two-week plan in Jadwal. Put ✓ at the start of the title when done, or ✗ when skipped."
            }
            text = PlacedEvent.text(
                title: item.title, range: item.range, uid: identity.uid, timeZone: account.timeZone, now: now, description: description,
                properties: [(Self.goalProperty, goalID), (Self.itemProperty, item.id)], product: "-//Jadwal//Goals//EN")
        }
        let content: CalendarObjectContent
        do {
            content = try CalendarObjectContent(text: text)
        } catch {
            throw TaskPlanner.PlanningFailure(description: "the event for plan item \(item.id) could not be written: \(error)")
        }
        _ = try await writes.put(content, name: identity.name, in: calendar, ifNoneMatch: true, source: .goalPlan, transaction: tx)

        var accepted = item
        accepted.state = .accepted
        accepted.event = PlanItem.EventReference(calendarID: calendar.id, name: identity.name)
        accepted.decidedAt = now
        try await tx.updatePlanItem(accepted, accountID: account.id)
        if let goalID = item.goalID {
            learning.model.record(.accepted(item.range.start), goalID: goalID, timeZone: TimeZone(identifier: account.timeZone) ?? .gmt)
        }
        return accepted
    }

    /// Reads where accepted items' events are now, and what they say. A session moved on a phone
    /// teaches the planner the new hour (and the item follows it); one deleted, or cancelled
    /// before it began, teaches it to avoid the old one (and the item goes, so the goal may get a
    /// session again). A session marked done or skipped (``SessionMark``) once it has begun is
    /// recorded in the tracker. A to-do's block or a wind-down block only follows its event.
    /// True when the planner learned something.
    func readSessions(account: Account, zone: TimeZone, now: Date, learning: inout PlannerLearning, tx: any CalendarStore & GoalStore & JobStore & TrackerStore) async throws -> Bool {
        var learned = false
        var tracked = false
        let recent = now.addingTimeInterval(-8 * 86_400)
        var calendars: [UUID: CalendarCollection?] = [:]
        var goals: [String: Goal]?
        for item in try await tx.planItems(accountID: account.id, states: [.accepted]) where item.range.end > recent {
            guard let event = item.event else { continue }
            if calendars[event.calendarID] == nil { calendars[event.calendarID] = .some(try await tx.calendar(id: event.calendarID)) }
            var occurrences: [EventOccurrence] = []
            var master: Component?
            if let calendar = calendars[event.calendarID] ?? nil, calendar.accountID == account.id,
               let object = try await tx.calendarObject(calendarID: calendar.id, name: event.name) {
                // Jadwal writes one instance; a phone may have moved it by weeks either way.
                let start = item.range.start.addingTimeInterval(-60 * 86_400), end = item.range.end.addingTimeInterval(60 * 86_400)
                let around = try TimeRange(start: start, end: end)
                occurrences = busyTime.occurrences(of: object, calendar: calendar, accountZone: account.timeZone, in: around, limit: 2)
                master = busyTime.parse(object)?.master("VEVENT")
            }
            let current = occurrences.first { !$0.traits.isCancelled }
            let begun = (current?.range.start ?? item.range.start) <= now
            guard case .goal(let goalID) = item.subject else {
                // A to-do's block or a wind-down: it goes with its event, and follows it.
                if current == nil {
                    try await tx.deletePlanItem(id: item.id, accountID: account.id)
                } else if let current, current.range != item.range {
                    var moved = item
                    moved.range = current.range
                    try await tx.updatePlanItem(moved, accountID: account.id)
                }
                continue
            }
            if goals == nil { goals = Dictionary(try await tx.goals(accountID: account.id).map { ($0.id, $0.goal) }, uniquingKeysWith: { a, _ in a }) }
            guard let goal = goals?[goalID] else { continue }
            guard let occurrence = current, let master else {
                if begun, !occurrences.isEmpty, let master, SessionMark.outcome(of: master, started: true) != nil {
                    // Cancelled once it had begun: skipped, not deleted.
                    tracked = try await record(SessionMark.outcome(of: master, started: true) ?? .skipped, of: item, goal: goal, minutes: nil,
                                               account: account, now: now, tx: tx) || tracked
                    continue
                }
                learning.model.record(.deleted(item.range.start), goalID: goalID, timeZone: zone)
                try await tx.deletePlanItem(id: item.id, accountID: account.id)
                learned = true
                continue
            }
            var session = item
            if occurrence.range != item.range {
                if occurrence.range.start != item.range.start {
                    learning.model.record(.moved(from: item.range.start, to: occurrence.range.start), goalID: goalID, timeZone: zone)
                    learned = true
                }
                session.range = occurrence.range
                try await tx.updatePlanItem(session, accountID: account.id)
            }
            guard begun else { continue }
            if let outcome = SessionMark.outcome(of: master, started: true) {
                tracked = try await record(outcome, of: session, goal: goal, minutes: nil, account: account, now: now, tx: tx) || tracked
            } else if let entry = try await tx.trackerEntry(planItemID: item.id, accountID: account.id) {
                // The mark was taken off the title: the session is neither done nor skipped.
                _ = try await tx.deleteTrackerEntry(id: entry.id, accountID: account.id)
                tracked = true
            }
        }
        if tracked { try await TrackerProgress.queueCheck(accountID: account.id, now: now, random: random, tx: tx) }
        return learned
    }

    /// Reads the Goals calendar after a client changed it (the job ``sessionsJob`` runs this).
    public func readSessions(accountID: UUID) async throws {
        let now = clock.now
        try await store.transaction { tx in
            guard let account = try await tx.account(id: accountID) else { return }
            var learning = try await tx.plannerLearning(accountID: account.id)
            if try await readSessions(account: account, zone: TimeZone(identifier: account.timeZone) ?? .gmt, now: now, learning: &learning, tx: tx) {
                try await tx.savePlannerLearning(learning, accountID: account.id, at: now)
            }
        }
    }

    struct SessionsRequest: Codable { var accountID: UUID }

    /// Queues ``sessionsJob`` for the account in the caller's transaction (one waiting at a time).
    static func queueSessionRead(accountID: UUID, now: Date, random: RandomSource, tx: any JobStore) async throws {
        let subject = "sessions:" + accountID.uuidString.lowercased()
        _ = try await tx.cancelQueuedJobs(kind: sessionsJob, subject: subject)
        let payload = String(decoding: try JSONEncoder().encode(SessionsRequest(accountID: accountID)), as: UTF8.self)
        try await tx.enqueue(Job.new(sessionsJob, payload: payload, maxAttempts: 5, runAt: now, now: now, id: random.uuid(), subject: subject))
    }

    /// The account a ``sessionsJob`` is for.
    public static func account(of job: Job) throws -> UUID {
        try JSONDecoder().decode(SessionsRequest.self, from: Data(job.payload.utf8)).accountID
    }

    // MARK: Done and skipped

    /// Marks an accepted session done (with the minutes done, the session's length unless
    /// given) or skipped: the tracker records it, and the event says it (its title starts with
    /// ✓ or ✗), as a phone would mark it. Marking again changes the mark.
    public func mark(id: String, _ outcome: TrackerEntry.Outcome, minutes: Int? = nil, account: Account) async throws -> Marked {
        let now = clock.now
        if let minutes, !(1...1440).contains(minutes) { throw Refusal.minutes(minutes) }
        return try await store.transaction { tx in
            guard let item = try await tx.planItem(id: id, accountID: account.id) else { throw Refusal.notFound(id: id) }
            guard item.state == .accepted, case .goal(let goalID) = item.subject else { throw Refusal.notASession(id: id, state: item.state) }
            guard item.range.start <= now else { throw Refusal.notStarted(id: id, start: item.range.start) }
            guard let goal = try await tx.goal(id: goalID, accountID: account.id)?.goal else { throw Refusal.notFound(id: id) }
            _ = try await record(outcome, of: item, goal: goal, minutes: minutes, account: account, now: now, tx: tx)
            if let event = item.event, let calendar = try await tx.calendar(id: event.calendarID), calendar.accountID == account.id,
               let object = try await tx.calendarObject(calendarID: calendar.id, name: event.name),
               var parsed = try? ICalendarParser().parseCalendar(object.icalendar), let index = parsed.masterIndex("VEVENT") {
                parsed.components[index] = SessionMark.marked(parsed.components[index], outcome)
                if let content = try? CalendarObjectContent(text: ICalendarSerializer().serialize(parsed)) {
                    _ = try await writes.put(content, name: event.name, in: calendar, ifMatch: object.etag, source: .goalPlan, transaction: tx)
                }
            }
            try await TrackerProgress.queueCheck(accountID: account.id, now: now, random: random, tx: tx)
            guard let entry = try await tx.trackerEntry(planItemID: item.id, accountID: account.id) else { throw Refusal.notFound(id: id) }
            return Marked(item: item, entry: entry)
        }
    }

    /// Records (or changes) the tracker entry of a session; false when it already said this.
    func record(_ outcome: TrackerEntry.Outcome, of item: PlanItem, goal: Goal, minutes: Int?, account: Account, now: Date,
                tx: any TrackerStore) async throws -> Bool {
        let existing = try await tx.trackerEntry(planItemID: item.id, accountID: account.id)
        let length = minutes.map(Double.init) ?? (item.range.duration / 60).rounded()
        let value = outcome == .done ? length : 0
        if let existing, existing.outcome == outcome, existing.start == item.range.start, minutes == nil || existing.value == value { return false }
        let entry = TrackerEntry(
            id: existing?.id ?? random.uuid(), metric: Self.metric(for: goal), start: item.range.start, end: item.range.end, value: value,
            unit: Tracker.minutesUnit, kind: goal.category == .exercise ? String(goal.title.prefix(Tracker.nameLimit)) : nil, note: nil,
            createdAt: existing?.createdAt ?? now, updatedAt: now, source: .plan, externalID: nil, goalID: goal.id, planItemID: item.id,
            outcome: outcome)
        if existing == nil {
            try await tx.insertTrackerEntry(entry, accountID: account.id)
        } else {
            try await tx.updateTrackerEntry(entry, accountID: account.id)
        }
        return true
    }

    /// The tracker metric a goal's sessions count in: exercise and sleep as themselves, any other
    /// goal under its title (`Read books` → `read-books`).
    public static func metric(for goal: Goal) -> String {
        switch goal.category {
        case .exercise: return Tracker.exercise
        case .sleep: return Tracker.sleep
        case .focus, .other:
            var name = ""
            for character in goal.title.lowercased() {
                if character.isLetter || character.isNumber {
                    name.append(character)
                } else if !name.isEmpty, name.last != "-" {
                    name.append("-")
                }
            }
            while name.last == "-" { name.removeLast() }
            name = String(name.prefix(Tracker.nameLimit))
            while name.last == "-" { name.removeLast() }
            if name.isEmpty || name == Tracker.tasksMetric || !Tracker.isMetricName(name) { return "goal" }
            return name
        }
    }
}

extension DefaultCalendars {
    /// Made when the first proposal is accepted: one event per accepted goal session.
    public static let goalsSlug = "goals"

    /// The calendar that holds accepted goal sessions.
    public static func goals(for account: Account, now: Date, id: UUID) -> CalendarCollection {
        let arabic = account.language == .arabic
        return CalendarCollection(
            id: id, accountID: account.id, slug: goalsSlug, displayName: arabic ? "الأهداف" : "Goals",
            description: arabic ? "جلسات قبلتها من خطة الأسبوعين" : "Sessions you accepted from your two-week plan",
            color: CalendarPalette.goals, order: 5, timeZone: account.timeZone, components: [.event], createdAt: now)
    }
}

extension Account {
    /// The language reasons are worded in for this person.
    public var reasonLanguage: ReasonLanguage { language == .arabic ? .arabic : .english }
}
