import Conversations
import Foundation
import ICalendar

/// Decides what a conversation's new outcome means for the events Jadwal already created from it.
///
/// The text of a resolved conversation is deleted, so when it goes on ("sorry, have to cancel
/// tomorrow") the extractor would read the new messages without the plan they are about. The
/// events that still stand are therefore told to it first, as the plan they were agreed as
/// (`ChatPlanReplay`), and the outcome is compared with what the extractor reads from that
/// retelling alone:
/// - a standing event whose time is still agreed: nothing to do;
/// - an agreed time that matches no event: it moved, when exactly one event that is no longer
///   agreed has a compatible title; else a new event;
/// - an event the extractor understood from the retelling but no longer counts as agreed, after
///   an agreement or a refusal: cancelled.
/// Events that are over, cancelled or deleted are not retold and never touched.
public struct ChatPlanReconciler: Sendable {
    public enum Action: Sendable, Hashable {
        case create(ExtractedEvent)
        case move(uid: String, to: ExtractedEvent)
        case cancel(uid: String)
    }

    public struct Decision: Sendable, Hashable {
        public var state: ConversationState
        public var proposal: ExtractedEvent?
        public var actions: [Action]
    }

    /// Events that started longer ago than this are over: a chat no longer moves or cancels them.
    static let pastGrace: TimeInterval = 24 * 3600

    let now: Date
    let zone: ZoneRules

    public init(now: Date, zone: ZoneRules) {
        self.now = now
        self.zone = zone
    }

    /// The events a conversation can still change, earliest first: active and not over. These
    /// are retold to the extractor before the new messages.
    public func standing(_ links: [ChatEventLink]) -> [ChatEventLink] {
        links.filter { $0.status == .active && isUpcoming($0.plan.event) }
            .sorted { ($0.plan.event.start?.secondsSinceEpochAsUTC ?? 0) < ($1.plan.event.start?.secondsSinceEpochAsUTC ?? 0) }
    }

    /// - Parameters:
    ///   - retold: what the extractor reads from the retelling of the standing events alone
    ///     (nil when none stand): only events it understood there can be found cancelled.
    ///   - outcome: what it reads from the retelling followed by the messages whose text is held.
    public func decide(
        previousState: ConversationState, previousProposal: ExtractedEvent?, links: [ChatEventLink], retold: ConversationOutcome?,
        outcome: ConversationOutcome
    ) -> Decision {
        let standing = self.standing(links)
        let understood = standing.filter { link in (retold?.agreedEvents ?? []).contains { Self.sameSlot($0, link.plan.event) } }
        let agreed = outcome.state == .agreed ? outcome.agreedEvents.filter { $0.start != nil } : []

        var gone = understood
        var fresh: [ExtractedEvent] = []
        for plan in agreed {
            if let index = gone.firstIndex(where: { Self.sameSlot($0.plan.event, plan) }) {
                gone.remove(at: index)
            } else if !links.contains(where: { $0.status == .active && Self.sameSlot($0.plan.event, plan) }) {
                fresh.append(plan)
            }
        }
        var actions: [Action] = []
        for plan in fresh {
            let movable = gone.enumerated().filter { Self.compatibleTitles($0.element.plan.title, plan.title) }
            if movable.count == 1, let only = movable.first {
                gone.remove(at: only.offset)
                actions.append(.move(uid: only.element.uid, to: Self.moved(only.element.plan.event, to: plan)))
            } else {
                actions.append(.create(plan))
            }
        }
        // Only a reading that settles the conversation drops an event; an unclear one leaves it.
        if outcome.state == .agreed || outcome.state == .denied {
            actions += gone.map { .cancel(uid: $0.uid) }
        }

        switch outcome.state {
        case .noEvent where previousState.isResolved:
            // Small talk after a settled plan changes nothing.
            return Decision(state: previousState, proposal: previousProposal, actions: actions)
        case .agreed where agreed.isEmpty:
            // An agreement without a date is agreement in principle: still a proposal.
            return Decision(state: .proposed, proposal: outcome.event, actions: actions)
        default:
            return Decision(state: outcome.state, proposal: outcome.event, actions: actions)
        }
    }

    /// A moved event keeps its name unless it had none; a place said with the new time replaces the old one.
    static func moved(_ old: ExtractedEvent, to new: ExtractedEvent) -> ExtractedEvent {
        var plan = new
        plan.title = old.title ?? new.title
        plan.location = new.location ?? old.location
        return plan
    }

    /// Not over yet (started less than a day ago, or later).
    func isUpcoming(_ plan: ExtractedEvent) -> Bool {
        guard let start = plan.start else { return false }
        let local = ICalendar.LocalDateTime(
            year: start.year, month: start.month, day: start.day, hour: plan.allDay ? 0 : start.hour, minute: plan.allDay ? 0 : start.minute)
        let instant = Date(timeIntervalSince1970: TimeInterval(zone.utcSeconds(for: local)))
        return instant > now - Self.pastGrace
    }

    /// The same time: the same day for all-day plans, the same minute otherwise.
    static func sameSlot(_ a: ExtractedEvent, _ b: ExtractedEvent) -> Bool {
        guard let first = a.start, let second = b.start, a.allDay == b.allDay else { return false }
        if a.allDay { return first.year == second.year && first.month == second.month && first.day == second.day }
        return first.year == second.year && first.month == second.month && first.day == second.day
            && first.hour == second.hour && first.minute == second.minute
    }

    /// Titles that could name the same plan: equal when folded, or one of them unknown.
    static func compatibleTitles(_ a: String?, _ b: String?) -> Bool {
        guard let a, let b else { return true }
        let fold = { (text: String) in
            text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return fold(a) == fold(b)
    }
}

/// The standing events of a conversation retold as the two messages that would agree on them —
/// "Dinner on 22 September 2026 at 20:00?" from the other side, "ok" from the owner — placed just
/// before the messages being read. Dates are written out in full, so the retelling means the same
/// whenever it is read.
public struct ChatPlanReplay: Sendable {
    public let partner: String
    public let me: String

    public init(partner: String, me: String) {
        self.partner = partner
        self.me = me
    }

    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]

    /// The retelling of `links`, its last message a minute before `before`.
    public func messages(for links: [ChatEventLink], before: Date, zone: TimeZone) -> [ChatMessage] {
        let plans = links.map(\.plan.event).filter { $0.start != nil }
        var messages: [ChatMessage] = []
        var calendar = Foundation.Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        for (index, plan) in plans.enumerated() {
            let offset = TimeInterval((plans.count - index) * 2 * 60)
            for (step, (sender, text)) in [(partner, Self.sentence(plan)), (me, "ok")].enumerated() {
                let sentAt = before - offset + TimeInterval(step * 60)
                guard let local = ChatInbox.localTime(sentAt, calendar: calendar) else { continue }
                messages.append(ChatMessage(sender: sender, localTime: local, timestamp: sentAt, kind: .text, text: text))
            }
        }
        return messages
    }

    /// "Dinner on 22 September 2026 at 20:00?", "Plan on 25 September 2026?".
    static func sentence(_ plan: ExtractedEvent) -> String {
        guard let start = plan.start else { return "" }
        var text = "\(title(plan.title)) on \(start.day) \(months[start.month - 1]) \(start.year)"
        if !plan.allDay { text += " at \(start.hour < 10 ? "0" : "")\(start.hour):\(start.minute < 10 ? "0" : "")\(start.minute)" }
        return text + "?"
    }

    /// The plan's name, when it cannot be read as a time or date itself.
    static func title(_ title: String?) -> String {
        guard let title = title?.trimmingCharacters(in: .whitespacesAndNewlines), !title.isEmpty,
              !title.unicodeScalars.contains(where: { CharacterSet.decimalDigits.contains($0) || $0 == "?" })
        else { return "Plan" }
        return title
    }
}
