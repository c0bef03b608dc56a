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
        /// A notification was posted (the stream reads what it has not sent).
        case posted
        /// Something the account's calendar views show changed: the stream says so, and reads nothing.
        case calendarsChanged
        case timedOut, closed
    }

    private struct Waiter {
        package let accountID: UUID
        package let continuation: CheckedContinuation<Wake, Never>
        package var timer: Task<Void, Never>?
    }

    private struct State {
        package var generations: [UUID: UInt64] = [:]
        /// Per account, how many times what its calendar views show has changed (in this process).
        package var calendarGenerations: [UUID: UInt64] = [:]
        package var waiters: [UUID: Waiter] = [:]
        package var openStreams: [UUID: Int] = [:]
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

    /// The account's calendar generation now: what a stream has told its page about.
    package func calendarGeneration(of accountID: UUID) -> UInt64 {
        state.withLock { $0.calendarGenerations[accountID] ?? 0 }
    }

    /// What these accounts' calendar views show changed: their streams tell their pages, without
    /// reading anything (the change was worked out once, by whoever calls this).
    package func calendarsChanged(_ accountIDs: Set<UUID>) {
        guard !accountIDs.isEmpty else { return }
        let woken = state.withLock { state -> [Waiter] in
            for id in accountIDs { state.calendarGenerations[id, default: 0] &+= 1 }
            let ids = state.waiters.filter { accountIDs.contains($0.value.accountID) }.map(\.key)
            return ids.compactMap { state.waiters.removeValue(forKey: $0) }
        }
        for waiter in woken {
            waiter.timer?.cancel()
            waiter.continuation.resume(returning: .calendarsChanged)
        }
    }

    /// Whether any stream is open here: with none, nobody needs telling of a change.
    package var hasOpenStreams: Bool { state.withLock { !$0.openStreams.isEmpty } }

    /// Returns when the account's generation passes `seen`, after `timeout`, or at shutdown.
    ///
    /// A stream is a request that never ends by itself, and the HTTP server stops first and
    /// waits for its requests: the hub's own turn to stop would come only after them. So the
    /// wait also listens for the server's graceful shutdown (a request's task inherits it), and
    /// every stream ends at once, cleanly, when the server starts to stop.
    /// With `calendarsAfter`, it also returns when the account's calendar generation passes it.
    package func wait(accountID: UUID, after seen: UInt64, calendarsAfter calendarsSeen: UInt64? = nil, timeout: Duration) async -> Wake {
        await withGracefulShutdownHandler {
            await waitForPost(accountID: accountID, after: seen, calendarsAfter: calendarsSeen, timeout: timeout)
        } onGracefulShutdown: { [self] in
            close()
        }
    }

    private func waitForPost(accountID: UUID, after seen: UInt64, calendarsAfter calendarsSeen: UInt64?, timeout: Duration) async -> Wake {
        let id = UUID()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Wake, Never>) in
                let early = state.withLock { state -> Wake? in
                    if state.closed { return .closed }
                    if (state.generations[accountID] ?? 0) != seen { return .posted }
                    if let calendarsSeen, (state.calendarGenerations[accountID] ?? 0) != calendarsSeen { return .calendarsChanged }
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

    /// A place for one more open stream of the account, or nil when it has `limit` already
    /// (on this instance). The place is given back when the slot is released, however the
    /// stream ends.
    package func reserveStream(accountID: UUID, limit: Int) -> StreamSlot? {
        let granted = state.withLock { state -> Bool in
            guard state.openStreams[accountID, default: 0] < limit else { return false }
            state.openStreams[accountID, default: 0] += 1
            return true
        }
        guard granted else { return nil }
        return StreamSlot { [weak self] in
            self?.state.withLock { state in
                let left = state.openStreams[accountID, default: 1] - 1
                state.openStreams[accountID] = left > 0 ? left : nil
            }
        }
    }

    /// How many streams the account has open here.
    package func openStreams(accountID: UUID) -> Int {
        state.withLock { $0.openStreams[accountID] ?? 0 }
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

/// One open stream's place among its account's; released when the last reference goes.
package final class StreamSlot: Sendable {
    private let release: @Sendable () -> Void

    init(release: @escaping @Sendable () -> Void) {
        self.release = release
    }

    deinit { release() }
}
