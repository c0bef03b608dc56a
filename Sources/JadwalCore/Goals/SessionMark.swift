import Foundation
import ICalendar

/// How a session of the plan is marked done or skipped on the event itself, so a phone can do
/// it with the calendar app it has: no app lets a person set a custom property, but every one
/// lets them edit the title.
///
/// - **The title's first word** (any app): `✓`, `✔`, `☑`, `✅`, `[x]`, `done`, `تم` mark it done;
///   `✗`, `✘`, `❌`, `[-]`, `skipped`, `skip`, `فاتني`, `تخطيت` mark it skipped. A word must be
///   followed by a space, `:`, `-` or the end, so "Doneness" is not a mark.
/// - **`X-JADWAL-SESSION:done|skipped`**, for clients and scripts that can set properties.
///   Jadwal writes it, with the title's mark, when the web or the API marks a session.
/// - **`STATUS:CANCELLED`** on a session that has begun (Thunderbird, DAVx5 and Outlook let a
///   person cancel an event): skipped. Cancelled before it begins, it is a session deleted.
///
/// The title wins over the property, because the title is what a phone can change.
public enum SessionMark {
    public static let property = "X-JADWAL-SESSION"
    static let doneMarks = ["✓", "✔", "☑", "✅", "[x]", "done", "تم"]
    static let skippedMarks = ["✗", "✘", "❌", "[-]", "skipped", "skip", "فاتني", "تخطيت"]

    /// What the event says happened; nil when it says nothing.
    public static func outcome(of event: Component, started: Bool) -> TrackerEntry.Outcome? {
        if let title = event.first("SUMMARY")?.text, let mark = mark(in: title)?.outcome { return mark }
        if let value = event.first(property)?.value.lowercased(), let outcome = TrackerEntry.Outcome(rawValue: value) { return outcome }
        if started, event.first("STATUS")?.value.uppercased() == "CANCELLED" { return .skipped }
        return nil
    }

    /// The mark at the start of a title and the title without it.
    static func mark(in title: String) -> (outcome: TrackerEntry.Outcome, rest: String)? {
        let trimmed = title.trimmingCharacters(in: .whitespaces)
        let lowered = trimmed.lowercased()
        for (marks, outcome) in [(doneMarks, TrackerEntry.Outcome.done), (skippedMarks, .skipped)] {
            for mark in marks where lowered.hasPrefix(mark) {
                let rest = trimmed.dropFirst(mark.count)
                // A word ends the title, or comes before a space or a separator; a symbol may touch the title.
                let isWord = mark.first?.isLetter ?? false
                if isWord, let next = rest.first, !(next.isWhitespace || next == ":" || next == "-") { continue }
                let stripped = rest.drop { $0.isWhitespace || $0 == ":" || $0 == "-" }
                return (outcome, String(stripped))
            }
        }
        return nil
    }

    /// The event marked: the title's mark (`✓ ` or `✗ `, any earlier mark replaced) and the property.
    public static func marked(_ event: Component, _ outcome: TrackerEntry.Outcome) -> Component {
        var event = event
        let title = event.first("SUMMARY")?.text ?? ""
        let bare = mark(in: title)?.rest ?? title
        event.set("SUMMARY", Property(name: "SUMMARY", text: (outcome == .done ? "✓ " : "✗ ") + bare))
        event.set(property, Property(name: property, value: outcome.rawValue))
        return event
    }
}
