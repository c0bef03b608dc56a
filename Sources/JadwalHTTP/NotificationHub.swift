import Foundation
import JadwalCore
import ServiceLifecycle
import Synchronization

/// Wakes the live notification streams of an account when something was posted for it.
///
/// The database stays the truth: a woken stream reads what it has not sent yet. A generation
/// number per account closes the gap between a stream's read and its wait (a post in between is
/// seen at once), and a stream also looks again on its own every few seconds, which covers
/// posts by other server processes sharing a PostgreSQL database. On graceful shutdown every
/// waiting stream is told to end, so open streams never hold the server up.
package final class NotificationHub: Service, Sendable {
    package enum Wake: Sendable, Equatable {
        case posted, timedOut, closed
    }

    private struct Waiter {
        package let accountID: UUID
        package let continuation: CheckedContinuation<Wake, Never>
        package var timer: Task<Void, Never>?
    }

    private struct State {
        package var generations: [UUID: UInt64] = [:]
        package var waiters: [UUID: Waiter] = [:]
        package var closed = false
    }

    private let state = Mutex(State())

    package init() {
    }

    /// The account's generation now: pass it to ``wait(accountID:after:timeout:)`` after reading.
    package func generation(of accountID: UUID) -> UInt64 {
        state.withLock { $0.generations[accountID] ?? 0 }
    }

    /// Something was posted for the account: its streams read again.
    package func wake(_ accountID: UUID) {
        let woken = state.withLock { state -> [Waiter] in
            state.generations[accountID, default: 0] &+= 1
            let ids = state.waiters.filter { $0.value.accountID == accountID }.map(\.key)
            return ids.compactMap { state.waiters.removeValue(forKey: $0) }
        }
        for waiter in woken {
            waiter.timer?.cancel()
            waiter.continuation.resume(returning: .posted)
        }
    }

    /// Returns when the account's generation passes `seen`, after `timeout`, or at shutdown.
    ///
    /// A stream is a request that never ends by itself, and the HTTP server stops first and
    /// waits for its requests: the hub's own turn to stop would come only after them. So the
    /// wait also listens for the server's graceful shutdown (a request's task inherits it), and
    /// every stream ends at once, cleanly, when the server starts to stop.
    package func wait(accountID: UUID, after seen: UInt64, timeout: Duration) async -> Wake {
        await withGracefulShutdownHandler {
            await waitForPost(accountID: accountID, after: seen, timeout: timeout)
        } onGracefulShutdown: { [self] in
            close()
        }
    }

    private func waitForPost(accountID: UUID, after seen: UInt64, timeout: Duration) async -> Wake {
        let id = UUID()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Wake, Never>) in
                let early = state.withLock { state -> Wake? in
                    if state.closed { return .closed }
                    if (state.generations[accountID] ?? 0) != seen { return .posted }
                    state.waiters[id] = Waiter(accountID: accountID, continuation: continuation)
                    return nil
                }
                if let early {
                    continuation.resume(returning: early)
                    return
                }
                let timer = Task { [weak self] in
                    try? await Task.sleep(for: timeout)
                    guard !Task.isCancelled else { return }
                    self?.finish(id, with: .timedOut)
                }
                let stillWaiting = state.withLock { state -> Bool in
                    guard state.waiters[id] != nil else { return false }
                    state.waiters[id]?.timer = timer
                    return true
                }
                if !stillWaiting { timer.cancel() }
            }
        } onCancel: {
            finish(id, with: .closed)
        }
    }

    private func finish(_ id: UUID, with wake: Wake) {
        guard let waiter = state.withLock({ $0.waiters.removeValue(forKey: id) }) else { return }
        waiter.timer?.cancel()
        waiter.continuation.resume(returning: wake)
    }

    /// How many streams are waiting (for /metrics and tests).
    package var waitingStreams: Int { state.withLock { $0.waiters.count } }

    package func run() async throws {
        try? await gracefulShutdown()
        close()
    }

    /// Ends every waiting stream, and every later wait at once: the server is stopping.
    package func close() {
        let waiters = state.withLock { state -> [Waiter] in
            state.closed = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters {
            waiter.timer?.cancel()
            waiter.continuation.resume(returning: .closed)
        }
    }
}
