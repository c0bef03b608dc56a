/// All components sharing one UID: the master (with RRULE/RDATE/EXDATE) and its
/// overrides (RECURRENCE-ID), expanded the way RFC 5545 §3.8.5 and RFC 5545 §3.8.4.4 describe.
public struct RecurrenceSet: Sendable {
    public let uid: String
    public let master: Component?
    public let overrides: [Component]

    public init(uid: String, components: [Component]) {
        self.uid = uid
        var master: Component?
        var overridesByKey: [String: Component] = [:]
        var order: [String] = []
        for component in components {
            if let rid = component.first("RECURRENCE-ID") {
                let key = rid.value + "|" + (rid.parameter("TZID") ?? "")
                if let existing = overridesByKey[key], Self.sequenceNumber(existing) > Self.sequenceNumber(component) { continue }
                if overridesByKey[key] == nil { order.append(key) }
                overridesByKey[key] = component
            } else if master.map({ Self.sequenceNumber($0) <= Self.sequenceNumber(component) }) ?? true {
                master = component
            }
        }
        self.master = master
        self.overrides = order.compactMap { overridesByKey[$0] }
    }

    static func sequenceNumber(_ component: Component) -> Int {
        component.first("SEQUENCE").flatMap { Int($0.value.trimmingSpaces) } ?? -1
    }

    /// A resolved DATE/DATE-TIME: wall time, the zone it is in, and its instant.
    struct Resolved {
        var value: DateOrDateTime
        var zone: ZoneRules
        var local: LocalDateTime { value.local }
        var instant: Int64 {
            if case .date(let d) = value { return Int64(d.daysSinceEpoch) * 86_400 }
            return zone.utcSeconds(for: value.local)
        }
        var hasZone: Bool { if case .dateTime(_, let r) = value, r != .floating { return true } else { return false } }
    }

    /// How long an instance lasts.
    enum Length {
        /// Added to the wall-clock start (DTEND in the same zone, or nominal days).
        case wall(Int64)
        /// DURATION: nominal days on the wall clock, then exact seconds (RFC 5545 §3.3.6).
        case nominal(days: Int, seconds: Int64)

        var approximateSeconds: Int64 {
            switch self {
            case .wall(let s): return s
            case .nominal(let d, let s): return Int64(d) * 86_400 + s
            }
        }
    }

    struct Timing {
        var start: Resolved
        var length: Length
        var isAllDay: Bool
    }

    static func resolve(_ value: DateOrDateTime, resolver: TimeZoneResolver, floating: ZoneRules, line: Int) throws -> Resolved {
        switch value {
        case .date: return Resolved(value: value, zone: .utc)
        case .dateTime(_, .utc): return Resolved(value: value, zone: .utc)
        case .dateTime(_, .floating): return Resolved(value: value, zone: floating)
        case .dateTime(_, .zone(let tzid)):
            guard let zone = resolver.rules(for: tzid) else {
                throw ICalendarError(.unknownTimeZone, line: line, "TZID \"\(tzid.prefix(60))\" is neither a known time zone nor defined by a VTIMEZONE")
            }
            return Resolved(value: value, zone: zone)
        }
    }

    static func timing(of component: Component, resolver: TimeZoneResolver, floating: ZoneRules) throws -> Timing {
        // A to-do may have only a DUE: it is then a point in time (as in recurring-ical-events).
        guard let startProperty = component.first("DTSTART") ?? (component.name == "VTODO" ? component.first("DUE") : nil) else {
            throw ICalendarError(.missingProperty, line: component.line, "\(component.name) \(component.first("UID")?.value.prefix(60) ?? "") has no DTSTART")
        }
        let start = try resolve(try startProperty.dateValue(), resolver: resolver, floating: floating, line: startProperty.line)
        let endName = component.name == "VTODO" ? "DUE" : "DTEND"
        if component.name == "VJOURNAL" {
            return Timing(start: start, length: .wall(0), isAllDay: start.value.isDate)
        }
        if let endProperty = component.first(endName) {
            let end = try resolve(try endProperty.dateValue(), resolver: resolver, floating: floating, line: endProperty.line)
            if start.value.isDate && end.value.isDate {
                return Timing(start: start, length: .wall(max(0, end.local.secondsSinceEpoch - start.local.secondsSinceEpoch)), isAllDay: true)
            }
            let sameClock = start.value.reference == end.value.reference && !start.value.isDate && !end.value.isDate
            let seconds = sameClock ? end.local.secondsSinceEpoch - start.local.secondsSinceEpoch : end.instant - start.instant
            if seconds < 0 {
                throw ICalendarError(.invalidValue, line: endProperty.line, "\(endName) is before DTSTART")
            }
            return Timing(start: start, length: .wall(seconds), isAllDay: false)
        }
        if let durationProperty = component.first("DURATION") {
            let duration: Duration
            do { duration = try Duration.parse(durationProperty.value) } catch var e as ICalendarError {
                e.line = durationProperty.line
                throw e
            }
            if duration.negative {
                throw ICalendarError(.invalidValue, line: durationProperty.line, "DURATION must not be negative")
            }
            if start.value.isDate && duration.exactSeconds == 0 {
                return Timing(start: start, length: .wall(Int64(duration.nominalDays) * 86_400), isAllDay: true)
            }
            return Timing(start: start, length: .nominal(days: duration.nominalDays, seconds: duration.exactSeconds), isAllDay: false)
        }
        // RFC 5545 §3.6.1: an event on a DATE lasts one day, on a DATE-TIME it is instantaneous;
        // to-dos without DUE or DURATION are taken as instantaneous either way.
        let oneDay = start.value.isDate && component.name == "VEVENT"
        return Timing(start: start, length: .wall(oneDay ? 86_400 : 0), isAllDay: start.value.isDate)
    }

    /// Start and end of an instance beginning at wall time `local` in `zone`.
    static func span(local: LocalDateTime, zone: ZoneRules, length: Length, allDay: Bool) -> (OccurrenceTime, OccurrenceTime) {
        if allDay {
            let endDate = local.adding(seconds: length.approximateSeconds).date
            return (.date(local.date), .date(endDate))
        }
        let start = zone.utcSeconds(for: local)
        switch length {
        case .wall(let s):
            return (.instant(start), .instant(s == 0 ? start : zone.utcSeconds(for: local.adding(seconds: s))))
        case .nominal(let days, let seconds):
            let base = days == 0 ? start : zone.utcSeconds(for: local.adding(seconds: Int64(days) * 86_400))
            return (.instant(start), .instant(base + seconds))
        }
    }

    static func overlaps(_ start: OccurrenceTime, _ end: OccurrenceTime, _ windowStart: Int64, _ windowEnd: Int64) -> Bool {
        OccurrenceTime.overlaps(start, end, windowStart: windowStart, windowEnd: windowEnd)
    }

    /// Identifies an instance the way RECURRENCE-ID and EXDATE name it.
    struct InstanceKey {
        var instant: Int64?
        var wall: LocalDateTime
    }

    public struct Result: Sendable {
        public var occurrences: [Occurrence]
        public var truncated: Bool
    }

    public func occurrences(from windowStart: Int64, to windowEnd: Int64, resolver: TimeZoneResolver,
                            options: ExpansionOptions = ExpansionOptions(), limit: Int? = nil) throws -> Result {
        let cap = min(limit ?? options.maxInstances, options.maxInstances)
        let floating = options.floatingZone
        // Most components are single events: skip the recurrence machinery for them.
        if overrides.isEmpty, let master, master.name == "VEVENT", master.first("RRULE") == nil,
           master.first("RDATE") == nil, master.first("EXDATE") == nil, cap > 0 {
            let timing = try Self.timing(of: master, resolver: resolver, floating: floating)
            let (s, e) = Self.span(local: timing.start.local, zone: timing.start.zone, length: timing.length, allDay: timing.isAllDay)
            let occurrence = Occurrence(uid: uid, recurrenceId: nil, start: s, end: e, isAllDay: timing.isAllDay, component: master, isOverride: false)
            let keep = Self.overlaps(s, e, windowStart, windowEnd) && (options.includeCancelled || !occurrence.isCancelled)
            return Result(occurrences: keep ? [occurrence] : [], truncated: false)
        }
        var output: [Occurrence] = []
        var truncated = false

        // Overrides, keyed both by instant and by wall time.
        struct OverrideInfo {
            var component: Component
            var key: InstanceKey
            var timing: Timing
            var thisAndFuture: Bool
            var ridReference: TimeReference
            var cancelled: Bool
            var used = false
        }
        var infos: [OverrideInfo] = []
        for component in overrides {
            guard let ridProperty = component.first("RECURRENCE-ID") else { continue }
            let rid = try Self.resolve(try ridProperty.dateValue(), resolver: resolver, floating: floating, line: ridProperty.line)
            let key = InstanceKey(instant: rid.hasZone ? rid.instant : nil, wall: rid.local)
            let timing = try Self.timing(of: component, resolver: resolver, floating: floating)
            let range = ridProperty.parameter("RANGE")?.uppercased() == "THISANDFUTURE"
            infos.append(OverrideInfo(component: component, key: key, timing: timing, thisAndFuture: range, ridReference: rid.value.reference,
                                     cancelled: !options.includeCancelled && Occurrence.isCancelled(component)))
        }
        var byInstant: [Int64: Int] = [:]
        var byWall: [LocalDateTime: Int] = [:]
        for (index, info) in infos.enumerated() {
            if let instant = info.key.instant { byInstant[instant] = index }
            byWall[info.key.wall] = index
        }
        func overrideIndex(for key: InstanceKey) -> Int? {
            if let i = byWall[key.wall] { return i }
            if let instant = key.instant, let i = byInstant[instant] { return i }
            return nil
        }

        var excludedInstants = Set<Int64>()
        var excludedWalls = Set<LocalDateTime>()
        var excludedDates = Set<CivilDate>()

        if let master, master.name != "VEVENT", master.first("DTSTART") == nil, master.first("DUE") == nil {
            // An undated to-do or journal entry has no place in time; it has no instances.
            return Result(occurrences: [], truncated: false)
        }
        if let master {
            let timing = try Self.timing(of: master, resolver: resolver, floating: floating)
            let zone = timing.start.zone
            let seriesZoned = timing.start.hasZone
            let allDay = timing.isAllDay

            for exdateProperty in master.all("EXDATE") {
                for item in try exdateProperty.dateListValue() {
                    let value = item.start
                    switch value {
                    case .date(let d): excludedDates.insert(d)
                    case .dateTime(let l, let r):
                        if !seriesZoned || r == .floating {
                            excludedWalls.insert(l)
                        } else {
                            excludedInstants.insert(try Self.resolve(value, resolver: resolver, floating: zone, line: exdateProperty.line).instant)
                        }
                    }
                }
            }
            func isExcluded(_ key: InstanceKey) -> Bool {
                if excludedDates.contains(key.wall.date) { return true }
                if let instant = key.instant { return excludedInstants.contains(instant) || excludedWalls.contains(key.wall) }
                return excludedWalls.contains(key.wall)
            }

            // The THISANDFUTURE overrides, ordered, with how far each moves later instances.
            var futureShifts: [(key: Int64, move: Int64, index: Int)] = []
            for (index, info) in infos.enumerated() where info.thisAndFuture {
                let ridSeconds = info.key.instant ?? info.key.wall.secondsSinceEpoch
                // Same clock on both sides: a wall-clock shift; otherwise an exact one.
                let move = info.ridReference == info.timing.start.value.reference
                    ? info.timing.start.local.secondsSinceEpoch - info.key.wall.secondsSinceEpoch
                    : info.timing.start.instant - (info.key.instant ?? floating.utcSeconds(for: info.key.wall))
                futureShifts.append((ridSeconds, move, index))
            }
            futureShifts.sort { $0.key < $1.key }
            var maxLength = timing.length.approximateSeconds
            var maxMoveBack: Int64 = 0, maxMoveForward: Int64 = 0
            for shift in futureShifts {
                maxLength = max(maxLength, infos[shift.index].timing.length.approximateSeconds)
                maxMoveBack = max(maxMoveBack, shift.move)
                maxMoveForward = max(maxMoveForward, -shift.move)
            }

            // Wall-clock window in which instance starts can matter (a day covers any UTC offset).
            let slack: Int64 = 86_400
            let earliestUseful = windowStart - maxLength - maxMoveBack - slack
            let localFrom = LocalDateTime(secondsSinceEpoch: earliestUseful)
            let localTo = LocalDateTime(secondsSinceEpoch: windowEnd + maxMoveForward + slack)
            let surelyInWindow = windowStart + slack

            // Candidate starts: RRULEs, RDATEs and DTSTART itself.
            struct Candidate { var local: LocalDateTime; var length: Length? }
            var candidates: [Candidate] = []
            var lastUntil: Int64? = nil
            let startLocal = timing.start.local
            for ruleProperty in master.all("RRULE") {
                var rule: RecurrenceRule
                do { rule = try RecurrenceRule.cachedParse(ruleProperty.value) } catch var e as ICalendarError {
                    e.line = ruleProperty.line
                    throw e
                }
                var untilInstant: Int64? = nil
                if let until = rule.until {
                    if case .dateTime(let l, .utc) = until, seriesZoned {
                        untilInstant = l.secondsSinceEpoch
                        rule.until = .dateTime(zone.local(forUTC: l.secondsSinceEpoch).adding(seconds: 7200), .floating)
                    } else if case .dateTime(let l, .utc) = until, allDay {
                        rule.until = .date(l.date)
                    }
                    let comparable: Int64 = untilInstant ?? {
                        switch rule.until {
                        case .date(let d)?: return LocalDateTime(date: d, hour: 23, minute: 59, second: 59).secondsSinceEpoch
                        case .dateTime(let l, _)?: return l.secondsSinceEpoch
                        case nil: return .max
                        }
                    }()
                    lastUntil = max(lastUntil ?? .min, comparable)
                }
                var iterator = RecurrenceIterator(rule: rule, start: startLocal, periodBudget: options.periodBudget)
                iterator.stopAfter = localTo
                iterator.fastForward(to: localFrom)
                var pastWindowStart = 0
                while let local = iterator.next() {
                    if local > localTo { break }
                    if let untilInstant, zone.utcSeconds(for: local) > untilInstant { break }
                    if local < localFrom { continue }
                    candidates.append(Candidate(local: local, length: nil))
                    // Memory stays bounded: only starts before the window plus `cap` more are kept.
                    if candidates.count > cap + 500_000 { truncated = true; break }
                    if local.secondsSinceEpoch >= surelyInWindow {
                        pastWindowStart += 1
                        if pastWindowStart > cap { truncated = true; break }
                    }
                }
                if iterator.exhaustedBudget { truncated = true }
            }
            for rdateProperty in master.all("RDATE") {
                for item in try rdateProperty.dateListValue() {
                    let value = item.start
                    let local: LocalDateTime
                    switch value {
                    case .date(let d): local = LocalDateTime(date: d)
                    case .dateTime(let l, .floating): local = l
                    case .dateTime:
                        let resolved = try Self.resolve(value, resolver: resolver, floating: zone, line: rdateProperty.line)
                        local = seriesZoned ? zone.local(forUTC: resolved.instant) : resolved.local
                    }
                    var length: Length? = nil
                    if case .period(let period) = item {
                        switch period.end {
                        case .duration(let d): length = .nominal(days: d.nominalDays, seconds: d.exactSeconds)
                        case .end(let e):
                            let endResolved = try Self.resolve(e, resolver: resolver, floating: zone, line: rdateProperty.line)
                            let startResolved = try Self.resolve(period.start, resolver: resolver, floating: zone, line: rdateProperty.line)
                            length = .wall(max(0, endResolved.instant - startResolved.instant))
                        }
                    }
                    candidates.append(Candidate(local: local, length: length))
                }
            }
            let startComparable = seriesZoned ? timing.start.instant : startLocal.secondsSinceEpoch
            if startComparable <= (lastUntil ?? .max) {
                candidates.append(Candidate(local: startLocal, length: nil))
            }

            let recurring = master.first("RRULE") != nil || master.first("RDATE") != nil
            let masterCancelled = !options.includeCancelled && Occurrence.isCancelled(master)
            var seen = Set<Int64>()
            for candidate in candidates {
                let instant = zone.utcSeconds(for: candidate.local)
                let key = InstanceKey(instant: seriesZoned ? instant : nil, wall: candidate.local)
                // Same wall time = same instance (a skipped hour's 02:00 and 03:00 stay two instances).
                let identity = candidate.local.secondsSinceEpoch
                if seen.contains(identity) { continue }
                seen.insert(identity)
                if isExcluded(key) { continue }
                if let index = overrideIndex(for: key) {
                    infos[index].used = true
                    let info = infos[index]
                    let (s, e) = Self.span(local: info.timing.start.local, zone: info.timing.start.zone, length: info.timing.length, allDay: info.timing.isAllDay)
                    if !info.cancelled, Self.overlaps(s, e, windowStart, windowEnd) {
                        output.append(Occurrence(uid: uid, recurrenceId: Self.recurrenceTime(candidate.local, zone: zone, allDay: allDay),
                                                 start: s, end: e, isAllDay: info.timing.isAllDay, component: info.component, isOverride: true))
                    }
                    continue
                }
                // A THISANDFUTURE override earlier than this instance reshapes it.
                var shiftIndex: Int? = nil
                var length = candidate.length ?? timing.length
                var local = candidate.local
                if !futureShifts.isEmpty {
                    let primary = seriesZoned ? instant : candidate.local.secondsSinceEpoch
                    if let shift = futureShifts.last(where: { $0.key < primary }) {
                        shiftIndex = shift.index
                        length = candidate.length ?? infos[shift.index].timing.length
                        local = local.adding(seconds: shift.move)
                    }
                }
                if shiftIndex.map({ infos[$0].cancelled }) ?? masterCancelled { continue }
                let (s, e) = Self.span(local: local, zone: zone, length: length, allDay: allDay)
                if Self.overlaps(s, e, windowStart, windowEnd) {
                    output.append(Occurrence(uid: uid, recurrenceId: recurring ? Self.recurrenceTime(candidate.local, zone: zone, allDay: allDay) : nil,
                                             start: s, end: e, isAllDay: allDay, component: shiftIndex.map { infos[$0].component } ?? master,
                                             isOverride: shiftIndex != nil))
                }
            }
            // Overrides whose RECURRENCE-ID names no generated instance still stand, unless excluded.
            for index in infos.indices where !infos[index].used {
                let info = infos[index]
                if info.cancelled || isExcluded(info.key) { continue }
                let (s, e) = Self.span(local: info.timing.start.local, zone: info.timing.start.zone, length: info.timing.length, allDay: info.timing.isAllDay)
                if Self.overlaps(s, e, windowStart, windowEnd) {
                    output.append(Occurrence(uid: uid, recurrenceId: info.key.instant.map { .instant($0) } ?? .instant(floating.utcSeconds(for: info.key.wall)),
                                             start: s, end: e, isAllDay: info.timing.isAllDay, component: info.component, isOverride: true))
                }
            }
        } else {
            // Only overrides (a client was invited to single instances).
            for info in infos where !info.cancelled {
                let (s, e) = Self.span(local: info.timing.start.local, zone: info.timing.start.zone, length: info.timing.length, allDay: info.timing.isAllDay)
                if Self.overlaps(s, e, windowStart, windowEnd) {
                    output.append(Occurrence(uid: uid, recurrenceId: info.key.instant.map { .instant($0) } ?? .instant(floating.utcSeconds(for: info.key.wall)),
                                             start: s, end: e, isAllDay: info.timing.isAllDay, component: info.component, isOverride: true))
                }
            }
        }
        output.sort { $0.start < $1.start }
        if output.count > cap {
            output.removeLast(output.count - cap)
            truncated = true
        }
        return Result(occurrences: output, truncated: truncated)
    }

    static func recurrenceTime(_ local: LocalDateTime, zone: ZoneRules, allDay: Bool) -> OccurrenceTime {
        allDay ? .date(local.date) : .instant(zone.utcSeconds(for: local))
    }
}

extension RecurrenceSet {
    /// First start and last end of all instances, for a storage index that pre-filters
    /// time-range queries. `end` is nil when the series never ends (or is too long to walk
    /// within `options.maxInstances` and the period budget, which is treated the same). Values are `OccurrenceTime.sortSeconds`:
    /// all-day and floating times are placed in UTC, so widen by 14 hours when filtering.
    public func bounds(resolver: TimeZoneResolver, options: ExpansionOptions = ExpansionOptions()) throws -> (start: Int64, end: Int64?)? {
        let far: Int64 = 1 << 41
        var open = false
        if let master {
            for property in master.all("RRULE") {
                let rule = try RecurrenceRule.parse(property.value)
                if rule.count == nil && rule.until == nil { open = true }
            }
        }
        var limited = options
        limited.includeCancelled = true
        if open {
            // Only the start is needed: the first few instances suffice.
            limited.maxInstances = 64
            let first = try occurrences(from: -far, to: far, resolver: resolver, options: limited)
            guard let start = first.occurrences.map(\.start.sortSeconds).min() else { return nil }
            return (start, nil)
        }
        let all = try occurrences(from: -far, to: far, resolver: resolver, options: limited)
        guard let start = all.occurrences.map(\.start.sortSeconds).min(),
              let end = all.occurrences.map({ Swift.max($0.end.sortSeconds, $0.start.sortSeconds) }).max() else { return nil }
        return (start, all.truncated ? nil : end)
    }
}
