import Foundation

/// Which shown event instances are in an open conflict, for the badges the calendar views and
/// the Today list put on them. A conflict names its occurrence by calendar, object and instance
/// (`recurrenceId`, as the integrated view names it), so a badge never lands on another
/// instance of the same series.
public struct ConflictMarks: Sendable {
    private var byOccurrence: [String: [UUID]] = [:]

    public init(_ conflicts: [EventConflict], now: Date) {
        // A conflict whose event has passed retires when the list is next read; it is not marked.
        for conflict in conflicts where conflict.status == .open && conflict.event.end > now {
            byOccurrence[Self.key(conflict.event.calendarID, conflict.event.objectName, conflict.event.recurrenceID), default: []].append(conflict.id)
        }
    }

    static func key(_ calendarID: UUID, _ objectName: String, _ recurrenceID: String?) -> String {
        calendarID.uuidString + "/" + objectName + "|" + (recurrenceID ?? "")
    }

    /// The open conflicts of one instance, soonest found first; empty when it has none.
    public func conflicts(calendarID: UUID, objectName: String, recurrenceID: String?) -> [UUID] {
        byOccurrence[Self.key(calendarID, objectName, recurrenceID)] ?? []
    }

    public func conflicts(of instance: IntegratedCalendar.Instance) -> [UUID] {
        conflicts(calendarID: instance.calendar.id, objectName: instance.objectName, recurrenceID: instance.occurrence.recurrenceId?.iso8601)
    }

    public var isEmpty: Bool { byOccurrence.isEmpty }
}

extension Conflicts {
    /// The person's open conflicts as marks for the views (a read: nothing retires here).
    public func marks(accountID: UUID) async throws -> ConflictMarks {
        let now = clock.now
        return ConflictMarks(try await store.read { tx in try await tx.conflicts(accountID: accountID, includeResolved: false) }, now: now)
    }

    /// The page of the open list (`limit` a page) that holds the conflict, for a link from a
    /// badge; nil when it is not open (resolved, retired, someone else's).
    public func pageStart(of id: UUID, accountID: UUID, limit: Int) async throws -> Int? {
        let now = clock.now
        // As the list will show it: those whose event has passed retire when it is read.
        let open = try await store.read { tx in try await tx.conflicts(accountID: accountID, includeResolved: false) }.filter { $0.event.end > now }
        return open.firstIndex { $0.id == id }.map { $0 - $0 % max(1, limit) }
    }
}
