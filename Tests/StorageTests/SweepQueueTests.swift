import Foundation
import JadwalCore
import JadwalTestSupport
import Storage
import Testing

/// Several instances start together on one database: each makes sure the daily sweeps are
/// queued, and together they queue one of each (issue 22: each job runs once).
@Suite("Daily sweeps queued once by instances starting together")
struct SweepQueueTests {
    @Test("twelve concurrent starts queue one reminder sweep and one prayer-alert sweep", arguments: TestEnvironment.engines)
    func oneSweepEach(engine: TestEngine) async throws {
        let store = try await TestEnvironment.freshStore(engine)
        let reminders = ReminderQueue(store: store, clock: .system, random: .system)
        let alerts = PrayerAlerts(store: store, clock: .system, random: .system)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<12 {
                group.addTask { try await reminders.ensureSweep() }
                group.addTask { try await alerts.ensureSweep() }
            }
            try await group.waitForAll()
        }
        #expect(try await store.read { tx in try await tx.queuedJobCount(kind: ReminderQueue.sweepJob) } == 1)
        #expect(try await store.read { tx in try await tx.queuedJobCount(kind: PrayerAlerts.sweepJob) } == 1)
        try await store.shutdown()
    }
}
