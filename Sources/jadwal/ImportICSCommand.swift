import ArgumentParser
import Foundation
import JadwalCore
import JadwalServer
import Storage

struct ImportICSCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-ics",
        abstract: "Import an .ics file (a Google, Apple or Outlook export) into one of an account's calendars.",
        discussion: """
            Items are matched by UID: one already in the calendar is replaced by the file's version, or \
            kept with --existing skip. A component that cannot be read is left out and listed, with its \
            line; the rest are imported.
            """
    )

    @OptionGroup var storage: StorageOptions
    @Argument(help: "The .ics file.") var file: String
    @Option(help: "The account's email address.") var user: String
    @Option(help: "The calendar's slug, the last part of its address (e.g. personal).") var calendar: String
    @Option(help: "update (default) or skip: what to do with items the calendar already has.") var existing: String = "update"

    func run() async throws {
        let email = try parsedEmail(user)
        guard let existing = CalendarTransfer.Existing(rawValue: existing) else {
            throw OperatorError("--existing must be update or skip, not \(existing)")
        }
        let bytes: [UInt8]
        do {
            bytes = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
        } catch {
            throw OperatorError("cannot read \(file): \((error as NSError).localizedDescription)")
        }
        var configuration = ServerConfiguration()
        storage.apply(to: &configuration, environment: ProcessInfo.processInfo.environment)
        let progress = TerminalProgress()
        let (file, slug) = (self.file, calendar)
        let report = try await storage.withStore { store in
            let account = try await Accounts(store: store, clock: .system, random: .system).account(email: email)
            guard let target = try await Calendars(store: store, clock: .system, random: .system).own(slug: slug, accountID: account.id) else { throw OperatorError("\(email) has no calendar '\(slug)'") }
            do {
                let report = try await CalendarTransfer(store: store, clock: .system, random: .system)
                    .importDocument(bytes, into: target, existing: existing, progress: progress.counting("importing"))
                progress.finish()
                return report
            } catch let problem as CalendarTransfer.Problem {
                progress.finish()
                throw OperatorError(problem, file: file)
            }
        }
        print("\(file): \(report.components) items in the file; \(report.created) added, \(report.updated) updated, \(report.unchanged) unchanged, "
            + "\(report.skippedExisting) kept as they were")
        for problem in report.problems {
            print("\(file):\(problem.line > 0 ? "\(problem.line):" : "") \(problem.component): \(problem.reason)\(problem.skipped ? " (left out)" : "")")
        }
    }
}
