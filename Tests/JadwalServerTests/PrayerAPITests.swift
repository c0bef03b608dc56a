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
import PrayerTimes
import Testing

@Suite("Prayer settings and times over HTTP")
struct PrayerAPITests {
    struct Settings: Decodable { let placeName: String?; let timeZone: String; let method: String; let madhab: String; let latitude: Double }
    struct Day: Decodable { let date: String; let weekday: String; let times: [String: String]; let unavailable: [String: String]; let isFriday: Bool; let hijri: [String: String]? }
    struct Times: Decodable { let days: [Day]; let method: String }

    @Test("a city sets place, zone and the country's method; times match the PrayerTimes module", arguments: TestEnvironment.engines)
    func cityAndTimes(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let tokens = try await client.signIn("pray@example.com", harness: harness)
            let unset = try await client.send(.get, "/api/v1/prayer-times?date=2026-03-05", token: tokens.accessToken)
            #expect(unset.status == .notFound && unset.errorCode == "prayer_settings_not_set")

            let saved = try await client.send(.put, "/api/v1/prayer-settings", json: #"{"city": "الرياض"}"#, token: tokens.accessToken)
            #expect(saved.status == .ok, "\(saved.text)")
            let settings = try saved.json(Settings.self)
            #expect(settings.timeZone == "Asia/Riyadh" && settings.method == "UmmAlQura" && settings.placeName?.contains("Riyadh") == true)

            let response = try await client.send(.get, "/api/v1/prayer-times?date=2026-03-05", token: tokens.accessToken)
            #expect(response.status == .ok, "\(response.text)")
            let day = try #require(try response.json(Times.self).days.first)
            #expect(day.date == "2026-03-05" && day.weekday == "Thursday" && !day.isFriday)
            #expect(day.hijri?["en"] == "16 Ramadan 1447 AH")
            // The same numbers the pure module computes for the stored settings.
            let accountID = try #require(UUID(uuidString: tokens.account.id))
            let stored = try #require(try await harness.instance.store.read { tx in try await tx.prayerSettings(accountID: accountID) })
            let schedule = try stored.calculator().schedule(for: try LocalDate(iso8601: "2026-03-05"))
            let formatter = ISO8601DateFormatter()
            formatter.timeZone = TimeZone(identifier: "Asia/Riyadh")
            #expect(day.times["fajr"] == schedule.fajr.date.map(formatter.string(from:)))
            #expect(day.times["isha"] == schedule.isha.date.map(formatter.string(from:)))
            #expect(day.times["maghrib"]?.hasSuffix("+03:00") == true)
            // Ramadan in Umm al-Qura: Isha is two hours after Maghrib.
            if let maghrib = schedule.maghrib.date, let isha = schedule.isha.date { #expect(isha.timeIntervalSince(maghrib) == 7200) }

            let week = try await client.send(.get, "/api/v1/prayer-times?start=2026-03-01&end=2026-03-07", token: tokens.accessToken)
            let days = try week.json(Times.self).days
            #expect(days.count == 7 && days.filter(\.isFriday).map(\.date) == ["2026-03-06"])

            // Changing one thing keeps the rest.
            let hanafi = try await client.send(.put, "/api/v1/prayer-settings", json: #"{"madhab": "Hanafi", "blockMinutes": {"jumuah": 75}}"#,
                                               token: tokens.accessToken)
            let updated = try hanafi.json(Settings.self)
            #expect(updated.madhab == "Hanafi" && updated.timeZone == "Asia/Riyadh" && updated.method == "UmmAlQura")
        }
    }

    @Test("polar night is reported, not given a wrong time")
    func polar() async throws {
        try await ServerHarness.run { harness, client in
            let tokens = try await client.signIn("north@example.com", harness: harness)
            let body = #"{"latitude": 78.22, "longitude": 15.65, "timeZone": "Arctic/Longyearbyen", "method": "MuslimWorldLeague", "highLatitudeRule": "MiddleOfTheNight"}"#
            #expect(try await client.send(.put, "/api/v1/prayer-settings", json: body, token: tokens.accessToken).status == .ok)
            let response = try await client.send(.get, "/api/v1/prayer-times?date=2026-12-21", token: tokens.accessToken)
            let day = try #require(try response.json(Times.self).days.first)
            #expect(day.unavailable["sunrise"] != nil && day.times["sunrise"] == nil)
            #expect(day.times["dhuhr"] != nil)
        }
    }

    @Test("bad settings and queries are 400s that say what is wrong")
    func badInput() async throws {
        try await ServerHarness.run { harness, client in
            let tokens = try await client.signIn("typo@example.com", harness: harness)
            let bad: [(String, String)] = [
                (#"{"latitude": 91, "longitude": 0, "timeZone": "UTC"}"#, "latitude"),
                (#"{"latitude": 21, "longitude": 39, "timeZone": "Mars/Olympus"}"#, "time zone"),
                (#"{"latitude": 21, "longitude": 39}"#, "latitude, longitude and timeZone"),
                (#"{"city": "Atlantis"}"#, "Atlantis"),
                (#"{"city": "Riyadh", "latitude": 1}"#, "not both"),
                (#"{"city": "Riyadh", "method": "Guesswork"}"#, "unknown method"),
                (#"{"city": "Riyadh", "madhab": "Other"}"#, "madhab"),
                (#"{"city": "Riyadh", "adjustments": {"fajr": 500}}"#, "adjustment"),
                (#"{"city": "Riyadh", "blockMinutes": {"isha": -5}}"#, "block"),
                ("{}", "say where you pray"),
            ]
            for (body, phrase) in bad {
                let response = try await client.send(.put, "/api/v1/prayer-settings", json: body, token: tokens.accessToken)
                #expect(response.status == .badRequest, "\(body): \(response.text)")
                #expect(response.errorCode == "invalid_prayer_settings", "\(body)")
                #expect((try? response.json(ErrorBody.self))?.error.message.contains(phrase) == true, "\(body): \(response.text)")
            }
            #expect(try await client.send(.put, "/api/v1/prayer-settings", json: #"{"latitude": "north"}"#, token: tokens.accessToken).errorCode == "invalid_field")
            _ = try await client.send(.put, "/api/v1/prayer-settings", json: #"{"city": "Cairo"}"#, token: tokens.accessToken)
            for query in ["date=2026-02-30", "date=tomorrow", "start=2026-01-01", "start=2026-02-01&end=2026-01-01", "start=2026-01-01&end=2027-06-01"] {
                let response = try await client.send(.get, "/api/v1/prayer-times?\(query)", token: tokens.accessToken)
                #expect(response.status == .badRequest && response.errorCode == "invalid_query", "\(query): \(response.text)")
            }
            let today = try await client.send(.get, "/api/v1/prayer-times", token: tokens.accessToken)
            #expect(try today.json(Times.self).days.count == 1)
            #expect(try await client.send(.get, "/api/v1/prayer-times").status == .unauthorized)
        }
    }
}
