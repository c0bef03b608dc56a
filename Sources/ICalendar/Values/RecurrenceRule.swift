import Synchronization

/// An RRULE value (RFC 5545 §3.3.10), validated part by part.
public struct RecurrenceRule: Sendable, Hashable, CustomStringConvertible {
    /// Ordered from shortest to longest period.
    public enum Frequency: Int, Sendable, Hashable, CaseIterable, Comparable {
        case secondly, minutely, hourly, daily, weekly, monthly, yearly

        public var code: String {
            ["SECONDLY", "MINUTELY", "HOURLY", "DAILY", "WEEKLY", "MONTHLY", "YEARLY"][rawValue]
        }

        public init?(code: String) {
            guard let f = Frequency.allCases.first(where: { $0.code == code.uppercased() }) else { return nil }
            self = f
        }

        public static func < (a: Frequency, b: Frequency) -> Bool { a.rawValue < b.rawValue }
    }

    /// A BYDAY entry such as `MO`, `2TU` or `-1FR`.
    public struct WeekdayOccurrence: Sendable, Hashable {
        public var ordinal: Int?
        public var weekday: Weekday

        public init(_ weekday: Weekday, ordinal: Int? = nil) {
            self.weekday = weekday
            self.ordinal = ordinal
        }

        public var icalValue: String { (ordinal.map { String($0) } ?? "") + weekday.code }
    }

    public var frequency: Frequency
    public var interval: Int = 1
    public var count: Int?
    public var until: DateOrDateTime?
    public var bySecond: [Int] = []
    public var byMinute: [Int] = []
    public var byHour: [Int] = []
    public var byDay: [WeekdayOccurrence] = []
    public var byMonthDay: [Int] = []
    public var byYearDay: [Int] = []
    public var byWeekNo: [Int] = []
    public var byMonth: [Int] = []
    public var bySetPos: [Int] = []
    public var weekStart: Weekday = .monday
    /// Whether WKST was written (so serialisation does not add it).
    public var hasExplicitWeekStart = false
    /// X- parts, kept for round trips.
    public var extensionParts: [Parameter] = []
    /// RFC violations that do not stop expansion (reported by `ics validate`);
    /// expansion follows what common engines do (ordinals ignored outside MONTHLY/YEARLY).
    public var problems: [String] = []

    public init(frequency: Frequency) { self.frequency = frequency }

    public static func parse(_ text: String) throws -> RecurrenceRule {
        var frequency: Frequency?
        var rule = RecurrenceRule(frequency: .daily)
        var seen = Set<String>()
        func bad(_ message: String) -> ICalendarError { ICalendarError(.invalidRecurrenceRule, "RRULE: " + message) }
        func ints(_ name: String, _ value: String, _ range: ClosedRange<Int>, allowNegative: Bool) throws -> [Int] {
            var out: [Int] = []
            for item in value.split(separator: ",", omittingEmptySubsequences: false) {
                guard item.utf8.count <= 6, let n = Int(item), range.contains(abs(n)), allowNegative || n >= 0,
                      !(allowNegative && n == 0)
                else {
                    throw bad("\(name) value \"\(item.prefix(20))\" is out of range (\(allowNegative ? "±" : "")\(range.lowerBound)…\(range.upperBound))")
                }
                out.append(n)
            }
            guard out.count <= 400 else { throw bad("\(name) has too many values") }
            return out
        }
        guard !text.isEmpty else { throw bad("empty rule") }
        for part in text.split(separator: ";", omittingEmptySubsequences: true) {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pieces.count == 2 else { throw bad("part \"\(part.prefix(30))\" is not NAME=VALUE") }
            let name = pieces[0].uppercased()
            let value = String(pieces[1])
            guard !seen.contains(name) else { throw bad("\(name) appears twice") }
            seen.insert(name)
            guard !value.isEmpty else { throw bad("\(name) has no value") }
            switch name {
            case "FREQ":
                guard let f = Frequency(code: value) else { throw bad("unknown FREQ \"\(value.prefix(20))\"") }
                frequency = f
            case "INTERVAL":
                guard value.utf8.count <= 9, let n = Int(value), n >= 1 else { throw bad("INTERVAL must be a positive integer, got \"\(value.prefix(20))\"") }
                rule.interval = n
            case "COUNT":
                guard value.utf8.count <= 12, let n = Int(value), n >= 1 else { throw bad("COUNT must be a positive integer, got \"\(value.prefix(20))\"") }
                rule.count = n
            case "UNTIL":
                do { rule.until = try DateOrDateTime.parse(value) } catch let e as ICalendarError { throw bad("UNTIL: " + e.message) }
            case "BYSECOND": rule.bySecond = try ints(name, value, 0...60, allowNegative: false)
            case "BYMINUTE": rule.byMinute = try ints(name, value, 0...59, allowNegative: false)
            case "BYHOUR": rule.byHour = try ints(name, value, 0...23, allowNegative: false)
            case "BYMONTHDAY": rule.byMonthDay = try ints(name, value, 1...31, allowNegative: true)
            case "BYYEARDAY": rule.byYearDay = try ints(name, value, 1...366, allowNegative: true)
            case "BYWEEKNO": rule.byWeekNo = try ints(name, value, 1...53, allowNegative: true)
            case "BYMONTH": rule.byMonth = try ints(name, value, 1...12, allowNegative: false)
            case "BYSETPOS": rule.bySetPos = try ints(name, value, 1...366, allowNegative: true)
            case "BYDAY":
                for item in value.split(separator: ",", omittingEmptySubsequences: false) {
                    let s = String(item).uppercased()
                    guard s.utf8.count >= 2, s.utf8.count <= 5, let wd = Weekday(code: String(s.suffix(2))) else {
                        throw bad("BYDAY value \"\(item.prefix(20))\" is not a weekday like MO, 2TU or -1FR")
                    }
                    let prefix = s.dropLast(2)
                    var ordinal: Int?
                    if !prefix.isEmpty {
                        guard let n = Int(prefix), n != 0, abs(n) <= 53 else {
                            throw bad("BYDAY ordinal in \"\(item)\" must be ±1…53")
                        }
                        ordinal = n
                    }
                    rule.byDay.append(WeekdayOccurrence(wd, ordinal: ordinal))
                }
            case "WKST":
                guard let wd = Weekday(code: value) else { throw bad("WKST \"\(value.prefix(20))\" is not a weekday") }
                rule.weekStart = wd
                rule.hasExplicitWeekStart = true
            default:
                guard name.hasPrefix("X-") else { throw bad("unknown part \(name.prefix(30))") }
                rule.extensionParts.append(Parameter(name, value))
            }
        }
        guard let frequency else { throw bad("FREQ is required") }
        rule.frequency = frequency
        if rule.count != nil && rule.until != nil { rule.problems.append("COUNT and UNTIL must not both be present") }
        // RFC 5545: ordinals in BYDAY only with MONTHLY/YEARLY, and not with YEARLY+BYWEEKNO.
        if rule.byDay.contains(where: { $0.ordinal != nil }) {
            if frequency != .monthly && frequency != .yearly {
                rule.problems.append("BYDAY with an ordinal (like 2MO) needs FREQ=MONTHLY or YEARLY")
            }
            if frequency == .yearly && !rule.byWeekNo.isEmpty {
                rule.problems.append("BYDAY with an ordinal cannot be combined with BYWEEKNO")
            }
            if frequency == .monthly && rule.byDay.contains(where: { abs($0.ordinal ?? 0) > 5 }) {
                rule.problems.append("a monthly BYDAY ordinal must be within ±5")
            }
        }
        if !rule.byWeekNo.isEmpty && frequency != .yearly { rule.problems.append("BYWEEKNO is only valid with FREQ=YEARLY") }
        if !rule.byYearDay.isEmpty && [.daily, .weekly, .monthly].contains(frequency) {
            rule.problems.append("BYYEARDAY is not valid with FREQ=\(frequency.code)")
        }
        if !rule.byMonthDay.isEmpty && frequency == .weekly { rule.problems.append("BYMONTHDAY is not valid with FREQ=WEEKLY") }
        if !rule.bySetPos.isEmpty && seen.allSatisfy({ !$0.hasPrefix("BY") || $0 == "BYSETPOS" }) {
            rule.problems.append("BYSETPOS needs another BYxxx part")
        }
        return rule
    }

    public var icalValue: String {
        var parts = ["FREQ=" + frequency.code]
        if let until { parts.append("UNTIL=" + until.icalValue) }
        if let count { parts.append("COUNT=\(count)") }
        if interval != 1 { parts.append("INTERVAL=\(interval)") }
        func list(_ name: String, _ v: [Int]) { if !v.isEmpty { parts.append(name + "=" + v.map(String.init).joined(separator: ",")) } }
        list("BYSECOND", bySecond)
        list("BYMINUTE", byMinute)
        list("BYHOUR", byHour)
        if !byDay.isEmpty { parts.append("BYDAY=" + byDay.map(\.icalValue).joined(separator: ",")) }
        list("BYMONTHDAY", byMonthDay)
        list("BYYEARDAY", byYearDay)
        list("BYWEEKNO", byWeekNo)
        list("BYMONTH", byMonth)
        list("BYSETPOS", bySetPos)
        if hasExplicitWeekStart || weekStart != .monday { parts.append("WKST=" + weekStart.code) }
        for x in extensionParts { parts.append(x.name + "=" + x.value) }
        return parts.joined(separator: ";")
    }

    public var description: String { icalValue }
}

extension RecurrenceRule {
    private static let parsedRules = Mutex<[String: RecurrenceRule]>([:])

    /// `parse`, remembered by text: a time-range query evaluates every recurring candidate, and
    /// a calendar holds few distinct rules. Bounded, since rules come from untrusted input;
    /// failures are not remembered (they throw again, with their message).
    public static func cachedParse(_ text: String) throws -> RecurrenceRule {
        if let hit = parsedRules.withLock({ $0[text] }) { return hit }
        let rule = try parse(text)
        parsedRules.withLock { table in
            if table.count >= 4096 { table.removeAll(keepingCapacity: true) }
            table[text] = rule
        }
        return rule
    }
}
