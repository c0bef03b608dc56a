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

        /// The job that checks this write, to enqueue in the write's transaction.
        public func job(now: Date) -> Job {
            let payload = (try? JSONEncoder().encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
            return Job.new(ConflictCheck.jobKind, payload: payload, maxAttempts: 5, runAt: now, now: now)
        }
    }

    /// How far ahead a recurring event's instances are checked, and how many of them at most.
    public static let horizon: TimeInterval = 90 * 86_400
    public static let instanceLimit = 100

    let store: any Store
    let clock: Clock
    let busyTime: AccountBusyTime

    public init(store: any Store, clock: Clock, busyTime: AccountBusyTime = AccountBusyTime()) {
        self.store = store
        self.clock = clock
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
    }

    /// Checks the object the request names and records what it finds: new conflicts open,
    /// the same ones kept as they were (an acknowledged one is not raised again), the others retired.
    public func run(_ request: Request) async throws -> Outcome {
        let now = clock.now
        let outcome = try await store.transaction { tx in
            try await check(request, now: now, tx: tx)
        }
        return outcome
    }

    func check(_ request: Request, now: Date, tx: any StoreTransaction) async throws -> Outcome {
        var outcome = Outcome()
        let previous = try await tx.conflicts(calendarID: request.calendarID, objectName: request.objectName)
        let found = try await conflicts(request, now: now, tx: tx)
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
                if conflict.notify { try await notify(conflict, now: now, tx: tx) }
            }
        }
        for conflict in previous where conflict.status == .open && !kept.contains(conflict.id) {
            var retired = conflict
            retired.status = .obsolete
            retired.resolvedAt = now
            try await tx.updateConflict(retired)
            outcome.retired += 1
        }
        // Conflicts of other events that named this one may have ended with this change.
        guard request.recheckOthers else { return outcome }
        for other in try await tx.conflicts(accountID: request.accountID, includeResolved: false)
        where other.overlaps.contains(where: { $0.calendarID == request.calendarID && $0.objectName == request.objectName }) {
            let again = Request(
                accountID: request.accountID, calendarID: other.event.calendarID, objectName: other.event.objectName, source: other.source,
                recheckOthers: false)
            guard !outcome.recheck.contains(again) else { continue }
            outcome.recheck.append(again)
            try await tx.enqueue(again.job(now: now))
        }
        return outcome
    }

    /// Tells the person about a new conflict they asked to hear about (in the check's transaction,
    /// so a conflict and its notice commit together).
    func notify(_ conflict: EventConflict, now: Date, tx: any StoreTransaction) async throws {
        guard let account = try await tx.account(id: conflict.accountID) else { return }
        let text = NotificationText(account: account).conflict(
            title: conflict.event.title ?? "", start: conflict.event.start, overlapping: conflict.overlaps.map(\.title))
        let draft = NotificationDraft(
            kind: .conflict, reasonKey: "conflict:\(conflict.id.uuidString.lowercased())", title: text.title, body: text.body,
            links: [
                "conflictId": conflict.id.uuidString.lowercased(), "calendarId": conflict.event.calendarID.uuidString.lowercased(),
                "objectName": conflict.event.objectName,
            ],
            urgent: false)
        try await NotificationDispatch.post(draft, account: account, now: now, tx: tx)
    }

    /// The conflicts the object has now (none when it is gone or takes no time).
    func conflicts(_ request: Request, now: Date, tx: any StoreTransaction) async throws -> [EventConflict] {
        guard let account = try await tx.account(id: request.accountID),
              let calendar = try await tx.calendar(id: request.calendarID), calendar.accountID == account.id,
              let object = try await tx.calendarObject(calendarID: request.calendarID, name: request.objectName),
              let ahead = try? TimeRange(start: now, end: now.addingTimeInterval(Self.horizon))
        else { return [] }
        let settings = try await tx.conflictSettings(accountID: account.id)
        let policy = settings.busyPolicy(calendarID: calendar.id)
        let occurrences = busyTime.occurrences(of: object, calendar: calendar, accountZone: account.timeZone, in: ahead, limit: Self.instanceLimit)
            .filter { policy.isBusy($0.traits) }
        guard let first = occurrences.map(\.range.start).min(), let last = occurrences.map(\.range.end).max(),
              let window = try? TimeRange(start: first, end: last)
        else { return [] }
        let busy = BusyTime(try await busyTime.blocks(account: account, in: window, settings: settings, tx: tx), window: window)
        var conflicts: [EventConflict] = []
        var writtenLater: [String: Bool] = [:]
        for occurrence in occurrences {
            let block = BusyBlock(occurrence.range, AccountBusyTime.kind(of: occurrence, in: calendar))
            guard let conflict = busy.conflict(for: block) else { continue }
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
                    let other = try await tx.calendarObject(calendarID: otherCalendar, name: otherName)
                    writtenLater[key] = other.map { Self.isNewer($0, than: object) } ?? false
                }
                if writtenLater[key] == false { overlaps.append(overlap) }
            }
            guard !overlaps.isEmpty else { continue }
            conflicts.append(EventConflict(
                id: UUID(), accountID: account.id,
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
