import ArgumentParser
import Foundation

@main
struct Jadwal: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jadwal",
        abstract: "Jadwal (جدول): a self-hosted calendar server.",
        version: "0.1.0",
        subcommands: [ServeCommand.self, MigrateCommand.self, UserCommand.self, JobsCommand.self, AppPasswordCommand.self, PrayerTimesCommand.self, ICSCommand.self, ExtractCommand.self, ImportChatCommand.self, ImportICSCommand.self, ChatsCommand.self, ExportCommand.self, TrackerCommand.self]
    )

    /// ArgumentParser's own main, after the heap's arenas are limited: that must come before any
    /// second thread allocates, or the thread keeps an arena of its own whatever the limit says.
    static func main() async {
        ServeCommand.limitHeapArenas(environment: ProcessInfo.processInfo.environment)
        do {
            var command = try parseAsRoot()
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
