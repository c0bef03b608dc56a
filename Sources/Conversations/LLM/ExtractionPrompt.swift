import Foundation

/// The words the model reads: a system message with the task, the labels' rules, one worked
/// example, the current date, time and zone, a small calendar and the user's prayer times; and a
/// user message with the conversation, each message with its local sending time and its sender.
/// The unchanging part comes first, so servers that cache prompt prefixes reuse it.
struct ExtractionPrompt {
    let messages: [ChatMessage]
    let context: ExtractionContext

    /// The messages the model is shown: those with words, as the rule-based extractor reads them.
    static func readable(_ messages: [ChatMessage]) -> [ChatMessage] {
        messages.filter { ($0.kind == .text || $0.kind == .media) && !$0.text.isEmpty }
    }

    var today: LocalDateTime { LocalDateTime(context.now, in: context.timeZone).midnight }

    var system: String {
        let now = LocalDateTime(context.now, in: context.timeZone)
        var lines = [Self.task]
        lines.append("")
        lines.append("Now: \(Self.minute(now)) \(Self.weekdayNames[now.weekday - 1]), time zone \(context.timeZone.identifier) "
            + "(UTC\(Self.offset(context.timeZone.secondsFromGMT(for: context.now)))).")
        lines.append(prayerLine(on: today))
        if context.prayerTimes.isRamadan(today) {
            lines.append("It is Ramadan: breakfast (iftar, فطور) is at maghrib.")
        }
        lines.append("Calendar:")
        lines.append(contentsOf: calendarDays.map { day in
            "\(Self.weekdayNames[day.weekday - 1]) \(Self.date(day))\(day == today ? " (today)" : "")"
        })
        return lines.joined(separator: "\n")
    }

    var transcript: String {
        var lines = ["The chat, oldest message first:"]
        for message in Self.readable(messages) {
            let sent = LocalDateTime(message.timestamp, in: context.timeZone)
            let body = message.text.replacingOccurrences(of: "\n", with: " / ")
            let attachment = message.kind == .media ? "[\(message.media?.rawValue ?? "attachment")] " : ""
            lines.append("[\(Self.minute(sent)) \(Self.weekdayNames[sent.weekday - 1])] \(message.sender ?? "?"): \(attachment)\(body)")
        }
        return lines.joined(separator: "\n")
    }

    /// Today's adhan times; the model copies the one a plan is timed against.
    func prayerLine(on day: LocalDateTime) -> String {
        let known = PrayerAnchor.allCases.compactMap { prayer in
            context.prayerTimes.adhan(prayer, on: day).map { "\(prayer.rawValue) \(Self.twoDigits($0.hour)):\(Self.twoDigits($0.minute))" }
        }
        guard !known.isEmpty else {
            return "The user's prayer times are not known: give a prayer-relative plan the date only."
        }
        return "The user's prayer times (adhan) on \(Self.date(day)): \(known.joined(separator: ", ")). "
            + "They move by a minute or two from day to day."
    }

    /// From the first message's day (at most two weeks back) to two weeks ahead, so weekday
    /// names can be looked up instead of computed.
    var calendarDays: [LocalDateTime] {
        let first = Self.readable(messages).map { LocalDateTime($0.timestamp, in: context.timeZone).midnight }.min() ?? today
        let start = max(min(first, today), today.adding(days: -14))
        let end = today.adding(days: 14)
        return (0...(end.daysSinceEpoch - start.daysSinceEpoch)).map { start.adding(days: $0) }
    }

    static let task = """
        You read a private chat between two people and decide whether they arranged an event together. \
        Answer with one JSON object that follows the given schema, and nothing else.

        status:
        - HAS_EVENT_AGREED: one of them proposed a plan with at least a date and the OTHER one accepted it \
        (ok, sure, deal, 👍, see you, count me in, تمام, اتفقنا, تم, ابشر, ان شاء الله, tamam, akeed). \
        When a counter-proposal was accepted, it is the plan; details not changed carry over.
        - HAS_EVENT_BUT_NOT_CONFIRMED: a plan with at least a time frame is open: no answer, a tentative or \
        conditional answer (maybe, let me check, بشوف واقولك, ان شاء الله بس ما اوعدك), or the time is still open.
        - HAS_EVENT_DENIED: the latest plan was refused, or an agreed plan was cancelled or postponed with no new time.
        - NO_EVENT: nothing is arranged between the two of them: past events, plans of only one of them or of \
        others, deadlines, deliveries, pleasantries with no time frame.

        event: the agreed plan (the earliest, if several were agreed); else the open, refused or cancelled plan; \
        null for NO_EVENT.
        - title: a few words in the chat's language ("Dinner", "عشاء"), or null.
        - start: local time in the chat's time zone as "YYYY-MM-DDTHH:MM"; a day without a clock time or prayer \
        as "YYYY-MM-DD" with allDay true; null when only vague ("next week").
        - Relative days ("tomorrow", "بكرة", "باجر", "Thursday") count from the day of the message that says them; \
        a weekday is the first such day after that message. Use the calendar below.
        - A clock time without am/pm follows the context: meals and evening words mean pm, morning words am, \
        and 1 to 6 o'clock is pm.
        - "after Isha", "بعد المغرب", "ba3d el 3asr": start is that prayer's adhan time on that day and \
        startRelativeTo names the prayer (fajr, dhuhr, asr, maghrib, isha); after Friday prayer is dhuhr on Friday. \
        Otherwise startRelativeTo is null.
        - end: only when a range or a duration was said (for all-day plans, the last day); else null.
        - location: the place as written, or null.
        events: further agreed events of the same chat, else [].

        Example, from another chat on Monday 2025-03-03 in Asia/Riyadh:
        [2025-03-03T17:00 Monday] Lina: Coffee on Wednesday at 5 at Brew92?
        [2025-03-03T17:05 Monday] Huda: sure 👍
        Answer:
        {"status": "HAS_EVENT_AGREED", "event": {"title": "Coffee", "start": "2025-03-05T17:00", "end": null, "allDay": false,         "location": "Brew92", "startRelativeTo": null}, "events": []}
        """

    static let weekdayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    static func date(_ day: LocalDateTime) -> String { String(day.description.prefix(10)) }

    static func minute(_ time: LocalDateTime) -> String { String(time.description.prefix(16)) }

    static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    static func offset(_ seconds: Int) -> String {
        let minutes = abs(seconds) / 60
        return "\(seconds < 0 ? "-" : "+")\(twoDigits(minutes / 60)):\(twoDigits(minutes % 60))"
    }
}
