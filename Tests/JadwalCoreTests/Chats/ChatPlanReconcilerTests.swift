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

    static func agreed(_ plans: ExtractedEvent...) -> ConversationOutcome {
        ConversationOutcome(state: .agreed, event: plans.first, otherEvents: Array(plans.dropFirst()))
    }

    /// With the standing events retold and understood as they were agreed.
    func decide(_ links: [ChatEventLink], _ outcome: ConversationOutcome, state: ConversationState = .agreed) -> ChatPlanReconciler.Decision {
        let standing = Self.reconciler.standing(links).map(\.plan.event)
        let retold = standing.isEmpty ? nil : ConversationOutcome(state: .agreed, event: standing.first, otherEvents: Array(standing.dropFirst()))
        return Self.reconciler.decide(previousState: state, previousProposal: links.first?.plan.event, links: links, retold: retold, outcome: outcome)
    }

    @Test("a first agreement creates an event; the same agreement read again does nothing")
    func createOnce() {
        let dinner = Self.plan("Dinner", 22, 20)
        #expect(decide([], Self.agreed(dinner), state: .noEvent).actions == [.create(dinner)])
        #expect(decide([Self.link("a", dinner)], Self.agreed(dinner)).actions.isEmpty)
        let two = decide([], Self.agreed(dinner, Self.plan("Coffee", 25, 10)), state: .noEvent)
        #expect(two.actions.count == 2 && two.state == .agreed)
    }

    @Test("a new agreed time moves the event that is no longer agreed; another plan beside it is a new event")
    func moveOrCreate() {
        let standing = [Self.link("a", Self.plan("Dinner", 22, 20))]
        let later = Self.plan(nil, 22, 21)
        let moved = decide(standing, Self.agreed(later))
        #expect(moved.actions == [.move(uid: "a", to: Self.plan("Dinner", 22, 21))], "the name stays")
        let coffee = Self.plan("Coffee", 24, 10)
        #expect(decide(standing, Self.agreed(Self.plan("Dinner", 22, 20), coffee)).actions == [.create(coffee)])
        // Replaced by something else entirely: the old one is dropped, the new one made.
        #expect(decide(standing, Self.agreed(coffee)).actions == [.create(coffee), .cancel(uid: "a")])
        // Over for more than a day: not retold, not moved; the new plan is new.
        let past = [Self.link("old", Self.plan("Dinner", 10, 20))]
        let next = Self.plan("Dinner", 30, 20)
        #expect(Self.reconciler.standing(past).isEmpty)
        #expect(decide(past, Self.agreed(next)).actions == [.create(next)])
    }

    @Test("an event no longer agreed after a refusal or an agreement is cancelled; unclear readings change nothing")
    func cancel() {
        let dinner = Self.link("a", Self.plan("Dinner", 22, 20))
        let lunch = Self.link("b", Self.plan("Lunch", 24, 13))
        let denied = decide([dinner], ConversationOutcome(state: .denied, event: dinner.plan.event))
        #expect(denied.state == .denied && denied.actions == [.cancel(uid: "a")])
        let one = decide([dinner, lunch], Self.agreed(lunch.plan.event))
        #expect(one.state == .agreed && one.actions == [.cancel(uid: "a")])
        #expect(decide([dinner], ConversationOutcome(state: .noEvent)).actions.isEmpty)
        #expect(decide([dinner], ConversationOutcome(state: .proposed, event: Self.plan("Coffee", 23, 10))).actions.isEmpty)
        // An event the extractor did not understand from the retelling is never taken as dropped.
        let notUnderstood = Self.reconciler.decide(
            previousState: .agreed, previousProposal: nil, links: [dinner], retold: ConversationOutcome(state: .noEvent),
            outcome: ConversationOutcome(state: .denied))
        #expect(notUnderstood.actions.isEmpty)
        // Cancelled and past events are left alone; agreed again, the slot is made again (same UID upstream).
        #expect(decide([Self.link("c", Self.plan("Dinner", 22, 20), status: .cancelled)], ConversationOutcome(state: .denied)).actions.isEmpty)
        let again = Self.plan("Dinner", 22, 20)
        #expect(decide([Self.link("c", again, status: .cancelled)], Self.agreed(again), state: .denied).actions == [.create(again)])
    }

    @Test("small talk keeps a resolved state; date-less agreements stay proposals")
    func openAndQuiet() {
        let vague = ExtractedEvent(title: "Coffee")
        #expect(decide([], ConversationOutcome(state: .noEvent), state: .denied).state == .denied)
        #expect(decide([], ConversationOutcome(state: .noEvent), state: .proposed).state == .noEvent)
        #expect(decide([], ConversationOutcome(state: .agreed, event: vague), state: .noEvent) == .init(state: .proposed, proposal: vague, actions: []))
    }

    @Test("the retelling: full dates, the name unless it reads as a time, just before the messages read")
    func replay() throws {
        #expect(ChatPlanReplay.sentence(Self.plan("Dinner", 22, 20)) == "Dinner on 22 September 2026 at 20:00?")
        #expect(ChatPlanReplay.sentence(ExtractedEvent(title: "عشاء", start: Conversations.LocalDateTime(year: 2027, month: 1, day: 5, hour: 9, minute: 5)))
            == "عشاء on 5 January 2027 at 09:05?")
        #expect(ChatPlanReplay.sentence(Self.plan(nil, 25, 0, allDay: true)) == "Plan on 25 September 2026?")
        #expect(ChatPlanReplay.sentence(Self.plan("Meeting at 5", 25, 17)) == "Plan on 25 September 2026 at 17:00?")
        let first = Self.now
        let messages = ChatPlanReplay(partner: "Sara", me: "Omar").messages(
            for: [Self.link("a", Self.plan("Dinner", 22, 20)), Self.link("b", Self.plan("Lunch", 24, 13))], before: first,
            zone: TimeZone(identifier: "Asia/Riyadh")!)
        #expect(messages.map(\.text) == ["Dinner on 22 September 2026 at 20:00?", "ok", "Lunch on 24 September 2026 at 13:00?", "ok"])
        #expect(messages.map(\.sender) == ["Sara", "Omar", "Sara", "Omar"])
        #expect(messages.map(\.timestamp) == messages.map(\.timestamp).sorted() && messages.last!.timestamp < first)
        #expect(messages[0].localTime.description == "2026-09-21T17:09:20")
    }
}
