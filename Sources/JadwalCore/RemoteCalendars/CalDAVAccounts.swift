import Foundation
import ICalendar

/// Connected CalDAV accounts, mirrored two ways by one set of rules whichever front door asks.
/// Remote → Jadwal runs as a durable job per account (`sync-collection` where the server keeps
/// sync tokens, else `getctag` + an ETag listing, then `calendar-multiget` in pages); only
/// objects whose content changed are written, so Jadwal's own sync tokens move only for real
/// changes. Jadwal → remote: every write to a mirrored calendar, from any front door, queues a
/// durable write-back of that object in the write's own transaction (`CalendarWrites`); it is
/// sent with `If-Match` (or `If-None-Match: *` for a new object), and on 412 the remote version
/// is kept and the person is told what was not applied. The same rule holds when a sync finds
/// that both sides changed an object since they last agreed (the write-back had not run yet):
/// the remote's version wins and the person is told; and a write-back that runs out of
/// attempts tells the person which change never reached the other server.
public struct CalDAVAccounts: Sendable {
    public static let syncJob: JobKind = "caldav.sync"
    public static let writeBackJob: JobKind = "caldav.write-back"
    public static let syncSeconds = 15 * 60
    public static let perAccountLimit = 10
    /// Objects written per transaction on a large first sync, so other writers get turns.
    static let batch = 250

    let store: StoreAccess<any CalendarWriteStore & AccountOwnershipStore & CalDAVAccountStore & CalendarShareStore & CalendarSubscriptionStore & ChatStore>
    let clock: Clock
    let random: RandomSource
    let servers: any RemoteCalDAVServers
    let cipher: MessageCipher
    /// One refresh of a person's at a time (shared with their feeds).
    let turns: ExternalFetchTurns
    let calendars: Calendars

    public init(
        store: any Store, clock: Clock, random: RandomSource, servers: any RemoteCalDAVServers, cipher: MessageCipher,
        turns: ExternalFetchTurns = ExternalFetchTurns()
    ) {
        self.turns = turns
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
        self.random = random
        self.servers = servers
        self.cipher = cipher
        calendars = Calendars(store: store, clock: clock, random: random)
    }

    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case invalidURL(String)
        case missingCredentials
        /// The fetcher will not reach that address (a private one, unless the operator allows it).
        case refusedAddress(String)
        /// The server refused the user name or password.
        case refused(String)
        /// It could not be reached, or did not answer as a CalDAV server.
        case unreachable(String)
        case tooMany(limit: Int)
        /// `mirror` named an address that is not one of the account's calendars.
        case unknownCalendar(String)

        public var description: String {
            switch self {
            case .invalidURL(let reason): "url: \(reason)"
            case .missingCredentials: "give the account's username and an app-specific password"
            case .refusedAddress(let reason): "url: \(reason)"
            case .refused(let reason): reason
            case .unreachable(let reason): reason
            case .tooMany(let limit): "you already have \(limit) connected accounts, the most one person may have; disconnect one first"
            case .unknownCalendar(let url): "mirror: \(url) is not one of this account's calendars"
            }
        }
    }

    /// An account with its mirrors and the calendars they fill.
    public struct Connected: Sendable, Hashable {
        public var account: CalDAVAccount
        /// Remote address → the calendar mirroring it.
        public var mirrored: [String: CalendarCollection]
    }

    // MARK: Reading

    public func all(accountID: UUID) async throws -> [Connected] {
        try await store.read { tx in
            var found: [Connected] = []
            for account in try await tx.caldavAccounts(accountID: accountID) { found.append(try await Self.connected(account, tx: tx)) }
            return found
        }
    }

    /// The account if it is the person's; nil for another's, exactly like one that does not exist.
    public func own(id: UUID, accountID: UUID) async throws -> Connected? {
        try await store.read { tx in
            guard let account = try await tx.caldavAccount(id: id), account.accountID == accountID else { return nil }
            return try await Self.connected(account, tx: tx)
        }
    }

    static func connected(_ account: CalDAVAccount, tx: any CalDAVAccountStore & CalendarStore) async throws -> Connected {
        var mirrored: [String: CalendarCollection] = [:]
        for mirror in try await tx.calendarMirrors(caldavAccountID: account.id) {
            if let calendar = try await tx.calendar(id: mirror.calendarID) { mirrored[mirror.remoteURL] = calendar }
        }
        return Connected(account: account, mirrored: mirrored)
    }

    // MARK: Connecting

    /// Discovers the account's calendars (which proves the password), stores it with the
    /// password sealed, and mirrors `mirror` (every calendar when nil); the first sync is queued.
    public func connect(url: String, username: String, password: String, mirror: [String]?, account: Account, signIn: RemoteSignIn = .password)
        async throws -> Connected {
        let trimmed = url.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.utf8.count <= 2048 else { throw Problem.invalidURL("give the server's address, e.g. https://caldav.example.com") }
        let address = trimmed.contains("://") ? trimmed : "https://" + trimmed
        guard let components = URLComponents(string: address), let scheme = components.scheme?.lowercased(), scheme == "https" || scheme == "http",
              components.host?.isEmpty == false
        else { throw Problem.invalidURL("\"\(trimmed.prefix(80))\" is not an http:// or https:// address") }
        guard !username.isEmpty, !password.isEmpty, username.utf8.count <= 512, password.utf8.count <= 1024 else { throw Problem.missingCredentials }
        let credentials = RemoteCredentials(username: username, password: password, signIn: signIn)
        let discovery: RemoteAccountDiscovery
        do {
            discovery = try await servers.connection(credentials).discover(address)
        } catch {
            throw Self.problem(error)
        }
        let chosen = try Self.chosen(mirror, from: discovery.calendars)
        let now = clock.now
        let id = random.uuid()
        let stored = CalDAVAccount(
            id: id, accountID: account.id, url: address, homeURL: discovery.homeURL, username: username,
            password: cipher.seal(data: Data(password.utf8), purpose: Self.passwordPurpose(id)), remoteCalendars: discovery.calendars,
            nextSyncAt: now, createdAt: now, signIn: signIn)
        let made = try chosen.map { try calendar(for: $0, caldavAccountID: id, account: account) }
        try await store.transaction { tx in
            guard try await tx.caldavAccounts(accountID: account.id).count < Self.perAccountLimit else { throw Problem.tooMany(limit: Self.perAccountLimit) }
            try await tx.insertCalDAVAccount(stored)
            for (remote, calendar) in zip(chosen, made) {
                try await tx.insertCalendar(calendar)
                try await tx.insertCalendarMirror(CalendarMirror(calendarID: calendar.id, caldavAccountID: id, remoteURL: remote.url))
            }
            try await schedule(id, at: now, tx: tx)
        }
        return Connected(account: stored, mirrored: Dictionary(uniqueKeysWithValues: zip(chosen.map(\.url), made)))
    }

    /// Chooses which remote calendars are mirrored: new ones get a calendar and a first sync,
    /// ones left out lose their calendar (as when a calendar is deleted).
    public func mirror(_ urls: [String], of connected: Connected, account: Account) async throws -> Connected {
        let chosen = try Self.chosen(urls, from: connected.account.remoteCalendars)
        let adding = chosen.filter { connected.mirrored[$0.url] == nil }
        for (url, calendar) in connected.mirrored where !chosen.contains(where: { $0.url == url }) { try await calendars.delete(calendar) }
        let made = try adding.map { try calendar(for: $0, caldavAccountID: connected.account.id, account: account) }
        let now = clock.now
        try await store.transaction { tx in
            for (remote, calendar) in zip(adding, made) {
                try await tx.insertCalendar(calendar)
                try await tx.insertCalendarMirror(CalendarMirror(calendarID: calendar.id, caldavAccountID: connected.account.id, remoteURL: remote.url))
            }
            if !adding.isEmpty { try await schedule(connected.account.id, at: now, tx: tx) }
        }
        guard let updated = try await own(id: connected.account.id, accountID: account.id) else { throw Problem.unknownCalendar(connected.account.url) }
        return updated
    }

    /// Removes the mirrored calendars and the account with its sealed password. Nothing is
    /// removed on the other server.
    public func disconnect(_ connected: Connected) async throws {
        for calendar in connected.mirrored.values { try await calendars.delete(calendar) }
        try await store.transaction { tx in
            try await tx.deleteCalDAVAccount(id: connected.account.id)
            try await tx.cancelQueuedJobs(kind: Self.syncJob, subject: Self.subject(connected.account.id))
        }
    }

    /// Queues a sync to run now.
    public func syncSoon(_ connected: Connected) async throws {
        let now = clock.now
        try await store.transaction { tx in try await schedule(connected.account.id, at: now, tx: tx) }
    }

    static func chosen(_ urls: [String]?, from calendars: [RemoteCalendar]) throws(Problem) -> [RemoteCalendar] {
        guard let urls else { return calendars }
        var chosen: [RemoteCalendar] = []
        for url in urls {
            guard let remote = calendars.first(where: { $0.url == url || $0.url.removingPercentEncoding == url.removingPercentEncoding }) else { throw .unknownCalendar(url) }
            if !chosen.contains(remote) { chosen.append(remote) }
        }
        return chosen
    }

    func calendar(for remote: RemoteCalendar, caldavAccountID: UUID, account: Account) throws -> CalendarCollection {
        let kinds = Set(remote.components.compactMap(ComponentKind.init(rawValue:)))
        let name = remote.displayName.map { String($0.prefix(200)) } ?? URLComponents(string: remote.url)?.host ?? "CalDAV"
        var calendar = try calendars.validated(
            Calendars.Draft(
                slug: "caldav-" + random.uuid().uuidString.lowercased().prefix(8), properties: CalendarPropertiesChange(displayName: name, color: remote.color),
                components: kinds.isEmpty ? [.event, .todo, .journal] : kinds),
            account: account)
        calendar.id = random.uuid()
        calendar.caldavAccountID = caldavAccountID
        return calendar
    }

    static func problem(_ failure: FeedFetchFailure) -> Problem {
        switch failure.kind {
        case .refused: .refusedAddress(failure.message)
        case .unauthorized: .refused(failure.message)
        default: .unreachable(failure.message)
        }
    }

    static func passwordPurpose(_ id: UUID) -> String { "caldav-account-password:" + id.uuidString.lowercased() }
    static func subject(_ id: UUID) -> String { "caldav:" + id.uuidString.lowercased() }

    /// One queued sync per account: the next replaces any queued before.
    func schedule(_ id: UUID, at date: Date, tx: any JobStore) async throws {
        try await tx.cancelQueuedJobs(kind: Self.syncJob, subject: Self.subject(id))
        try await tx.enqueue(Job.new(Self.syncJob, payload: id.uuidString.lowercased(), maxAttempts: 3, runAt: date, now: clock.now, id: random.uuid(), subject: Self.subject(id)))
    }

    func credentials(_ account: CalDAVAccount) throws -> RemoteCredentials {
        let password = try cipher.open(data: account.password, purpose: Self.passwordPurpose(account.id))
        return RemoteCredentials(username: account.username, password: String(decoding: password, as: UTF8.self), signIn: account.signIn)
    }

    /// The local name of a remote object: its last path segment when that is a name Jadwal
    /// takes, else a digest of the address (the same on every sync).
    static func objectName(forURL url: String) -> String {
        let last = URLComponents(string: url)?.path.split(separator: "/").last.map(String.init) ?? ""
        return CalendarWrites.isValidName(last) && last.utf8.count <= 200 ? last : String(url.sha256Hex.prefix(40)) + ".ics"
    }

    /// The remote address of a local object first written in Jadwal.
    static func remoteURL(for name: String, in calendarURL: String) -> String {
        let base = calendarURL.hasSuffix("/") ? calendarURL : calendarURL + "/"
        return base + (name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? name)
    }

    // MARK: Remote → Jadwal

    /// What a sync did, per account.
    public struct Sync: Sendable, Hashable {
        public enum Result: Sendable, Hashable {
            case applied(written: Int, deleted: Int, unchanged: Int)
            case failed(FeedFetchFailure.Kind, String)
            case skipped
            /// Another refresh of the person's was running: this one is queued again shortly.
            case waiting
        }

        public var result: Result
    }

    public func sync(jobPayload payload: String) async throws -> Sync {
        guard let id = UUID(uuidString: payload) else { return Sync(result: .skipped) }
        return try await sync(id: id)
    }

    public func sync(id: UUID) async throws -> Sync {
        guard let (account, owner, mirrors) = try await store.read({ tx -> (CalDAVAccount, Account, [CalendarMirror])? in
            guard let account = try await tx.caldavAccount(id: id), let owner = try await tx.account(id: account.accountID) else { return nil }
            return (account, owner, try await tx.calendarMirrors(caldavAccountID: id))
        }), owner.disabledAt == nil
        else { return Sync(result: .skipped) }
        guard let synced = try await turns.inTurn(of: owner.id, { try await synced(account, owner: owner, mirrors: mirrors) }) else {
            // The person's turn is taken (one of their feeds or accounts is being fetched): a little later.
            let later = clock.now.addingTimeInterval(ExternalFetchTurns.retryAfter)
            try await store.transaction { tx in try await schedule(id, at: later, tx: tx) }
            return Sync(result: .waiting)
        }
        return synced
    }

    /// The remote read and applied, in one of the person's turns.
    private func synced(_ account: CalDAVAccount, owner: Account, mirrors: [CalendarMirror]) async throws -> Sync {
        let connection = servers.connection(try credentials(account))
        var written = 0, deleted = 0, unchanged = 0
        do {
            let listed = try await connection.calendars(home: account.homeURL)
            for mirror in mirrors {
                let remote = listed.first { $0.url == mirror.remoteURL }
                let counts = try await pull(mirror, remote: remote, connection: connection)
                written += counts.written
                deleted += counts.deleted
                unchanged += counts.unchanged
            }
            try await finished(account.id, listed: listed, failure: nil, owner: owner)
            return Sync(result: .applied(written: written, deleted: deleted, unchanged: unchanged))
        } catch let failure as FeedFetchFailure {
            try await finished(account.id, listed: nil, failure: failure, owner: owner)
            return Sync(result: .failed(failure.kind, failure.message))
        }
    }

    /// Records the sync on the account (the calendars listed, or the error shown on its status)
    /// and queues the next: every 15 minutes, doubled per failure up to a day.
    func finished(_ id: UUID, listed: [RemoteCalendar]?, failure: FeedFetchFailure?, owner: Account) async throws {
        let now = clock.now
        try await store.transaction { tx in
            guard var account = try await tx.caldavAccount(id: id) else { return }
            account.lastAttemptAt = now
            if let listed { account.remoteCalendars = listed }
            if let failure {
                account.failures += 1
                account.lastError = failure.message
                let backoff = Double(Self.syncSeconds) * pow(2, Double(min(account.failures - 1, 10)))
                account.nextSyncAt = now.addingTimeInterval(min(backoff, 86_400))
                if account.failures >= CalendarSubscriptions.failuresBeforeNotice, !account.failureNotified {
                    account.failureNotified = true
                    let text = NotificationText(account: owner).subscriptionFailed(calendar: account.url, failures: account.failures, reason: failure.message)
                    try await NotificationDispatch.post(
                        NotificationDraft(
                            kind: .feedFailed, reasonKey: "caldav-failed:\(id.uuidString.lowercased()):\(account.lastSuccessAt?.timeIntervalSince1970 ?? 0)",
                            title: text.title, body: text.body, links: ["externalCalendarId": id.uuidString.lowercased()], urgent: false),
                        account: owner, now: now, random: random, tx: tx)
                }
            } else {
                account.failures = 0
                account.failureNotified = false
                account.lastError = nil
                account.lastSuccessAt = now
                account.nextSyncAt = now.addingTimeInterval(TimeInterval(Self.syncSeconds))
            }
            try await tx.updateCalDAVAccount(account)
            try await schedule(id, at: account.nextSyncAt, tx: tx)
        }
    }

    struct Counts { var written = 0, deleted = 0, unchanged = 0 }

    /// One mirrored calendar brought up to date with its remote.
    func pull(_ mirror: CalendarMirror, remote: RemoteCalendar?, connection: any RemoteCalDAVConnection) async throws -> Counts {
        guard let remote else {
            throw FeedFetchFailure(.gone, "the calendar \(URLComponents(string: mirror.remoteURL)?.path ?? mirror.remoteURL) is no longer on the server")
        }
        let known = Dictionary(try await store.read { tx in try await tx.mirroredObjects(calendarID: mirror.calendarID) }.map { ($0.remoteURL, $0) },
                               uniquingKeysWith: { first, _ in first })
        var changed: [String: String] = [:]
        var removed: [String] = []
        var next = mirror
        // The ctag says nothing changed since the last sync (our own write-backs change it too).
        if let ctag = remote.ctag, ctag == mirror.ctag { return Counts() }
        // A first sync lists ETags even where the server keeps sync tokens: a sync-collection from
        // no token makes a server such as Radicale build and store its sync state for every
        // object, which cost more than the listing. The next change is read by sync-collection
        // from no token (a complete listing that brings a token), then from its token.
        let firstSync = mirror.syncToken == nil && mirror.ctag == nil && remote.ctag != nil
        if remote.supportsSync, !firstSync {
            var token = mirror.syncToken
            var complete = token == nil
            while true {
                switch try await connection.changes(calendar: mirror.remoteURL, since: token) {
                case .tokenExpired:
                    token = nil
                    complete = true
                    changed = [:]
                    removed = []
                    continue
                case .changes(let more, let gone, let nextToken, let truncated):
                    changed.merge(more) { _, new in new }
                    removed += gone
                    token = nextToken
                    if truncated { continue }
                }
                break
            }
            if complete { removed += known.keys.filter { changed[$0] == nil } }
            next.syncToken = token
        } else {
            changed = try await connection.etags(calendar: mirror.remoteURL)
            removed = known.keys.filter { changed[$0] == nil }
        }
        // Taken with the listing, before the objects were read: a change made since moves it again.
        next.ctag = remote.ctag
        // Only what the remote changed since both sides agreed (our own write-backs come back
        // with the ETag already recorded).
        let wanted = changed.filter { url, etag in etag.isEmpty || known[url]?.remoteETag != etag }.keys.sorted()
        let objects = try await connection.objects(calendar: mirror.remoteURL, urls: wanted)
        var counts = Counts()
        let writes = CalendarWrites(store: store.store, clock: clock, random: random)
        let listedETags = changed
        let gone = removed
        var start = 0
        repeat {
            let page = Array(objects[start..<min(start + Self.batch, objects.count)])
            let removing = start == 0 ? gone : []
            let last = start + Self.batch >= objects.count
            start += Self.batch
            let saved = next
            let done = try await store.transaction { tx -> Counts in
                var counts = Counts()
                guard let calendar = try await tx.calendar(id: mirror.calendarID) else { return counts }
                var lost: [(local: CalendarObject, remoteDeleted: Bool)] = []
                for object in page {
                    guard let content = try? CalendarObjectContent(text: object.icalendar), calendar.components.contains(content.component) else { continue }
                    let name = known[object.url]?.name ?? Self.objectName(forURL: object.url)
                    let local = try await tx.calendarObject(calendarID: calendar.id, name: name)
                    if local?.etag != content.etag {
                        // Changed here since both sides last agreed, and not written back yet:
                        // the remote changed too, and wins, as on a 412.
                        if let local, let agreed = known[object.url], local.etag != agreed.localETag { lost.append((local, false)) }
                        // Another object of this calendar with the UID (made here, not yet written back) gives way to the remote's.
                        if let twin = try await tx.calendarObject(calendarID: calendar.id, uid: content.uid), twin.name != name {
                            lost.append((twin, false))
                            try await writes.remove(name: twin.name, in: calendar, source: .remote, transaction: tx)
                            try await tx.deleteMirroredObject(calendarID: calendar.id, name: twin.name)
                        }
                        _ = try await writes.write(content, name: name, in: calendar, source: .remote, transaction: tx)
                        counts.written += 1
                    } else {
                        counts.unchanged += 1
                    }
                    try await tx.putMirroredObject(MirroredObject(
                        calendarID: calendar.id, name: name, remoteURL: object.url, remoteETag: object.etag ?? listedETags[object.url], localETag: content.etag))
                }
                for url in removing {
                    guard let agreed = known[url] else { continue }
                    if let local = try await tx.calendarObject(calendarID: calendar.id, name: agreed.name) {
                        if local.etag != agreed.localETag { lost.append((local, true)) }
                        try await writes.remove(name: agreed.name, in: calendar, source: .remote, transaction: tx)
                        counts.deleted += 1
                    }
                    try await tx.deleteMirroredObject(calendarID: calendar.id, name: agreed.name)
                }
                if !lost.isEmpty { try await tellOverwritten(lost, in: calendar, tx: tx) }
                // The token is saved with the last page, so an interrupted first sync starts again.
                if last { try await tx.updateCalendarMirror(saved) }
                return counts
            }
            counts.written += done.written
            counts.deleted += done.deleted
            counts.unchanged += done.unchanged
        } while start < objects.count
        return counts
    }

    /// Tells the person which of their changes here a sync replaced with the remote's version.
    func tellOverwritten(_ lost: [(local: CalendarObject, remoteDeleted: Bool)], in calendar: CalendarCollection, tx: any NoticeStore & AccountStore) async throws {
        guard let owner = try await tx.account(id: calendar.accountID) else { return }
        let now = clock.now
        for (local, remoteDeleted) in lost {
            let item = Self.summary(local.icalendar) ?? local.name
            let text = remoteDeleted
                ? NotificationText(account: owner).remoteDeletedFirst(item: item, calendar: calendar.displayName)
                : NotificationText(account: owner).remoteChangeRejected(item: item, calendar: calendar.displayName, deleted: false)
            try await NotificationDispatch.post(
                NotificationDraft(
                    kind: .remoteChangeRejected, reasonKey: "remote-change-rejected:\(calendar.id.uuidString.lowercased()):\(local.name):\(local.etag)",
                    title: text.title, body: text.body, links: ["calendarId": calendar.id.uuidString.lowercased(), "objectName": local.name], urgent: false),
                account: owner, now: now, random: random, tx: tx)
        }
    }

    // MARK: Jadwal → remote

    /// Queued by every write to a mirrored calendar except the sync's own, in its transaction.
    static func queueWriteBack(calendarID: UUID, name: String, now: Date, random: RandomSource, tx: any JobStore) async throws {
        let subject = "caldav-write:\(calendarID.uuidString.lowercased()):\(name)"
        try await tx.cancelQueuedJobs(kind: writeBackJob, subject: subject)
        try await tx.enqueue(Job.new(writeBackJob, payload: "\(calendarID.uuidString.lowercased()) \(name)", maxAttempts: 8, runAt: now, now: now, id: random.uuid(), subject: subject))
    }

    /// What a write-back did.
    public enum WriteBack: Sendable, Hashable {
        case written, deleted, unchanged, skipped
        /// 412: the remote had changed; its version was kept here and the person told.
        case remoteKept
    }

    /// The job: writes one object's current state (or its removal) to the remote. A network
    /// failure throws, so the job is retried with backoff and nothing is lost; when the job has
    /// no attempt left (`isLastAttempt`), the person is told which change never got there.
    public func writeBack(jobPayload payload: String, isLastAttempt: Bool = false) async throws -> WriteBack {
        do {
            return try await writeBack(payload)
        } catch {
            if isLastAttempt, !(error is CancellationError) { try await tellWriteBackFailed(payload, error: error) }
            throw error
        }
    }

    func tellWriteBackFailed(_ payload: String, error: any Error) async throws {
        let parts = payload.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2, let calendarID = UUID(uuidString: parts[0]) else { return }
        let name = parts[1]
        let now = clock.now
        let reason = (error as? FeedFetchFailure)?.message ?? String(describing: error)
        try await store.transaction { tx in
            guard let calendar = try await tx.calendar(id: calendarID), let owner = try await tx.account(id: calendar.accountID) else { return }
            let local = try await tx.calendarObject(calendarID: calendarID, name: name)
            let item = Self.summary(local?.icalendar) ?? name
            let text = NotificationText(account: owner).remoteWriteFailed(item: item, calendar: calendar.displayName, reason: String(reason.prefix(300)))
            try await NotificationDispatch.post(
                NotificationDraft(
                    kind: .remoteChangeRejected, reasonKey: "remote-write-failed:\(calendarID.uuidString.lowercased()):\(name):\(now.timeIntervalSince1970)",
                    title: text.title, body: text.body, links: ["calendarId": calendarID.uuidString.lowercased(), "objectName": name], urgent: false),
                account: owner, now: now, random: random, tx: tx)
        }
    }

    func writeBack(_ payload: String) async throws -> WriteBack {
        let parts = payload.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2, let calendarID = UUID(uuidString: parts[0]) else { return .skipped }
        let name = parts[1]
        guard let (calendar, mirror, account, owner, local, agreed) = try await store.read({ tx
            -> (CalendarCollection, CalendarMirror, CalDAVAccount, Account, CalendarObject?, MirroredObject?)? in
            guard let calendar = try await tx.calendar(id: calendarID), let mirror = try await tx.calendarMirror(calendarID: calendarID),
                  let account = try await tx.caldavAccount(id: mirror.caldavAccountID), let owner = try await tx.account(id: account.accountID)
            else { return nil }
            return (calendar, mirror, account, owner, try await tx.calendarObject(calendarID: calendarID, name: name),
                    try await tx.mirroredObject(calendarID: calendarID, name: name))
        })
        else { return .skipped }
        let connection = servers.connection(try credentials(account))
        let url = agreed?.remoteURL ?? Self.remoteURL(for: name, in: mirror.remoteURL)
        if let local {
            if agreed?.localETag == local.etag { return .unchanged }
            var etag = agreed?.remoteETag
            if agreed != nil, etag == nil { etag = try await connection.etags(calendar: mirror.remoteURL)[url] }
            switch try await connection.put(url, icalendar: local.icalendar, ifMatch: agreed == nil ? nil : (etag ?? "*")) {
            case .done(let newETag):
                try await store.transaction { tx in
                    try await tx.putMirroredObject(MirroredObject(calendarID: calendarID, name: name, remoteURL: url, remoteETag: newETag, localETag: local.etag))
                }
                return .written
            case .preconditionFailed, .notFound:
                try await keepRemote(url: url, name: name, calendar: calendar, mirror: mirror, owner: owner, rejected: local.icalendar, connection: connection)
                return .remoteKept
            }
        } else {
            guard let agreed else { return .unchanged }
            switch try await connection.delete(url, ifMatch: agreed.remoteETag) {
            case .done, .notFound:
                try await store.transaction { tx in try await tx.deleteMirroredObject(calendarID: calendarID, name: name) }
                return .deleted
            case .preconditionFailed:
                try await keepRemote(url: url, name: name, calendar: calendar, mirror: mirror, owner: owner, rejected: nil, connection: connection)
                return .remoteKept
            }
        }
    }

    /// The remote changed first: its version (or its absence) is written here, and the person
    /// gets a notification naming the change of theirs that was not applied.
    func keepRemote(
        url: String, name: String, calendar: CalendarCollection, mirror: CalendarMirror, owner: Account, rejected: String?,
        connection: any RemoteCalDAVConnection
    ) async throws {
        let remote = try await connection.objects(calendar: mirror.remoteURL, urls: [url]).first
        let writes = CalendarWrites(store: store.store, clock: clock, random: random)
        let now = clock.now
        let title = Self.summary(rejected) ?? Self.summary(remote?.icalendar) ?? name
        try await store.transaction { tx in
            if let remote, let content = try? CalendarObjectContent(text: remote.icalendar) {
                _ = try await writes.write(content, name: name, in: calendar, source: .remote, transaction: tx)
                try await tx.putMirroredObject(MirroredObject(calendarID: calendar.id, name: name, remoteURL: url, remoteETag: remote.etag, localETag: content.etag))
            } else {
                if try await tx.calendarObject(calendarID: calendar.id, name: name) != nil {
                    try await writes.remove(name: name, in: calendar, source: .remote, transaction: tx)
                }
                try await tx.deleteMirroredObject(calendarID: calendar.id, name: name)
            }
            let text = NotificationText(account: owner).remoteChangeRejected(item: title, calendar: calendar.displayName, deleted: rejected == nil)
            try await NotificationDispatch.post(
                NotificationDraft(
                    kind: .remoteChangeRejected, reasonKey: "remote-change-rejected:\(calendar.id.uuidString.lowercased()):\(name):\(now.timeIntervalSince1970)",
                    title: text.title, body: text.body, links: ["calendarId": calendar.id.uuidString.lowercased(), "objectName": name], urgent: false),
                account: owner, now: now, random: random, tx: tx)
        }
    }

    /// The SUMMARY of an object's first component, for naming it to the person.
    static func summary(_ text: String?) -> String? {
        guard let text, let parsed = try? ICalendarParser().parseCalendar(text) else { return nil }
        return parsed.components.lazy.compactMap { $0.first("SUMMARY")?.value }.first
    }
}
