import Conversations
import Foundation
import ICalendar

/// The iCalendar text of an event Jadwal puts on the calendar because a chat agreed on it, and
/// its later versions (moved, cancelled). Edits a person made on their phone survive: a change
/// from the chat touches only what the chat changed.
struct ChatEventDocument {
    /// The account's zone: the extractor's wall times are read in it.
    let timeZone: String
    let language: Language
    let now: Date

    static let conversationProperty = "X-JADWAL-CONVERSATION"
    static let managedNote = "Managed by Jadwal"

    /// The summary when the chat named no activity.
    func fallbackTitle(partner: String) -> String {
        language == .arabic ? "موعد مع \(partner)" : "Plan with \(partner)"
    }

    /// A new event for an agreed plan (which has a start).
    func created(uid: String, plan: ExtractedEvent, partner: String, conversationID: UUID, link: String) -> String? {
        guard let (start, end) = times(of: plan) else { return nil }
        var event = Event(uid: uid, title: plan.title ?? fallbackTitle(partner: partner), start: start, end: end.map { .end($0) })
        event.location = plan.location
        event.description = description(partner: partner, link: link)
        event.status = .confirmed
        var vevent = event.component
        if link.hasPrefix("http://") || link.hasPrefix("https://") { vevent.set("URL", Property(name: "URL", value: link)) }
        vevent.set(Self.conversationProperty, Property(name: Self.conversationProperty, value: conversationID.uuidString.lowercased()))
        let stamp = UTCStamp.format(now)
        for name in ["DTSTAMP", "CREATED", "LAST-MODIFIED"] { vevent.set(name, Property(name: name, value: stamp)) }

        var calendar = Component(name: "VCALENDAR", properties: [
            Property(name: "VERSION", value: "2.0"), Property(name: "PRODID", value: "-//Jadwal//Chats//EN"),
        ])
        if start.tzid != nil, let vtimezone = VTimeZoneWriter.component(forIANAIdentifier: timeZone, fromYear: max(1970, start.local.date.year - 1)) {
            calendar.components.append(vtimezone)
        }
        calendar.components.append(vevent)
        return calendar.serialized
    }

    /// The stored event moved to the plan's new time (and, where the person left them as the
    /// chat had them, its new title and place); confirmed again if it had been cancelled.
    func moved(_ existing: String, from old: ChatPlan, to plan: ExtractedEvent, partner: String) -> String? {
        guard let (start, end) = times(of: plan) else { return nil }
        return edited(existing) { event in
            event.start = start
            event.end = end.map { .end($0) }
            if event.title == (old.title ?? fallbackTitle(partner: partner)), let title = plan.title { event.title = title }
            if event.location == old.location, let location = plan.location { event.location = location }
            event.status = .confirmed
        }
    }

    /// The stored event with STATUS:CANCELLED.
    func cancelled(_ existing: String) -> String? {
        edited(existing) { $0.status = .cancelled }
    }

    private func edited(_ existing: String, _ change: (inout Event) -> Void) -> String? {
        StoredEventEdit(now: now).apply(to: existing, change)
    }

    private func description(partner: String, link: String) -> String {
        switch language {
        case .arabic:
            "اتُّفق عليه في محادثة مع \(partner).\n\(Self.managedNote) (يديره جدول): \(link)"
        case .english:
            "Agreed in a chat with \(partner).\n\(Self.managedNote): \(link)"
        }
    }

    /// DTSTART and DTEND (nil when the chat stated no end) in the account's zone; all-day plans
    /// as dates, their inclusive last day made the exclusive DTEND.
    func times(of plan: ExtractedEvent) -> (DateOrDateTime, DateOrDateTime?)? {
        guard let start = plan.start else { return nil }
        if plan.allDay {
            let first = CivilDate(year: start.year, month: start.month, day: start.day)
            var end: DateOrDateTime?
            if let last = plan.end {
                let day = CivilDate(year: last.year, month: last.month, day: last.day)
                if day > first { end = .date(day.adding(days: 1)) }
            }
            return (.date(first), end)
        }
        let reference: TimeReference = timeZone == "UTC" ? .utc : .zone(timeZone)
        let startValue = DateOrDateTime.dateTime(Self.local(start), reference)
        var endValue: DateOrDateTime?
        if let end = plan.end, end > start { endValue = .dateTime(Self.local(end), reference) }
        return (startValue, endValue)
    }

    static func local(_ value: Conversations.LocalDateTime) -> ICalendar.LocalDateTime {
        ICalendar.LocalDateTime(year: value.year, month: value.month, day: value.day, hour: value.hour, minute: value.minute)
    }
}
