import Foundation
import ICalendar
import Scheduling

/// An event Jadwal places on the person's behalf (time planned for a to-do, an accepted goal
/// session): one instance in their zone with its VTIMEZONE, so a phone shows local times,
/// opaque, stamped now, with the properties that link it back to what it is for.
enum PlacedEvent {
    static func text(title: String, range: TimeRange, uid: String, timeZone: String, now: Date, description: String,
                     properties: [(name: String, value: String)], product: String) -> String {
        let rules = timeZone == "UTC" ? nil : ZoneRules(ianaIdentifier: timeZone)
        func value(_ date: Date) -> DateOrDateTime {
            let seconds = Int64(date.timeIntervalSince1970.rounded())
            guard let rules else { return .dateTime(LocalDateTime(secondsSinceEpoch: seconds), .utc) }
            return .dateTime(rules.local(forUTC: seconds), .zone(timeZone))
        }
        var event = Event(uid: uid, title: title, start: value(range.start), end: .end(value(range.end)))
        event.description = description
        event.transparency = .opaque
        var vevent = event.component
        let stamp = UTCStamp.format(now)
        for name in ["DTSTAMP", "CREATED", "LAST-MODIFIED"] { vevent.set(name, Property(name: name, value: stamp)) }
        for property in properties { vevent.set(property.name, Property(name: property.name, value: property.value)) }
        var calendar = Component(name: "VCALENDAR", properties: [
            Property(name: "VERSION", value: "2.0"), Property(name: "PRODID", value: product),
        ])
        if rules != nil, let vtimezone = VTimeZoneWriter.component(forIANAIdentifier: timeZone, fromYear: max(1970, event.start.local.date.year - 1)) {
            calendar.components.append(vtimezone)
        }
        calendar.components.append(vevent)
        return calendar.serialized
    }
}
