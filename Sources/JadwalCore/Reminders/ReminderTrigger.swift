import ICalendar

/// A VALARM read for firing: when (RFC 5545 §3.8.6.3), how often (REPEAT and DURATION, §3.6.6),
/// and what was already acknowledged (RFC 9074 §6).
struct ReminderTrigger: Sendable {
    enum When: Sendable {
        /// Once, at this instant, for the component that holds the alarm (not per instance).
        case absolute(Int64)
        /// From each instance's start, or its end when `relatedToEnd`.
        case relative(Offset, relatedToEnd: Bool)
    }

    /// A signed DURATION split the way RFC 5545 §3.3.6 reads it: nominal days on the wall clock,
    /// then exact seconds.
    struct Offset: Sendable, Hashable {
        var days: Int
        var seconds: Int64

        init(days: Int, seconds: Int64) {
            self.days = days
            self.seconds = seconds
        }

        init(_ duration: ICalendar.Duration) {
            self.init(days: duration.nominalDays, seconds: duration.exactSeconds)
        }

        /// Days taken as 24 hours: only for sizing windows, never for a firing.
        var approximateSeconds: Int64 { Int64(days) * 86_400 + seconds }

        func times(_ k: Int) -> Offset { Offset(days: days * k, seconds: seconds * Int64(k)) }
    }

    /// No more REPEAT firings than this: one alarm must not flood a person (or the job table).
    static let maxRepeats = 100
    /// A relative trigger (with its repeats) may reach this far from its instance. Every object's
    /// expansion is widened by its furthest trigger, so an absurd one (-P99999999W) would turn one
    /// object into a walk over millennia; no calendar app offers more than weeks.
    static let maxReach: Int64 = 400 * 86_400

    var key: String
    var index: Int
    var when: When
    var action: ReminderAction
    var description: String?
    /// Firings after the first, each `interval` after the one before.
    var repeats: Int
    var interval: Offset
    /// Firings at or before this instant were acknowledged (RFC 9074 ACKNOWLEDGED).
    var acknowledged: Int64?

    /// How far before its instance's start (or end) the first firing may come, and how far after
    /// the last one may; both ≥ 0, approximate (24-hour days).
    var lead: Int64 {
        guard case .relative(let offset, _) = when else { return 0 }
        return max(0, -offset.approximateSeconds)
    }

    var lag: Int64 {
        guard case .relative(let offset, _) = when else { return 0 }
        return max(0, offset.approximateSeconds + interval.approximateSeconds * Int64(repeats))
    }

    enum Reading {
        case trigger(ReminderTrigger)
        /// Never fires, by design (`ACTION:NONE`, a location-based alarm): nothing to report.
        case silent
        case skipped(reason: String)
    }

    /// Reads the VALARM at `index` of its component. `instant` places a DATE-TIME (TZID, UTC or
    /// floating) in absolute time; nil when its TZID is unknown.
    static func read(_ alarm: Component, index: Int, key: String, instant: (DateOrDateTime) -> Int64?) -> Reading {
        let actionName = alarm.first("ACTION").map { $0.value.trimmedASCIISpaces.uppercased() } ?? "DISPLAY"
        let action: ReminderAction
        switch actionName {
        case "NONE": return .silent  // RFC 9074 §7: a placeholder that says "no alarm"
        case "DISPLAY", "": action = .display
        case "AUDIO": action = .audio
        case "EMAIL": action = .email
        default:
            // RFC 5545 §3.8.6.1: applications must ignore alarms with actions they do not know
            // (PROCEDURE, from RFC 2445, is one: Jadwal never runs anything a calendar names).
            return .skipped(reason: "ACTION \(actionName.prefix(40)) is not one Jadwal can carry out")
        }
        // RFC 9074 §8 (and Apple's X-APPLE-PROXIMITY): fired on arriving or leaving a place;
        // Apple gives such alarms a dummy TRIGGER in 1976.
        if alarm.first("PROXIMITY") != nil || alarm.first("X-APPLE-PROXIMITY") != nil { return .silent }
        guard let triggerProperty = alarm.first("TRIGGER") else { return .skipped(reason: "VALARM has no TRIGGER") }
        let value = triggerProperty.value.trimmedASCIISpaces
        let when: When
        let isDuration = value.first.map { $0 == "P" || $0 == "p" || $0 == "-" || $0 == "+" } ?? false
        if triggerProperty.parameter("VALUE")?.uppercased() == "DATE-TIME" || !isDuration {
            // RFC 5545 wants UTC here; a TZID or a floating time is read rather than dropped.
            guard let date = try? DateOrDateTime.parse(value, tzid: triggerProperty.parameter("TZID")) else {
                return .skipped(reason: "TRIGGER \"\(value.prefix(40))\" is neither a DURATION nor a DATE-TIME")
            }
            guard let at = instant(date) else { return .skipped(reason: "TRIGGER's TZID is not a known time zone") }
            when = .absolute(at)
        } else {
            guard let duration = try? ICalendar.Duration.parse(value) else {
                return .skipped(reason: "TRIGGER \"\(value.prefix(40))\" is not a DURATION")
            }
            let offset = Offset(duration)
            guard abs(offset.approximateSeconds) <= maxReach else {
                return .skipped(reason: "TRIGGER \(value.prefix(40)) is more than 400 days from its instance")
            }
            when = .relative(offset, relatedToEnd: triggerProperty.parameter("RELATED")?.uppercased() == "END")
        }
        var trigger = ReminderTrigger(
            key: key, index: index, when: when, action: action, description: alarm.first("DESCRIPTION")?.text, repeats: 0,
            interval: Offset(days: 0, seconds: 0), acknowledged: nil)
        // RFC 5545 §3.6.6: REPEAT and DURATION come together or not at all; one alone, a count
        // that is not a positive number, or an interval that does not move forward is ignored
        // and the alarm fires once.
        if let count = alarm.first("REPEAT").flatMap({ Int($0.value.trimmedASCIISpaces) }), count > 0,
           let every = alarm.first("DURATION").flatMap({ try? ICalendar.Duration.parse($0.value.trimmedASCIISpaces) }), !every.negative {
            let interval = Offset(every)
            let repeats = min(count, maxRepeats)
            if interval.approximateSeconds > 0, interval.approximateSeconds * Int64(repeats) <= maxReach {
                trigger.repeats = repeats
                trigger.interval = interval
            }
        }
        if let acknowledged = alarm.first("ACKNOWLEDGED"), let date = try? acknowledged.dateValue() {
            trigger.acknowledged = instant(date)
        }
        return .trigger(trigger)
    }

    /// The VALARM keys of a component, in order: its UID, else X-WR-ALARMUID, else its position.
    /// A key a previous alarm already took falls back to the position, so keys stay unique.
    static func keys(of alarms: [Component]) -> [String] {
        var seen = Set<String>()
        return alarms.enumerated().map { index, alarm in
            let named = (alarm.first("UID") ?? alarm.first("X-WR-ALARMUID")).map(\.value.trimmedASCIISpaces) ?? ""
            let key = named.isEmpty || named.hasPrefix("#") || seen.contains(named) ? "#\(index)" : named
            seen.insert(key)
            return key
        }
    }
}

extension String {
    fileprivate var trimmedASCIISpaces: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return String(s)
    }
}
