import ICalendar

extension ReminderSchedule {
    /// The schedule of a stored object. DATE values and floating times are read in the
    /// calendar's zone, else the person's, as busy time reads them; nil when the stored text no
    /// longer parses. `parse` lets the server reuse its cache of parsed objects.
    public init?(
        object: CalendarObject, calendar: CalendarCollection, accountZone: String,
        parse: AccountBusyTime.Parse = { try? ICalendarParser().parseCalendar($0.icalendar) }
    ) {
        guard let parsed = parse(object) else { return nil }
        // The resolver's cache of known zones: building a zone's table anew for every object would
        // cost more than its reminders.
        self.init(calendar: parsed, zone: TimeZoneResolver().rules(for: calendar.timeZone ?? accountZone) ?? .utc)
    }
}
