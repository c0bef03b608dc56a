import Foundation

/// Another CalDAV server's account the person connected (their work server, iCloud, a
/// Nextcloud): Jadwal mirrors the calendars they chose, two ways. The password is sealed at
/// rest with the server's key (like chat text) and never leaves the server again.
public struct CalDAVAccount: Sendable, Hashable {
    public var id: UUID
    public var accountID: UUID
    /// The address the person gave (a bare host is `https://host`).
    public var url: String
    /// The calendar home discovery found.
    public var homeURL: String
    public var username: String
    /// The password sealed, or for Google the refresh token sealed.
    public var password: SealedText
    public var signIn: RemoteSignIn
    /// The remote calendars as last listed, mirrored or not.
    public var remoteCalendars: [RemoteCalendar]
    public var lastAttemptAt: Date?
    public var lastSuccessAt: Date?
    public var nextSyncAt: Date
    public var lastError: String?
    /// Failed syncs in a row.
    public var failures: Int
    public var failureNotified: Bool
    public var createdAt: Date

    public init(
        id: UUID, accountID: UUID, url: String, homeURL: String, username: String, password: SealedText, remoteCalendars: [RemoteCalendar],
        lastAttemptAt: Date? = nil, lastSuccessAt: Date? = nil, nextSyncAt: Date, lastError: String? = nil, failures: Int = 0,
        failureNotified: Bool = false, createdAt: Date, signIn: RemoteSignIn = .password
    ) {
        self.signIn = signIn
        self.id = id
        self.accountID = accountID
        self.url = url
        self.homeURL = homeURL
        self.username = username
        self.password = password
        self.remoteCalendars = remoteCalendars
        self.lastAttemptAt = lastAttemptAt
        self.lastSuccessAt = lastSuccessAt
        self.nextSyncAt = nextSyncAt
        self.lastError = lastError
        self.failures = failures
        self.failureNotified = failureNotified
        self.createdAt = createdAt
    }

    /// As the API says it: the same words as a feed's.
    public var state: CalendarSubscription.State {
        failures > 0 ? .failing : lastSuccessAt == nil ? .pending : .ok
    }
}

/// A remote calendar mirrored into one of the person's calendars.
public struct CalendarMirror: Sendable, Hashable {
    public var calendarID: UUID
    public var caldavAccountID: UUID
    public var remoteURL: String
    /// The token of the last `sync-collection` applied (servers with RFC 6578).
    public var syncToken: String?
    /// The `getctag` of the last listing applied (servers without it).
    public var ctag: String?

    public init(calendarID: UUID, caldavAccountID: UUID, remoteURL: String, syncToken: String? = nil, ctag: String? = nil) {
        self.calendarID = calendarID
        self.caldavAccountID = caldavAccountID
        self.remoteURL = remoteURL
        self.syncToken = syncToken
        self.ctag = ctag
    }
}

/// One object both sides agree on: its remote address and ETag, and the local ETag of the
/// version they last agreed on. A local object whose ETag differs has a change to write back.
public struct MirroredObject: Sendable, Hashable {
    public var calendarID: UUID
    public var name: String
    public var remoteURL: String
    /// nil when the server did not say it after a write (the next listing learns it).
    public var remoteETag: String?
    public var localETag: String

    public init(calendarID: UUID, name: String, remoteURL: String, remoteETag: String?, localETag: String) {
        self.calendarID = calendarID
        self.name = name
        self.remoteURL = remoteURL
        self.remoteETag = remoteETag
        self.localETag = localETag
    }
}
