import Foundation

/// One query of the `jadwal prayer-times --json` contract
/// (`Tests/PrayerTimesTests/Fixtures/README.md`, "CLI JSON contract").
public struct PrayerTimesQuery: Sendable, Hashable {
    public var coordinates: Coordinates
    public var timeZone: TimeZone
    public var date: LocalDate
    public var method: CalculationMethod
    public var madhab: Madhab
    public var highLatitudeRule: HighLatitudeRule
    public var adjustments: PrayerAdjustments

    public init(
        coordinates: Coordinates, timeZone: TimeZone, date: LocalDate, method: CalculationMethod,
        madhab: Madhab = .shafi, highLatitudeRule: HighLatitudeRule = .middleOfTheNight,
        adjustments: PrayerAdjustments = .none
    ) {
        self.coordinates = coordinates
        self.timeZone = timeZone
        self.date = date
        self.method = method
        self.madhab = madhab
        self.highLatitudeRule = highLatitudeRule
        self.adjustments = adjustments
    }

    /// Validates one query object. Required: latitude, longitude, timezone, date, method;
    /// madhab (default Shafi), highLatitudeRule (default MiddleOfTheNight) and adjustments
    /// (minutes per prayer, e.g. `{"fajr": 2}`) are optional.
    public init(json fields: [String: JSONValue], timeZones: inout [String: TimeZone]) throws(PrayerTimesError) {
        let latitude = try Self.number(fields, "latitude")
        let longitude = try Self.number(fields, "longitude")
        coordinates = try Coordinates(latitude: latitude, longitude: longitude)
        let zoneName = try Self.string(fields, "timezone")
        if let zone = timeZones[zoneName] {
            timeZone = zone
        } else {
            guard let zone = TimeZone(identifier: zoneName) else { throw .unknownTimeZone(zoneName) }
            timeZones[zoneName] = zone
            timeZone = zone
        }
        date = try LocalDate(iso8601: try Self.string(fields, "date"))
        method = try CalculationMethod(name: try Self.string(fields, "method"))
        madhab = fields["madhab"].flatMap(Self.nonNull) == nil ? .shafi : try Madhab(name: try Self.string(fields, "madhab"))
        highLatitudeRule = fields["highLatitudeRule"].flatMap(Self.nonNull) == nil
            ? .middleOfTheNight : try HighLatitudeRule(name: try Self.string(fields, "highLatitudeRule"))
        adjustments = .none
        if let value = fields["adjustments"].flatMap(Self.nonNull) {
            guard case .object(let minutes) = value else {
                throw .invalidParameter("adjustments must be an object of minutes per prayer")
            }
            for (name, amount) in minutes {
                guard let prayer = Prayer(rawValue: name) else {
                    throw .invalidParameter("adjustments: unknown prayer \"\(name)\"")
                }
                guard case .number(let value) = amount, value.rounded() == value, abs(value) <= 180 else {
                    throw .invalidParameter("adjustments.\(name) must be whole minutes within ±180")
                }
                adjustments[prayer] = Int(value)
            }
        }
    }

    public var parameters: CalculationParameters {
        method.parameters(madhab: madhab, highLatitudeRule: highLatitudeRule, adjustments: adjustments)
    }

    private static func nonNull(_ value: JSONValue) -> JSONValue? {
        if case .null = value { return nil }
        return value
    }

    private static func number(_ fields: [String: JSONValue], _ key: String) throws(PrayerTimesError) -> Double {
        guard let value = fields[key].flatMap(nonNull) else { throw .missingField(key) }
        guard case .number(let number) = value else { throw .invalidParameter("\(key) must be a number") }
        return number
    }

    private static func string(_ fields: [String: JSONValue], _ key: String) throws(PrayerTimesError) -> String {
        guard let value = fields[key].flatMap(nonNull) else { throw .missingField(key) }
        guard case .string(let text) = value else { throw .invalidParameter("\(key) must be a string") }
        return text
    }
}

/// The answer to one query: its times (a prayer that does not exist is null) or an error.
public struct PrayerTimesAnswer: Sendable, Hashable {
    public let id: JSONValue
    /// ISO-8601 local times with offsets, in the order of ``Prayer/allCases``; nil when unavailable.
    public let times: [Prayer: String?]?
    public let error: String?

    /// `{"id":…,"times":{"fajr":…,…,"isha":…}}` or `{"id":…,"error":"…"}`, keys in that order.
    /// Values go through `JSONEncoder`; only the key layout is assembled here, because
    /// Foundation's encoders do not keep key order.
    func json(encoder: JSONEncoder) throws -> String {
        var text = "{\"id\":" + (try Self.encoded(id, encoder))
        if let times {
            text += ",\"times\":{"
            for (index, prayer) in Prayer.allCases.enumerated() {
                text += (index == 0 ? "\"" : ",\"") + prayer.rawValue + "\":"
                // Times are digits, "-", ":", "T" and "+" only (``LocalTimeFormat``): nothing to escape.
                text += (times[prayer] ?? nil).map { "\"" + $0 + "\"" } ?? "null"
            }
            text += "}"
        }
        if let error { text += ",\"error\":" + (try Self.encoded(error, encoder)) }
        return text + "}"
    }

    private static func encoded(_ value: some Encodable, _ encoder: JSONEncoder) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

/// The stdin → stdout JSON contract of `jadwal prayer-times --json`.
public enum PrayerTimesJSONContract {
    /// Why the input as a whole cannot be read (each bad query is answered with its own error instead).
    public struct InputError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Answers a JSON array of queries with a JSON array of the same length and order.
    public static func answer(input: Data) throws(InputError) -> Data {
        let queries: [JSONValue]
        do {
            queries = try JSONDecoder().decode([QueryElement].self, from: input).map(\.value)
        } catch {
            throw InputError(description: "input must be a JSON array of query objects: \(error)")
        }
        let answers = answer(queries: queries)
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.withoutEscapingSlashes]
            let items = try answers.map { try $0.json(encoder: encoder) }
            return Data(("[" + items.joined(separator: ",\n") + "]").utf8)
        } catch {
            throw InputError(description: "could not encode the answers: \(error)")
        }
    }

    public static func answer(queries: [JSONValue]) -> [PrayerTimesAnswer] {
        var timeZones: [String: TimeZone] = [:]
        return queries.map { answer(query: $0, timeZones: &timeZones) }
    }

    static func answer(query: JSONValue, timeZones: inout [String: TimeZone]) -> PrayerTimesAnswer {
        guard case .object(let fields) = query else {
            return PrayerTimesAnswer(id: .null, times: nil, error: "query must be a JSON object")
        }
        let id = fields["id"] ?? .null
        do {
            let parsed = try PrayerTimesQuery(json: fields, timeZones: &timeZones)
            let calculator = PrayerCalculator(
                coordinates: parsed.coordinates, timeZone: parsed.timeZone, parameters: parsed.parameters)
            let schedule = calculator.schedule(for: parsed.date)
            if let polar = schedule.polarCondition {
                return PrayerTimesAnswer(id: id, times: nil, error: "\(polar) on \(parsed.date) at latitude \(parsed.coordinates.latitude)")
            }
            var times: [Prayer: String?] = [:]
            for prayer in Prayer.allCases {
                times[prayer] = schedule[prayer].date.map { LocalTimeFormat.iso8601($0, in: parsed.timeZone) }
            }
            return PrayerTimesAnswer(id: id, times: times, error: nil)
        } catch {
            return PrayerTimesAnswer(id: id, times: nil, error: error.description)
        }
    }
}

/// One element of the input array, decoded with the expected type of each known field tried
/// first, so that well-formed queries decode without a failed attempt.
struct QueryElement: Decodable {
    let value: JSONValue

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    private static let numberFields: Set<String> = ["latitude", "longitude"]
    private static let stringFields: Set<String> = ["id", "timezone", "date", "method", "madhab", "highLatitudeRule"]

    init(from decoder: any Decoder) throws {
        guard let container = try? decoder.container(keyedBy: Key.self) else {
            value = try JSONValue(from: decoder)
            return
        }
        var fields: [String: JSONValue] = [:]
        for key in container.allKeys {
            if Self.numberFields.contains(key.stringValue), let number = try? container.decode(Double.self, forKey: key) {
                fields[key.stringValue] = .number(number)
            } else if Self.stringFields.contains(key.stringValue), let text = try? container.decode(String.self, forKey: key) {
                fields[key.stringValue] = .string(text)
            } else {
                fields[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
            }
        }
        value = .object(fields)
    }
}
