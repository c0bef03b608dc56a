import Foundation
import ICalendar

/// A to-do as the web app and other JSON clients describe it. It becomes a VTODO through
/// ICalendar's `Todo` model, so it is stored and synced exactly like one iOS Reminders wrote.
///
/// On an edit, a field the JSON leaves out keeps its value, a field given as `null` is cleared,
/// and every property the draft has no field for (X-APPLE-SORT-ORDER, DTSTART, CATEGORIES…) is
/// kept as it was.
public struct TaskDraft: Sendable, Equatable, Codable {
    public enum Priority: Sendable, Equatable, Codable {
        case number(Int)
        /// `high`, `medium` or `low`.
        case word(String)

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Int.self) {
                self = .number(number)
            } else if let word = try? container.decode(String.self) {
                self = .word(word)
            } else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "give 0 to 9 (1 highest, 0 undefined) or high, medium, low")
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .number(let number): try container.encode(number)
            case .word(let word): try container.encode(word)
            }
        }

        /// RFC 5545 §3.8.1.9: 1 highest, 9 lowest, 0 undefined; the words as Apple's apps map them.
        var value: Int? {
            switch self {
            case .number(let number): (0...9).contains(number) ? number : nil
            case .word(let word): ["high": 1, "medium": 5, "low": 9][word.lowercased()]
            }
        }
    }

    /// The fields a JSON client may send as `null` to clear them on an edit.
    public enum Field: String, Sendable, Hashable, Codable, CodingKey, CaseIterable {
        case title, notes, due, timeZone, priority, estimateMinutes, status, alarmMinutesBefore, categories
    }

    public var title: String?
    public var notes: String?
    /// `2026-11-25` (a date), `2026-11-25T17:00` (wall time in `timeZone`), or an instant with
    /// `Z` or an offset.
    public var due: String?
    /// IANA zone of a wall-time `due`; defaults to the task's own, else the account's.
    public var timeZone: String?
    public var priority: Priority?
    /// How long the work takes, 1 … 10080 (a week); "Plan my tasks" plans only tasks with one.
    public var estimateMinutes: Int?
    /// `needs-action`, `in-process`, `completed` or `cancelled`.
    public var status: String?
    /// A reminder this many minutes before `due`.
    public var alarmMinutesBefore: Int?
    /// Its categories (`CATEGORIES`), e.g. `["Home", "Errands"]`; `[]` or `null` removes them.
    public var categories: [String]?
    /// Fields the JSON gave as `null`.
    public var cleared: Set<Field> = []

    public init(
        title: String? = nil, notes: String? = nil, due: String? = nil, timeZone: String? = nil, priority: Priority? = nil,
        estimateMinutes: Int? = nil, status: String? = nil, alarmMinutesBefore: Int? = nil, categories: [String]? = nil, cleared: Set<Field> = []
    ) {
        self.title = title
        self.notes = notes
        self.due = due
        self.timeZone = timeZone
        self.priority = priority
        self.estimateMinutes = estimateMinutes
        self.status = status
        self.alarmMinutesBefore = alarmMinutesBefore
        self.categories = categories
        self.cleared = cleared
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Field.self)
        var cleared: Set<Field> = []
        func value<T: Decodable>(_ key: Field, _ type: T.Type) throws -> T? {
            guard container.contains(key) else { return nil }
            if try container.decodeNil(forKey: key) {
                cleared.insert(key)
                return nil
            }
            return try container.decode(T.self, forKey: key)
        }
        title = try value(.title, String.self)
        notes = try value(.notes, String.self)
        due = try value(.due, String.self)
        timeZone = try value(.timeZone, String.self)
        priority = try value(.priority, Priority.self)
        estimateMinutes = try value(.estimateMinutes, Int.self)
        status = try value(.status, String.self)
        alarmMinutesBefore = try value(.alarmMinutesBefore, Int.self)
        categories = try value(.categories, [String].self)
        self.cleared = cleared
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Field.self)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encodeIfPresent(notes, forKey: .notes)
        try container.encodeIfPresent(due, forKey: .due)
        try container.encodeIfPresent(timeZone, forKey: .timeZone)
        try container.encodeIfPresent(priority, forKey: .priority)
        try container.encodeIfPresent(estimateMinutes, forKey: .estimateMinutes)
        try container.encodeIfPresent(status, forKey: .status)
        try container.encodeIfPresent(alarmMinutesBefore, forKey: .alarmMinutesBefore)
        try container.encodeIfPresent(categories, forKey: .categories)
    }

    public static let maxEstimateMinutes = 10_080
    public static let maxAlarmMinutes = 40_320

    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case titleMissing, title, notes, due(String), dueBeforeStart, timeZone(String), priority(String), estimate, status(String)
        case alarm, alarmNeedsDue, cannotClear(Field), categories

        /// The JSON field the problem is about.
        public var field: String {
            switch self {
            case .titleMissing, .title: "title"
            case .notes: "notes"
            case .due, .dueBeforeStart: "due"
            case .timeZone: "timeZone"
            case .priority: "priority"
            case .estimate: "estimateMinutes"
            case .status: "status"
            case .alarm, .alarmNeedsDue: "alarmMinutesBefore"
            case .cannotClear(let field): field.rawValue
            case .categories: "categories"
            }
        }

        public var description: String {
            switch self {
            case .titleMissing: "'title' is required"
            case .title: "'title' must be 1 to 500 characters without control characters"
            case .notes: "'notes' must be at most 10000 characters"
            case .due(let value):
                "'due' must be a date (2026-11-25), a wall time (2026-11-25T17:00) or an instant (2026-11-25T14:00:00Z), not '\(value)'"
            case .dueBeforeStart: "'due' must not be before the task's start (its DTSTART)"
            case .timeZone(let zone): "'timeZone' must be an IANA time zone such as Asia/Riyadh, not '\(zone)'"
            case .priority(let value): "'priority' must be 0 to 9 (1 highest, 9 lowest, 0 undefined) or high, medium, low, not '\(value)'"
            case .estimate: "'estimateMinutes' must be between 1 and \(TaskDraft.maxEstimateMinutes) (one week)"
            case .status(let value): "'status' must be needs-action, in-process, completed or cancelled, not '\(value)'"
            case .alarm: "'alarmMinutesBefore' must be between 0 and \(TaskDraft.maxAlarmMinutes) (four weeks)"
            case .alarmNeedsDue: "'alarmMinutesBefore' needs a 'due' to count back from"
            case .cannotClear(let field): "'\(field.rawValue)' cannot be null"
            case .categories: ItemCategories.rule
            }
        }
    }

    /// The iCalendar object for this draft: a new to-do with `uid`, or `existing` edited.
    public func icalendar(uid: String, existing: Component? = nil, defaultTimeZone: String, now: Date) throws(Problem) -> String {
        for field in [Field.title, .status] where cleared.contains(field) { throw .cannotClear(field) }
        let index = existing?.masterIndex("VTODO")
        let current = index.flatMap { existing?.components[$0] }.flatMap { try? Todo(component: $0) }
        var todo = current ?? Todo(uid: uid, title: nil)

        if let title {
            let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty, trimmed.count <= 500, !trimmed.containsControlCharacters else { throw .title }
            todo.title = trimmed
        } else if current == nil {
            throw .titleMissing
        }
        if let notes {
            guard notes.count <= 10_000 else { throw .notes }
            todo.description = notes.isEmpty ? nil : notes
        } else if cleared.contains(.notes) {
            todo.description = nil
        }

        // A wall time without a zone keeps the task's own zone, like an edited event.
        let zone = timeZone ?? current?.due?.tzid.flatMap { IANATimeZone.isKnown($0) ? $0 : nil } ?? defaultTimeZone
        guard IANATimeZone.isKnown(zone), ZoneRules(ianaIdentifier: zone) != nil else { throw .timeZone(zone) }
        if let due {
            guard let value = EventDraft.value(due, allDay: due.count == 10, zone: zone) else { throw .due(due) }
            todo.due = value
            todo.duration = nil  // RFC 5545: DUE or DURATION, never both
        } else if cleared.contains(.due) {
            todo.due = nil
            todo.duration = nil
        }
        if let start = todo.start, let newDue = todo.due, due != nil {
            let resolver = existing.map { TimeZoneResolver(calendar: $0) } ?? TimeZoneResolver()
            let floating = ZoneRules(ianaIdentifier: defaultTimeZone) ?? .utc
            if let s = TaskDue.seconds(start, resolver: resolver, floating: floating), let d = TaskDue.seconds(newDue, resolver: resolver, floating: floating), d < s {
                throw .dueBeforeStart
            }
        }

        if let priority {
            guard let value = priority.value else {
                switch priority {
                case .number(let number): throw .priority(String(number))
                case .word(let word): throw .priority(word)
                }
            }
            todo.priority = value
        } else if cleared.contains(.priority) {
            todo.priority = nil
        }
        if let estimateMinutes {
            guard (1...Self.maxEstimateMinutes).contains(estimateMinutes) else { throw .estimate }
            todo.estimate = Duration(hours: estimateMinutes / 60, minutes: estimateMinutes % 60)
        } else if cleared.contains(.estimateMinutes) {
            todo.estimate = nil
        }

        if let status {
            guard let value = Todo.Status(rawValue: status.uppercased()) else { throw .status(status) }
            if value == .completed {
                if todo.effectiveStatus != .completed || todo.completed == nil {
                    todo.completed = .dateTime(LocalDateTime(secondsSinceEpoch: Int64(now.timeIntervalSince1970.rounded(.down))), .utc)
                }
                todo.percentComplete = 100
            } else {
                // Reopened (or cancelled): no longer done. Progress short of 100 % stays.
                todo.completed = nil
                if todo.percentComplete == 100 { todo.percentComplete = nil }
            }
            todo.status = value
        } else if current == nil {
            todo.status = .needsAction
        }

        if let alarmMinutesBefore {
            guard (0...Self.maxAlarmMinutes).contains(alarmMinutesBefore) else { throw .alarm }
            guard todo.due != nil else { throw .alarmNeedsDue }
            let before = Duration(negative: alarmMinutesBefore > 0, minutes: alarmMinutesBefore)
            todo.alarms = [Todo.Alarm(trigger: .relative(before, relatedToEnd: true), description: todo.title)]
        } else if cleared.contains(.alarmMinutesBefore) {
            todo.alarms = []
        }
        if todo.due == nil {
            // RFC 5545 §3.8.6.3: an alarm relative to the end of a to-do needs its DUE.
            todo.alarms.removeAll { alarm in
                if case .relative(_, true) = alarm.trigger { return todo.start == nil || todo.duration == nil }
                return false
            }
        }

        var labels: [String]?
        if let categories {
            guard let checked = ItemCategories.checked(categories) else { throw .categories }
            labels = checked
        } else if cleared.contains(.categories) {
            labels = []
        }

        if current != nil { todo.sequence += 1 }
        var vtodo = todo.component
        if let labels { ItemCategories.set(labels, on: &vtodo) }
        let stamp = UTCStamp.format(now)
        vtodo.set("DTSTAMP", Property(name: "DTSTAMP", value: stamp))
        vtodo.set("LAST-MODIFIED", Property(name: "LAST-MODIFIED", value: stamp))
        if vtodo.first("CREATED") == nil { vtodo.set("CREATED", Property(name: "CREATED", value: stamp)) }

        var calendar = existing ?? Component(name: "VCALENDAR", properties: [
            Property(name: "VERSION", value: "2.0"), Property(name: "PRODID", value: "-//Jadwal//Web//EN"),
        ])
        if let index, current != nil {
            calendar.components[index] = vtodo
        } else {
            calendar.components.removeAll { $0.name == "VTODO" && $0.isMaster }
            calendar.components.append(vtodo)
        }
        if let tzid = todo.due?.tzid, !calendar.components.contains(where: { $0.name == "VTIMEZONE" && $0.first("TZID")?.value == tzid }),
           let vtimezone = VTimeZoneWriter.component(forIANAIdentifier: tzid, fromYear: max(1970, (todo.due?.local.date.year ?? 1971) - 1)) {
            calendar.components.insert(vtimezone, at: 0)
        }
        return calendar.serialized
    }
}

extension TaskDraft {
    /// The draft that describes a stored to-do, for showing and editing.
    public init(todo: Todo) {
        var alarm: Int?
        if case .relative(let duration, true)? = todo.alarms.first?.trigger { alarm = Int(-duration.totalSeconds / 60) }
        let minutes = todo.estimate.map { Int(($0.totalSeconds + 59) / 60) }
        self.init(
            title: todo.title ?? "", notes: todo.description, due: todo.due.map(TaskDue.text), timeZone: todo.due?.tzid,
            priority: todo.priority.map(Priority.number), estimateMinutes: minutes, status: todo.effectiveStatus.rawValue.lowercased(),
            alarmMinutesBefore: alarm, categories: Optional(ItemCategories.of(todo.source)).flatMap { $0.isEmpty ? nil : $0 })
    }
}

/// Due dates as instants and as the API writes them.
public enum TaskDue {
    /// When a to-do is due, as an instant. A DATE means by the end of that day: the start of the
    /// next day in `zone` (the account's; a DATE has no zone of its own). A wall time without a
    /// zone is read in `zone` too; one with a TZID in that zone, resolved like any other.
    public static func instant(_ value: DateOrDateTime, resolver: TimeZoneResolver, zone: ZoneRules) -> Date? {
        let end: DateOrDateTime
        if case .date(let day) = value { end = .date(day.adding(days: 1)) } else { end = value }
        return seconds(end, resolver: resolver, floating: zone).map { Date(timeIntervalSince1970: TimeInterval($0)) }
    }

    /// Seconds since 1970 of a value's start (midnight for a DATE) in its own zone, or `floating`.
    static func seconds(_ value: DateOrDateTime, resolver: TimeZoneResolver, floating: ZoneRules) -> Int64? {
        switch value {
        case .date(let day): return floating.utcSeconds(for: LocalDateTime(date: day))
        case .dateTime(let local, .utc): return local.secondsSinceEpoch
        case .dateTime(let local, .floating): return floating.utcSeconds(for: local)
        case .dateTime(let local, .zone(let tzid)): return resolver.rules(for: tzid)?.utcSeconds(for: local)
        }
    }

    /// `2026-11-25`, `2026-11-25T17:00:00` (a wall time; its zone is the draft's `timeZone`) or
    /// `2026-11-25T14:00:00Z`.
    static func text(_ value: DateOrDateTime) -> String {
        func pad(_ v: Int, _ w: Int = 2) -> String { String(repeating: "0", count: max(0, w - String(v).count)) + String(v) }
        let l = value.local
        let day = "\(pad(l.date.year, 4))-\(pad(l.date.month))-\(pad(l.date.day))"
        if value.isDate { return day }
        let wall = "\(day)T\(pad(l.hour)):\(pad(l.minute)):\(pad(l.second))"
        return value.reference == .utc ? wall + "Z" : wall
    }
}
