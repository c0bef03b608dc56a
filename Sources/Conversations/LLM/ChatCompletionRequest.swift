import Foundation

/// The body of an OpenAI-compatible `chat/completions` request for one conversation: the prompt
/// as a system and a user message, deterministic sampling, and a `json_schema` response format
/// whose schema is the event shape of the extraction contract (testdata/chats/README.md §2).
struct ChatCompletionRequest {
    var model: String
    var prompt: ExtractionPrompt
    /// Enough for two or three events; an answer cut off here is refused, not repaired.
    var maxTokens: Int

    var body: RequestJSON {
        .object([
            ("model", .string(model)),
            ("messages", .array([
                .object([("role", .string("system")), ("content", .string(prompt.system))]),
                .object([("role", .string("user")), ("content", .string(prompt.transcript))]),
            ])),
            ("temperature", .integer(0)),
            ("max_tokens", .integer(maxTokens)),
            ("stream", .bool(false)),
            ("response_format", .object([
                ("type", .string("json_schema")),
                ("json_schema", .object([
                    ("name", .string("conversation_outcome")),
                    ("strict", .bool(true)),
                    ("schema", Self.outcomeSchema),
                ])),
            ])),
        ])
    }

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return try encoder.encode(body)
    }

    /// Every property is required and nullable instead of optional, which is what strict
    /// structured output (OpenAI) accepts; llama.cpp turns the same schema into a grammar.
    static let outcomeSchema: RequestJSON = .object([
        ("type", .string("object")),
        ("properties", .object([
            ("status", .object([
                ("type", .string("string")),
                ("enum", .array(ConversationState.allCases.map { .string($0.rawValue) })),
            ])),
            ("event", .object([("anyOf", .array([eventSchema, .object([("type", .string("null"))])]))])),
            // Bounded, so a small model cannot repeat events until the token limit.
            ("events", .object([("type", .string("array")), ("items", eventSchema), ("maxItems", .integer(3))])),
        ])),
        ("required", .array([.string("status"), .string("event"), .string("events")])),
        ("additionalProperties", .bool(false)),
    ])

    static let eventSchema: RequestJSON = .object([
        ("type", .string("object")),
        ("properties", .object([
            ("title", nullable(.object([("type", .string("string"))]))),
            ("start", nullable(timeSchema)),
            ("end", nullable(timeSchema)),
            ("allDay", .object([("type", .string("boolean"))])),
            ("location", nullable(.object([("type", .string("string"))]))),
            ("startRelativeTo", nullable(.object([
                ("type", .string("string")),
                ("enum", .array(PrayerAnchor.allCases.map { .string($0.rawValue) })),
            ]))),
        ])),
        ("required", .array(["title", "start", "end", "allDay", "location", "startRelativeTo"].map { .string($0) })),
        ("additionalProperties", .bool(false)),
    ])

    /// A local date, or a local date and time to the minute.
    static let timeSchema: RequestJSON = .object([
        ("type", .string("string")),
        ("pattern", .string("^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2})?$")),
    ])

    static func nullable(_ schema: RequestJSON) -> RequestJSON {
        .object([("anyOf", .array([schema, .object([("type", .string("null"))])]))])
    }
}
