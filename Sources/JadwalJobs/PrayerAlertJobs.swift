import Foundation
import JadwalCore
import JadwalHTTP
import JadwalMail
import JadwalPush
import Logging

/// The handlers of the prayer alert jobs (see `PrayerAlerts`): schedule an account's alerts,
/// post one, and the daily sweep.
package enum PrayerAlertJobs {
    package static func register(in handlers: inout JobHandlers, alerts: PrayerAlerts, hub: NotificationHub, logger: Logger) {
        handlers.register(PrayerAlerts.scheduleJob) { job in
            _ = try await alerts.schedule(try payload(PrayerAlerts.Target.self, of: job))
        }
        handlers.register(PrayerAlerts.alertJob) { job in
            let alert = try payload(PrayerAlert.self, of: job)
            if let posted = try await alerts.fire(alert) {
                hub.wake(posted.accountID)
            } else {
                logger.debug("prayer alert not posted (too late, or the settings changed)", metadata: ["alert": "\(alert.reasonKey)"])
            }
        }
        handlers.register(PrayerAlerts.sweepJob) { _ in
            let accounts = try await alerts.sweep()
            logger.info("prayer alerts rescheduled", metadata: ["accounts": "\(accounts)"])
        }
    }

    static func payload<T: Decodable>(_ type: T.Type, of job: Job) throws -> T {
        do {
            return try PrayerAlerts.decode(type, from: job.payload)
        } catch {
            throw PermanentJobFailure(description: "\(job.kind) payload cannot be read: \(error)")
        }
    }
}
