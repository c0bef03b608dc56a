import Foundation
import ICalendar

/// A calendar the person subscribed to by URL (an ICS feed: a timetable, a course site, a work
/// calendar's published address). Jadwal fetches it on a schedule into a read-only calendar of
/// their home, so phones see it through the one Jadwal account and it counts in busy time,
/// conflicts and suggestions like any calendar.
public struct CalendarSubscription: Sendable, Hashable {
    public var id: UUID
    public var accountID: UUID
    /// The calendar it fills.
    public var calendarID: UUID
    /// Where it is fetched from: `https://` or `http://` (`webcal://` is read as `https://`).
    public var url: String
    /// The person's refresh interval; nil to follow the feed (or hourly).
    public var refreshSeconds: Int?
    /// What the feed asks (`REFRESH-INTERVAL`, `X-PUBLISHED-TTL`, else `Cache-Control: max-age`).
    public var feedRefreshSeconds: Int?
    /// The calendar takes the feed's name and colour until the person chooses their own.
    public var followsFeedName: Bool
    public var followsFeedColor: Bool
    /// The feed's dated items are kept as to-dos (a course site's assignments): each event becomes
    /// a VTODO due when it ends, which the person may mark done; later refreshes move the due
    /// date and keep the mark.
    public var asTasks: Bool
    /// The last answer's validators, for a conditional GET.
    public var etag: String?
    public var lastModified: String?
    /// SHA-256 of the last body applied: a server without validators that sends the same body
    /// again costs a hash, not a diff.
    public var contentDigest: String?
    public var lastAttemptAt: Date?
    public var lastSuccessAt: Date?
    public var nextRefreshAt: Date
    public var lastError: String?
    /// Failed refreshes in a row.
    public var failures: Int
    /// Whether this run of failures has been notified (once per run).
    public var failureNotified: Bool
    /// When the feed first answered 404 or 410 in the current run of failures.
    public var goneSince: Date?
    /// Set when it stopped being refreshed (gone for a week, or paused by the person).
    public var pausedAt: Date?
    /// How many calendar objects the last refresh left in the calendar.
    public var objectCount: Int
    /// What the last refresh skipped or mended (the first `CalendarSubscriptions.problemsKept`).
    public var problems: [ICalendarFeed.Problem]
    public var problemCount: Int
    public var createdAt: Date

    public init(
        id: UUID, accountID: UUID, calendarID: UUID, url: String, refreshSeconds: Int? = nil, feedRefreshSeconds: Int? = nil,
        followsFeedName: Bool = true, followsFeedColor: Bool = true, asTasks: Bool = false, etag: String? = nil, lastModified: String? = nil,
        contentDigest: String? = nil, lastAttemptAt: Date? = nil, lastSuccessAt: Date? = nil, nextRefreshAt: Date, lastError: String? = nil,
        failures: Int = 0, failureNotified: Bool = false, goneSince: Date? = nil, pausedAt: Date? = nil, objectCount: Int = 0,
        problems: [ICalendarFeed.Problem] = [], problemCount: Int = 0, createdAt: Date
    ) {
        self.id = id
        self.accountID = accountID
        self.calendarID = calendarID
        self.url = url
        self.refreshSeconds = refreshSeconds
        self.feedRefreshSeconds = feedRefreshSeconds
        self.followsFeedName = followsFeedName
        self.followsFeedColor = followsFeedColor
        self.asTasks = asTasks
        self.etag = etag
        self.lastModified = lastModified
        self.contentDigest = contentDigest
        self.lastAttemptAt = lastAttemptAt
        self.lastSuccessAt = lastSuccessAt
        self.nextRefreshAt = nextRefreshAt
        self.lastError = lastError
        self.failures = failures
        self.failureNotified = failureNotified
        self.goneSince = goneSince
        self.pausedAt = pausedAt
        self.objectCount = objectCount
        self.problems = problems
        self.problemCount = problemCount
        self.createdAt = createdAt
    }

    /// The interval between refreshes: the person's, else the feed's, else hourly; never more
    /// often than every 15 minutes nor less than weekly.
    public var refreshInterval: Int {
        let wanted = refreshSeconds ?? feedRefreshSeconds ?? CalendarSubscriptions.defaultRefreshSeconds
        return min(max(wanted, CalendarSubscriptions.minimumRefreshSeconds), CalendarSubscriptions.maximumRefreshSeconds)
    }
}

/// What a fetch sends: the address and the validators of the last answer.
public struct FeedRequest: Sendable, Hashable {
    public var url: String
    public var etag: String?
    public var lastModified: String?

    public init(url: String, etag: String? = nil, lastModified: String? = nil) {
        self.url = url
        self.etag = etag
        self.lastModified = lastModified
    }
}

/// What a fetch brought back.
public enum FeedResponse: Sendable, Hashable {
    /// 304: nothing changed since the validators sent.
    case notModified(maxAge: Int?)
    /// 200 with the body and the validators to send next time.
    case document(body: [UInt8], etag: String?, lastModified: String?, maxAge: Int?)
}

/// Why a fetch failed, in words a person can act on.
public struct FeedFetchFailure: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// 404 or 410: the address no longer serves a calendar.
        case gone
        /// 401 or 403: the feed needs credentials or a fresh secret address.
        case unauthorized
        /// Another HTTP status.
        case status
        /// The host could not be reached, resolved, or answered too slowly.
        case network
        /// The TLS handshake failed (a certificate error).
        case tls
        /// The address is not allowed (a private or loopback address, a scheme other than HTTP(S)).
        case refused
        /// The answer was larger than the limit.
        case tooLarge
    }

    public var kind: Kind
    public var message: String
    public var status: Int?

    public init(_ kind: Kind, _ message: String, status: Int? = nil) {
        self.kind = kind
        self.message = message
        self.status = status
    }

    public var description: String { message }
}

/// Fetches a feed over HTTP: implemented outside Core (JadwalFetch), with the server's rules on
/// which addresses may be fetched, redirects, sizes and timeouts.
public protocol FeedFetching: Sendable {
    func fetch(_ request: FeedRequest) async throws(FeedFetchFailure) -> FeedResponse
    /// Refuses an address the server will not fetch from (its host resolves to a private
    /// address, say), so a person hears it when they add the feed, not at the first refresh.
    func checkAddress(_ url: String) async throws(FeedFetchFailure)
}
