import ArgumentParser
import Foundation
import JadwalCore

/// `jadwal chats …`: what the operator needs to see of chat reading.
struct ChatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chats", abstract: "Inspect how chats are read.",
        subcommands: [Failures.self]
    )

    struct Failures: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List conversations whose reading failed (the model's answer unusable, a reading error, a plan that could not be placed).",
            discussion: "No message text is stored or shown: the conversation, the reason and the time. Entries age out with each account's retention period.")
        @OptionGroup var storage: StorageOptions
        @Option(help: "Only failures since then: an ISO 8601 date or time (2026-11-20, 2026-11-20T08:00:00Z) or an age (90m, 24h, 7d).")
        var since: String?
        @Option(help: "How many, newest first.") var limit: Int = 100

        func run() async throws {
            let from = try since.map { try Self.instant($0, now: Date()) }
            let failures = try await storage.withStore { store in try await ChatFailureLog(store: store).recent(since: from, limit: limit) }
            let formatter = ISO8601DateFormatter()
            if failures.isEmpty { print(from.map { "no failed readings since \(formatter.string(from: $0))" } ?? "no failed readings") }
            for failure in failures {
                print([formatter.string(from: failure.occurredAt), failure.reason, "conversation \(failure.conversationID.uuidString.lowercased())",
                       "account \(failure.accountID.uuidString.lowercased())", failure.source.rawValue, failure.summary].joined(separator: "\t"))
            }
        }

        /// `--since` as an instant: an ISO 8601 time or date (UTC midnight), or an age before `now`.
        static func instant(_ text: String, now: Date) throws -> Date {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if let unit = trimmed.last, let amount = Int(trimmed.dropLast()), amount >= 0,
               let seconds = ["m": 60, "h": 3_600, "d": 86_400][String(unit)] {
                return now - TimeInterval(amount * seconds)
            }
            if let time = ISO8601DateFormatter().date(from: trimmed) { return time }
            let day = ISO8601DateFormatter()
            day.formatOptions = [.withFullDate]
            if let date = day.date(from: trimmed) { return date }
            throw OperatorError("--since must be an ISO 8601 date or time (2026-11-20, 2026-11-20T08:00:00Z) or an age (90m, 24h, 7d), not '\(text)'")
        }
    }
}
