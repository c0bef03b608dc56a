import Foundation
import JadwalCore

/// Where the optional LLM extractor sends conversations: an OpenAI-compatible `chat/completions`
/// endpoint (OpenAI, llama.cpp's server, vLLM, Ollama, LM Studio, ...). Off unless a URL is set.
public struct LLMConfiguration: Sendable, Hashable {
    /// The full `…/chat/completions` address.
    public var endpoint: String
    public var model: String
    /// Sent as `Authorization: Bearer …` when set.
    public var apiKey: String?
    /// For the whole request, answer included; past it the rules answer.
    public var timeout: Duration

    public static let defaultTimeout: Duration = .seconds(30)

    public init(endpoint: String, model: String, apiKey: String? = nil, timeout: Duration = LLMConfiguration.defaultTimeout) {
        self.endpoint = endpoint
        self.model = model
        self.apiKey = apiKey
        self.timeout = timeout
    }
}

/// What the LLM settings are called where they were given, for error messages.
public struct LLMSettingNames: Sendable {
    public var url: String
    public var model: String
    public var timeout: String

    public static let environment = LLMSettingNames(url: "JADWAL_LLM_URL", model: "JADWAL_LLM_MODEL", timeout: "JADWAL_LLM_TIMEOUT_SECONDS")
    public static let flags = LLMSettingNames(url: "--llm-url", model: "--llm-model", timeout: "--llm-timeout-seconds")
}

extension ConfigurationValue {
    /// The LLM extractor's settings from `JADWAL_LLM_URL`, `JADWAL_LLM_MODEL`, `JADWAL_LLM_API_KEY`
    /// and `JADWAL_LLM_TIMEOUT_SECONDS`; nil (the rules alone) when no URL is given.
    ///
    /// The URL is the API's base (`http://127.0.0.1:8081/v1`, `https://api.openai.com/v1`);
    /// `/chat/completions` is added unless it is already there.
    public static func llm(
        url: String?, model: String?, apiKey: String?, timeoutSeconds: String?, names: LLMSettingNames = .environment
    ) throws -> LLMConfiguration? {
        guard let url = url?.trimmingCharacters(in: .whitespaces), !url.isEmpty else { return nil }
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = components.host, !host.isEmpty
        else {
            throw ServerStartupError.configuration(
                "\(names.url) must be the http(s) address of an OpenAI-compatible API, such as http://127.0.0.1:8081/v1, not \(url)")
        }
        var endpoint = components
        var path = endpoint.path
        while path.hasSuffix("/") { path.removeLast() }
        if !path.hasSuffix("/chat/completions") { path += "/chat/completions" }
        endpoint.path = path
        guard let endpointText = endpoint.string else {
            throw ServerStartupError.configuration("\(names.url) cannot be extended with /chat/completions: \(url)")
        }
        guard let model = model?.trimmingCharacters(in: .whitespaces), !model.isEmpty else {
            throw ServerStartupError.configuration(
                "\(names.model) must name the model when \(names.url) is set (llama.cpp's server accepts any name)")
        }
        var configuration = LLMConfiguration(endpoint: endpointText, model: model)
        if let apiKey = apiKey?.trimmingCharacters(in: .whitespaces), !apiKey.isEmpty { configuration.apiKey = apiKey }
        if let text = timeoutSeconds?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 600 else {
                throw ServerStartupError.configuration(
                    "\(names.timeout) must be a number of seconds above 0 and at most 600, not \(text)")
            }
            configuration.timeout = .milliseconds(max(1, Int((seconds * 1_000).rounded())))
        }
        return configuration
    }

    /// The same from the environment.
    public static func llm(environment: [String: String]) throws -> LLMConfiguration? {
        try llm(
            url: environment["JADWAL_LLM_URL"], model: environment["JADWAL_LLM_MODEL"], apiKey: environment["JADWAL_LLM_API_KEY"],
            timeoutSeconds: environment["JADWAL_LLM_TIMEOUT_SECONDS"])
    }
}
