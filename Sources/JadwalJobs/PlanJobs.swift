import Foundation
import JadwalCore
import JadwalHTTP
import Logging

/// The handlers of the plan's jobs (see `TwoWeekPlanning`): the weekly plan, its daily sweep,
/// and the re-plan after a calendar change broke a proposal.
package enum PlanJobs {
    package static func register(in handlers: inout JobHandlers, planning: TwoWeekPlanning, hub: NotificationHub, logger: Logger) {
        handlers.register(TwoWeekPlanning.weeklyJob) { job in
            let accountID = try account(of: job)
            let run = try await planning.runWeekly(accountID: accountID)
            if let posted = run.notification { hub.wake(posted.accountID) }
            if let plan = run.plan {
                logger.info("weekly plan made", metadata: ["account": "\(accountID)", "proposals": "\(plan.proposals.count)"])
            }
        }
        handlers.register(TwoWeekPlanning.weeklySweepJob) { _ in
            let accounts = try await planning.sweepWeekly()
            logger.info("weekly plans queued", metadata: ["accounts": "\(accounts)"])
        }
        handlers.register(TwoWeekPlanning.replanJob) { job in
            let accountID = try account(of: job)
            guard let replan = try await planning.replan(accountID: accountID) else { return }
            if let posted = replan.notification { hub.wake(posted.accountID) }
            logger.info("plan re-planned after a calendar change", metadata: [
                "account": "\(accountID)", "broken": "\(replan.replacements.count)",
                "replaced": "\(replan.replacements.filter { $0.replacement != nil }.count)",
            ])
        }
    }

    static func account(of job: Job) throws -> UUID {
        do {
            return try TwoWeekPlanning.account(of: job)
        } catch {
            throw PermanentJobFailure(description: "\(job.kind) payload cannot be read: \(error)")
        }
    }
}
