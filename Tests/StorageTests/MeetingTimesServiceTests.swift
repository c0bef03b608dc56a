import Foundation
import ICalendar
import JadwalCore
import JadwalTestSupport
import Scheduling
import Storage
import Testing

/// "Find a time" in process, on a real store: the organizer's busy time and that of the invited
/// people who let them see it count; someone who does not share and an address with no account
/// are answered alike and do not count; the meeting's own instances never make it busy.
@Suite("Meeting times on every engine")
struct MeetingTimesServiceTests {
    /// 2026-09-21 17:13 in Riyadh (a Monday).
    static let t0 = Date(timeIntervalSince1970: 1_790_000_000)

    static func event(uid: String, start: String, hours: Int, summary: String) throws -> CalendarObjectContent {
        try CalendarObjectContent(text: [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Jadwal Tests//EN", "BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20260901T000000Z",
            "DTSTART;TZID=Asia/Riyadh:\(start)", "DURATION:PT\(hours)H", "SUMMARY:\(summary)", "END:VEVENT", "END:VCALENDAR",
        ].joined(separator: "\r\n") + "\r\n")
    }

    /// Tuesday 2026-09-22 at `hour`:00 in Riyadh (UTC+3).
    static func tuesday(_ hour: Int) -> Date {
        Date(timeIntervalSince1970: 1_790_035_200 + Double(hour - 3) * 3600)
    }

    @Test("busy time counts only where it is shared; strangers and unknown addresses look alike; the meeting itself is not busy",
          arguments: TestEnvironment.engines)
    func findsTimes(engine: TestEngine) async throws {
        let store = try await TestEnvironment.freshStore(engine)
        let clock = TestClock(Self.t0)
        let p = try await InvitationsServiceTests.people(store)
        let writes = CalendarWrites(store: store, clock: clock.clock, random: .system)
        let times = MeetingTimes(store: store, clock: clock.clock)
        #expect(Self.tuesday(10) == ISO8601DateFormatter().date(from: "2026-09-22T07:00:00Z"))

        // Bob lets Alice see his busy time and is at the gym 10:00–12:00; Carol shares with nobody
        // and is busy 09:00–10:00.
        try await CalendarShares(store: store, clock: clock.clock, random: .system)
            .setBusyTimeVisibility(BusyTimeVisibility(audience: .named, allowed: [p.alice.email]), of: p.bob)
        _ = try await writes.put(
            try Self.event(uid: "gym", start: "20260922T100000", hours: 2, summary: "Gym"), name: "gym.ics",
            in: try await InvitationsServiceTests.personal(store, p.bob), source: .api)
        _ = try await writes.put(
            try Self.event(uid: "dentist", start: "20260922T090000", hours: 1, summary: "Dentist"), name: "dentist.ics",
            in: try await InvitationsServiceTests.personal(store, p.carol), source: .api)

        let wanted = try TimeRange(start: Self.tuesday(10), end: Self.tuesday(11))
        let answer = try await times.find(
            organizer: p.alice, attendees: ["bob@example.com", "mailto:carol@example.com", "nobody@example.org"], meeting: wanted)
        #expect(answer.people.map(\.email) == ["bob@example.com", "carol@example.com", "nobody@example.org"])
        #expect(answer.people.map(\.busyShown) == [true, false, false])
        #expect(answer.people[0].busy == [try TimeRange(start: Self.tuesday(10), end: Self.tuesday(12))], "\(answer.people[0].busy)")
        #expect(answer.people[1] == MeetingTimes.Person(email: "carol@example.com", busyShown: false, busy: []))
        #expect(answer.people[2] == MeetingTimes.Person(email: "nobody@example.org", busyShown: false, busy: []))
        // Nearest first: 09:00 (Carol's dentist does not count: she does not share), never inside Bob's gym.
        try #require(!answer.slots.isEmpty)
        #expect(answer.slots[0].range == (try TimeRange(start: Self.tuesday(9), end: Self.tuesday(10))), "\(answer.slots)")
        let gym = try TimeRange(start: Self.tuesday(10), end: Self.tuesday(12))
        #expect(answer.slots.allSatisfy { !$0.range.overlaps(gym) }, "\(answer.slots)")

        // Once Carol shares with everyone, her 09:00 counts too.
        try await CalendarShares(store: store, clock: clock.clock, random: .system)
            .setBusyTimeVisibility(BusyTimeVisibility(audience: .everyone), of: p.carol)
        let shared = try await times.find(organizer: p.alice, attendees: ["bob@example.com", "carol@example.com"], meeting: wanted)
        #expect(shared.people.map(\.busyShown) == [true, true])
        let dentist = try TimeRange(start: Self.tuesday(9), end: Self.tuesday(10))
        #expect(!shared.slots.isEmpty && shared.slots.allSatisfy { !$0.range.overlaps(dentist) && !$0.range.overlaps(gym) }, "\(shared.slots)")

        // A meeting that exists already (Alice's, Bob invited, at 13:00): its own time is free for it.
        let review = try InvitationsServiceTests.meeting(uid: "review-9", organizer: p.alice, attendees: ["bob@example.com"], start: "20260922T130000")
        _ = try await writes.put(review, name: "review.ics", in: try await InvitationsServiceTests.personal(store, p.alice), source: .api)
        #expect(try await InvitationsServiceTests.copy(store, p.bob, uid: "review-9") != nil)
        let atReview = try TimeRange(start: Self.tuesday(13), end: Self.tuesday(14))
        let rescheduling = try await times.find(organizer: p.alice, attendees: ["bob@example.com"], meeting: atReview, uid: "review-9")
        #expect(rescheduling.slots.first?.range == atReview, "\(rescheduling.slots)")
        let another = try await times.find(organizer: p.alice, attendees: ["bob@example.com"], meeting: atReview)
        #expect(another.slots.first.map { !$0.range.overlaps(atReview) } == true, "\(another.slots)")

        // What cannot be searched is said, not guessed.
        await #expect(throws: MeetingTimes.Problem.noAttendees) { _ = try await times.find(organizer: p.alice, attendees: [], meeting: wanted) }
        await #expect(throws: MeetingTimes.Problem.invalidAttendee(index: 1, value: "bob")) {
            _ = try await times.find(organizer: p.alice, attendees: ["carol@example.com", "bob"], meeting: wanted)
        }
        await #expect(throws: MeetingTimes.Problem.noAttendees) {
            _ = try await times.find(organizer: p.alice, attendees: ["Alice@example.com"], meeting: wanted)
        }
        let twoDays = try TimeRange(start: Self.tuesday(10), end: Self.tuesday(10).addingTimeInterval(2 * 86_400))
        await #expect(throws: MeetingTimes.Problem.invalidLength) {
            _ = try await times.find(organizer: p.alice, attendees: ["bob@example.com"], meeting: twoDays)
        }
        try await store.shutdown()
    }
}
