/// What CalDAV keeps derived from stored data, all keyed so they cannot go stale (parsed objects
/// and Schedule-Tags by ETag, zone rules by IANA name). Made once where the server is assembled
/// and handed in, like the clock: the services that read events share `parsedCalendars`, and a
/// test gets caches of its own.
package struct CalDAVCaches: Sendable {
    package let parsedCalendars: ParsedCalendarCache
    package let scheduleTags: ScheduleTagCache
    package let zoneRules: ZoneRulesCache

    package init(
        parsedCalendars: ParsedCalendarCache = ParsedCalendarCache(), scheduleTags: ScheduleTagCache = ScheduleTagCache(capacity: 50_000),
        zoneRules: ZoneRulesCache = ZoneRulesCache()
    ) {
        self.parsedCalendars = parsedCalendars
        self.scheduleTags = scheduleTags
        self.zoneRules = zoneRules
    }
}
