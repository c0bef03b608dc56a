import Conversations
import Foundation
import HTTPTypes
import HummingbirdTesting
@testable import JadwalServer
import JadwalCore
@testable import JadwalHTTP
@testable import JadwalAPI
@testable import JadwalWeb
@testable import JadwalCalDAV
@testable import JadwalMail
@testable import JadwalPush
@testable import JadwalLLM
@testable import JadwalJobs
import JadwalTestSupport
import NIOCore
import NIOPosix
import Synchronization
import Testing

/// The real server the LLM extractor is tested against: llama.cpp's OpenAI-compatible server
/// with Gemma 3 270M, started by scripts/llm.sh from the test command, which exports its URL.
enum LLMTestServer {
    static var url: String? { TestEnvironment.environment["JADWAL_TEST_LLM_URL"].flatMap { $0.isEmpty ? nil : $0 } }
    static var model: String { TestEnvironment.environment["JADWAL_TEST_LLM_MODEL"] ?? "gemma-3-270m" }
    /// In CI the server must be there: a missing one fails instead of skipping.
    static let shouldRun = url != nil || TestEnvironment.isCI

    static func configuration(timeout: Duration = .seconds(300)) throws -> LLMConfiguration {
        guard let url else {
            throw TestSetupError("JADWAL_TEST_LLM_URL is not set: run the README's test command (scripts/test.sh), which starts scripts/llm.sh")
        }
        return try #require(try ConfigurationValue.llm(url: url, model: model, apiKey: nil, timeoutSeconds: "\(timeout.components.seconds)"))
    }

    /// A few labelled conversations of the public dev set: English, Gulf Arabic with a prayer
    /// time, a refusal after a counter-proposal, Arabizi.
    static func devConversations(_ ids: [String]) throws -> [ExtractionJSONLines.Conversation] {
        let file = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/ConversationsTests/Fixtures/extraction/dev.jsonl")
        let contract = ExtractionJSONLines(isRamadan: { _ in false })
        var found: [String: ExtractionJSONLines.Conversation] = [:]
        for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
            if case .conversation(let conversation) = contract.read(line: String(line)), ids.contains(conversation.idText) {
                found[conversation.idText] = conversation
            }
        }
        return try ids.map { id in try #require(found[id], "\(id) is not in dev.jsonl") }
    }

    /// A loopback port nothing listens on.
    static func closedPort() throws -> Int {
        let channel = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).wait()
        let port = try #require(channel.localAddress?.port)
        try channel.close().wait()
        return port
    }
}

/// What every outcome the LLM extractor returns must satisfy, whoever answered.
func expectWellFormed(_ outcome: ConversationOutcome, of conversation: ExtractionJSONLines.Conversation, sourceLocation: SourceLocation = #_sourceLocation) {
    let zone = conversation.context.timeZone
    switch outcome.state {
    case .noEvent:
        #expect(outcome.event == nil && outcome.otherEvents.isEmpty, sourceLocation: sourceLocation)
    case .proposed, .denied:
        #expect(outcome.event != nil && outcome.otherEvents.isEmpty, sourceLocation: sourceLocation)
    case .agreed:
        for event in outcome.agreedEvents {
            #expect(event.start != nil, "an agreed event without a start", sourceLocation: sourceLocation)
        }
    }
    for event in [outcome.event].compactMap({ $0 }) + outcome.otherEvents {
        if let start = event.start, let end = event.end { #expect(end > start, sourceLocation: sourceLocation) }
        if let anchor = event.startRelativeTo, let start = event.start {
            let adhan = conversation.context.prayerTimes.adhan(anchor, on: start)
            #expect(adhan.map { [$0.hour, $0.minute] } == [start.hour, start.minute], "a prayer-relative start is the adhan", sourceLocation: sourceLocation)
        }
        if let start = event.start, let first = conversation.messages.first {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let day = calendar.dateComponents([.year, .month, .day], from: first.timestamp)
            let firstDay = LocalDateTime(year: day.year ?? 0, month: day.month ?? 0, day: day.day ?? 0)
            #expect(firstDay.map { start >= $0 } ?? false, "a plan before the conversation", sourceLocation: sourceLocation)
        }
    }
}

@Suite(
    "LLM extractor against a real OpenAI-compatible server (llama.cpp with Gemma 3 270M)", .serialized,
    .enabled(if: LLMTestServer.shouldRun, "JADWAL_TEST_LLM_URL is not set: scripts/test.sh starts the llama.cpp server (scripts/llm.sh) and sets it"))
struct LLMExtractorServerTests {
    @Test("real conversations come back validated from the model, or from the rules with the reason")
    func realConversations() async throws {
        let transport = HTTPChatCompletionTransport(try LLMTestServer.configuration())
        let extractor = LLMExtractor(model: LLMTestServer.model, transport: transport)
        var answeredBy: [String] = []
        for conversation in try LLMTestServer.devConversations(["dev-en-001", "dev-ar-001", "dev-ar-040", "dev-mx-005"]) {
            let extraction = await extractor.extraction(of: conversation.messages, context: conversation.context)
            let rules = RuleExtractor().outcomeNow(of: conversation.messages, context: conversation.context)
            expectWellFormed(extraction.outcome, of: conversation)
            switch extraction.answeredBy {
            case .model:
                answeredBy.append("\(conversation.idText): model \(extraction.outcome.state.rawValue) in \(extraction.elapsed)")
            case .rules(let reason):
                answeredBy.append("\(conversation.idText): rules (\(reason)) in \(extraction.elapsed)")
                // The server is up and the time generous: only the model's content may be at fault.
                if case .transport(let error) = reason { Issue.record("\(conversation.idText): the real server was not reached: \(error)") }
                #expect(extraction.outcome == rules, "a fallback is exactly the rules' reading")
            }
        }
        print("LLM extractor on the real server:\n  " + answeredBy.joined(separator: "\n  "))
    }

    @Test("a timeout shorter than the model needs falls back to the rules, promptly")
    func tooShortTimeout() async throws {
        let transport = HTTPChatCompletionTransport(endpoint: try LLMTestServer.configuration().endpoint, timeout: .milliseconds(50))
        let extractor = LLMExtractor(model: LLMTestServer.model, transport: transport)
        let conversation = try #require(try LLMTestServer.devConversations(["dev-en-001"]).first)
        let extraction = await extractor.extraction(of: conversation.messages, context: conversation.context)
        #expect(extraction.fallbackReason == .transport(.timedOut(after: .milliseconds(50))))
        #expect(extraction.outcome == RuleExtractor().outcomeNow(of: conversation.messages, context: conversation.context))
        #expect(extraction.outcome.state == .agreed, "the rules read dev-en-001 as agreed")
        // The deadline held: the answer did not wait for the model to finish.
        #expect(extraction.elapsed < .seconds(2), "\(extraction.elapsed)")
    }

    @Test("an HTTP error from the real server (a path it does not serve) falls back with the status")
    func httpError() async throws {
        let base = try LLMTestServer.configuration().endpoint.replacingOccurrences(of: "/v1/chat/completions", with: "/no-such-api/chat/completions")
        let extractor = LLMExtractor(model: LLMTestServer.model, transport: HTTPChatCompletionTransport(endpoint: base, timeout: .seconds(60)))
        let conversation = try #require(try LLMTestServer.devConversations(["dev-ar-001"]).first)
        let extraction = await extractor.extraction(of: conversation.messages, context: conversation.context)
        guard case .transport(.httpStatus(let status, _))? = extraction.fallbackReason else {
            Issue.record("expected an HTTP status, got \(String(describing: extraction.fallbackReason))")
            return
        }
        #expect(status == 404)
        #expect(extraction.outcome == RuleExtractor().outcomeNow(of: conversation.messages, context: conversation.context))
    }

    @Test("the server reads imported chats with the LLM when configured (counted in /metrics)")
    func serverUsesTheLLM() async throws {
        let llm = try LLMTestServer.configuration()
        try await ServerHarness.run(configure: { $0.llm = llm }) { harness, client in
            let before = try await extractionCount(client)
            let (user, _) = try await ChatAPITests.omar(harness, client)
            // The server's own inbox, without HTTP: the test client gives up on a request after
            // 20 s, and a 270M model on a busy 2-core machine may take longer than that.
            let (_, report) = try await harness.instance.chatInbox.importWhatsAppExport(
                Data(ChatAPITests.dinner.utf8), accountID: user.accountID, me: nil)
            #expect(report.conversations.count == 1)
            let after = try await extractionCount(client)
            let read = after.filter { before[$0.key] != $0.value }
            #expect(!read.isEmpty, "no LLM extraction was counted: \(after)")
            // The real server answered: whatever the model said, no transport reason.
            for key in read.keys {
                #expect(!["timed_out", "unreachable", "http_status", "transport_failed"].contains(key.reason), "\(key)")
            }
        }
    }
}

/// The fallback paths that need no model: they run everywhere, CI or not.
@Suite("LLM extractor fallbacks without a model")
struct LLMExtractorFallbackTests {
    static func conversation(_ id: String = "dev-en-001") throws -> ExtractionJSONLines.Conversation {
        try #require(try LLMTestServer.devConversations([id]).first)
    }

    @Test("an unreachable port falls back to the rules, saying so")
    func unreachable() async throws {
        let port = try LLMTestServer.closedPort()
        let transport = HTTPChatCompletionTransport(endpoint: "http://127.0.0.1:\(port)/v1/chat/completions", timeout: .seconds(60))
        let observed = ObservedExtractions()
        let extractor = LLMExtractor(model: "any", transport: transport, observe: { observed.add($0) })
        let conversation = try Self.conversation()
        var outcome = await extractor.outcome(of: conversation.messages, context: conversation.context)
        // The failure travels with the outcome for the operator's list, naming the cause only.
        #expect(outcome.problem?.code == "llm_unreachable" && outcome.problem?.summary.contains("could not be reached") == true)
        outcome.problem = nil
        #expect(outcome == RuleExtractor().outcomeNow(of: conversation.messages, context: conversation.context))
        let reasons = observed.all.map(\.fallbackReason)
        guard case .transport(.unreachable(let detail))?? = reasons.first, reasons.count == 1 else {
            Issue.record("expected one unreachable fallback, got \(reasons)")
            return
        }
        #expect(!detail.isEmpty)
        // Refused at once, not retried until the 60 s deadline: an import does not wait on a dead
        // endpoint (well under a second when the machine is not busy).
        #expect(observed.all[0].elapsed < .seconds(30), "\(observed.all[0].elapsed)")
    }

    @Test("a conversation longer than the prompt may carry is read by the rules without asking")
    func tooLong() async throws {
        // An endpoint nobody listens on: a request would fail as unreachable, not as too long.
        let transport = HTTPChatCompletionTransport(endpoint: "http://127.0.0.1:\(try LLMTestServer.closedPort())/v1/chat/completions", timeout: .seconds(5))
        let conversation = try Self.conversation()
        let limited = LLMExtractor(model: "any", transport: transport, limits: .init(maximumMessages: 3))
        let extraction = await limited.extraction(of: conversation.messages, context: conversation.context)
        #expect(extraction.fallbackReason == .conversationTooLong(messages: 4, characters: conversation.messages.reduce(0) { $0 + $1.text.count }))
        #expect(extraction.outcome == RuleExtractor().outcomeNow(of: conversation.messages, context: conversation.context))
        let empty = await limited.extraction(of: [], context: conversation.context)
        #expect(empty.fallbackReason == .nothingToRead && empty.outcome == ConversationOutcome(state: .noEvent))
    }

    @Test("a server configured with an unreachable LLM still imports chats by the rules, and counts the fallback")
    func serverFallsBack() async throws {
        let port = try LLMTestServer.closedPort()
        let llm = try #require(try ConfigurationValue.llm(url: "http://127.0.0.1:\(port)/v1", model: "gemma-3-270m", apiKey: nil, timeoutSeconds: "5"))
        try await ServerHarness.run(configure: { $0.llm = llm }) { harness, client in
            let before = try await extractionCount(client)
            let (_, token) = try await ChatAPITests.omar(harness, client)
            let imported = try await ChatAPITests.importRaw(client, Array(ChatAPITests.dinner.utf8), token: token)
            try #require(imported.status == .ok, "\(imported.text)")
            let report = try imported.json(ChatAPITests.Import.self)
            #expect(report.events.map(\.start) == ["2026-09-22T20:00"], "the rules' dinner")
            let after = try await extractionCount(client)
            let key = ExtractionKey(answeredBy: "rules", reason: "unreachable")
            #expect((after[key] ?? 0) > (before[key] ?? 0), "\(after)")
        }
    }

    @Test("configuration: off without a URL; the endpoint, model, key and timeout read; bad values name the variable")
    func configuration() throws {
        #expect(try ConfigurationValue.llm(url: nil, model: "m", apiKey: "k", timeoutSeconds: "x") == nil)
        #expect(try ConfigurationValue.llm(url: " ", model: nil, apiKey: nil, timeoutSeconds: nil) == nil)
        let local = try #require(try ConfigurationValue.llm(url: "http://127.0.0.1:8081/v1/", model: "gemma-3-270m", apiKey: "", timeoutSeconds: nil))
        #expect(local == LLMConfiguration(endpoint: "http://127.0.0.1:8081/v1/chat/completions", model: "gemma-3-270m", apiKey: nil, timeout: .seconds(30)))
        let hosted = try #require(try ConfigurationValue.llm(
            url: "https://api.example.com/v1/chat/completions", model: "small", apiKey: "sk-123", timeoutSeconds: "2.5"))
        #expect(hosted == LLMConfiguration(endpoint: "https://api.example.com/v1/chat/completions", model: "small", apiKey: "sk-123", timeout: .milliseconds(2_500)))

        func problem(_ url: String?, _ model: String?, _ timeout: String?) -> String {
            do {
                _ = try ConfigurationValue.llm(url: url, model: model, apiKey: nil, timeoutSeconds: timeout)
                return "accepted"
            } catch {
                return "\(error)"
            }
        }
        #expect(problem("127.0.0.1:8081", "m", nil).hasPrefix("JADWAL_LLM_URL must be the http(s) address"))
        #expect(problem("ftp://example.com/v1", "m", nil).hasPrefix("JADWAL_LLM_URL must be the http(s) address"))
        #expect(problem("http://127.0.0.1:8081/v1", nil, nil).hasPrefix("JADWAL_LLM_MODEL must name the model"))
        #expect(problem("http://127.0.0.1:8081/v1", "m", "0").hasPrefix("JADWAL_LLM_TIMEOUT_SECONDS must be a number of seconds"))
        #expect(problem("http://127.0.0.1:8081/v1", "m", "ten").hasPrefix("JADWAL_LLM_TIMEOUT_SECONDS must be a number of seconds"))
        #expect(problem("http://127.0.0.1:8081/v1", "m", "601").hasPrefix("JADWAL_LLM_TIMEOUT_SECONDS must be a number of seconds"))
        // `jadwal extract` takes flags only, and its errors name them.
        #expect(throws: (any Error).self) { try ConfigurationValue.llm(url: "http://h/v1", model: nil, apiKey: nil, timeoutSeconds: nil, names: .flags) }
        do {
            _ = try ConfigurationValue.llm(url: "http://h/v1", model: nil, apiKey: nil, timeoutSeconds: nil, names: .flags)
        } catch {
            #expect("\(error)".hasPrefix("--llm-model must name the model when --llm-url is set"))
        }
        #expect(try ConfigurationValue.llm(environment: ["JADWAL_LLM_URL": "http://localhost:1/v1", "JADWAL_LLM_MODEL": "m",
                                                          "JADWAL_LLM_API_KEY": "k", "JADWAL_LLM_TIMEOUT_SECONDS": "7"])
                == LLMConfiguration(endpoint: "http://localhost:1/v1/chat/completions", model: "m", apiKey: "k", timeout: .seconds(7)))
    }
}

/// Extractions seen by an `observe` hook.
final class ObservedExtractions: Sendable {
    private let items = Mutex<[LLMExtraction]>([])
    func add(_ extraction: LLMExtraction) { items.withLock { $0.append(extraction) } }
    var all: [LLMExtraction] { items.withLock { $0 } }
}

struct ExtractionKey: Hashable, CustomStringConvertible {
    var answeredBy: String
    var reason: String
    var description: String { "\(answeredBy)/\(reason)" }
}

/// `jadwal_chat_extractions_total` from `/metrics`, by its labels (process-wide: compare before and after).
func extractionCount(_ client: some TestClientProtocol) async throws -> [ExtractionKey: Double] {
    let text = try await client.send(.get, "/metrics").text
    var counts: [ExtractionKey: Double] = [:]
    for line in text.split(separator: "\n") where line.hasPrefix("jadwal_chat_extractions_total{") {
        guard let close = line.lastIndex(of: "}"), let value = Double(line[line.index(after: close)...].trimmingCharacters(in: .whitespaces)) else { continue }
        let labels = line.dropFirst("jadwal_chat_extractions_total{".count).prefix { $0 != "}" }
        func label(_ name: String) -> String {
            guard let range = labels.range(of: "\(name)=\"") else { return "" }
            return String(labels[range.upperBound...].prefix { $0 != "\"" })
        }
        counts[ExtractionKey(answeredBy: label("answered_by"), reason: label("reason"))] = value
    }
    return counts
}
