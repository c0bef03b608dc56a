import Foundation
import Scheduling

/// How far a goal got in one local Monday-to-Sunday week: sessions marked done, and for an
/// exercise goal also workouts tracked without a plan (imported from Health, typed in) that last
/// at least a session.
public struct GoalWeek: Sendable, Hashable {
    public let goal: Goal
    /// The week's first local day (`2026-09-21`).
    public let week: String
    public let done: Int
    public let skipped: Int
    /// perWeek, or perDay times the goal's days.
    public let target: Int

    public var met: Bool { done >= target }

    /// Each goal's week holding `now`, from the entries of that week.
    public static func weeks(goals: [Goal], entries: [TrackerEntry], now: Date, zone: TimeZone) -> [GoalWeek] {
        let calendar = TrackerCalendar(zone: zone)
        guard let range = calendar.week(holding: now) else { return [] }
        let inWeek = entries.filter { range.contains(TrackerCalendar.countedInstant($0)) }
        return goals.map { goal in
            let target: Int = switch goal.target {
            case .perWeek(let count): count
            case .perDay(let count): count * goal.window.days.numbers.count
            }
            let linked = inWeek.filter { $0.goalID == goal.id }
            var done = linked.filter { $0.outcome == .done }.count
            if goal.category == .exercise {
                done += inWeek.filter { $0.goalID == nil && $0.metric == Tracker.exercise && $0.value >= Double(goal.minutesPerSession) }.count
            }
            return GoalWeek(goal: goal, week: calendar.dayText(range.start), done: done, skipped: linked.filter { $0.outcome == .skipped }.count,
                            target: target)
        }
    }
}

/// Local days and weeks of the tracker, in the person's zone; weeks start on Monday.
struct TrackerCalendar {
    let calendar: Foundation.Calendar
    let formatter: DateFormatter

    init(zone: TimeZone) {
        var calendar = Foundation.Calendar(identifier: .iso8601)
        calendar.timeZone = zone
        self.calendar = calendar
        let formatter = DateFormatter()
        formatter.calendar = calendar
        formatter.timeZone = zone
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        self.formatter = formatter
    }

    /// The local Monday-to-Sunday week holding `instant`.
    func week(holding instant: Date) -> TimeRange? {
        calendar.dateInterval(of: .weekOfYear, for: instant).flatMap { try? TimeRange(start: $0.start, end: $0.end) }
    }

    func dayText(_ instant: Date) -> String { formatter.string(from: instant) }

    func startOfDay(_ instant: Date) -> Date { calendar.startOfDay(for: instant) }

    func day(before day: Date) -> Date? {
        calendar.date(byAdding: .day, value: -1, to: day).map { calendar.startOfDay(for: $0) }
    }

    /// The instant an entry counts on: a night on the morning it ended, everything else when it began.
    static func countedInstant(_ entry: TrackerEntry) -> Date {
        entry.metric == Tracker.sleep ? entry.end ?? entry.start : entry.start
    }
}

/// Progress notifications: a goal met this week, a streak reaching a milestone, and sleep under
/// the sleep goal three nights running (with a wind-down block before bed proposed on the plan).
///
/// A check runs as a durable job after tracker entries change (one queued per account at a
/// time), and posts through ``NotificationDispatch``, so quiet hours and prayer blocks hold them
/// like any other notification that is not urgent. Each says its reason once: a goal once a
/// week, a streak once per milestone and start day, short sleep once per last night.
public struct TrackerProgress: Sendable {
    public static let checkJob: JobKind = "tracker.progress"
    /// Days in a row worth a word.
    public static let milestones: Set<Int> = [3, 7, 14, 21, 30, 50, 100, 200, 365]
    /// Short nights in a row before Jadwal says something.
    public static let shortNights = 3
    /// The wind-down block before bed.
    public static let windDownMinutes = 30

    struct Request: Codable { var accountID: UUID }

    /// Queues a check of the account's progress in the caller's transaction, in place of one
    /// still waiting (an import writes in batches; one check is enough).
    public static func queueCheck(accountID: UUID, now: Date, random: RandomSource, tx: any JobStore) async throws {
        let subject = "progress:" + accountID.uuidString.lowercased()
        _ = try await tx.cancelQueuedJobs(kind: checkJob, subject: subject)
        let payload = String(decoding: try JSONEncoder().encode(Request(accountID: accountID)), as: UTF8.self)
        try await tx.enqueue(Job.new(checkJob, payload: payload, maxAttempts: 5, runAt: now, now: now, id: random.uuid(), subject: subject))
    }

    /// The account a check job is for.
    public static func account(of job: Job) throws -> UUID {
        try JSONDecoder().decode(Request.self, from: Data(job.payload.utf8)).accountID
    }

    let store: StoreAccess<any NoticeStore & AccountStore & CalendarShareStore & TrackerStore>
    let clock: Clock
    let random: RandomSource
    let busyTime: AccountBusyTime

    public init(store: any Store, clock: Clock, random: RandomSource, busyTime: AccountBusyTime = AccountBusyTime()) {
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
        self.random = random
        self.busyTime = busyTime
    }

    /// Looks at the account's goals and entries and posts what is new; returns what it posted.
    @discardableResult
    public func check(accountID: UUID) async throws -> [AccountNotification] {
        let now = clock.now
        let planning = TwoWeekPlanning(store: store.store, clock: clock, random: random, busyTime: busyTime)
        return try await store.transaction { tx in
            guard let account = try await tx.account(id: accountID) else { return [] }
            let zone = TimeZone(identifier: account.timeZone) ?? .gmt
            let calendar = TrackerCalendar(zone: zone)
            let text = NotificationText(account: account)
            let goals = try await tx.goals(accountID: account.id).map(\.goal)
            // A year back covers every milestone but the last; streaks longer than that are rare
            // enough to read in full.
            let since = now.addingTimeInterval(-400 * 86_400)
            let entries = try await tx.trackerEntries(accountID: account.id, metric: nil, from: since, to: now.addingTimeInterval(2 * 86_400),
                                                      limit: 200_000).filter(\.counts)
            var posted: [AccountNotification] = []
            func post(_ draft: NotificationDraft) async throws {
                if let stored = try await NotificationDispatch.post(draft, account: account, now: now, random: random, tx: tx) { posted.append(stored) }
            }

            for week in GoalWeek.weeks(goals: goals, entries: entries, now: now, zone: zone) where week.met {
                let words = text.goalMet(title: week.goal.title, done: week.done, target: week.target)
                try await post(NotificationDraft(
                    kind: .progress, reasonKey: "goal-met:\(week.goal.id):\(week.week)", title: words.title, body: words.body,
                    links: ["url": "/tracker"], urgent: false))
            }

            let today = calendar.startOfDay(now)
            for (metric, metricEntries) in Dictionary(grouping: entries, by: \.metric) {
                let days = Set(metricEntries.map { calendar.startOfDay(TrackerCalendar.countedInstant($0)) })
                var streak = 0
                var day: Date? = days.contains(today) ? today : calendar.day(before: today)
                var first = today
                while let checked = day, days.contains(checked) {
                    streak += 1
                    first = checked
                    day = calendar.day(before: checked)
                }
                guard Self.milestones.contains(streak) else { continue }
                let words = text.streak(metric: metric, days: streak)
                try await post(NotificationDraft(
                    kind: .progress, reasonKey: "streak:\(metric):\(streak):\(calendar.dayText(first))", title: words.title, body: words.body,
                    links: ["url": "/tracker"], urgent: false))
            }

            if let sleepGoal = goals.first(where: { $0.category == .sleep }) {
                let nights = entries.filter { $0.metric == Tracker.sleep }
                if let short = Self.shortNights(nights, target: Double(sleepGoal.minutesPerSession), today: today, calendar: calendar) {
                    let last = short[short.count - 1]
                    let reasonKey = "sleep-short:\(calendar.dayText(calendar.startOfDay(TrackerCalendar.countedInstant(last))))"
                    // Said once per last night: the proposal is made only with the first saying.
                    if !(try await tx.notificationExists(accountID: account.id, reasonKey: reasonKey)) {
                        let windDown = try await planning.proposeWindDown(
                            account: account, goal: sleepGoal, nights: short, answers: try await tx.plannerAnswers(accountID: account.id),
                            now: now, tx: tx)
                        let words = text.sleepShort(target: sleepGoal.minutesPerSession, nights: short.map(\.value), windDown: windDown?.range)
                        try await post(NotificationDraft(
                            kind: .progress, reasonKey: reasonKey, title: words.title, body: words.body,
                            links: ["url": windDown == nil ? "/tracker" : "/plan#plan"], urgent: false))
                    }
                }
            }
            return posted
        }
    }

    /// The last ``shortNights`` nights, when each was under `target` minutes and they ended on
    /// consecutive days up to today or yesterday; otherwise nil.
    static func shortNights(_ nights: [TrackerEntry], target: Double, today: Date, calendar: TrackerCalendar) -> [TrackerEntry]? {
        var byDay: [Date: TrackerEntry] = [:]
        for night in nights {
            let day = calendar.startOfDay(TrackerCalendar.countedInstant(night))
            // Naps aside: the longest sleep of a day is its night.
            if let other = byDay[day], other.value >= night.value { continue }
            byDay[day] = night
        }
        var day: Date? = byDay[today] != nil ? today : calendar.day(before: today)
        var run: [TrackerEntry] = []
        while run.count < shortNights, let checked = day, let night = byDay[checked] {
            guard night.value < target else { return nil }
            run.insert(night, at: 0)
            day = calendar.day(before: checked)
        }
        return run.count == shortNights ? run : nil
    }
}

extension TwoWeekPlanning {
    /// A wind-down block before the next night, proposed on the plan: it ends at the bedtime the
    /// sleep goal needs (the usual wake time less the goal), moved earlier in quarter hours past
    /// busy time (a prayer, an event). Nil when nothing is free in the two hours before.
    func proposeWindDown(account: Account, goal: Goal, nights: [TrackerEntry], answers: PlannerAnswers, now: Date,
                         tx: any BusyTimeStore & GoalStore) async throws -> PlanItem? {
        let zone = TimeZone(identifier: account.timeZone) ?? .gmt
        var calendar = Foundation.Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        // The wake time: the questionnaire's, else the goal window's end, else the last nights'.
        let wakeMinutes: Int
        if let answered = (try? answers.checked())?.wake {
            wakeMinutes = answered.minutesSinceMidnight
        } else if goal.window.crossesMidnight {
            wakeMinutes = goal.window.end.minutesSinceMidnight
        } else {
            let wakes = nights.compactMap(\.end).map { date -> Int in
                let parts = calendar.dateComponents([.hour, .minute], from: date)
                return (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
            }.sorted()
            guard !wakes.isEmpty else { return nil }
            wakeMinutes = wakes[wakes.count / 2]
        }
        let bedMinutes = ((wakeMinutes - goal.minutesPerSession) % 1440 + 1440) % 1440
        let bedtime = try TimeOfDay(hour: bedMinutes / 60, minute: bedMinutes % 60)
        // The next bedtime at least half an hour and a block away.
        var bed: Date?
        for offset in 0...1 {
            guard let day = calendar.date(byAdding: .day, value: offset, to: calendar.startOfDay(for: now)),
                  let candidate = calendar.date(bySettingHour: bedtime.hour, minute: bedtime.minute, second: 0, of: day)
            else { continue }
            if candidate.timeIntervalSince(now) >= TimeInterval(TrackerProgress.windDownMinutes + 30) * 60 {
                bed = candidate
                break
            }
        }
        guard let bed else { return nil }
        let length = TimeInterval(TrackerProgress.windDownMinutes * 60)
        let around = try TimeRange(start: bed.addingTimeInterval(-2 * 3600 - length), end: bed)
        let busy = try await busyBlocks(account: account, in: around, tx: tx)
        let blocks = BusyTime(busy.blocks.filter { !busy.isSleepRoutine($0) })
        var chosen: TimeRange?
        for step in 0...8 {
            let end = bed.addingTimeInterval(-TimeInterval(step * 15 * 60))
            let range = try TimeRange(start: end.addingTimeInterval(-length), end: end)
            if range.start > now, blocks.overlaps(with: range).isEmpty {
                chosen = range
                break
            }
        }
        guard let chosen else { return nil }
        let weekday = (calendar.component(.weekday, from: chosen.start) + 5) % 7 + 1
        let parts = calendar.dateComponents([.hour, .minute], from: chosen.start)
        let endParts = calendar.dateComponents([.hour, .minute], from: chosen.end)
        let reason = ProposalReason(
            isoWeekday: weekday, start: try TimeOfDay(hour: parts.hour ?? 0, minute: parts.minute ?? 0),
            factors: [.sleptUnder(minutes: goal.minutesPerSession, nights: nights.count),
                      .asleepBy(try TimeOfDay(hour: endParts.hour ?? 0, minute: endParts.minute ?? 0))])
        let title = account.language == .arabic ? "استرخاء قبل النوم" : "Wind down"
        let proposal = Proposal(subject: .windDown(goalID: goal.id), title: title, range: chosen, reason: reason)
        let item = PlanItem(proposal, at: now)
        try await tx.insertPlanItem(item, accountID: account.id)
        return item
    }
}
