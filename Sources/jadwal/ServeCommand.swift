import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Hummingbird
import JadwalCore
import JadwalLLM
import JadwalMail
import JadwalPush
import JadwalServer
import Logging

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Run the calendar server.")

    @OptionGroup var storage: StorageOptions

    @Option(help: "Address to listen on (env JADWAL_HOSTNAME, default 127.0.0.1).")
    var hostname: String?

    @Option(help: "Port to listen on (env JADWAL_PORT, default 8080).")
    var port: Int?

    @Option(name: .customLong("tls-cert"), help: "PEM certificate chain for HTTPS (env JADWAL_TLS_CERT).")
    var tlsCertificate: String?

    @Option(name: .customLong("tls-key"), help: "PEM private key for HTTPS (env JADWAL_TLS_KEY).")
    var tlsKey: String?

    @Option(name: .customLong("public-url"), help: "URL people reach this server at, for links in emails (env JADWAL_PUBLIC_URL).")
    var publicURL: String?

    @Option(name: .customLong("smtp-url"), help: "smtp://user:password@host:587 (env JADWAL_SMTP_URL; default: emails go to the log).")
    var smtpURL: String?

    @Option(name: .customLong("mail-from"), help: "Sender of emails, 'Name <address>' (env JADWAL_MAIL_FROM).")
    var mailFrom: String?

    @Option(name: .customLong("google-client-id"), help: "OAuth client ID for Google sign-in (env JADWAL_GOOGLE_CLIENT_ID).")
    var googleClientID: String?

    @Option(name: .customLong("google-jwks-url"), help: "Where Google's signing keys are published (env JADWAL_GOOGLE_JWKS_URL).")
    var googleJWKSURL: String?

    @Option(name: .customLong("google-authorization-url"), help: "Where browsers go to sign in with Google (env JADWAL_GOOGLE_AUTHORIZATION_URL; default Google's).")
    var googleAuthorizationURL: String?

    @Option(help: "Background job workers in this process, 0 for none (env JADWAL_WORKERS, default 2).")
    var workers: Int?

    @Option(name: .customLong("chat-quiet-seconds"), help: "Read a live chat (webhook, connector) once it has been quiet this long; 0 reads each delivery at once (env JADWAL_CHAT_QUIET_SECONDS, default 30).")
    var chatQuietSeconds: String?

    @Flag(name: .customLong("trust-forwarded-for"), help: "Take the client address from X-Forwarded-For on connections from a trusted proxy (env JADWAL_TRUST_FORWARDED_FOR).")
    var trustForwardedFor = false

    @Option(name: .customLong("trusted-proxy"), help: "A proxy address or CIDR range whose X-Forwarded-For is believed; repeat for more (env JADWAL_TRUSTED_PROXIES, comma-separated; default loopback).")
    var trustedProxies: [String] = []

    @Option(name: .customLong("idle-timeout-seconds"), help: "Close a connection that sends nothing this long, a request head included (env JADWAL_IDLE_TIMEOUT_SECONDS, default 30).")
    var idleTimeoutSeconds: String?

    @Option(name: .customLong("max-connections"), help: "Open connections at most; more wait until one closes (env JADWAL_MAX_CONNECTIONS, default 512).")
    var maxConnections: String?

    @Option(name: .customLong("database-wait-seconds"), help: "How long a request may wait for SQLite's writer before it is answered 503 with Retry-After (env JADWAL_DATABASE_WAIT_SECONDS, default 10).")
    var databaseWaitSeconds: String?

    @Option(name: .customLong("llm-url"), help: "OpenAI-compatible API that reads chats before the rules, e.g. http://127.0.0.1:8081/v1 (env JADWAL_LLM_URL; default: the rules alone).")
    var llmURL: String?

    @Option(name: .customLong("llm-model"), help: "Model name sent to that API (env JADWAL_LLM_MODEL). Its key comes from JADWAL_LLM_API_KEY.")
    var llmModel: String?

    @Option(name: .customLong("llm-timeout-seconds"), help: "How long a chat may wait for the model before the rules answer (env JADWAL_LLM_TIMEOUT_SECONDS, default 30).")
    var llmTimeoutSeconds: String?

    @Flag(name: .customLong("principal-directory"), help: "Let people find every account of this server by name or address when they share or invite (env JADWAL_PRINCIPAL_DIRECTORY); off, only the people they share with.")
    var principalDirectory = false

    @Flag(name: .customLong("allow-private-fetch"), help: "Let calendar subscriptions fetch from loopback and private addresses (env JADWAL_ALLOW_PRIVATE_FETCH); off, only public addresses.")
    var allowPrivateFetch = false

    @Option(name: .customLong("fetch-allow"), help: "Comma-separated address ranges (CIDR) subscriptions may fetch from although private, e.g. 10.0.5.0/24 (env JADWAL_FETCH_ALLOW).")
    var fetchAllow: String?

    @Flag(name: .customLong("whatsapp-bridge"), help: "Run the bundled WhatsApp bridge, for linking WhatsApp with a pairing code (env JADWAL_WHATSAPP_BRIDGE; its Python from JADWAL_WHATSAPP_PYTHON, its folder from JADWAL_WHATSAPP_BRIDGE_DIR, default bridges/whatsapp).")
    var whatsAppBridge = false

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error, critical (env JADWAL_LOG_LEVEL, default info).")
    var logLevel: String?

    func run() async throws {
        let configuration = try resolvedConfiguration(environment: ProcessInfo.processInfo.environment)
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = configuration.logLevel
            return handler
        }
        let instance: JadwalServerInstance
        do {
            instance = try await buildApplication(configuration)
        } catch {
            throw OperatorError("jadwal: cannot start: \(error)")
        }
        let returning = Task.detached(priority: .background) { await Self.returnFreedHeapMemory() }
        defer { returning.cancel() }
        try await instance.run()
    }

    /// glibc gives threads that contend for the heap arenas of their own, up to eight per core, and
    /// memory freed in one arena is not reused by another. One arena keeps the server about 20 MiB
    /// smaller at 20,000 events than two, for 3 to 11% of the end-to-end write rate in our runs
    /// (docs/speed.md, "Memory"); small allocations stay in glibc's per-thread caches either way.
    /// An operator's MALLOC_ARENA_MAX still decides. Called first thing in `Jadwal.main`.
    static func limitHeapArenas(environment: [String: String]) {
        // M_ARENA_MAX is -8.
        guard environment["MALLOC_ARENA_MAX"] == nil, let mallopt = glibc("mallopt", as: (@convention(c) (Int32, Int32) -> Int32).self)
        else { return }
        _ = mallopt(-8, 1)
    }

    /// glibc keeps what the server frees for later allocations and gives back only the top of its
    /// heap, so the pages a burst of writes or a sync from scratch used stay resident. Every ten
    /// seconds `malloc_trim(0)` hands the free pages inside the heap back to the system (one walk
    /// of the free lists: 0.1 to 1 ms with 20,000 events held, measured with a uprobe).
    static func returnFreedHeapMemory() async {
        guard let trim = glibc("malloc_trim", as: (@convention(c) (Int) -> Int32).self) else { return }
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(10))
            _ = trim(0)
        }
    }

    /// A glibc function Swift's Glibc module leaves out (<malloc.h>), looked up by name; nil
    /// elsewhere.
    private static func glibc<Function>(_ name: String, as type: Function.Type) -> Function? {
        #if canImport(Glibc)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(symbol, to: type)
        #else
        return nil
        #endif
    }

    func resolvedConfiguration(environment env: [String: String]) throws -> ServerConfiguration {
        var configuration = ServerConfiguration()
        storage.apply(to: &configuration, environment: env)
        if let value = hostname ?? env["JADWAL_HOSTNAME"] { configuration.hostname = value }
        if let value = port {
            configuration.port = value
        } else if let text = env["JADWAL_PORT"] {
            guard let value = Int(text) else { throw OperatorError("JADWAL_PORT must be a number, not \(text)") }
            configuration.port = value
        }
        guard (0...65535).contains(configuration.port) else { throw OperatorError("the port must be between 0 and 65535") }
        configuration.tlsCertificatePath = tlsCertificate ?? env["JADWAL_TLS_CERT"]
        configuration.tlsKeyPath = tlsKey ?? env["JADWAL_TLS_KEY"]
        configuration.publicURL = publicURL ?? env["JADWAL_PUBLIC_URL"]
        if let value = smtpURL ?? env["JADWAL_SMTP_URL"], !value.isEmpty { configuration.smtp = try ConfigurationValue.smtp(url: value) }
        if let value = mailFrom ?? env["JADWAL_MAIL_FROM"] { configuration.mailFrom = try ConfigurationValue.mailAddress(value) }
        configuration.secretKey = env["JADWAL_SECRET_KEY"]
        configuration.chatKey = env["JADWAL_CHAT_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        if let text = env["JADWAL_CHAT_IMPORT_MAX_MB"] {
            guard let megabytes = Int(text), (1...4096).contains(megabytes) else {
                throw OperatorError("JADWAL_CHAT_IMPORT_MAX_MB must be a number of megabytes from 1 to 4096, not \(text)")
            }
            configuration.chatImportLimit = megabytes * 1024 * 1024
        }
        if let text = env["JADWAL_HEALTH_IMPORT_MAX_MB"] {
            guard let megabytes = Int(text), (1...16384).contains(megabytes) else {
                throw OperatorError("JADWAL_HEALTH_IMPORT_MAX_MB must be a number of megabytes from 1 to 16384, not \(text)")
            }
            configuration.healthImportLimit = megabytes * 1024 * 1024
        }
        configuration.whatsAppAppSecret = env["JADWAL_WHATSAPP_APP_SECRET"].flatMap { $0.isEmpty ? nil : $0 }
        configuration.whatsAppVerifyToken = env["JADWAL_WHATSAPP_VERIFY_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        if (configuration.whatsAppAppSecret == nil) != (configuration.whatsAppVerifyToken == nil) {
            throw OperatorError("set both JADWAL_WHATSAPP_APP_SECRET and JADWAL_WHATSAPP_VERIFY_TOKEN for the WhatsApp webhook, or neither")
        }
        configuration.googleClientID = googleClientID ?? env["JADWAL_GOOGLE_CLIENT_ID"]
        if let value = googleJWKSURL ?? env["JADWAL_GOOGLE_JWKS_URL"] { configuration.googleJWKSURL = value }
        if let value = googleAuthorizationURL ?? env["JADWAL_GOOGLE_AUTHORIZATION_URL"] { configuration.googleAuthorizationURL = value }
        if let value = env["JADWAL_GOOGLE_CLIENT_SECRET"], !value.isEmpty { configuration.googleClientSecret = value }
        if let value = env["JADWAL_GOOGLE_TOKEN_URL"] { configuration.googleTokenURL = value }
        if let value = env["JADWAL_GOOGLE_CALDAV_URL"] { configuration.googleCalDAVURL = value }
        if let value = workers {
            configuration.workers = value
        } else if let text = env["JADWAL_WORKERS"] {
            guard let value = Int(text) else { throw OperatorError("JADWAL_WORKERS must be a number, not \(text)") }
            configuration.workers = value
        }
        guard configuration.workers >= 0 else { throw OperatorError("--workers must be 0 or more") }
        if let text = chatQuietSeconds ?? env["JADWAL_CHAT_QUIET_SECONDS"] {
            guard let seconds = Int(text.trimmingCharacters(in: .whitespaces)), (0...3600).contains(seconds) else {
                throw OperatorError("--chat-quiet-seconds (JADWAL_CHAT_QUIET_SECONDS) must be a whole number of seconds from 0 to 3600, not \(text)")
            }
            configuration.chatQuietPeriod = .seconds(seconds)
        }
        configuration.trustForwardedFor = try trustForwardedFor
            || ConfigurationValue.bool(env["JADWAL_TRUST_FORWARDED_FOR"] ?? "", name: "JADWAL_TRUST_FORWARDED_FOR")
        if !trustedProxies.isEmpty {
            configuration.trustedProxies = trustedProxies
        } else if let text = env["JADWAL_TRUSTED_PROXIES"], !text.isEmpty {
            configuration.trustedProxies = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        if let text = idleTimeoutSeconds ?? env["JADWAL_IDLE_TIMEOUT_SECONDS"] {
            guard let seconds = Int(text.trimmingCharacters(in: .whitespaces)), (1...3600).contains(seconds) else {
                throw OperatorError("--idle-timeout-seconds (JADWAL_IDLE_TIMEOUT_SECONDS) must be a whole number of seconds from 1 to 3600, not \(text)")
            }
            configuration.idleTimeout = .seconds(seconds)
        }
        if let text = maxConnections ?? env["JADWAL_MAX_CONNECTIONS"] {
            guard let count = Int(text.trimmingCharacters(in: .whitespaces)), count >= 1 else {
                throw OperatorError("--max-connections (JADWAL_MAX_CONNECTIONS) must be a whole number of 1 or more, not \(text)")
            }
            configuration.maxConnections = count
        }
        if let text = databaseWaitSeconds ?? env["JADWAL_DATABASE_WAIT_SECONDS"] {
            guard let seconds = Int(text.trimmingCharacters(in: .whitespaces)), (1...600).contains(seconds) else {
                throw OperatorError("--database-wait-seconds (JADWAL_DATABASE_WAIT_SECONDS) must be a whole number of seconds from 1 to 600, not \(text)")
            }
            configuration.databaseWaitLimit = .seconds(seconds)
        }
        configuration.accountQuota = try ConfigurationValue.accountQuota(environment: env)
        configuration.metricsToken = env["JADWAL_METRICS_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        if let value = logLevel ?? env["JADWAL_LOG_LEVEL"] { configuration.logLevel = try ConfigurationValue.logLevel(value) }
        if let value = env["JADWAL_DEFAULT_TIME_ZONE"] { configuration.defaultTimeZone = value }
        configuration.llm = try ConfigurationValue.llm(
            url: llmURL ?? env["JADWAL_LLM_URL"], model: llmModel ?? env["JADWAL_LLM_MODEL"], apiKey: env["JADWAL_LLM_API_KEY"],
            timeoutSeconds: llmTimeoutSeconds ?? env["JADWAL_LLM_TIMEOUT_SECONDS"])
        configuration.apns = try ConfigurationValue.apns(environment: env)
        configuration.vapidPrivateKey = env["JADWAL_VAPID_PRIVATE_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        configuration.vapidSubject = try ConfigurationValue.vapidSubject(env["JADWAL_VAPID_SUBJECT"])
        configuration.webPushCAFile = env["JADWAL_WEBPUSH_CA_FILE"].flatMap { $0.isEmpty ? nil : $0 }
        configuration.principalDirectory = try principalDirectory
            || ConfigurationValue.bool(env["JADWAL_PRINCIPAL_DIRECTORY"] ?? "", name: "JADWAL_PRINCIPAL_DIRECTORY") ? .serverWide : .related
        configuration.allowPrivateFetch = try allowPrivateFetch
            || ConfigurationValue.bool(env["JADWAL_ALLOW_PRIVATE_FETCH"] ?? "", name: "JADWAL_ALLOW_PRIVATE_FETCH")
        if let list = fetchAllow ?? env["JADWAL_FETCH_ALLOW"] {
            configuration.fetchAllowList = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        if try whatsAppBridge || ConfigurationValue.bool(env["JADWAL_WHATSAPP_BRIDGE"] ?? "", name: "JADWAL_WHATSAPP_BRIDGE") {
            var bridge = WhatsAppBridgeConfiguration()
            if let python = env["JADWAL_WHATSAPP_PYTHON"], !python.isEmpty { bridge.python = python }
            if let directory = env["JADWAL_WHATSAPP_BRIDGE_DIR"], !directory.isEmpty { bridge.directory = directory }
            bridge.replay = env["JADWAL_WHATSAPP_REPLAY"].flatMap { $0.isEmpty ? nil : $0 }
            configuration.whatsAppBridge = bridge
        }
        return configuration
    }
}

struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "migrate", abstract: "Bring the database schema up to this version.")

    @OptionGroup var storage: StorageOptions

    func run() async throws {
        let applied = try await storage.withStore(migrating: false) { store in
            let steps = try await store.migrate()
            return (steps, try await store.schemaVersion)
        }
        if applied.0.isEmpty {
            print("The schema is up to date (version \(applied.1)).")
        } else {
            for step in applied.0 { print("applied \(step)") }
            print("The schema is at version \(applied.1).")
        }
    }
}
