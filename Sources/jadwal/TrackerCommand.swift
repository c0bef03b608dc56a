import ArgumentParser
import Foundation
import JadwalCore

/// `jadwal tracker …`: the tracker from the server's shell.
struct TrackerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tracker", abstract: "Work with people's trackers (sleep, exercise, measures).",
        subcommands: [ImportHealth.self]
    )

    struct ImportHealth: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import-health",
            abstract: "Import Apple Health's export (export.zip, or its export.xml): nights of sleep and workouts.",
            discussion: """
                The file is read as it streams, so an export of gigabytes needs little memory. Importing the \
                same export again adds nothing; a later export replaces the nights it knows better. A record \
                that cannot be read is left out and listed with its line.
                """
        )

        @OptionGroup var storage: StorageOptions
        @Argument(help: "The export.zip the Health app wrote (Profile → Export All Health Data), or export.xml.") var file: String
        @Option(help: "The account's email address.") var user: String

        func run() async throws {
            let email = try parsedEmail(user)
            let url = URL(fileURLWithPath: file)
            guard FileManager.default.isReadableFile(atPath: url.path) else { throw OperatorError("cannot read \(file)") }
            let progress = TerminalProgress()
            let draw = progress.counting("reading export (KiB)")
            let file = self.file
            let report = try await storage.withStore { store in
                let account = try await Accounts(store: store, clock: .system, random: .system).account(email: email)
                do {
                    let report = try await HealthImport(store: store, clock: .system, random: .system).importFile(at: url, account: account) { done, total in
                        // Whole KiB rounded up, so a small file ends at 100%, not 0/1.
                        draw?(Int((done + 1023) >> 10), Int(max((total + 1023) >> 10, 1)))
                    }
                    progress.finish()
                    return report
                } catch let problem as HealthImport.Problem {
                    progress.finish()
                    throw OperatorError(problem, file: file, fileName: url.lastPathComponent)
                }
            }
            print("\(file): \(report.file): \(report.records) records read; \(report.nights) nights of sleep (from \(report.sleepSamples) samples) and "
                + "\(report.workouts) workouts; \(report.added) added, \(report.replaced) earlier nights replaced, \(report.unchanged) already there")
            for problem in report.problems {
                print("\(file):\(problem.line > 0 ? " \(report.file):\(problem.line):" : "") \(problem.reason) (left out)")
            }
            if report.problemCount > report.problems.count {
                print("\(file): \(report.problemCount - report.problems.count) more records left out")
            }
        }
    }
}
