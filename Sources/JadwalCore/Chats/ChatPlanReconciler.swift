import Conversations
import Foundation
import ICalendar

/// Decides what a conversation's new outcome means for the events Jadwal already created from it.
///
/// The extractor reads only the messages whose text Jadwal still holds: everything, while the
/// conversation is open, but only what was said since, once it was resolved (the text of a
/// resolved conversation is deleted). So a later "sorry, have to cancel tomorrow" arrives on its
/// own, and is matched here against the events that stand:
/// - agreed on a plan that is already on the calendar: nothing to do (details refreshed);
/// - agreed on a new time while one upcoming event with a compatible title stands: it moved;
/// - agreed on anything else: a new event;
/// - denied: the upcoming event it is about (same day, compatible title; or the only one) is cancelled.
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

    public func decide(
        previousState: ConversationState, previousProposal: ExtractedEvent?, links: [ChatEventLink], outcome: ConversationOutcome
    ) -> Decision {
        let standing = links.filter { $0.status == .active }
        let upcoming = standing.filter { isUpcoming($0.plan.event) }
        let agreed = outcome.state == .agreed ? outcome.agreedEvents.filter { $0.start != nil } : []

        switch outcome.state {
        case .noEvent:
            // Small talk after a resolved plan changes nothing; an open conversation that went
            // quiet (its text expired) has no plan any more.
            if previousState.isResolved { return Decision(state: previousState, proposal: previousProposal, actions: []) }
            return Decision(state: .noEvent, proposal: nil, actions: [])

        case .proposed:
            return Decision(state: .proposed, proposal: outcome.event, actions: [])

        case .agreed where agreed.isEmpty:
            // An agreement without a date is agreement in principle: still a proposal.
            return Decision(state: .proposed, proposal: outcome.event, actions: [])

        case .agreed:
            var unmatched = standing
            var fresh: [ExtractedEvent] = []
            var actions: [Action] = []
            for plan in agreed {
                if let index = unmatched.firstIndex(where: { Self.sameSlot($0.plan.event, plan) }) {
                    let link = unmatched.remove(at: index)
                    if ChatPlan(plan) != link.plan { actions.append(.move(uid: link.uid, to: plan)) }
                } else {
                    fresh.append(plan)
                }
            }
            for plan in fresh {
                let movable = unmatched.enumerated().filter { isUpcoming($0.element.plan.event) && Self.compatibleTitles($0.element.plan.title, plan.title) }
                if movable.count == 1, let only = movable.first {
                    unmatched.remove(at: only.offset)
                    actions.append(.move(uid: only.element.uid, to: plan))
                } else {
                    actions.append(.create(plan))
                }
            }
            return Decision(state: .agreed, proposal: outcome.event, actions: actions)

        case .denied:
            let refused = outcome.event
            var targets = upcoming.filter { Self.compatibleTitles($0.plan.title, refused?.title) }
            if let day = refused?.start {
                targets = targets.filter { link in link.plan.event.start.map { Self.sameDay($0, day) } ?? false }
            } else if targets.count > 1 {
                targets = []  // which one is meant cannot be told
            }
            let cancelled = Set(targets.map(\.uid))
            if cancelled.isEmpty, !upcoming.isEmpty {
                // A refused new idea; the agreed plan still stands.
                return Decision(state: .agreed, proposal: previousState == .agreed ? previousProposal : upcoming.first?.plan.event, actions: [])
            }
            let proposal = refused ?? targets.first?.plan.event
            return Decision(state: .denied, proposal: proposal, actions: targets.map { .cancel(uid: $0.uid) })
        }
    }

    /// Not over yet (started less than a day ago, or later).
    func isUpcoming(_ plan: ExtractedEvent) -> Bool {
        guard let start = plan.start else { return false }
        let local = ICalendar.LocalDateTime(year: start.year, month: start.month, day: start.day, hour: plan.allDay ? 0 : start.hour, minute: plan.allDay ? 0 : start.minute)
        let instant = Date(timeIntervalSince1970: TimeInterval(zone.utcSeconds(for: local)))
        return instant > now - Self.pastGrace
    }

    static func sameSlot(_ a: ExtractedEvent, _ b: ExtractedEvent) -> Bool {
        guard let first = a.start, let second = b.start, a.allDay == b.allDay else { return false }
        return a.allDay ? sameDay(first, second) : first == second
    }

    static func sameDay(_ a: Conversations.LocalDateTime, _ b: Conversations.LocalDateTime) -> Bool {
        a.year == b.year && a.month == b.month && a.day == b.day
    }

    /// Titles that could name the same plan: equal when folded, or one of them unknown.
    static func compatibleTitles(_ a: String?, _ b: String?) -> Bool {
        guard let a, let b else { return true }
        let fold = { (text: String) in text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .trimmingCharacters(in: .whitespacesAndNewlines) }
        return fold(a) == fold(b)
    }
}
