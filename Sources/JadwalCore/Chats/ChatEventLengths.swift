import Conversations
import Foundation

/// Gives a length to the events Jadwal put on calendars from chats before chat events had one
/// (a DTSTART and no end: an instant, which conflicts with nothing). Runs once, as the job
/// migration 16 queues. An event the person edited since Jadwal last wrote it is theirs and is
/// left alone; each rewritten event goes through the write path, which queues its conflict check.
public struct ChatEventLengths: Sendable {
    public static let jobKind: JobKind = "chats.event-lengths"

    /// An object written this long after Jadwal last wrote the event was written by someone
    /// else. Generous, because a batch read by a slow model writes its events minutes after it
    /// took its clock reading.
    static let ownWriteTolerance: TimeInterval = 600

    let store: StoreAccess<any CalendarWriteStore & ChatStore>
    let clock: Clock
    let writes: CalendarWrites

    public init(store: any Store, clock: Clock, random: RandomSource) {
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
        writes = CalendarWrites(store: store, clock: clock, random: random)
    }

    /// Lengthens every such event, one account per transaction; returns how many changed.
    @discardableResult
    public func run() async throws -> Int {
        let accounts = try await store.read { tx in try await tx.accounts() }
        var changed = 0
        for account in accounts {
            changed += try await store.transaction { tx in try await lengthen(account: account, tx: tx) }
        }
        return changed
    }

    private func lengthen(account: Account, tx: any CalendarWriteStore & ChatStore) async throws -> Int {
        let now = clock.now
        let settings = try await tx.chatSettings(accountID: account.id)
        let document = ChatEventDocument(timeZone: account.timeZone, language: account.language, now: now, eventMinutes: settings.eventMinutes)
        var changed = 0
        for var conversation in try await tx.chatConversations(accountID: account.id) {
            var touched = false
            for (index, link) in conversation.events.enumerated() where link.status == .active {
                guard let calendar = try await tx.calendar(id: link.calendarID),
                      let object = try await tx.calendarObject(calendarID: calendar.id, name: link.objectName),
                      object.updatedAt.timeIntervalSince(link.updatedAt) < Self.ownWriteTolerance,
                      let text = document.lengthened(object.icalendar, plan: link.plan.event),
                      let content = try? CalendarObjectContent(text: text)
                else { continue }
                do {
                    _ = try await writes.put(content, name: object.name, in: calendar, ifMatch: object.etag, source: .chat, transaction: tx)
                } catch is CalendarWrites.Refusal {
                    continue
                }
                conversation.events[index].updatedAt = now
                touched = true
                changed += 1
            }
            if touched {
                conversation.updatedAt = now
                try await tx.updateChatConversation(conversation)
            }
        }
        return changed
    }
}
