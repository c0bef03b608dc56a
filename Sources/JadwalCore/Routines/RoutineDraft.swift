import Foundation
import ICalendar
import Scheduling

/// A routine as the web app and other JSON clients describe it:
/// `{"name": "Gym", "start": "18:00", "end": "19:30", "days": "weekdays", "reminderMinutes": 15}`.
/// `days` as in ``HoursDraft``; `kind` is `routine` (the default) or `sleep`; `timeZone` defaults to the account's.
public struct RoutineDraft: Sendable, Decodable, Equatable {
    public var name: String
    public var start: String
    public var end: String
    public var days: HoursDraft.Days
    public var reminderMinutes: Int?
    public var kind: String?
    public var timeZone: String?

    public init(name: String, start: String, end: String, days: HoursDraft.Days, reminderMinutes: Int? = nil, kind: String? = nil, timeZone: String? = nil) {
        self.name = name
        self.start = start
        self.end = end
        self.days = days
        self.reminderMinutes = reminderMinutes
        self.kind = kind
        self.timeZone = timeZone
    }

    /// Why a draft is refused; each message names its field.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case scheduling(SchedulingError)
        case name
        case kind(String)
        case timeZone(String)

        public var field: String {
            switch self {
            case .scheduling(let error): error.field
            case .name: "name"
            case .kind: "kind"
            case .timeZone: "timeZone"
            }
        }

        public var description: String {
            switch self {
            case .scheduling(let error): error.description
            case .name: "name: must be 1 to 200 characters without control characters"
            case .kind(let value): "kind: \"\(value)\" is not routine or sleep"
            case .timeZone(let value): "timeZone: \"\(value)\" is not an IANA time zone such as Asia/Riyadh"
            }
        }
    }

    /// The checked routine; `id` becomes its id, `defaultZone` its zone when the draft has none.
    public func fields(id: String, defaultZone: String) throws(Problem) -> RoutineEvent.Fields {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count <= 200, !trimmed.containsControlCharacters else { throw .name }
        let zone = timeZone ?? defaultZone
        guard IANATimeZone.isKnown(zone) else { throw .timeZone(zone) }
        let routineKind: RoutineKind
        if let kind {
            guard let parsed = RoutineKind(rawValue: kind.lowercased()) else { throw .kind(kind) }
            routineKind = parsed
        } else {
            routineKind = .routine
        }
        do throws(SchedulingError) {
            let hours = try HoursDraft(start: start, end: end, days: days).hours()
            let routine = try Routine(id: id, name: trimmed, hours: hours, reminderMinutes: reminderMinutes)
            return RoutineEvent.Fields(routine: routine, kind: routineKind, timeZone: zone)
        } catch {
            throw .scheduling(error)
        }
    }
}
