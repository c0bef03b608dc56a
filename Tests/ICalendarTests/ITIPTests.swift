import Foundation
import Testing

@testable import ICalendar

/// The messages an organizer's and an attendee's writes send (RFC 6638 §3.2, RFC 5546), and how
/// a delivered message changes the calendar it lands in.
@Suite("iTIP: what a write sends, what a delivery changes")
struct ITIPTests {
    static let alice = "mailto:alice@example.com"
    static let bob = "mailto:bob@example.com"
    static let carol = "mailto:carol@example.com"
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    static func meeting(
        summary: String = "Planning", start: String = "20261123T100000Z", attendees: [String] = ["ATTENDEE;CN=Bob;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:\(bob)",
                                                                                                   "ATTENDEE;CN=Carol;PARTSTAT=NEEDS-ACTION:\(carol)"],
        extra: [String] = [], sequence: Int = 0
    ) -> Component {
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Tests//EN", "BEGIN:VEVENT", "UID:planning-1", "DTSTAMP:20261101T000000Z",
            "SEQUENCE:\(sequence)", "DTSTART:\(start)", "DURATION:PT1H", "SUMMARY:\(summary)", "ORGANIZER;CN=Alice:\(alice)",
            "ATTENDEE;PARTSTAT=ACCEPTED:\(alice)",
        ]
        lines += attendees + extra
        lines += ["BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT10M", "DESCRIPTION:Soon", "END:VALARM", "END:VEVENT", "END:VCALENDAR"]
        // Force-unwrapping is fine in a test: the fixture is known to parse.
        return try! ICalendarParser().parseCalendar(lines.joined(separator: "\r\n") + "\r\n")
    }

    let organizer = OrganizerScheduling(organizer: [CalendarUserAddress(alice)], now: now)

    @Test("a new meeting invites each attendee but the organizer; the message carries no alarm and no scheduling parameters")
    func newMeeting() throws {
        let new = Self.meeting(extra: ["ATTENDEE;SCHEDULE-AGENT=CLIENT:mailto:dan@example.com"])
        let messages = organizer.messages(old: nil, new: new)
        #expect(messages.map(\.method) == [.request, .request])
        #expect(messages.map(\.recipientAddress) == [CalendarUserAddress(Self.bob), CalendarUserAddress(Self.carol)],
                "the organizer and an attendee the client schedules get nothing")
        let text = try #require(messages.first?.text)
        #expect(text.contains("METHOD:REQUEST") && text.contains("SUMMARY:Planning") && !text.contains("VALARM"))
        #expect(!text.contains("SCHEDULE-AGENT") && !text.contains("SCHEDULE-STATUS"))
        #expect(messages.first?.calendar.first("METHOD")?.value == "REQUEST")
    }

    @Test("only answers changed: nothing is sent; the meeting changed: everyone is told; someone taken off gets a cancellation")
    func updates() {
        let old = Self.meeting()
        let answered = Self.meeting(attendees: ["ATTENDEE;CN=Bob;PARTSTAT=ACCEPTED:\(Self.bob)", "ATTENDEE;CN=Carol;PARTSTAT=NEEDS-ACTION:\(Self.carol)"])
        #expect(organizer.messages(old: old, new: answered).isEmpty)

        let renamed = Self.meeting(summary: "Planning (room 2)")
        #expect(organizer.messages(old: old, new: renamed).map(\.method) == [.request, .request])

        let withoutCarol = Self.meeting(attendees: ["ATTENDEE;CN=Bob;PARTSTAT=NEEDS-ACTION:\(Self.bob)"])
        let messages = organizer.messages(old: old, new: withoutCarol)
        #expect(messages.map(\.method) == [.cancel, .request], "the attendee list changed, so Bob hears of it too")
        #expect(messages.first?.recipientAddress == CalendarUserAddress(Self.carol))
        let cancel = messages.first?.text ?? ""
        #expect(cancel.contains("STATUS:CANCELLED") && cancel.contains(Self.carol) && !cancel.contains(Self.bob))

        let forced = Self.meeting(attendees: ["ATTENDEE;SCHEDULE-FORCE-SEND=REQUEST;PARTSTAT=NEEDS-ACTION:\(Self.bob)",
                                              "ATTENDEE;CN=Carol;PARTSTAT=NEEDS-ACTION:\(Self.carol)"])
        #expect(organizer.messages(old: Self.meeting(), new: forced).map(\.recipientAddress).contains(CalendarUserAddress(Self.bob)))
        #expect(!ITIP.removingForceSend(forced).serialized.contains("SCHEDULE-FORCE-SEND"))
    }

    @Test("deleted or cancelled: each attendee is told once, a deletion one SEQUENCE up")
    func cancellations() {
        let old = Self.meeting(sequence: 3)
        let deleted = organizer.messages(old: old, new: nil)
        #expect(deleted.map(\.method) == [.cancel, .cancel])
        #expect(deleted.first?.text.contains("SEQUENCE:4") == true)
        let cancelled = Self.meeting(extra: ["STATUS:CANCELLED"], sequence: 4)
        #expect(organizer.messages(old: old, new: cancelled).map(\.method) == [.cancel, .cancel])
        #expect(organizer.messages(old: cancelled, new: Self.meeting(summary: "Off", extra: ["STATUS:CANCELLED"])).isEmpty)
        #expect(organizer.messages(old: cancelled, new: nil).isEmpty, "already told")
    }

    @Test("an attendee's answer goes to the organizer alone; deleting their copy declines; nothing for a cancelled meeting or a client-scheduled one")
    func replies() throws {
        let bob = AttendeeScheduling(attendee: [CalendarUserAddress(Self.bob)], now: Self.now)
        let invited = Self.meeting()
        #expect(bob.reply(old: invited, new: invited) == nil)
        let accepted = Self.meeting(attendees: ["ATTENDEE;CN=Bob;PARTSTAT=ACCEPTED:\(Self.bob)", "ATTENDEE;CN=Carol;PARTSTAT=NEEDS-ACTION:\(Self.carol)"])
        let reply = try #require(bob.reply(old: invited, new: accepted))
        #expect(reply.method == .reply && reply.recipientAddress == CalendarUserAddress(Self.alice))
        #expect(reply.text.contains("PARTSTAT=ACCEPTED") && !reply.text.contains(Self.carol) && reply.text.contains("METHOD:REPLY"))
        #expect(bob.reply(old: nil, new: accepted) != nil, "a copy made by the client with an answer is an answer")
        #expect(bob.reply(old: nil, new: invited) == nil)

        let declined = try #require(bob.reply(old: accepted, new: nil))
        #expect(declined.text.contains("PARTSTAT=DECLINED"))
        #expect(bob.reply(old: Self.meeting(extra: ["STATUS:CANCELLED"]), new: nil) == nil)

        let clientScheduled = try ICalendarParser().parseCalendar(accepted.serialized.replacingOccurrences(
            of: "ORGANIZER;CN=Alice:", with: "ORGANIZER;CN=Alice;SCHEDULE-AGENT=CLIENT:"))
        #expect(bob.reply(old: invited, new: clientScheduled) == nil)

        let transparent = bob.followingAnswer(old: accepted, new: try ICalendarParser().parseCalendar(
            accepted.serialized.replacingOccurrences(of: "PARTSTAT=ACCEPTED:\(Self.bob)", with: "PARTSTAT=DECLINED:\(Self.bob)")))
        #expect(transparent.serialized.contains("TRANSP:TRANSPARENT"), "a declined meeting does not take their time")
    }

    @Test("delivered: a new copy not answered; an update keeps their alarms and answer unless the meeting moved; a reply lands in the organizer's copy")
    func delivery() throws {
        let bob: Set<CalendarUserAddress> = [CalendarUserAddress(Self.bob)]
        let request = organizer.messages(old: nil, new: Self.meeting(attendees: ["ATTENDEE;CN=Bob:\(Self.bob)"]))[0]
        let first = ITIPDelivery.attendeeCopy(request: request.calendar, existing: nil, attendee: bob)
        #expect(first.first("METHOD") == nil && first.serialized.contains("PARTSTAT=NEEDS-ACTION:\(Self.bob)"))

        var answered = first
        ITIP.setParticipation(.accepted, of: bob, in: &answered)
        answered.components[0].components.append(Component(name: "VALARM", properties: [
            Property(name: "ACTION", value: "DISPLAY"), Property(name: "TRIGGER", value: "-PT1H"), Property(name: "DESCRIPTION", value: "Mine"),
        ]))
        let renamed = organizer.messages(old: Self.meeting(), new: Self.meeting(summary: "Renamed"))[0]
        let updated = ITIPDelivery.attendeeCopy(request: renamed.calendar, existing: answered, attendee: bob)
        #expect(updated.serialized.contains("SUMMARY:Renamed") && updated.serialized.contains("PARTSTAT=ACCEPTED:\(Self.bob)"))
        #expect(updated.serialized.contains("DESCRIPTION:Mine"), "their own alarm stays")
        let moved = organizer.messages(old: Self.meeting(), new: Self.meeting(start: "20261124T100000Z"))[0]
        #expect(ITIPDelivery.attendeeCopy(request: moved.calendar, existing: answered, attendee: bob).serialized.contains("PARTSTAT=NEEDS-ACTION"),
                "a moved meeting asks again")

        let cancelled = ITIPDelivery.cancelled(answered, by: organizer.messages(old: Self.meeting(sequence: 2), new: nil)[0].calendar)
        #expect(cancelled.serialized.contains("STATUS:CANCELLED") && cancelled.serialized.contains("SEQUENCE:3"))

        let reply = try #require(AttendeeScheduling(attendee: bob, now: Self.now).reply(old: first, new: answered))
        let organizerCopy = try #require(ITIPDelivery.organizerCopy(Self.meeting(), applying: reply.calendar, from: CalendarUserAddress(Self.bob)))
        #expect(organizerCopy.serialized.contains("PARTSTAT=ACCEPTED:\(Self.bob)") && organizerCopy.serialized.contains("PARTSTAT=NEEDS-ACTION:\(Self.carol)"))
        #expect(ITIPDelivery.organizerCopy(Self.meeting(), applying: reply.calendar, from: CalendarUserAddress("mailto:eve@example.com")) == nil,
                "an answer from someone not invited changes nothing")
    }

    @Test("an answer for one instance of a series the organizer's copy has no override for makes that override, in the series' zone; an instance the series lacks changes nothing")
    func answerForOneInstance() throws {
        let series = try ICalendarParser().parseCalendar([
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Tests//EN", "BEGIN:VEVENT", "UID:standup-1", "DTSTAMP:20261101T000000Z",
            "DTSTART;TZID=Europe/Berlin:20261123T100000", "DTEND;TZID=Europe/Berlin:20261123T103000", "RRULE:FREQ=WEEKLY;COUNT=4",
            "SUMMARY:Standup", "ORGANIZER:\(Self.alice)", "ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:\(Self.bob)", "END:VEVENT", "END:VCALENDAR",
        ].joined(separator: "\r\n") + "\r\n")
        func reply(_ recurrenceID: String) throws -> Component {
            try ICalendarParser().parseCalendar([
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Tests//EN", "METHOD:REPLY", "BEGIN:VEVENT", "UID:standup-1", "DTSTAMP:20261120T000000Z",
                "RECURRENCE-ID:\(recurrenceID)", "ORGANIZER:\(Self.alice)", "ATTENDEE;PARTSTAT=DECLINED:\(Self.bob)", "END:VEVENT", "END:VCALENDAR",
            ].joined(separator: "\r\n") + "\r\n")
        }
        // 30 November 10:00 in Berlin, named in UTC as a client may.
        let copy = try #require(ITIPDelivery.organizerCopy(series, applying: try reply("20261130T090000Z"), from: CalendarUserAddress(Self.bob)))
        let events = copy.components.filter { $0.name == "VEVENT" }
        #expect(events.count == 2)
        let override = try #require(events.first { $0.first("RECURRENCE-ID") != nil })
        let text = override.serialized
        #expect(text.contains("RECURRENCE-ID;TZID=Europe/Berlin:20261130T100000") && text.contains("DTSTART;TZID=Europe/Berlin:20261130T100000"), "\(text)")
        #expect(text.contains("DTEND;TZID=Europe/Berlin:20261130T103000") && !text.contains("RRULE") && text.contains("PARTSTAT=DECLINED:\(Self.bob)"))
        #expect(try #require(events.first { $0.first("RECURRENCE-ID") == nil }).serialized.contains("PARTSTAT=NEEDS-ACTION"), "the rest of the series is unanswered")
        #expect(ITIPDelivery.organizerCopy(series, applying: try reply("20261201T090000Z"), from: CalendarUserAddress(Self.bob)) == nil,
                "a Tuesday is no instance of a Monday series")
    }

    @Test("an organizer's stale copy keeps the answers on record while the meeting keeps its time")
    func keepingAnswers() {
        let recorded = Self.meeting(attendees: ["ATTENDEE;CN=Bob;PARTSTAT=ACCEPTED:\(Self.bob)", "ATTENDEE;CN=Carol;PARTSTAT=DECLINED:\(Self.carol)"])
        let stale = Self.meeting(summary: "Renamed")
        let kept = OrganizerScheduling.keepingAnswers(of: recorded, in: stale).serialized
        #expect(kept.contains("PARTSTAT=ACCEPTED:\(Self.bob)") && kept.contains("PARTSTAT=DECLINED:\(Self.carol)") && kept.contains("SUMMARY:Renamed"))
        let movedStale = Self.meeting(start: "20261125T100000Z")
        #expect(!OrganizerScheduling.keepingAnswers(of: recorded, in: movedStale).serialized.contains("PARTSTAT=ACCEPTED:\(Self.bob)"))
    }

    @Test("a proposal of another time and its refusal")
    func proposals() throws {
        let item = try #require(ITIP.items(of: Self.meeting()).first)
        let attendee = try #require(ITIP.attendee([CalendarUserAddress(Self.bob)], in: item))
        let organizerProperty = try #require(item.first("ORGANIZER"))
        let counter = ITIPProposal.counter(
            meeting: item, attendee: attendee, organizer: organizerProperty, start: Date(timeIntervalSince1970: 1_795_100_400),
            end: Date(timeIntervalSince1970: 1_795_104_000), comment: "After lunch?", now: Self.now)
        #expect(counter.text.contains("METHOD:COUNTER") && counter.text.contains("DTSTART:2026") && counter.text.contains("COMMENT:After lunch?"))
        let decline = ITIPProposal.declineCounter(meeting: item, attendee: attendee, organizer: organizerProperty, comment: "", now: Self.now)
        #expect(decline.text.contains("METHOD:DECLINECOUNTER") && decline.recipientAddress == CalendarUserAddress(Self.bob))
    }

    @Test("the Schedule-Tag signature of an attendee's copy ignores SEQUENCE")
    func attendeeSignature() throws {
        let one = Self.meeting(sequence: 1)
        let two = Self.meeting(sequence: 2)
        #expect(SchedulingObject.signature(of: one, role: .attendee) == SchedulingObject.signature(of: two, role: .attendee))
        #expect(SchedulingObject.signature(of: one) != SchedulingObject.signature(of: two))
    }
}
