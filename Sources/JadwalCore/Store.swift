import Foundation

/// Storage as the domain sees it. Each capability is its own protocol (accounts, sign-in
/// tokens, sessions, jobs); a transaction offers all of them so a data change and the job it
/// causes commit together.
public protocol Store: Sendable {
    /// Runs `body` in one write transaction: everything commits, or nothing does.
    func transaction<T: Sendable>(_ body: @Sendable (any StoreTransaction) async throws -> T) async throws -> T
    /// Runs `body` for reads only; may run beside other readers.
    func read<T: Sendable>(_ body: @Sendable (any StoreTransaction) async throws -> T) async throws -> T
    /// Succeeds when the database answers and the schema is the one this binary expects.
    func checkReady() async throws
    /// Releases connections.
    func shutdown() async throws
    /// How much each account may store in this database, as its operator set it.
    var accountQuota: AccountQuota { get }
}

/// A store as one service uses it: its transactions offer only the capabilities the service
/// declares (`StoreAccess<any CalendarStore & JobStore>`), so what a service reads and writes is
/// in its type, and the compiler refuses a rule that reaches further.
public struct StoreAccess<Capabilities: Sendable>: Sendable {
    /// The whole store, for handing on to the services this one is built from.
    public let store: any Store
    private let narrow: @Sendable (any StoreTransaction) -> Capabilities

    /// `narrow` is `{ $0 }`: the capabilities are the declared type's.
    public init(_ store: any Store, as narrow: @escaping @Sendable (any StoreTransaction) -> Capabilities) {
        self.store = store
        self.narrow = narrow
    }

    /// One write transaction (see `Store.transaction`).
    public func transaction<T: Sendable>(_ body: @Sendable (Capabilities) async throws -> T) async throws -> T {
        try await store.transaction { tx in try await body(narrow(tx)) }
    }

    /// Reads only (see `Store.read`).
    public func read<T: Sendable>(_ body: @Sendable (Capabilities) async throws -> T) async throws -> T {
        try await store.read { tx in try await body(narrow(tx)) }
    }

    public var accountQuota: AccountQuota { store.accountQuota }
}

/// The database cannot take the request now: its one writer has been held too long by others,
/// or it cannot be reached. Nothing was written; the front doors answer 503 with `Retry-After`.
public struct StoreUnavailable: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String
    public var retryAfterSeconds: Int

    public init(reason: String, retryAfterSeconds: Int) {
        self.reason = reason
        self.retryAfterSeconds = retryAfterSeconds
    }

    public var description: String { "\(reason); try again in \(retryAfterSeconds) s" }
}

/// The database's disk is full (SQLite's `SQLITE_FULL`, PostgreSQL's `disk_full`). Nothing was
/// written: the transaction rolled back whole. Reads go on working; writes work again once the
/// operator frees space. The front doors answer 507 Insufficient Storage.
public struct StorageFull: Error, Sendable, Equatable, CustomStringConvertible {
    public init() {}

    public var description: String { "the server's disk is full" }
}

/// What the common write path touches (`CalendarWrites`): the object, the jobs it queues, the
/// invitations it delivers and the notices it posts. Helpers name the capabilities they use,
/// these bundles among them, so a signature says what a rule reads and writes.
public typealias CalendarWriteStore = NoticeStore & AccountStore & InvitationStore

/// What posting a notice reads and writes: the person's notification settings and devices,
/// what their quiet hours come from (prayer times, sleep, working hours) and the delivery jobs.
public typealias NoticeStore = CalendarStore & ConflictStore & GoalStore & JobStore & NotificationStore & PrayerSettingsStore & WebPushStore

/// What a person's busy time is read from: their calendars and the ones shared with them, their
/// conflict settings (busy policies, working hours) and their prayer times.
public typealias BusyTimeStore = CalendarShareStore & CalendarStore & ConflictStore & PrayerSettingsStore

public typealias StoreTransaction = AccountStore & SignInTokenStore & SessionStore & JobStore & CalendarStore & AppPasswordStore & PrayerSettingsStore & CalendarFeedStore & SetupTokenStore & ChatStore & ChatConnectorTokenStore & ConflictStore & NotificationStore & ChatFailureStore & CalendarSubscriptionStore & GoalStore & TrackerStore & SignInFailureStore & CalendarViewStore & WhatsAppLinkStore & CalDAVAccountStore & CalendarShareStore & WebPushStore & PrayerAlertStore & AccountOwnershipStore & InvitationStore & RetentionStore

public protocol AccountStore: Sendable {
    func account(id: UUID) async throws -> Account?
    func account(email: EmailAddress) async throws -> Account?
    func insertAccount(_ account: Account) async throws
    func updateAccount(_ account: Account) async throws
    func accounts() async throws -> [Account]
    /// Active accounts whose address or name contains `text` (lowercase), by address, at most `limit`.
    func accounts(containing text: String, limit: Int) async throws -> [Account]
}

public protocol SignInTokenStore: Sendable {
    func insertSignInToken(_ token: SignInTokenRecord) async throws
    func signInToken(digest: TokenDigest) async throws -> SignInTokenRecord?
    /// Marks it used only if it was unused; false when another request used it first.
    func markSignInTokenUsed(digest: TokenDigest, at: Date) async throws -> Bool
    /// Creation times of tokens asked for by this email after `since`, oldest first.
    func signInRequests(email: EmailAddress, since: Date) async throws -> [Date]
    /// Creation times of tokens asked for from this client address after `since`, oldest first.
    func signInRequests(requester: String, since: Date) async throws -> [Date]
}

public protocol SessionStore: Sendable {
    func insertSession(_ session: SignInSession) async throws
    func session(id: UUID) async throws -> SignInSession?
    /// Sessions of an account that are neither revoked nor expired, newest first.
    func activeSessions(accountID: UUID, at: Date) async throws -> [SignInSession]
    func touchSession(id: UUID, at: Date) async throws
    func revokeSession(id: UUID, at: Date, reason: String) async throws
    func revokeSessions(accountID: UUID, at: Date, reason: String) async throws
    func insertRefreshToken(_ token: RefreshTokenRecord) async throws
    func refreshToken(digest: TokenDigest) async throws -> RefreshTokenRecord?
    /// Marks it rotated only if it was not; false when it had been rotated already.
    func markRefreshTokenRotated(digest: TokenDigest, at: Date) async throws -> Bool
}

extension JobStore {
    /// The next runnable job of any kind.
    public func claimNextJob(worker: String, now: Date, lease: Duration) async throws -> Job? {
        try await claimNextJob(worker: worker, now: now, lease: lease, kinds: nil, lapsedToo: true)
    }

    /// The next runnable job of one of `kinds` (nil: any), a lapsed one first.
    public func claimNextJob(worker: String, now: Date, lease: Duration, kinds: Set<JobKind>?) async throws -> Job? {
        try await claimNextJob(worker: worker, now: now, lease: lease, kinds: kinds, lapsedToo: true)
    }
}

public protocol JobStore: Sendable {
    func enqueue(_ job: Job) async throws
    /// Takes the next runnable job for `worker` (running with a lapsed lease, else queued and due
    /// in fair order: a subject's jobs due together are spaced out, so one account's burst does
    /// not hold back another's), of one of `kinds` (nil: any), counting an attempt. Two workers
    /// never get the same job. Without `lapsedToo`, only queued jobs: a worker that looked for
    /// lapsed leases a moment ago need not look again on every claim.
    func claimNextJob(worker: String, now: Date, lease: Duration, kinds: Set<JobKind>?, lapsedToo: Bool) async throws -> Job?
    func completeJob(id: UUID, at: Date) async throws
    /// Moves the lease of a running job `worker` holds to `until`; false when it holds it no
    /// longer (the lease ran out and another worker took the job).
    func renewJobLease(id: UUID, worker: String, until: Date) async throws -> Bool
    /// Takes the queued, due jobs of `kind` about `subject` (oldest first, at most `limit`) and
    /// marks them done at `now`, counting an attempt: for a caller that does their work in this
    /// same transaction, so the work and the jobs' completion commit (or roll back) together.
    /// Jobs another transaction holds are skipped, and jobs queued later stay queued.
    func takeQueuedJobs(kind: JobKind, subject: String, now: Date, limit: Int) async throws -> [Job]
    /// Records a failure: back to `queued` at `retryAt`, or `dead` when `retryAt` is nil.
    func failJob(id: UUID, error: String, retryAt: Date?, at: Date) async throws
    func job(id: UUID) async throws -> Job?
    func jobs(state: JobState?, limit: Int) async throws -> [Job]
    func jobCounts() async throws -> [JobState: Int]
    /// Puts a dead job back in the queue with a fresh attempt count. False if it was not dead.
    func requeueDeadJob(id: UUID, at: Date) async throws -> Bool
    /// Deletes the queued (not running) jobs of `kind` about `subject`; how many went.
    @discardableResult
    func cancelQueuedJobs(kind: JobKind, subject: String) async throws -> Int
    func queuedJobCount(kind: JobKind) async throws -> Int
    /// Until this transaction ends, another that asks for the same kind waits: a check for a
    /// queued job and the insert that follows it hold across instances sharing PostgreSQL
    /// (SQLite's one writer already runs them one at a time).
    func serializeJobs(kind: JobKind) async throws
    /// Queued jobs due by `now`, and running ones: the backlog.
    func dueJobCount(now: Date) async throws -> Int
}

public protocol CalendarStore: Sendable {
    func insertCalendar(_ calendar: CalendarCollection) async throws
    func calendar(id: UUID) async throws -> CalendarCollection?
    func calendar(accountID: UUID, slug: String) async throws -> CalendarCollection?
    /// An account's calendars in their display order.
    func calendars(accountID: UUID) async throws -> [CalendarCollection]
    /// Saves name, description, colour, order and zone, and bumps the revision (getctag).
    func updateCalendarProperties(_ calendar: CalendarCollection) async throws -> CalendarCollection
    /// Removes the calendar with its objects and change log.
    func deleteCalendar(id: UUID) async throws

    func calendarObject(calendarID: UUID, name: String) async throws -> CalendarObject?
    func calendarObject(calendarID: UUID, uid: String) async throws -> CalendarObject?
    /// The objects named `name` or holding `uid` (at most two), with what `owner` stores
    /// (`storedUsage`), in one query: what a write checks.
    func calendarObjects(calendarID: UUID, name: String, orUID uid: String, usageOf owner: UUID) async throws -> (found: [CalendarObject], usage: StoredUsage)
    func calendarObjects(calendarID: UUID) async throws -> [CalendarObject]
    func calendarObjects(calendarID: UUID, names: [String]) async throws -> [CalendarObject]
    /// Objects whose index says they may have an occurrence in [start, end); the caller expands.
    func calendarObjects(calendarID: UUID, overlapping start: Date, _ end: Date) async throws -> [CalendarObject]
    /// Creates or replaces the object by name at the calendar's next revision, logging the change.
    func putCalendarObject(_ object: CalendarObject) async throws -> CalendarObject
    /// Deletes the object at the calendar's next revision, logging the change. False if there was none.
    func deleteCalendarObject(calendarID: UUID, name: String) async throws -> Bool
    /// What the account stores in its own calendars (kept by every write, read in one short
    /// query): what `AccountQuota` checks and the CalDAV quota properties show.
    func storedUsage(accountID: UUID) async throws -> StoredUsage
    /// Changes after `revision`, oldest first; nil when the log no longer reaches back to
    /// `revision` (`RecordRetention` pruned it): the caller starts from the objects instead.
    func calendarChanges(calendarID: UUID, after revision: Int64) async throws -> [CalendarChange]?
    /// Every object of enabled accounts whose text may hold an alarm and that is not over by
    /// `date` (or never ends): what the reminder sweep reschedules.
    func calendarObjectsWithAlarms(endingAfter date: Date) async throws -> [ReminderQueue.Target]
}

/// Calendars shared between accounts (`CalendarShare`), and who may see whose busy time.
public protocol CalendarShareStore: Sendable {
    func insertCalendarShare(_ share: CalendarShare) async throws
    /// Saves access, state, slug, name, colour, busy and note.
    func updateCalendarShare(_ share: CalendarShare) async throws
    func deleteCalendarShare(id: UUID) async throws
    func calendarShare(id: UUID) async throws -> CalendarShareEntry?
    /// The shares of one calendar, oldest first.
    func calendarShares(calendarID: UUID) async throws -> [CalendarShare]
    /// Every share of the owner's calendars, oldest first.
    func outgoingCalendarShares(ownerID: UUID) async throws -> [CalendarShare]
    /// The shares sent to this address or answered by this account, newest first.
    func incomingCalendarShares(email: EmailAddress, accountID: UUID) async throws -> [CalendarShareEntry]
    /// The shares this account accepted, with their calendars, in the order they were accepted.
    func acceptedCalendarShares(shareeID: UUID) async throws -> [CalendarShareEntry]
    func busyTimeVisibility(accountID: UUID) async throws -> BusyTimeVisibility
    func saveBusyTimeVisibility(_ visibility: BusyTimeVisibility, accountID: UUID, at: Date) async throws
}

public protocol AppPasswordStore: Sendable {
    func insertAppPassword(_ password: AppPassword) async throws
    /// The account's passwords that are not revoked, newest first.
    func appPasswords(accountID: UUID) async throws -> [AppPassword]
    /// The account with this email and its passwords that are not revoked, in one query: what
    /// every CalDAV request checks.
    func accountWithAppPasswords(email: EmailAddress) async throws -> (Account, [AppPassword])?
    /// Revokes it if it belongs to the account and is active; false otherwise.
    func revokeAppPassword(id: UUID, accountID: UUID, at: Date) async throws -> Bool
    /// Revokes every active password of the account; how many there were.
    func revokeAppPasswords(accountID: UUID, at: Date) async throws -> Int
    func touchAppPassword(id: UUID, at: Date) async throws
}

/// Failed password sign-ins counted per key (`SignInThrottle.Keys`), shared by every instance.
public protocol SignInFailureStore: Sendable {
    /// The counts under these keys; keys with none are left out.
    func signInFailures(keys: [String]) async throws -> [SignInFailures]
    /// Counts one more failure under each key at `at`, starting again from one where the last
    /// was before `forgetBefore`, and deletes counts whose last failure was before it.
    func recordSignInFailure(keys: [String], at: Date, forgetBefore: Date) async throws
    func clearSignInFailures(key: String) async throws
}

public protocol PrayerSettingsStore: Sendable {
    func prayerSettings(accountID: UUID) async throws -> PrayerSettings?
    /// The settings with their revision and time of saving (the prayer calendar's sync state).
    func storedPrayerSettings(accountID: UUID) async throws -> StoredPrayerSettings?
    /// Saves them and bumps their revision (the prayer calendar's sync state changes with them).
    func savePrayerSettings(_ settings: PrayerSettings, accountID: UUID, at: Date) async throws
}

public protocol CalendarFeedStore: Sendable {
    func insertCalendarFeed(_ feed: CalendarFeed) async throws
    func calendarFeed(digest: TokenDigest) async throws -> CalendarFeed?
    /// Revokes the account's active feeds of `kind`; returns how many there were.
    func revokeCalendarFeeds(accountID: UUID, kind: CalendarFeed.Kind, at: Date) async throws -> Int
    /// The account's feeds that are not revoked, newest first.
    func activeCalendarFeeds(accountID: UUID) async throws -> [CalendarFeed]
}

public protocol SetupTokenStore: Sendable {
    func insertSetupToken(_ token: SetupToken) async throws
    func setupToken(digest: TokenDigest) async throws -> SetupToken?
    /// Marks it used only if it was unused; false when it had been used already.
    func markSetupTokenUsed(digest: TokenDigest, at: Date) async throws -> Bool
    /// The account's links that are neither used nor expired at `now`, newest first.
    func unspentSetupTokens(accountID: UUID, now: Date) async throws -> [SetupToken]
    /// Marks the account's unspent links used, so they can never be spent; how many there were.
    func revokeSetupTokens(accountID: UUID, at: Date) async throws -> Int
}

public protocol ChatStore: Sendable {
    /// The account's chat settings; the defaults when it never saved any.
    func chatSettings(accountID: UUID) async throws -> ChatSettings
    func saveChatSettings(_ settings: ChatSettings, accountID: UUID, at: Date) async throws
    /// The account a WhatsApp Business number's webhook deliveries belong to.
    func chatAccountID(cloudAPIPhoneNumberID: String) async throws -> UUID?

    /// The conversation for this chat, created from `candidate` if there is none yet, and held
    /// for the rest of the transaction so concurrent deliveries to one chat take turns.
    func lockChatConversation(_ candidate: ChatConversation) async throws -> ChatConversation
    /// The conversation for this chat if there is one, held like `lockChatConversation`'s.
    func lockExistingChatConversation(accountID: UUID, source: ChatSource, chatKey: String) async throws -> ChatConversation?
    func chatConversation(id: UUID, accountID: UUID) async throws -> ChatConversation?
    /// The account's conversations, most recently active first.
    func chatConversations(accountID: UUID) async throws -> [ChatConversation]
    /// Conversations that got messages while extraction was paused.
    func chatConversationsAwaitingExtraction(accountID: UUID) async throws -> [ChatConversation]
    /// Saves state, plan, events, counters and times.
    func updateChatConversation(_ conversation: ChatConversation) async throws
    /// Deletes the conversation and all its messages. False when the account has no such conversation.
    func deleteChatConversation(id: UUID, accountID: UUID) async throws -> Bool

    /// Stores the messages not stored yet (a message is known by its conversation and external
    /// id) and returns the external ids it stored; the others were duplicates.
    func insertChatMessages(_ messages: [ChatMessageRecord]) async throws -> Set<String>
    /// Which of these external ids the conversation has stored (with or without their text).
    func storedChatMessageIDs(conversationID: UUID, among externalIDs: [String]) async throws -> Set<String>
    func chatMessage(conversationID: UUID, externalID: String) async throws -> ChatMessageRecord?
    /// Deletes the message `externalID` and the messages whose id starts with `editPrefix` (its
    /// edits, stored as messages of their own); returns what was deleted.
    func deleteChatMessages(conversationID: UUID, externalID: String, editPrefix: String) async throws -> [ChatMessageRecord]
    /// The conversation's messages whose text is still held, in the order they were sent.
    func heldChatMessages(conversationID: UUID) async throws -> [ChatMessageRecord]
    /// How many messages the conversation has, and how many still hold their text.
    func chatMessageCounts(conversationID: UUID) async throws -> (stored: Int, holdingText: Int)
    /// Drops the text of all the conversation's messages; returns how many lost it.
    func forgetChatMessageText(conversationID: UUID) async throws -> Int
    /// Drops the text of every message sent longer ago than its account's retention period;
    /// returns how many lost it.
    func forgetExpiredChatMessageText(now: Date) async throws -> Int
    /// The keys (`MessageCipher.keyID`) that sealed the text still held.
    func chatMessageKeyIDs() async throws -> [String]
}

public protocol ChatConnectorTokenStore: Sendable {
    func insertChatConnectorToken(_ token: ChatConnectorToken) async throws
    /// The account's tokens that are not revoked, newest first.
    func chatConnectorTokens(accountID: UUID) async throws -> [ChatConnectorToken]
    /// The active token with this digest and its account, in one query: what every delivery checks.
    func chatConnectorToken(digest: TokenDigest) async throws -> (ChatConnectorToken, Account)?
    /// Revokes it if it belongs to the account and is active; false otherwise.
    func revokeChatConnectorToken(id: UUID, accountID: UUID, at: Date) async throws -> Bool
    /// Revokes every active token of the account; how many there were.
    func revokeChatConnectorTokens(accountID: UUID, at: Date) async throws -> Int
    func touchChatConnectorToken(id: UUID, at: Date) async throws
}

public protocol ConflictStore: Sendable {
    func insertConflict(_ conflict: EventConflict) async throws
    /// Saves a conflict's status, resolution time and event details.
    func updateConflict(_ conflict: EventConflict) async throws
    /// Every conflict recorded for one calendar object, any status.
    func conflicts(calendarID: UUID, objectName: String) async throws -> [EventConflict]
    /// Every conflict recorded for these objects of one calendar, any status, in one read.
    func conflicts(calendarID: UUID, objectNames: [String]) async throws -> [EventConflict]
    /// The events (calendar, object name, the source of their conflict) whose open conflicts run
    /// into one of `objects`: what must be checked again when those change. Each event once.
    func eventsWithOpenConflicts(accountID: UUID, naming objects: [UUID: [String]]) async throws -> [ConflictedEvent]
    /// An account's conflicts, open only unless `includeResolved`, soonest occurrence first.
    func conflicts(accountID: UUID, includeResolved: Bool) async throws -> [EventConflict]
    func conflict(id: UUID, accountID: UUID) async throws -> EventConflict?
    func conflictSettings(accountID: UUID) async throws -> ConflictSettings
    func saveConflictSettings(_ settings: ConflictSettings, accountID: UUID, at: Date) async throws
}

public protocol NotificationStore: Sendable {
    /// Inserts it with the account's next sequence number, or returns nil when the account already
    /// has a notification with its reason key (nothing is ever notified twice for one reason).
    func insertNotification(_ notification: AccountNotification) async throws -> AccountNotification?
    /// True when the account has a notification with this reason key.
    func notificationExists(accountID: UUID, reasonKey: String) async throws -> Bool
    /// Notifications delivered by `now` (quiet hours over), newest first, before `beforeSequence`
    /// when given; unread only if asked.
    func notifications(accountID: UUID, deliveredBy now: Date, beforeSequence: Int64?, unreadOnly: Bool, limit: Int) async throws -> [AccountNotification]
    /// Delivered notifications after `sequence`, oldest first: what a live stream has not sent yet.
    func notifications(accountID: UUID, deliveredBy now: Date, afterSequence sequence: Int64, limit: Int) async throws -> [AccountNotification]
    func notification(id: UUID, accountID: UUID) async throws -> AccountNotification?
    func unreadNotificationCount(accountID: UUID, deliveredBy now: Date) async throws -> Int
    /// The first time a held notification comes due after `now`, if any: when a stream must look again.
    func nextHeldNotification(accountID: UUID, after now: Date) async throws -> Date?
    /// Marks these read (unknown or others' ids are ignored); how many changed.
    func markNotificationsRead(ids: [UUID], accountID: UUID, at: Date) async throws -> Int
    func markAllNotificationsRead(accountID: UUID, at: Date) async throws -> Int
    func notificationSettings(accountID: UUID) async throws -> NotificationSettings
    func saveNotificationSettings(_ settings: NotificationSettings, accountID: UUID, at: Date) async throws
    /// Claims the notification for `channel` before sending; false when it was claimed before
    /// (sent already, or being sent), so nothing goes out twice.
    func recordDelivery(notificationID: UUID, channel: String, at: Date) async throws -> Bool
    /// Gives a claim back after a failed send, for the retry.
    func releaseDelivery(notificationID: UUID, channel: String) async throws

    /// Registers a device token for the account (a token moved to another account moves with it).
    func savePushDevice(_ device: PushDevice) async throws -> PushDevice
    func pushDevices(accountID: UUID) async throws -> [PushDevice]
    func deletePushDevice(id: UUID, accountID: UUID) async throws -> Bool
    /// Drops a token APNs no longer accepts; true when there was one.
    func deletePushDevice(token: String) async throws -> Bool
}

/// Browsers that receive Web Push, per account.
public protocol WebPushStore: Sendable {
    /// Saves it under its endpoint: a browser that subscribes again (or for another account)
    /// replaces its row, keeping the row's id.
    func saveWebPushSubscription(_ subscription: WebPushSubscription) async throws -> WebPushSubscription
    /// The account's browsers, oldest first.
    func webPushSubscriptions(accountID: UUID) async throws -> [WebPushSubscription]
    func webPushSubscription(endpoint: String) async throws -> WebPushSubscription?
    func deleteWebPushSubscription(id: UUID, accountID: UUID) async throws -> Bool
    /// Drops a subscription the push service says is gone (404/410); true when there was one.
    func deleteWebPushSubscription(id: UUID) async throws -> Bool
    func markWebPushSubscriptionUsed(id: UUID, at: Date) async throws
}

/// Which prayers a person is alerted to, and how early.
public protocol PrayerAlertStore: Sendable {
    /// The saved choice; nil when the person never chose (no alerts).
    func prayerAlertSettings(accountID: UUID) async throws -> PrayerAlertSettings?
    func savePrayerAlertSettings(_ settings: PrayerAlertSettings, accountID: UUID, at: Date) async throws
    /// Accounts with at least one alert on: what the daily sweep schedules.
    func accountsWithPrayerAlerts() async throws -> [UUID]
}

public protocol CalendarSubscriptionStore: Sendable {
    func insertCalendarSubscription(_ subscription: CalendarSubscription) async throws
    func calendarSubscription(id: UUID) async throws -> CalendarSubscription?
    /// The account's subscriptions, oldest first.
    func calendarSubscriptions(accountID: UUID) async throws -> [CalendarSubscription]
    /// Saves everything but the ids and creation time.
    func updateCalendarSubscription(_ subscription: CalendarSubscription) async throws
}

public protocol CalDAVAccountStore: Sendable {
    func insertCalDAVAccount(_ account: CalDAVAccount) async throws
    func caldavAccount(id: UUID) async throws -> CalDAVAccount?
    /// The person's connected accounts, oldest first.
    func caldavAccounts(accountID: UUID) async throws -> [CalDAVAccount]
    /// Saves everything but the ids, the credentials and the creation time.
    func updateCalDAVAccount(_ account: CalDAVAccount) async throws
    /// Removes the account with its sealed password (its mirrors go with their calendars).
    func deleteCalDAVAccount(id: UUID) async throws
    func insertCalendarMirror(_ mirror: CalendarMirror) async throws
    func calendarMirror(calendarID: UUID) async throws -> CalendarMirror?
    func calendarMirrors(caldavAccountID: UUID) async throws -> [CalendarMirror]
    func updateCalendarMirror(_ mirror: CalendarMirror) async throws
    func mirroredObjects(calendarID: UUID) async throws -> [MirroredObject]
    func mirroredObject(calendarID: UUID, name: String) async throws -> MirroredObject?
    func putMirroredObject(_ object: MirroredObject) async throws
    func deleteMirroredObject(calendarID: UUID, name: String) async throws
    /// The keys (`MessageCipher.keyID`) that sealed the passwords held.
    func caldavPasswordKeyIDs() async throws -> [String]
}

public protocol GoalStore: Sendable {
    func insertGoal(_ goal: StoredGoal, accountID: UUID) async throws
    func updateGoal(_ goal: StoredGoal, accountID: UUID) async throws
    /// The account's goals, oldest first.
    func goals(accountID: UUID) async throws -> [StoredGoal]
    func goal(id: String, accountID: UUID) async throws -> StoredGoal?
    /// Deletes the goal with its plan items; false when the account has no such goal.
    func deleteGoal(id: String, accountID: UUID) async throws -> Bool
    /// The accounts with at least one goal (the weekly plan is made for them).
    func accountsWithGoals() async throws -> [UUID]

    /// The account's plan items in `states`, by start.
    func planItems(accountID: UUID, states: Set<PlanItem.State>) async throws -> [PlanItem]
    func planItem(id: String, accountID: UUID) async throws -> PlanItem?
    /// Drops every proposal still waiting for an answer and stores `items` instead (a new plan).
    /// An item whose id is already accepted or rejected is left out.
    func replaceProposedPlanItems(accountID: UUID, with items: [PlanItem]) async throws
    /// Drops the proposals of one goal still waiting for an answer (the goal changed).
    func deleteProposedPlanItems(goalID: String, accountID: UUID) async throws
    /// Saves an item's state, time, event and decision time.
    func updatePlanItem(_ item: PlanItem, accountID: UUID) async throws
    func deletePlanItem(id: String, accountID: UUID) async throws
    /// Adds one item (a proposal made outside a plan); nothing when its id is taken.
    func insertPlanItem(_ item: PlanItem, accountID: UUID) async throws

    /// The questionnaire's answers; all skipped when never answered.
    func plannerAnswers(accountID: UUID) async throws -> PlannerAnswers
    func savePlannerAnswers(_ answers: PlannerAnswers, accountID: UUID, at: Date) async throws
    /// When the questionnaire was last saved (answered or skipped); nil when never.
    func plannerAnswersSavedAt(accountID: UUID) async throws -> Date?
    /// What the planner learned; nothing when never saved. Held for the rest of the transaction
    /// (PostgreSQL), so two answers given at once are both learned.
    func plannerLearning(accountID: UUID) async throws -> PlannerLearning
    func savePlannerLearning(_ learning: PlannerLearning, accountID: UUID, at: Date) async throws
    /// The last plan made for the account; nil when none was.
    func planRun(accountID: UUID) async throws -> PlanRun?
    func savePlanRun(_ run: PlanRun, accountID: UUID) async throws
}

public protocol TrackerStore: Sendable {
    func insertTrackerEntry(_ entry: TrackerEntry, accountID: UUID) async throws
    /// Saves every field but the id and creation time.
    func updateTrackerEntry(_ entry: TrackerEntry, accountID: UUID) async throws
    func trackerEntry(id: UUID, accountID: UUID) async throws -> TrackerEntry?
    /// False when the account has no such entry.
    func deleteTrackerEntry(id: UUID, accountID: UUID) async throws -> Bool
    /// The account's entries of `metric` (every metric when nil) starting in [from, to), by
    /// start, at most `limit`.
    func trackerEntries(accountID: UUID, metric: String?, from: Date, to: Date, limit: Int) async throws -> [TrackerEntry]
    /// Inserts the entries whose external id and plan item are new to the account (the others
    /// are left as stored); returns the ids inserted.
    func insertTrackerEntries(_ entries: [TrackerEntry], accountID: UUID) async throws -> Set<UUID>
    /// The entry recording what became of a plan item, if any.
    func trackerEntry(planItemID: String, accountID: UUID) async throws -> TrackerEntry?
    func deleteTrackerEntries(ids: [UUID], accountID: UUID) async throws
    /// The account's entries from `source` of `metric` starting in [from, to), by start.
    func trackerEntries(accountID: UUID, source: TrackerEntry.Source, metric: String, from: Date, to: Date) async throws -> [TrackerEntry]
}

/// What a person's calendar screen needs beside the calendars: how much each holds, and which
/// they keep out of their calendar views.
public protocol CalendarViewStore: Sendable {
    /// The number of objects of each kind in each of the account's calendars (none: absent).
    func calendarObjectCounts(accountID: UUID) async throws -> [UUID: [ComponentKind: Int]]
    /// The account's calendars it hides from its calendar views.
    func hiddenCalendarIDs(accountID: UUID) async throws -> Set<UUID>
    func setCalendarHidden(_ hidden: Bool, calendarID: UUID, accountID: UUID, at: Date) async throws
}

/// What owning an account keeps beside it: whether the first-run guide was done, the one-time
/// links that change its address or delete it, and the removal of everything it left.
public protocol AccountOwnershipStore: Sendable {
    func firstRun(accountID: UUID) async throws -> FirstRunRecord?
    func saveFirstRun(_ record: FirstRunRecord, accountID: UUID) async throws

    func insertAccountLink(_ link: AccountLinkRecord) async throws
    func accountLink(digest: TokenDigest) async throws -> AccountLinkRecord?
    /// Marks it used only if it was unused; false when another request used it first.
    func markAccountLinkUsed(digest: TokenDigest, at: Date) async throws -> Bool
    /// Creation times of the account's links of `purpose` made after `since`, oldest first.
    func accountLinkRequests(accountID: UUID, purpose: AccountLinkRecord.Purpose, since: Date) async throws -> [Date]

    /// Forgets what names the address without belonging to the account: its sign-in links and
    /// failed sign-ins, calendars shared with it still waiting for an answer, and its place in
    /// other people's lists of who may see their busy time.
    func forgetEmailAddress(_ email: EmailAddress) async throws
    /// Deletes the jobs (all but running ones) and the notifications of any account whose text
    /// mentions one of `terms` (compared without case): what is left of an account that goes
    /// in queues and other people's feeds. How many rows went.
    @discardableResult
    func forgetMentions(of terms: [String]) async throws -> Int
    /// Deletes the account row; every row that references it goes with it (ON DELETE CASCADE).
    func deleteAccount(id: UUID) async throws
}

/// Rows that age out, by `RecordRetention`'s rules. Each call is one idempotent statement or a
/// few, so any number of instances may sweep at once.
public protocol RetentionStore: Sendable {
    /// Forgets sign-in and account links that expired before `linksBefore` (the address and
    /// client address they recorded with them), and sessions that ended (expired or signed out)
    /// before `sessionsBefore` with their refresh tokens (the device and address they recorded);
    /// how many rows.
    func forgetEndedSignIns(linksBefore: Date, sessionsBefore: Date) async throws -> Int
    /// Forgets refresh tokens rotated before `date`: a session goes on with its newest one.
    func forgetRotatedRefreshTokens(rotatedBefore date: Date) async throws -> Int
    /// Forgets setup links (Easy Setup, profiles) that expired before `date`.
    func forgetSetupTokens(expiredBefore date: Date) async throws -> Int
    /// Forgets jobs that finished before `doneBefore` and dead ones that gave up before `deadBefore`.
    func forgetFinishedJobs(doneBefore: Date, deadBefore: Date) async throws -> Int
    /// Forgets change-log rows logged before `date`, keeping per calendar the newest revision
    /// forgotten, so a sync from an older token is refused instead of answered short.
    func forgetCalendarChanges(loggedBefore date: Date) async throws -> Int
}
