import ArgumentParser
import Conversations
import Foundation
import PrayerTimes

/// `jadwal extract --jsonl`: the extraction contract of testdata/chats/README.md, on stdin/stdout,
/// through the same rule-based extractor the server uses.
struct ExtractCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract",
        abstract: "Read conversations and say what was agreed in them (offline, deterministic).",
        discussion: """
            With --jsonl, reads one conversation per line on stdin ({id, now, timezone, me, messages, prayerTimes}) \
            and writes one prediction per line on stdout ({id, status, event, events}), in order. A line that \
            cannot be read is answered with status NO_EVENT and an "error"; the exit code stays 0.
            """)

    @Flag(name: .long, help: "JSON Lines in, JSON Lines out.")
    var jsonl = false

    func run() async throws {
        guard jsonl else {
            throw ValidationError("Only the JSON Lines contract is available: pass --jsonl and conversations on stdin.")
        }
        let contract = ExtractionJSONLines(isRamadan: Self.isRamadan)
        while let line = readLine(strippingNewline: true) {
            guard !line.allSatisfy(\.isWhitespace) else { continue }
            print(contract.predict(line: line))
        }
    }

    /// Ramadan by the tabular Hijri calendar of the PrayerTimes module.
    @Sendable static func isRamadan(_ day: LocalDateTime) -> Bool {
        guard let date = try? LocalDate(year: day.year, month: day.month, day: day.day) else { return false }
        return HijriDate(gregorian: date)?.isRamadan ?? false
    }
}
