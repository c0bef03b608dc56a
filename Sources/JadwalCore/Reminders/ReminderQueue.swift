import Foundation
import ICalendar

/// Reminders as durable jobs: each upcoming firing of an object's alarms is a `reminder.fire`
/// job due at its time, so it is delivered once, on time (within the workers' poll), and after a
/// restart. A write of an object with alarms queues `reminder.schedule`, which cancels the
/// object's queued firings and queues them afresh from the stored text; a daily sweep extends
/// every object's firings past the horizon (repeating events) and picks up objects written
/// before this existed.
public struct ReminderQueue: Sendable {
    public static let scheduleJob: JobKind = "reminder.schedule"
    public static let fireJob: JobKind = "reminder.fire"
    public static let sweepJob: JobKind = "reminder.sweep"
    /// How far ahead firings are queued; the sweep runs daily, well inside it.
    public static let horizon: TimeInterval = 35 * 86_400
    public static let sweepInterval: TimeInterval = 86_400
    /// A firing this late (the server was down) is dropped rather than delivered out of time.
    public static let latestDelivery: TimeInterval = 6 * 3600
    /// At most this many firings are queued per object and sweep (a minutely alarm on a daily
    /// event would otherwise fill the queue).
    public static let firingsPerObject = 500

    /// Which object: the payload of `reminder.schedule` and the subject of its firings.
    public struct Target: Sendable, Hashable, Codable {
        public var accountID: UUID
        public var calendarID: UUID
        public var objectName: String

        public init(accountID: UUID, calendarID: UUID, objectName: String) {
            self.accountID = accountID
            self.calendarID = calendarID
            self.objectName = objectName
        }

        /// Jobs about this object carry it, so they can be found and cancelled.
        public var subject: String { calendarID.uuidString.lowercased() + "/" + objectName }

        public func scheduleJob(now: Date, random: RandomSource) -> Job {
            Job.new(ReminderQueue.scheduleJob, payload: ReminderQueue.json(self), maxAttempts: 5, runAt: now, now: now, id: random.uuid(), subject: subject)
        }
    }

    /// One firing: the payload of `reminder.fire`.
    public struct Firing: Sendable, Hashable, Codable {
        public var target: Target
        public var key: String
        public var fireAt: Date
        public var title: String?
        public var start: Date?
        public var allDay: Bool
        public var isTodo: Bool
    }

    let store: StoreAccess<any NoticeStore & AccountStore>
    let clock: Clock
    let random: RandomSource
    let parse: AccountBusyTime.Parse

    public init(store: any Store, clock: Clock, random: RandomSource, parse: @escaping AccountBusyTime.Parse = { try? ICalendarParser().parseCalendar($0.icalendar) }) {
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
        self.random = random
        self.parse = parse
    }

    /// True when a stored text may hold alarms: only then is a write worth a schedule job.
    public static func mayHoldAlarms(_ text: String?) -> Bool {
        text?.contains("BEGIN:VALARM") ?? false
    }

    /// Replaces the object's queued firings with those of its stored text (none when it is gone).
    @discardableResult
    public func schedule(_ target: Target) async throws -> Int {
        let now = clock.now
        return try await store.transaction { tx in try await schedule(target, now: now, tx: tx) }
    }

    func schedule(_ target: Target, now: Date, tx: any AccountStore & CalendarStore & JobStore) async throws -> Int {
        try await tx.cancelQueuedJobs(kind: Self.fireJob, subject: target.subject)
        guard let account = try await tx.account(id: target.accountID), account.disabledAt == nil,
              let calendar = try await tx.calendar(id: target.calendarID), calendar.accountID == account.id,
              let object = try await tx.calendarObject(calendarID: target.calendarID, name: target.objectName),
              Self.mayHoldAlarms(object.icalendar),
              let schedule = ReminderSchedule(object: object, calendar: calendar, accountZone: account.timeZone, parse: parse)
        else { return 0 }
        let window = schedule.reminders(from: now, to: now.addingTimeInterval(Self.horizon), limit: Self.firingsPerObject)
        for reminder in window.reminders {
            let firing = Firing(
                target: target, key: reminder.key, fireAt: reminder.fireAt, title: reminder.title, start: reminder.instanceStart,
                allDay: reminder.isAllDay, isTodo: reminder.isTodo)
            try await tx.enqueue(Job.new(Self.fireJob, payload: Self.json(firing), maxAttempts: 5, runAt: reminder.fireAt, now: now, id: random.uuid(), subject: target.subject))
        }
        return window.reminders.count
    }

    /// Delivers a firing as an urgent notification (quiet hours do not hold what the person
    /// set an alarm for); once per firing, however often the job runs. Nil when nothing was posted.
    public func fire(_ firing: Firing) async throws -> AccountNotification? {
        let now = clock.now
        guard now.timeIntervalSince(firing.fireAt) <= Self.latestDelivery else { return nil }
        return try await store.transaction { tx in
            guard let account = try await tx.account(id: firing.target.accountID), account.disabledAt == nil,
                  try await tx.calendarObject(calendarID: firing.target.calendarID, name: firing.target.objectName) != nil
            else { return nil }
            let untitled = account.language == .arabic ? "تذكير" : "Reminder"
            let text = NotificationText(account: account).reminder(
                title: firing.title ?? untitled, start: firing.start ?? firing.fireAt, allDay: firing.allDay, firesAt: firing.fireAt, isTask: firing.isTodo)
            let draft = NotificationDraft(
                kind: .reminder, reasonKey: "reminder:\(firing.target.subject):\(firing.key):\(Int64(firing.fireAt.timeIntervalSince1970))",
                title: text.title, body: text.body,
                links: ["calendarId": firing.target.calendarID.uuidString.lowercased(), "objectName": firing.target.objectName],
                urgent: true)
            return try await NotificationDispatch.post(draft, account: account, now: now, random: random, tx: tx)
        }
    }

    /// Queues a schedule job for every object that may hold alarms and is not over, and the next
    /// sweep; returns how many objects. At most one sweep is queued at a time. (Fired reminders
    /// are finished jobs, which `RecordRetention` forgets.)
    public func sweep() async throws -> Int {
        let now = clock.now
        return try await store.transaction { tx in
            let targets = try await tx.calendarObjectsWithAlarms(endingAfter: now)
            for target in targets {
                try await tx.cancelQueuedJobs(kind: Self.scheduleJob, subject: target.subject)
                try await tx.enqueue(target.scheduleJob(now: now, random: random))
            }
            try await tx.queueSweep(Self.sweepJob, at: now.addingTimeInterval(Self.sweepInterval), now: now, random: random)
            return targets.count
        }
    }

    /// Makes sure a sweep is queued (at start-up: the first one runs at once).
    public func ensureSweep() async throws {
        let now = clock.now
        try await store.transaction { tx in try await tx.ensureSweep(Self.sweepJob, now: now, random: random) }
    }


    static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    public static func decode<T: Decodable>(_ type: T.Type, from payload: String) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return try decoder.decode(type, from: Data(payload.utf8))
    }
}
