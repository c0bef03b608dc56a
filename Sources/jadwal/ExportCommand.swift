import ArgumentParser
import Foundation
import JadwalCore
import JadwalHTTP
import JadwalServer

struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write everything an account holds to a zip: one .ics per calendar, JSON for the rest.",
        discussion: """
            The same archive as GET /api/v1/account/export and Settings → Your data: calendars/<slug>.ics, \
            account.json, settings.json, tasks.json, routines.json, goals.json, conversations.json (never the \
            words of messages) and notifications.json. The file is made readable by its owner only.
            """
    )

    @OptionGroup var storage: StorageOptions
    @Option(help: "The account's email address.") var user: String
    @Option(help: "Where to write the zip (default: jadwal-export-<date>.zip here).") var output: String?

    func run() async throws {
        let email = try parsedEmail(user)
        let (data, name) = try await storage.withStore { store in
            let export = AccountExport(store: store, clock: .system, random: .system)
            let account = try await Accounts(store: store, clock: .system, random: .system).account(email: email)
            let files = try await export.files(accountID: account.id)
            return (try CalendarDownload.archive(files.map { (path: $0.path, data: $0.data) }), export.fileName())
        }
        let path = output ?? name
        if FileManager.default.fileExists(atPath: path) { throw OperatorError("\(path) exists already; name another file with --output") }
        do {
            try PrivateFiles.createFile(path, contents: data)
        } catch {
            throw OperatorError("\(error)")
        }
        print("wrote \(path) (\(data.count) bytes)")
    }
}
