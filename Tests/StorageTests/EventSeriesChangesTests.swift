import Foundation
import ICalendar
import JadwalCore
import JadwalTestSupport
import Storage
import Testing

/// Editing and deleting a repeating event with a scope, in process on a real store: the objects
/// it leaves expand to the instances a person expects, and the conflict check and reminders
/// follow the new shape because every write goes through the common write path.
@Suite("Scoped changes to repeating events on every engine")
struct EventSeriesChangesTests {
    /// 2026-09-21 17:13 in Riyadh.
    static let t0 = Date(timeIntervalSince1970: 1_790_000_000)

    struct Setup {
        let store: SQLStore
        let clock: TestClock
        let account: Account
        let personal: CalendarCollection
        let writes: CalendarWrites
        let series: EventSeriesChanges
        let integrated: IntegratedCalendar

        /// Every instance from October to December 2026 as (start, summary), in order.
        func instances() async throws -> [(start: String, summary: String, object: String)] {
            let window = (Date(timeIntervalSince1970: 1_790_812_800), Date(timeIntervalSince1970: 1_796_083_200))  // 2026-10-01 … 2026-12-01
            return try await integrated.instances(account: account, from: window.0, to: window.1).instances
                .map { ($0.occurrence.start.iso8601, $0.occurrence.summary ?? "", $0.objectName) }
        }

        func text(_ name: String) async throws -> String {
            try #require(try await store.read { tx in try await tx.calendarObject(calendarID: personal.id, name: name) }).icalendar
        }
    }

    static func setUp(_ engine: TestEngine, _ email: String) async throws -> Setup {
        let store = try await TestEnvironment.freshStore(engine)
        let clock = TestClock(Self.t0)
        let account = Account(id: UUID(), email: try EmailAddress(email), name: "Omar", timeZone: "Europe/Berlin", language: .english, createdAt: Self.t0)
        try await store.transaction { tx in try await tx.insertAccountWithDefaultCalendars(account, now: Self.t0, random: .system) }
        let personal = try #require(try await store.read { tx in try await tx.calendar(accountID: account.id, slug: "personal") })
        return Setup(
            store: store, clock: clock, account: account, personal: personal, writes: CalendarWrites(store: store, clock: clock.clock, random: .system),
            series: EventSeriesChanges(store: store, clock: clock.clock, random: .system),
            integrated: IntegratedCalendar(store: store, parse: { try? CalendarObjectContent(text: $0.icalendar).calendar }))
    }

    static func calendar(_ lines: [String]) throws -> CalendarObjectContent {
        try CalendarObjectContent(text: (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Jadwal Tests//EN"] + lines + ["END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n")
    }

    /// Weekly at 09:00 Berlin, five times from Monday 12 October 2026: the clocks go back on
    /// 25 October, so the first two are 07:00Z and the rest 08:00Z.
    static let standup = [
        "BEGIN:VEVENT", "UID:standup@test", "DTSTAMP:20260901T000000Z", "DTSTART;TZID=Europe/Berlin:20261012T090000", "DURATION:PT30M",
        "SUMMARY:Standup", "RRULE:FREQ=WEEKLY;COUNT=5",
        "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Standup", "TRIGGER:-PT10M", "END:VALARM", "END:VEVENT",
    ]

    @Test("this event, this and following (COUNT across a daylight-saving change), all: the stored objects, the instances, conflicts and reminders",
          arguments: TestEnvironment.engines)
    func timedSeries(engine: TestEngine) async throws {
        let s = try await Self.setUp(engine, "series@example.com")
        _ = try await s.writes.put(try Self.calendar(Self.standup), name: "standup.ics", in: s.personal, source: .caldav)
        // A dentist visit at 10:00 on 2 November: clear of the standup until it moves to 10:00.
        _ = try await s.writes.put(try Self.calendar([
            "BEGIN:VEVENT", "UID:dentist@test", "DTSTAMP:20260901T000000Z", "DTSTART;TZID=Europe/Berlin:20261102T100000", "DURATION:PT1H",
            "SUMMARY:Dentist", "END:VEVENT",
        ]), name: "dentist.ics", in: s.personal, source: .caldav)
        #expect(try await s.instances().map(\.start) == [
            "2026-10-12T07:00:00Z", "2026-10-19T07:00:00Z", "2026-10-26T08:00:00Z", "2026-11-02T08:00:00Z", "2026-11-02T09:00:00Z", "2026-11-09T08:00:00Z",
        ])

        // This event: an override named by its original start, the rest untouched.
        let moved = EventDraft(title: "Standup (long)", start: "2026-10-19T09:00", end: "2026-10-19T10:00", timeZone: "Europe/Berlin")
        let one = try await s.series.edit(
            moved, name: "standup.ics", in: s.personal, scope: .this, occurrence: "2026-10-19T07:00:00Z", ifMatch: nil, defaultTimeZone: "Europe/Berlin", source: .api)
        #expect(one.newSeries == nil)
        let afterThis = try await s.text("standup.ics")
        #expect(afterThis.contains("RECURRENCE-ID;TZID=Europe/Berlin:20261019T090000") && afterThis.contains("RRULE:FREQ=WEEKLY;COUNT=5"))
        #expect(try await s.instances().filter { $0.object == "standup.ics" }.map(\.summary) == ["Standup", "Standup (long)", "Standup", "Standup", "Standup"])

        // This and following from 26 October, moved to 10:00: the old series ends with UNTIL just
        // before that instance in UTC (COUNT gives way), a new series with a new UID takes the three left.
        let later = EventDraft(title: "Standup", start: "2026-10-26T10:00", end: "2026-10-26T10:30", timeZone: "Europe/Berlin", rrule: "FREQ=WEEKLY;COUNT=5")
        let split = try await s.series.edit(
            later, name: "standup.ics", in: s.personal, scope: .following, occurrence: "2026-10-26T09:00", ifMatch: nil, defaultTimeZone: "Europe/Berlin", source: .api)
        let newSeries = try #require(split.newSeries)
        let old = try await s.text("standup.ics")
        #expect(old.contains("RRULE:FREQ=WEEKLY;UNTIL=20261026T075959Z") && !old.contains("COUNT="), "\(old)")
        #expect(old.contains("RECURRENCE-ID;TZID=Europe/Berlin:20261019T090000"), "the earlier override stays with the old series")
        #expect(newSeries.uid != "standup@test" && newSeries.icalendar.contains("DTSTART;TZID=Europe/Berlin:20261026T100000"))
        #expect(newSeries.icalendar.contains("RRULE:FREQ=WEEKLY;COUNT=3") && newSeries.icalendar.contains("BEGIN:VALARM"), "\(newSeries.icalendar)")
        #expect(try await s.instances().filter { $0.object != "dentist.ics" }.map(\.start) == [
            "2026-10-12T07:00:00Z", "2026-10-19T07:00:00Z", "2026-10-26T09:00:00Z", "2026-11-02T09:00:00Z", "2026-11-09T09:00:00Z",
        ])

        // The conflict check runs on the new series, which now meets the dentist; its reminders are queued.
        let jobs = try await s.store.read { tx in try await tx.jobs(state: .queued, limit: 200) }
        let checks = try jobs.filter { $0.kind == ConflictCheck.jobKind }.map { try JSONDecoder().decode(ConflictCheck.Request.self, from: Data($0.payload.utf8)) }
        let request = try #require(checks.first { $0.objectName == newSeries.name })
        _ = try await ConflictCheck(store: s.store, clock: s.clock.clock, random: .system).run(request)
        let open = try await s.store.read { tx in try await tx.conflicts(accountID: s.account.id, includeResolved: false) }
        #expect(open.count == 1 && Set([open.first?.event.objectName]).isSubset(of: [newSeries.name, "dentist.ics"]), "\(open)")
        let reminders = ReminderQueue.Target(accountID: s.account.id, calendarID: s.personal.id, objectName: newSeries.name).subject
        #expect(jobs.contains { $0.subject == reminders }, "the new series' alarm is scheduled")

        // A conflict whose occurrence has passed retires by itself when the conflicts are read.
        let conflicts = Conflicts(store: s.store, clock: s.clock.clock, busyTime: AccountBusyTime())
        #expect(try await conflicts.list(account: s.account, includeResolved: false).count == 1)
        let ended = try #require(open.first).event.end
        s.clock.advance(by: ended.timeIntervalSince(s.clock.now) + 1)
        #expect(try await conflicts.list(account: s.account, includeResolved: false).isEmpty)
        let retired = try await conflicts.list(account: s.account, includeResolved: true).map(\.0)
        #expect(retired.count == 1 && retired.first?.status == .obsolete && retired.first?.resolvedAt == s.clock.now)

        // Delete this one (EXDATE in DTSTART's zone), then this and following, then all.
        _ = try await s.series.delete(name: newSeries.name, in: s.personal, scope: .this, occurrence: "2026-11-02T09:00:00Z", ifMatch: nil, source: .api)
        #expect(try await s.text(newSeries.name).contains("EXDATE;TZID=Europe/Berlin:20261102T100000"))
        _ = try await s.series.delete(name: newSeries.name, in: s.personal, scope: .following, occurrence: "2026-11-09T10:00", ifMatch: nil, source: .api)
        #expect(try await s.instances().filter { $0.object == newSeries.name }.map(\.start) == ["2026-10-26T09:00:00Z"])
        let gone = try await s.series.delete(name: "standup.ics", in: s.personal, scope: .all, occurrence: nil, ifMatch: nil, source: .api)
        let left = try await s.instances()
        #expect(gone.object == nil && !left.contains { $0.object == "standup.ics" })

        // Refused: no occurrence, an unreadable one, one the series does not have, a stale ETag.
        _ = try await s.writes.put(try Self.calendar(Self.standup), name: "standup.ics", in: s.personal, source: .caldav)
        await #expect(throws: EventSeriesChanges.Problem.occurrenceRequired(.this)) {
            try await s.series.delete(name: "standup.ics", in: s.personal, scope: .this, occurrence: nil, ifMatch: nil, source: .api)
        }
        await #expect(throws: EventSeriesChanges.Problem.occurrence("next monday", allDay: false)) {
            try await s.series.delete(name: "standup.ics", in: s.personal, scope: .this, occurrence: "next monday", ifMatch: nil, source: .api)
        }
        await #expect(throws: EventSeriesChanges.Problem.notInSeries("2026-10-13T07:00:00Z")) {
            try await s.series.delete(name: "standup.ics", in: s.personal, scope: .following, occurrence: "2026-10-13T07:00:00Z", ifMatch: nil, source: .api)
        }
        await #expect(throws: CalendarWrites.Refusal.self) {
            try await s.series.delete(name: "standup.ics", in: s.personal, scope: .this, occurrence: "2026-10-19T07:00:00Z", ifMatch: "\"stale\"", source: .api)
        }
        try await s.store.shutdown()
    }

    @Test("all events moved to another time: overrides and removed instances follow the series; an instance the person moved stays where they put it",
          arguments: TestEnvironment.engines)
    func allEventsMovedKeepsInstancesNamed(engine: TestEngine) async throws {
        let s = try await Self.setUp(engine, "follow@example.com")
        _ = try await s.writes.put(try Self.calendar(Self.standup), name: "standup.ics", in: s.personal, source: .caldav)
        func edit(_ draft: EventDraft, _ scope: SeriesScope, _ occurrence: String?) async throws {
            _ = try await s.series.edit(
                draft, name: "standup.ics", in: s.personal, scope: scope, occurrence: occurrence, ifMatch: nil, defaultTimeZone: "Europe/Berlin", source: .api)
        }
        // 19 October renamed only, 26 October moved to 14:00, 2 November removed.
        try await edit(EventDraft(title: "Standup (notes)", start: "2026-10-19T09:00", end: "2026-10-19T09:30", timeZone: "Europe/Berlin"), .this, "2026-10-19T07:00:00Z")
        try await edit(EventDraft(title: "Standup", start: "2026-10-26T14:00", end: "2026-10-26T14:30", timeZone: "Europe/Berlin"), .this, "2026-10-26T09:00")
        _ = try await s.series.delete(name: "standup.ics", in: s.personal, scope: .this, occurrence: "2026-11-02T09:00", ifMatch: nil, source: .api)

        // Every standup from 09:00 to 10:00, 45 minutes long.
        try await edit(
            EventDraft(title: "Standup", start: "2026-10-12T10:00", end: "2026-10-12T10:45", timeZone: "Europe/Berlin", rrule: "FREQ=WEEKLY;COUNT=5"), .all, nil)
        let text = try await s.text("standup.ics")
        #expect(text.contains("RECURRENCE-ID;TZID=Europe/Berlin:20261019T100000") && text.contains("RECURRENCE-ID;TZID=Europe/Berlin:20261026T100000"), "\(text)")
        #expect(text.contains("EXDATE;TZID=Europe/Berlin:20261102T100000") && !text.contains("T090000"), "\(text)")
        #expect(text.contains("DTEND;TZID=Europe/Berlin:20261019T104500"), "the renamed instance takes the series' new length: \(text)")
        // 10:00 in Berlin is 08:00Z before the clocks go back on 25 October and 09:00Z after.
        let instances = try await s.instances()
        #expect(instances.map(\.start) == ["2026-10-12T08:00:00Z", "2026-10-19T08:00:00Z", "2026-10-26T13:00:00Z", "2026-11-09T09:00:00Z"])
        #expect(instances.map(\.summary) == ["Standup", "Standup (notes)", "Standup", "Standup"])

        // To all day and back: still four instances, the renamed one among them.
        try await edit(EventDraft(title: "Standup", start: "2026-10-12", allDay: true, rrule: "FREQ=WEEKLY;COUNT=5"), .all, nil)
        #expect(try await s.text("standup.ics").contains("EXDATE;VALUE=DATE:20261102"))
        try await edit(
            EventDraft(title: "Standup", start: "2026-10-12T09:00", end: "2026-10-12T09:30", timeZone: "Europe/Berlin", rrule: "FREQ=WEEKLY;COUNT=5"), .all, nil)
        let back = try await s.instances()
        #expect(back.map(\.summary) == ["Standup", "Standup (notes)", "Standup", "Standup"], "\(back)")
        #expect(back.map(\.start).first == "2026-10-12T07:00:00Z" && back.map(\.start).last == "2026-11-09T08:00:00Z")
        try await s.store.shutdown()
    }

    @Test("an all-day series: the override and EXDATE are dates, the split's UNTIL is the day before; editing all from an instance keeps the first day",
          arguments: TestEnvironment.engines)
    func allDaySeries(engine: TestEngine) async throws {
        let s = try await Self.setUp(engine, "allday@example.com")
        _ = try await s.writes.put(try Self.calendar([
            "BEGIN:VEVENT", "UID:gym@test", "DTSTAMP:20260901T000000Z", "DTSTART;VALUE=DATE:20261101", "DTEND;VALUE=DATE:20261102",
            "SUMMARY:Gym week", "RRULE:FREQ=DAILY;UNTIL=20261107", "END:VEVENT",
        ]), name: "gym.ics", in: s.personal, source: .caldav)
        _ = try await s.series.edit(
            EventDraft(title: "Rest", start: "2026-11-03", allDay: true), name: "gym.ics", in: s.personal, scope: .this, occurrence: "2026-11-03", ifMatch: nil,
            defaultTimeZone: "Europe/Berlin", source: .api)
        #expect(try await s.text("gym.ics").contains("RECURRENCE-ID;VALUE=DATE:20261103"))
        _ = try await s.series.delete(name: "gym.ics", in: s.personal, scope: .this, occurrence: "2026-11-04", ifMatch: nil, source: .api)
        #expect(try await s.text("gym.ics").contains("EXDATE;VALUE=DATE:20261104"))
        let split = try await s.series.edit(
            EventDraft(title: "Gym (gym B)", start: "2026-11-06", allDay: true, rrule: "FREQ=DAILY;UNTIL=20261107"), name: "gym.ics", in: s.personal,
            scope: .following, occurrence: "2026-11-06", ifMatch: nil, defaultTimeZone: "Europe/Berlin", source: .api)
        #expect(try await s.text("gym.ics").contains("RRULE:FREQ=DAILY;UNTIL=20261105"))
        #expect(try await s.instances().map(\.summary) == ["Gym week", "Gym week", "Rest", "Gym week", "Gym (gym B)", "Gym (gym B)"])
        #expect(split.newSeries?.icalendar.contains("DTSTART;VALUE=DATE:20261106") == true)

        // All events, from the 2nd instance moved a day later: the series starts a day later too.
        _ = try await s.series.edit(
            EventDraft(title: "Gym", start: "2026-11-03", allDay: true, rrule: "FREQ=DAILY;UNTIL=20261105"), name: "gym.ics", in: s.personal, scope: .all,
            occurrence: "2026-11-02", ifMatch: nil, defaultTimeZone: "Europe/Berlin", source: .api)
        #expect(try await s.text("gym.ics").contains("DTSTART;VALUE=DATE:20261102"))
        try await s.store.shutdown()
    }
}
