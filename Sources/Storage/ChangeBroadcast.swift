import Foundation
import JadwalCore

/// What one instance tells the others on the same PostgreSQL database after a commit: the
/// `CalendarViewChanges` its own observers get, as a `NOTIFY` payload (at most 8,000 bytes).
enum ChangeBroadcast {
    static let channel = "jadwal_changes"
    static let limit = 7_900

    private struct Message: Codable {
        var from: UUID
        var changes: CalendarViewChanges
    }

    /// The payload, or nil when there is nothing to tell. A change too big for one payload is
    /// told without its calendars (their owners stay named, so their pages still refresh; the
    /// people those calendars are shared with hear it at their next keep-alive).
    static func payload(_ changes: CalendarViewChanges, from instance: UUID) -> String? {
        guard !changes.isEmpty else { return nil }
        var message = Message(from: instance, changes: changes)
        if let text = encoded(message), text.utf8.count <= limit { return text }
        message.changes = CalendarViewChanges(accounts: CalendarAudience.direct(changes), notified: changes.notified)
        if let text = encoded(message), text.utf8.count <= limit { return text }
        return nil
    }

    /// The changes another instance committed; nil for this instance's own, or what cannot be read.
    static func changes(in payload: String, notFrom instance: UUID) -> CalendarViewChanges? {
        guard let message = try? JSONDecoder().decode(Message.self, from: Data(payload.utf8)), message.from != instance else { return nil }
        return message.changes
    }

    private static func encoded(_ message: Message) -> String? {
        (try? JSONEncoder().encode(message)).map { String(decoding: $0, as: UTF8.self) }
    }
}
