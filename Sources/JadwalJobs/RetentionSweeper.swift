import Foundation
import JadwalCore
import Logging
import ServiceLifecycle

/// Forgets what is past its time: chat message text past each account's retention period
/// (`ChatInbox`), and the server's own traces (`RecordRetention`): at start, then every
/// `interval`. Any number of instances may run it; each sweep is idempotent.
package struct RetentionSweeper: Service {
    package let inbox: ChatInbox
    package let records: RecordRetention
    package let interval: Duration
    package let logger: Logger

    package init(inbox: ChatInbox, records: RecordRetention, interval: Duration, logger: Logger) {
        self.inbox = inbox
        self.records = records
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
            let records = try await records.sweep()
            if records.total > 0 {
                logger.info("forgot records past their time", metadata: [
                    "sign_ins": "\(records.signIns)", "refresh_tokens": "\(records.refreshTokens)", "setup_links": "\(records.setupLinks)",
                    "jobs": "\(records.jobs)", "changes": "\(records.changes)",
                ])
            }
        } catch {
            // Stopping: the sweep was cut short, the next start sweeps again.
            if Task.isCancelled || Task.isShuttingDownGracefully { return }
            logger.error("retention sweep failed", metadata: ["error": "\(error)"])
        }
    }
}
