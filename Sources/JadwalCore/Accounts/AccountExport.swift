import Foundation
import ICalendar

/// Everything an account holds, as files a person can keep or take elsewhere: one `.ics` per
/// calendar (`calendars/`, as `CalendarTransfer` writes them) and JSON for the rest. Chats are
/// described, never their words: message text is dropped once a conversation is settled, and
/// what is still held waits to be read, so none of it leaves in an export. Secrets never leave
/// either (app passwords, tokens, the sealed CalDAV passwords and WhatsApp session): only their
/// names and dates.
///
/// The JSON files, each an object with `"format": "jadwal-export"` and `"version": 1`:
/// `account.json` (profile, first run, sign-ins and devices, calendars and their sources,
/// shares both ways), `settings.json` (prayer, chats, conflicts and working hours,
/// notifications, who sees your busy time), `tasks.json`, `routines.json`, `goals.json` (goals,
/// the two-week plan, the planner's answers, the tracker), `conversations.json`,
/// `notifications.json`.
public struct AccountExport: Sendable {
    let store: StoreAccess<any StoreTransaction>
    let clock: Clock
    /// Only for the calendar transfer it reads through; an export makes no ids.
    let random: RandomSource

    public init(store: any Store, clock: Clock, random: RandomSource) {
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
        self.random = random
    }

    /// One file of the export, at its path inside the archive.
    public struct File: Sendable, Hashable {
        public var path: String
        public var data: Data
    }

    public enum Problem: Error, Sendable, Equatable {
        case noAccount
    }

    /// The archive's name for this account and day: `jadwal-export-2026-09-21.zip`.
    public func fileName(now: Date? = nil) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return "jadwal-export-\(formatter.string(from: now ?? clock.now)).zip"
    }

    public func files(accountID: UUID) async throws -> [File] {
        let now = clock.now
        let calendarFiles = try await CalendarTransfer(store: store.store, clock: clock, random: random).exportAll(accountID: accountID)
        let documents = try await store.read { tx in try await Self.documents(accountID: accountID, now: now, tx: tx) }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var files = calendarFiles.map { File(path: "calendars/" + $0.fileName, data: Data($0.text.utf8)) }
        for (name, document) in documents {
            files.append(File(path: name, data: try encoder.encode(document)))
        }
        return files
    }

    // MARK: The documents

    /// Each file's top level: what it is, when it was made, and its content under `data`.
    struct Document<Content: Encodable & Sendable>: Encodable, Sendable {
        var format = "jadwal-export"
        var version = 1
        var exportedAt: Date
        var data: Content
    }

    /// A document of any content, so the files can be listed together.
    struct AnyDocument: Encodable, Sendable {
        let write: @Sendable (any Encoder) throws -> Void
        init<Content: Encodable & Sendable>(_ data: Content, at now: Date) {
            let document = Document(exportedAt: now, data: data)
            write = { try document.encode(to: $0) }
        }
        func encode(to encoder: any Encoder) throws { try write(encoder) }
    }

    static func documents(accountID: UUID, now: Date, tx: any StoreTransaction) async throws -> [(String, AnyDocument)] {
        guard let account = try await tx.account(id: accountID) else { throw Problem.noAccount }
        let calendars = try await tx.calendars(accountID: accountID)
        var objects: [(CalendarCollection, CalendarObject)] = []
        for calendar in calendars {
            objects += try await tx.calendarObjects(calendarID: calendar.id).map { (calendar, $0) }
        }
        return [
            ("account.json", AnyDocument(try await accountSection(account, calendars: calendars, now: now, tx: tx), at: now)),
            ("settings.json", AnyDocument(try await settingsSection(account, calendars: calendars, tx: tx), at: now)),
            ("tasks.json", AnyDocument(TasksSection(account: account, objects: objects), at: now)),
            ("routines.json", AnyDocument(RoutinesSection(try await RoutineCalendar.list(account: account, tx: tx)), at: now)),
            ("goals.json", AnyDocument(try await goalsSection(accountID: accountID, tx: tx), at: now)),
            ("conversations.json", AnyDocument(try await conversationsSection(accountID: accountID, tx: tx), at: now)),
            ("notifications.json", AnyDocument(try await notificationsSection(accountID: accountID, tx: tx), at: now)),
        ]
    }

    // MARK: account.json

    struct AccountSection: Encodable, Sendable {
        struct Profile: Encodable, Sendable {
            var id: String
            var email: String
            var name: String
            var timeZone: String
            var language: String
            var showHijri: Bool
            var createdAt: Date
        }

        struct FirstRunState: Encodable, Sendable {
            var state: String
            var at: Date?
        }

        struct Named: Encodable, Sendable {
            var name: String
            var createdAt: Date
            var lastUsedAt: Date?
        }

        struct Session: Encodable, Sendable {
            var method: String
            var userAgent: String?
            var clientAddress: String?
            var createdAt: Date
            var lastUsedAt: Date
            var expiresAt: Date
        }

        struct Calendar: Encodable, Sendable {
            var id: String
            var slug: String
            var name: String
            var description: String
            var color: String?
            var timeZone: String?
            var components: [String]
            /// `jadwal`, `feed` (an ICS subscription) or `caldav` (mirrored from another server).
            var source: String
            var file: String
        }

        struct Subscription: Encodable, Sendable {
            var calendarID: String
            var url: String
            var refreshSeconds: Int?
            var pausedAt: Date?
        }

        struct CalDAVServer: Encodable, Sendable {
            var url: String
            var username: String
            var calendars: [String]
        }

        struct Share: Encodable, Sendable {
            var calendar: String
            var with: String
            var access: String
            var state: String
            var createdAt: Date
        }

        struct WhatsApp: Encodable, Sendable {
            var phone: String
            var state: String
            var linkedAt: Date
        }

        var profile: Profile
        var firstRun: FirstRunState
        var sessions: [Session]
        var appPasswords: [Named]
        var connectorTokens: [Named]
        var pushDevices: [Named]
        var prayerFeeds: [Named]
        var calendars: [Calendar]
        var subscriptions: [Subscription]
        var caldavServers: [CalDAVServer]
        var sharedByYou: [Share]
        var sharedWithYou: [Share]
        var whatsApp: WhatsApp?
    }

    static func accountSection(_ account: Account, calendars: [CalendarCollection], now: Date, tx: any StoreTransaction) async throws -> AccountSection {
        let firstRun = try await tx.firstRun(accountID: account.id)
        let fileNames = CalendarTransfer.fileNames(calendars.filter { !$0.isComputed })
        let link = try await tx.whatsAppLink(accountID: account.id)
        let owned = Dictionary(calendars.map { ($0.id, $0.displayName) }, uniquingKeysWith: { first, _ in first })
        return AccountSection(
            profile: .init(
                id: account.id.uuidString.lowercased(), email: account.email.value, name: account.name, timeZone: account.timeZone,
                language: account.language.rawValue, showHijri: account.showHijri, createdAt: account.createdAt),
            firstRun: .init(state: firstRun?.state.rawValue ?? "pending", at: firstRun?.at),
            sessions: try await tx.activeSessions(accountID: account.id, at: now).map {
                .init(method: $0.method.rawValue, userAgent: $0.userAgent, clientAddress: $0.clientAddress, createdAt: $0.createdAt,
                      lastUsedAt: $0.lastUsedAt, expiresAt: $0.expiresAt)
            },
            appPasswords: try await tx.appPasswords(accountID: account.id).map { .init(name: $0.name, createdAt: $0.createdAt, lastUsedAt: $0.lastUsedAt) },
            connectorTokens: try await tx.chatConnectorTokens(accountID: account.id).map {
                .init(name: $0.name, createdAt: $0.createdAt, lastUsedAt: $0.lastUsedAt)
            },
            pushDevices: try await tx.pushDevices(accountID: account.id).map { .init(name: $0.name, createdAt: $0.createdAt, lastUsedAt: $0.lastUsedAt) },
            prayerFeeds: try await tx.activeCalendarFeeds(accountID: account.id).map { .init(name: $0.kind.rawValue, createdAt: $0.createdAt, lastUsedAt: nil) },
            calendars: calendars.filter { !$0.isComputed }.map { calendar in
                .init(
                    id: calendar.id.uuidString.lowercased(), slug: calendar.slug, name: calendar.displayName, description: calendar.description,
                    color: calendar.color, timeZone: calendar.timeZone, components: calendar.components.map(\.rawValue).sorted(),
                    source: calendar.subscriptionID != nil ? "feed" : calendar.caldavAccountID != nil ? "caldav" : "jadwal",
                    file: "calendars/" + (fileNames[calendar.id] ?? calendar.slug + ".ics"))
            },
            subscriptions: try await tx.calendarSubscriptions(accountID: account.id).map {
                .init(calendarID: $0.calendarID.uuidString.lowercased(), url: $0.url, refreshSeconds: $0.refreshSeconds, pausedAt: $0.pausedAt)
            },
            caldavServers: try await tx.caldavAccounts(accountID: account.id).map { server in
                .init(url: server.url, username: server.username, calendars: calendars.filter { $0.caldavAccountID == server.id }.map(\.displayName))
            },
            sharedByYou: try await tx.outgoingCalendarShares(ownerID: account.id).map { share in
                .init(calendar: owned[share.calendarID] ?? "", with: share.shareeEmail.value, access: share.access.rawValue, state: share.state.rawValue,
                      createdAt: share.createdAt)
            },
            sharedWithYou: try await tx.incomingCalendarShares(email: account.email, accountID: account.id).map { entry in
                .init(calendar: entry.share.displayName ?? entry.calendar.displayName, with: entry.ownerEmail.value, access: entry.share.access.rawValue,
                      state: entry.share.state.rawValue, createdAt: entry.share.createdAt)
            },
            whatsApp: link.map { .init(phone: $0.phone, state: $0.state.rawValue, linkedAt: $0.createdAt) })
    }

    // MARK: settings.json

    struct SettingsSection: Encodable, Sendable {
        struct Chats: Encodable, Sendable {
            var extractionPaused: Bool
            var allowGroups: Bool
            var retentionDays: Int
            var meName: String?
            var cloudAPIPhoneNumberID: String?
            var eventMinutes: Int
        }

        struct Conflicts: Encodable, Sendable {
            var notifySources: [String]
            var notifyPrayerOverlaps: Bool
            var workingHours: String?
            var busyPolicies: [String: BusyPolicyDraft]
        }

        struct Notifications: Encodable, Sendable {
            var email: [String]
            var push: [String]
            var quietDuringSleep: Bool
            var quietDuringPrayer: Bool
        }

        struct BusyTime: Encodable, Sendable {
            var audience: String
            var allowed: [String]
        }

        var timeZone: String
        var language: String
        var showHijri: Bool
        var prayer: PrayerSettings?
        var chats: Chats
        var conflicts: Conflicts
        var notifications: Notifications
        var busyTimeVisibleTo: BusyTime
        var hiddenCalendars: [String]
    }

    static func settingsSection(_ account: Account, calendars: [CalendarCollection], tx: any CalendarShareStore & CalendarViewStore & ChatStore & ConflictStore & NotificationStore & PrayerSettingsStore) async throws -> SettingsSection {
        let chats = try await tx.chatSettings(accountID: account.id)
        let conflicts = try await tx.conflictSettings(accountID: account.id)
        let notifications = try await tx.notificationSettings(accountID: account.id)
        let busy = try await tx.busyTimeVisibility(accountID: account.id)
        let hidden = try await tx.hiddenCalendarIDs(accountID: account.id)
        return SettingsSection(
            timeZone: account.timeZone, language: account.language.rawValue, showHijri: account.showHijri,
            prayer: try await tx.prayerSettings(accountID: account.id),
            chats: .init(
                extractionPaused: chats.extractionPaused, allowGroups: chats.allowGroups, retentionDays: chats.retentionDays, meName: chats.meName,
                cloudAPIPhoneNumberID: chats.cloudAPIPhoneNumberID, eventMinutes: chats.eventMinutes),
            conflicts: .init(
                notifySources: conflicts.notifySources.map(\.rawValue).sorted(), notifyPrayerOverlaps: conflicts.notifyPrayerOverlaps,
                workingHours: conflicts.workingHours?.description,
                busyPolicies: Dictionary(conflicts.busyPolicies.map { ($0.key.uuidString.lowercased(), BusyPolicyDraft($0.value)) }, uniquingKeysWith: { a, _ in a })),
            notifications: .init(
                email: notifications.emailKinds.map(\.rawValue).sorted(), push: notifications.pushKinds.map(\.rawValue).sorted(),
                quietDuringSleep: notifications.quietDuringSleep, quietDuringPrayer: notifications.quietDuringPrayer),
            busyTimeVisibleTo: .init(audience: busy.audience.rawValue, allowed: busy.allowed.map(\.value)),
            hiddenCalendars: calendars.filter { hidden.contains($0.id) }.map(\.slug))
    }

    // MARK: tasks.json, routines.json

    struct TasksSection: Encodable, Sendable {
        struct Task: Encodable, Sendable {
            var calendar: String
            var uid: String
            var task: TaskDraft
        }

        var tasks: [Task]

        init(account: Account, objects: [(CalendarCollection, CalendarObject)]) {
            tasks = objects.compactMap { calendar, object in
                guard object.component == .todo, let parsed = try? ICalendarParser().parseCalendar(object.icalendar),
                      let main = parsed.master("VTODO"), let todo = try? Todo(component: main)
                else { return nil }
                return Task(calendar: calendar.slug, uid: object.uid, task: TaskDraft(todo: todo))
            }
        }
    }

    struct RoutinesSection: Encodable, Sendable {
        struct Routine: Encodable, Sendable {
            var name: String
            var kind: String
            var start: String
            var end: String
            var days: [Int]
            var reminderMinutes: Int?
            var timeZone: String
            var uid: String
        }

        var routines: [Routine]
        /// Events in the Routine calendar that are not routines Jadwal edits (they are in its `.ics`).
        var otherEvents: [String]

        init(_ list: (routines: [StoredRoutine], others: [RoutineCalendarEvent])) {
            routines = list.routines.map { stored in
                let routine = stored.fields.routine
                return Routine(
                    name: routine.name, kind: stored.fields.kind.rawValue, start: routine.start.description, end: routine.end.description,
                    days: routine.days.numbers, reminderMinutes: routine.reminderMinutes, timeZone: stored.fields.timeZone, uid: stored.uid)
            }
            otherEvents = list.others.map { $0.title ?? $0.objectName }
        }
    }

    // MARK: goals.json

    struct GoalsSection: Encodable, Sendable {
        struct Entry: Encodable, Sendable {
            var metric: String
            var start: Date
            var end: Date?
            var value: Double
            var unit: String
            var kind: String?
            var note: String?
        }

        var goals: [StoredGoal]
        var plan: [PlanItem]
        var plannerAnswers: PlannerAnswers
        var tracker: [Entry]
    }

    static func goalsSection(accountID: UUID, tx: any GoalStore & TrackerStore) async throws -> GoalsSection {
        GoalsSection(
            goals: try await tx.goals(accountID: accountID),
            plan: try await tx.planItems(accountID: accountID, states: Set(PlanItem.State.allCases)),
            plannerAnswers: try await tx.plannerAnswers(accountID: accountID),
            tracker: try await tx.trackerEntries(accountID: accountID, metric: nil, from: .distantPast, to: .distantFuture, limit: Int.max).map {
                .init(metric: $0.metric, start: $0.start, end: $0.end, value: $0.value, unit: $0.unit, kind: $0.kind, note: $0.note)
            })
    }

    // MARK: conversations.json, notifications.json

    struct ConversationsSection: Encodable, Sendable {
        struct Conversation: Encodable, Sendable {
            var with: String
            var source: String
            var isGroup: Bool
            var state: String
            var plan: ChatPlan?
            var events: [ChatEventLink]
            var messages: Int64
            var lastActivityAt: Date
            var resolvedAt: Date?
            var createdAt: Date
        }

        var note = "Who each chat was with, where it stands and the events it made; never the words of the messages."
        var conversations: [Conversation]
    }

    static func conversationsSection(accountID: UUID, tx: any ChatStore) async throws -> ConversationsSection {
        ConversationsSection(conversations: try await tx.chatConversations(accountID: accountID).map {
            .init(
                with: $0.partnerName, source: $0.source.rawValue, isGroup: $0.isGroup, state: $0.state.rawValue, plan: $0.proposal, events: $0.events,
                messages: $0.messageCount, lastActivityAt: $0.lastActivityAt, resolvedAt: $0.resolvedAt, createdAt: $0.createdAt)
        })
    }

    struct NotificationsSection: Encodable, Sendable {
        struct Notification: Encodable, Sendable {
            var kind: String
            var title: String
            var body: String
            var links: [String: String]
            var createdAt: Date
            var deliveredAt: Date
            var readAt: Date?
        }

        var notifications: [Notification]
    }

    static func notificationsSection(accountID: UUID, tx: any NotificationStore) async throws -> NotificationsSection {
        // Held ones (quiet hours) too: the export is everything stored.
        NotificationsSection(notifications: try await tx.notifications(
            accountID: accountID, deliveredBy: .distantFuture, beforeSequence: nil, unreadOnly: false, limit: Int.max
        ).map {
            .init(kind: $0.kind.rawValue, title: $0.title, body: $0.body, links: $0.links, createdAt: $0.createdAt, deliveredAt: $0.deliverAfter, readAt: $0.readAt)
        })
    }
}
