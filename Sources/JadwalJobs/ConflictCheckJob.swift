import Foundation
import JadwalCore
import JadwalHTTP
import JadwalMail
import JadwalPush
import Logging

/// The `conflict.check` job: runs `ConflictCheck` for the write its payload names.
package enum ConflictCheckJob {
    package static func handler(check: ConflictCheck, hub: NotificationHub, logger: Logger) -> JobHandlers.Handler {
        { job in
            let request: ConflictCheck.Request
            do {
                request = try JSONDecoder().decode(ConflictCheck.Request.self, from: Data(job.payload.utf8))
            } catch {
                throw PermanentJobFailure(description: "conflict check payload cannot be read: \(error)")
            }
            let outcome = try await check.runCoalesced(request)
            if outcome.found.contains(where: \.notify) { hub.wake(request.accountID) }
            if !outcome.found.isEmpty {
                logger.info("conflicts found", metadata: [
                    "object": "\(request.objectName)", "checked": "\(outcome.checked)", "conflicts": "\(outcome.found.count)", "source": "\(request.source.rawValue)",
                ])
            }
        }
    }
}
