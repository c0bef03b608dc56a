import Foundation
import Scheduling

/// The background check a calendar write causes: does the written event run into anything?
/// It runs as a durable job, so a burst of writes from a phone never waits for it.
public struct ConflictCheck: Sendable {
    public static let jobKind: JobKind = "conflict.check"

    /// The job's payload: which object was written, by whom.
    public struct Request: Sendable, Hashable, Codable {
        public var accountID: UUID
        public var calendarID: UUID
        public var objectName: String
        public var source: WriteSource
        /// Also check again the events whose open conflicts name this one. Off for those
        /// second checks themselves, so two overlapping events never check each other forever.
        public var recheckOthers: Bool

        public init(accountID: UUID, calendarID: UUID, objectName: String, source: WriteSource, recheckOthers: Bool = true) {
            self.accountID = accountID
            self.calendarID = calendarID
            self.objectName = objectName
            self.source = source
            self.recheckOthers = recheckOthers
        }

        /// The job that checks this write, to enqueue in the write's transaction. Its subject is
        /// the account, so one pass can take every check of the account queued behind it.
        public func job(now: Date, random: RandomSource) -> Job {
            let payload = (try? JSONEncoder().encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
            return Job.new(ConflictCheck.jobKind, payload: payload, maxAttempts: 5, runAt: now, now: now, id: random.uuid(), subject: Self.subject(accountID: accountID))
        }

        /// The subject of an account's check jobs.
        public static func subject(accountID: UUID) -> String { "account:" + accountID.uuidString.lowercased() }
    }

    /// How far ahead a recurring event's instances are checked, and how many of them at most.
    public static let horizon: TimeInterval = 90 * 86_400
    public static let instanceLimit = 100

    let store: StoreAccess<any NoticeStore & AccountStore & CalendarShareStore>
    let clock: Clock
    let random: RandomSource
    let busyTime: AccountBusyTime

    /// `busyTime` should keep an index (`BusyTimeIndex`): a check reads busy time before it
    /// writes anything, so it may, and a bulk write's checks then read only what changed.
    public init(store: any Store, clock: Clock, random: RandomSource, busyTime: AccountBusyTime = AccountBusyTime(index: BusyTimeIndex())) {
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
        self.random = random
        self.busyTime = busyTime
    }

    /// What a check did.
    public struct Outcome: Sendable, Hashable {
        /// Conflicts found for the first time.
        public var found: [EventConflict] = []
        /// Open conflicts found again, unchanged.
        public var standing = 0
        /// Open conflicts that no longer hold.
        public var retired = 0
        /// Other events whose open conflicts named this one: queued to be checked again.
        public var recheck: [Request] = []
        /// How many objects were checked (more than one when checks were coalesced).
        public var checked = 0

        mutating func add(_ other: Outcome) {
            found += other.found
            standing += other.standing
            retired += other.retired
            for request in other.recheck where !recheck.contains(request) { recheck.append(request) }
            checked += other.checked
        }
    }

    /// Checks the object the request names and records what it finds: new conflicts open,
    /// the same ones kept as they were (an acknowledged one is not raised again), the others retired.
    public func run(_ request: Request) async throws -> Outcome {
        let now = clock.now
        let outcome = try await store.transaction { tx in
            let outcome = try await check(request, now: now, tx: tx)
            try await replanIfProposalsBroken(by: [request], now: now, tx: tx)
            return outcome
        }
        return outcome
    }

    func check(_ request: Request, now: Date, tx: any NoticeStore & AccountStore & CalendarShareStore) async throws -> Outcome {
        var outcome = Outcome()
        // A sharee's check of a shared calendar's event records nothing on it (its conflicts are
        // its owner's); it only has the sharee's own events it overlaps checked again.
        let calendar = try await tx.calendar(id: request.calendarID)
        if calendar == nil || calendar?.accountID == request.accountID {
            var recipient: NotificationDispatch.Recipient?
            try await record(try await conflicts(request, calendar: calendar, now: now, tx: tx), of: request, now: now, tx: tx,
                             into: &outcome, notifying: &recipient)
        }
        if request.recheckOthers {
            try await recheckOthers(naming: [request], skipping: [], now: now, tx: tx, into: &outcome)
            try await checkOverlapped(by: [request], skipping: [ObjectKey(request)], now: now, tx: tx, into: &outcome)
            try await checkSharees(of: [request], now: now, tx: tx)
        }
        return outcome
    }

    /// A write into a shared calendar is the owner's check; each person it is shared with, whose
    /// share counts as busy, gets a check of their own (which asks about their own events).
    func checkSharees(of written: [Request], now: Date, tx: any CalendarShareStore & JobStore) async throws {
        for calendarID in Set(written.map(\.calendarID)) {
            let shares = try await tx.calendarShares(calendarID: calendarID).filter { $0.state == .accepted && $0.countsAsBusy }
            for share in shares {
                guard let shareeID = share.shareeID else { continue }
                for request in written where request.calendarID == calendarID && request.accountID == share.ownerID {
                    let theirs = Request(accountID: shareeID, calendarID: calendarID, objectName: request.objectName, source: request.source)
                    try await tx.enqueue(theirs.job(now: now, random: random))
                }
            }
        }
    }

    /// A subscribed calendar's event cannot be moved or cancelled here, so its conflicts are the
    /// other side's: for each written subscribed event, the person's own events it overlaps are
    /// queued to be checked (they see it then, and it is never the newer of the two).
    func checkOverlapped(by written: [Request], skipping checked: Set<ObjectKey>, now: Date, tx: any BusyTimeStore & AccountStore & JobStore,
                         into outcome: inout Outcome) async throws {
        guard let accountID = written.first?.accountID, let account = try await tx.account(id: accountID),
              let ahead = try? TimeRange(start: now, end: now.addingTimeInterval(Self.horizon))
        else { return }
        let calendars = Dictionary(try await Calendars.visible(accountID: accountID, tx: tx).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let subscribed = written.filter { request in
            guard let calendar = calendars[request.calendarID] else { return false }
            return calendar.holdsOthersEvents && calendar.sharedWithMe?.countsAsBusy != false
        }
        guard !subscribed.isEmpty else { return }
        let settings = try await tx.conflictSettings(accountID: accountID)
        var ranges: [TimeRange] = []
        for request in subscribed {
            guard let calendar = calendars[request.calendarID],
                  let object = try await tx.calendarObject(calendarID: request.calendarID, name: request.objectName) else { continue }
            let policy = settings.busyPolicy(calendarID: calendar.id)
            ranges += busyTime.occurrences(of: object, calendar: calendar, accountZone: account.timeZone, in: ahead, limit: Self.instanceLimit)
                .filter { policy.isBusy($0.traits) }.map(\.range)
        }
        guard let first = ranges.map(\.start).min(), let last = ranges.map(\.end).max(), let window = try? TimeRange(start: first, end: last)
        else { return }
        let blocks = try await busyTime.blocks(account: account, in: window, settings: settings, tx: tx)
        for block in blocks {
            guard let reference = block.kind.referenceID, let (calendarID, name) = EventOccurrence.location(of: reference),
                  calendars[calendarID]?.holdsOthersEvents == false, !checked.contains(ObjectKey(calendarID, name)),
                  ranges.contains(where: { $0.overlaps(block.range) })
            else { continue }
            let again = Request(accountID: accountID, calendarID: calendarID, objectName: name, source: .feed, recheckOthers: false)
            guard !outcome.recheck.contains(again) else { continue }
            outcome.recheck.append(again)
            try await tx.enqueue(again.job(now: now, random: random))
        }
    }

    /// Records what one check found for its object: new conflicts open (and are notified), the
    /// same ones are kept as they were (an acknowledged one is not raised again), the others retire.
    /// `recorded` is what the object had before, when the caller read it already.
    func record(_ found: [EventConflict], of request: Request, recorded: [EventConflict]? = nil, now: Date, tx: any NoticeStore & AccountStore,
                into outcome: inout Outcome, notifying recipient: inout NotificationDispatch.Recipient?) async throws {
        outcome.checked += 1
        var previous = recorded ?? []
        if recorded == nil { previous = try await tx.conflicts(calendarID: request.calendarID, objectName: request.objectName) }
        let known = Dictionary(previous.map { ($0.identity, $0) }, uniquingKeysWith: { first, _ in first })
        var kept: Set<UUID> = []
        for conflict in found {
            if let same = known[conflict.identity] {
                kept.insert(same.id)
                if same.status == .open {
                    outcome.standing += 1
                    if same.event.etag != conflict.event.etag {
                        var refreshed = same
                        refreshed.event = conflict.event
                        try await tx.updateConflict(refreshed)
                    }
                }
            } else {
                try await tx.insertConflict(conflict)
                outcome.found.append(conflict)
                if conflict.notify { try await notify(conflict, to: &recipient, now: now, tx: tx) }
            }
        }
        for conflict in previous where conflict.status == .open && !kept.contains(conflict.id) {
            var retired = conflict
            retired.status = .obsolete
            retired.resolvedAt = now
            try await tx.updateConflict(retired)
            outcome.retired += 1
        }
    }

    /// Queues a second check of each other event whose open conflicts name one of `written`:
    /// those conflicts may have ended with the change. Events in `checked` are left out, as they
    /// were just checked against the same state.
    func recheckOthers(naming written: [Request], skipping checked: Set<ObjectKey>, now: Date, tx: any ConflictStore & JobStore,
                       into outcome: inout Outcome) async throws {
        guard let accountID = written.first?.accountID else { return }
        let named = Dictionary(grouping: written, by: \.calendarID).mapValues { $0.map(\.objectName) }
        for other in try await tx.eventsWithOpenConflicts(accountID: accountID, naming: named)
        where !checked.contains(ObjectKey(other.calendarID, other.objectName)) {
            let again = Request(accountID: accountID, calendarID: other.calendarID, objectName: other.objectName, source: other.source, recheckOthers: false)
            guard !outcome.recheck.contains(again) else { continue }
            outcome.recheck.append(again)
            try await tx.enqueue(again.job(now: now, random: random))
        }
    }

    /// A calendar object, as checks and conflicts name it.
    struct ObjectKey: Hashable {
        var calendarID: UUID
        var objectName: String

        init(_ calendarID: UUID, _ objectName: String) {
            self.calendarID = calendarID
            self.objectName = objectName
        }

        init(_ request: Request) { self.init(request.calendarID, request.objectName) }
    }

    /// Tells the person about a new conflict they asked to hear about (in the check's transaction,
    /// so a conflict and its notice commit together). `recipient` is read on the first notice and
    /// kept for the rest of the check or pass.
    func notify(_ conflict: EventConflict, to recipient: inout NotificationDispatch.Recipient?, now: Date, tx: any NoticeStore & AccountStore) async throws {
        if recipient?.account.id != conflict.accountID {
            guard let account = try await tx.account(id: conflict.accountID) else { return }
            recipient = try await NotificationDispatch.recipient(account, now: now, tx: tx)
        }
        guard let recipient else { return }
        let account = recipient.account
        let text = NotificationText(account: account).conflict(
            title: conflict.event.title ?? "", start: conflict.event.start, overlapping: conflict.overlaps.map(\.title))
        let draft = NotificationDraft(
            kind: .conflict, reasonKey: "conflict:\(conflict.id.uuidString.lowercased())", title: text.title, body: text.body,
            links: [
                "conflictId": conflict.id.uuidString.lowercased(), "calendarId": conflict.event.calendarID.uuidString.lowercased(),
                "objectName": conflict.event.objectName,
            ],
            urgent: false)
        try await NotificationDispatch.post(draft, to: recipient, random: random, tx: tx)
    }

    /// The conflicts the object has now (none when it is gone or takes no time).
    /// `calendar` is the request's, already read by the caller (nil when it is gone).
    func conflicts(_ request: Request, calendar: CalendarCollection?, now: Date, tx: any BusyTimeStore & AccountStore) async throws -> [EventConflict] {
        guard let account = try await tx.account(id: request.accountID),
              let calendar, calendar.accountID == account.id,
              !calendar.isSubscribed,
              let object = try await tx.calendarObject(calendarID: request.calendarID, name: request.objectName),
              let ahead = try? TimeRange(start: now, end: now.addingTimeInterval(Self.horizon))
        else { return [] }
        let settings = try await tx.conflictSettings(accountID: account.id)
        let written = Written(
            request: request, calendar: calendar, object: object,
            occurrences: busyOccurrences(of: object, calendar: calendar, account: account, settings: settings, ahead: ahead))
        guard let window = written.window else { return [] }
        let busy = BusyTime(try await busyTime.blocks(account: account, in: window, settings: settings, tx: tx), window: window)
        let found = written.occurrences.map { busy.conflict(for: written.block($0)) }
        let subscribed = Set(try await Calendars.visible(accountID: account.id, tx: tx).filter(\.holdsOthersEvents).map(\.id))
        return try await eventConflicts(written, found: found, account: account, settings: settings, now: now, subscribed: subscribed) { calendarID, name in
            try await tx.calendarObject(calendarID: calendarID, name: name)
        }
    }

    /// A written object about to be checked, with its busy instances ahead.
    struct Written: Sendable {
        var request: Request
        var calendar: CalendarCollection
        var object: CalendarObject
        var occurrences: [EventOccurrence]

        /// From its first instance's start to its last one's end; nil when it takes no time.
        var window: TimeRange? {
            guard let first = occurrences.map(\.range.start).min(), let last = occurrences.map(\.range.end).max() else { return nil }
            return try? TimeRange(start: first, end: last)
        }

        func block(_ occurrence: EventOccurrence) -> BusyBlock {
            BusyBlock(occurrence.range, AccountBusyTime.kind(of: occurrence, in: calendar))
        }
    }

    /// The instances of `object` a check looks at: those ahead (at most `instanceLimit`) that
    /// its calendar's policy counts as busy.
    func busyOccurrences(of object: CalendarObject, calendar: CalendarCollection, account: Account, settings: ConflictSettings, ahead: TimeRange)
        -> [EventOccurrence] {
        let policy = settings.busyPolicy(calendarID: calendar.id)
        return busyTime.occurrences(of: object, calendar: calendar, accountZone: account.timeZone, in: ahead, limit: Self.instanceLimit)
            .filter { policy.isBusy($0.traits) }
    }

    /// The conflicts of a written object from what each of its instances runs into (`found`, one
    /// per occurrence). `object` finds another object, to tell which of two was written later.
    func eventConflicts(
        _ written: Written, found: [Conflict?], account: Account, settings: ConflictSettings, now: Date, subscribed: Set<UUID>,
        object lookUp: (UUID, String) async throws -> CalendarObject?
    ) async throws -> [EventConflict] {
        let (request, calendar, object) = (written.request, written.calendar, written.object)
        var conflicts: [EventConflict] = []
        var writtenLater: [String: Bool] = [:]
        for (occurrence, conflict) in zip(written.occurrences, found) {
            guard let conflict else { continue }
            // One overlap of two events is one conflict, the newer event's: it is what was just
            // put somewhere taken. The older one's check leaves it to the newer one's, which
            // sees it too (whichever job runs first).
            var overlaps: [EventConflict.Overlap] = []
            for overlap in conflict.overlaps.map(Self.overlap) {
                guard let otherCalendar = overlap.calendarID, let otherName = overlap.objectName else {
                    overlaps.append(overlap)  // a prayer
                    continue
                }
                let key = otherCalendar.uuidString + "/" + otherName
                if writtenLater[key] == nil {
                    // A subscribed event is never the newer one: the person can only move their own.
                    let other = subscribed.contains(otherCalendar) ? nil : try await lookUp(otherCalendar, otherName)
                    writtenLater[key] = other.map { Self.isNewer($0, than: object) } ?? false
                }
                if writtenLater[key] == false { overlaps.append(overlap) }
            }
            guard !overlaps.isEmpty else { continue }
            conflicts.append(EventConflict(
                id: random.uuid(), accountID: account.id,
                event: .init(
                    calendarID: calendar.id, objectName: object.name, uid: occurrence.uid, title: occurrence.title, start: occurrence.range.start,
                    end: occurrence.range.end, recurrenceID: occurrence.recurrenceID, etag: object.etag),
                overlaps: overlaps, source: request.source,
                notify: settings.notifies(source: request.source, overlapsPrayer: overlaps.contains { $0.kind == .prayer }), detectedAt: now))
        }
        return conflicts
    }

    /// Write order of two objects: by time, within one calendar by its revision (two writes in
    /// one millisecond), else the same arbitrary way from either side.
    static func isNewer(_ a: CalendarObject, than b: CalendarObject) -> Bool {
        if a.updatedAt != b.updatedAt { return a.updatedAt > b.updatedAt }
        if a.calendarID == b.calendarID { return a.revision != b.revision ? a.revision > b.revision : a.name > b.name }
        return a.calendarID.uuidString > b.calendarID.uuidString
    }

    public static func overlap(_ found: BusyOverlap) -> EventConflict.Overlap {
        let block = found.block
        switch block.kind {
        case .event(let id, let title):
            let location = EventOccurrence.location(of: id)
            return .init(
                kind: .event, title: title, start: block.range.start, end: block.range.end, overlapStart: found.overlap.start,
                overlapEnd: found.overlap.end, calendarID: location?.calendarID, objectName: location?.objectName)
        case .prayer(let prayer):
            return .init(
                kind: .prayer, title: prayer.englishName, start: block.range.start, end: block.range.end, overlapStart: found.overlap.start,
                overlapEnd: found.overlap.end, prayer: prayer.rawValue)
        case .routine(let id, let name):
            let location = EventOccurrence.location(of: id)
            return .init(
                kind: .routine, title: name, start: block.range.start, end: block.range.end, overlapStart: found.overlap.start,
                overlapEnd: found.overlap.end, calendarID: location?.calendarID, objectName: location?.objectName)
        case .plannedTask(let id, let title):
            let location = EventOccurrence.location(of: id)
            return .init(
                kind: .task, title: title, start: block.range.start, end: block.range.end, overlapStart: found.overlap.start,
                overlapEnd: found.overlap.end, calendarID: location?.calendarID, objectName: location?.objectName)
        }
    }
}
