import ArgumentParser
import Foundation
import JadwalCore
import JadwalHTTP
import JadwalServer
import Logging
import Storage

struct AppPasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app-password", abstract: "Passwords for CalDAV clients, one per device.",
        subcommands: [Create.self, List.self, Revoke.self]
    )

    /// The same service the server runs, with bcrypt as the server hashes.
    static func appPasswords(_ store: any Store) -> AppPasswords {
        AppPasswords(store: store, clock: .system, random: .system, hashing: .bcrypt())
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make a new app password and print it (it is shown only once).")
        @OptionGroup var storage: StorageOptions
        @Argument(help: "The account's email address.") var email: String
        @Option(help: "The device it is for, e.g. \"Sara's iPhone\".") var name: String

        func run() async throws {
            guard let deviceName = AppPassword.validName(name) else {
                throw OperatorError("--name must be 1 to \(AppPassword.nameLimit) characters without control characters")
            }
            let address = try parsedEmail(email)
            let printed = try await storage.withStore { store -> String in
                let appPasswords = AppPasswordCommand.appPasswords(store)
                let account = try await Accounts(store: store, clock: .system, random: .system).account(email: address)
                return try await appPasswords.create(accountID: account.id, name: deviceName).1
            }
            print("user name: \(address)\npassword:  \(printed)")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List an account's app passwords.")
        @OptionGroup var storage: StorageOptions
        @Argument(help: "The account's email address.") var email: String

        func run() async throws {
            let address = try parsedEmail(email)
            let passwords = try await storage.withStore { store in
                let appPasswords = AppPasswordCommand.appPasswords(store)
                return try await appPasswords.active(accountID: try await Accounts(store: store, clock: .system, random: .system).account(email: address).id)
            }
            let formatter = ISO8601DateFormatter()
            for password in passwords {
                print([password.id.uuidString, password.name, "created \(formatter.string(from: password.createdAt))",
                       password.lastUsedAt.map { "last used \(formatter.string(from: $0))" } ?? "never used"].joined(separator: "\t"))
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke an app password: that device stops syncing.")
        @OptionGroup var storage: StorageOptions
        @Argument(help: "The account's email address.") var email: String
        @Argument(help: "The app password's ID (from `jadwal app-password list`).") var id: String

        func run() async throws {
            let address = try parsedEmail(email)
            guard let passwordID = UUID(uuidString: id) else { throw OperatorError("'\(id)' is not an app password ID") }
            let revoked = try await storage.withStore { store in
                let appPasswords = AppPasswordCommand.appPasswords(store)
                return try await appPasswords.revoke(id: passwordID, accountID: try await Accounts(store: store, clock: .system, random: .system).account(email: address).id)
            }
            guard revoked else { throw OperatorError("no active app password \(id) for \(address)") }
            print("revoked \(id)")
        }
    }
}
