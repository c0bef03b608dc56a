import Foundation
import ICalendar
import Scheduling

/// What the person does about a conflict: keep both, move the event to another slot, or cancel
/// it. Moves and cancellations go through `CalendarWrites`, so phones see them on their next sync;
/// a conflict whose event changed since it was found is refused, never overwritten. When the
/// event is someone else's meeting (an invitation), it is not the person's to move or cancel:
/// they decline it, or propose another time to its organizer.
public struct ConflictResolution: Sendable {
    public enum Action: Sendable, Hashable {
        case keep
        case move(TimeRange)
        case cancel
        /// Decline the invitation (cancelling an invitation means this too).
        case decline
        /// Propose this time to the organizer (iTIP COUNTER); the meeting moves only if they accept.
        case propose(TimeRange)
    }

    public enum Refusal: Error, Sendable, Equatable {
        case notFound
        case alreadyResolved(EventConflict)
        /// The event was edited, moved or deleted since the conflict was found (`currentETag`
        /// nil: it is gone).
        case eventChanged(EventConflict, currentETag: String?)
        /// The chosen slot runs into these.
        case slotTaken([EventConflict.Overlap])
        /// An all-day event (moved by changing its date, not into a timed slot), or an event or
        /// instance that cannot be read.
        case cannotMove(reason: String)
        /// A move of someone else's meeting: propose the time instead.
        case notYourMeeting
        /// Declining or proposing a time for an event that is not an invitation.
        case notAnInvitation
    }

    let store: StoreAccess<any CalendarWriteStore & CalendarShareStore & TrackerStore>
    public let clock: Clock
    let random: RandomSource
    let writes: CalendarWrites
    let busyTime: AccountBusyTime

    public init(store: any Store, clock: Clock, random: RandomSource, busyTime: AccountBusyTime = AccountBusyTime()) {
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
        self.random = random
        writes = CalendarWrites(store: store, clock: clock, random: random)
        self.busyTime = busyTime
    }

    public func resolve(id: UUID, accountID: UUID, action: Action) async throws -> EventConflict {
        let now = clock.now
        return try await store.transaction { tx in
            guard var conflict = try await tx.conflict(id: id, accountID: accountID) else { throw Refusal.notFound }
            guard conflict.status == .open else { throw Refusal.alreadyResolved(conflict) }
            let object = try await tx.calendarObject(calendarID: conflict.event.calendarID, name: conflict.event.objectName)
            guard let object, object.etag == conflict.event.etag,
                  let calendar = try await tx.calendar(id: conflict.event.calendarID), calendar.accountID == accountID
            else { throw Refusal.eventChanged(conflict, currentETag: object?.etag) }
            guard let account = try await tx.account(id: accountID) else { throw Refusal.notFound }
            let addresses = CalendarUsers.addresses(of: account)
            let parsed = SchedulingObject.mayBeScheduling(object.icalendar) ? try? ICalendarParser().parseCalendar(object.icalendar) : nil
            let invitation = parsed.flatMap { SchedulingObject.role(of: $0, ownerAddresses: addresses) == .attendee ? $0 : nil }

            switch action {
            case .keep:
                conflict.status = .kept
            case .cancel where invitation != nil, .decline:
                guard var declined = invitation else { throw Refusal.notAnInvitation }
                ITIP.setParticipation(.declined, of: addresses, in: &declined)
                _ = try await writes.put(
                    try CalendarObjectContent(text: declined.serialized), name: object.name, in: calendar, ifMatch: object.etag, source: .api, transaction: tx)
                conflict.status = .declined
            case .move where invitation != nil:
                throw Refusal.notYourMeeting
            case .propose(let slot):
                guard let invitation else { throw Refusal.notAnInvitation }
                let reference = EventOccurrence.reference(calendarID: calendar.id, objectName: object.name)
                let busy = BusyTime(try await busyTime.blocks(account: account, in: slot, tx: tx), window: slot)
                let overlaps = busy.overlaps(with: slot, excluding: reference)
                guard overlaps.isEmpty else { throw Refusal.slotTaken(overlaps.map(ConflictCheck.overlap)) }
                guard let organizer = ITIP.items(of: invitation).first?.first("ORGANIZER"),
                      let host = try await CalendarUsers.account(at: CalendarUserAddress(organizer.value), tx: tx),
                      let row = try await tx.invitations(organizerID: host.id, uid: object.uid).first(where: { $0.isFor(account) })
                else { throw Refusal.cannotMove(reason: "this meeting's organizer is not on this server; answer it in your calendar app") }
                _ = try await Invitations(store: store.store, clock: clock, random: random)
                    .propose(row, by: account, start: slot.start, end: slot.end, comment: "", now: now, tx: tx)
                conflict.status = .proposed
            case .cancel:
                if let recurrenceID = conflict.event.recurrenceID {
                    let text = try Self.excluding(recurrenceID, from: object, now: now)
                    _ = try await writes.put(
                        try CalendarObjectContent(text: text), name: object.name, in: calendar, ifMatch: object.etag, source: .api, transaction: tx)
                } else {
                    try await writes.delete(name: object.name, in: calendar, ifMatch: object.etag, source: .api, transaction: tx)
                }
                conflict.status = .cancelled
            case .move(let slot):
                let reference = EventOccurrence.reference(calendarID: calendar.id, objectName: object.name)
                let busy = BusyTime(try await busyTime.blocks(account: account, in: slot, tx: tx), window: slot)
                let overlaps = busy.overlaps(with: slot, excluding: reference)
                guard overlaps.isEmpty else { throw Refusal.slotTaken(overlaps.map(ConflictCheck.overlap)) }
                let zone = calendar.timeZone ?? account.timeZone
                let text = try conflict.event.recurrenceID.map { try Self.moved(instance: $0, of: object, to: slot, floatingZone: zone, now: now) }
                    ?? Self.moved(object, to: slot, floatingZone: zone, now: now)
                _ = try await writes.put(
                    try CalendarObjectContent(text: text), name: object.name, in: calendar, ifMatch: object.etag, source: .api, transaction: tx)
                conflict.status = .moved
            }
            conflict.resolvedAt = now
            try await tx.updateConflict(conflict)
            return conflict
        }
    }

    /// Which of these conflicts are on someone else's meeting the person was invited to: those
    /// are declined or answered with another time, not cancelled or moved.
    public func invitations(among conflicts: [EventConflict], accountID: UUID) async throws -> Set<UUID> {
        try await store.read { tx in
            guard let account = try await tx.account(id: accountID) else { return [] }
            let addresses = CalendarUsers.addresses(of: account)
            var found = Set<UUID>()
            for conflict in conflicts {
                guard let object = try await tx.calendarObject(calendarID: conflict.event.calendarID, name: conflict.event.objectName),
                      SchedulingObject.mayBeScheduling(object.icalendar), let parsed = try? ICalendarParser().parseCalendar(object.icalendar),
                      SchedulingObject.role(of: parsed, ownerAddresses: addresses) == .attendee
                else { continue }
                found.insert(conflict.id)
            }
            return found
        }
    }

    /// The best free slots for an open conflict's event: as long as it, awake and within working
    /// hours (``AccountAvailability``), clear of every busy block (prayers and routines
    /// included), nearest first, each with why it was chosen.
    public func suggestions(id: UUID, accountID: UUID, count: Int) async throws -> (EventConflict, [FreeSlot]) {
        let now = clock.now
        return try await store.read { tx in
            guard let conflict = try await tx.conflict(id: id, accountID: accountID), let account = try await tx.account(id: accountID) else {
                throw Refusal.notFound
            }
            guard conflict.status == .open else { throw Refusal.alreadyResolved(conflict) }
            let search = try FreeSlotSearch(availability: try await AccountAvailability.availability(for: account, tx: tx), count: count)
            let length = conflict.event.end.timeIntervalSince(conflict.event.start)
            let from = max(now, conflict.event.start).addingTimeInterval(-86_400)
            guard let event = try? TimeRange(start: conflict.event.start, end: conflict.event.end),
                  let window = try? TimeRange(start: from, end: from.addingTimeInterval(Double(search.horizonDays + 2) * 86_400 + length))
            else { return (conflict, []) }
            let busy = BusyTime(try await busyTime.blocks(account: account, in: window, tx: tx), window: window)
            let reference = EventOccurrence.reference(calendarID: conflict.event.calendarID, objectName: conflict.event.objectName)
            return (conflict, search.suggestions(for: event, excluding: reference, busy: busy, now: now))
        }
    }

    /// The object with its main event at `slot`, each time written the way it was (in its
    /// TZID, in UTC, or floating in `floatingZone`).
    static func moved(_ object: CalendarObject, to slot: TimeRange, floatingZone: String, now: Date) throws -> String {
        var refusal: Refusal?
        let text = StoredEventEdit(now: now).apply(to: object.icalendar) { event in
            guard let start = value(slot.start, like: event.start, floatingZone: floatingZone),
                  let end = value(slot.end, like: event.start, floatingZone: floatingZone)
            else {
                refusal = .cannotMove(reason: "an all-day event is moved by changing its date in your calendar app")
                return
            }
            event.start = start
            event.end = .end(end)
        }
        if let refusal { throw refusal }
        guard let text else { throw Refusal.cannotMove(reason: "the stored event cannot be read") }
        return text
    }

    /// The object with one instance of its series at `slot`: its override edited, or a new one
    /// (RECURRENCE-ID, as a calendar app writes when one occurrence is moved); the series stays.
    static func moved(instance recurrenceID: String, of object: CalendarObject, to slot: TimeRange, floatingZone: String, now: Date) throws -> String {
        let floating = ZoneRules(ianaIdentifier: floatingZone) ?? .utc
        guard var calendar = try? ICalendarParser().parseCalendar(object.icalendar),
              let master = calendar.master("VEVENT").flatMap({ try? Event(component: $0) }),
              let original = instance(recurrenceID, like: master.start)
        else { throw Refusal.cannotMove(reason: "the instance \(recurrenceID) cannot be read") }
        guard let start = value(slot.start, like: master.start, floatingZone: floatingZone),
              let end = value(slot.end, like: master.start, floatingZone: floatingZone)
        else { throw Refusal.cannotMove(reason: "an all-day event is moved by changing its date in your calendar app") }
        // An override may write its RECURRENCE-ID in another form (UTC for a zoned series): match the instant.
        let target = original.utcSeconds(floating: floating)
        let overrideIndex = calendar.components.firstIndex { component in
            component.name == "VEVENT" && (try? component.first("RECURRENCE-ID")?.dateValue())?.utcSeconds(floating: floating) == target
        }
        var event: Event
        if let overrideIndex, let existing = try? Event(component: calendar.components[overrideIndex]) {
            event = existing
            event.sequence += 1
        } else {
            event = master
            event.recurrenceRules = []
            event.recurrenceDates = []
            event.exceptionDates = []
            event.recurrenceId = original
        }
        event.start = start
        event.end = .end(end)
        var vevent = event.component
        vevent.remove("EXRULE")
        let stamp = UTCStamp.format(now)
        vevent.set("DTSTAMP", Property(name: "DTSTAMP", value: stamp))
        vevent.set("LAST-MODIFIED", Property(name: "LAST-MODIFIED", value: stamp))
        if let overrideIndex {
            calendar.components[overrideIndex] = vevent
        } else {
            calendar.components.append(vevent)
        }
        return calendar.serialized
    }

    /// An instant written like `model`: same TZID, UTC or floating; nil for a DATE.
    static func value(_ instant: Date, like model: DateOrDateTime, floatingZone: String) -> DateOrDateTime? {
        let seconds = Int64(instant.timeIntervalSince1970.rounded())
        switch model {
        case .date:
            return nil
        case .dateTime(_, .utc):
            return .dateTime(LocalDateTime(secondsSinceEpoch: seconds), .utc)
        case .dateTime(_, .zone(let tzid)):
            guard let rules = ZoneRules(ianaIdentifier: TimeZoneResolver.ianaIdentifier(for: tzid) ?? tzid) else {
                return .dateTime(LocalDateTime(secondsSinceEpoch: seconds), .utc)
            }
            return .dateTime(rules.local(forUTC: seconds), .zone(tzid))
        case .dateTime(_, .floating):
            let rules = ZoneRules(ianaIdentifier: floatingZone) ?? .utc
            return .dateTime(rules.local(forUTC: seconds), .floating)
        }
    }

    /// The object with one instance of its series excluded (an EXDATE in the instance's own form).
    static func excluding(_ recurrenceID: String, from object: CalendarObject, now: Date) throws -> String {
        var refusal: Refusal?
        let text = StoredEventEdit(now: now).apply(to: object.icalendar) { event in
            guard let excluded = instance(recurrenceID, like: event.start) else {
                refusal = .cannotMove(reason: "the instance \(recurrenceID) cannot be read")
                return
            }
            event.exceptionDates.append(excluded)
        }
        if let refusal { throw refusal }
        guard let text else { throw Refusal.cannotMove(reason: "the stored event cannot be read") }
        return text
    }

    /// A RECURRENCE-ID as the expander writes it (`2026-11-25` or `2026-11-25T17:00:00Z`) in
    /// the form of the series' DTSTART.
    static func instance(_ recurrenceID: String, like start: DateOrDateTime) -> DateOrDateTime? {
        if case .date = start {
            let parts = recurrenceID.split(separator: "-").compactMap { Int($0) }
            guard parts.count == 3, (1...12).contains(parts[1]), (1...31).contains(parts[2]) else { return nil }
            return .date(CivilDate(year: parts[0], month: parts[1], day: parts[2]))
        }
        guard let instant = ISO8601DateFormatter().date(from: recurrenceID) else { return nil }
        return value(instant, like: start, floatingZone: "UTC")
    }
}
