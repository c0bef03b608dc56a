import ArgumentParser
import Foundation
import JadwalCore
import JadwalMail
import JadwalServer
import Storage

struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Manage accounts.",
        subcommands: [Create.self, List.self, Disable.self, Enable.self, Delete.self]
    )

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create an account (it signs in with an email link).")
        @OptionGroup var storage: StorageOptions
        @Argument(help: "Email address.") var email: String
        @Option(help: "Display name.") var name: String = ""
        @Option(name: .customLong("time-zone"), help: "IANA time zone, e.g. Asia/Riyadh.") var timeZone: String = "UTC"
        @Option(help: "Language: en or ar.") var language: String = "en"

        func run() async throws {
            let address = try parsedEmail(email)
            guard let lang = Language(rawValue: language) else { throw OperatorError("--language must be en or ar, not \(language)") }
            let created: Account
            do {
                created = try await storage.withStore { store in
                    try await Accounts(store: store, clock: .system, random: .system).create(email: address, name: name, timeZone: timeZone, language: lang)
                }
            } catch let problem as Accounts.Problem {
                throw OperatorError(problem)
            }
            print("created \(address) (\(created.id.uuidString))")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List accounts.")
        @OptionGroup var storage: StorageOptions

        func run() async throws {
            let accounts = try await storage.withStore { store in try await Accounts(store: store, clock: .system, random: .system).all() }
            if accounts.isEmpty {
                print("no accounts yet")
                return
            }
            let formatter = ISO8601DateFormatter()
            for account in accounts {
                let state = account.isDisabled ? "disabled" : "active"
                print([account.email.value, state, account.name.isEmpty ? "-" : account.name, account.timeZone, formatter.string(from: account.createdAt)]
                    .joined(separator: "\t"))
            }
        }
    }

    struct Disable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Disable an account and sign it out everywhere.")
        @OptionGroup var storage: StorageOptions
        @Argument(help: "Email address.") var email: String

        func run() async throws {
            try await setDisabled(email: email, disabled: true, storage: storage)
            print("disabled \(try parsedEmail(email)) and ended its sessions")
        }
    }

    struct Enable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Enable a disabled account.")
        @OptionGroup var storage: StorageOptions
        @Argument(help: "Email address.") var email: String

        func run() async throws {
            try await setDisabled(email: email, disabled: false, storage: storage)
            print("enabled \(try parsedEmail(email))")
        }
    }
}

extension UserCommand {
    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete an account and everything in it; a last email tells its address.",
            discussion: """
                Removes its calendars, tasks, routines, goals, chats, devices, app passwords, feeds, CalDAV \
                accounts, WhatsApp link, sessions, shares both ways and notifications, and cancels its queued \
                jobs. It cannot be undone: export first (jadwal export). The last email waits in the job queue \
                for the server's workers, sealed with the server's secret key (JADWAL_SECRET_KEY or the data \
                directory's key file) and worded for JADWAL_PUBLIC_URL and JADWAL_MAIL_FROM. Asks for the \
                address again unless --yes.
                """)
        @OptionGroup var storage: StorageOptions
        @Argument(help: "Email address.") var email: String
        @Flag(help: "Do not ask for the address again.") var yes = false

        func run() async throws {
            let address = try parsedEmail(email)
            if !yes {
                print("This deletes \(address) and everything in it; it cannot be undone. Type the address again to go on: ", terminator: "")
                guard let typed = readLine(), (try? EmailAddress(typed)) == address else { throw OperatorError("not deleted: the address typed differs") }
            }
            let environment = ProcessInfo.processInfo.environment
            var configuration = ServerConfiguration()
            storage.apply(to: &configuration, environment: environment)
            configuration.publicURL = environment["JADWAL_PUBLIC_URL"]
            configuration.secretKey = environment["JADWAL_SECRET_KEY"].flatMap { $0.isEmpty ? nil : $0 }
            if let from = environment["JADWAL_MAIL_FROM"] {
                do {
                    configuration.mailFrom = try ConfigurationValue.mailAddress(from)
                } catch {
                    throw OperatorError("JADWAL_MAIL_FROM: \(error)")
                }
            }
            let settings = configuration
            do {
                try await storage.withStore { store in
                    try await accountOwnership(settings, store: store).deletion.delete(email: address)
                }
            } catch AccountDeletion.Problem.noAccount {
                throw OperatorError("no account for \(address)")
            }
            print("deleted \(address) and everything in it; a last email to it is queued")
        }
    }
}

func parsedEmail(_ text: String) throws -> EmailAddress {
    do {
        return try EmailAddress(text)
    } catch {
        throw OperatorError("'\(text)' is not a valid email address: \(error)")
    }
}

private func setDisabled(email: String, disabled: Bool, storage: StorageOptions) async throws {
    let address = try parsedEmail(email)
    do {
        try await storage.withStore { store in try await Accounts(store: store, clock: .system, random: .system).setDisabled(disabled, email: address) }
    } catch let problem as Accounts.Problem {
        throw OperatorError(problem)
    }
}
