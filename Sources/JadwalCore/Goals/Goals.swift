import Foundation
import Scheduling

/// A goal as the API and the web form describe it:
/// `{"title": "Exercise", "minutes": 45, "perWeek": 3, "window": {"from": "06:00", "to": "09:00"}}`,
/// with `perDay` instead of `perWeek` for a daily goal, and optionally `days` (`["MO","WE","FR"]`,
/// every day when left out), `category` (`exercise`, `focus`, `sleep`, `other`),
/// `minimumGapMinutes` and `preferredTime` (`morning`, `afternoon`, `evening`, `night`).
public struct GoalDraft: Sendable, Codable, Equatable {
    public struct Window: Sendable, Codable, Equatable {
        public var from: String
        public var to: String

        public init(from: String, to: String) {
            self.from = from
            self.to = to
        }
    }

    public var title: String
    public var minutes: Int
    public var perWeek: Int?
    public var perDay: Int?
    public var window: Window
    public var days: [String]?
    public var category: String?
    public var minimumGapMinutes: Int?
    public var preferredTime: String?

    public init(title: String, minutes: Int, perWeek: Int? = nil, perDay: Int? = nil, window: Window, days: [String]? = nil,
                category: String? = nil, minimumGapMinutes: Int? = nil, preferredTime: String? = nil) {
        self.title = title
        self.minutes = minutes
        self.perWeek = perWeek
        self.perDay = perDay
        self.window = window
        self.days = days
        self.category = category
        self.minimumGapMinutes = minimumGapMinutes
        self.preferredTime = preferredTime
    }

    /// The draft that describes a goal, for showing and editing.
    public init(_ goal: Goal) {
        var perWeek: Int?, perDay: Int?
        switch goal.target {
        case .perWeek(let count): perWeek = count
        case .perDay(let count): perDay = count
        }
        self.init(
            title: goal.title, minutes: goal.minutesPerSession, perWeek: perWeek, perDay: perDay,
            window: Window(from: goal.window.start.description, to: goal.window.end.description), days: goal.window.days.iCalendarCodes,
            category: goal.category.rawValue, minimumGapMinutes: goal.minimumGapMinutes, preferredTime: goal.preferredTime?.rawValue)
    }

    /// The checked goal under `id`.
    public func goal(id: String) throws(Goals.Problem) -> Goal {
        let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count <= Goals.titleLimit, !trimmed.containsControlCharacters else { throw .title }
        var parsedCategory = GoalCategory.other
        if let category {
            guard let parsed = GoalCategory(rawValue: category.lowercased()) else { throw .category(category) }
            parsedCategory = parsed
        }
        var preferred: DayPart?
        if let preferredTime {
            guard let parsed = DayPart(rawValue: preferredTime.lowercased()) else { throw .preferredTime(preferredTime) }
            preferred = parsed
        }
        do throws(GoalError) {
            return try Goal(
                id: id, title: trimmed, category: parsedCategory, minutesPerSession: minutes, perWeek: perWeek, perDay: perDay,
                from: window.from, to: window.to, days: days, minimumGapMinutes: minimumGapMinutes ?? 0, preferredTime: preferred)
        } catch {
            throw .invalid(error)
        }
    }
}

/// A change to a goal (PATCH): only the fields given change. `perWeek` or `perDay` switches the
/// target to it; `days` or `preferredTime` sent as null clears it (every day, no preference).
public struct GoalChange: Sendable, Decodable, Equatable {
    public struct Window: Sendable, Decodable, Equatable {
        public var from: String?
        public var to: String?

        public init(from: String? = nil, to: String? = nil) {
            self.from = from
            self.to = to
        }
    }

    public var title: String?
    public var minutes: Int?
    public var perWeek: Int?
    public var perDay: Int?
    public var window: Window?
    /// nil: unchanged; `.some(nil)`: every day.
    public var days: [String]??
    public var category: String?
    public var minimumGapMinutes: Int?
    /// nil: unchanged; `.some(nil)`: no preference.
    public var preferredTime: String??

    public init(title: String? = nil, minutes: Int? = nil, perWeek: Int? = nil, perDay: Int? = nil, window: Window? = nil,
                days: [String]?? = nil, category: String? = nil, minimumGapMinutes: Int? = nil, preferredTime: String?? = nil) {
        self.title = title
        self.minutes = minutes
        self.perWeek = perWeek
        self.perDay = perDay
        self.window = window
        self.days = days
        self.category = category
        self.minimumGapMinutes = minimumGapMinutes
        self.preferredTime = preferredTime
    }

    private enum CodingKeys: String, CodingKey { case title, minutes, perWeek, perDay, window, days, category, minimumGapMinutes, preferredTime }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        title = try c.decodeIfPresent(String.self, forKey: .title)
        minutes = try c.decodeIfPresent(Int.self, forKey: .minutes)
        perWeek = try c.decodeIfPresent(Int.self, forKey: .perWeek)
        perDay = try c.decodeIfPresent(Int.self, forKey: .perDay)
        window = try c.decodeIfPresent(Window.self, forKey: .window)
        category = try c.decodeIfPresent(String.self, forKey: .category)
        minimumGapMinutes = try c.decodeIfPresent(Int.self, forKey: .minimumGapMinutes)
        // A key sent as null clears; a key left out keeps.
        if c.contains(.days) { days = .some(try c.decodeIfPresent([String].self, forKey: .days)) }
        if c.contains(.preferredTime) { preferredTime = .some(try c.decodeIfPresent(String.self, forKey: .preferredTime)) }
    }

    /// The draft with this change applied.
    public func applied(to draft: GoalDraft) throws(Goals.Problem) -> GoalDraft {
        var changed = draft
        if let title { changed.title = title }
        if let minutes { changed.minutes = minutes }
        switch (perWeek, perDay) {
        case (let week?, nil): (changed.perWeek, changed.perDay) = (week, nil)
        case (nil, let day?): (changed.perWeek, changed.perDay) = (nil, day)
        case (_?, _?): throw .invalid(.twoTargets)
        case (nil, nil): break
        }
        if let from = window?.from { changed.window.from = from }
        if let to = window?.to { changed.window.to = to }
        if let days { changed.days = days }
        if let category { changed.category = category }
        if let minimumGapMinutes { changed.minimumGapMinutes = minimumGapMinutes }
        if let preferredTime { changed.preferredTime = preferredTime }
        return changed
    }
}

/// A person's goals: made, read, changed and deleted here, each checked by ``Goal``'s rules.
/// A changed goal's waiting proposals are dropped (they were placed by the old rules); a deleted
/// goal's plan items and what was learned about it go with it, while the events of sessions
/// already accepted stay on the calendar, where the person can keep or delete them.
public struct Goals: Sendable {
    /// Why a goal is refused or not found; each names the API's field.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case invalid(GoalError)
        case title
        case category(String)
        case preferredTime(String)
        case notFound(id: String)
        case tooMany(limit: Int)

        /// The field as the API and the form name it.
        public var field: String {
            switch self {
            case .invalid(let error):
                switch error.field {
                case "minutesPerSession": "minutes"
                case "from": "window.from"
                case "to": "window.to"
                default: error.field
                }
            case .title: "title"
            case .category: "category"
            case .preferredTime: "preferredTime"
            case .notFound: "id"
            case .tooMany: "title"
            }
        }

        public var description: String {
            switch self {
            case .invalid(let error):
                // The pure module names its own fields; the words after them are the same.
                let text = error.description, prefix = error.field + ": "
                return field + ": " + (text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text)
            case .title: return "title: must be 1 to \(Goals.titleLimit) characters without control characters"
            case .category(let text): return "category: \"\(text)\" is not exercise, focus, sleep or other"
            case .preferredTime(let text): return "preferredTime: \"\(text)\" is not morning, afternoon, evening or night"
            case .notFound(let id): return "no goal '\(id)'"
            case .tooMany(let limit): return "a person may have at most \(limit) goals; delete one first"
            }
        }
    }

    public static let titleLimit = 200
    /// More than this is not a plan a person can follow, and keeps the planner's work bounded.
    public static let limit = 50

    let store: StoreAccess<any CalendarStore & ConflictStore & GoalStore & JobStore>
    let clock: Clock
    let random: RandomSource

    public init(store: any Store, clock: Clock, random: RandomSource) {
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
        self.random = random
    }

    /// The goals, oldest first.
    public func list(account: Account) async throws -> [StoredGoal] {
        try await store.read { tx in try await tx.goals(accountID: account.id) }
    }

    public func goal(id: String, account: Account) async throws -> StoredGoal {
        try await store.read { tx in
            guard let goal = try await tx.goal(id: id, accountID: account.id) else { throw Problem.notFound(id: id) }
            return goal
        }
    }

    public func create(_ draft: GoalDraft, account: Account) async throws -> StoredGoal {
        let now = clock.now
        let goal = try draft.goal(id: random.uuid().uuidString.lowercased())
        return try await store.transaction { tx in
            guard try await tx.goals(accountID: account.id).count < Self.limit else { throw Problem.tooMany(limit: Self.limit) }
            let stored = StoredGoal(goal: goal, createdAt: now, updatedAt: now)
            try await tx.insertGoal(stored, accountID: account.id)
            // The weekly plan starts with the first goal (queued again with every goal: same time).
            try await TwoWeekPlanning.queueWeekly(account: account, now: now, random: random, tx: tx)
            return stored
        }
    }

    public func update(id: String, _ change: GoalChange, account: Account) async throws -> StoredGoal {
        let now = clock.now
        return try await store.transaction { tx in
            guard var stored = try await tx.goal(id: id, accountID: account.id) else { throw Problem.notFound(id: id) }
            stored.goal = try change.applied(to: GoalDraft(stored.goal)).goal(id: id)
            stored.updatedAt = now
            try await tx.updateGoal(stored, accountID: account.id)
            try await tx.deleteProposedPlanItems(goalID: id, accountID: account.id)
            return stored
        }
    }

    public func delete(id: String, account: Account) async throws {
        let now = clock.now
        try await store.transaction { tx in
            guard try await tx.deleteGoal(id: id, accountID: account.id) else { throw Problem.notFound(id: id) }
            var learning = try await tx.plannerLearning(accountID: account.id)
            if learning.model.goals[id] != nil {
                learning.model.reset(goalID: id)
                try await tx.savePlannerLearning(learning, accountID: account.id, at: now)
            }
        }
    }
}
