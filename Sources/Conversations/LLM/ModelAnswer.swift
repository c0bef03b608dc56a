import Foundation

/// The model's JSON answer, checked before anything is believed: the status is one of the four,
/// times are real local dates and times, a start comes before its end, an agreed event has a
/// start, dates lie near the conversation, titles and places are short text. A prayer-relative
/// start takes its clock time from the user's own timetable, not from the model's arithmetic.
struct ModelAnswer: Decodable {
    struct Event: Decodable {
        var title: String?
        var start: String?
        var end: String?
        var allDay: Bool?
        var location: String?
        var startRelativeTo: String?
    }

    var status: String
    var event: Event?
    var events: [Event]?

    static let maximumTextLength = 200
    static let maximumEvents = 10
    /// How far after the last message a plan may lie: a year and a bit ("same time next year").
    static let maximumDaysAhead = 400
    /// The longest span an event may cover (a trip, a multi-day visit).
    static let maximumDays = 62

    /// The outcome the content describes, or why it cannot be used.
    static func outcome(
        from content: String, messages: [ChatMessage], context: ExtractionContext
    ) throws(LLMFallbackReason) -> ConversationOutcome {
        let answer: ModelAnswer
        do {
            answer = try JSONDecoder().decode(ModelAnswer.self, from: Data(unfenced(content).utf8))
        } catch {
            throw .notTheSchema(describe(error, content: content))
        }
        let sent = ExtractionPrompt.readable(messages).map { LocalDateTime($0.timestamp, in: context.timeZone).midnight }
        let checker = Checker(
            zone: context.timeZone, prayerTimes: context.prayerTimes,
            earliest: sent.min() ?? LocalDateTime(context.now, in: context.timeZone).midnight,
            latest: (sent.max() ?? LocalDateTime(context.now, in: context.timeZone).midnight).adding(days: maximumDaysAhead))
        return try answer.outcome(checker)
    }

    func outcome(_ checker: Checker) throws(LLMFallbackReason) -> ConversationOutcome {
        guard let state = ConversationState(rawValue: status) else {
            throw .invalidAnswer("status \(status.debugDescription) is not one of \(ConversationState.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let others = events ?? []
        guard others.count <= Self.maximumEvents else {
            throw .invalidAnswer("\(others.count) further events; at most \(Self.maximumEvents) are believable")
        }
        if state != .agreed, !others.isEmpty {
            throw .invalidAnswer("further events are listed but the status is \(state.rawValue), not HAS_EVENT_AGREED")
        }
        switch state {
        case .noEvent:
            guard event == nil else { throw .invalidAnswer("status NO_EVENT comes with an event") }
            return ConversationOutcome(state: .noEvent)
        case .proposed, .denied:
            guard let event else { throw .invalidAnswer("status \(state.rawValue) comes without the plan it is about") }
            return ConversationOutcome(state: state, event: try checker.event(event, path: "event"))
        case .agreed:
            guard let event else { throw .invalidAnswer("status HAS_EVENT_AGREED comes without the agreed event") }
            var agreed = [try checker.event(event, path: "event")]
            for (index, other) in others.enumerated() { agreed.append(try checker.event(other, path: "events[\(index)]")) }
            for (index, plan) in agreed.enumerated() where plan.start == nil {
                throw .invalidAnswer("\(index == 0 ? "event" : "events[\(index - 1)]") is agreed but has no start")
            }
            // The contract's rule: the earliest standing event leads, the rest follow.
            agreed.sort { ($0.start ?? .distantPast) < ($1.start ?? .distantPast) }
            return ConversationOutcome(state: .agreed, event: agreed[0], otherEvents: Array(agreed.dropFirst()))
        }
    }

    /// Checks one event against the conversation it came from.
    struct Checker {
        let zone: TimeZone
        let prayerTimes: any PrayerTimetable
        /// The first message's day: a plan is made for a time after it is proposed.
        let earliest: LocalDateTime
        let latest: LocalDateTime

        func event(_ raw: Event, path: String) throws(LLMFallbackReason) -> ExtractedEvent {
            var event = ExtractedEvent(
                title: try text(raw.title, path: "\(path).title"), location: try text(raw.location, path: "\(path).location"))
            guard let allDay = raw.allDay else { throw .invalidAnswer("\(path).allDay is missing") }
            event.allDay = allDay
            let anchor: PrayerAnchor?
            if let name = raw.startRelativeTo {
                guard let prayer = PrayerAnchor(rawValue: name.lowercased()) else {
                    throw .invalidAnswer("\(path).startRelativeTo \(name.debugDescription) is not a prayer (fajr, dhuhr, asr, maghrib, isha)")
                }
                anchor = prayer
            } else {
                anchor = nil
            }
            guard let startText = raw.start else {
                guard raw.end == nil else { throw .invalidAnswer("\(path).end is given without a start") }
                guard anchor == nil else { throw .invalidAnswer("\(path).startRelativeTo is given without a start") }
                // A vague plan ("sometime next week") has no day to fill, whatever the flag says.
                event.allDay = false
                return event
            }
            let start = try time(startText, path: "\(path).start")
            guard start.hasClock != allDay else {
                throw .invalidAnswer(allDay
                    ? "\(path).allDay is true but the start \(startText.debugDescription) has a clock time"
                    : "\(path).allDay is false but the start \(startText.debugDescription) is a date alone")
            }
            guard start.value.midnight >= earliest else {
                throw .invalidAnswer("\(path).start \(startText) is before the conversation began (\(ExtractionPrompt.date(earliest)))")
            }
            guard start.value.midnight <= latest else {
                throw .invalidAnswer("\(path).start \(startText) is more than \(ModelAnswer.maximumDaysAhead) days after the conversation")
            }
            event.start = start.value
            if let anchor {
                guard !allDay else { throw .invalidAnswer("\(path).startRelativeTo is given for an all-day event") }
                event.startRelativeTo = anchor
                // The adhan is the start (labelling rule 9); the model only has to name the day and the prayer.
                if let adhan = prayerTimes.adhan(anchor, on: start.value.midnight) {
                    event.start = start.value.at(hour: adhan.hour, minute: adhan.minute)
                }
            }
            if let endText = raw.end {
                let end = try time(endText, path: "\(path).end")
                guard end.hasClock == start.hasClock else {
                    throw .invalidAnswer("\(path).end \(endText.debugDescription) and the start \(startText.debugDescription) are not both dates or both times")
                }
                if allDay {
                    guard end.value >= start.value else { throw .invalidAnswer("\(path).end \(endText) is before the start \(startText)") }
                    // A last day equal to the first is a single day, which the contract writes as null.
                    event.end = end.value > start.value ? end.value : nil
                } else {
                    guard let eventStart = event.start, end.value > eventStart else {
                        throw .invalidAnswer("\(path).end \(endText) is not after the start \(startText)")
                    }
                    event.end = end.value
                }
                if let last = event.end, last.daysSinceEpoch - start.value.daysSinceEpoch > ModelAnswer.maximumDays {
                    throw .invalidAnswer("\(path) spans more than \(ModelAnswer.maximumDays) days")
                }
            }
            return event
        }

        /// Trimmed text, nil when empty; refused when too long to be a title or a place.
        func text(_ value: String?, path: String) throws(LLMFallbackReason) -> String? {
            guard let value else { return nil }
            let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
            guard trimmed.count <= ModelAnswer.maximumTextLength else {
                throw .invalidAnswer("\(path) is \(trimmed.count) characters long; at most \(ModelAnswer.maximumTextLength) are believable")
            }
            guard !trimmed.contains(where: \.isNewline) else { throw .invalidAnswer("\(path) spans several lines") }
            return trimmed.isEmpty ? nil : trimmed
        }

        /// `YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM` with optional seconds and an optional UTC offset
        /// (`Z`, `+03:00`), which is converted to the conversation's zone.
        func time(_ text: String, path: String) throws(LLMFallbackReason) -> (value: LocalDateTime, hasClock: Bool) {
            guard let parsed = LocalTimeText(text) else {
                throw .invalidAnswer("\(path) \(text.debugDescription) is not a local date (YYYY-MM-DD) or date and time (YYYY-MM-DDTHH:MM)")
            }
            // Seconds say nothing more about a plan.
            guard let offset = parsed.offsetSeconds else { return (parsed.local.at(hour: parsed.local.hour, minute: parsed.local.minute), parsed.hasClock) }
            let instant = Date(timeIntervalSince1970: TimeInterval(parsed.local.secondsSinceEpochAsUTC - offset))
            return (LocalDateTime(instant, in: zone), true)
        }
    }

    /// Models asked for bare JSON still sometimes wrap it in a Markdown code fence.
    static func unfenced(_ content: String) -> String {
        var text = content.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("```"), text.hasSuffix("```"), text.count >= 6 else { return text }
        text = String(text.dropFirst(3).dropLast(3))
        if let newline = text.firstIndex(of: "\n"), text[..<newline].allSatisfy({ $0.isLetter }) {
            text = String(text[text.index(after: newline)...])
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func describe(_ error: any Error, content: String) -> String {
        let problem: String
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            problem = "\(path(context.codingPath + [key])) is missing"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            problem = "\(path(context.codingPath)) has the wrong type"
        default:
            problem = "it is not a JSON object"
        }
        let start = String(content.prefix(120))
        return "\(problem) (\(start.debugDescription)\(content.count > 120 ? "…" : ""))"
    }

    static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingCharacters(in: CharacterSet(charactersIn: "."))
    }
}

/// A time as the model writes it: `YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM[:SS]` with an optional
/// `Z` or `±HH:MM` offset. Nothing else is accepted: not a week number, not a bare time.
struct LocalTimeText {
    var local: LocalDateTime
    var hasClock: Bool
    var offsetSeconds: Int?

    init?(_ text: String) {
        let scalars = Array(text.unicodeScalars)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= scalars.count else { return nil }
            var value = 0
            for index in range {
                // ASCII digits only: the schema asks for them, and other scripts' digits mean a model improvising.
                let code = scalars[index].value
                guard (48...57).contains(code) else { return nil }
                value = value * 10 + Int(code - 48)
            }
            return value
        }
        func character(_ index: Int) -> Character? { index < scalars.count ? Character(scalars[index]) : nil }

        guard let year = number(0..<4), character(4) == "-", let month = number(5..<7), character(7) == "-",
              let day = number(8..<10)
        else { return nil }
        if scalars.count == 10 {
            guard let date = LocalDateTime(year: year, month: month, day: day) else { return nil }
            self.init(local: date, hasClock: false, offsetSeconds: nil)
            return
        }
        guard character(10) == "T" || character(10) == " ", let hour = number(11..<13), character(13) == ":",
              let minute = number(14..<16)
        else { return nil }
        var index = 16
        var second = 0
        if character(index) == ":" {
            guard let value = number(17..<19) else { return nil }
            second = value
            index = 19
            // Fractions of a second say nothing more about a plan.
            if character(index) == "." {
                index += 1
                while let next = character(index), next.isASCII, next.isNumber { index += 1 }
            }
        }
        var offset: Int?
        if character(index) == "Z" {
            offset = 0
            index += 1
        } else if let sign = character(index), sign == "+" || sign == "-" {
            guard let hours = number((index + 1)..<(index + 3)), character(index + 3) == ":",
                  let minutes = number((index + 4)..<(index + 6)), hours <= 18, minutes <= 59
            else { return nil }
            offset = (hours * 3_600 + minutes * 60) * (sign == "-" ? -1 : 1)
            index += 6
        }
        guard index == scalars.count, let time = LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        else { return nil }
        self.init(local: time, hasClock: true, offsetSeconds: offset)
    }

    init(local: LocalDateTime, hasClock: Bool, offsetSeconds: Int?) {
        self.local = local
        self.hasClock = hasClock
        self.offsetSeconds = offsetSeconds
    }
}
