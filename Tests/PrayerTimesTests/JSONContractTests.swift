import Foundation
import Testing
@testable import PrayerTimes

@Suite struct JSONContractTests {
    private func answer(_ json: String) throws -> [[String: Any]] {
        let output = try PrayerTimesJSONContract.answer(input: Data(json.utf8))
        return try #require(try JSONSerialization.jsonObject(with: output) as? [[String: Any]])
    }

    @Test func readmeExample() throws {
        let answers = try answer("""
            [{"id":"q1","latitude":21.4225,"longitude":39.8262,"timezone":"Asia/Riyadh",
              "date":"2026-03-05","method":"UmmAlQura","madhab":"Shafi","highLatitudeRule":"MiddleOfTheNight"}]
            """)
        #expect(answers.count == 1)
        #expect(answers[0]["id"] as? String == "q1")
        let times = try #require(answers[0]["times"] as? [String: String])
        #expect(times == [
            "fajr": "2026-03-05T05:22:00+03:00", "sunrise": "2026-03-05T06:38:00+03:00",
            "dhuhr": "2026-03-05T12:32:00+03:00", "asr": "2026-03-05T15:55:00+03:00",
            "maghrib": "2026-03-05T18:26:00+03:00", "isha": "2026-03-05T20:26:00+03:00",
        ])
        #expect(answers[0]["error"] == nil)
    }

    @Test func outputKeepsPrayerOrder() throws {
        let output = try PrayerTimesJSONContract.answer(input: Data("""
            [{"id":"q1","latitude":21.4225,"longitude":39.8262,"timezone":"Asia/Riyadh","date":"2026-03-05","method":"UmmAlQura"}]
            """.utf8))
        let text = String(decoding: output, as: UTF8.self)
        let positions = Prayer.allCases.compactMap { text.range(of: "\"\($0.rawValue)\"")?.lowerBound }
        #expect(positions.count == 6)
        #expect(positions == positions.sorted())
        #expect(text.hasPrefix("[{\"id\":\"q1\",\"times\":{\"fajr\""))
    }

    @Test func badQueriesGetErrorsAndTheOthersAreStillAnswered() throws {
        let answers = try answer("""
            [{"id":"lat","latitude":91,"longitude":0,"timezone":"UTC","date":"2026-01-01","method":"Egyptian"},
             {"id":"ok","latitude":30.0444,"longitude":31.2357,"timezone":"Africa/Cairo","date":"2026-01-15","method":"Egyptian"},
             {"id":"zone","latitude":21,"longitude":39,"timezone":"Asia/Atlantis","date":"2026-01-01","method":"Egyptian"},
             {"id":"method","latitude":21,"longitude":39,"timezone":"Asia/Riyadh","date":"2026-01-01","method":"Jafari"},
             {"id":"madhab","latitude":21,"longitude":39,"timezone":"Asia/Riyadh","date":"2026-01-01","method":"Egyptian","madhab":"Maliki"},
             {"id":"rule","latitude":21,"longitude":39,"timezone":"Asia/Riyadh","date":"2026-01-01","method":"Egyptian","highLatitudeRule":"Angle"},
             {"id":"date","latitude":21,"longitude":39,"timezone":"Asia/Riyadh","date":"2026-02-30","method":"Egyptian"},
             {"id":"missing","longitude":39,"timezone":"Asia/Riyadh","date":"2026-01-01","method":"Egyptian"},
             {"id":"type","latitude":"21","longitude":39,"timezone":"Asia/Riyadh","date":"2026-01-01","method":"Egyptian"},
             {"id":7,"latitude":21,"longitude":39,"timezone":"Asia/Riyadh","date":"2026-01-01","method":"Egyptian"},
             "not an object"]
            """)
        #expect(answers.count == 11)
        let errors = answers.map { $0["error"] as? String }
        #expect(errors[0]?.contains("latitude 91") == true)
        #expect(errors[1] == nil)
        // The dev record cairo-2026-01-15-Egyptian-Shafi-mid.
        #expect((answers[1]["times"] as? [String: String])?["fajr"] == "2026-01-15T05:21:00+02:00")
        #expect(errors[2]?.contains("unknown time zone") == true)
        #expect(errors[3]?.contains("unknown method \"Jafari\"") == true)
        #expect(errors[4]?.contains("unknown madhab") == true)
        #expect(errors[5]?.contains("unknown high-latitude rule") == true)
        #expect(errors[6]?.contains("invalid date") == true)
        #expect(errors[7]?.contains("missing field \"latitude\"") == true)
        #expect(errors[8]?.contains("latitude must be a number") == true)
        #expect(errors[9] == nil)
        #expect(answers[9]["id"] as? Int == 7)
        #expect(errors[10]?.contains("JSON object") == true)
        for (index, answer) in answers.enumerated() where errors[index] != nil {
            #expect(answer["times"] == nil)
        }
        #expect(answers.map { $0["id"] as? String }.prefix(9).elementsEqual(
            ["lat", "ok", "zone", "method", "madhab", "rule", "date", "missing", "type"]))
    }

    @Test func inputThatIsNotAnArrayIsRejectedAsAWhole() {
        #expect(throws: PrayerTimesJSONContract.InputError.self) {
            try PrayerTimesJSONContract.answer(input: Data("{\"id\":1}".utf8))
        }
        #expect(throws: PrayerTimesJSONContract.InputError.self) {
            try PrayerTimesJSONContract.answer(input: Data("[{".utf8))
        }
        #expect((try? PrayerTimesJSONContract.answer(input: Data("[]".utf8))).map { String(decoding: $0, as: UTF8.self) } == "[]")
    }

    @Test func adjustmentsField() throws {
        let answers = try answer("""
            [{"id":"a","latitude":30.0444,"longitude":31.2357,"timezone":"Africa/Cairo","date":"2026-01-15","method":"Egyptian","adjustments":{"fajr":3}},
             {"id":"b","latitude":30.0444,"longitude":31.2357,"timezone":"Africa/Cairo","date":"2026-01-15","method":"Egyptian","adjustments":{"tahajjud":3}}]
            """)
        // Three minutes after the dev record cairo-2026-01-15-Egyptian-Shafi-mid (05:21).
        #expect((answers[0]["times"] as? [String: String])?["fajr"] == "2026-01-15T05:24:00+02:00")
        #expect((answers[1]["error"] as? String)?.contains("unknown prayer") == true)
    }

    /// The whole dev set through the contract, as the checker runs it: every instant right,
    /// every offset right, and fast.
    @Test func wholeDevSetThroughTheContract() throws {
        let records = try ReferenceFile.load("dev").records
        let input = try JSONEncoder().encode(records.map(\.query))
        let clock = ContinuousClock()
        var output = Data()
        let elapsed = try clock.measure { output = try PrayerTimesJSONContract.answer(input: input) }
        print("contract over \(records.count) dev queries: \(elapsed)")
        let answers = try #require(try JSONSerialization.jsonObject(with: output) as? [[String: Any]])
        #expect(answers.count == records.count)
        var mismatches: [String] = []
        for (record, answer) in zip(records, answers) {
            #expect(answer["id"] as? String == record.id)
            let times = try #require(answer["times"] as? [String: String], "\(record.id): \(answer)")
            for (prayer, expected) in record.times {
                let got = times[prayer].flatMap(ISOTime.parse)
                let want = ISOTime.parse(expected)
                guard let got, let want, got.offset == want.offset,
                      abs(got.date.timeIntervalSince(want.date)) <= 60
                else {
                    mismatches.append("\(record.id) \(prayer): \(times[prayer] ?? "nil") vs \(expected)")
                    continue
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
        #expect(elapsed < .seconds(5))  // a debug build; the release figure is in Benchmarks/PrayerTimes
    }
}

@Suite struct LocalTimeFormatTests {
    @Test func offsetsAndDates() throws {
        let instant = Date(timeIntervalSince1970: 1_772_688_120)  // 2026-03-05T05:22:00Z
        #expect(LocalTimeFormat.iso8601(instant, in: try #require(TimeZone(identifier: "UTC"))) == "2026-03-05T05:22:00+00:00")
        #expect(LocalTimeFormat.iso8601(instant, in: try #require(TimeZone(identifier: "Asia/Tehran"))) == "2026-03-05T08:52:00+03:30")
        #expect(LocalTimeFormat.iso8601(instant, in: try #require(TimeZone(identifier: "America/St_Johns"))) == "2026-03-05T01:52:00-03:30")
        #expect(LocalTimeFormat.iso8601(instant, in: try #require(TimeZone(identifier: "Pacific/Kiritimati"))) == "2026-03-05T19:22:00+14:00")
        #expect(LocalTimeFormat.iso8601(instant, in: try #require(TimeZone(identifier: "Pacific/Pago_Pago"))) == "2026-03-04T18:22:00-11:00")
        #expect(LocalTimeFormat.iso8601(instant, in: try #require(TimeZone(identifier: "Asia/Kathmandu"))) == "2026-03-05T11:07:00+05:45")
        #expect(LocalTimeFormat.clockTime(instant, in: try #require(TimeZone(identifier: "Asia/Riyadh"))) == "08:22")
        let old = Date(timeIntervalSince1970: -86_400 * 365)  // 1969-01-01
        #expect(LocalTimeFormat.iso8601(old, in: try #require(TimeZone(identifier: "UTC"))) == "1969-01-01T00:00:00+00:00")
    }
}
