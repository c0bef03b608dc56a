import ArgumentParser
import Foundation
import JadwalCore
import Storage

struct JobsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jobs", abstract: "Inspect the background job queue.",
        subcommands: [List.self, Retry.self]
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List jobs (the dead letters with --state dead).")
        @OptionGroup var storage: StorageOptions
        @Option(help: "queued, running, done or dead.") var state: String?
        @Option(help: "How many, newest first.") var limit: Int = 50

        func run() async throws {
            let filter: JobState? = try state.map { state in
                guard let parsed = JobState(rawValue: state) else {
                    throw OperatorError("--state must be one of \(JobState.allCases.map(\.rawValue).joined(separator: ", ")), not \(state)")
                }
                return parsed
            }
            let limit = max(1, min(self.limit, 10_000))
            let (jobs, counts) = try await storage.withStore { store in
                try await JobQueue(store: store, clock: .system).jobs(state: filter, limit: limit)
            }
            print(JobState.allCases.map { "\($0.rawValue): \(counts[$0] ?? 0)" }.joined(separator: "  "))
            let formatter = ISO8601DateFormatter()
            for job in jobs {
                var line = [job.id.uuidString, job.kind.rawValue, job.state.rawValue, "attempts \(job.attempts)/\(job.maxAttempts)",
                            "run at \(formatter.string(from: job.runAt))"]
                if let error = job.lastError { line.append("last error: \(error)") }
                print(line.joined(separator: "\t"))
            }
        }
    }

    struct Retry: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Put a dead job back in the queue.")
        @OptionGroup var storage: StorageOptions
        @Argument(help: "Job ID (from `jadwal jobs list --state dead`).") var id: String

        func run() async throws {
            guard let jobID = UUID(uuidString: id) else { throw OperatorError("'\(id)' is not a job ID") }
            let requeued = try await storage.withStore { store in
                try await JobQueue(store: store, clock: .system).retry(id: jobID)
            }
            guard requeued else { throw OperatorError("no dead job \(id)") }
            print("requeued \(id)")
        }
    }
}
