import Crypto
import Foundation
import ICalendar

/// Subscriptions to ICS feeds: added, changed and removed by one set of rules whichever front
/// door asks, and refreshed as durable jobs (never inside a request). A refresh fetches with the
/// last validators, reads the feed leniently before taking the write lock, and writes only what
/// changed: objects are keyed by UID, unchanged ones are not rewritten, so the calendar's sync
/// token moves only for real changes.
public struct CalendarSubscriptions: Sendable {
    public static let refreshJob: JobKind = "subscription.refresh"
    public static let defaultRefreshSeconds = 3600
    public static let minimumRefreshSeconds = 15 * 60
    public static let maximumRefreshSeconds = 7 * 86_400
    /// Failed refreshes in a row before the person is told (once per run of failures).
    public static let failuresBeforeNotice = 3
    /// A feed answering 404 or 410 this long is paused.
    public static let goneSecondsBeforePause: TimeInterval = 7 * 86_400
    public static let perAccountLimit = 50
    public static let problemsKept = 100

    let store: StoreAccess<any CalendarWriteStore & AccountOwnershipStore & CalDAVAccountStore & CalendarShareStore & CalendarSubscriptionStore & ChatStore>
    let clock: Clock
    let fetcher: any FeedFetching
    /// One refresh of a person's at a time (shared with their connected accounts).
    let turns: ExternalFetchTurns
    let random: RandomSource
    let calendars: Calendars

    public init(store: any Store, clock: Clock, random: RandomSource, fetcher: any FeedFetching, turns: ExternalFetchTurns = ExternalFetchTurns()) {
        self.turns = turns
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
        self.random = random
        self.fetcher = fetcher
        calendars = Calendars(store: store, clock: clock, random: random)
    }

    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case invalidURL(String)
        /// The fetcher will not reach that address (a private one, unless the operator allows it).
        case refusedAddress(String)
        case tooMany(limit: Int)
        case refreshInterval
        case invalidProperty(CalendarPropertiesChange.Problem)

        public var description: String {
            switch self {
            case .invalidURL(let reason): "url: \(reason)"
            case .refusedAddress(let reason): "url: \(reason)"
            case .tooMany(let limit): "you already have \(limit) subscriptions, the most one account may have; remove one first"
            case .refreshInterval:
                "refreshMinutes must be between \(CalendarSubscriptions.minimumRefreshSeconds / 60) and \(CalendarSubscriptions.maximumRefreshSeconds / 60)"
            case .invalidProperty(let problem): problem.description
            }
        }
    }

    /// A subscription with the calendar it fills.
    public struct Subscribed: Sendable, Hashable {
        public var subscription: CalendarSubscription
        public var calendar: CalendarCollection
        /// Whether its events take time (conflicts, suggestions, planning); a holidays feed need not.
        public var busy: Bool
    }

    /// What a new subscription should be.
    public struct Draft: Sendable {
        public var url: String
        /// The calendar's name and colour; the feed's own (`X-WR-CALNAME`, `COLOR`) when nil.
        public var name: String?
        public var color: String?
        public var refreshMinutes: Int?
        /// Keep the feed's items as to-dos (a course site's assignments).
        public var asTasks: Bool

        public init(url: String, name: String? = nil, color: String? = nil, refreshMinutes: Int? = nil, asTasks: Bool = false) {
            self.url = url
            self.name = name
            self.color = color
            self.refreshMinutes = refreshMinutes
            self.asTasks = asTasks
        }
    }

    /// A change; nil keeps a value. `refreshMinutes: .some(nil)` follows the feed again.
    public struct Change: Sendable {
        public var name: String?
        public var color: String?
        public var refreshMinutes: Int??
        public var paused: Bool?
        public var url: String?
        public var busy: Bool?

        public init(
            name: String? = nil, color: String? = nil, refreshMinutes: Int?? = nil, paused: Bool? = nil, url: String? = nil, busy: Bool? = nil
        ) {
            self.name = name
            self.color = color
            self.refreshMinutes = refreshMinutes
            self.paused = paused
            self.url = url
            self.busy = busy
        }
    }

    // MARK: Addresses

    /// The address to fetch: `webcal://` and `webcals://` are the `https://` they stand for;
    /// only HTTP(S) with a host is accepted. Which hosts may be reached is the fetcher's rule.
    public static func feedURL(_ text: String) throws(Problem) -> String {
        var trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .invalidURL("give the feed's address, e.g. https://example.com/calendar.ics") }
        guard trimmed.utf8.count <= 2048 else { throw .invalidURL("the address is longer than 2048 characters") }
        let lower = trimmed.lowercased()
        if lower.hasPrefix("webcals://") {
            trimmed = "https://" + trimmed.dropFirst("webcals://".count)
        } else if lower.hasPrefix("webcal://") {
            trimmed = "https://" + trimmed.dropFirst("webcal://".count)
        }
        guard let components = URLComponents(string: trimmed), let scheme = components.scheme?.lowercased() else {
            throw .invalidURL("\"\(text.prefix(80))\" is not an address")
        }
        guard scheme == "https" || scheme == "http" else {
            throw .invalidURL("only https://, http:// and webcal:// addresses can be subscribed to, not \(scheme):")
        }
        guard let host = components.host, !host.isEmpty else { throw .invalidURL("the address has no host") }
        guard components.user == nil, components.password == nil else {
            throw .invalidURL("put no user name or password in the address; use the feed's secret address instead")
        }
        return trimmed
    }

    // MARK: Reading

    public func all(accountID: UUID) async throws -> [Subscribed] {
        try await store.read { tx in
            let calendars = Dictionary(try await tx.calendars(accountID: accountID).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            let settings = try await tx.conflictSettings(accountID: accountID)
            return try await tx.calendarSubscriptions(accountID: accountID).compactMap { subscription in
                calendars[subscription.calendarID].map {
                    Subscribed(subscription: subscription, calendar: $0, busy: !settings.busyPolicy(calendarID: $0.id).allFree)
                }
            }
        }
    }

    /// The subscription if it is the account's; nil for another's, exactly like one that does not exist.
    public func own(id: UUID, accountID: UUID) async throws -> Subscribed? {
        try await store.read { tx in
            guard let subscription = try await tx.calendarSubscription(id: id), subscription.accountID == accountID,
                  let calendar = try await tx.calendar(id: subscription.calendarID)
            else { return nil }
            let settings = try await tx.conflictSettings(accountID: accountID)
            return Subscribed(subscription: subscription, calendar: calendar, busy: !settings.busyPolicy(calendarID: calendar.id).allFree)
        }
    }

    // MARK: Changing

    /// Makes the calendar and the subscription, and queues the first refresh at once.
    public func add(_ draft: Draft, account: Account) async throws -> Subscribed {
        let url = try Self.feedURL(draft.url)
        let refresh = try Self.refreshSeconds(draft.refreshMinutes)
        try await checkAddress(url)
        let now = clock.now
        let id = random.uuid()
        let label = draft.name ?? URLComponents(string: url)?.host ?? "Subscription"
        var calendar = try calendars.validated(
            Calendars.Draft(
                slug: "subscription-" + id.uuidString.lowercased().prefix(8),
                properties: CalendarPropertiesChange(displayName: label, color: draft.color),
                components: draft.asTasks ? [.todo] : [.event, .todo, .journal]),
            account: account)
        calendar.id = random.uuid()
        calendar.subscriptionID = id
        let subscription = CalendarSubscription(
            id: id, accountID: account.id, calendarID: calendar.id, url: url, refreshSeconds: refresh, followsFeedName: draft.name == nil,
            followsFeedColor: draft.color == nil, asTasks: draft.asTasks, nextRefreshAt: now, createdAt: now)
        let stored = calendar
        try await store.transaction { tx in
            guard try await tx.calendarSubscriptions(accountID: account.id).count < Self.perAccountLimit else {
                throw Problem.tooMany(limit: Self.perAccountLimit)
            }
            try await tx.insertCalendar(stored)
            try await tx.insertCalendarSubscription(subscription)
            try await schedule(subscription, at: now, tx: tx)
        }
        return Subscribed(subscription: subscription, calendar: calendar, busy: true)
    }

    public func update(_ subscribed: Subscribed, with change: Change) async throws -> Subscribed {
        var subscription = subscribed.subscription
        var properties = CalendarPropertiesChange()
        if let name = change.name {
            properties.displayName = name
            subscription.followsFeedName = false
        }
        if let color = change.color {
            properties.color = color
            subscription.followsFeedColor = false
        }
        let calendar: CalendarCollection
        do {
            calendar = try properties.applied(to: subscribed.calendar)
        } catch {
            throw Problem.invalidProperty(error)
        }
        if let minutes = change.refreshMinutes { subscription.refreshSeconds = try Self.refreshSeconds(minutes) }
        var refreshNow = false
        if let url = change.url {
            let next = try Self.feedURL(url)
            if next != subscription.url {
                try await checkAddress(next)
                subscription.url = next
                subscription.etag = nil
                subscription.lastModified = nil
                subscription.contentDigest = nil
                refreshNow = true
            }
        }
        let now = clock.now
        if let paused = change.paused {
            if paused, subscription.pausedAt == nil { subscription.pausedAt = now }
            if !paused, subscription.pausedAt != nil {
                subscription.pausedAt = nil
                subscription.goneSince = nil
                refreshNow = true
            }
        }
        if change.refreshMinutes != nil, !refreshNow, subscription.pausedAt == nil {
            subscription.nextRefreshAt = (subscription.lastSuccessAt ?? now).addingTimeInterval(TimeInterval(subscription.refreshInterval))
        }
        if refreshNow { subscription.nextRefreshAt = now }
        let saved = subscription
        let changedCalendar = calendar != subscribed.calendar
        let busy = change.busy ?? subscribed.busy
        let stored = try await store.transaction { tx -> CalendarCollection in
            try await tx.updateCalendarSubscription(saved)
            if saved.pausedAt == nil {
                try await schedule(saved, at: max(saved.nextRefreshAt, now), tx: tx)
            } else {
                try await tx.cancelQueuedJobs(kind: Self.refreshJob, subject: Self.subject(saved.id))
            }
            if busy != subscribed.busy { try await setBusy(busy, calendar: calendar, now: now, tx: tx) }
            return changedCalendar ? try await tx.updateCalendarProperties(calendar) : calendar
        }
        return Subscribed(subscription: saved, calendar: stored, busy: busy)
    }

    /// Makes the calendar's events take time or not, and has the conflicts they touch found
    /// again: each of its events is checked (which checks the person's events it overlaps),
    /// and the events whose open conflicts name it are checked again.
    func setBusy(_ busy: Bool, calendar: CalendarCollection, now: Date, tx: any CalendarStore & ConflictStore & JobStore) async throws {
        var settings = try await tx.conflictSettings(accountID: calendar.accountID)
        if busy { settings.busyPolicies[calendar.id] = nil } else { settings.busyPolicies[calendar.id] = .free }
        try await tx.saveConflictSettings(settings, accountID: calendar.accountID, at: now)
        for object in try await tx.calendarObjects(calendarID: calendar.id) where object.component == .event {
            let request = ConflictCheck.Request(accountID: calendar.accountID, calendarID: calendar.id, objectName: object.name, source: .feed)
            try await tx.enqueue(request.job(now: now, random: random))
        }
    }

    /// Removes the subscription with its calendar: the calendar's conflicts retire and its
    /// reminders are cancelled, as for any calendar deleted.
    public func delete(_ subscribed: Subscribed) async throws {
        try await calendars.delete(subscribed.calendar)
        try await store.transaction { tx in
            _ = try await tx.cancelQueuedJobs(kind: Self.refreshJob, subject: Self.subject(subscribed.subscription.id))
        }
    }

    /// Queues a refresh to run now (a paused subscription resumes).
    public func refreshSoon(_ subscribed: Subscribed) async throws {
        var subscription = subscribed.subscription
        let now = clock.now
        subscription.pausedAt = nil
        subscription.nextRefreshAt = now
        let saved = subscription
        try await store.transaction { tx in
            try await tx.updateCalendarSubscription(saved)
            try await schedule(saved, at: now, tx: tx)
        }
    }

    func checkAddress(_ url: String) async throws {
        do {
            try await fetcher.checkAddress(url)
        } catch where error.kind == .refused {
            throw Problem.refusedAddress(error.message)
        } catch {
            // Unresolvable now (DNS down, a typo): kept, and the refresh will say so on the subscription.
        }
    }

    static func refreshSeconds(_ minutes: Int?) throws(Problem) -> Int? {
        guard let minutes else { return nil }
        let seconds = minutes.multipliedReportingOverflow(by: 60)
        guard !seconds.overflow, (minimumRefreshSeconds...maximumRefreshSeconds).contains(seconds.partialValue) else { throw .refreshInterval }
        return seconds.partialValue
    }

    static func subject(_ id: UUID) -> String { "subscription:" + id.uuidString.lowercased() }

    /// One queued refresh per subscription: the next replaces any queued before.
    func schedule(_ subscription: CalendarSubscription, at date: Date, tx: any JobStore) async throws {
        try await tx.cancelQueuedJobs(kind: Self.refreshJob, subject: Self.subject(subscription.id))
        try await tx.enqueue(Job.new(
            Self.refreshJob, payload: subscription.id.uuidString.lowercased(), maxAttempts: 3, runAt: date, now: clock.now, id: random.uuid(),
            subject: Self.subject(subscription.id)))
    }

    // MARK: Refreshing

    /// What a refresh did.
    public struct Refresh: Sendable, Hashable {
        public enum Result: Sendable, Hashable {
            /// The server said 304, or sent the same body again.
            case unchanged
            case applied(written: Int, deleted: Int, unchanged: Int)
            case failed(FeedFetchFailure.Kind, String)
            /// Paused or removed: nothing was fetched.
            case skipped
            /// Another refresh of the person's was running: this one is queued again shortly.
            case waiting
        }

        public var result: Result
        public var problems: Int = 0
    }

    /// The job: refreshes the subscription its payload names, and queues the next refresh.
    public func refresh(jobPayload payload: String) async throws -> Refresh {
        guard let id = UUID(uuidString: payload) else { return Refresh(result: .skipped) }
        return try await refresh(id: id)
    }

    public func refresh(id: UUID) async throws -> Refresh {
        guard let (subscription, calendar, account) = try await store.read({ tx -> (CalendarSubscription, CalendarCollection, Account)? in
            guard let subscription = try await tx.calendarSubscription(id: id), let calendar = try await tx.calendar(id: subscription.calendarID),
                  let account = try await tx.account(id: subscription.accountID)
            else { return nil }
            return (subscription, calendar, account)
        }), subscription.pausedAt == nil, account.disabledAt == nil
        else { return Refresh(result: .skipped) }
        guard let refreshed = try await turns.inTurn(of: account.id, { try await fetched(subscription, calendar: calendar, account: account) }) else {
            // The person's turn is taken (another of their feeds is being fetched): a little later.
            let later = clock.now.addingTimeInterval(ExternalFetchTurns.retryAfter)
            try await store.transaction { tx in try await schedule(subscription, at: later, tx: tx) }
            return Refresh(result: .waiting)
        }
        return refreshed
    }

    /// The fetch and what it brings, in one of the person's turns.
    private func fetched(_ subscription: CalendarSubscription, calendar: CalendarCollection, account: Account) async throws -> Refresh {
        let response: FeedResponse
        do {
            response = try await fetcher.fetch(FeedRequest(url: subscription.url, etag: subscription.etag, lastModified: subscription.lastModified))
        } catch {
            return try await failed(subscription, calendar: calendar, account: account, failure: error)
        }
        switch response {
        case .notModified(let maxAge):
            try await succeeded(subscription, maxAge: maxAge, etag: subscription.etag, lastModified: subscription.lastModified, digest: nil, feed: nil)
            return Refresh(result: .unchanged)
        case .document(let body, let etag, let lastModified, let maxAge):
            let digest = Data(SHA256.hash(data: body)).map { String(format: "%02x", $0) }.joined()
            if digest == subscription.contentDigest {
                try await succeeded(subscription, maxAge: maxAge, etag: etag, lastModified: lastModified, digest: digest, feed: nil)
                return Refresh(result: .unchanged)
            }
            let feed: ICalendarFeed
            do {
                feed = try ICalendarFeed(bytes: body)
            } catch {
                return try await failed(subscription, calendar: calendar, account: account, failure: FeedFetchFailure(.status, error.description))
            }
            return try await apply(feed, to: subscription, calendar: calendar, maxAge: maxAge, etag: etag, lastModified: lastModified, digest: digest)
        }
    }

    /// The feed's objects, checked and indexed before the transaction; then, in it, the changed
    /// ones written and the vanished ones removed.
    func apply(
        _ feed: ICalendarFeed, to subscription: CalendarSubscription, calendar: CalendarCollection, maxAge: Int?, etag: String?, lastModified: String?,
        digest: String
    ) async throws -> Refresh {
        let items = feed.items.map { subscription.asTasks ? FeedTasks.task(from: $0) : $0 }
        let objects = ICalendarFeed.objects(items, accepting: calendar.components)
        let problems = feed.problems + objects.unreadable
        var contents: [String: CalendarObjectContent] = [:]
        for (uid, content) in objects.contents { contents[Self.objectName(forUID: uid)] = content }
        let writes = CalendarWrites(store: store.store, clock: clock, random: random)
        let now = clock.now
        let ready = contents
        let counted = problems
        let result = try await store.transaction { tx -> Refresh.Result in
            guard var current = try await tx.calendarSubscription(id: subscription.id), current.pausedAt == nil,
                  var target = try await tx.calendar(id: calendar.id)
            else { return .skipped }
            // The calendar follows the feed's name, colour and zone until the person sets their own.
            var followed = target
            if current.followsFeedName, let name = feed.name.map({ String($0.prefix(200)) }) {
                followed = (try? CalendarPropertiesChange(displayName: name).applied(to: followed)) ?? followed
            }
            if current.followsFeedColor, let color = feed.color {
                followed = (try? CalendarPropertiesChange(color: color).applied(to: followed)) ?? followed
            }
            if let zone = feed.timeZone {
                followed = (try? CalendarPropertiesChange(timeZone: zone).applied(to: followed)) ?? followed
            }
            if followed != target { target = try await tx.updateCalendarProperties(followed) }
            let existing = Dictionary(try await tx.calendarObjects(calendarID: target.id).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            var written = 0, deleted = 0, unchanged = 0
            for (name, fromFeed) in ready.sorted(by: { $0.key < $1.key }) {
                var content = fromFeed
                // A to-do the person marked done stays done when the feed changes it.
                if current.asTasks, let local = existing[name], let parsed = try? ICalendarParser().parseCalendar(local.icalendar),
                   let merged = try? CalendarObjectContent(text: ICalendarSerializer().serialize(FeedTasks.carryingCompletion(from: parsed, into: content.calendar))) {
                    content = merged
                }
                if existing[name]?.etag == content.etag {
                    unchanged += 1
                    continue
                }
                _ = try await writes.write(content, name: name, in: target, source: .feed, transaction: tx)
                written += 1
            }
            for name in existing.keys.sorted() where ready[name] == nil {
                try await writes.remove(name: name, in: target, source: .feed, transaction: tx)
                deleted += 1
            }
            current.objectCount = ready.count
            current.problems = Array(counted.prefix(Self.problemsKept))
            current.problemCount = counted.count
            current.feedRefreshSeconds = feed.refreshInterval ?? maxAge
            Self.markSucceeded(&current, now: now, etag: etag, lastModified: lastModified, digest: digest)
            try await tx.updateCalendarSubscription(current)
            try await schedule(current, at: current.nextRefreshAt, tx: tx)
            return .applied(written: written, deleted: deleted, unchanged: unchanged)
        }
        return Refresh(result: result, problems: problems.count)
    }

    func succeeded(_ subscription: CalendarSubscription, maxAge: Int?, etag: String?, lastModified: String?, digest: String?, feed: ICalendarFeed?) async throws {
        let now = clock.now
        try await store.transaction { tx in
            guard var current = try await tx.calendarSubscription(id: subscription.id), current.pausedAt == nil else { return }
            if current.feedRefreshSeconds == nil, let maxAge { current.feedRefreshSeconds = maxAge }
            Self.markSucceeded(&current, now: now, etag: etag, lastModified: lastModified, digest: digest ?? current.contentDigest)
            try await tx.updateCalendarSubscription(current)
            try await schedule(current, at: current.nextRefreshAt, tx: tx)
        }
    }

    static func markSucceeded(_ subscription: inout CalendarSubscription, now: Date, etag: String?, lastModified: String?, digest: String?) {
        subscription.etag = etag
        subscription.lastModified = lastModified
        subscription.contentDigest = digest
        subscription.lastAttemptAt = now
        subscription.lastSuccessAt = now
        subscription.lastError = nil
        subscription.failures = 0
        subscription.failureNotified = false
        subscription.goneSince = nil
        subscription.nextRefreshAt = now.addingTimeInterval(TimeInterval(subscription.refreshInterval))
    }

    /// Records a failed refresh: the error shown on the subscription, a retry later and later
    /// (the interval doubled per failure, at most a day), a notice after three in a row, and a
    /// pause once the address has been gone for a week.
    func failed(_ subscription: CalendarSubscription, calendar: CalendarCollection, account: Account, failure: FeedFetchFailure) async throws -> Refresh {
        let now = clock.now
        try await store.transaction { tx in
            guard var current = try await tx.calendarSubscription(id: subscription.id), current.pausedAt == nil else { return }
            current.failures += 1
            current.lastAttemptAt = now
            current.lastError = failure.message
            if failure.kind == .gone {
                let since = current.goneSince ?? now
                current.goneSince = since
                if now.timeIntervalSince(since) >= Self.goneSecondsBeforePause { current.pausedAt = now }
            } else {
                current.goneSince = nil
            }
            let backoff = Double(current.refreshInterval) * pow(2, Double(min(current.failures - 1, 10)))
            current.nextRefreshAt = now.addingTimeInterval(min(backoff, 86_400))
            if current.failures >= Self.failuresBeforeNotice, !current.failureNotified {
                current.failureNotified = true
                let text = NotificationText(account: account).subscriptionFailed(
                    calendar: calendar.displayName, failures: current.failures, reason: failure.message)
                let draft = NotificationDraft(
                    kind: .feedFailed,
                    reasonKey: "feed-failed:\(current.id.uuidString.lowercased()):\(current.lastSuccessAt?.timeIntervalSince1970 ?? 0)",
                    title: text.title, body: text.body,
                    links: ["subscriptionId": current.id.uuidString.lowercased(), "calendarId": current.calendarID.uuidString.lowercased()],
                    urgent: false)
                try await NotificationDispatch.post(draft, account: account, now: now, random: random, tx: tx)
            }
            try await tx.updateCalendarSubscription(current)
            if current.pausedAt == nil { try await schedule(current, at: current.nextRefreshAt, tx: tx) }
        }
        return Refresh(result: .failed(failure.kind, failure.message))
    }

    /// The object name of a feed item: from its UID's digest, so any UID (with '/', spaces or
    /// hundreds of characters) gives a safe name, the same on every refresh.
    public static func objectName(forUID uid: String) -> String {
        String(uid.sha256Hex.prefix(40)) + ".ics"
    }
}
