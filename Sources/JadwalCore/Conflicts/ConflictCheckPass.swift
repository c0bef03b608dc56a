import Foundation
import Scheduling

/// Coalesced checks: a bulk write (a phone's first sync, a big import, a feed's first refresh)
/// queues one check per event, and each check alone reads and expands the person's busy time.
/// A pass takes every check of the account queued behind the one a worker holds and runs them
/// together: busy time is read and expanded once for the whole batch, and the batch's instances
/// are swept against it in one go.
///
/// It finds what the checks would find one by one: each object's conflicts are computed against
/// the same state and recorded the same way (`record`), prayer blocks are kept to the days each
/// check alone would have read, and when one read cannot stand in for the narrower ones (an
/// object with more instances than are expanded) every check runs alone. The checks taken are
/// marked done in the pass's transaction, so they commit with what they found or not at all;
/// checks queued while a pass runs stay queued for the next one.
extension ConflictCheck {
    /// How many queued checks one pass takes at most: bounds one transaction's length.
    public static let passLimit = 5000

    /// Runs `request`'s check together with the account's other queued, due checks.
    public func runCoalesced(_ request: Request) async throws -> Outcome {
        let now = clock.now
        do {
            return try await store.transaction { tx in
                let taken = try await tx.takeQueuedJobs(
                    kind: Self.jobKind, subject: Request.subject(accountID: request.accountID), now: now, limit: Self.passLimit - 1)
                var requests = [request]
                for job in taken {
                    if let more = try? JSONDecoder().decode(Request.self, from: Data(job.payload.utf8)), more.accountID == request.accountID {
                        requests.append(more)
                    } else {
                        // As the job alone would have ended: no retry reads it better.
                        try await tx.failJob(id: job.id, error: "conflict check payload cannot be read", retryAt: nil, at: now)
                    }
                }
                let outcome = try await pass(requests, now: now, tx: tx)
                try await replanIfProposalsBroken(by: requests, now: now, tx: tx)
                return outcome
            }
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            // The pass rolled back and the checks it took are queued again: this one runs alone,
            // so one check that cannot run never holds back the others.
            return try await run(request)
        }
    }

    /// The checks of `requests` (one account's) in one transaction, each object checked once.
    func pass(_ requests: [Request], now: Date, tx: any NoticeStore & AccountStore & CalendarShareStore) async throws -> Outcome {
        // A second check of the same object sees what the first recorded and adds nothing, so
        // the first request's source stands; it rechecks others if any of them asked to.
        var batch: [Request] = []
        var position: [ObjectKey: Int] = [:]
        for request in requests {
            if let index = position[ObjectKey(request)] {
                batch[index].recheckOthers = batch[index].recheckOthers || request.recheckOthers
            } else {
                position[ObjectKey(request)] = batch.count
                batch.append(request)
            }
        }
        guard batch.count > 1, let account = try await tx.account(id: batch[0].accountID),
              let ahead = try? TimeRange(start: now, end: now.addingTimeInterval(Self.horizon))
        else { return try await checkEach(batch, now: now, tx: tx) }

        let settings = try await tx.conflictSettings(accountID: account.id)
        let calendars = Dictionary(try await Calendars.visible(accountID: account.id, tx: tx).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        // The written objects, one read per calendar.
        var objects: [ObjectKey: CalendarObject] = [:]
        for calendarID in Set(batch.map(\.calendarID)) where calendars[calendarID] != nil {
            let names = batch.filter { $0.calendarID == calendarID }.map(\.objectName)
            for object in try await tx.calendarObjects(calendarID: calendarID, names: names) { objects[ObjectKey(calendarID, object.name)] = object }
        }
        var written: [Written?] = []
        for request in batch {
            // Gone, or subscribed (its conflicts are the other side's): its open conflicts retire.
            guard let calendar = calendars[request.calendarID], !calendar.holdsOthersEvents, let object = objects[ObjectKey(request)] else {
                written.append(nil)
                continue
            }
            written.append(Written(
                request: request, calendar: calendar, object: object,
                occurrences: busyOccurrences(of: object, calendar: calendar, account: account, settings: settings, ahead: ahead)))
        }

        let subscribed = Set(calendars.values.filter(\.holdsOthersEvents).map(\.id))
        var found = [[EventConflict]](repeating: [], count: batch.count)
        let windows = written.compactMap { $0?.window }
        if let first = windows.map(\.start).min(), let last = windows.map(\.end).max(), let window = try? TimeRange(start: first, end: last) {
            let snapshot = try await busyTime.snapshot(account: account, in: window, settings: settings, tx: tx)
            guard !snapshot.truncated else { return try await checkEach(batch, now: now, tx: tx) }
            let busy = BusyTime(snapshot.blocks, window: window)
            let swept = busy.conflicts(for: written.flatMap { item in item.map { item in item.occurrences.map(item.block) } ?? [] })
            var offset = 0
            for (index, item) in written.enumerated() {
                guard let item, let own = item.window else { continue }
                let mine = swept[offset..<(offset + item.occurrences.count)].map { snapshot.alone(own, $0) }
                offset += item.occurrences.count
                found[index] = try await eventConflicts(
                    item, found: mine, account: account, settings: settings, now: now, subscribed: subscribed
                ) { calendarID, name in
                    snapshot.objects[EventOccurrence.reference(calendarID: calendarID, objectName: name)]
                }
            }
        }

        var outcome = Outcome()
        // A shared calendar's event is recorded by its owner's checks only (see `check`), also
        // when the share ended before this check ran.
        var othersCalendars: Set<UUID> = []
        for calendarID in Set(batch.map(\.calendarID)) where calendars[calendarID]?.sharedWithMe != nil || calendars[calendarID] == nil {
            var owner = calendars[calendarID]?.sharedWithMe?.ownerID
            if owner == nil { owner = try await tx.calendar(id: calendarID)?.accountID }
            if let owner, owner != account.id { othersCalendars.insert(calendarID) }
        }
        // What the batch's objects had recorded, one read per calendar.
        var recorded: [ObjectKey: [EventConflict]] = [:]
        for (calendarID, requests) in Dictionary(grouping: batch.filter { !othersCalendars.contains($0.calendarID) }, by: \.calendarID) {
            for conflict in try await tx.conflicts(calendarID: calendarID, objectNames: requests.map(\.objectName)) {
                recorded[ObjectKey(conflict.event.calendarID, conflict.event.objectName), default: []].append(conflict)
            }
        }
        var recipient: NotificationDispatch.Recipient?
        for (index, request) in batch.enumerated() where !othersCalendars.contains(request.calendarID) {
            try await record(found[index], of: request, recorded: recorded[ObjectKey(request)] ?? [], now: now, tx: tx,
                             into: &outcome, notifying: &recipient)
        }
        try await recheckOthers(naming: batch.filter(\.recheckOthers), skipping: Set(batch.map(ObjectKey.init)), now: now, tx: tx, into: &outcome)
        try await checkOverlapped(by: batch.filter(\.recheckOthers), skipping: Set(batch.map(ObjectKey.init)), now: now, tx: tx, into: &outcome)
        try await checkSharees(of: batch.filter(\.recheckOthers), now: now, tx: tx)
        return outcome
    }

    /// Each check on its own, in this transaction.
    func checkEach(_ batch: [Request], now: Date, tx: any NoticeStore & AccountStore & CalendarShareStore) async throws -> Outcome {
        var outcome = Outcome()
        for request in batch { outcome.add(try await check(request, now: now, tx: tx)) }
        return outcome
    }
}

extension AccountBusyTime.Snapshot {
    /// `conflict` as a check alone would see it over `window`: that check reads prayer blocks only
    /// for the local days its window touches, so one of a neighbouring day (an Isha running past
    /// midnight) is not counted.
    func alone(_ window: TimeRange, _ conflict: Conflict?) -> Conflict? {
        guard let conflict, conflict.overlaps.contains(where: \.isPrayer), let settings = prayerSettings,
              let days = AccountBusyTime.prayerDays(settings: settings, of: window)
        else { return conflict }
        let overlaps = conflict.overlaps.filter { overlap in
            !overlap.isPrayer || prayerDays[overlap.block.range.start].map(days.contains) == true
        }
        return overlaps.isEmpty ? nil : Conflict(block: conflict.block, overlaps: overlaps)
    }
}
