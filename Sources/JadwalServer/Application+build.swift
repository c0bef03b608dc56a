import Conversations
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import JadwalAPI
import JadwalCalDAV
import JadwalCore
import JadwalFetch
import JadwalHTTP
import JadwalJobs
import JadwalLLM
import JadwalMail
import JadwalPush
import JadwalWeb
import Logging
import NIOCore
import NIOSSL
import ServiceLifecycle
import Storage

/// The outside world a server instance talks to. The live values are the real clock, the
/// system's randomness and the configured mail transport; tests pass fixed clocks and an outbox.
public struct ServerDependencies: Sendable {
    public var clock: Clock
    public var random: RandomSource
    /// nil: SMTP when configured, else the log.
    public var mailTransport: (any MailTransport)?

    public init(clock: Clock = .system, random: RandomSource = .system, mailTransport: (any MailTransport)? = nil) {
        self.clock = clock
        self.random = random
        self.mailTransport = mailTransport
    }
}

/// A built server: the HTTP application plus the parts tests and the CLI reach into.
public struct JadwalServerInstance: Sendable {
    public let application: Application<RouterResponder<JadwalRequestContext>>
    public let store: SQLStore
    public let workers: JobWorkers
    /// Where chat messages come in: imports, the connector API, the CLI.
    public let chatInbox: ChatInbox
    package let appPasswords: AppPasswords
    public let configuration: ServerConfiguration
    /// The token this instance gave its WhatsApp bridge; nil without one.
    package let whatsAppBridgeToken: String?
    package let whatsAppBridge: WhatsAppBridgeSupervisor?

    /// Runs the server until SIGTERM or SIGINT. The WhatsApp bridge runs beside the HTTP
    /// application rather than among its services, so that it is stopped first: the bridge is
    /// signalled and lets its deliveries land while the server still listens (services stop in
    /// reverse order).
    public func run() async throws {
        let services: [any Service] = [application] + (whatsAppBridge.map { [$0] } ?? [])
        let group = ServiceGroup(configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: application.logger))
        try await group.run()
    }
}


/// Opens storage from the configuration (SQLite in the data directory unless a URL is given).
public func openStore(_ configuration: ServerConfiguration, logger: Logger) throws -> SQLStore {
    let location: DatabaseLocation
    if let url = configuration.databaseURL, !url.isEmpty {
        do {
            location = try DatabaseLocation(url: url)
        } catch {
            throw ServerStartupError.configuration("JADWAL_DATABASE_URL: \(error)")
        }
    } else {
        location = .sqlite(path: configuration.sqlitePath)
    }
    return try SQLStore(location: location, waitLimit: configuration.databaseWaitLimit, accountQuota: configuration.accountQuota, logger: logger)
}

/// Builds the whole server — storage migrated, routes, middleware, workers — for `jadwal serve`
/// and for the tests alike.
public func buildApplication(
    _ configuration: ServerConfiguration, dependencies: ServerDependencies = ServerDependencies(), logger baseLogger: Logger? = nil
) async throws -> JadwalServerInstance {
    var logger = baseLogger ?? Logger(label: "jadwal")
    logger.logLevel = configuration.logLevel

    // Everything that can be checked without the database is checked first.
    let server: HTTPServerBuilder
    let http1 = HTTP1Channel.Configuration(idleTimeout: TimeAmount(configuration.idleTimeout))
    switch (configuration.tlsCertificatePath, configuration.tlsKeyPath) {
    case (nil, nil):
        server = .http1(configuration: http1)
    case (let cert?, let key?):
        server = try .tls(.http1(configuration: http1), tlsConfiguration: tlsConfiguration(certificate: cert, key: key))
    default:
        throw ServerStartupError.tls("give both --tls-cert and --tls-key, or neither")
    }
    guard configuration.idleTimeout > .zero, configuration.maxConnections > 0 else {
        throw ServerStartupError.configuration("the idle timeout and the connection limit must be more than zero")
    }
    var trustedProxies: [IPNetwork] = []
    for text in configuration.trustedProxies {
        guard let network = IPNetwork(text) else {
            throw ServerStartupError.configuration("'\(text)' is not an address or a CIDR range such as 10.0.0.0/8 (JADWAL_TRUSTED_PROXIES)")
        }
        trustedProxies.append(network)
    }

    let secret: ServerSecret
    if let key = configuration.secretKey {
        secret = try ServerSecret(base64: key)
    } else {
        secret = try ServerSecret.loadOrCreate(at: configuration.secretKeyPath, random: dependencies.random)
    }

    let vapidKey = try WebPushKey.load(configuration, random: dependencies.random)
    let vapidSubject = try WebPushKey.subject(configuration)
    let webPushTrustRoots = try ConfigurationValue.webPushTrustRoots(configuration.webPushCAFile)

    let chatCipher: MessageCipher
    do {
        chatCipher = try ChatKey.cipher(configuration, random: dependencies.random)
    } catch {
        throw ServerStartupError.configuration("\(error)")
    }

    let store = try openStore(configuration, logger: logger)
    do {
        try await store.migrate(now: dependencies.clock.now)
        do {
            try await chatCipher.check(against: store)
        } catch let problem as MessageCipher.Problem {
            throw ServerStartupError.configuration("\(problem)")
        }
        return try await assemble(
            configuration, store: store, server: server, trustedProxies: trustedProxies, secret: secret, chatCipher: chatCipher,
            webPush: WebPushConfiguration(key: vapidKey, subject: vapidSubject, additionalTrustRoots: webPushTrustRoots), dependencies: dependencies,
            logger: logger)
    } catch {
        try? await store.shutdown()
        throw error
    }
}

/// The routes, middleware and workers around an open, migrated store.
private func assemble(
    _ configuration: ServerConfiguration, store: SQLStore, server: HTTPServerBuilder, trustedProxies: [IPNetwork], secret: ServerSecret, chatCipher: MessageCipher,
    webPush baseWebPush: WebPushConfiguration, dependencies: ServerDependencies, logger: Logger
) async throws -> JadwalServerInstance {

    let transport: any MailTransport
    if let injected = dependencies.mailTransport {
        transport = injected
    } else if let smtp = configuration.smtp {
        transport = SMTPClient(configuration: smtp, logger: logger)
    } else {
        transport = LogMailTransport(logger: logger)
        logger.notice("no SMTP server configured: emails, sign-in links included, are written to this log")
    }

    let sealer = PayloadSealer(secret: secret)
    let ownership = accountOwnership(configuration, store: store, secret: secret, clock: dependencies.clock, random: dependencies.random)
    let emails = SignInEmails(publicURL: configuration.effectivePublicURL, from: configuration.mailFrom)
    let signIn = SignIn(
        store: store, clock: dependencies.clock, random: dependencies.random,
        notices: SignIn.Notices(
            magicLink: { token, email, account, now in
                try EmailDelivery.job(emails.magicLink(token: token, email: email, account: account), sealWith: sealer, now: now, random: dependencies.random, maxAttempts: 5)
            },
            welcome: { account, now in try EmailDelivery.job(emails.welcome(account: account), sealWith: nil, now: now, random: dependencies.random) }
        ),
        defaultTimeZone: configuration.defaultTimeZone
    )
    let accessTokens = await AccessTokens(secret: secret, clock: dependencies.clock)
    let google = configuration.googleClientID.map {
        GoogleIDTokenVerifier(clientID: $0, jwksURL: configuration.googleJWKSURL, clock: dependencies.clock)
    }

    var handlers = JobHandlers()
    handlers.register(EmailDelivery.kind, EmailDelivery.handler(transport: transport, sealer: sealer))
    // One cache of parsed objects (by ETag) for CalDAV's answers and every service that reads
    // events, so an object is parsed once whoever reads it first.
    let caches = CalDAVCaches()
    let parse: AccountBusyTime.Parse = { [parsedCalendars = caches.parsedCalendars] in parsedCalendars.calendar(for: $0) }
    let busyTime = AccountBusyTime(parse: parse)
    // Each calendar's instances are kept between reads (BusyTimeIndex) for the conflict checks,
    // lists and suggestions; only they may, as they read busy time before writing any calendar
    // object in their transaction.
    let indexedBusyTime = AccountBusyTime(parse: parse, index: BusyTimeIndex())
    let conflictCheck = ConflictCheck(store: store, clock: dependencies.clock, random: dependencies.random, busyTime: indexedBusyTime)
    let hub = NotificationHub()
    // Open streams follow changes from this process and, on PostgreSQL, from every instance on the
    // same database: notifications posted wake their account's streams; calendar pages hear of
    // changes, the owners at once, the people a changed calendar is shared with after one read
    // per change (none when no stream is open).
    let audience = CalendarAudience(store: store)
    store.observeViewChanges { changes in
        for accountID in changes.notified { hub.wake(accountID) }
        guard hub.hasOpenStreams else { return }
        hub.calendarsChanged(CalendarAudience.direct(changes))
        guard !changes.calendars.isEmpty else { return }
        Task {
            if let sharees = try? await audience.sharees(of: changes) { hub.calendarsChanged(sharees) }
        }
    }
    handlers.register(ConflictCheck.jobKind, ConflictCheckJob.handler(check: conflictCheck, hub: hub, logger: logger))
    let apns = configuration.apns.map { APNsClient(configuration: $0, clock: dependencies.clock, logger: logger) }
    if let apns {
        handlers.register(NotificationDispatch.pushJob, NotificationPush.handler(
            notifications: Notifications(store: store, clock: dependencies.clock, random: dependencies.random), client: apns, busyTime: busyTime, logger: logger))
    } else {
        // Devices are refused without APNs; jobs left from when it was configured fail clearly.
        handlers.register(NotificationDispatch.pushJob) { _ in throw PermanentJobFailure(description: "push is not configured on this server (JADWAL_APNS_*)") }
    }
    let reminders = ReminderQueue(store: store, clock: dependencies.clock, random: dependencies.random, parse: parse)
    ReminderJobs.register(in: &handlers, queue: reminders, hub: hub, logger: logger)
    try await reminders.ensureSweep()
    handlers.register(NotificationDispatch.emailJob, NotificationEmail.handler(
        notifications: Notifications(store: store, clock: dependencies.clock, random: dependencies.random), transport: transport, from: configuration.mailFrom,
        publicURL: configuration.effectivePublicURL))
    handlers.register(InvitationMail.kind, InvitationEmail.handler(
        invitations: Invitations(store: store, clock: dependencies.clock, random: dependencies.random, busyTime: busyTime), transport: transport,
        from: configuration.mailFrom, publicURL: configuration.effectivePublicURL))
    // Events link back to their conversation; absolute only when the address is known before listening.
    let chatLinkBase = configuration.publicURL ?? (configuration.port == 0 ? "" : configuration.effectivePublicURL)
    let chatInbox = ChatInbox(
        store: store, clock: dependencies.clock, random: dependencies.random, cipher: chatCipher, extractor: ChatExtractors.make(configuration.llm, logger: logger),
        publicURL: chatLinkBase, quietPeriod: configuration.chatQuietPeriod, notified: { hub.wake($0) })
    handlers.register(ChatInbox.readJob) { job in _ = try await chatInbox.readQuiet(try ChatInbox.QuietRead(json: job.payload)) }
    let chatEventLengths = ChatEventLengths(store: store, clock: dependencies.clock, random: dependencies.random)
    handlers.register(ChatEventLengths.jobKind) { _ in
        let changed = try await chatEventLengths.run()
        logger.notice("events agreed in chats before they had a length now have one", metadata: ["events": "\(changed)"])
    }
    var fetchRanges: [IPRange] = []
    for text in configuration.fetchAllowList {
        guard let range = IPRange(text) else {
            throw ServerStartupError.configuration("JADWAL_FETCH_ALLOW: \"\(text)\" is not an address range such as 10.0.5.0/24 or fd00::/8")
        }
        fetchRanges.append(range)
    }
    // One fetcher for feeds and CalDAV accounts: the same address rules and fetch slots.
    let fetcher = FeedFetcher(policy: FetchPolicy(allowPrivate: configuration.allowPrivateFetch, allowed: fetchRanges, ownURL: configuration.effectivePublicURL))
    // One refresh of a person's feeds and accounts at a time, so their slow ones hold one worker at most.
    let fetchTurns = ExternalFetchTurns()
    let subscriptions = CalendarSubscriptions(store: store, clock: dependencies.clock, random: dependencies.random, fetcher: fetcher, turns: fetchTurns)
    // Google Calendar over CalDAV: only with the Google client's secret (its CalDAV takes OAuth, not passwords).
    let googleOAuth = configuration.googleClientID.flatMap { clientID in
        configuration.googleClientSecret.map { secret in
            GoogleOAuth(
                clientID: clientID, clientSecret: secret,
                endpoints: .init(consent: configuration.googleAuthorizationURL, token: configuration.googleTokenURL, caldav: configuration.googleCalDAVURL),
                fetcher: fetcher)
        }
    }
    let caldavAccounts = CalDAVAccounts(
        store: store, clock: dependencies.clock, random: dependencies.random, servers: CalDAVServers(fetcher: fetcher, google: googleOAuth), cipher: chatCipher,
        turns: fetchTurns)
    let googleCalendars = googleOAuth.map { GoogleCalendars(accounts: caldavAccounts, google: $0, cipher: chatCipher, clock: dependencies.clock) }
    // Web Push posts to addresses browsers give, by the same address rules as every other fetch.
    var webPushConfiguration = baseWebPush
    webPushConfiguration.allowPrivate = configuration.allowPrivateFetch
    webPushConfiguration.allowed = fetchRanges
    let webPushClient = WebPushClient(configuration: webPushConfiguration, clock: dependencies.clock, logger: logger)
    let webPush = WebPushSubscriptions(store: store, clock: dependencies.clock, random: dependencies.random, addresses: fetcher, serverKey: webPushClient.key.publicKey)
    handlers.register(NotificationDispatch.webPushJob, NotificationWebPush.handler(subscriptions: webPush, client: webPushClient, logger: logger))
    let prayerAlerts = PrayerAlerts(store: store, clock: dependencies.clock, random: dependencies.random)
    PrayerAlertJobs.register(in: &handlers, alerts: prayerAlerts, hub: hub, logger: logger)
    try await prayerAlerts.ensureSweep()
    handlers.register(CalDAVAccounts.syncJob) { job in
        let sync = try await caldavAccounts.sync(jobPayload: job.payload)
        if case .failed(_, let reason) = sync.result {
            logger.info("CalDAV account sync failed", metadata: ["account": "\(job.payload)", "reason": "\(reason)"])
        }
    }
    handlers.register(CalDAVAccounts.writeBackJob) { job in
        _ = try await caldavAccounts.writeBack(jobPayload: job.payload, isLastAttempt: job.attempts >= job.maxAttempts)
    }
    handlers.register(CalendarSubscriptions.refreshJob) { job in
        let refresh = try await subscriptions.refresh(jobPayload: job.payload)
        if case .failed(_, let reason) = refresh.result {
            logger.info("subscription refresh failed", metadata: ["subscription": "\(job.payload)", "reason": "\(reason)"])
        }
    }
    // The plan reads the Goals calendar after a phone changed it; the tracker's progress notices.
    let sessionReader = TwoWeekPlanning(store: store, clock: dependencies.clock, random: dependencies.random, busyTime: busyTime)
    handlers.register(TwoWeekPlanning.sessionsJob) { job in
        try await sessionReader.readSessions(accountID: try TwoWeekPlanning.account(of: job))
    }
    // The weekly plan, its daily sweep, and the re-plan after a calendar change broke a proposal.
    PlanJobs.register(in: &handlers, planning: sessionReader, hub: hub, logger: logger)
    try await sessionReader.ensureWeeklySweep()
    let progress = TrackerProgress(store: store, clock: dependencies.clock, random: dependencies.random, busyTime: busyTime)
    handlers.register(TrackerProgress.checkJob) { job in
        let accountID = try TrackerProgress.account(of: job)
        if !(try await progress.check(accountID: accountID)).isEmpty { hub.wake(accountID) }
    }
    let workers = JobWorkers(store: store, handlers: handlers, clock: dependencies.clock, logger: logger, concurrency: configuration.workers)

    _ = PrometheusMetrics.registry
    let router = Router(context: JadwalRequestContext.self)
    router.add(middleware: RequestIDMiddleware())
    router.add(middleware: JSONErrorMiddleware())
    router.add(middleware: MetricsMiddleware())
    router.add(middleware: LogRequestsMiddleware(.debug))
    if configuration.trustForwardedFor { router.add(middleware: ForwardedClientMiddleware(trustedProxies: trustedProxies)) }

    var passwordPolicy = AppPasswords.Policy()
    passwordPolicy.activeLimit = configuration.appPasswordLimit
    let appPasswords = AppPasswords(store: store, clock: dependencies.clock, random: dependencies.random, hashing: .bcrypt(), policy: passwordPolicy)
    let sessions = AccessSessions(accessTokens: accessTokens, signIn: signIn)
    let browser = BrowserSession(
        sessions: sessions, secret: secret,
        secureCookies: configuration.tlsCertificatePath != nil || configuration.effectivePublicURL.lowercased().hasPrefix("https://"))
    let sessionMiddleware = SessionMiddleware(sessions: sessions, browser: browser)
    let writes = CalendarWrites(store: store, clock: dependencies.clock, random: dependencies.random)
    let calendars = Calendars(store: store, clock: dependencies.clock, random: dependencies.random)
    // Before any route: middleware is attached to routes as they are added, and CalDAV answers
    // methods and paths the router has no routes for.
    router.add(middleware: CalDAVMiddleware(service: CalDAVService(
        store: store, clock: dependencies.clock, random: dependencies.random, writes: writes, calendars: calendars,
        authentication: DAVAuthentication(store: store, appPasswords: appPasswords, sessions: sessions), caches: caches,
        directory: configuration.principalDirectory)))

    HealthRoutes(store: store, clock: dependencies.clock, metricsToken: configuration.metricsToken).addRoutes(to: router)
    let assets: WebAssets
    do {
        assets = try await WebAssets.bundled()
    } catch {
        throw ServerStartupError.configuration("\(error)")
    }
    let googleWeb = google.map {
        GoogleWebSignIn(
            verifier: $0, clientID: configuration.googleClientID ?? "", authorizationURL: configuration.googleAuthorizationURL,
            callbackURL: configuration.effectivePublicURL + "/auth/google/callback", secret: secret, random: dependencies.random)
    }
    let setup = EasySetup(
        store: store, clock: dependencies.clock, random: dependencies.random, publicURL: configuration.effectivePublicURL,
        makeAppPassword: { accountID, name in try await appPasswords.create(accountID: accountID, name: name).1 })
    let setupRoutes = SetupRoutes(setup: setup, publicURL: configuration.effectivePublicURL, hub: hub, random: dependencies.random)

    let auth = AuthRoutes(signIn: signIn, accessTokens: accessTokens, google: google, hub: hub)
    // Every API route answers Core's refusals the same way (JadwalAPI/APIErrors.swift).
    let api = router.group().add(middleware: CoreRefusals())
    auth.addPublicRoutes(to: router.group("api/v1/auth").add(middleware: CoreRefusals()))
    auth.addSessionRoutes(to: router.group("api/v1/auth").add(middleware: sessionMiddleware).add(middleware: CoreRefusals()))
    let signedIn = router.group("api/v1").add(middleware: sessionMiddleware).add(middleware: CoreRefusals())
    let profiles = Profiles(store: store, clock: dependencies.clock)
    AccountRoutes(profiles: profiles).addRoutes(to: signedIn)
    OwnershipRoutes(ownership: ownership).addRoutes(to: signedIn)
    OwnershipRoutes(ownership: ownership).addPublicRoutes(to: router.group("api/v1").add(middleware: CoreRefusals()))
    AppPasswordRoutes(appPasswords: appPasswords).addRoutes(to: signedIn)
    CalendarRoutes(calendars: calendars).addRoutes(to: signedIn)
    SubscriptionRoutes(subscriptions: subscriptions, caldavAccounts: caldavAccounts).addRoutes(to: signedIn)
    ShareRoutes(shares: CalendarShares(store: store, clock: dependencies.clock, random: dependencies.random)).addRoutes(to: signedIn)
    let invitations = Invitations(store: store, clock: dependencies.clock, random: dependencies.random, busyTime: busyTime)
    let meetingTimes = MeetingTimes(store: store, clock: dependencies.clock, busyTime: busyTime)
    InvitationRoutes(invitations: invitations, meetingTimes: meetingTimes).addRoutes(to: signedIn)
    let transfer = CalendarTransfer(store: store, clock: dependencies.clock, random: dependencies.random)
    CalendarTransferRoutes(transfer: transfer, calendars: calendars).addRoutes(to: signedIn)
    let integrated = IntegratedCalendar(store: store, parse: parse)
    let tasks = Tasks(store: store, clock: dependencies.clock, random: dependencies.random, busyTime: busyTime, parse: parse)
    let conflicts = Conflicts(store: store, clock: dependencies.clock, busyTime: indexedBusyTime)
    CalendarObjectRoutes(
        store: store, clock: dependencies.clock, writes: writes, calendars: calendars,
        windows: CalendarWindows(integrated: integrated, conflicts: conflicts, tasks: tasks)
    ).addRoutes(to: signedIn)
    let seriesChanges = EventSeriesChanges(store: store, clock: dependencies.clock, random: dependencies.random)
    EventRoutes(clock: dependencies.clock, random: dependencies.random, writes: writes, calendars: calendars, series: seriesChanges,
                copies: EventCopies(store: store, clock: dependencies.clock, random: dependencies.random)).addRoutes(to: signedIn)
    let planner = TaskPlanner(store: store, clock: dependencies.clock, random: dependencies.random, busyTime: busyTime)
    TaskRoutes(store: store, clock: dependencies.clock, random: dependencies.random, writes: writes, calendars: calendars, planner: planner, tasks: tasks)
        .addRoutes(to: signedIn)
    let dayAgenda = DayAgenda(store: store, clock: dependencies.clock, integrated: integrated, tasks: tasks)
    TodayRoutes(agenda: dayAgenda, tasks: tasks, calendars: calendars).addRoutes(to: signedIn)
    let upcomingReminders = UpcomingReminders(
        store: store, clock: dependencies.clock, random: dependencies.random, parse: parse)
    ReminderRoutes(reminders: upcomingReminders).addRoutes(to: signedIn)
    let prayer = PrayerPreferences(store: store, clock: dependencies.clock, random: dependencies.random, publicURL: configuration.effectivePublicURL)
    let prayerRoutes = PrayerRoutes(prayer: prayer, clock: dependencies.clock)
    prayerRoutes.addRoutes(to: signedIn)
    prayerRoutes.addFeedRoute(to: api)
    PrayerAlertRoutes(alerts: prayerAlerts).addRoutes(to: signedIn)
    WebPushRoutes(subscriptions: webPush).addRoutes(to: signedIn)
    setupRoutes.addRoutes(to: signedIn)
    setupRoutes.addProfileRoute(to: api)
    let chats = Chats(inbox: chatInbox, store: store, clock: dependencies.clock, random: dependencies.random)
    ChatRoutes(chats: chats, importLimit: configuration.chatImportLimit).addRoutes(to: signedIn)
    ChatConnectorRoutes(chats: chats).addRoutes(to: api)
    let whatsAppLinks = WhatsAppLinks(inbox: chatInbox, store: store, clock: dependencies.clock, random: dependencies.random, cipher: chatCipher)
    let conflictResolution = ConflictResolution(store: store, clock: dependencies.clock, random: dependencies.random, busyTime: indexedBusyTime)
    ConflictRoutes(conflicts: conflicts, resolution: conflictResolution).addRoutes(to: signedIn)
    let routines = RoutineCalendar(store: store, clock: dependencies.clock, random: dependencies.random)
    RoutineRoutes(routines: routines).addRoutes(to: signedIn)
    let goals = Goals(store: store, clock: dependencies.clock, random: dependencies.random)
    GoalRoutes(goals: goals).addRoutes(to: signedIn)
    let planning = TwoWeekPlanning(store: store, clock: dependencies.clock, random: dependencies.random, busyTime: busyTime)
    PlanRoutes(planning: planning).addRoutes(to: signedIn)
    let tracker = Tracker(store: store, clock: dependencies.clock, random: dependencies.random, parse: parse)
    let healthImport = HealthImport(store: store, clock: dependencies.clock, random: dependencies.random)
    TrackerRoutes(tracker: tracker, healthImport: healthImport, uploadLimit: configuration.healthImportLimit).addRoutes(to: signedIn)
    let notifications = Notifications(store: store, clock: dependencies.clock, random: dependencies.random)
    NotificationRoutes(
        notifications: notifications, hub: hub, keepAlive: configuration.streamKeepAlive, pushEnabled: apns != nil, signIn: signIn,
        streamLimit: configuration.streamsPerAccount)
        .addRoutes(to: signedIn)
    CloudAPIWebhookRoutes(
        chats: chats, appSecret: configuration.whatsAppAppSecret, verifyToken: configuration.whatsAppVerifyToken, logger: logger
    ).addRoutes(to: api)
    WebRoutes(
        assets: assets, browser: browser, store: store, clock: dependencies.clock, random: dependencies.random, signIn: signIn, writes: writes, google: googleWeb,
        appPasswords: appPasswords, setup: setup, prayer: prayer, chats: chats, chatImportLimit: configuration.chatImportLimit, notifications: notifications, profiles: profiles, tasks: tasks, planner: planner, conflicts: conflicts,
        conflictResolution: conflictResolution, routines: routines, goals: goals, planning: planning, tracker: tracker, healthImport: healthImport,
        healthImportLimit: configuration.healthImportLimit, integrated: integrated, calendars: calendars,
        subscriptions: subscriptions, transfer: transfer, publicURL: configuration.effectivePublicURL,
        whatsAppWebhookConfigured: configuration.whatsAppAppSecret != nil && configuration.whatsAppVerifyToken != nil,
        whatsAppLinks: whatsAppLinks, bridgeRunning: configuration.whatsAppBridge != nil, webPush: webPush, prayerAlerts: prayerAlerts, agenda: dayAgenda, reminders: upcomingReminders, caldavAccounts: caldavAccounts, ownership: ownership, meetingTimes: meetingTimes, googleCalendars: googleCalendars
    ).addRoutes(to: router)
    // The WhatsApp bridge: its routes exist only when this server runs one, with a token made now.
    WhatsAppLinkRoutes(links: whatsAppLinks, bridgeRunning: configuration.whatsAppBridge != nil).addRoutes(to: signedIn)
    let listeningPort = ListeningPort()
    var bridgeToken: String?
    var bridgeSupervisor: WhatsAppBridgeSupervisor?
    if let bridge = configuration.whatsAppBridge {
        let token = dependencies.random.bytes(32).map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
        bridgeToken = token
        WhatsAppBridgeRoutes(links: whatsAppLinks, token: token).addRoutes(to: api)
        let supervisor = WhatsAppBridgeSupervisor(
            configuration: bridge, token: token, host: try loopbackHost(configuration), port: listeningPort, logger: logger)
        // Run by `run(gracefulShutdownSignals:)`, not among the application's services.
        if bridge.startsProcess { bridgeSupervisor = supervisor }
    }
    let retention = RetentionSweeper(inbox: chatInbox, records: RecordRetention(store: store, clock: dependencies.clock), interval: configuration.retentionSweepInterval, logger: logger)

    let serverLogger = logger
    let application = Application(
        router: router, server: server,
        configuration: .init(
            address: .hostname(configuration.hostname, port: configuration.port), serverName: "jadwal",
            availableConnectionsDelegate: MaximumAvailableConnections(configuration.maxConnections, logger: logger)),
        // Background work, the retention sweep included, runs where job workers run.
        // Stopped in reverse: the workers finish their jobs before the APNs client and the store close.
        services: ([StoreLifecycle(store: store), hub] as [any Service]) + (apns.map { [$0] } ?? []) + [workers]
            + (configuration.workers > 0 ? [retention] : []),
        onServerRunning: { channel in
            if let port = channel.localAddress?.port { await listeningPort.set(port) }
            var listening = configuration
            listening.port = channel.localAddress?.port ?? configuration.port
            listening.publicURL = nil
            serverLogger.notice("jadwal is serving at \(listening.effectivePublicURL)/ (database: \(store.location))")
        },
        logger: logger
    )
    return JadwalServerInstance(
        application: application, store: store, workers: workers, chatInbox: chatInbox, appPasswords: appPasswords, configuration: configuration,
        whatsAppBridgeToken: bridgeToken, whatsAppBridge: bridgeSupervisor)
}

/// Where the bridge reaches this server: loopback on the port it listens on. A server bound to
/// one outside address only, or speaking TLS, cannot be reached that way.
func loopbackHost(_ configuration: ServerConfiguration) throws -> String {
    guard configuration.tlsCertificatePath == nil else {
        throw ServerStartupError.configuration("the WhatsApp bridge talks to the server over plain HTTP on loopback; serve TLS from a proxy in front instead")
    }
    switch configuration.hostname {
    case "127.0.0.1", "localhost", "0.0.0.0": return "127.0.0.1"
    case "::1", "::": return "[::1]"
    default:
        throw ServerStartupError.configuration(
            "the WhatsApp bridge reaches the server over loopback: listen on 127.0.0.1, ::1, 0.0.0.0 or :: (not \(configuration.hostname))")
    }
}

package func tlsConfiguration(certificate: String, key: String) throws -> TLSConfiguration {
    let chain: [NIOSSLCertificate]
    do {
        chain = try NIOSSLCertificate.fromPEMFile(certificate)
    } catch {
        throw ServerStartupError.tls("cannot read the certificate chain \(certificate) as PEM: \(error)")
    }
    guard !chain.isEmpty else { throw ServerStartupError.tls("\(certificate) holds no certificate") }
    let privateKey: NIOSSLPrivateKey
    do {
        privateKey = try NIOSSLPrivateKey(file: key, format: .pem)
    } catch {
        throw ServerStartupError.tls("cannot read the private key \(key) as PEM: \(error)")
    }
    return TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(privateKey))
}

/// Closes storage after the server and workers have stopped (services stop in reverse order).
package struct StoreLifecycle: Service {
    package let store: SQLStore

    /// Hears the other instances on the same PostgreSQL while the server runs; closes the store
    /// when it stops.
    package func run() async throws {
        let listening = Task { await store.listenToOtherInstances() }
        try? await gracefulShutdown()
        listening.cancel()
        await listening.value
        try await store.shutdown()
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
