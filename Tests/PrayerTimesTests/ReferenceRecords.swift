import Foundation
@testable import PrayerTimes

/// The reference files copied from shared/testdata/prayer (see Fixtures/README.md).
struct ReferenceFile: Decodable {
    let records: [ReferenceRecord]

    static func load(_ name: String) throws -> ReferenceFile {
        guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures") else {
            throw FixtureMissing(name: name)
        }
        return try JSONDecoder().decode(ReferenceFile.self, from: Data(contentsOf: url))
    }

    struct FixtureMissing: Error { let name: String }
}

struct ReferenceRecord: Decodable, Sendable {
    let id: String
    let city: String
    let latitude: Double
    let longitude: Double
    let timezone: String
    let date: String
    let method: String
    let madhab: String
    let highLatitudeRule: String
    let times: [String: String]
    let kind: String
    let toleranceMin: Int
    let ramadan: Bool?
    let edge: Bool?

    /// The query of the JSON contract for this record.
    var query: JSONValue {
        .object([
            "id": .string(id), "latitude": .number(latitude), "longitude": .number(longitude),
            "timezone": .string(timezone), "date": .string(date), "method": .string(method),
            "madhab": .string(madhab), "highLatitudeRule": .string(highLatitudeRule),
        ])
    }

    func calculator() throws -> PrayerCalculator {
        let method = try CalculationMethod(name: method)
        return try PrayerCalculator(
            coordinates: Coordinates(latitude: latitude, longitude: longitude),
            timeZoneIdentifier: timezone,
            parameters: method.parameters(
                madhab: try Madhab(name: madhab), highLatitudeRule: try HighLatitudeRule(name: highLatitudeRule)))
    }
}

/// Parses `2026-03-05T05:22:00+03:00` into the instant and the printed offset in seconds.
enum ISOTime {
    static func parse(_ text: String) -> (date: Date, offset: Int)? {
        let utf8 = Array(text.utf8)
        guard utf8.count == 25 else { return nil }
        func number(_ range: Range<Int>) -> Int? { Int(String(decoding: utf8[range], as: UTF8.self)) }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              let offsetHours = number(20..<22), let offsetMinutes = number(23..<25),
              let localDate = try? LocalDate(year: year, month: month, day: day)
        else { return nil }
        let sign = utf8[19] == UInt8(ascii: "-") ? -1 : 1
        let offset = sign * (offsetHours * 3600 + offsetMinutes * 60)
        let local = localDate.daysSinceEpoch * 86_400 + hour * 3600 + minute * 60 + second
        return (Date(timeIntervalSince1970: Double(local - offset)), offset)
    }
}

/// Minutes between computed and expected times, per prayer, over a set of records.
struct AccuracyReport: CustomStringConvertible {
    var histogram: [Int: Int] = [:]
    var overTolerance: [String] = []
    var wrongOffsets: [String] = []
    var missing: [String] = []
    var compared = 0

    var exact: Int { histogram[0] ?? 0 }
    var maxAbsoluteMinutes: Int { histogram.keys.map(abs).max() ?? 0 }

    mutating func compare(_ record: ReferenceRecord, with schedule: PrayerSchedule) {
        for prayer in Prayer.allCases {
            guard let expectedText = record.times[prayer.rawValue], let expected = ISOTime.parse(expectedText) else {
                missing.append("\(record.id) \(prayer.rawValue): unreadable reference")
                continue
            }
            guard let computed = schedule[prayer].date else {
                missing.append("\(record.id) \(prayer.rawValue): \(schedule[prayer])")
                continue
            }
            compared += 1
            let minutes = Int((computed.timeIntervalSince(expected.date) / 60).rounded())
            histogram[minutes, default: 0] += 1
            if abs(minutes) > record.toleranceMin {
                overTolerance.append("\(record.id) \(prayer.rawValue): \(minutes) min")
            }
            if schedule.timeZone.secondsFromGMT(for: computed) != expected.offset {
                wrongOffsets.append("\(record.id) \(prayer.rawValue)")
            }
        }
    }

    var description: String {
        let spread = histogram.sorted { $0.key < $1.key }.map { "\($0.key >= 0 ? "+" : "")\($0.key): \($0.value)" }
        return "\(compared) times, \(exact) exact, differences {\(spread.joined(separator: ", "))}, "
            + "\(overTolerance.count) over tolerance, \(wrongOffsets.count) wrong offsets, \(missing.count) missing"
    }
}
