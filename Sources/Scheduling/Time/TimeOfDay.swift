import Foundation

/// A wall-clock reading, hours and minutes, on no particular day and in no particular zone
/// ("07:30"). Turned into an instant only together with a local day and a time zone.
public struct TimeOfDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let hour: Int
    public let minute: Int

    /// Throws ``SchedulingError/invalidTimeOfDay(field:text:)`` for hours outside 0–23 or minutes
    /// outside 0–59; `field` names the input in the message.
    public init(hour: Int, minute: Int = 0, field: String = "time") throws(SchedulingError) {
        guard (0...23).contains(hour), (0...59).contains(minute) else {
            throw .invalidTimeOfDay(field: field, text: "\(hour):\(minute)")
        }
        self.hour = hour
        self.minute = minute
    }

    /// Reads `HH:MM` (24-hour clock, `H:MM` accepted), as an API or a form sends it.
    public init(parsing text: String, field: String = "time") throws(SchedulingError) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy { ("0"..."9").contains($0) } }),
              let hour = Int(parts[0]), let minute = Int(parts[1]),
              (0...23).contains(hour), (0...59).contains(minute)
        else { throw .invalidTimeOfDay(field: field, text: text) }
        self.hour = hour
        self.minute = minute
    }

    /// For readings computed from a clock (`minutes` already 0 … 1439).
    init(uncheckedMinutes minutes: Int) {
        assert((0..<1440).contains(minutes), "not a time of day: \(minutes) min")
        self.hour = minutes / 60
        self.minute = minutes % 60
    }

    /// Minutes since midnight, 0 … 1439.
    public var minutesSinceMidnight: Int { hour * 60 + minute }

    public static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool {
        lhs.minutesSinceMidnight < rhs.minutesSinceMidnight
    }

    /// `HH:MM`.
    public var description: String {
        (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
    }
}

/// `"HH:MM"` in JSON, as forms and the API write it; decoding validates like ``init(parsing:field:)``.
extension TimeOfDay: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do { try self.init(parsing: text) } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
