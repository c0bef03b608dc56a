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
}
