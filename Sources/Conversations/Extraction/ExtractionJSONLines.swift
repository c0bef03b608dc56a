import Foundation

/// The `jadwal extract --jsonl` contract (testdata/chats/README.md §2): one conversation per input
/// line, one prediction per output line, in order; a line that cannot be read still gets an answer.
public struct ExtractionJSONLines: Sendable {
    /// Whether a date is in Ramadan; the items carry a fixed daily prayer schedule but no calendar.
    public var isRamadan: @Sendable (LocalDateTime) -> Bool
    public var extractor: RuleExtractor

    public init(extractor: RuleExtractor = RuleExtractor(), isRamadan: @escaping @Sendable (LocalDateTime) -> Bool) {
        self.extractor = extractor
        self.isRamadan = isRamadan
    }

    /// The prediction line for one input line (without the newline), by the rules.
    public func predict(line: String) -> String {
        switch read(line: line) {
        case .conversation(let item): prediction(for: item, outcome: extractor.outcomeNow(of: item.messages, context: item.context))
        case .unreadable(let answer): answer
        }
    }

    /// One input line: the conversation to read, or the finished answer for a line that cannot be read.
    public enum Line: Sendable {
        case conversation(Conversation)
        case unreadable(prediction: String)
    }

    /// An input line's conversation, ready for an extractor.
    public struct Conversation: Sendable {
        let id: JSONID
        public let messages: [ChatMessage]
        public let context: ExtractionContext

        /// The item's id as text, for logs.
        public var idText: String {
            switch id {
            case .string(let text): text
            case .number(let number): number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
            case .null: "null"
            }
        }
    }

    public func read(line: String) -> Line {
        let data = Data(line.utf8)
        let id = (try? JSONDecoder().decode(ItemID.self, from: data))?.id
        do {
            let item = try JSONDecoder().decode(Item.self, from: data)
            return .conversation(Conversation(id: item.id, messages: try item.chatMessages(), context: try item.context(isRamadan: isRamadan)))
        } catch {
            return .unreadable(prediction: Self.encode(Prediction(id: id ?? .null, outcome: ConversationOutcome(state: .noEvent), error: Self.describe(error))))
        }
    }

    /// The prediction line for a conversation's outcome.
    public func prediction(for conversation: Conversation, outcome: ConversationOutcome) -> String {
        Self.encode(Prediction(id: conversation.id, outcome: outcome, error: nil))
    }

    private static func describe(_ error: Error) -> String {
        switch error {
        case let error as ExtractionItemError: return error.message
        case DecodingError.keyNotFound(let key, let context):
            return "missing field \(path(context.codingPath + [key]))"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "wrong type at \(path(context.codingPath))"
        case DecodingError.dataCorrupted(let context):
            return context.codingPath.isEmpty ? "the line is not JSON" : "unreadable value at \(path(context.codingPath))"
        default: return "\(error)"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingCharacters(in: CharacterSet(charactersIn: "."))
    }

    private static func encode(_ prediction: Prediction) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(prediction), let text = String(data: data, encoding: .utf8) else {
            return #"{"id":null,"status":"NO_EVENT","event":null,"error":"could not encode the prediction"}"#
        }
        return text
    }

    // MARK: input

    private struct ItemID: Decodable {
        var id: JSONID
    }

    private struct Item: Decodable {
        struct Message: Decodable {
            var sender: String
            var time: String
            var text: String
        }

        struct Prayers: Decodable {
            var fajr: String
            var dhuhr: String
            var asr: String
            var maghrib: String
            var isha: String
        }

        var id: JSONID
        var now: String
        var timezone: String
        var messages: [Message]
        var prayerTimes: Prayers?

        func chatMessages() throws(ExtractionItemError) -> [ChatMessage] {
            guard let zone = TimeZone(identifier: timezone) else { throw ExtractionItemError("unknown time zone \"\(timezone)\"") }
            var result: [ChatMessage] = []
            for (index, message) in messages.enumerated() {
                guard let instant = ExtractionJSONLines.instant(message.time) else {
                    throw ExtractionItemError("messages[\(index)].time is not ISO-8601 with an offset: \"\(message.time)\"")
                }
                result.append(ChatMessage(sender: message.sender, timestamp: instant, timeZone: zone, body: message.text))
            }
            return result
        }

        func context(isRamadan: @escaping @Sendable (LocalDateTime) -> Bool) throws(ExtractionItemError) -> ExtractionContext {
            guard let zone = TimeZone(identifier: timezone) else { throw ExtractionItemError("unknown time zone \"\(timezone)\"") }
            guard let instant = ExtractionJSONLines.instant(now) else { throw ExtractionItemError("now is not ISO-8601 with an offset") }
            var times: [PrayerAnchor: (Int, Int)] = [:]
            if let prayerTimes {
                for (anchor, text) in [(PrayerAnchor.fajr, prayerTimes.fajr), (.dhuhr, prayerTimes.dhuhr), (.asr, prayerTimes.asr),
                                       (.maghrib, prayerTimes.maghrib), (.isha, prayerTimes.isha)] {
                    let parts = text.split(separator: ":")
                    guard parts.count >= 2, let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute)
                    else { throw ExtractionItemError("prayerTimes.\(anchor.rawValue) is not HH:MM") }
                    times[anchor] = (hour, minute)
                }
            }
            return ExtractionContext(timeZone: zone, now: instant, prayerTimes: FixedPrayerTimetable(times: times, isRamadan: isRamadan))
        }
    }

    static func instant(_ text: String) -> Date? {
        try? Date(text, strategy: .iso8601)
    }

    // MARK: output

    private struct Prediction: Encodable {
        var id: JSONID
        var outcome: ConversationOutcome
        var error: String?

        enum CodingKeys: String, CodingKey { case id, status, event, events, error }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(outcome.state.rawValue, forKey: .status)
            if let event = outcome.event {
                try container.encode(EventJSON(event), forKey: .event)
            } else {
                try container.encodeNil(forKey: .event)
            }
            try container.encode(outcome.otherEvents.map(EventJSON.init), forKey: .events)
            if let error { try container.encode(error, forKey: .error) }
        }
    }

    private struct EventJSON: Encodable {
        var event: ExtractedEvent
        init(_ event: ExtractedEvent) { self.event = event }

        enum CodingKeys: String, CodingKey { case title, start, end, allDay, location, startRelativeTo }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(event.title, forKey: .title)
            try container.encode(event.start.map { Self.format($0, allDay: event.allDay) }, forKey: .start)
            try container.encode(event.end.map { Self.format($0, allDay: event.allDay) }, forKey: .end)
            try container.encode(event.allDay, forKey: .allDay)
            try container.encode(event.location, forKey: .location)
            try container.encodeIfPresent(event.startRelativeTo?.rawValue, forKey: .startRelativeTo)
        }

        /// `YYYY-MM-DD` for all-day, `YYYY-MM-DDTHH:MM` otherwise.
        static func format(_ time: LocalDateTime, allDay: Bool) -> String {
            let text = time.description
            return String(text.prefix(allDay ? 10 : 16))
        }
    }
}

/// An item's `id`: kept as given, string or number.
enum JSONID: Codable, Sendable {
    case string(String)
    case number(Double)
    case null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else {
            self = .null
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let text): try container.encode(text)
        case .number(let number):
            if number == number.rounded(), abs(number) < 1e15 { try container.encode(Int(number)) } else { try container.encode(number) }
        case .null: try container.encodeNil()
        }
    }
}

struct ExtractionItemError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

/// One prayer schedule for every day (the contract's items carry a fixed daily schedule).
public struct FixedPrayerTimetable: PrayerTimetable {
    var times: [PrayerAnchor: (Int, Int)]
    var ramadan: @Sendable (LocalDateTime) -> Bool

    public init(times: [PrayerAnchor: (hour: Int, minute: Int)], isRamadan: @escaping @Sendable (LocalDateTime) -> Bool) {
        self.times = times.mapValues { ($0.hour, $0.minute) }
        self.ramadan = isRamadan
    }

    public func adhan(_ prayer: PrayerAnchor, on day: LocalDateTime) -> (hour: Int, minute: Int)? {
        times[prayer].map { (hour: $0.0, minute: $0.1) }
    }

    public func isRamadan(_ day: LocalDateTime) -> Bool { ramadan(day) }
}
