import Foundation
import ICalendar
import Scheduling

/// A tracker entry as the API and the web form describe it, by metric:
/// - `{"metric": "sleep", "bedtime": "2026-09-21T23:10", "wake": "2026-09-22T06:40"}`;
/// - `{"metric": "exercise", "kind": "run", "minutes": 30, "at": "2026-09-22T06:45"}`;
/// - `{"metric": "weight", "value": 72.5, "unit": "kg", "at": "2026-09-22T07:00"}` (any other name).
///
/// Times are wall times in the person's zone (`2026-09-22T06:40`) or instants with an offset
/// (`2026-09-22T03:40:00Z`); `at` defaults to now. `note` is optional everywhere.
public struct TrackerEntryDraft: Sendable, Codable, Equatable {
    public var metric: String
    public var bedtime: String?
    public var wake: String?
    public var kind: String?
    public var minutes: Int?
    public var at: String?
    public var value: Double?
    public var unit: String?
    public var note: String?

    public init(metric: String, bedtime: String? = nil, wake: String? = nil, kind: String? = nil, minutes: Int? = nil, at: String? = nil,
                value: Double? = nil, unit: String? = nil, note: String? = nil) {
        self.metric = metric
        self.bedtime = bedtime
        self.wake = wake
        self.kind = kind
        self.minutes = minutes
        self.at = at
        self.value = value
        self.unit = unit
        self.note = note
    }

    /// The checked entry under `id`; `createdAt` is kept from the entry it replaces.
    public func entry(id: UUID, zone: String, now: Date, createdAt: Date? = nil) throws(Tracker.Problem) -> TrackerEntry {
        let name = metric.trimmingCharacters(in: .whitespaces).lowercased()
        guard Tracker.isMetricName(name), name != Tracker.tasksMetric else { throw .metric(metric) }
        if let note, note.count > Tracker.noteLimit { throw .note }
        func instant(_ text: String?, _ field: String) throws(Tracker.Problem) -> Date? {
            guard let text else { return nil }
            if let date = Date(iso8601Instant: text) { return date }
            guard let rules = ZoneRules(ianaIdentifier: zone), let value = EventDraft.value(text, allDay: false, zone: zone) else {
                throw .time(field: field, text: text)
            }
            return Date(timeIntervalSince1970: TimeInterval(value.utcSeconds(floating: rules)))
        }
        func required<T>(_ value: T?, _ field: String) throws(Tracker.Problem) -> T {
            guard let value else { throw .required(field: field, metric: name) }
            return value
        }
        let start: Date, end: Date?, amount: Double, unit: String, kind: String?
        switch name {
        case Tracker.sleep:
            start = try required(try instant(bedtime, "bedtime"), "bedtime")
            let wakeTime = try required(try instant(wake, "wake"), "wake")
            guard wakeTime > start else { throw .wakeBeforeBedtime }
            guard wakeTime.timeIntervalSince(start) <= Tracker.longestNight else { throw .nightTooLong }
            (end, amount, unit, kind) = (wakeTime, wakeTime.timeIntervalSince(start) / 60, Tracker.minutesUnit, nil)
        case Tracker.exercise:
            let minutes = try required(self.minutes, "minutes")
            guard (1...1440).contains(minutes) else { throw .minutes(minutes) }
            start = try instant(at, "at") ?? now
            let trimmedKind = self.kind?.trimmingCharacters(in: .whitespaces)
            if let trimmedKind, trimmedKind.isEmpty || trimmedKind.count > Tracker.nameLimit || trimmedKind.containsControlCharacters {
                throw .kind
            }
            (end, amount, unit, kind) = (start.addingTimeInterval(TimeInterval(minutes * 60)), Double(minutes), Tracker.minutesUnit, trimmedKind)
        default:
            let value = try required(self.value, "value")
            guard value.isFinite, abs(value) < 1e12 else { throw .value }
            let trimmedUnit = (self.unit ?? "").trimmingCharacters(in: .whitespaces)
            guard !trimmedUnit.isEmpty, trimmedUnit.count <= 20, !trimmedUnit.containsControlCharacters else { throw .unit }
            start = try instant(at, "at") ?? now
            (end, amount, unit, kind) = (nil, value, trimmedUnit, nil)
        }
        // Tracking records what happened; a day ahead allows for zones and clocks, no more.
        guard start <= now.addingTimeInterval(86_400) else { throw .future }
        return TrackerEntry(
            id: id, metric: name, start: start, end: end, value: amount, unit: unit, kind: kind,
            note: note.flatMap { $0.isBlank ? nil : $0 }, createdAt: createdAt ?? now, updatedAt: now)
    }
}

/// How a summary groups entries.
public enum TrackerPeriod: String, Sendable, Hashable, CaseIterable {
    case day, week, month, year

    /// How many periods a summary shows unless asked.
    public var defaultCount: Int {
        switch self {
        case .day: 14
        case .week: 12
        case .month: 12
        case .year: 5
        }
    }
}

/// A metric's progress by period, with its streaks of days.
public struct TrackerSummary: Sendable, Hashable {
    public struct Bucket: Sendable, Hashable {
        /// The period's first local day (`2026-09-21`; a week starts on Monday).
        public let date: String
        public let range: TimeRange
        /// The sum of the entries' values (minutes for sleep and exercise).
        public let total: Double
        public let count: Int
        /// Per entry (a night, a session); nil when there were none.
        public var average: Double? { count == 0 ? nil : total / Double(count) }
    }

    public let metric: String
    public let unit: String
    public let period: TrackerPeriod
    /// Oldest first; the last holds now.
    public let buckets: [Bucket]
    /// Days in a row with an entry, up to today (or yesterday, while today has none yet).
    public let currentStreak: Int
    public let longestStreak: Int
}

/// A person's tracker: sleep, exercise and custom measures, added, edited and removed here,
/// and summed up by day, week, month and year in their zone, with streaks. A night counts for
/// the day the person woke on; everything else for the day it started.
public struct Tracker: Sendable {
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case metric(String)
        case required(field: String, metric: String)
        case time(field: String, text: String)
        case wakeBeforeBedtime
        case nightTooLong
        case minutes(Int)
        case value
        case unit
        case kind
        case note
        case future
        case notFound(id: String)
        case period(String)
        case count(Int)

        public var field: String {
            switch self {
            case .metric: "metric"
            case .required(let field, _), .time(let field, _): field
            case .wakeBeforeBedtime, .nightTooLong: "wake"
            case .minutes: "minutes"
            case .value: "value"
            case .unit: "unit"
            case .kind: "kind"
            case .note: "note"
            case .future: "at"
            case .notFound: "id"
            case .period: "period"
            case .count: "count"
            }
        }

        public var description: String {
            switch self {
            case .metric(let text):
                "metric: \"\(text)\" is not sleep, exercise or a name of 1 to \(Tracker.nameLimit) letters, digits, '-' or '_' "
                    + "(\(Tracker.tasksMetric) is counted from your to-dos, not entered)"
            case .required(let field, let metric): "\(field): required for \(metric)"
            case .time(let field, let text):
                "\(field): \"\(text)\" is not a time (expected 2026-09-22T06:40 in your zone, or an instant such as 2026-09-22T03:40:00Z)"
            case .wakeBeforeBedtime: "wake: must be after bedtime"
            case .nightTooLong: "wake: a night lasts at most 24 hours"
            case .minutes(let minutes): "minutes: \(minutes) is out of range (expected 1 … 1440)"
            case .value: "value: must be a finite number"
            case .unit: "unit: must be 1 to 20 characters, such as kg or glasses"
            case .kind: "kind: must be 1 to \(Tracker.nameLimit) characters without control characters"
            case .note: "note: must be at most \(Tracker.noteLimit) characters"
            case .future: "at: must not be more than a day ahead; the tracker records what happened"
            case .notFound(let id): "no tracker entry '\(id)'"
            case .period(let text): "period: \"\(text)\" is not day, week, month or year"
            case .count(let count): "count: \(count) is out of range (expected 1 … \(Tracker.countLimit))"
            }
        }
    }

    public static let sleep = "sleep"
    public static let exercise = "exercise"
    /// To-dos completed: summed from the task list (each to-do's COMPLETED time), not entered.
    public static let tasksMetric = "tasks"
    static let minutesUnit = "min"
    static let nameLimit = 40
    static let noteLimit = 2000
    static let longestNight: TimeInterval = 24 * 3600
    public static let countLimit = 366
    /// Entries one listing returns at most.
    public static let listLimit = 1000

    static func isMetricName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= nameLimit && name.unicodeScalars.allSatisfy {
            CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_"
        }
    }

    let store: StoreAccess<any CalendarStore & GoalStore & JobStore & TrackerStore>
    let clock: Clock
    let random: RandomSource
    let parse: AccountBusyTime.Parse

    public init(store: any Store, clock: Clock, random: RandomSource,
                parse: @escaping AccountBusyTime.Parse = { try? ICalendarParser().parseCalendar($0.icalendar) }) {
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
        self.random = random
        self.parse = parse
    }

    public func add(_ draft: TrackerEntryDraft, account: Account) async throws -> TrackerEntry {
        let now = clock.now
        let entry = try draft.entry(id: random.uuid(), zone: account.timeZone, now: now)
        return try await store.transaction { tx in
            try await tx.insertTrackerEntry(entry, accountID: account.id)
            try await TrackerProgress.queueCheck(accountID: account.id, now: now, random: random, tx: tx)
            return entry
        }
    }

    /// Replaces an entry's fields with the draft's.
    public func update(id: UUID, _ draft: TrackerEntryDraft, account: Account) async throws -> TrackerEntry {
        let now = clock.now
        return try await store.transaction { tx in
            guard let existing = try await tx.trackerEntry(id: id, accountID: account.id) else { throw Problem.notFound(id: id.uuidString.lowercased()) }
            var entry = try draft.entry(id: id, zone: account.timeZone, now: now, createdAt: existing.createdAt)
            // Where it came from stays: an edited import is still the import's (a second import
            // leaves it as edited), and a session's entry still records that session.
            (entry.source, entry.externalID, entry.goalID, entry.planItemID, entry.outcome) =
                (existing.source, existing.externalID, existing.goalID, existing.planItemID, existing.outcome)
            try await tx.updateTrackerEntry(entry, accountID: account.id)
            try await TrackerProgress.queueCheck(accountID: account.id, now: now, random: random, tx: tx)
            return entry
        }
    }

    public func remove(id: UUID, account: Account) async throws {
        try await store.transaction { tx in
            guard try await tx.deleteTrackerEntry(id: id, accountID: account.id) else { throw Problem.notFound(id: id.uuidString.lowercased()) }
        }
    }

    /// The metrics the person has entries of, most used first (for the tracker page's choice).
    public func metrics(account: Account) async throws -> [String] {
        let now = clock.now
        let entries = try await store.read { tx in
            try await tx.trackerEntries(accountID: account.id, metric: nil, from: now.addingTimeInterval(-400 * 86_400),
                                        to: now.addingTimeInterval(2 * 86_400), limit: 100_000)
        }
        let counts = Dictionary(grouping: entries, by: \.metric).mapValues(\.count)
        return counts.keys.sorted { counts[$0] != counts[$1] ? counts[$0] ?? 0 > counts[$1] ?? 0 : $0 < $1 }
    }

    /// Each goal's progress this week (sessions done and skipped, against its target).
    public func goalWeeks(account: Account) async throws -> [GoalWeek] {
        let now = clock.now
        let zone = TimeZone(identifier: account.timeZone) ?? .gmt
        return try await store.read { tx in
            let goals = try await tx.goals(accountID: account.id).map(\.goal)
            guard !goals.isEmpty else { return [] }
            let entries = try await tx.trackerEntries(accountID: account.id, metric: nil, from: now.addingTimeInterval(-8 * 86_400),
                                                      to: now.addingTimeInterval(2 * 86_400), limit: 100_000)
            return GoalWeek.weeks(goals: goals, entries: entries, now: now, zone: zone)
        }
    }

    public func entry(id: UUID, account: Account) async throws -> TrackerEntry {
        try await store.read { tx in
            guard let entry = try await tx.trackerEntry(id: id, accountID: account.id) else { throw Problem.notFound(id: id.uuidString.lowercased()) }
            return entry
        }
    }

    /// Entries of `metric` (all when nil) that start in [from, to), by start; the last 30 days
    /// unless asked.
    public func entries(account: Account, metric: String?, from: Date?, to: Date?) async throws -> [TrackerEntry] {
        let now = clock.now
        let name = metric?.trimmingCharacters(in: .whitespaces).lowercased()
        if let name, !Self.isMetricName(name) { throw Problem.metric(metric ?? "") }
        let end = to ?? now.addingTimeInterval(86_400)
        let start = from ?? end.addingTimeInterval(-31 * 86_400)
        return try await store.read { tx in
            try await tx.trackerEntries(accountID: account.id, metric: name, from: start, to: end, limit: Self.listLimit)
        }
    }

    /// `metric` summed by `period` over the last `count` periods, now's included, with streaks.
    public func summary(account: Account, metric: String, period: TrackerPeriod, count: Int? = nil) async throws -> TrackerSummary {
        let name = metric.trimmingCharacters(in: .whitespaces).lowercased()
        guard Self.isMetricName(name) else { throw Problem.metric(metric) }
        let count = count ?? period.defaultCount
        guard (1...Self.countLimit).contains(count) else { throw Problem.count(count) }
        let now = clock.now
        var calendar = Foundation.Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone(identifier: account.timeZone) ?? .gmt
        let unit: Foundation.Calendar.Component = switch period {
        case .day: .day
        case .week: .weekOfYear
        case .month: .month
        case .year: .year
        }
        guard let current = calendar.dateInterval(of: unit, for: now) else { throw Problem.period(period.rawValue) }
        var ranges: [TimeRange] = []
        var start = current.start
        for _ in 0..<count {
            guard let next = calendar.date(byAdding: unit, value: 1, to: start), let range = try? TimeRange(start: start, end: next) else { break }
            ranges.insert(range, at: 0)
            guard let previous = calendar.date(byAdding: unit, value: -1, to: start) else { break }
            start = previous
        }
        // Every entry of the metric: the longest streak may lie before the periods shown.
        let parse = self.parse
        let entries = try await store.read { tx in
            if name == Self.tasksMetric { return try await Self.completedTasks(account: account, tx: tx, parse: parse, now: now, random: random) }
            return try await tx.trackerEntries(accountID: account.id, metric: name, from: Date(timeIntervalSince1970: 0),
                                               to: now.addingTimeInterval(2 * 86_400), limit: 100_000).filter(\.counts)
        }
        func counted(_ entry: TrackerEntry) -> Date { TrackerCalendar.countedInstant(entry) }
        let formatter = DateFormatter()
        formatter.calendar = calendar
        formatter.timeZone = calendar.timeZone
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        let buckets = ranges.map { range in
            let inside = entries.filter { range.contains(counted($0)) }
            return TrackerSummary.Bucket(date: formatter.string(from: range.start), range: range, total: inside.reduce(0) { $0 + $1.value },
                                         count: inside.count)
        }
        let days = Set(entries.map { calendar.startOfDay(for: counted($0)) })
        let (currentStreak, longestStreak) = Self.streaks(days: days, today: calendar.startOfDay(for: now), calendar: calendar)
        let unitName = name == Self.tasksMetric ? Self.tasksUnit
            : entries.last?.unit ?? ((name == Self.sleep || name == Self.exercise) ? Self.minutesUnit : "")
        return TrackerSummary(metric: name, unit: unitName, period: period, buckets: buckets, currentStreak: currentStreak,
                              longestStreak: longestStreak)
    }

    static let tasksUnit = "to-dos"

    /// Each to-do of the task list that is done, as an entry of one at the time it was
    /// completed (COMPLETED, else when it was last changed), for summaries and charts.
    static func completedTasks(account: Account, tx: any CalendarStore, parse: @escaping AccountBusyTime.Parse, now: Date, random: RandomSource) async throws
        -> [TrackerEntry] {
        guard let list = try await TaskList.calendar(for: account, creating: false, now: now, random: random, tx: tx) else { return [] }
        let zone = ZoneRules(ianaIdentifier: account.timeZone) ?? .utc
        return try await TaskList.tasks(in: list, account: account, tx: tx, parse: parse).compactMap { task in
            guard task.todo.effectiveStatus == .completed else { return nil }
            let completed = task.todo.completed.flatMap { TaskDue.seconds($0, resolver: TimeZoneResolver(), floating: zone) }
                .map { Date(timeIntervalSince1970: TimeInterval($0)) } ?? task.object.updatedAt
            return TrackerEntry(id: random.uuid(), metric: tasksMetric, start: completed, end: nil, value: 1, unit: tasksUnit, kind: nil,
                                note: task.todo.title, createdAt: completed, updatedAt: completed)
        }.sorted { $0.start < $1.start }
    }

    /// Runs of consecutive local days; the current run may end yesterday, as today is not over.
    static func streaks(days: Set<Date>, today: Date, calendar: Foundation.Calendar) -> (current: Int, longest: Int) {
        func dayBefore(_ day: Date) -> Date? { calendar.date(byAdding: .day, value: -1, to: day).map { calendar.startOfDay(for: $0) } }
        var current = 0
        var day = days.contains(today) ? today : dayBefore(today)
        while let checked = day, days.contains(checked) {
            current += 1
            day = dayBefore(checked)
        }
        var longest = 0
        var run = 0
        var previous: Date?
        for day in days.sorted() {
            run = previous.flatMap { dayBefore(day) == $0 ? run + 1 : nil } ?? 1
            longest = max(longest, run)
            previous = day
        }
        return (current, longest)
    }
}
