import Foundation
import JadwalCore
import Synchronization

/// Notes, during one write transaction, what it changes that open calendar views show; the store
/// hands the note to its observers once the transaction has committed (never for a rollback).
final class ViewChangeRecorder: Sendable {
    private let state = Mutex(CalendarViewChanges())

    func calendar(_ id: UUID, owner: UUID) {
        state.withLock { $0.calendars[id] = owner }
    }

    func account(_ id: UUID) {
        _ = state.withLock { $0.accounts.insert(id) }
    }

    var changes: CalendarViewChanges { state.withLock { $0 } }
}
