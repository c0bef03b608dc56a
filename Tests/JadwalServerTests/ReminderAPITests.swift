import Foundation
import HTTPTypes
import HummingbirdTesting
import JadwalCore
@testable import JadwalServer
@testable import JadwalHTTP
@testable import JadwalAPI
@testable import JadwalWeb
@testable import JadwalCalDAV
@testable import JadwalMail
@testable import JadwalPush
@testable import JadwalLLM
@testable import JadwalJobs
import JadwalTestSupport
import Testing

/// Reminders end to end: an alarm a phone writes becomes a notification at its time, once; an
/// edit reschedules it, a delete cancels it, and a restart loses nothing.
@Suite("Reminders over HTTP")
struct ReminderAPITests {
    /// An event at `start` (Riyadh) with an alarm `trigger` before it.
    static func event(uid: String, summary: String, start: String, trigger: String = "-PT15M") -> String {
        ICS.event(uid: uid, summary: summary, start: start, extra: [
            "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:\(summary)", "TRIGGER:\(trigger)", "END:VALARM",
        ])
    }

    /// The reminders in the feed, read with a fresh sign-in (access tokens last 5 minutes and
    /// these tests move the clock by hours).
    static func reminders(_ client: some TestClientProtocol, _ harness: ServerHarness) async throws -> [NotificationAPITests.Feed.Item] {
        let token = try await client.signIn("omar@example.com", harness: harness).accessToken
        return try await NotificationAPITests.feed(client, token: token).notifications.filter { $0.kind == "reminder" }
    }

    @Test("an alarm fires once at its time; an edit reschedules it, a delete cancels it", arguments: TestEnvironment.engines)
    func lifecycle(engine: TestEngine) async throws {
        // Monday 21 September 2026, 17:13 in Riyadh.
        try await ServerHarness.run(engine: engine, configure: { $0.workers = 0 }) { harness, client in
            let (user, _) = try await ChatAPITests.omar(harness, client)
            let personal = user.calendar("personal")
            #expect(try await client.putICS(personal + "standup.ics", as: user, Self.event(uid: "standup", summary: "Standup", start: "20260921T180000")).status == .created)
            try await ConflictAPITests.runJobs(harness)
            #expect(try await Self.reminders(client, harness).isEmpty, "17:45 has not come")

            harness.clock.advance(by: 32 * 60)  // 17:45:20
            try await ConflictAPITests.runJobs(harness)
            var fired = try await Self.reminders(client, harness)
            try #require(fired.count == 1, "\(fired)")
            #expect(fired[0].title == "Standup" && fired[0].body == "18:00 — in 15 min" && fired[0].urgent, "\(fired[0])")
            #expect(fired[0].links["objectName"] == "standup.ics")
            try await ConflictAPITests.runJobs(harness)
            #expect(try await Self.reminders(client, harness).count == 1, "once")

            // Moved to 19:00: the reminder comes again at 18:45, not at the old time.
            _ = try await client.putICS(personal + "standup.ics", as: user, Self.event(uid: "standup", summary: "Standup", start: "20260921T190000"))
            try await ConflictAPITests.runJobs(harness)
            harness.clock.advance(by: 30 * 60)  // 18:15:20
            try await ConflictAPITests.runJobs(harness)
            #expect(try await Self.reminders(client, harness).count == 1)
            harness.clock.advance(by: 30 * 60)  // 18:45:20
            try await ConflictAPITests.runJobs(harness)
            fired = try await Self.reminders(client, harness)
            #expect(fired.count == 2 && fired.first?.body == "19:00 — in 15 min", "\(fired.map(\.body))")

            // Deleted before its alarm: nothing fires.
            _ = try await client.putICS(personal + "dinner.ics", as: user, Self.event(uid: "dinner", summary: "Dinner", start: "20260921T210000", trigger: "-PT1H"))
            try await ConflictAPITests.runJobs(harness)
            #expect(try await client.dav(.delete, personal + "dinner.ics", as: user).status == .noContent)
            harness.clock.advance(by: 2 * 3600)
            try await ConflictAPITests.runJobs(harness)
            #expect(try await Self.reminders(client, harness).count == 2)
        }
    }

    @Test("a reminder queued before a restart is delivered by the next process; a repeating event's alarms are queued ahead",
          arguments: TestEnvironment.engines)
    func restart(engine: TestEngine) async throws {
        let clock = TestClock()
        let saved = try await ServerHarness.run(engine: engine, clock: clock, configure: { $0.workers = 0 }) { harness, client in
            let (user, _) = try await ChatAPITests.omar(harness, client)
            _ = try await client.putICS(
                user.calendar("personal") + "class.ics", as: user,
                ICS.event(uid: "class", summary: "Arabic class", start: "20260922T090000", rrule: "FREQ=WEEKLY;COUNT=10", extra: [
                    "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Class", "TRIGGER:-P1D", "END:VALARM",
                ]))
            try await ConflictAPITests.runJobs(harness)
            let queued = try await harness.instance.store.read { tx in try await tx.jobs(state: .queued, limit: 100) }
            let firings = queued.filter { $0.kind == ReminderQueue.fireJob }.map(\.runAt).sorted()
            // Weekly from Tuesday 22 September at 09:00: the day before, at 09:00 Riyadh (06:00Z), five within 35 days.
            #expect(firings.count == 5, "\(firings)")
            #expect(firings.first == ISO8601DateFormatter().date(from: "2026-09-28T06:00:00Z"), "the first is past (21 Sep 09:00): \(firings)")
            return harness.instance.configuration
        }
        clock.advance(by: 7 * 86_400)  // the server was down for a week: 28 September, 17:13
        try await ServerHarness.run(engine: engine, clock: clock, configure: {
            $0.workers = 0
            $0.dataDirectory = saved.dataDirectory
            $0.databaseURL = saved.databaseURL
        }) { harness, client in
            try await ConflictAPITests.runJobs(harness)
            // The 28 September 09:00 firing is 8 hours late: past the 6-hour limit, dropped. The
            // next, 5 October 09:00, comes in its time.
            #expect(try await Self.reminders(client, harness).isEmpty)
            clock.advance(by: 7 * 86_400 - 8 * 3600)  // 5 October, 09:13
            try await ConflictAPITests.runJobs(harness)
            let fired = try await Self.reminders(client, harness)
            #expect(fired.map(\.title) == ["Arabic class"], "\(fired)")
        }
    }
}
