import Foundation
import ICalendar
import Testing
@testable import DAV

/// Scheduling object resources, Schedule-Tag signatures and Outbox busy-time requests (RFC 6638).
@Suite("Scheduling objects")
struct SchedulingObjectTests {
    let me: Set<CalendarUserAddress> = [CalendarUserAddress("mailto:amal@example.com"), CalendarUserAddress("/dav/principals/abc/")]

    func calendar(_ lines: [String]) throws -> Component {
        try ICalendarParser().parseCalendar((["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x"] + lines + ["END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n")
    }

    func event(_ lines: [String], uid: String = "1") -> [String] {
        ["BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20260101T000000Z", "DTSTART:20260105T100000Z"] + lines + ["END:VEVENT"]
    }

    @Test("addresses compare case-insensitively for mailto, by path for principal URLs")
    func addresses() {
        #expect(CalendarUserAddress("MAILTO:Amal@Example.COM") == CalendarUserAddress("mailto:amal@example.com"))
        #expect(CalendarUserAddress("https://cal.example.com/dav/principals/ABC") == CalendarUserAddress("/dav/principals/abc/"))
        #expect(CalendarUserAddress("mailto:amal@example.com").email == "amal@example.com")
        #expect(CalendarUserAddress("urn:uuid:1").email == nil && CalendarUserAddress("urn:uuid:1").key == "urn:uuid:1")
    }

    @Test("§3.1: organizer and attendee scheduling object resources, and what is neither")
    func roles() throws {
        let organized = try calendar(event(["ORGANIZER:mailto:AMAL@example.com", "ATTENDEE:mailto:b@example.org"]))
        #expect(SchedulingObject.role(of: organized, ownerAddresses: me) == .organizer)
        let invited = try calendar(event(["ORGANIZER:mailto:b@example.org", "ATTENDEE;PARTSTAT=ACCEPTED:mailto:amal@example.com"]))
        #expect(SchedulingObject.role(of: invited, ownerAddresses: me) == .attendee)
        let byPrincipal = try calendar(event(["ORGANIZER:http://localhost/dav/principals/abc/"]))
        #expect(SchedulingObject.role(of: byPrincipal, ownerAddresses: me) == .organizer)
        #expect(SchedulingObject.role(of: try calendar(event(["SUMMARY:Alone"])), ownerAddresses: me) == nil)
        let strangers = try calendar(event(["ORGANIZER:mailto:b@example.org", "ATTENDEE:mailto:c@example.org"]))
        #expect(SchedulingObject.role(of: strangers, ownerAddresses: me) == nil)
        // An override without ORGANIZER, or ORGANIZERs that differ: not one scheduling object.
        let partly = try calendar(event(["ORGANIZER:mailto:amal@example.com", "RRULE:FREQ=DAILY"])
            + event(["RECURRENCE-ID:20260106T100000Z"]))
        #expect(SchedulingObject.role(of: partly, ownerAddresses: me) == nil)
        let mixed = try calendar(event(["ORGANIZER:mailto:b@example.org", "ATTENDEE:mailto:amal@example.com", "RRULE:FREQ=DAILY"])
            + event(["RECURRENCE-ID:20260106T100000Z", "ORGANIZER:mailto:c@example.org", "ATTENDEE:mailto:amal@example.com"]))
        #expect(SchedulingObject.role(of: mixed, ownerAddresses: me) == nil)
    }

    @Test("the ORGANIZER pre-check never misses one, whatever its case")
    func prefilter() {
        #expect(SchedulingObject.mayBeScheduling("BEGIN:VEVENT\r\nOrganizer:mailto:a@example.com\r\n"))
        #expect(SchedulingObject.mayBeScheduling("ORGANIZER"))
        #expect(!SchedulingObject.mayBeScheduling("BEGIN:VEVENT\r\nSUMMARY:Organize the trip\r\nEND:VEVENT\r\n"))
        #expect(!SchedulingObject.mayBeScheduling(""))
    }

    @Test("§3.2.10: the signature ignores replies, stamps, alarms and order, and follows the meeting")
    func signature() throws {
        let base = try calendar(event([
            "SUMMARY:Planning", "ORGANIZER;CN=Amal:mailto:amal@example.com",
            "ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:b@example.org", "ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:c@example.org",
        ]))
        let signature = SchedulingObject.signature(of: base)
        let replied = try calendar([
            "BEGIN:VTIMEZONE", "TZID:Asia/Riyadh", "BEGIN:STANDARD", "DTSTART:19700101T000000", "TZOFFSETFROM:+0300", "TZOFFSETTO:+0300",
            "END:STANDARD", "END:VTIMEZONE",
            "BEGIN:VEVENT", "DTSTART:20260105T100000Z", "UID:1", "DTSTAMP:20260102T080000Z", "LAST-MODIFIED:20260102T080000Z",
            "ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:c@example.org", "ATTENDEE;SCHEDULE-STATUS=2.0;PARTSTAT=ACCEPTED:mailto:b@example.org",
            "ORGANIZER;CN=Amal:mailto:amal@example.com", "SUMMARY:Planning", "TRANSP:TRANSPARENT", "X-MOZ-GENERATION:3",
            "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT5M", "DESCRIPTION:x", "END:VALARM", "END:VEVENT",
        ])
        #expect(SchedulingObject.signature(of: replied) == signature)

        for change in [
            "SUMMARY:Planning", "DTSTART:20260105T100000Z", "ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:c@example.org",
        ] {
            let replacement = change.hasPrefix("SUMMARY") ? "SUMMARY:Planning (moved)"
                : change.hasPrefix("DTSTART") ? "DTSTART:20260106T100000Z" : "ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:d@example.org"
            let text = ICalendarSerializer().serialize(base).replacingOccurrences(of: change, with: replacement)
            #expect(SchedulingObject.signature(of: try ICalendarParser().parseCalendar(text)) != signature, "\(replacement)")
        }
        let withRole = ICalendarSerializer().serialize(base).replacingOccurrences(
            of: "ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:c", with: "ATTENDEE;ROLE=OPT-PARTICIPANT;PARTSTAT=NEEDS-ACTION:mailto:c")
        #expect(SchedulingObject.signature(of: try ICalendarParser().parseCalendar(withRole)) != signature, "ROLE is the organizer's to set")
    }

    @Test("§5: a VFREEBUSY REQUEST is read, refused with valid-scheduling-message when malformed, and answered with a REPLY")
    func freeBusyRequest() throws {
        func request(_ lines: [String], method: String? = "REQUEST") throws(DAVError) -> FreeBusyRequest {
            let head = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x"] + (method.map { ["METHOD:\($0)"] } ?? [])
            return try FreeBusyRequest(text: (head + lines + ["END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n")
        }
        let fields = [
            "BEGIN:VFREEBUSY", "UID:q", "DTSTAMP:20260101T000000Z", "DTSTART:20260105T000000Z", "DTEND:20260106T000000Z",
            "ORGANIZER:mailto:amal@example.com", "ATTENDEE;CN=B:mailto:b@example.org", "ATTENDEE:MAILTO:B@example.org", "ATTENDEE:mailto:c@example.org",
            "END:VFREEBUSY",
        ]
        let parsed = try request(fields)
        #expect(parsed.attendees.map(\.value) == ["mailto:b@example.org", "mailto:c@example.org"], "the same address twice is asked once")
        #expect(parsed.uid == "q" && parsed.range == TimeRange(start: UTCDateTime.parse("20260105T000000Z"), end: UTCDateTime.parse("20260106T000000Z")))

        let busy = [
            BusyPeriod(start: try #require(UTCDateTime.parse("20260105T090000Z")), end: try #require(UTCDateTime.parse("20260105T103000Z")), type: "BUSY"),
        ]
        let reply = parsed.reply(for: parsed.attendees[0], busy: busy, stamp: Date(timeIntervalSince1970: 0))
        #expect(reply.contains("METHOD:REPLY\r\n") && reply.contains("ATTENDEE;CN=B:mailto:b@example.org\r\n"))
        #expect(reply.contains("FREEBUSY:20260105T090000Z/PT1H30M\r\n") && reply.contains("UID:q\r\n"))

        func refusal(_ lines: [String], method: String? = "REQUEST") -> QualifiedName? {
            do {
                _ = try request(lines, method: method)
                return nil
            } catch {
                return error.condition
            }
        }
        #expect(refusal(fields, method: nil) == .validSchedulingMessage)
        #expect(refusal(fields, method: "PUBLISH") == .validSchedulingMessage)
        #expect(refusal(fields.filter { !$0.hasPrefix("ATTENDEE") }) == .validSchedulingMessage)
        #expect(refusal(fields.filter { !$0.hasPrefix("ORGANIZER") }) == .validSchedulingMessage)
        #expect(refusal(fields.filter { !$0.hasPrefix("DTEND") }) == .validSchedulingMessage)
        #expect(refusal(fields.map { $0.hasPrefix("DTEND") ? "DTEND:20260104T000000Z" : $0 }) == .validSchedulingMessage)
        #expect(refusal(fields.map { $0 == "BEGIN:VFREEBUSY" ? "BEGIN:VEVENT" : $0 == "END:VFREEBUSY" ? "END:VEVENT" : $0 }) == .validSchedulingMessage)
        let many = Array(fields.filter { !$0.hasPrefix("ATTENDEE") }.dropLast())
            + (0...FreeBusyRequest.maxRecipients).map { "ATTENDEE:mailto:p\($0)@example.org" } + ["END:VFREEBUSY"]
        #expect(refusal(many) == .validSchedulingMessage)
        do {
            _ = try FreeBusyRequest(text: "BEGIN:VCALENDAR\r\nEND:VEVENT\r\n")
            Issue.record("unparsable text was accepted")
        } catch {
            #expect(error.condition == .validCalendarData)
        }
    }

    @Test("busy periods of several calendars merge per FBTYPE")
    func merged() throws {
        func period(_ start: String, _ end: String, _ type: String = "BUSY") throws -> BusyPeriod {
            BusyPeriod(start: try #require(UTCDateTime.parse(start)), end: try #require(UTCDateTime.parse(end)), type: type)
        }
        let merged = FreeBusyCalculator.merged([
            try period("20260105T100000Z", "20260105T110000Z"), try period("20260105T080000Z", "20260105T090000Z", "BUSY-TENTATIVE"),
            try period("20260105T103000Z", "20260105T120000Z"), try period("20260105T120000Z", "20260105T123000Z"),
        ])
        #expect(merged == [
            try period("20260105T080000Z", "20260105T090000Z", "BUSY-TENTATIVE"), try period("20260105T100000Z", "20260105T123000Z"),
        ])
    }
}
