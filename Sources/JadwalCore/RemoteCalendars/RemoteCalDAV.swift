import Foundation

/// The user name and app-specific password of another CalDAV server's account.
public struct RemoteCredentials: Sendable, Hashable {
    public var username: String
    /// The password, or for `.google` the OAuth refresh token.
    public var password: String
    public var signIn: RemoteSignIn

    public init(username: String, password: String, signIn: RemoteSignIn = .password) {
        self.username = username
        self.password = password
        self.signIn = signIn
    }
}

/// How Jadwal signs in to a connected account's server.
public enum RemoteSignIn: String, Sendable, Hashable {
    /// A username and (app-specific) password, by Basic or Digest.
    case password
    /// Google's CalDAV: an OAuth access token (`Authorization: Bearer`) from the refresh token
    /// the person granted through Google's consent page.
    case google
}

/// One calendar collection of a remote account, as its server describes it.
public struct RemoteCalendar: Sendable, Hashable, Codable {
    /// Its absolute address.
    public var url: String
    public var displayName: String?
    /// `#RRGGBB` (Apple's `calendar-color`, with any alpha dropped).
    public var color: String?
    /// What it holds (`VEVENT`, `VTODO`, …); empty when the server does not say (all of them).
    public var components: [String]
    /// `getctag`: changes whenever anything in it does.
    public var ctag: String?
    /// `sync-token` (RFC 6578), as listings before `reportsSync` recorded it; listings now leave
    /// it out (a server such as Radicale builds its sync state for every object to answer it).
    public var syncToken: String?
    /// Whether `supported-report-set` lists `sync-collection`; nil in listings made before it was asked.
    public var reportsSync: Bool?

    public init(url: String, displayName: String? = nil, color: String? = nil, components: [String] = [], ctag: String? = nil, reportsSync: Bool) {
        self.url = url
        self.displayName = displayName
        self.color = color
        self.components = components
        self.ctag = ctag
        self.reportsSync = reportsSync
    }

    /// Whether it answers `sync-collection`.
    public var supportsSync: Bool { reportsSync ?? (syncToken != nil) }
}

/// What discovery found from the address a person gave.
public struct RemoteAccountDiscovery: Sendable, Hashable {
    public var principalURL: String?
    public var homeURL: String
    public var calendars: [RemoteCalendar]

    public init(principalURL: String?, homeURL: String, calendars: [RemoteCalendar]) {
        self.principalURL = principalURL
        self.homeURL = homeURL
        self.calendars = calendars
    }
}

/// A calendar object of the remote calendar.
public struct RemoteObject: Sendable, Hashable {
    public var url: String
    public var etag: String?
    public var icalendar: String

    public init(url: String, etag: String?, icalendar: String) {
        self.url = url
        self.etag = etag
        self.icalendar = icalendar
    }
}

/// What changed in a remote calendar since a sync token (RFC 6578).
public enum RemoteChanges: Sendable, Hashable {
    /// Changed objects' addresses with their ETags, removed addresses, and the token to send next;
    /// `more` when the server truncated the answer (507) and another request continues it.
    case changes(changed: [String: String], removed: [String], token: String, more: Bool)
    /// The server no longer knows the token: list everything again.
    case tokenExpired
}

/// What a conditional write to the remote did.
public enum RemoteWrite: Sendable, Hashable {
    /// Written (or removed); the new ETag when the server said it.
    case done(etag: String?)
    /// 412: the remote object changed (or appeared, or went) since the ETag sent.
    case preconditionFailed
    /// The object is not there (a DELETE of something already gone).
    case notFound
}

/// Talks CalDAV to another server as one of its accounts: implemented outside Core
/// (JadwalFetch), through the same address rules, redirects, sizes and timeouts as a feed.
public protocol RemoteCalDAVServers: Sendable {
    func connection(_ credentials: RemoteCredentials) -> any RemoteCalDAVConnection
}

/// One account's conversation with its server (it remembers the authentication challenge, so
/// a Digest handshake is paid once, not per request). Failures are `FeedFetchFailure`s: the
/// same kinds and words as a feed's, `unauthorized` for a wrong password.
public protocol RemoteCalDAVConnection: Sendable {
    /// From a calendar home, a principal, a server's root or a bare host: `/.well-known/caldav`,
    /// `current-user-principal`, `calendar-home-set`, then the home's calendars.
    func discover(_ url: String) async throws(FeedFetchFailure) -> RemoteAccountDiscovery
    func calendars(home: String) async throws(FeedFetchFailure) -> [RemoteCalendar]
    /// `sync-collection` since `token` (nil: everything), addresses and ETags only.
    func changes(calendar: String, since token: String?) async throws(FeedFetchFailure) -> RemoteChanges
    /// Every object's address and ETag (PROPFIND Depth 1), for servers without sync tokens.
    func etags(calendar: String) async throws(FeedFetchFailure) -> [String: String]
    /// `getctag` (else the sync token) of one calendar.
    func ctag(calendar: String) async throws(FeedFetchFailure) -> String?
    /// The objects at these addresses (`calendar-multiget`).
    func objects(calendar: String, urls: [String]) async throws(FeedFetchFailure) -> [RemoteObject]
    /// PUT with `If-Match: etag`, or `If-None-Match: *` when `etag` is nil (a new object).
    func put(_ url: String, icalendar: String, ifMatch etag: String?) async throws(FeedFetchFailure) -> RemoteWrite
    func delete(_ url: String, ifMatch etag: String?) async throws(FeedFetchFailure) -> RemoteWrite
}
