import Dispatch
import Foundation
import Synchronization

/// The built-in extractor: offline and deterministic rules for English, Arabic (MSA and Gulf,
/// Levantine, Egyptian everyday forms) and Arabizi. Same input, same answer.
public struct RuleExtractor: ConversationExtractor {
    /// Decides the conversation's state from the rules' reading and the messages' letters; nil:
    /// the rules decide alone. Off by default: the inbox reads a chat beside a standing event with
    /// its agreement retold, and the model, trained on whole chats, reads that as a new proposal
    /// (`ChatInboxTests.secondPlan`). `jadwal extract --status-weights shipped` runs it.
    public var statusModel: StatusModel?
    /// How much more the model must favour its state than the rules' state to overrule them.
    public var statusMargin: Float

    public init(statusModel: StatusModel? = nil, statusMargin: Float = 0) {
        self.statusModel = statusModel
        self.statusMargin = statusMargin
    }

    public func outcome(of messages: [ChatMessage], context: ExtractionContext) async -> ConversationOutcome {
        outcomeNow(of: messages, context: context)
    }

    /// The same answer without suspending: the rules never wait on anything.
    public func outcomeNow(of messages: [ChatMessage], context: ExtractionContext) -> ConversationOutcome {
        let identifier = context.timeZone.identifier
        let prayerTimes = context.prayerTimes
        let reader = MessageReader(
            monthFirst: identifier.hasPrefix("America/") || identifier.hasPrefix("US/"),
            isRamadan: { prayerTimes.isRamadan($0) },
            maghrebi: Self.maghrebZones.contains(identifier)
        )
        var tracker = ConversationTracker()
        var taken: [(sender: String, reading: MessageReading)] = []
        for (message, reading) in zip(messages, Self.readings(of: messages, by: reader, in: context.timeZone)) {
            guard let reading else { continue }
            tracker.take(reading, from: message.sender ?? "")
            if statusModel != nil { taken.append((message.sender ?? "", reading)) }
        }
        let plans = PlanOutcome(plans: tracker.plans, prayerTimes: context.prayerTimes)
        let ruled = plans.outcome
        guard let statusModel else { return ruled }
        let scores = statusModel.scores(StatusFeatures(readings: taken, plans: tracker.plans, ruleState: ruled.state))
        return plans.outcome(as: StatusModel.decide(scores, rules: ruled.state, margin: statusMargin), ruled: ruled)
    }

    /// The status model's input for a conversation, and the rules' state (for the training script).
    func statusFeatures(of messages: [ChatMessage], context: ExtractionContext) -> (rules: ConversationState, features: StatusFeatures) {
        let identifier = context.timeZone.identifier
        let prayerTimes = context.prayerTimes
        let reader = MessageReader(
            monthFirst: identifier.hasPrefix("America/") || identifier.hasPrefix("US/"),
            isRamadan: { prayerTimes.isRamadan($0) },
            maghrebi: Self.maghrebZones.contains(identifier)
        )
        var tracker = ConversationTracker()
        var taken: [(sender: String, reading: MessageReading)] = []
        for (message, reading) in zip(messages, Self.readings(of: messages, by: reader, in: context.timeZone)) {
            guard let reading else { continue }
            tracker.take(reading, from: message.sender ?? "")
            taken.append((message.sender ?? "", reading))
        }
        let ruled = PlanOutcome(plans: tracker.plans, prayerTimes: context.prayerTimes).outcome
        return (ruled.state, StatusFeatures(readings: taken, plans: tracker.plans, ruleState: ruled.state))
    }

    static let maghrebZones: Set<String> = ["Africa/Casablanca", "Africa/El_Aaiun", "Africa/Algiers", "Africa/Tunis", "Africa/Tripoli", "Africa/Nouakchott"]

    /// Conversations at least this long are read on every core.
    static let parallelReadingThreshold = 2_000

    /// What each message says on its own (nil for messages without words), in order. Reading a
    /// message needs nothing from the others, so a long conversation (a whole exported chat) is
    /// read in as many slices as there are cores; only the tracker has to go one by one.
    static func readings(of messages: [ChatMessage], by reader: MessageReader, in zone: TimeZone) -> [MessageReading?] {
        @Sendable func read(_ message: ChatMessage) -> MessageReading? {
            guard message.kind == .text || message.kind == .media, !message.text.isEmpty else { return nil }
            return reader.read(message.text, sentAt: LocalDateTime(message.timestamp, in: zone))
        }
        // Short conversations (nearly all of them) are read in place, without asking for the
        // cores or handing work to other threads.
        guard messages.count >= parallelReadingThreshold else { return messages.map(read) }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        guard cores > 1 else { return messages.map(read) }
        let sliceLength = (messages.count + cores - 1) / cores
        let slices = Mutex([[MessageReading?]](repeating: [], count: cores))
        DispatchQueue.concurrentPerform(iterations: cores) { slice in
            let start = slice * sliceLength
            let end = min(start + sliceLength, messages.count)
            let readings = start < end ? messages[start..<end].map(read) : []
            slices.withLock { $0[slice] = readings }
        }
        return Array(slices.withLock { $0 }.joined())
    }
}

/// Turns the tracker's plans into the conversation's state and events.
struct PlanOutcome {
    let plans: [ConversationTracker.Plan]
    let prayerTimes: any PrayerTimetable

    var outcome: ConversationOutcome {
        let agreed = plans.filter { $0.status == .agreed }.map(event(of:)).sorted { ($0.start ?? .distantPast) < ($1.start ?? .distantPast) }
        if let first = agreed.first {
            return ConversationOutcome(state: .agreed, event: first, otherEvents: Array(agreed.dropFirst()))
        }
        guard let latest = plans.max(by: { $0.touched < $1.touched }) else { return ConversationOutcome(state: .noEvent) }
        let state: ConversationState = latest.status == .open ? .proposed : .denied
        return ConversationOutcome(state: state, event: event(of: latest))
    }

    /// The outcome when the state is decided elsewhere (by the status model): the rules' events
    /// where they fit it, else the latest plan. An agreed state needs a plan with a start.
    func outcome(as state: ConversationState, ruled: ConversationOutcome) -> ConversationOutcome {
        guard state != ruled.state else { return ruled }
        let latest = plans.max(by: { $0.touched < $1.touched }).map(event(of:))
        switch state {
        case .noEvent:
            return ConversationOutcome(state: .noEvent)
        case .agreed:
            guard let event = latest, event.start != nil else { return ruled }
            return ConversationOutcome(state: .agreed, event: event)
        case .proposed, .denied:
            return ConversationOutcome(state: state, event: ruled.state == .noEvent ? nil : latest)
        }
    }

    func event(of plan: ConversationTracker.Plan) -> ExtractedEvent {
        var event = ExtractedEvent(title: title(of: plan), location: plan.details.location)
        guard let day = plan.day else { return event }
        if var clock = plan.details.clock {
            // "court booked 7 to 8am", "from 5 to 7pm": the end's half of the day is the start's too.
            if clock.isPM == nil, !clock.isTwentyFourHour, let end = plan.details.endClock, let endIsPM = end.isPM,
               !end.isTwentyFourHour, clock.hour % 12 < end.hour % 12 {
                clock.isPM = endIsPM
            }
            var hour = ClockReading.hour(of: clock, partOfDay: plan.details.partOfDay, prayer: plan.details.prayerAsPartOfDay, bias: plan.details.activity?.bias ?? .none)
            // "Saturday from 9 to 1", "10 to 1 then": a range that runs past twelve into the
            // afternoon starts in the morning, unless the evening was said or the plan is an evening one.
            if let end = plan.details.endClock, clock.isPM == nil, !clock.isTwentyFourHour, end.isPM == nil, !end.isTwentyFourHour,
               (7...11).contains(clock.hour), (1...6).contains(end.hour), plan.details.partOfDay == nil, plan.details.prayerAsPartOfDay == nil,
               plan.details.activity.map({ $0.bias == .evening || $0.bias == .smallHours }) != true {
                hour = clock.hour
            }
            // "Tonight at 1am", suhoor "tonight at 2": after midnight, so the next day.
            let start = day.adding(days: plan.details.partOfDay == .night && hour < 5 ? 1 : 0).at(hour: hour, minute: clock.minute)
            event.start = start
            if let endClock = plan.details.endClock {
                let endHour = ClockReading.endHour(of: endClock, startHour: hour)
                var end = day.at(hour: endHour, minute: endClock.minute)
                if end <= start { end = end.adding(days: 1) }
                event.end = end
            } else if let minutes = plan.details.durationMinutes {
                event.end = start.adding(minutes: minutes)
            }
        } else if let anchor = plan.details.anchor, let adhan = prayerTimes.adhan(anchor, on: day) {
            event.start = day.at(hour: adhan.hour, minute: adhan.minute)
            event.startRelativeTo = anchor
            if let minutes = plan.details.durationMinutes, let start = event.start { event.end = start.adding(minutes: minutes) }
        } else {
            event.start = day
            event.allDay = true
            if let last = plan.details.lastDay, last > day { event.end = last }
        }
        return event
    }

    private func title(of plan: ConversationTracker.Plan) -> String? {
        guard let activity = plan.details.activity else { return plan.details.location }
        let name = plan.isArabic ? activity.arabic : activity.english
        // A generic word ("outing", طلعة) says more with the place: "Boulevard outing", "طلعة البوليفارد".
        if activity.weight <= 1, let place = plan.details.location {
            return plan.isArabic ? "\(name) \(place)" : "\(place) \(name.lowercased())"
        }
        return name
    }
}

extension LocalDateTime {
    static let distantPast = LocalDateTime(daysSinceEpoch: -1_000_000)
}

/// Which half of the day a spoken clock time falls in (extraction rule 8).
enum ClockReading {
    static func hour(of clock: SpokenClock, partOfDay: PartOfDay?, prayer: PrayerAnchor?, bias: Activity.Bias) -> Int {
        if clock.isTwentyFourHour { return clock.hour % 24 }
        let hour = clock.hour % 12
        if let isPM = clock.isPM { return isPM ? hour + 12 : hour }
        if partOfDay == .morning || prayer == .fajr { return clock.hour == 12 ? 12 : hour }
        if bias == .smallHours { return clock.hour <= 5 ? hour : (clock.hour == 12 ? 0 : hour + 12) }
        if partOfDay == .night, clock.hour == 12 { return 0 }
        if partOfDay != nil || prayer != nil { return clock.hour == 12 ? 12 : hour + 12 }
        if clock.hour == 12 { return 12 }
        if (1...6).contains(clock.hour) { return hour + 12 }
        switch bias {
        case .morning: return hour
        case .evening, .smallHours: return hour + 12
        // "quarter to 10", "9:45": from twenty to the hour the time is read by the hour it comes to,
        // so a time just before ten keeps ten's morning.
        case .none: return clock.hour <= 9 && !(clock.hour == 9 && clock.minute >= 40) ? hour + 12 : hour
        }
    }

    /// The end of a range follows its start: "from 5 to 7" pm is 17-19, "9 till 1" crosses midnight.
    static func endHour(of clock: SpokenClock, startHour: Int) -> Int {
        if clock.isTwentyFourHour { return clock.hour % 24 }
        let hour = clock.hour % 12
        if let isPM = clock.isPM { return isPM ? hour + 12 : hour }
        if startHour >= 12 { return hour + 12 > startHour ? hour + 12 : hour }
        return hour > startHour ? hour : hour + 12
    }
}
