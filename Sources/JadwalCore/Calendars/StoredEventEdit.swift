import Foundation
import ICalendar

/// A change to the main VEVENT of a stored object, made the way a calendar app makes it, so
/// phones take it as a new version: SEQUENCE one up, DTSTAMP and LAST-MODIFIED now, and a
/// VTIMEZONE for a zone the object did not define yet. Overridden instances stay as they are.
struct StoredEventEdit {
    let now: Date

    /// The object's new text; `existing` itself when nothing changed; nil when it holds no
    /// readable main VEVENT.
    func apply(to existing: String, _ change: (inout Event) -> Void) -> String? {
        guard var calendar = try? ICalendarParser().parseCalendar(existing),
              let index = calendar.masterIndex("VEVENT"),
              var event = try? Event(component: calendar.components[index])
        else { return nil }
        let before = event
        change(&event)
        guard event != before else { return existing }
        event.sequence += 1
        var vevent = event.component
        let stamp = UTCStamp.format(now)
        vevent.set("DTSTAMP", Property(name: "DTSTAMP", value: stamp))
        vevent.set("LAST-MODIFIED", Property(name: "LAST-MODIFIED", value: stamp))
        calendar.components[index] = vevent
        if let tzid = event.start.tzid, !calendar.components.contains(where: { $0.name == "VTIMEZONE" && $0.first("TZID")?.value == tzid }),
           let vtimezone = VTimeZoneWriter.component(forIANAIdentifier: tzid, fromYear: max(1970, event.start.local.date.year - 1)) {
            calendar.components.insert(vtimezone, at: 0)
        }
        return calendar.serialized
    }
}
