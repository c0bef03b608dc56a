import Foundation

/// Builds a VTIMEZONE for an IANA zone so calendars Jadwal writes can be read by clients
/// without an IANA database (RFC 5545 §3.6.5). Runs of yearly transitions that follow a
/// "n-th weekday of a month" pattern become one observance with an RRULE; anything
/// irregular becomes its own observance.
public enum VTimeZoneWriter {
    /// - Parameter fromYear: first year the definition must cover (earlier transitions are dropped).
    public static func component(forIANAIdentifier identifier: String, fromYear: Int = 1970) -> Component? {
        // The resolver's cache saves rebuilding the transition table on every write.
        let cached = TimeZoneResolver.knownZone(identifier).flatMap { $0.foundationIdentifier == identifier ? $0 : nil }
        guard let tz = TimeZone(identifier: identifier), let rules = cached ?? ZoneRules(ianaIdentifier: identifier) else { return nil }
        let horizonYear = 2037
        let from = LocalDateTime(year: fromYear, month: 1, day: 1).secondsSinceEpoch
        let to = LocalDateTime(year: horizonYear + 1, month: 1, day: 1).secondsSinceEpoch

        struct Onset {
            var local: LocalDateTime  // wall time before the change (in offsetFrom)
            var offsetFrom: Int
            var offsetTo: Int
            var daylight: Bool
            var name: String?
            var weekdayOrdinal: Int  // 1…4 or -1 (last)
        }
        var onsets: [Onset] = []
        for (index, instant) in rules.transitions.enumerated() where instant >= from && instant < to {
            let before = Int(rules.offsets[index])
            let after = Int(rules.offsets[index + 1])
            let local = LocalDateTime(secondsSinceEpoch: instant + Int64(before))
            let date = Date(timeIntervalSince1970: Double(instant))
            let days = CivilDate.daysIn(month: local.date.month, year: local.date.year)
            let ordinal = local.date.day + 7 > days ? -1 : (local.date.day - 1) / 7 + 1
            onsets.append(Onset(local: local, offsetFrom: before, offsetTo: after, daylight: tz.isDaylightSavingTime(for: date),
                                name: tz.abbreviation(for: date), weekdayOrdinal: ordinal))
        }

        var zone = Component(name: "VTIMEZONE")
        zone.properties.append(Property(name: "TZID", value: identifier))
        func observance(_ o: Onset, rule: RecurrenceRule?) -> Component {
            var c = Component(name: o.daylight ? "DAYLIGHT" : "STANDARD")
            c.properties.append(Property(name: "DTSTART", value: DateOrDateTime.dateTime(o.local, .floating).icalValue))
            c.properties.append(Property(name: "TZOFFSETFROM", value: UTCOffset(seconds: o.offsetFrom).icalValue))
            c.properties.append(Property(name: "TZOFFSETTO", value: UTCOffset(seconds: o.offsetTo).icalValue))
            if let name = o.name { c.properties.append(Property(name: "TZNAME", text: name)) }
            if let rule { c.properties.append(Property(name: "RRULE", value: rule.icalValue)) }
            return c
        }

        if onsets.isEmpty {
            // No change in the range: one standard observance with the current offset.
            let offset = rules.offset(atUTC: from)
            let date = Date(timeIntervalSince1970: Double(from))
            zone.components.append(observance(Onset(local: LocalDateTime(year: fromYear, month: 1, day: 1), offsetFrom: offset, offsetTo: offset,
                                                     daylight: false, name: tz.abbreviation(for: date), weekdayOrdinal: 1), rule: nil))
            return zone
        }

        // Group onsets of the same kind that repeat yearly on the same rule.
        func sameRule(_ a: Onset, _ b: Onset) -> Bool {
            a.offsetFrom == b.offsetFrom && a.offsetTo == b.offsetTo && a.daylight == b.daylight && a.name == b.name
                && a.local.date.month == b.local.date.month && a.local.date.weekday == b.local.date.weekday
                && a.weekdayOrdinal == b.weekdayOrdinal && (a.local.hour, a.local.minute, a.local.second) == (b.local.hour, b.local.minute, b.local.second)
        }
        var used = [Bool](repeating: false, count: onsets.count)
        for i in onsets.indices where !used[i] {
            used[i] = true
            var run = [i]
            var year = onsets[i].local.date.year
            for j in (i + 1)..<onsets.count where !used[j] {
                if onsets[j].local.date.year == year + 1 && sameRule(onsets[i], onsets[j]) {
                    run.append(j)
                    used[j] = true
                    year += 1
                } else if onsets[j].local.date.year > year + 1 {
                    break
                }
            }
            guard let lastIndex = run.last else { continue }
            let first = onsets[i]
            if run.count == 1 {
                zone.components.append(observance(first, rule: nil))
                continue
            }
            var rule = RecurrenceRule(frequency: .yearly)
            rule.byMonth = [first.local.date.month]
            rule.byDay = [.init(first.local.date.weekday, ordinal: first.weekdayOrdinal)]
            if onsets[lastIndex].local.date.year < horizonYear {
                let last = onsets[lastIndex]
                rule.until = .dateTime(LocalDateTime(secondsSinceEpoch: last.local.secondsSinceEpoch - Int64(last.offsetFrom)), .utc)
            }
            zone.components.append(observance(first, rule: rule))
        }
        return zone
    }
}

extension Component {
    /// The calendar with a VTIMEZONE added for every IANA/Windows TZID its components use
    /// that it does not define yet, so clients without a zone database read it right.
    public func addingMissingTimeZones(fromYear: Int = 1970) -> Component {
        var defined = Set(components(named: "VTIMEZONE").compactMap { $0.first("TZID")?.value })
        var used: [String] = []
        func collect(_ c: Component) {
            for p in c.properties {
                if let tzid = p.parameter("TZID"), !defined.contains(tzid), !used.contains(tzid) { used.append(tzid) }
            }
            for child in c.components { collect(child) }
        }
        for child in components where child.name != "VTIMEZONE" { collect(child) }
        var result = self
        var insertAt = result.components.lastIndex { $0.name == "VTIMEZONE" }.map { $0 + 1 } ?? 0
        for tzid in used {
            guard let iana = TimeZoneResolver.ianaIdentifier(for: tzid),
                  var zone = VTimeZoneWriter.component(forIANAIdentifier: iana, fromYear: fromYear) else { continue }
            // Keep the TZID the events use; the definition is the IANA zone's.
            zone.set("TZID", Property(name: "TZID", value: tzid))
            if iana != tzid { zone.properties.append(Property(name: "X-LIC-LOCATION", value: iana)) }
            result.components.insert(zone, at: insertAt)
            insertAt += 1
            defined.insert(tzid)
        }
        return result
    }
}
