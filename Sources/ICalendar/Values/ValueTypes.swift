/// How a DATE-TIME is anchored (RFC 5545 §3.3.5 forms 1–3).
public enum TimeReference: Sendable, Hashable {
    /// No zone: the same wall time wherever the reader is.
    case floating
    /// Trailing `Z`.
    case utc
    /// `TZID=` parameter.
    case zone(String)
}

/// A DATE or DATE-TIME value as written.
public enum DateOrDateTime: Sendable, Hashable, CustomStringConvertible {
    case date(CivilDate)
    case dateTime(LocalDateTime, TimeReference)

    public var isDate: Bool { if case .date = self { return true } else { return false } }

    /// The wall-clock value (midnight for a DATE).
    public var local: LocalDateTime {
        switch self {
        case .date(let d): return LocalDateTime(date: d)
        case .dateTime(let l, _): return l
        }
    }

    public var reference: TimeReference {
        switch self {
        case .date: return .floating
        case .dateTime(_, let r): return r
        }
    }

    public var tzid: String? {
        if case .dateTime(_, .zone(let id)) = self { return id }
        return nil
    }

    /// Parses `value` with the property's TZID and VALUE parameters.
    public static func parse(_ value: String, tzid: String? = nil, valueType: String? = nil) throws -> DateOrDateTime {
        var bytes = value
        // Parsed in place on the UTF-8 bytes: this runs for every date of every instance.
        return try bytes.withUTF8 { try parse(bytes: $0, original: value, tzid: tzid, valueType: valueType) }
    }

    static func parse(bytes: UnsafeBufferPointer<UInt8>, original: String, tzid: String?, valueType: String?) throws -> DateOrDateTime {
        if bytes.count == 8 {
            if let vt = valueType, vt.uppercased() == "DATE-TIME" {
                throw ICalendarError(.invalidValue, "\"\(original)\" is a DATE but VALUE=DATE-TIME")
            }
            return .date(try parseDate(bytes, original))
        }
        guard bytes.count == 15 || (bytes.count == 16 && (bytes[15] == UInt8(ascii: "Z") || bytes[15] == UInt8(ascii: "z"))),
              bytes[8] == UInt8(ascii: "T") || bytes[8] == UInt8(ascii: "t")
        else {
            throw ICalendarError(.invalidValue, "\"\(original.prefix(40))\" is not a DATE (YYYYMMDD) or DATE-TIME (YYYYMMDDTHHMMSS[Z])")
        }
        let date = try parseDate(UnsafeBufferPointer(rebasing: bytes[0..<8]), original)
        guard let h = digits(bytes, 9, 2), let m = digits(bytes, 11, 2), let s = digits(bytes, 13, 2) else {
            throw ICalendarError(.invalidValue, "\"\(original)\" has a malformed time")
        }
        let local = LocalDateTime(date: date, hour: h, minute: m, second: s)
        guard local.isValid else {
            throw ICalendarError(.invalidValue, "\"\(original)\" is not a real time of day")
        }
        if bytes.count == 16 { return .dateTime(local, .utc) }
        if let tzid, !tzid.isEmpty { return .dateTime(local, .zone(tzid)) }
        return .dateTime(local, .floating)
    }

    static func parseDate(_ bytes: UnsafeBufferPointer<UInt8>, _ original: String) throws -> CivilDate {
        guard bytes.count == 8, let y = digits(bytes, 0, 4), let mo = digits(bytes, 4, 2), let d = digits(bytes, 6, 2) else {
            throw ICalendarError(.invalidValue, "\"\(original.prefix(40))\" is not a date (YYYYMMDD)")
        }
        let date = CivilDate(year: y, month: mo, day: d)
        guard date.isValid else {
            throw ICalendarError(.invalidValue, "\"\(original)\": \(y)-\(pad(mo, 2))-\(pad(d, 2)) does not exist")
        }
        return date
    }

    static func digits(_ b: UnsafeBufferPointer<UInt8>, _ at: Int, _ count: Int) -> Int? {
        guard at + count <= b.count else { return nil }
        var v = 0
        for i in at..<(at + count) {
            let c = b[i]
            guard c >= 0x30 && c <= 0x39 else { return nil }
            v = v * 10 + Int(c - 0x30)
        }
        return v
    }

    static func digits(_ b: [UInt8], _ at: Int, _ count: Int) -> Int? {
        b.withUnsafeBufferPointer { digits($0, at, count) }
    }

    /// The iCalendar text of the value (without TZID, which is a parameter).
    public var icalValue: String {
        switch self {
        case .date(let d): return Self.format(d)
        case .dateTime(let l, let r):
            return Self.format(l.date) + "T" + pad(l.hour, 2) + pad(l.minute, 2) + pad(l.second, 2) + (r == .utc ? "Z" : "")
        }
    }

    static func format(_ d: CivilDate) -> String { pad(d.year, 4) + pad(d.month, 2) + pad(d.day, 2) }

    public var description: String { icalValue + (tzid.map { " (\($0))" } ?? "") }

    /// A property carrying this value with the right TZID and VALUE parameters.
    public func property(_ name: String, extraParameters: [Parameter] = []) -> Property {
        var params = extraParameters.filter { $0.name != "TZID" && $0.name != "VALUE" }
        if case .date = self { params.insert(Parameter("VALUE", "DATE"), at: 0) }
        if let tzid { params.insert(Parameter("TZID", tzid), at: 0) }
        return Property(name: name, parameters: params, value: icalValue)
    }
}

extension Property {
    /// The value as DATE or DATE-TIME (DTSTART, DTEND, DUE, RECURRENCE-ID, …).
    public func dateValue() throws -> DateOrDateTime {
        do {
            return try DateOrDateTime.parse(value, tzid: parameter("TZID"), valueType: parameter("VALUE"))
        } catch var error as ICalendarError {
            error.line = line == 0 ? nil : line
            error.message = "\(name): " + error.message
            throw error
        }
    }

    /// Comma-separated DATE/DATE-TIME/PERIOD values (RDATE, EXDATE).
    public func dateListValue() throws -> [DateOrPeriod] {
        let tzid = parameter("TZID")
        let type = parameter("VALUE")?.uppercased()
        var result: [DateOrPeriod] = []
        for part in value.split(separator: ",", omittingEmptySubsequences: true) {
            let text = String(part).trimmingSpaces
            do {
                if type == "PERIOD" || text.contains("/") {
                    result.append(.period(try Period.parse(text, tzid: tzid)))
                } else {
                    result.append(.date(try DateOrDateTime.parse(text, tzid: tzid, valueType: type)))
                }
            } catch var error as ICalendarError {
                error.line = line == 0 ? nil : line
                error.message = "\(name): " + error.message
                throw error
            }
        }
        return result
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return String(s)
    }
}

/// RDATE and FREEBUSY entries are dates or periods.
public enum DateOrPeriod: Sendable, Hashable {
    case date(DateOrDateTime)
    case period(Period)

    public var start: DateOrDateTime {
        switch self {
        case .date(let d): return d
        case .period(let p): return p.start
        }
    }
}

/// A DURATION value (RFC 5545 §3.3.6). Weeks and days are nominal (wall-clock days),
/// hours/minutes/seconds exact — the distinction matters across DST changes.
public struct Duration: Sendable, Hashable, CustomStringConvertible {
    public var negative: Bool
    public var weeks: Int
    public var days: Int
    public var hours: Int
    public var minutes: Int
    public var seconds: Int

    public init(negative: Bool = false, weeks: Int = 0, days: Int = 0, hours: Int = 0, minutes: Int = 0, seconds: Int = 0) {
        self.negative = negative
        self.weeks = weeks
        self.days = days
        self.hours = hours
        self.minutes = minutes
        self.seconds = seconds
    }

    /// Builds the shortest form for a number of seconds (days when whole).
    public init(totalSeconds: Int64) {
        var s = abs(totalSeconds)
        let d = s / 86_400
        s %= 86_400
        self.init(negative: totalSeconds < 0, days: Int(d), hours: Int(s / 3600), minutes: Int(s % 3600 / 60), seconds: Int(s % 60))
    }

    /// Signed nominal days (weeks × 7 + days).
    public var nominalDays: Int { (negative ? -1 : 1) * (weeks * 7 + days) }
    /// Signed exact seconds (hours, minutes, seconds).
    public var exactSeconds: Int64 { Int64((negative ? -1 : 1) * (hours * 3600 + minutes * 60 + seconds)) }
    /// Total assuming 24-hour days.
    public var totalSeconds: Int64 { Int64(nominalDays) * 86_400 + exactSeconds }

    public static func parse(_ text: String) throws -> Duration {
        var bytes = Array(text.utf8)[...]
        var result = Duration()
        func fail() -> ICalendarError {
            ICalendarError(.invalidValue, "\"\(text.prefix(40))\" is not a DURATION (e.g. PT1H30M, P1D, -P2W)")
        }
        if bytes.first == UInt8(ascii: "-") { result.negative = true; bytes = bytes.dropFirst() } else if bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        guard bytes.first == UInt8(ascii: "P") || bytes.first == UInt8(ascii: "p") else { throw fail() }
        bytes = bytes.dropFirst()
        var inTime = false
        var number: Int? = nil
        var sawComponent = false
        for b in bytes {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let v = (number ?? 0) * 10 + Int(b - 0x30)
                guard v < 100_000_000 else { throw fail() }
                number = v
            case UInt8(ascii: "T"), UInt8(ascii: "t"):
                guard !inTime, number == nil else { throw fail() }
                inTime = true
            default:
                guard let n = number else { throw fail() }
                switch (b | 0x20, inTime) {
                case (UInt8(ascii: "w"), false): result.weeks = n
                case (UInt8(ascii: "d"), false): result.days = n
                case (UInt8(ascii: "h"), true): result.hours = n
                case (UInt8(ascii: "m"), true): result.minutes = n
                case (UInt8(ascii: "s"), true): result.seconds = n
                default: throw fail()
                }
                number = nil
                sawComponent = true
            }
        }
        guard sawComponent, number == nil else { throw fail() }
        return result
    }

    public var icalValue: String {
        var s = negative ? "-P" : "P"
        if weeks > 0 && days == 0 && hours == 0 && minutes == 0 && seconds == 0 { return s + "\(weeks)W" }
        let d = weeks * 7 + days
        if d > 0 { s += "\(d)D" }
        if hours > 0 || minutes > 0 || seconds > 0 {
            s += "T"
            if hours > 0 { s += "\(hours)H" }
            if minutes > 0 { s += "\(minutes)M" }
            if seconds > 0 { s += "\(seconds)S" }
        }
        if s.hasSuffix("P") { s += "T0S" }
        return s
    }

    public var description: String { icalValue }
}

/// A PERIOD value: start/end or start/duration (RFC 5545 §3.3.9).
public struct Period: Sendable, Hashable {
    public enum End: Sendable, Hashable {
        case end(DateOrDateTime)
        case duration(Duration)
    }

    public var start: DateOrDateTime
    public var end: End

    public init(start: DateOrDateTime, end: End) {
        self.start = start
        self.end = end
    }

    public static func parse(_ text: String, tzid: String? = nil) throws -> Period {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw ICalendarError(.invalidValue, "\"\(text.prefix(40))\" is not a PERIOD (start/end or start/duration)")
        }
        let start = try DateOrDateTime.parse(String(parts[0]), tzid: tzid)
        guard !start.isDate else { throw ICalendarError(.invalidValue, "PERIOD \"\(text.prefix(40))\" must start with a DATE-TIME") }
        let second = String(parts[1])
        if let f = second.utf8.first, f == UInt8(ascii: "P") || f == UInt8(ascii: "-") || f == UInt8(ascii: "+") {
            return Period(start: start, end: .duration(try Duration.parse(second)))
        }
        return Period(start: start, end: .end(try DateOrDateTime.parse(second, tzid: tzid)))
    }

    public var icalValue: String {
        switch end {
        case .end(let e): return start.icalValue + "/" + e.icalValue
        case .duration(let d): return start.icalValue + "/" + d.icalValue
        }
    }
}

/// A UTC-OFFSET value such as -0500 or +053000, in seconds.
public struct UTCOffset: Sendable, Hashable {
    public var seconds: Int

    public init(seconds: Int) { self.seconds = seconds }

    public static func parse(_ text: String) throws -> UTCOffset {
        let b = Array(text.utf8)
        guard b.count == 5 || b.count == 7, b[0] == UInt8(ascii: "+") || b[0] == UInt8(ascii: "-"),
              let h = DateOrDateTime.digits(b, 1, 2), let m = DateOrDateTime.digits(b, 3, 2), h < 24, m < 60
        else {
            throw ICalendarError(.invalidValue, "\"\(text.prefix(40))\" is not a UTC offset (±HHMM[SS])")
        }
        var s = 0
        if b.count == 7 {
            guard let sec = DateOrDateTime.digits(b, 5, 2), sec < 60 else {
                throw ICalendarError(.invalidValue, "\"\(text)\" is not a UTC offset (±HHMM[SS])")
            }
            s = sec
        }
        let total = h * 3600 + m * 60 + s
        if b[0] == UInt8(ascii: "-") && total == 0 {
            throw ICalendarError(.invalidValue, "UTC offset \"-0000\" is not allowed")
        }
        return UTCOffset(seconds: b[0] == UInt8(ascii: "-") ? -total : total)
    }

    public var icalValue: String {
        let a = abs(seconds)
        var s = (seconds < 0 ? "-" : "+") + pad(a / 3600, 2) + pad(a % 3600 / 60, 2)
        if a % 60 != 0 { s += pad(a % 60, 2) }
        return s
    }
}
