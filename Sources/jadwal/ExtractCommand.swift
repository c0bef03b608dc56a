import ArgumentParser
import Conversations
import Foundation
import JadwalCore
import JadwalLLM
import JadwalServer
import PrayerTimes

/// `jadwal extract --jsonl`: the extraction contract of testdata/chats/README.md, on stdin/stdout,
/// through the same rule-based extractor the server uses; with `--llm-url`, through the LLM
/// extractor in front of the rules, as the server does when one is configured.
struct ExtractCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract",
        abstract: "Read conversations and say what was agreed in them (offline, deterministic).",
        discussion: """
            With --jsonl, reads one conversation per line on stdin ({id, now, timezone, me, messages, prayerTimes}) \
            and writes one prediction per line on stdout ({id, status, event, events}), in order. A line that \
            cannot be read is answered with status NO_EVENT and an "error"; the exit code stays 0.

            With --llm-url and --llm-model, each conversation goes to that OpenAI-compatible API first (its key \
            from JADWAL_LLM_API_KEY); when the model gives no valid answer in time the rules answer, and standard \
            error says why, with a summary at the end.
            """)

    @Flag(name: .long, help: "JSON Lines in, JSON Lines out.")
    var jsonl = false

    @Option(name: .customLong("llm-url"), help: "OpenAI-compatible API base, e.g. http://127.0.0.1:8081/v1 (default: the rules alone).")
    var llmURL: String?

    @Option(name: .customLong("llm-model"), help: "Model name sent to that API.")
    var llmModel: String?

    @Option(name: .customLong("llm-timeout-seconds"), help: "How long one conversation may wait for the model (default 30).")
    var llmTimeoutSeconds: String?

    // For scripts/chats/train_status_model.py: the status model's input, and other weights than the shipped ones.
    @Flag(name: .customLong("status-features"), help: ArgumentHelp(visibility: .hidden))
    var statusFeatures = false

    @Option(name: .customLong("status-weights"), help: ArgumentHelp(visibility: .hidden))
    var statusWeights: String?

    func run() async throws {
        guard jsonl else {
            throw ValidationError("Only the JSON Lines contract is available: pass --jsonl and conversations on stdin.")
        }
        var rules = RuleExtractor()
        if statusWeights == "none" {
            rules.statusModel = nil  // the rules decide the state alone (the default)
        } else if statusWeights == "shipped" {
            rules.statusModel = StatusModel.shipped  // reader D: the weights in the source
        } else if let statusWeights {
            guard let model = StatusModel(contentsOfFile: statusWeights) else { throw ValidationError("Cannot read the status weights \(statusWeights).") }
            rules.statusModel = model
        }
        let contract = ExtractionJSONLines(extractor: rules, isRamadan: Self.isRamadan)
        if statusFeatures {
            while let line = readLine(strippingNewline: true) {
                guard !line.allSatisfy(\.isWhitespace) else { continue }
                print(contract.statusFeatures(line: line) ?? #"{"error":"unreadable"}"#)
            }
            return
        }
        let llm: LLMConfiguration?
        do {
            // Flags only: the scored, offline reading must not change with the server's environment.
            llm = try ConfigurationValue.llm(
                url: llmURL, model: llmModel, apiKey: ProcessInfo.processInfo.environment["JADWAL_LLM_API_KEY"],
                timeoutSeconds: llmTimeoutSeconds, names: .flags)
        } catch {
            throw ValidationError("\(error)")
        }
        guard let llm else {
            while let line = readLine(strippingNewline: true) {
                guard !line.allSatisfy(\.isWhitespace) else { continue }
                print(contract.predict(line: line))
            }
            return
        }

        let extractor = LLMExtractor(model: llm.model, transport: HTTPChatCompletionTransport(llm))
        var tally = LLMTally()
        while let line = readLine(strippingNewline: true) {
            guard !line.allSatisfy(\.isWhitespace) else { continue }
            // Written at once, unbuffered: a slow model's answers show up as they come.
            switch contract.read(line: line) {
            case .unreadable(let prediction):
                FileHandle.standardOutput.write(Data((prediction + "\n").utf8))
            case .conversation(let conversation):
                let extraction = await extractor.extraction(of: conversation.messages, context: conversation.context)
                tally.add(extraction)
                if let reason = extraction.fallbackReason {
                    Self.standardError("\(conversation.idText): the rules answered: \(reason)")
                }
                FileHandle.standardOutput.write(Data((contract.prediction(for: conversation, outcome: extraction.outcome) + "\n").utf8))
            }
        }
        Self.standardError(tally.summary)
    }

    static func standardError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Ramadan by the tabular Hijri calendar of the PrayerTimes module.
    @Sendable static func isRamadan(_ day: LocalDateTime) -> Bool {
        guard let date = try? LocalDate(year: day.year, month: day.month, day: day.day) else { return false }
        return HijriDate(gregorian: date)?.isRamadan ?? false
    }
}

/// How the LLM did over a run: who answered, why the rules had to, and how long the model took.
struct LLMTally {
    var byModel = 0
    var fallbacks: [String: Int] = [:]
    var milliseconds: [Int] = []

    mutating func add(_ extraction: LLMExtraction) {
        if let reason = extraction.fallbackReason { fallbacks[reason.code, default: 0] += 1 } else { byModel += 1 }
        let (seconds, attoseconds) = extraction.elapsed.components
        milliseconds.append(Int(seconds) * 1_000 + Int(attoseconds / 1_000_000_000_000_000))
    }

    var summary: String {
        let total = byModel + fallbacks.values.reduce(0, +)
        guard total > 0 else { return "LLM: no conversation read" }
        let sorted = milliseconds.sorted()
        func percentile(_ p: Double) -> String {
            let index = min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))
            return String(format: "%.2f s", Double(sorted[index]) / 1_000)
        }
        let reasons = fallbacks.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }
            .map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let rules = total - byModel
        return "LLM: \(total) conversations; the model answered \(byModel), the rules \(rules)"
            + (reasons.isEmpty ? "" : " (\(reasons))")
            + "; time per conversation: median \(percentile(0.5)), p90 \(percentile(0.9)), max \(percentile(1))"
    }
}
