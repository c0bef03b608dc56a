import Foundation
import ICalendar

/// Duplicating an event: the same event under a new UID — its repeats, overrides, alarms, colour
/// and categories included — in its own calendar or another of the person's, written through
/// `CalendarWrites` so it syncs, is checked for conflicts and reminds like any new event.
public struct EventCopies: Sendable {
    let store: StoreAccess<any CalendarWriteStore>
    let clock: Clock
    let random: RandomSource
    let writes: CalendarWrites

    public init(store: any Store, clock: Clock, random: RandomSource) {
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
        self.random = random
        writes = CalendarWrites(store: store, clock: clock, random: random)
    }

    /// Copies `name` from `calendar` into `destination` (the same calendar when nil).
    public func duplicate(name: String, in calendar: CalendarCollection, to destination: CalendarCollection? = nil, source: WriteSource)
        async throws -> CalendarObject {
        let target = destination ?? calendar
        let identity = ObjectIdentity.new(random: random)
        let stamp = UTCStamp.format(clock.now)
        return try await store.transaction { tx in
            guard let original = try await tx.calendarObject(calendarID: calendar.id, name: name) else { throw CalendarWrites.Refusal.notFound }
            guard original.component == .event, var copy = try? ICalendarParser().parseCalendar(original.icalendar) else {
                throw EventSeriesChanges.Problem.notAnEvent
            }
            for index in copy.components.indices where copy.components[index].name == "VEVENT" {
                var vevent = copy.components[index]
                vevent.set("UID", Property(name: "UID", value: identity.uid))
                // A new event of the person's own: not a version of the original, and not an
                // invitation (a copy must not speak for the organizer or send to the attendees).
                for property in ["SEQUENCE", "ORGANIZER", "ATTENDEE", "RELATED-TO"] { vevent.setAll(property, []) }
                for property in ["DTSTAMP", "CREATED", "LAST-MODIFIED"] { vevent.set(property, Property(name: property, value: stamp)) }
                copy.components[index] = vevent
            }
            let content: CalendarObjectContent
            do {
                content = try CalendarObjectContent(text: copy.serialized)
            } catch {
                throw EventSeriesChanges.Problem.invalid("\(error)")
            }
            return try await writes.put(content, name: identity.name, in: target, ifNoneMatch: true, source: source, transaction: tx).object
        }
    }
}
