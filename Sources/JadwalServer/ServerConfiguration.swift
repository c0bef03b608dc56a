import Foundation
import JadwalAPI
import JadwalCalDAV
import JadwalCore
import JadwalHTTP
import JadwalJobs
import JadwalLLM
import JadwalMail
import JadwalPush
import JadwalWeb
import Logging

/// Everything `jadwal serve` can be told. The CLI fills it from flags, then `JADWAL_*`
/// environment variables, then these defaults; tests build it directly.
public struct ServerConfiguration: Sendable {
    public var hostname = "127.0.0.1"
    public var port = 8080
    public var dataDirectory = "./jadwal-data"
    /// `postgres://…`; nil means the SQLite file `<dataDirectory>/jadwal.sqlite`.
    public var databaseURL: String?
    public var tlsCertificatePath: String?
    public var tlsKeyPath: String?
    /// The address people reach the server at, for links in emails. Defaults to the listening address.
    public var publicURL: String?
    /// Base64 of 32 bytes; nil means `<dataDirectory>/secret.key`, created on first start.
    public var secretKey: String?
    /// Base64 of the 32-byte key that encrypts chat messages; nil means `<dataDirectory>/chat.key`,
    /// created on first start. Instances sharing a database must share it.
    public var chatKey: String?
    /// The largest chat export `POST /api/v1/chats/import` accepts.
    public var chatImportLimit = 64 * 1024 * 1024
    /// The largest Apple Health export an upload may be (`JADWAL_HEALTH_IMPORT_MAX_MB`); it is
    /// streamed to a temporary file, never held in memory. Larger ones go through the CLI.
    public var healthImportLimit = 2048 * 1024 * 1024
    /// How often what is past its time is forgotten: chat message text past its retention
    /// period, and the records `RecordRetention` ages out.
    public var retentionSweepInterval: Duration = .seconds(3600)
    /// How long a live chat (webhook, connector) must be quiet before it is read; zero reads
    /// every delivery at once.
    public var chatQuietPeriod: Duration = ChatInbox.defaultQuietPeriod
    /// The App Secret of the Meta app whose WhatsApp Cloud API webhook posts to
    /// `/webhooks/whatsapp`; nil leaves the webhook off.
    public var whatsAppAppSecret: String?
    /// The Verify Token typed into the Meta App Dashboard for that webhook.
    public var whatsAppVerifyToken: String?
    public var smtp: SMTPConfiguration?
    public var mailFrom = MailAddress("jadwal@localhost", name: "Jadwal")
    public var googleClientID: String?
    public var googleJWKSURL = "https://www.googleapis.com/oauth2/v3/certs"
    /// Where the browser is sent to sign in with Google (OpenID Connect authorization endpoint).
    public var googleAuthorizationURL = "https://accounts.google.com/o/oauth2/v2/auth"
    /// The Google client's secret: with it (and the client ID) people can connect Google Calendar.
    public var googleClientSecret: String?
    /// Google's OAuth token endpoint (redeems codes, renews access tokens).
    public var googleTokenURL = "https://oauth2.googleapis.com/token"
    /// Google's CalDAV root.
    public var googleCalDAVURL = "https://apidata.googleusercontent.com/caldav/v2/"
    /// Background job workers in this process (0 runs none: the API only).
    public var workers = 2
    /// Take the client address from `X-Forwarded-For` (only behind your own proxy), believed
    /// only on connections from `trustedProxies`.
    public var trustForwardedFor = false
    /// The proxies (CIDRs) whose `X-Forwarded-For` is believed; loopback unless told.
    public var trustedProxies = ["127.0.0.0/8", "::1/128"]
    /// A connection that sends nothing for this long is closed: an idle keep-alive connection,
    /// or one that never finishes its request head (slowloris). One being answered, such as a
    /// notification stream, is not idle.
    public var idleTimeout: Duration = .seconds(30)
    /// Open connections at most; more wait in the listen backlog until one closes.
    public var maxConnections = 512
    /// What each account may store (`JADWAL_QUOTA_MB`, `JADWAL_QUOTA_OBJECTS`, `JADWAL_QUOTA_CALENDARS`).
    public var accountQuota = AccountQuota()
    /// How long a request may wait for one of SQLite's connections (its one writer, mostly)
    /// before it is answered 503 with `Retry-After` instead of waiting on.
    public var databaseWaitLimit: Duration = .seconds(10)
    /// The bearer token that lets other machines read `/metrics`; nil: only this machine can.
    public var metricsToken: String?
    public var logLevel: Logger.Level = .info
    /// Time zone new accounts start with.
    public var defaultTimeZone = "UTC"
    /// The optional LLM extractor for chats; nil reads them with the rules alone.
    public var llm: LLMConfiguration?
    /// How often a quiet notification stream sends a keep-alive comment and reads the database
    /// again (which is how it sees posts by other processes sharing PostgreSQL).
    public var streamKeepAlive: Duration = .seconds(15)
    /// Notification streams one account may hold open on one instance.
    public var streamsPerAccount = 100
    /// Active app passwords one account may hold.
    public var appPasswordLimit = 20
    /// Push to Apple devices through APNs; nil leaves push off.
    public var apns: APNsConfiguration?
    /// The VAPID key that signs Web Push (base64url of 32 bytes, or a PEM); nil means
    /// `<dataDirectory>/vapid.key`, created on first start. Instances sharing a database must share it.
    public var vapidPrivateKey: String?
    /// The VAPID `sub` (a `mailto:` or `https:` address); nil means `mailto:` the mail sender.
    public var vapidSubject: String?
    /// Certificates (PEM) trusted besides the system's when posting to push services: a test push service.
    public var webPushCAFile: String?
    /// Let subscriptions fetch from loopback, private and other non-public addresses (a
    /// calendar server on the same network); off, only public addresses are fetched.
    public var allowPrivateFetch = false
    /// Address ranges (CIDR) subscriptions may fetch from even though they are not public.
    public var fetchAllowList: [String] = []
    /// Whom a principal search shows: by default only the people one shares with; `.serverWide`
    /// lists every active account by name or address (a household or a team).
    public var principalDirectory: PrincipalDirectory = .related
    /// Run the bundled WhatsApp bridge (link with a pairing code); nil leaves it off.
    public var whatsAppBridge: WhatsAppBridgeConfiguration?

    public init() {}

    public var effectivePublicURL: String {
        if let publicURL { return publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL }
        let scheme = tlsCertificatePath == nil ? "http" : "https"
        let host = hostname.contains(":") ? "[\(hostname)]" : hostname
        return "\(scheme)://\(host):\(port)"
    }

    public var sqlitePath: String { URL(fileURLWithPath: dataDirectory).appendingPathComponent("jadwal.sqlite").path }
    public var secretKeyPath: String { URL(fileURLWithPath: dataDirectory).appendingPathComponent("secret.key").path }
    public var chatKeyPath: String { URL(fileURLWithPath: dataDirectory).appendingPathComponent("chat.key").path }
    public var vapidKeyPath: String { URL(fileURLWithPath: dataDirectory).appendingPathComponent("vapid.key").path }
}
