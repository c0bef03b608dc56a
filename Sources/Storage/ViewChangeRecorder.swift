import Foundation
import JadwalCore
import Synchronization

/// Notes, during one write transaction, what it changes that open calendar views show and whom
/// it posts notifications to; the store hands the note to its observers once the transaction has
/// committed (never for a rollback), on this instance and, through PostgreSQL, on the others.
final class ViewChangeRecorder: Sendable {
    private let state = Mutex(CalendarViewChanges())

    func calendar(_ id: UUID, owner: UUID) {
        state.withLock { $0.calendars[id] = owner }
    }

    func account(_ id: UUID) {
        _ = state.withLock { $0.accounts.insert(id) }
    }

    func notified(_ accountID: UUID) {
        _ = state.withLock { $0.notified.insert(accountID) }
    }

    var changes: CalendarViewChanges { state.withLock { $0 } }
}
