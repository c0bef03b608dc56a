import Foundation
import Scheduling

/// The two-week plan of one person: proposes sessions for their goals against their real busy
/// time (``TwoWeekPlan`` decides), keeps the proposals until they are answered, and turns each
/// accepted one into an event in the Goals calendar through ``CalendarWrites``, so conflict
/// checks, reminders and sync tokens follow as for any event. Accepts and rejects teach the
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
    }

    /// A fresh plan: the proposals, the accepted sessions in the same days, and the goal
    /// periods that could not get all they wanted.
    public struct Plan: Sendable {
        public let proposals: [PlanItem]
        public let accepted: [PlanItem]
        public let shortfalls: [GoalShortfall]
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

    let store: any Store
    let clock: Clock
    let random: RandomSource
    let busyTime: AccountBusyTime
    let writes: CalendarWrites

    public init(store: any Store, clock: Clock, random: RandomSource = .system, busyTime: AccountBusyTime = AccountBusyTime()) {
        self.store = store
        self.clock = clock
        self.random = random
        self.busyTime = busyTime
        writes = CalendarWrites(store: store, clock: clock)
    }

    // MARK: Planning

    /// Proposes the next ``horizonDays`` days for every goal, in place of the proposals still
    /// waiting. Learns first from accepted sessions' events moved or deleted since.
    public func propose(account: Account) async throws -> Plan {
        let now = clock.now
        let zone = TimeZone(identifier: account.timeZone) ?? .gmt
        return try await store.transaction { tx in
            let goals = try await tx.goals(accountID: account.id).map(\.goal)
            var learning = try await tx.plannerLearning(accountID: account.id)
            if try await learnFromEvents(account: account, zone: zone, now: now, learning: &learning, tx: tx) {
                try await tx.savePlannerLearning(learning, accountID: account.id, at: now)
            }
            let preferences = try await Self.preferences(account: account, tx: tx)
            // One more day: a night's session that starts on the last day ends after it.
            let window = try TimeRange(start: now, duration: TimeInterval(Self.horizonDays + 1) * 86_400)
            let busy = try await busyBlocks(account: account, in: window, tx: tx)
            let sleepGoals = goals.contains { $0.category == .sleep }
            // A sleep goal is placed over the person's sleep routine, so the routine does not
            // hold that time; the questionnaire's night still closes it to every other goal.
            let blocks = sleepGoals ? busy.blocks.filter { !busy.isSleepRoutine($0) } : busy.blocks
            let decided = try await tx.planItems(accountID: account.id, states: [.accepted, .rejected])
            // Earlier in this week counts towards a weekly goal; older items change nothing.
            let recent = now.addingTimeInterval(-8 * 86_400)
            let accepted = decided.filter { $0.state == .accepted && $0.range.end > recent }
            let rejected = decided.filter { $0.state == .rejected && $0.range.end > now }
            let input = try TwoWeekPlan.Input(
                now: now, timeZone: zone, horizonDays: Self.horizonDays, goals: goals, busy: BusyTime(blocks, window: window),
                accepted: accepted.map(\.placement), rejected: rejected.map(\.placement), preferences: preferences, learned: learning.model)
            let plan = TwoWeekPlan(input)
            let proposals = plan.proposals.map { PlanItem($0, at: now) }
            try await tx.replaceProposedPlanItems(accountID: account.id, with: proposals)
            let shown = accepted.filter { item in plan.horizon.map { item.range.overlaps($0) } ?? false }
            return Plan(proposals: proposals, accepted: shown, shortfalls: plan.shortfalls, horizon: plan.horizon,
                        intensity: preferences.intensity)
        }
    }

    /// The plan's items in `states`, by start; proposals whose time has begun are left out.
    public func items(account: Account, states: Set<PlanItem.State>) async throws -> [PlanItem] {
        let now = clock.now
        return try await store.read { tx in
            try await tx.planItems(accountID: account.id, states: states).filter { $0.state != .proposed || $0.range.start >= now }
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

    /// Saves the questionnaire (skipped questions as nil), each answer checked first.
    public func saveAnswers(_ answers: PlannerAnswers, account: Account) async throws -> PlannerAnswers {
        _ = try answers.checked()
        let now = clock.now
        return try await store.transaction { tx in
            try await tx.savePlannerAnswers(answers, accountID: account.id, at: now)
            return answers
        }
    }

    /// The questionnaire's answers as the planner reads them; a skipped question falls back to
    /// what the person set elsewhere (the sleep routine, working hours) and then to 07:00–23:00
    /// awake, every part of the day alike, the full plan.
    static func preferences(account: Account, tx: any StoreTransaction) async throws -> PlannerPreferences {
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
    }

    func busyBlocks(account: Account, in window: TimeRange, tx: any StoreTransaction) async throws -> Busy {
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
                tx: any StoreTransaction) async throws -> PlanItem {
        guard item.state == .proposed else { throw Refusal.alreadyDecided(id: item.id, state: item.state) }
        guard item.range.start >= now else { throw Refusal.started(id: item.id) }
        let goal = item.goalID.flatMap { id in goals.first { $0.id == id } }?.goal
        let blocks = goal?.category == .sleep ? busy.blocks.filter { !busy.isSleepRoutine($0) } : busy.blocks
        let overlaps = BusyTime(blocks).overlaps(with: item.range)
        guard overlaps.isEmpty else { throw Refusal.slotTaken(id: item.id, overlaps: overlaps.map(ConflictCheck.overlap)) }

        let calendar = try await tx.eventCalendar(DefaultCalendars.goals(for: account, now: now, id: random.uuid()))
        let identity = ObjectIdentity.new(random: random)
        let arabic = account.language == .arabic
        let description = arabic
            ? "جلسة لهدفك \"\(item.title)\"، قبلتها من خطة الأسبوعين في جدول."
            : "A session for your goal \"\(item.title)\", accepted from your two-week plan in Jadwal."
        let text = PlacedEvent.text(
            title: item.title, range: item.range, uid: identity.uid, timeZone: account.timeZone, now: now, description: description,
            properties: [(Self.goalProperty, item.goalID ?? item.subject.description)], product: "-//Jadwal//Goals//EN")
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

    /// Reads where accepted sessions' events are now: one moved on a phone teaches the planner
    /// the new hour (and the item follows it); one deleted or cancelled teaches it to avoid the
    /// old one (and the item goes, so the goal may get a session again). True when it learned.
    func learnFromEvents(account: Account, zone: TimeZone, now: Date, learning: inout PlannerLearning, tx: any StoreTransaction) async throws -> Bool {
        var learned = false
        let recent = now.addingTimeInterval(-8 * 86_400)
        var calendars: [UUID: CalendarCollection?] = [:]
        for item in try await tx.planItems(accountID: account.id, states: [.accepted]) where item.range.end > recent {
            guard let event = item.event else { continue }
            if calendars[event.calendarID] == nil { calendars[event.calendarID] = .some(try await tx.calendar(id: event.calendarID)) }
            var current: EventOccurrence?
            if let calendar = calendars[event.calendarID] ?? nil, calendar.accountID == account.id,
               let object = try await tx.calendarObject(calendarID: calendar.id, name: event.name) {
                // Jadwal writes one instance; a phone may have moved it by weeks either way.
                let start = item.range.start.addingTimeInterval(-60 * 86_400), end = item.range.end.addingTimeInterval(60 * 86_400)
                let around = try TimeRange(start: start, end: end)
                current = busyTime.occurrences(of: object, calendar: calendar, accountZone: account.timeZone, in: around, limit: 2)
                    .first { !$0.traits.isCancelled }
            }
            guard let goalID = item.goalID else { continue }
            guard let occurrence = current else {
                learning.model.record(.deleted(item.range.start), goalID: goalID, timeZone: zone)
                try await tx.deletePlanItem(id: item.id, accountID: account.id)
                learned = true
                continue
            }
            guard occurrence.range != item.range else { continue }
            if occurrence.range.start != item.range.start {
                learning.model.record(.moved(from: item.range.start, to: occurrence.range.start), goalID: goalID, timeZone: zone)
                learned = true
            }
            var moved = item
            moved.range = occurrence.range
            try await tx.updatePlanItem(moved, accountID: account.id)
        }
        return learned
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
