import Foundation
import ICalendar
import Scheduling

/// "Find a time": when the organizer and the people they invite are all free for a meeting of a
/// given length, near the time they first had in mind.
///
/// The organizer's own busy time counts in full (events, prayers, routines, planned to-dos) with
/// their waking and working hours (`AccountAvailability`), as for a conflict's suggestions. An
/// invited person's busy time counts only when they allow the organizer to see it
/// (`BusyTimeVisibility`, the rule the scheduling Outbox follows). Their blocks are taken without
/// titles or kinds, so a slot's explanation never names what fills another person's day. Someone
/// who is not an account here, or who does not share, is answered the same way (busy time not
/// shown), so the answer says nothing about who has an account.
public struct MeetingTimes: Sendable {
    let store: StoreAccess<any BusyTimeStore & AccountStore & GoalStore>
    let clock: Clock
    let busyTime: AccountBusyTime

    public init(store: any Store, clock: Clock, busyTime: AccountBusyTime = AccountBusyTime()) {
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
        self.busyTime = busyTime
    }

    /// At most this many people are looked up for one search.
    public static let maxAttendees = 50
    /// How many days are searched, the meeting's own day included.
    public static let horizonDays = 7

    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case noAttendees
        /// Not an email address (`attendees[index]`).
        case invalidAttendee(index: Int, value: String)
        case tooManyAttendees(Int)
        /// The meeting's end is not after its start, or it is longer than a day.
        case invalidLength
        case invalidCount(Int)

        public var description: String {
            switch self {
            case .noAttendees: "name at least one person to find a time with"
            case .invalidAttendee(let index, let value): "'attendees[\(index)]' must be an email address such as sara@example.com, not '\(value)'"
            case .tooManyAttendees(let count): "\(count) people is too many for one search (at most \(MeetingTimes.maxAttendees))"
            case .invalidLength: "a meeting must end after it starts and last at most a day"
            case .invalidCount(let count): "\(count) suggestions is out of range (1 to 20)"
            }
        }
    }

    /// One invited person as the organizer may see them.
    public struct Person: Sendable, Equatable {
        public var email: String
        /// False for someone whose busy time is not shown to the organizer (or who has no
        /// account here): their calendar did not count.
        public var busyShown: Bool
        /// Their busy time over the meeting's day(s), merged, without details; empty when not shown.
        public var busy: [TimeRange]

        public init(email: String, busyShown: Bool, busy: [TimeRange]) {
            self.email = email
            self.busyShown = busyShown
            self.busy = busy
        }
    }

    public struct Answer: Sendable {
        public var people: [Person]
        /// Free for the organizer and every person whose busy time is shown, nearest first.
        public var slots: [FreeSlot]
    }

    /// Slots as long as `meeting` around it, for `organizer` and `attendees` (addresses, with or
    /// without `mailto:`). `uid` names the meeting when it exists already: its own instances,
    /// in the organizer's calendar and in each invited person's copy, do not count as busy.
    public func find(organizer: Account, attendees: [String], meeting: TimeRange, uid: String? = nil, count: Int = 5) async throws -> Answer {
        // Addresses read as an invitation reads them (`EventDraft.invite`): a `mailto:` is dropped.
        var emails: [EmailAddress] = []
        for (index, given) in attendees.enumerated() {
            let text = given.trimmingCharacters(in: .whitespaces)
            let bare = text.lowercased().hasPrefix("mailto:") ? String(text.dropFirst(7)) : text
            guard let email = try? EmailAddress(bare) else { throw Problem.invalidAttendee(index: index, value: String(given.prefix(100))) }
            if email != organizer.email, !emails.contains(email) { emails.append(email) }
        }
        guard !emails.isEmpty else { throw Problem.noAttendees }
        guard emails.count <= Self.maxAttendees else { throw Problem.tooManyAttendees(emails.count) }
        guard meeting.duration > 0, meeting.duration <= 86_400 else { throw Problem.invalidLength }
        guard (1...20).contains(count) else { throw Problem.invalidCount(count) }
        let now = clock.now, people = emails
        // The search reads from the meeting's local day for `horizonDays` days; a day either side covers every zone.
        let from = max(now, meeting.start).addingTimeInterval(-86_400)
        let window = try TimeRange(start: from, end: from.addingTimeInterval(Double(Self.horizonDays + 2) * 86_400 + meeting.duration))
        // What the organizer is shown of each person's busy time: half a day either side of the meeting.
        let shown = try TimeRange(start: meeting.start.addingTimeInterval(-43_200), end: meeting.end.addingTimeInterval(43_200))
        return try await store.read { tx in
            let availability = try await AccountAvailability.availability(for: organizer, tx: tx)
            var blocks = try await self.blocks(of: organizer, in: window, leavingOut: uid, tx: tx)
            var answered: [Person] = []
            for email in people {
                guard let account = try await tx.account(email: email), !account.isDisabled,
                      try await tx.busyTimeVisibility(accountID: account.id).allows(organizer.email)
                else {
                    answered.append(Person(email: email.value, busyShown: false, busy: []))
                    continue
                }
                let theirs = try await self.blocks(of: account, in: window, leavingOut: uid, tx: tx).map { block in
                    BusyBlock(block.range, .event(id: "attendee:" + email.value, title: ""))
                }
                blocks += theirs
                let busy = BusyTime(theirs, window: shown).merged.compactMap { range in
                    try? TimeRange(start: max(range.start, shown.start), end: min(range.end, shown.end))
                }
                answered.append(Person(email: email.value, busyShown: true, busy: busy))
            }
            let busy = BusyTime(blocks, window: window)
            let slots = try FreeSlotSearch(availability: availability, count: count, horizonDays: Self.horizonDays)
                .suggestions(for: meeting, busy: busy, now: now)
            return Answer(people: answered, slots: slots)
        }
    }

    /// A person's busy blocks over `window`, leaving out the meeting `uid`'s own instances.
    private func blocks(of account: Account, in window: TimeRange, leavingOut uid: String?, tx: any BusyTimeStore) async throws -> [BusyBlock] {
        let snapshot = try await busyTime.snapshot(account: account, in: window, keepingObjects: uid != nil, tx: tx)
        guard let uid else { return snapshot.blocks }
        return snapshot.blocks.filter { block in
            guard let reference = block.referenceID, let object = snapshot.objects[reference] else { return true }
            return object.uid != uid
        }
    }
}
