import Foundation

/// What the person told the questionnaire: when they wake and sleep, their work or study hours,
/// when they like to exercise and to focus, and how much the planner may propose.
public struct PlannerPreferences: Sendable, Hashable {
    /// The waking day, wake to sleep. The night (sleep to wake) is closed to everything but
    /// sleep goals.
    public let wake: TimeOfDay
    public let sleep: TimeOfDay
    /// Work or study hours: closed to exercise, sleep and other goals; open to focus goals and
    /// to-dos. To-dos go only in these hours when they are given, as "Plan my tasks" does.
    public let work: WeeklyHours?
    public let exerciseTime: DayPart?
    public let focusTime: DayPart?
    public let intensity: PlannerIntensity

    /// Throws ``SchedulingError/endEqualsStart(_:)`` when `wake == sleep` (no night, or no day).
    public init(wake: TimeOfDay, sleep: TimeOfDay, work: WeeklyHours? = nil, exerciseTime: DayPart? = nil,
                focusTime: DayPart? = nil, intensity: PlannerIntensity = .full) throws(SchedulingError) {
        self.night = try WeeklyHours(start: sleep, end: wake, days: .daily)
        self.wake = wake
        self.sleep = sleep
        self.work = work
        self.exerciseTime = exerciseTime
        self.focusTime = focusTime
        self.intensity = intensity
    }

    /// The night as weekly hours (sleep → wake, every day).
    let night: WeeklyHours

    /// The part of the day the person prefers for a goal: the goal's own, else the
    /// questionnaire's for its category.
    func preferredTime(for goal: Goal) -> (part: DayPart, source: PreferenceSource)? {
        if let part = goal.preferredTime { return (part, .goal) }
        switch goal.category {
        case .exercise: return exerciseTime.map { ($0, .questionnaire) }
        case .focus: return focusTime.map { ($0, .questionnaire) }
        case .sleep, .other: return nil
        }
    }
}

/// How much the planner proposes.
public enum PlannerIntensity: String, Sendable, Hashable, Codable, CaseIterable {
    /// Nothing: the person plans by hand.
    case off
    /// A gentle plan: at most ``TwoWeekPlan/lightDailyLimit`` items a day (accepted ones
    /// included) and ``TwoWeekPlan/lightBuffer`` kept free around every proposal.
    case light
    /// Everything that fits.
    case full
}

/// Where a stated preference came from, so a reason can say whose it is.
public enum PreferenceSource: String, Sendable, Hashable, Codable {
    /// Set on the goal itself.
    case goal
    /// The questionnaire's preferred time for the goal's category.
    case questionnaire
}
