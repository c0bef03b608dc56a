import ICalendar

extension DateOrDateTime {
    /// Seconds since 1970 of this value: a date is its midnight, a zoned time is read in its own
    /// TZID (Windows names mapped; an unknown one read as floating), a floating time in `floating`.
    func utcSeconds(floating: ZoneRules) -> Int64 {
        switch self {
        case .date(let day): floating.utcSeconds(for: LocalDateTime(date: day))
        case .dateTime(let local, .utc): local.secondsSinceEpoch
        case .dateTime(let local, .zone(let tzid)):
            (ZoneRules(ianaIdentifier: TimeZoneResolver.ianaIdentifier(for: tzid) ?? tzid) ?? floating).utcSeconds(for: local)
        case .dateTime(let local, .floating): floating.utcSeconds(for: local)
        }
    }
}
