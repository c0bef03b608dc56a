import Foundation
import Scheduling

/// The planner's questionnaire as the person answered it; every question may be skipped (nil):
/// `{"wake": "06:00", "sleep": "23:00", "work": {"start": "09:00", "end": "17:00", "days": "weekdays"},
///   "exerciseTime": "morning", "focusTime": "evening", "intensity": "light"}`.
///
/// Stored as given once checked, so the form shows what was answered, not what was derived.
public struct PlannerAnswers: Sendable, Codable, Equatable {
    public var wake: String?
    public var sleep: String?
    /// Work or study hours, as ``HoursDraft``.
    public var work: HoursDraft?
    /// `morning`, `afternoon`, `evening` or `night`.
    public var exerciseTime: String?
    public var focusTime: String?
    /// `off`, `light` or `full`.
    public var intensity: String?

    public init(wake: String? = nil, sleep: String? = nil, work: HoursDraft? = nil, exerciseTime: String? = nil, focusTime: String? = nil,
                intensity: String? = nil) {
        self.wake = wake
        self.sleep = sleep
        self.work = work
        self.exerciseTime = exerciseTime
        self.focusTime = focusTime
        self.intensity = intensity
    }

    /// Why an answer is refused; each names its field.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case time(field: String, text: String)
        case wakeEqualsSleep
        case work(SchedulingError)
        case dayPart(field: String, text: String)
        case intensity(String)

        public var field: String {
            switch self {
            case .time(let field, _), .dayPart(let field, _): field
            case .wakeEqualsSleep: "sleep"
            case .work(let error): "work.\(error.field)"
            case .intensity: "intensity"
            }
        }

        public var description: String {
            switch self {
            case .time(let field, let text): "\(field): \"\(text)\" is not a time of day (expected HH:MM, 00:00 … 23:59)"
            case .wakeEqualsSleep: "sleep: must differ from wake"
            case .work(let error): "work.\(error.description)"
            case .dayPart(let field, let text): "\(field): \"\(text)\" is not morning, afternoon, evening or night"
            case .intensity(let text): "intensity: \"\(text)\" is not off, light or full"
            }
        }
    }

    /// The answers checked and read, each nil when skipped.
    public struct Checked: Sendable, Equatable {
        public var wake: TimeOfDay?
        public var sleep: TimeOfDay?
        public var work: WeeklyHours?
        public var exerciseTime: DayPart?
        public var focusTime: DayPart?
        public var intensity: PlannerIntensity?

        /// The night the answers give (sleep → wake, every day), a skipped one of the two taken
        /// as 23:00 or 07:00; nil when both were skipped.
        public var night: WeeklyHours? {
            guard wake != nil || sleep != nil,
                  let start = try? sleep ?? TimeOfDay(hour: 23), let end = try? wake ?? TimeOfDay(hour: 7)
            else { return nil }
            return try? WeeklyHours(start: start, end: end, days: .daily)
        }
    }

    /// Whether any question was answered.
    public var isEmpty: Bool { self == PlannerAnswers() }

    public func checked() throws(Problem) -> Checked {
        func time(_ text: String?, _ field: String) throws(Problem) -> TimeOfDay? {
            guard let text else { return nil }
            do { return try TimeOfDay(parsing: text, field: field) } catch { throw .time(field: field, text: text) }
        }
        func part(_ text: String?, _ field: String) throws(Problem) -> DayPart? {
            guard let text else { return nil }
            guard let part = DayPart(rawValue: text.lowercased()) else { throw .dayPart(field: field, text: text) }
            return part
        }
        var checked = Checked()
        checked.wake = try time(wake, "wake")
        checked.sleep = try time(sleep, "sleep")
        if let wake = checked.wake, wake == checked.sleep { throw .wakeEqualsSleep }
        if let work {
            do { checked.work = try work.hours() } catch { throw .work(error) }
        }
        checked.exerciseTime = try part(exerciseTime, "exerciseTime")
        checked.focusTime = try part(focusTime, "focusTime")
        if let intensity {
            guard let parsed = PlannerIntensity(rawValue: intensity.lowercased()) else { throw .intensity(intensity) }
            checked.intensity = parsed
        }
        return checked
    }
}
