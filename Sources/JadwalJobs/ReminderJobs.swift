import Foundation
import JadwalCore
import JadwalHTTP
import JadwalMail
import JadwalPush
import Logging

/// The handlers of the reminder jobs (see `ReminderQueue`): schedule an object's firings,
/// deliver one, and the daily sweep.
package enum ReminderJobs {
    package static func register(in handlers: inout JobHandlers, queue: ReminderQueue, hub: NotificationHub, logger: Logger) {
        handlers.register(ReminderQueue.scheduleJob) { job in
            let target = try payload(ReminderQueue.Target.self, of: job)
            try await queue.schedule(target)
        }
        handlers.register(ReminderQueue.fireJob) { job in
            let firing = try payload(ReminderQueue.Firing.self, of: job)
            if let posted = try await queue.fire(firing) {
                hub.wake(posted.accountID)
            } else {
                logger.debug("reminder not delivered (too late, or its event is gone)", metadata: ["object": "\(firing.target.subject)"])
            }
        }
        handlers.register(ReminderQueue.sweepJob) { _ in
            let objects = try await queue.sweep()
            logger.info("reminders rescheduled", metadata: ["objects": "\(objects)"])
        }
    }

    package static func payload<T: Decodable>(_ type: T.Type, of job: Job) throws -> T {
        do {
            return try ReminderQueue.decode(type, from: job.payload)
        } catch {
            throw PermanentJobFailure(description: "\(job.kind) payload cannot be read: \(error)")
        }
    }
}
