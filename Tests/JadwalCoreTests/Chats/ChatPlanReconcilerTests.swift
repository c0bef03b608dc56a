import Conversations
import Foundation
import ICalendar
@testable import JadwalCore
import Testing

@Suite("What a conversation's outcome does to the events it created")
struct ChatPlanReconcilerTests {
    /// 2026-09-21 17:13 in Riyadh.
    static let now = Date(timeIntervalSince1970: 1_790_000_000)
    static let reconciler = ChatPlanReconciler(now: now, zone: ZoneRules(ianaIdentifier: "Asia/Riyadh")!)

    static func plan(_ title: String?, _ day: Int, _ hour: Int, month: Int = 9, allDay: Bool = false) -> ExtractedEvent {
        ExtractedEvent(title: title, start: Conversations.LocalDateTime(year: 2026, month: month, day: day, hour: hour), allDay: allDay)
    }

    static func link(_ uid: String, _ plan: ExtractedEvent, status: ChatEventLink.Status = .active) -> ChatEventLink {
        ChatEventLink(uid: uid, objectName: uid + ".ics", calendarID: UUID(), plan: ChatPlan(plan), status: status, createdAt: now, updatedAt: now)
    }

    func decide(_ state: ConversationState, _ links: [ChatEventLink], _ outcome: ConversationOutcome) -> ChatPlanReconciler.Decision {
        Self.reconciler.decide(previousState: state, previousProposal: links.first?.plan.event, links: links, outcome: outcome)
    }

    func decide(_ outcome: ConversationOutcome) -> ChatPlanReconciler.Decision { decide(.noEvent, [], outcome) }

    @Test("a first agreement creates an event; the same agreement read again does nothing")
    func createOnce() {
        let dinner = Self.plan("Dinner", 22, 20)
        #expect(decide(ConversationOutcome(state: .agreed, event: dinner)).actions == [.create(dinner)])
        let standing = [Self.link("a", dinner)]
        #expect(decide(.agreed, standing, ConversationOutcome(state: .agreed, event: dinner)).actions.isEmpty)
        let two = decide(ConversationOutcome(state: .agreed, event: dinner, otherEvents: [Self.plan("Coffee", 25, 10)]))
        #expect(two.actions.count == 2 && two.state == .agreed)
    }

    @Test("a new agreed time moves the standing event; a different activity is a new event")
    func moveOrCreate() {
        let standing = [Self.link("a", Self.plan("Dinner", 22, 20))]
        let later = Self.plan(nil, 22, 21)
        #expect(decide(.agreed, standing, ConversationOutcome(state: .agreed, event: later)).actions == [.move(uid: "a", to: later)])
        let renamed = Self.plan("dinner", 23, 20)
        #expect(decide(.agreed, standing, ConversationOutcome(state: .agreed, event: renamed)).actions == [.move(uid: "a", to: renamed)])
        let coffee = Self.plan("Coffee", 24, 10)
        #expect(decide(.agreed, standing, ConversationOutcome(state: .agreed, event: coffee)).actions == [.create(coffee)])
        // Over for more than a day: a new plan, not a move of the old one.
        let past = [Self.link("old", Self.plan("Dinner", 10, 20))]
        let next = Self.plan("Dinner", 30, 20)
        #expect(decide(.agreed, past, ConversationOutcome(state: .agreed, event: next)).actions == [.create(next)])
    }

    @Test("a cancellation cancels the upcoming event it is about, and only that")
    func cancel() {
        let dinner = Self.link("a", Self.plan("Dinner", 22, 20))
        let lunch = Self.link("b", Self.plan("Lunch", 24, 13))
        let byDay = decide(.agreed, [dinner, lunch], ConversationOutcome(state: .denied, event: Self.plan(nil, 22, 0, allDay: true)))
        #expect(byDay.state == .denied && byDay.actions == [.cancel(uid: "a")])
        #expect(decide(.agreed, [dinner], ConversationOutcome(state: .denied)).actions == [.cancel(uid: "a")], "the only one")
        #expect(decide(.agreed, [dinner, lunch], ConversationOutcome(state: .denied)).actions.isEmpty, "which one cannot be told")
        // A refused new idea leaves the agreed plan standing.
        let refused = decide(.agreed, [dinner], ConversationOutcome(state: .denied, event: Self.plan("Coffee", 22, 10)))
        #expect(refused.actions.isEmpty && refused.state == .agreed)
        // Past and already cancelled events are left alone.
        let over = decide(.agreed, [Self.link("p", Self.plan("Dinner", 10, 20))], ConversationOutcome(state: .denied))
        #expect(over.actions.isEmpty && over.state == .denied)
        #expect(decide(.denied, [Self.link("c", Self.plan("Dinner", 22, 20), status: .cancelled)], ConversationOutcome(state: .denied)).actions.isEmpty)
        // Agreed again after the cancellation: a new event (with the same slot, the same UID follows).
        let again = Self.plan("Dinner", 22, 20)
        #expect(decide(.denied, [Self.link("c", again, status: .cancelled)], ConversationOutcome(state: .agreed, event: again)).actions == [.create(again)])
    }

    @Test("small talk keeps a resolved state; proposals and date-less agreements stay open")
    func openAndQuiet() {
        let standing = [Self.link("a", Self.plan("Dinner", 22, 20))]
        let quiet = decide(.agreed, standing, ConversationOutcome(state: .noEvent))
        #expect(quiet.state == .agreed && quiet.proposal == standing[0].plan.event && quiet.actions.isEmpty)
        #expect(decide(.proposed, [], ConversationOutcome(state: .noEvent)).state == .noEvent)
        let vague = ExtractedEvent(title: "Coffee")
        #expect(decide(ConversationOutcome(state: .agreed, event: vague)) == .init(state: .proposed, proposal: vague, actions: []))
        #expect(decide(.agreed, standing, ConversationOutcome(state: .proposed, event: vague)).state == .proposed)
    }
}
