import Foundation
import Testing
@testable import Conversations

/// What the LLM extractor believes of a model's answer: chat/completions envelopes recorded from
/// a llama.cpp server, and model contents checked field by field. Anything impossible is refused
/// with a reason, so the rules answer instead.
@Suite struct LLMAnswerTests {
    static let chat = LLMRequestTests.chat
    static let context = LLMRequestTests.context

    static func outcome(_ content: String, chat: [ChatMessage] = chat) -> Result<ConversationOutcome, LLMFallbackReason> {
        do throws(LLMFallbackReason) {
            return .success(try ModelAnswer.outcome(from: content, messages: chat, context: context))
        } catch {
            return .failure(error)
        }
    }

    static func refusal(_ content: String) -> LLMFallbackReason? {
        if case .failure(let reason) = outcome(content) { return reason }
        return nil
    }

    static func event(_ fields: String) -> String {
        #"{"status":"HAS_EVENT_AGREED","event":{\#(fields)},"events":[]}"#
    }

    static func time(_ text: String) -> LocalDateTime? { LocalTimeText(text).map(\.local) }

    // MARK: recorded envelopes

    static func recorded(_ name: String) throws -> Data {
        guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures/llm") else {
            throw SampleExports.FixtureMissing(name: "llm/\(name).json")
        }
        return try Data(contentsOf: url)
    }

    static func content(_ name: String) throws -> Result<String, LLMFallbackReason> {
        let body = try recorded(name)
        do throws(LLMFallbackReason) {
            return .success(try ChatCompletionResponse.content(of: body))
        } catch {
            return .failure(error)
        }
    }

    // MARK: valid answers

    @Test func agreedAnswerBecomesTheOutcome() throws {
        let answer = Self.outcome("""
            {"status": "HAS_EVENT_AGREED",
             "event": {"title": " Dinner ", "start": "2026-11-23T20:00", "end": null, "allDay": false,
                       "location": "Nando's, Tahlia St", "startRelativeTo": null},
             "events": []}
            """)
        let outcome = try answer.get()
        #expect(outcome.state == .agreed)
        #expect(outcome.event == ExtractedEvent(title: "Dinner", start: Self.time("2026-11-23T20:00"), location: "Nando's, Tahlia St"))
        #expect(outcome.otherEvents.isEmpty)
    }

    @Test func severalAgreedEventsLeadWithTheEarliest() throws {
        let outcome = try Self.outcome("""
            {"status":"HAS_EVENT_AGREED",
             "event":{"title":"Padel","start":"2026-11-26T19:00","end":"2026-11-26T21:00","allDay":false,"location":null,"startRelativeTo":null},
             "events":[{"title":"Coffee","start":"2026-11-24","end":null,"allDay":true,"location":null,"startRelativeTo":null}]}
            """).get()
        #expect(outcome.event?.title == "Coffee")
        #expect(outcome.event?.allDay == true)
        #expect(outcome.otherEvents.map(\.title) == ["Padel"])
        #expect(outcome.otherEvents.first?.end == Self.time("2026-11-26T21:00"))
    }

    @Test func openDeniedAndNoEventAnswers() throws {
        let vague = try Self.outcome(#"{"status":"HAS_EVENT_BUT_NOT_CONFIRMED","event":{"title":"Coffee","start":null,"end":null,"allDay":true,"location":null,"startRelativeTo":null},"events":[]}"#).get()
        #expect(vague.state == .proposed)
        #expect(vague.event?.start == nil)
        #expect(vague.event?.allDay == false, "a plan without a day is not all-day")
        let denied = try Self.outcome(#"{"status":"HAS_EVENT_DENIED","event":{"title":null,"start":"2026-11-24","end":null,"allDay":true,"location":null,"startRelativeTo":null},"events":[]}"#).get()
        #expect(denied.state == .denied)
        #expect(denied.event?.start == Self.time("2026-11-24"))
        let nothing = try Self.outcome(#"{"status":"NO_EVENT","event":null,"events":[]}"#).get()
        #expect(nothing == ConversationOutcome(state: .noEvent))
        // `events` may be left out; a Markdown fence around the JSON is taken off.
        let fenced = try Self.outcome("```json\n{\"status\":\"NO_EVENT\",\"event\":null}\n```").get()
        #expect(fenced.state == .noEvent)
    }

    @Test func prayerRelativeStartsTakeTheAdhanFromTheTimetable() throws {
        // The model named the day and the prayer but did its own arithmetic: the timetable wins.
        let outcome = try Self.outcome(Self.event(
            #""title":"عشاء","start":"2026-11-23T19:00","end":null,"allDay":false,"location":null,"startRelativeTo":"isha""#)).get()
        #expect(outcome.event?.start == Self.time("2026-11-23T18:34"))
        #expect(outcome.event?.startRelativeTo == .isha)
    }

    @Test func timesWithAnOffsetAreConvertedToTheConversationsZone() throws {
        let outcome = try Self.outcome(Self.event(
            #""title":"Call","start":"2026-11-23T17:00:00Z","end":"2026-11-23T21:30+03:00","allDay":false,"location":null,"startRelativeTo":null"#)).get()
        #expect(outcome.event?.start == Self.time("2026-11-23T20:00"))
        #expect(outcome.event?.end == Self.time("2026-11-23T21:30"))
        let seconds = try Self.outcome(Self.event(
            #""title":"Call","start":"2026-11-23T20:00:45","end":null,"allDay":false,"location":null,"startRelativeTo":null"#)).get()
        #expect(seconds.event?.start == Self.time("2026-11-23T20:00"), "seconds are dropped")
    }

    @Test func singleAllDayIsWrittenWithoutAnEnd() throws {
        let outcome = try Self.outcome(Self.event(
            #""title":"Trip","start":"2026-11-27","end":"2026-11-27","allDay":true,"location":null,"startRelativeTo":null"#)).get()
        #expect(outcome.event?.end == nil)
        let span = try Self.outcome(Self.event(
            #""title":"Trip","start":"2026-11-27","end":"2026-11-29","allDay":true,"location":null,"startRelativeTo":null"#)).get()
        #expect(span.event?.end == Self.time("2026-11-29"))
    }

    // MARK: refused answers

    @Test func contentThatIsNotTheSchemaIsRefused() {
        for content in ["I think they agreed on dinner.", "", "[1, 2]", #"{"event": null}"#, #"{"status": 3}"#,
                        #"{"status":"HAS_EVENT_AGREED","event":{"title":"x","start":"2026-11-23T20:00","allDay":"no"}}"#] {
            guard case .notTheSchema = Self.refusal(content) else {
                Issue.record("\(content.debugDescription) was not refused as off-schema: \(String(describing: Self.refusal(content)))")
                continue
            }
        }
    }

    @Test(arguments: [
        (#"{"status":"AGREED","event":null,"events":[]}"#, "status \"AGREED\" is not one of"),
        (#"{"status":"NO_EVENT","event":{"title":"x","start":null,"end":null,"allDay":false,"location":null,"startRelativeTo":null},"events":[]}"#,
         "NO_EVENT comes with an event"),
        (#"{"status":"HAS_EVENT_AGREED","event":null,"events":[]}"#, "without the agreed event"),
        (#"{"status":"HAS_EVENT_DENIED","event":null,"events":[]}"#, "without the plan it is about"),
        (event(#""title":"x","start":null,"end":null,"allDay":false,"location":null,"startRelativeTo":null"#), "event is agreed but has no start"),
        (event(#""title":"x","start":"tomorrow 8pm","end":null,"allDay":false,"location":null,"startRelativeTo":null"#), "is not a local date"),
        (event(#""title":"x","start":"2026-02-30T20:00","end":null,"allDay":false,"location":null,"startRelativeTo":null"#), "is not a local date"),
        (event(#""title":"x","start":"2026-11-23T24:00","end":null,"allDay":false,"location":null,"startRelativeTo":null"#), "is not a local date"),
        (event(#""title":"x","start":"٢٠٢٦-11-23T20:00","end":null,"allDay":false,"location":null,"startRelativeTo":null"#), "is not a local date"),
        (event(#""title":"x","start":"2026-11-23T20:00","end":null,"allDay":true,"location":null,"startRelativeTo":null"#), "allDay is true but the start"),
        (event(#""title":"x","start":"2026-11-23","end":null,"allDay":false,"location":null,"startRelativeTo":null"#), "allDay is false but the start"),
        (event(#""title":"x","start":"2026-11-23T20:00","end":"2026-11-23T19:00","allDay":false,"location":null,"startRelativeTo":null"#), "is not after the start"),
        (event(#""title":"x","start":"2026-11-23T20:00","end":"2026-11-23T20:00","allDay":false,"location":null,"startRelativeTo":null"#), "is not after the start"),
        (event(#""title":"x","start":"2026-11-25","end":"2026-11-24","allDay":true,"location":null,"startRelativeTo":null"#), "is before the start"),
        (event(#""title":"x","start":"2026-11-23T20:00","end":"2026-11-24","allDay":false,"location":null,"startRelativeTo":null"#), "not both dates or both times"),
        (event(#""title":"x","start":"2026-11-23","end":"2027-03-01","allDay":true,"location":null,"startRelativeTo":null"#), "spans more than 62 days"),
        (event(#""title":"x","start":null,"end":"2026-11-23T20:00","allDay":false,"location":null,"startRelativeTo":null"#), "end is given without a start"),
        (event(#""title":"x","start":"2026-11-21T20:00","end":null,"allDay":false,"location":null,"startRelativeTo":null"#), "before the conversation began"),
        (event(#""title":"x","start":"2028-01-05T20:00","end":null,"allDay":false,"location":null,"startRelativeTo":null"#), "more than 400 days after"),
        (event(#""title":"x","start":"2026-11-23T20:00","end":null,"allDay":false,"location":null,"startRelativeTo":"sunset""#), "is not a prayer"),
        (event(#""title":"x","start":"2026-11-23","end":null,"allDay":true,"location":null,"startRelativeTo":"isha""#), "for an all-day event"),
        (event(#""title":"x","start":"2026-11-23T20:00","end":null,"location":null,"startRelativeTo":null"#), "allDay is missing"),
        (event(#""title":"\#(String(repeating: "very ", count: 50))long","start":"2026-11-23T20:00","end":null,"allDay":false,"location":null,"startRelativeTo":null"#),
         "title is 254 characters long"),
        (event(#""title":"x","start":"2026-11-23T20:00","end":null,"allDay":false,"location":"a\nb","startRelativeTo":null"#), "location spans several lines"),
        (#"{"status":"HAS_EVENT_BUT_NOT_CONFIRMED","event":{"title":"x","start":null,"end":null,"allDay":false,"location":null,"startRelativeTo":null},"events":[{"title":"y","start":"2026-11-24","end":null,"allDay":true,"location":null,"startRelativeTo":null}]}"#,
         "further events are listed but the status is HAS_EVENT_BUT_NOT_CONFIRMED"),
        (#"{"status":"HAS_EVENT_AGREED","event":{"title":"x","start":"2026-11-24","end":null,"allDay":true,"location":null,"startRelativeTo":null},"events":[{"title":"y","start":"2026-02-24","end":null,"allDay":true,"location":null,"startRelativeTo":null}]}"#,
         "events[0].start 2026-02-24 is before the conversation began"),
    ])
    func impossibleAnswersAreRefusedWithTheReason(content: String, reason: String) {
        guard case .invalidAnswer(let detail) = Self.refusal(content) else {
            Issue.record("not refused as invalid: \(content) → \(String(describing: Self.refusal(content)))")
            return
        }
        #expect(detail.contains(reason), "\(detail)")
    }

    // MARK: envelopes

    @Test func recordedAnswersFromLlamaCpp() throws {
        // llama.cpp's server (Gemma 3 270M) on dev-en-002, coffee "Tuesday 12:30 at Monmouth": the
        // answer is well-formed and believable, though the small model took its place from the example.
        let answer = try Self.content("llama-cpp-answer").get()
        let line = try #require(try ExtractionTests.lines("dev").first { $0.contains(#""id": "dev-en-002""#) })
        guard case .conversation(let conversation) = ExtractionJSONLines(isRamadan: { _ in false }).read(line: line) else {
            Issue.record("dev-en-002 unreadable")
            return
        }
        let outcome = try ModelAnswer.outcome(from: answer, messages: conversation.messages, context: conversation.context)
        #expect(outcome == ConversationOutcome(
            state: .agreed, event: ExtractedEvent(title: "Coffee", start: Self.time("2026-11-24T12:30"), location: "Brew92")))
        // Cut off at max_tokens: finish_reason "length".
        #expect(try Self.content("llama-cpp-truncated") == .failure(.truncated))
        // llama.cpp's error object (here: a request over the context size) with a 200 or a 400.
        guard case .failure(.notAChatCompletion(let detail)) = try Self.content("llama-cpp-error") else {
            Issue.record("the error object was not recognised")
            return
        }
        #expect(detail.contains("the server reported an error"))
    }

    @Test func envelopesWithoutAnswerAreRefused() throws {
        func reason(_ body: String) -> LLMFallbackReason? {
            do throws(LLMFallbackReason) {
                _ = try ChatCompletionResponse.content(of: Data(body.utf8))
                return nil
            } catch {
                return error
            }
        }
        #expect(reason(#"{"choices":[{"message":{"role":"assistant","content":"{}"},"finish_reason":"stop"}]}"#) == nil)
        guard case .notAChatCompletion(let html) = reason("<html>Bad Gateway</html>") else { Issue.record("HTML taken"); return }
        #expect(html.contains("<html>Bad Gateway"))
        guard case .notAChatCompletion = reason(#"{"choices":[]}"#) else { Issue.record("no choices taken"); return }
        guard case .notAChatCompletion = reason(#"{"choices":[{"message":{"role":"assistant","content":"  "}}]}"#) else {
            Issue.record("empty content taken"); return
        }
        guard case .notAChatCompletion(let refused) = reason(#"{"choices":[{"message":{"role":"assistant","content":null,"refusal":"I can't help"}}]}"#) else {
            Issue.record("refusal taken"); return
        }
        #expect(refused.contains("I can't help"))
    }

    @Test func reasonsHaveStableCodesAndReadableText() {
        let reasons: [(LLMFallbackReason, String, String)] = [
            (.transport(.timedOut(after: .milliseconds(1_500))), "timed_out", "no answer within 1.5 s"),
            (.transport(.timedOut(after: .seconds(30))), "timed_out", "no answer within 30 s"),
            (.transport(.unreachable("connection refused")), "unreachable", "cannot be reached: connection refused"),
            (.transport(.httpStatus(401, body: "invalid key")), "http_status", "answered HTTP 401: invalid key"),
            (.truncated, "truncated", "cut off at the token limit"),
            (.conversationTooLong(messages: 70, characters: 9_000), "conversation_too_long", "70 messages, 9000 characters"),
        ]
        for (reason, code, text) in reasons {
            #expect(reason.code == code)
            #expect(reason.description.contains(text), "\(reason.description)")
        }
    }
}
