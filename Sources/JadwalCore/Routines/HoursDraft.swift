import Foundation
import Scheduling

/// Clock hours on days of the week as JSON carries them, for routines and working hours:
/// `{"start": "09:00", "end": "17:00", "days": "weekdays"}`. `days` is a list of ISO day numbers
/// (1 = Monday … 7 = Sunday) or one of `daily`, `weekdays`, `weekends`.
public struct HoursDraft: Sendable, Codable, Equatable {
    public var start: String
    public var end: String
    public var days: Days

    /// The days field in either of its forms.
    public enum Days: Sendable, Equatable, Codable {
        case numbers([Int])
        case named(String)

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let numbers = try? container.decode([Int].self) {
                self = .numbers(numbers)
            } else if let name = try? container.decode(String.self) {
                self = .named(name)
            } else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "'days' is a list of day numbers (1 = Monday … 7 = Sunday) or daily, weekdays or weekends")
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .numbers(let numbers): try container.encode(numbers)
            case .named(let name): try container.encode(name)
            }
        }
    }

    public init(start: String, end: String, days: Days) {
        self.start = start
        self.end = end
        self.days = days
    }

    /// The same hours written back, days as numbers.
    public init(_ hours: WeeklyHours) {
        self.init(start: hours.start.description, end: hours.end.description, days: .numbers(hours.days.numbers))
    }

    /// The checked hours; the error names its field (`start`, `end`, `days`).
    public func hours() throws(SchedulingError) -> WeeklyHours {
        let dayset: DaysOfWeek
        switch days {
        case .numbers(let numbers): dayset = try DaysOfWeek(numbers)
        case .named(let name): dayset = try DaysOfWeek(named: name)
        }
        return try WeeklyHours(start: TimeOfDay(parsing: start, field: "start"), end: TimeOfDay(parsing: end, field: "end"), days: dayset)
    }
}
