import Testing
@testable import ICalendar

@Suite struct TodoTests {
    static func todo(_ lines: [String]) throws -> Todo {
        let text = (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//EN", "BEGIN:VTODO", "UID:t-1", "DTSTAMP:20261101T000000Z"]
            + lines + ["END:VTODO", "END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
        return try Todo(component: try #require(try ICalendarParser().parseCalendar(text).components(named: "VTODO").first))
    }

    @Test func readsAppleAndThunderbirdTasks() throws {
        let apple = try Todo(component: try #require(try ICalendarParser().parseCalendar(try Fixtures.text("apple.ics")).components(named: "VTODO").first))
        #expect(apple.uid == "2A0F6D3C-2222-4E2F-A0A0-1234567890AB" && apple.title == "Renew passport")
        #expect(apple.due == .date(CivilDate(year: 2026, month: 2, day: 15)) && apple.status == .needsAction && apple.isOpen)
        #expect(apple.priority == nil && apple.estimate == nil && apple.created == nil && apple.start == nil)

        let thunderbird = try Todo(component: try #require(
            try ICalendarParser().parseCalendar(try Fixtures.text("thunderbird.ics")).components(named: "VTODO").first))
        #expect(thunderbird.title == "Prepare slides" && thunderbird.status == .inProcess && thunderbird.percentComplete == 40)
        #expect(thunderbird.due == .dateTime(LocalDateTime(year: 2026, month: 2, day: 3, hour: 17), .zone("America/New_York")))
        #expect(thunderbird.created == .dateTime(LocalDateTime(year: 2025, month: 11, day: 20, hour: 15), .utc))
    }

    @Test(arguments: ParserSerializerTests.realWorldFiles)
    func unchangedTodoWritesBackIdentically(_ name: String) throws {
        let calendar = try ICalendarParser().parseCalendar(try Fixtures.text(name))
        for component in calendar.components(named: "VTODO") {
            #expect(try Todo(component: component).component == component)
        }
    }

    @Test func editingKeepsUnknownData() throws {
        let calendar = try ICalendarParser().parseCalendar(try Fixtures.text("apple.ics"))
        var todo = try Todo(component: try #require(calendar.components(named: "VTODO").first))
        todo.title = "Renew passport; book photo"
        todo.priority = 1
        todo.estimate = Duration(hours: 1, minutes: 30)
        let written = todo.component
        #expect(written.first("X-APPLE-SORT-ORDER")?.value == "625123456")
        #expect(written.first("SUMMARY")?.value == "Renew passport\\; book photo")
        #expect(written.first("PRIORITY")?.value == "1" && written.first("X-JADWAL-ESTIMATED-DURATION")?.value == "PT1H30M")
        #expect(written.first("DUE")?.parameter("VALUE") == "DATE" && written.first("DUE")?.value == "20260215")
        let again = try Todo(component: try #require(try ICalendarParser().parse(written.serialized).first))
        #expect(again.title == todo.title && again.priority == 1 && again.estimate == Duration(hours: 1, minutes: 30))
    }

    @Test func estimateIsReadFromEitherPropertyAndWrittenAsJadwals() throws {
        let jadwal = try Self.todo(["X-JADWAL-ESTIMATED-DURATION:PT45M", "ESTIMATED-DURATION:PT2H"])
        #expect(jadwal.estimate == Duration(minutes: 45), "Jadwal's own property wins")
        var calext = try Self.todo(["ESTIMATED-DURATION:PT2H"])
        #expect(calext.estimate == Duration(hours: 2))
        #expect(calext.component == calext.source, "an unchanged estimate is not rewritten")
        calext.estimate = Duration(hours: 3)
        let changed = calext.component
        #expect(changed.first("X-JADWAL-ESTIMATED-DURATION")?.value == "PT3H" && changed.first("ESTIMATED-DURATION")?.value == "PT3H")
        calext.estimate = nil
        #expect(calext.component.first("X-JADWAL-ESTIMATED-DURATION") == nil && calext.component.first("ESTIMATED-DURATION") == nil)

        let unreadable = try Self.todo(["X-JADWAL-ESTIMATED-DURATION:soon", "ESTIMATED-DURATION:-PT1H"])
        #expect(unreadable.estimate == nil)
        #expect(unreadable.component.first("X-JADWAL-ESTIMATED-DURATION")?.value == "soon", "kept as the client wrote it")
        #expect(try Self.todo(["ESTIMATED-DURATION:-PT1H"]).estimate == nil, "a negative length is no estimate")
    }

    @Test func completingAndReopening() throws {
        var todo = try Self.todo(["SUMMARY:File taxes", "STATUS:NEEDS-ACTION", "PERCENT-COMPLETE:20", "PRIORITY:5"])
        #expect(todo.isOpen && todo.percentComplete == 20 && todo.priority == 5)
        todo.status = .completed
        todo.completed = .dateTime(LocalDateTime(year: 2026, month: 11, day: 24, hour: 9), .utc)
        todo.percentComplete = 100
        let done = todo.component
        #expect(done.first("STATUS")?.value == "COMPLETED" && done.first("COMPLETED")?.value == "20261124T090000Z")
        #expect(done.first("PERCENT-COMPLETE")?.value == "100")
        var back = try Todo(component: done)
        #expect(!back.isOpen && back.effectiveStatus == .completed && back.completed == todo.completed)
        back.status = .needsAction
        back.completed = nil
        back.percentComplete = nil
        let reopened = back.component
        #expect(reopened.first("COMPLETED") == nil && reopened.first("PERCENT-COMPLETE") == nil && reopened.first("STATUS")?.value == "NEEDS-ACTION")
    }

    @Test func statusWhenAbsent() throws {
        #expect(try Self.todo(["SUMMARY:x"]).effectiveStatus == .needsAction)
        let old = try Self.todo(["SUMMARY:x", "COMPLETED:20261101T100000Z"])
        #expect(old.status == nil && old.effectiveStatus == .completed && !old.isOpen)
        #expect(try Self.todo(["STATUS:CANCELLED"]).isOpen == false)
        #expect(try Self.todo(["STATUS:in-process"]).isOpen)
    }

    @Test func newTodoRoundTrips() throws {
        var todo = Todo(uid: "new-1", title: "Write report")
        todo.due = .dateTime(LocalDateTime(year: 2026, month: 11, day: 25, hour: 17), .zone("Asia/Riyadh"))
        todo.priority = 0
        todo.relatedTo = ["parent-uid"]
        todo.estimate = Duration(hours: 2)
        todo.sequence = 2
        todo.alarms = [Todo.Alarm(trigger: .relative(Duration(negative: true, minutes: 30), relatedToEnd: true), description: "Write report")]
        let c = todo.component
        #expect(c.first("DUE")?.parameter("TZID") == "Asia/Riyadh" && c.first("RELATED-TO")?.value == "parent-uid")
        #expect(c.first("SEQUENCE")?.value == "2" && c.first("PRIORITY")?.value == "0")
        #expect(c.components.first?.first("TRIGGER")?.value == "-PT30M" && c.components.first?.first("TRIGGER")?.parameter("RELATED") == "END")
        let back = try Todo(component: c)
        #expect(back.component == c)
        #expect(back.due == todo.due && back.relatedTo == ["parent-uid"] && back.alarms.first?.trigger == todo.alarms.first?.trigger)
    }

    @Test func oddValuesAreKeptAsWritten() throws {
        let todo = try Self.todo(["PRIORITY:12", "PERCENT-COMPLETE:abc", "CREATED:yesterday", "RELATED-TO;RELTYPE=PARENT:p-1"])
        #expect(todo.priority == nil && todo.percentComplete == nil && todo.created == nil)
        #expect(todo.component == todo.source)
        var edited = todo
        edited.relatedTo.append("p-2")
        #expect(edited.component.all("RELATED-TO").map(\.parameters) == [[Parameter("RELTYPE", "PARENT")], []], "the parent link keeps its RELTYPE")
    }

    @Test func refusesWhatIsNotAToDo() throws {
        #expect(throws: ICalendarError.self) { try Todo(component: Component(name: "VEVENT", properties: [Property(name: "UID", value: "x")])) }
        #expect(throws: ICalendarError.self) { try Todo(component: Component(name: "VTODO")) }
        #expect(throws: ICalendarError.self) { try Self.todo(["DUE:20261340"]) }
    }
}
