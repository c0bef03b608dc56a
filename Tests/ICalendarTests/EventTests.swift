import Testing
@testable import ICalendar

@Suite struct EventTests {
    @Test func readsEveryField() throws {
        let calendar = try ICalendarParser().parseCalendar(try Fixtures.text("google.ics"))
        let event = try Event(component: try #require(calendar.components(named: "VEVENT").first))
        #expect(event.title == "Sync")
        #expect(event.start == .dateTime(LocalDateTime(year: 2026, month: 3, day: 2, hour: 9), .zone("Europe/London")))
        #expect(event.end == .end(.dateTime(LocalDateTime(year: 2026, month: 3, day: 2, hour: 9, minute: 30), .zone("Europe/London"))))
        #expect(event.description?.hasPrefix("Daily sync. Join with Google Meet: https://meet.google.com/abc-defg-hij\n\nLearn") == true)
        #expect(event.status == .confirmed && event.transparency == .opaque && !event.isAllDay)
        #expect(event.recurrenceRules.first?.byDay.map(\.weekday) == [.monday, .wednesday, .friday])
        #expect(event.organizer?.name == "Layla Haddad")
        #expect(event.attendees.map(\.participationStatus) == ["ACCEPTED", "NEEDS-ACTION"])
        #expect(event.alarms.first?.trigger == .relative(Duration(negative: true, minutes: 10), relatedToEnd: false))
    }

    @Test(arguments: ParserSerializerTests.realWorldFiles)
    func unchangedEventWritesBackIdentically(_ name: String) throws {
        let calendar = try ICalendarParser().parseCalendar(try Fixtures.text(name))
        for component in calendar.components(named: "VEVENT") {
            #expect(try Event(component: component).component == component)
        }
    }

    @Test func editingKeepsUnknownData() throws {
        let calendar = try ICalendarParser().parseCalendar(try Fixtures.text("apple.ics"))
        var event = try Event(component: try #require(calendar.components(named: "VEVENT").first))
        event.title = "Standup, renamed"
        event.location = nil
        event.alarms.append(Event.Alarm(trigger: .relative(Duration(negative: true, hours: 1), relatedToEnd: false), description: "Soon"))
        event.attendees.append(Event.Attendee(address: "mailto:new@example.com", name: "New Person", role: "OPT-PARTICIPANT", participationStatus: "NEEDS-ACTION"))
        let written = event.component
        #expect(written.first("SUMMARY")?.value == "Standup\\, renamed")
        #expect(written.first("LOCATION") == nil)
        #expect(written.first("X-APPLE-STRUCTURED-LOCATION") != nil)
        #expect(written.first("X-APPLE-TRAVEL-ADVISORY-BEHAVIOR")?.value == "AUTOMATIC")
        #expect(written.components.count == 2)
        #expect(written.components.first?.first("X-WR-ALARMUID") != nil)
        #expect(written.first("ATTENDEE")?.parameter("CN") == "New Person")
        let again = try Event(component: try #require(try ICalendarParser().parse(written.serialized).first))
        #expect(again.title == "Standup, renamed" && again.alarms.count == 2 && again.attendees.count == 1)
    }

    @Test func newAllDayEventWithDuration() throws {
        var event = Event(uid: "new-1", title: "Eid", start: .date(CivilDate(year: 2026, month: 3, day: 20)), end: .duration(Duration(days: 3)))
        event.transparency = .transparent
        event.recurrenceRules = [try RecurrenceRule.parse("FREQ=YEARLY;COUNT=2")]
        let c = event.component
        #expect(c.first("DTSTART")?.parameter("VALUE") == "DATE")
        #expect(c.first("DURATION")?.value == "P3D")
        #expect(c.first("RRULE")?.value == "FREQ=YEARLY;COUNT=2")
        let back = try Event(component: c)
        #expect(back.component == c)
        #expect(back.title == event.title && back.start == event.start && back.end == event.end && back.isAllDay)
        #expect(back.recurrenceRules == event.recurrenceRules && back.transparency == .transparent)
    }
}

@Suite struct EventEditingTests {
    @Test func changingOneAttendeeKeepsTheOthersByteForByte() throws {
        let calendar = try ICalendarParser().parseCalendar(try Fixtures.text("google.ics"))
        let original = try #require(calendar.components(named: "VEVENT").first)
        var event = try Event(component: original)
        event.attendees[1].participationStatus = "ACCEPTED"
        let written = event.component.all("ATTENDEE")
        #expect(written[0] == original.all("ATTENDEE")[0])
        #expect(written[1].parameters.map(\.name) == original.all("ATTENDEE")[1].parameters.map(\.name))
        #expect(written[1].parameter("PARTSTAT") == "ACCEPTED")
        // Everything else is untouched, and in its place.
        #expect(event.component.properties.map(\.name) == original.properties.map(\.name))
        #expect(event.component.properties.filter { $0.name != "ATTENDEE" } == original.properties.filter { $0.name != "ATTENDEE" })
    }
}
