import Foundation

/// What the planner has learned about when a person likes each goal: a weight for every hour of
/// the week (168 local clock hours, Monday 00:00 first), per goal.
///
/// The rule, chosen to be explainable in one sentence each:
/// - accepting a session at an hour adds 1 to that hour and ½ to the hours either side;
/// - rejecting a proposal, or deleting a session, takes 1 from its hour and ½ from either side;
/// - moving a session from one time to another takes 1 from the old hour (½ either side) and
///   adds 1½ to the new one (¾ either side): where the person put it says more than where it was;
/// - every weight stays within ±``bound``, so a long history never outweighs a change of habit
///   by more than a few contrary signals.
///
/// The planner adds `weight × ` ``TwoWeekPlan/learnedScale`` to a start's score: one reject
/// already outweighs a stated preferred time, so rejected hours are proposed less and moved-to
/// hours more. Hours are read on the local clock of the zone the signal is recorded in, so
/// "Tuesday 07:00" stays 07:00 across daylight-saving changes.
///
/// Codable (a dictionary of goal id to weights and counts) so the caller can store it as is.
public struct LearnedPreferences: Sendable, Hashable, Codable {
    /// Per goal id.
    public private(set) var goals: [String: HourlyHabit]

    public init() { goals = [:] }

    /// The largest weight an hour can reach, up or down.
    public static let bound = 4.0

    /// Learns from what the person did with a session or proposal of `goalID`.
    public mutating func record(_ feedback: PlacementFeedback, goalID: String, timeZone: TimeZone) {
        var habit = goals[goalID] ?? HourlyHabit()
        switch feedback {
        case .accepted(let start):
            let hour = HourOfWeek(start, timeZone: timeZone)
            habit.add(1, around: hour)
            habit.count(.accepted, at: hour)
        case .rejected(let start), .deleted(let start):
            habit.add(-1, around: HourOfWeek(start, timeZone: timeZone))
        case .moved(let from, let to):
            habit.add(-1, around: HourOfWeek(from, timeZone: timeZone))
            let hour = HourOfWeek(to, timeZone: timeZone)
            habit.add(1.5, around: hour)
            habit.count(.movedHere, at: hour)
        }
        goals[goalID] = habit
    }

    /// Forgets what was learned about one goal.
    public mutating func reset(goalID: String) { goals[goalID] = nil }

    /// Forgets everything.
    public mutating func resetAll() { goals = [:] }

    /// The weight of `hour` for `goalID`, −``bound`` … ``bound``; 0 when nothing was learned.
    public func weight(goalID: String, at hour: HourOfWeek) -> Double {
        goals[goalID]?.weights[hour.index] ?? 0
    }

    /// What taught the planner that `hour` is good for `goalID`, for a reason to name: nil unless
    /// the hour's weight is positive. Moves count before accepts; the hours either side count too,
    /// as they shared in the update.
    public func evidence(goalID: String, at hour: HourOfWeek) -> LearnedSignal? {
        guard let habit = goals[goalID], habit.weights[hour.index] > 0 else { return nil }
        let around = [hour.index, (hour.index + 167) % 168, (hour.index + 1) % 168]
        if around.contains(where: { habit.movedHere[$0] > 0 }) { return .movedHere }
        if around.contains(where: { habit.accepted[$0] > 0 }) { return .accepted }
        return nil
    }
}

/// One goal's learned weights, and how often each hour was accepted or moved to (for reasons).
public struct HourlyHabit: Sendable, Hashable, Codable {
    /// 168 weights, index = ``HourOfWeek/index``.
    public private(set) var weights: [Double]
    /// Accepts per hour, saturating at 255.
    public private(set) var accepted: [UInt8]
    /// Moves to the hour, saturating at 255.
    public private(set) var movedHere: [UInt8]

    init() {
        weights = Array(repeating: 0, count: 168)
        accepted = Array(repeating: 0, count: 168)
        movedHere = Array(repeating: 0, count: 168)
    }

    // Stored data is checked on the way in: a short array would trap on the first lookup, and a
    // weight out of bounds would let one old signal dominate forever.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let weights = try c.decode([Double].self, forKey: .weights)
        let accepted = try c.decode([UInt8].self, forKey: .accepted)
        let movedHere = try c.decode([UInt8].self, forKey: .movedHere)
        guard weights.count == 168, accepted.count == 168, movedHere.count == 168 else {
            throw DecodingError.dataCorruptedError(forKey: .weights, in: c, debugDescription: "expected 168 hours of the week")
        }
        guard weights.allSatisfy({ $0.isFinite && abs($0) <= LearnedPreferences.bound }) else {
            throw DecodingError.dataCorruptedError(forKey: .weights, in: c, debugDescription: "weights must lie within ±\(LearnedPreferences.bound)")
        }
        self.weights = weights
        self.accepted = accepted
        self.movedHere = movedHere
    }

    private enum CodingKeys: String, CodingKey { case weights, accepted, movedHere }

    mutating func add(_ amount: Double, around hour: HourOfWeek) {
        for (index, share) in [(hour.index, 1.0), ((hour.index + 167) % 168, 0.5), ((hour.index + 1) % 168, 0.5)] {
            weights[index] = min(LearnedPreferences.bound, max(-LearnedPreferences.bound, weights[index] + amount * share))
        }
    }

    mutating func count(_ signal: LearnedSignal, at hour: HourOfWeek) {
        switch signal {
        case .accepted: accepted[hour.index] = accepted[hour.index] &+ (accepted[hour.index] == .max ? 0 : 1)
        case .movedHere: movedHere[hour.index] = movedHere[hour.index] &+ (movedHere[hour.index] == .max ? 0 : 1)
        }
    }
}

/// What the person did with a goal's proposal or session; instants are the session's start.
public enum PlacementFeedback: Sendable, Hashable {
    case accepted(Date)
    case rejected(Date)
    /// An accepted session's event moved on the calendar (from its old start to its new one).
    case moved(from: Date, to: Date)
    /// An accepted session's event deleted.
    case deleted(Date)
}

/// A local clock hour of the week: 0 = Monday 00:00–01:00 … 167 = Sunday 23:00–24:00.
public struct HourOfWeek: Sendable, Hashable, Codable, Comparable {
    public let index: Int

    /// Brings any number into the week rather than trap.
    public init(index: Int) { self.index = ((index % 168) + 168) % 168 }

    public init(isoWeekday: Int, hour: Int) { self.init(index: (isoWeekday - 1) * 24 + hour) }

    /// The hour of the week `instant` falls in, on the local clock of `timeZone`.
    public init(_ instant: Date, timeZone: TimeZone) {
        let reading = LocalReading(instant, timeZone: timeZone)
        self.init(isoWeekday: reading.isoWeekday, hour: reading.minuteOfDay / 60)
    }

    /// 1 = Monday … 7 = Sunday.
    public var isoWeekday: Int { index / 24 + 1 }
    public var hour: Int { index % 24 }

    public static func < (lhs: HourOfWeek, rhs: HourOfWeek) -> Bool { lhs.index < rhs.index }
}

/// A local clock reading from the zone's offset at the instant, without Foundation's calendar
/// (about 1 µs a call, see the Scheduling benchmark): a plan reads thousands of starts.
struct LocalReading: Sendable, Hashable {
    /// 1 = Monday … 7 = Sunday.
    let isoWeekday: Int
    /// 0 … 1439.
    let minuteOfDay: Int

    init(_ instant: Date, timeZone: TimeZone) {
        let seconds = Int(instant.timeIntervalSince1970.rounded(.down)) + timeZone.secondsFromGMT(for: instant)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        // 1970-01-01 was a Thursday, ISO day 4.
        isoWeekday = ((days + 3) % 7 + 7) % 7 + 1
        minuteOfDay = (seconds - days * 86_400) / 60
    }

    var time: TimeOfDay { TimeOfDay(uncheckedMinutes: minuteOfDay) }
}
