import Foundation
import Synchronization

/// The UTC offsets of one time zone as a table of transitions, built once from either
/// Foundation's IANA database or a VTIMEZONE. A table keeps expansion fast (binary search
/// instead of a Foundation call per instance) and lets both sources behave identically.
public struct ZoneRules: Sendable, Hashable, CustomStringConvertible {
    public let identifier: String
    /// UTC instants (seconds since 1970) where the offset changes, ascending.
    let transitions: [Int64]
    /// `offsets[i]` applies before `transitions[i]`; the last entry after the last transition.
    let offsets: [Int32]
    /// Foundation zone to ask beyond the table (IANA zones only).
    let foundationIdentifier: String?
    let tableStart: Int64
    let tableEnd: Int64

    static let tableFirstYear = 1900
    static let tableLastYear = 2100

    public static let utc = ZoneRules(identifier: "UTC", transitions: [], offsets: [0], foundationIdentifier: nil, tableStart: .min, tableEnd: .max)

    init(identifier: String, transitions: [Int64], offsets: [Int32], foundationIdentifier: String?, tableStart: Int64, tableEnd: Int64) {
        self.identifier = identifier
        self.transitions = transitions
        self.offsets = offsets
        self.foundationIdentifier = foundationIdentifier
        self.tableStart = tableStart
        self.tableEnd = tableEnd
    }

    public static func fixed(seconds: Int, identifier: String? = nil) -> ZoneRules {
        ZoneRules(identifier: identifier ?? UTCOffset(seconds: seconds).icalValue, transitions: [], offsets: [Int32(seconds)],
                  foundationIdentifier: nil, tableStart: .min, tableEnd: .max)
    }

    /// An IANA zone through Foundation, or nil when Foundation does not know the name.
    public init?(ianaIdentifier identifier: String) {
        guard let tz = TimeZone(identifier: identifier) else { return nil }
        let start = LocalDateTime(year: Self.tableFirstYear, month: 1, day: 1).secondsSinceEpoch
        let end = LocalDateTime(year: Self.tableLastYear, month: 12, day: 31).secondsSinceEpoch
        var transitions: [Int64] = []
        var offsets: [Int32] = [Int32(tz.secondsFromGMT(for: Date(timeIntervalSince1970: Double(start))))]
        var cursor = Date(timeIntervalSince1970: Double(start))
        while let next = tz.nextDaylightSavingTimeTransition(after: cursor), next.timeIntervalSince1970 < Double(end), transitions.count < 5000 {
            let offset = Int32(tz.secondsFromGMT(for: next))
            if offset != offsets[offsets.count - 1] {
                transitions.append(Int64(next.timeIntervalSince1970.rounded()))
                offsets.append(offset)
            }
            cursor = next
        }
        self.init(identifier: identifier, transitions: transitions, offsets: offsets, foundationIdentifier: identifier, tableStart: start, tableEnd: end)
    }

    /// The offset from UTC in seconds at a UTC instant.
    public func offset(atUTC t: Int64) -> Int {
        if (t < tableStart || t >= tableEnd), let id = foundationIdentifier, let tz = TimeZone(identifier: id) {
            return tz.secondsFromGMT(for: Date(timeIntervalSince1970: Double(t)))
        }
        return Int(offsets[transitionIndex(after: t)])
    }

    /// The index of the first transition after `t` (= how many happened at or before it).
    @inline(__always)
    func transitionIndex(after t: Int64) -> Int {
        var low = 0, high = transitions.count
        while low < high {
            let mid = (low + high) / 2
            if transitions[mid] <= t { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The UTC instant of a wall-clock time. A time skipped by a forward jump is read with
    /// the offset before the jump (so 02:30 becomes 03:30); a repeated time means its first
    /// occurrence — RFC 5545 §3.3.5, and what Python's zoneinfo does with fold=0.
    public func utcSeconds(for local: LocalDateTime) -> Int64 {
        let wall = local.secondsSinceEpoch
        // Fast path: no transition within a day either side, so the offset is unambiguous.
        if wall - 86_400 >= tableStart, wall + 86_400 < tableEnd {
            let index = transitionIndex(after: wall - 86_400)
            if index >= transitions.count || transitions[index] > wall + 86_400 {
                return wall - Int64(offsets[index])
            }
        }
        let before = Int64(offset(atUTC: wall - 86_400))
        let after = Int64(offset(atUTC: wall + 86_400))
        if before == after, transitions.isEmpty || Int64(offset(atUTC: wall - before)) == before { return wall - before }
        let first = wall - before
        let second = wall - after
        let firstValid = Int64(offset(atUTC: first)) == before
        let secondValid = Int64(offset(atUTC: second)) == after
        switch (firstValid, secondValid) {
        case (true, true): return min(first, second)
        case (true, false): return first
        case (false, true): return second
        case (false, false): return first
        }
    }

    /// The wall-clock time at a UTC instant.
    public func local(forUTC t: Int64) -> LocalDateTime {
        LocalDateTime(secondsSinceEpoch: t + Int64(offset(atUTC: t)))
    }

    public var description: String { identifier }

    // MARK: - From VTIMEZONE

    /// Builds rules from a VTIMEZONE's STANDARD/DAYLIGHT observances.
    public init(vtimezone: Component) throws {
        guard let tzid = vtimezone.first("TZID")?.value, !tzid.isEmpty else {
            throw ICalendarError(.missingProperty, line: vtimezone.line, "VTIMEZONE without TZID")
        }
        var onsets: [(Int64, Int32, Int32)] = []  // (utc, offsetFrom, offsetTo)
        let horizon = LocalDateTime(year: Self.tableLastYear, month: 12, day: 31)
        for observance in vtimezone.components where observance.name == "STANDARD" || observance.name == "DAYLIGHT" {
            guard let startProperty = observance.first("DTSTART") else {
                throw ICalendarError(.missingProperty, line: observance.line, "\(observance.name) in VTIMEZONE \(tzid) has no DTSTART")
            }
            guard let fromProperty = observance.first("TZOFFSETFROM"), let toProperty = observance.first("TZOFFSETTO") else {
                throw ICalendarError(.missingProperty, line: observance.line, "\(observance.name) in VTIMEZONE \(tzid) needs TZOFFSETFROM and TZOFFSETTO")
            }
            let from: Int32, to: Int32
            do {
                from = Int32(try UTCOffset.parse(fromProperty.value).seconds)
                to = Int32(try UTCOffset.parse(toProperty.value).seconds)
            } catch var e as ICalendarError {
                e.line = toProperty.line
                throw e
            }
            let start = try startProperty.dateValue().local
            var locals: [LocalDateTime] = [start]
            for ruleProperty in observance.all("RRULE") {
                var rule: RecurrenceRule
                do { rule = try RecurrenceRule.parse(ruleProperty.value) } catch var e as ICalendarError {
                    e.line = ruleProperty.line
                    throw e
                }
                var iterator = RecurrenceIterator(rule: rule, start: start, periodBudget: 20_000)
                if case .dateTime(let untilLocal, .utc)? = rule.until {
                    // UNTIL is UTC; onsets are local in the offset before the change.
                    iterator.untilLocal = untilLocal.adding(seconds: Int64(from))
                }
                iterator.stopAfter = horizon
                var n = 0
                while let onset = iterator.next(), n < 1000 { locals.append(onset); n += 1 }
            }
            for rdateProperty in observance.all("RDATE") {
                for item in try rdateProperty.dateListValue() { locals.append(item.start.local) }
            }
            for local in Set(locals) { onsets.append((local.secondsSinceEpoch - Int64(from), from, to)) }
        }
        guard !onsets.isEmpty else {
            throw ICalendarError(.missingProperty, line: vtimezone.line, "VTIMEZONE \(tzid) has no STANDARD or DAYLIGHT observance")
        }
        onsets.sort { $0.0 < $1.0 }
        var transitions: [Int64] = []
        var offsets: [Int32] = [onsets[0].1]
        for (instant, _, to) in onsets where to != offsets[offsets.count - 1] {
            transitions.append(instant)
            offsets.append(to)
        }
        self.init(identifier: tzid, transitions: transitions, offsets: offsets, foundationIdentifier: nil, tableStart: .min, tableEnd: .max)
    }
}

/// Finds the zone for a TZID: an IANA name Foundation knows, a Windows name, a
/// "/vendor/…/Area/City" style name, and finally the calendar's own VTIMEZONE.
public struct TimeZoneResolver: Sendable {
    /// Zones defined by VTIMEZONE components of the calendar being read.
    public var calendarZones: [String: ZoneRules]
    /// VTIMEZONEs that could not be read, for validation reports.
    public var problems: [ICalendarError]

    public init(calendarZones: [String: ZoneRules] = [:]) {
        self.calendarZones = calendarZones
        self.problems = []
    }

    /// Collects the VTIMEZONE components of a calendar. `readingKnownZones` also reads those
    /// whose TZID names a known zone, which resolution never consults: only validation wants them.
    public init(calendar: Component, readingKnownZones: Bool = false) {
        var zones: [String: ZoneRules] = [:]
        var problems: [ICalendarError] = []
        for component in calendar.components where component.name == "VTIMEZONE" {
            // A TZID that names a known zone resolves to it (`rules(for:)` prefers it), so its
            // VTIMEZONE is never consulted: building rules from it would be wasted work on
            // every object read.
            if !readingKnownZones, let tzid = component.first("TZID")?.value, Self.knownZone(tzid) != nil { continue }
            do {
                let rules = try ZoneRules(vtimezone: component)
                zones[rules.identifier] = rules
            } catch let error as ICalendarError {
                problems.append(error)
            } catch {
                problems.append(ICalendarError(.invalidValue, line: component.line, "\(error)"))
            }
        }
        self.calendarZones = zones
        self.problems = problems
    }

    /// Resolves a TZID; nil when neither a known name nor a VTIMEZONE defines it.
    public func rules(for tzid: String) -> ZoneRules? {
        if let known = Self.knownZone(tzid) { return known }
        return calendarZones[tzid] ?? Self.offsetZone(tzid)
    }

    /// The instant a DATE or DATE-TIME names, in seconds since 1970, read in these zones: a date
    /// and a floating time count in UTC (as expansion's default does), an unknown TZID as UTC.
    /// How a RECURRENCE-ID is matched to an expanded instance's `sortSeconds`.
    public func instant(_ value: DateOrDateTime) -> Int64 {
        switch value {
        case .date(let day): Int64(day.daysSinceEpoch) * 86_400
        case .dateTime(let local, .utc), .dateTime(let local, .floating): local.secondsSinceEpoch
        case .dateTime(let local, .zone(let tzid)): (rules(for: tzid) ?? .utc).utcSeconds(for: local)
        }
    }

    /// The IANA identifier a TZID names, if any (without consulting VTIMEZONEs).
    public static func ianaIdentifier(for tzid: String) -> String? {
        knownZone(tzid)?.foundationIdentifier
    }

    private static let cache = Mutex<[String: ZoneRules?]>([:])

    static func knownZone(_ tzid: String) -> ZoneRules? {
        if let hit = cache.withLock({ $0[tzid] }) { return hit }
        let resolved = lookUp(tzid)
        cache.withLock { table in
            if table.count > 2000 { table.removeAll() }  // bounded: TZIDs come from untrusted input
            table[tzid] = resolved
        }
        return resolved
    }

    private static let ianaByLowercase: [String: String] = {
        var table: [String: String] = [:]
        for id in TimeZone.knownTimeZoneIdentifiers { table[id.lowercased()] = id }
        return table
    }()

    private static func lookUp(_ raw: String) -> ZoneRules? {
        let tzid = raw.trimmingSpaces
        guard !tzid.isEmpty, tzid.utf8.count <= 200 else { return nil }
        let upper = tzid.uppercased()
        if upper == "UTC" || upper == "GMT" || upper == "Z" || upper == "ETC/UTC" || upper == "ETC/GMT" {
            return ZoneRules.utc
        }
        if tzid.contains("/") || tzid.utf8.count <= 5, let zone = ZoneRules(ianaIdentifier: tzid) { return zone }
        if let iana = WindowsZones.ianaIdentifier(forWindowsName: tzid), let zone = ZoneRules(ianaIdentifier: iana) {
            return zone
        }
        // Some writers change the case ("europe/london").
        if let iana = ianaByLowercase[tzid.lowercased()], let zone = ZoneRules(ianaIdentifier: iana) { return zone }
        // "/mozilla.org/20070129_1/Europe/London", "/softwarestudio.org/Olson_20011030_5/America/New_York"
        let parts = tzid.split(separator: "/").map(String.init)
        if parts.count >= 2 {
            for take in [3, 2] where parts.count >= take {
                let candidate = parts.suffix(take).joined(separator: "/")
                if candidate != tzid, let zone = ZoneRules(ianaIdentifier: candidate) { return zone }
            }
        }
        return nil
    }

    /// A zone named only by its offset, when no VTIMEZONE of the calendar defines it (see
    /// `offsetSeconds(named:)`): last, because Outlook names zones with summer time this way too
    /// and then sends their VTIMEZONE.
    static func offsetZone(_ tzid: String) -> ZoneRules? {
        offsetSeconds(named: tzid.trimmingSpaces).map { .fixed(seconds: $0, identifier: tzid) }
    }

    /// A zone named by its offset, as feeds and exporters write them when they have no better
    /// name: "GMT+03:00", "UTC+3", "GMT-0530", "(UTC+03:00) Kuwait, Riyadh". Fixed: such a name
    /// says nothing of summer time.
    static func offsetSeconds(named tzid: String) -> Int? {
        var rest = Substring(tzid)
        if rest.hasPrefix("(") { rest = rest.dropFirst() }
        let prefix = rest.prefix(3).uppercased()
        guard prefix == "GMT" || prefix == "UTC" else { return nil }
        rest = rest.dropFirst(3)
        guard let sign = rest.first, sign == "+" || sign == "-" || sign == "\u{2212}" else { return nil }
        rest = rest.dropFirst()
        let hourDigits = rest.prefix(while: { $0.isASCII && $0.isNumber })
        rest = rest.dropFirst(hourDigits.count)
        var minuteDigits: Substring = ""
        if hourDigits.count == 4 {
            minuteDigits = hourDigits.suffix(2)
        } else if rest.first == ":" || rest.first == "." {
            minuteDigits = rest.dropFirst().prefix(while: { $0.isASCII && $0.isNumber })
            rest = rest.dropFirst(minuteDigits.count + 1)
        }
        let hourText = hourDigits.count == 4 ? hourDigits.prefix(2) : hourDigits
        guard (1...2).contains(hourText.count), let hours = Int(hourText), hours <= 14,
              minuteDigits.isEmpty || minuteDigits.count == 2, let minutes = minuteDigits.isEmpty ? 0 : Int(minuteDigits), minutes < 60
        else { return nil }
        // What may follow: nothing, ")", or ") Place names".
        guard rest.isEmpty || rest.first == ")" else { return nil }
        let seconds = hours * 3600 + minutes * 60
        return sign == "+" ? seconds : -seconds
    }
}
