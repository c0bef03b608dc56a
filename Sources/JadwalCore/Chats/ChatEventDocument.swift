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
    /// The person's default length for a plan with no stated end (`ChatSettings.eventMinutes`).
    let eventMinutes: Int

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
            // A length the person gave the event on their phone moves with it, unless the chat
            // now states an end of its own.
            let keptLength = plan.end == nil && !plan.allDay ? Self.length(of: event) : nil
            event.start = start
            if let keptLength, case .dateTime(let local, let reference) = start {
                event.end = .end(.dateTime(local.adding(seconds: keptLength), reference))
            } else {
                event.end = end.map { .end($0) }
            }
            if event.title == (old.title ?? fallbackTitle(partner: partner)), let title = plan.title { event.title = title }
            if event.location == old.location, let location = plan.location { event.location = location }
            event.status = .confirmed
        }
    }

    /// The stored event with the length `times(of:)` gives a plan with no stated end, when it is
    /// a timed event that has none (made before events got one); nil when it needs none.
    func lengthened(_ existing: String, plan: ExtractedEvent) -> String? {
        guard !plan.allDay, plan.end == nil else { return nil }
        let seconds = Int64(PlanLength.minutes(for: plan, defaultMinutes: eventMinutes) * 60)
        let text = edited(existing) { event in
            guard case .dateTime(let start, let reference) = event.start, event.end == nil else { return }
            event.end = .end(.dateTime(start.adding(seconds: seconds), reference))
        }
        return text == existing ? nil : text
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

    /// Seconds from a timed event's start to its end, when both are wall times in one zone.
    static func length(of event: Event) -> Int64? {
        guard case .dateTime(let start, let startReference) = event.start else { return nil }
        switch event.end {
        case .end(.dateTime(let end, let endReference)) where endReference == startReference:
            let seconds = end.secondsSinceEpoch - start.secondsSinceEpoch
            return seconds > 0 ? seconds : nil
        case .duration(let duration) where !duration.negative:
            let seconds = duration.totalSeconds
            return seconds > 0 ? seconds : nil
        default:
            return nil
        }
    }

    /// DTSTART and DTEND in the account's zone; all-day plans as dates, their inclusive last day
    /// made the exclusive DTEND (nil for one day). A timed plan with no stated end lasts
    /// `PlanLength`'s minutes, so it takes part in busy time and conflicts.
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
        let endLocal: ICalendar.LocalDateTime
        if let end = plan.end, end > start {
            endLocal = Self.local(end)
        } else {
            endLocal = Self.local(start).adding(seconds: Int64(PlanLength.minutes(for: plan, defaultMinutes: eventMinutes) * 60))
        }
        return (startValue, .dateTime(endLocal, reference))
    }

    static func local(_ value: Conversations.LocalDateTime) -> ICalendar.LocalDateTime {
        ICalendar.LocalDateTime(year: value.year, month: value.month, day: value.day, hour: value.hour, minute: value.minute)
    }
}
