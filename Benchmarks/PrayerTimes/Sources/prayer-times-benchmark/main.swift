import Foundation
import PrayerTimes

// Usage: swift run -c release prayer-times-benchmark [path/to/dev.json]
// Prints the minimum and median of repeated runs for:
//  1. one year of schedules for one location (per method family),
//  2. the `--json` contract over the whole dev set (parse, compute, encode; no process start-up).

let clock = ContinuousClock()

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

func measure(_ label: String, iterations: Int, _ body: () throws -> Int) rethrows {
    var samples: [Double] = []
    var checksum = 0
    checksum &+= try body()  // warm-up: first use of the time zone and calendar data
    for _ in 0..<iterations {
        let elapsed = try clock.measure { checksum &+= try body() }
        samples.append(milliseconds(elapsed))
    }
    samples.sort()
    let median = samples[samples.count / 2]
    print(String(format: "%-58@ min %8.3f ms   median %8.3f ms   (%ld runs, checksum %ld)",
                 label as NSString, samples[0], median, iterations, checksum))
}

func year(_ method: CalculationMethod, _ latitude: Double, _ longitude: Double, _ zone: String,
          madhab: Madhab = .shafi) throws -> () -> Int {
    let calculator = try PrayerCalculator(
        coordinates: Coordinates(latitude: latitude, longitude: longitude), timeZoneIdentifier: zone,
        parameters: method.parameters(madhab: madhab))
    let start = try LocalDate(iso8601: "2026-01-01")
    let end = try LocalDate(iso8601: "2026-12-31")
    return {
        let schedules = calculator.schedules(from: start, through: end)
        return schedules.count + Int(schedules[200].isha.date?.timeIntervalSince1970 ?? 0)
    }
}

print("PrayerTimes benchmark (\(ProcessInfo.processInfo.activeProcessorCount) cores)")
try measure("one year, Makkah, UmmAlQura (Ramadan rule)", iterations: 200,
            year(.ummAlQura, 21.4225, 39.8262, "Asia/Riyadh"))
try measure("one year, London, MoonsightingCommittee/Hanafi", iterations: 200,
            year(.moonsightingCommittee, 51.5074, -0.1278, "Europe/London", madhab: .hanafi))
try measure("one year, Oslo, MuslimWorldLeague", iterations: 200,
            year(.muslimWorldLeague, 59.9139, 10.7522, "Europe/Oslo"))
try measure("one year, New York, NorthAmerica", iterations: 200,
            year(.northAmerica, 40.7128, -74.006, "America/New_York"))

let devPath = CommandLine.arguments.count > 1
    ? CommandLine.arguments[1] : "../../Tests/PrayerTimesTests/Fixtures/dev.json"
if let data = FileManager.default.contents(atPath: devPath),
   case .object(let file) = try JSONDecoder().decode(JSONValue.self, from: data),
   case .array(let records) = file["records"] {
    let keys = ["id", "latitude", "longitude", "timezone", "date", "method", "madhab", "highLatitudeRule"]
    let queries: [JSONValue] = records.map { record in
        guard case .object(let fields) = record else { return record }
        return .object(fields.filter { keys.contains($0.key) })
    }
    let input = try JSONEncoder().encode(queries)
    try measure("--json contract over the dev set (\(queries.count) queries)", iterations: 20) {
        try PrayerTimesJSONContract.answer(input: input).count
    }
} else {
    print("dev set not found at \(devPath); pass its path to measure the JSON contract")
}
