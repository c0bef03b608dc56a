import Foundation
import JadwalCore
import JadwalHTTP
import JadwalMail
import JadwalPush
import Logging
import ServiceLifecycle

/// Deletes message text past each account's retention period: at start, then every `interval`.
/// Any number of instances may run it; the sweep is one idempotent statement.
package struct ChatRetentionSweeper: Service {
    package let inbox: ChatInbox
    package let interval: Duration
    package let logger: Logger

    package init(inbox: ChatInbox, interval: Duration, logger: Logger) {
        self.inbox = inbox
        self.interval = interval
        self.logger = logger
    }

    package func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                while !Task.isCancelled {
                    await sweep()
                    try await Task.sleep(for: interval)
                }
            }
        } catch is CancellationError {
            // Shutting down.
        }
    }

    package func sweep() async {
        do {
            let forgotten = try await inbox.forgetExpiredText()
            if forgotten > 0 { logger.info("deleted the text of chat messages past their retention period", metadata: ["messages": "\(forgotten)"]) }
        } catch {
            // Stopping: the sweep was cut short, the next start sweeps again.
            if Task.isCancelled || Task.isShuttingDownGracefully { return }
            logger.error("chat retention sweep failed", metadata: ["error": "\(error)"])
        }
    }
}
