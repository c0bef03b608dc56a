import Foundation
import Scheduling

/// The plan's own jobs: the weekly plan, and the re-plan after a calendar change.
///
/// **Weekly.** Every person with goals gets a fresh two-week plan once a week, in the evening
/// before their week begins (``WeeklyPlanTime``, in their zone, from their work days): one
/// `plan.weekly` job per account, queued when a goal is made or the questionnaire changes, and
/// again by each run for the week after. A daily sweep queues it for every account with goals, so
/// a job that died, a zone that changed or goals made before this job existed are picked up
/// within a day. The time is counted from the last weekly plan, so re-queueing never skips a week
/// and a job that runs twice plans once.
///
/// **Re-plan.** A conflict check that finds a written event over a proposal still waiting for an
/// answer queues `plan.replan` for the account (one waiting at a time). The re-plan replaces only
/// the proposals something now overlaps, each by one for the same goal or to-do in a free slot;
/// the other proposals stay as they are (holding their time, counting towards their goal), and
/// accepted items are never moved.
///
/// Both tell the person once, through ``NotificationDispatch`` (held by quiet hours and prayer
/// like every notice that is not urgent), under the `progress` kind.
extension TwoWeekPlanning {
    public static let weeklyJob: JobKind = "plan.weekly"
    public static let weeklySweepJob: JobKind = "plan.weekly.sweep"
    public static let replanJob: JobKind = "plan.replan"
    public static let weeklySweepInterval: TimeInterval = 86_400

    /// The subject of an account's ``weeklyJob`` or ``replanJob``, so a queued one is found and replaced.
    static func subject(_ prefix: String, _ accountID: UUID) -> String { prefix + ":" + accountID.uuidString.lowercased() }

    /// The payload of both: the account, read back by ``account(of:)``.
    static func payload(_ accountID: UUID) throws -> String {
        String(decoding: try JSONEncoder().encode(SessionsRequest(accountID: accountID)), as: UTF8.self)
    }

    // MARK: Weekly

    /// When the next weekly plan is due: the plan time after the last weekly plan (so a week
    /// is never skipped), now when that has passed, and the next plan time when there was none.
    static func nextWeekly(account: Account, now: Date, tx: any CalendarStore & ConflictStore & GoalStore) async throws -> Date {
        let preferences = try await preferences(account: account, tx: tx)
        let zone = TimeZone(identifier: account.timeZone) ?? .gmt
        guard let last = try await tx.planRun(accountID: account.id)?.weeklyAt else {
            return WeeklyPlanTime.next(after: now, preferences: preferences, timeZone: zone)
        }
        return max(WeeklyPlanTime.next(after: last, preferences: preferences, timeZone: zone), now)
    }

    /// Queues the account's weekly plan at its time, in place of one queued already (in the
    /// caller's transaction: a goal made, the questionnaire answered, the sweep).
    static func queueWeekly(account: Account, now: Date, random: RandomSource, tx: any CalendarStore & ConflictStore & GoalStore & JobStore) async throws {
        let subject = subject("plan-weekly", account.id)
        _ = try await tx.cancelQueuedJobs(kind: weeklyJob, subject: subject)
        let at = try await nextWeekly(account: account, now: now, tx: tx)
        try await tx.enqueue(Job.new(weeklyJob, payload: try payload(account.id), maxAttempts: 5, runAt: at, now: now, id: random.uuid(), subject: subject))
    }

    /// What a weekly run did: the plan it made (nil when none was due, or the person has no
    /// goals or turned the planner off), the notice it posted, and when the next one is queued.
    public struct WeeklyRun: Sendable {
        public let plan: Plan?
        public let notification: AccountNotification?
        public let next: Date?
    }

    /// Makes the account's weekly plan when it is due, tells the person, and queues the next.
    /// A person without goals gets none and no next one (their next goal queues it).
    public func runWeekly(accountID: UUID) async throws -> WeeklyRun {
        let now = clock.now
        return try await store.transaction { tx in
            guard let account = try await tx.account(id: accountID), !account.isDisabled,
                  !(try await tx.goals(accountID: account.id)).isEmpty
            else { return WeeklyRun(plan: nil, notification: nil, next: nil) }
            // A week after the last weekly plan at the earliest: a second copy of the job (a
            // worker that died after committing) waits for the next one.
            if try await tx.planRun(accountID: account.id)?.weeklyAt != nil {
                let due = try await Self.nextWeekly(account: account, now: now, tx: tx)
                guard due <= now else {
                    try await Self.queueWeekly(account: account, now: now, random: random, tx: tx)
                    return WeeklyRun(plan: nil, notification: nil, next: due)
                }
            }
            let preferences = try await Self.preferences(account: account, tx: tx)
            var plan: Plan?
            var posted: AccountNotification?
            if preferences.intensity != .off {
                let made = try await propose(account: account, trigger: .weekly, now: now, tx: tx)
                plan = made
                let waiting = made.proposals.filter { $0.state == .proposed }
                if let first = waiting.first {
                    let zone = TimeZone(identifier: account.timeZone) ?? .gmt
                    let words = NotificationText(account: account).weeklyPlan(proposals: waiting.count, first: first.range.start,
                                                                              unplacedTasks: made.unplacedTasks.count)
                    posted = try await NotificationDispatch.post(
                        NotificationDraft(kind: .progress, reasonKey: "plan-weekly:\(TrackerCalendar(zone: zone).dayText(now))", title: words.title,
                                          body: words.body, links: ["url": "/plan#plan"], urgent: false),
                        account: account, now: now, random: random, tx: tx)
                }
            } else {
                // Off: nothing is proposed, but the week counts, so turning it on waits for the next one.
                var run = try await tx.planRun(accountID: account.id) ?? PlanRun(plannedAt: now, trigger: .weekly)
                run.weeklyAt = now
                try await tx.savePlanRun(run, accountID: account.id)
            }
            try await Self.queueWeekly(account: account, now: now, random: random, tx: tx)
            return WeeklyRun(plan: plan, notification: posted, next: try await Self.nextWeekly(account: account, now: now, tx: tx))
        }
    }

    /// Queues the weekly plan of every account with goals, and the next sweep; how many accounts.
    public func sweepWeekly() async throws -> Int {
        let now = clock.now
        return try await store.transaction { tx in
            var queued = 0
            for accountID in try await tx.accountsWithGoals() {
                guard let account = try await tx.account(id: accountID), !account.isDisabled else { continue }
                try await Self.queueWeekly(account: account, now: now, random: random, tx: tx)
                queued += 1
            }
            try await tx.queueSweep(Self.weeklySweepJob, at: now.addingTimeInterval(Self.weeklySweepInterval), now: now, random: random)
            return queued
        }
    }

    /// Makes sure a sweep is queued (at start-up: the first one runs at once).
    public func ensureWeeklySweep() async throws {
        let now = clock.now
        try await store.transaction { tx in try await tx.ensureSweep(Self.weeklySweepJob, now: now, random: random) }
    }


    // MARK: Re-plan

    /// Queues a re-plan of the account in the caller's transaction, in place of one still waiting.
    static func queueReplan(accountID: UUID, now: Date, random: RandomSource, tx: any JobStore) async throws {
        let subject = subject("plan-replan", accountID)
        _ = try await tx.cancelQueuedJobs(kind: replanJob, subject: subject)
        try await tx.enqueue(Job.new(replanJob, payload: try payload(accountID), maxAttempts: 5, runAt: now, now: now, id: random.uuid(), subject: subject))
    }

    /// A proposal something now overlaps, and what took its place (nil: no other time fits).
    public struct Replacement: Sendable, Hashable {
        public let broken: PlanItem
        public let replacement: PlanItem?
    }

    /// What a re-plan did.
    public struct Replan: Sendable {
        public let replacements: [Replacement]
        public let notification: AccountNotification?
    }

    /// Replaces each proposal still waiting that busy time now overlaps by one for the same goal
    /// or to-do in a free slot; the others stay. Nil when none is broken (the change moved away
    /// again, or it was a sleep goal's session over the sleep routine).
    public func replan(accountID: UUID) async throws -> Replan? {
        let now = clock.now
        return try await store.transaction { tx in
            guard let account = try await tx.account(id: accountID), !account.isDisabled else { return nil }
            let waiting = try await tx.planItems(accountID: account.id, states: [.proposed]).filter { $0.range.start >= now }
            guard let first = waiting.map(\.range.start).min(), let last = waiting.map(\.range.end).max() else { return nil }
            let busy = try await busyBlocks(account: account, in: try TimeRange(start: first, end: last), tx: tx)
            let goals = try await tx.goals(accountID: account.id)
            let broken = waiting.filter { !busy.overlaps(of: $0, goals: goals).isEmpty }
            guard !broken.isEmpty else { return nil }

            let zone = TimeZone(identifier: account.timeZone) ?? .gmt
            let brokenIDs = Set(broken.map(\.id))
            let kept = waiting.filter { !brokenIDs.contains($0.id) }
            let learning = try await tx.plannerLearning(accountID: account.id)
            let made = try await planInput(
                account: account, zone: zone, now: now, learning: learning,
                keeping: kept.filter { if case .windDown = $0.subject { return false } else { return true } }, dropping: brokenIDs, tx: tx)
            let plan = TwoWeekPlan(made.input)
            // Only what was broken is replaced, each by at most one proposal of its own subject,
            // the earliest first.
            var fresh = plan.proposals.map { PlanItem($0, at: now) }
            var replacements: [Replacement] = []
            for item in broken {
                if case .windDown = item.subject {
                    replacements.append(Replacement(broken: item, replacement: nil))
                    continue
                }
                let index = fresh.firstIndex { $0.subject == item.subject }
                replacements.append(Replacement(broken: item, replacement: index.map { fresh.remove(at: $0) }))
            }
            try await tx.replaceProposedPlanItems(accountID: account.id, with: kept + replacements.compactMap(\.replacement))

            // To-dos whose broken time found no other place join the ones the plan could not place.
            var run = try await tx.planRun(accountID: account.id) ?? PlanRun(plannedAt: now, trigger: .replan)
            let lost = Set(replacements.filter { $0.replacement == nil }.compactMap { replacement -> String? in
                if case .task(let id) = replacement.broken.subject { return id }
                return nil
            })
            let known = Set(run.unplacedTasks.map(\.taskID))
            run.unplacedTasks += plan.unplacedTasks.filter { lost.contains($0.task.id) && !known.contains($0.task.id) }.map(StoredUnplacedTask.init)
            run.plannedAt = now
            run.trigger = .replan
            try await tx.savePlanRun(run, accountID: account.id)

            let text = NotificationText(account: account)
            let words = text.planChanged(replacements.map { ($0.broken.title, $0.broken.range.start, $0.replacement?.range.start) })
            let posted = try await NotificationDispatch.post(
                NotificationDraft(kind: .progress, reasonKey: "plan-replan:\(random.uuid().uuidString.lowercased())", title: words.title,
                                  body: words.body, links: ["url": "/plan#plan"], urgent: false),
                account: account, now: now, random: random, tx: tx)
            return Replan(replacements: replacements, notification: posted)
        }
    }

    // MARK: The last plan

    /// The to-dos the last plan could not place, with why, that are still open and waiting for
    /// time; and when and why that plan was made (nil when none was).
    public func lastPlan(account: Account) async throws -> (run: PlanRun, unplacedTasks: [StoredUnplacedTask])? {
        let now = clock.now
        return try await store.read { tx in
            guard let run = try await tx.planRun(accountID: account.id) else { return nil }
            guard !run.unplacedTasks.isEmpty else { return (run, []) }
            let open = Set(try await plannableTasks(account: account, now: now, tx: tx).tasks.map(\.id))
            return (run, run.unplacedTasks.filter { open.contains($0.taskID) })
        }
    }
}

extension ConflictCheck {
    /// Queues a re-plan when an event just written now overlaps a proposal of the plan still
    /// waiting for an answer (in the check's transaction). Only a first look: the re-plan reads
    /// busy time as the plan does and decides.
    func replanIfProposalsBroken(by requests: [Request], now: Date, tx: any AccountStore & CalendarStore & ConflictStore & GoalStore & JobStore) async throws {
        let written = requests.filter(\.recheckOthers)
        guard let accountID = written.first?.accountID else { return }
        let waiting = try await tx.planItems(accountID: accountID, states: [.proposed]).filter { $0.range.end > now }
        guard let first = waiting.map(\.range.start).min(), let last = waiting.map(\.range.end).max(),
              let account = try await tx.account(id: accountID),
              let ahead = try? TimeRange(start: now, end: now.addingTimeInterval(Self.horizon))
        else { return }
        let settings = try await tx.conflictSettings(accountID: accountID)
        for (calendarID, requests) in Dictionary(grouping: written, by: \.calendarID) {
            guard let calendar = try await tx.calendar(id: calendarID) else { continue }
            for object in try await tx.calendarObjects(calendarID: calendarID, names: requests.map(\.objectName)) where object.component == .event {
                // The index says when it can be busy at all.
                if let start = object.firstStart, start >= last { continue }
                if let end = object.lastEnd, end <= first { continue }
                let occurrences = busyOccurrences(of: object, calendar: calendar, account: account, settings: settings, ahead: ahead)
                if occurrences.contains(where: { occurrence in waiting.contains { $0.range.overlaps(occurrence.range) } }) {
                    try await TwoWeekPlanning.queueReplan(accountID: accountID, now: now, random: random, tx: tx)
                    return
                }
            }
        }
    }
}
