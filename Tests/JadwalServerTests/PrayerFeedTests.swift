import Foundation
import HTTPTypes
import HummingbirdTesting
import ICalendar
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

@Suite("Prayer-times feed (webcal subscription)")
struct PrayerFeedTests {
    struct Feed: Decodable { let url: String; let webcalURL: String; let alarmMinutesBefore: Int? }

    /// Python's icalendar reads the feed too: a second, independent parser.
    static func validateWithPython(_ text: String) throws {
        guard let python = TestEnvironment.python else {
            if TestEnvironment.isCI { Issue.record("JADWAL_TEST_PYTHON is not set: CI must check the feed with Python's icalendar") }
            return
        }
        let file = try TestEnvironment.temporaryDirectory("jadwal-feed").appendingPathComponent("feed.ics")
        try text.write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", """
            import sys, icalendar
            cal = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
            events = [c for c in cal.walk('VEVENT')]
            assert events and all(e.decoded('DTSTART').tzinfo is not None for e in events), 'events need zoned starts'
            print(len(events))
            """, file.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        process.waitUntilExit()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "Python icalendar refused the feed: \(printed)")
    }

    @Test("create, fetch without sign-in, replace, revoke")
    func lifecycle() async throws {
        try await ServerHarness.run(clock: TestClock(Date())) { harness, client in
            let tokens = try await client.signIn("feed@example.com", harness: harness)
            #expect(try await client.send(.post, "/api/v1/prayer-times/feed", token: tokens.accessToken).errorCode == "prayer_settings_not_set")
            _ = try await client.send(.put, "/api/v1/prayer-settings", json: #"{"city": "Makkah"}"#, token: tokens.accessToken)
            let created = try await client.send(.post, "/api/v1/prayer-times/feed", json: #"{"alarmMinutesBefore": 15}"#, token: tokens.accessToken)
            #expect(created.status == .created, "\(created.text)")
            let feed = try created.json(Feed.self)
            #expect(feed.webcalURL.hasPrefix("webcal://") && feed.url.hasSuffix(".ics") && feed.alarmMinutesBefore == 15)
            let path = try #require(URL(string: feed.url)?.path)

            let fetched = try await client.send(.get, path)
            #expect(fetched.status == .ok && fetched.headers[.contentType]?.hasPrefix("text/calendar") == true)
            let calendar = try ICalendarParser().parseCalendar(fetched.text)
            let events = calendar.components(named: "VEVENT")
            #expect(events.count >= 5 * (PrayerPreferences.feedDaysBack + PrayerPreferences.feedDaysAhead))
            #expect(events.allSatisfy { $0.components(named: "VALARM").first?.first("TRIGGER")?.value == "-PT15M" })
            #expect(calendar.first("X-WR-CALNAME")?.text == "Prayer Times")
            try Self.validateWithPython(fetched.text)

            // A new feed replaces the old URL.
            let second = try await client.send(.post, "/api/v1/prayer-times/feed", token: tokens.accessToken).json(Feed.self)
            #expect(second.url != feed.url && second.alarmMinutesBefore == nil)
            #expect(try await client.send(.get, path).status == .notFound)
            let secondPath = try #require(URL(string: second.url)?.path)
            #expect(try await client.send(.get, secondPath).status == .ok)

            #expect(try await client.send(.delete, "/api/v1/prayer-times/feed", token: tokens.accessToken).status == .noContent)
            #expect(try await client.send(.get, secondPath).status == .notFound)
            #expect(try await client.send(.delete, "/api/v1/prayer-times/feed", token: tokens.accessToken).status == .notFound)
        }
    }

    @Test("bad feed requests and guessed URLs")
    func badInput() async throws {
        try await ServerHarness.run { harness, client in
            let tokens = try await client.signIn("guess@example.com", harness: harness)
            _ = try await client.send(.put, "/api/v1/prayer-settings", json: #"{"city": "Cairo"}"#, token: tokens.accessToken)
            for body in [#"{"alarmMinutesBefore": -1}"#, #"{"alarmMinutesBefore": 5000}"#, #"{"alarmMinutesBefore": "soon"}"#] {
                let response = try await client.send(.post, "/api/v1/prayer-times/feed", json: body, token: tokens.accessToken)
                #expect(response.status == .badRequest, "\(body)")
            }
            for path in ["/feeds/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.ics", "/feeds/x", "/feeds/" + String(repeating: "a", count: 300) + ".ics"] {
                let response = try await client.send(.get, path)
                #expect(response.status == .notFound && response.errorCode == "not_found", "\(path)")
            }
            #expect(try await client.send(.post, "/api/v1/prayer-times/feed").status == .unauthorized)
        }
    }
}
