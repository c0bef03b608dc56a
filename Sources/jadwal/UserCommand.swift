import ArgumentParser
import Foundation
import JadwalCore
import Storage

struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Manage accounts.",
        subcommands: [Create.self, List.self, Disable.self, Enable.self]
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
                throw OperatorError(problem.description)
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
        throw OperatorError(problem.description)
    }
}
