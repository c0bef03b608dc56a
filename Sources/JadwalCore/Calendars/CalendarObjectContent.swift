import Foundation
import ICalendar

/// A calendar object resource as a client sent it, checked against RFC 4791 §4.1 and indexed:
/// one VCALENDAR, components of one type sharing one UID (plus VTIMEZONEs), no METHOD.
public struct CalendarObjectContent: Sendable {
    public let text: String
    public let calendar: Component
    public let uid: String
    public let component: ComponentKind
    /// Widened by 14 hours each side: all-day and floating times have no zone until a reader
    /// gives them one, so the index must not cut them off.
    public let firstStart: Date?
    public let lastEnd: Date?
    public let etag: String

    public static let maxBytes = 1 << 20
    static let floatingMargin: Int64 = 14 * 3600

    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case tooLarge(limit: Int)
        case invalid(String)
        case noComponent
        case missingUID
        case mixedUIDs
        case mixedComponents
        case hasMethod

        public var description: String {
            switch self {
            case .tooLarge(let limit): "the calendar object is larger than \(limit) bytes"
            case .invalid(let reason): "the iCalendar data is not valid: \(reason)"
            case .noComponent: "the calendar holds no VEVENT, VTODO or VJOURNAL"
            case .missingUID: "every component needs a UID"
            case .mixedUIDs: "one calendar object holds components with different UIDs; send one object per UID"
            case .mixedComponents: "one calendar object mixes component types (e.g. VEVENT and VTODO)"
            case .hasMethod: "a stored calendar object must not have a METHOD property (that is for scheduling messages)"
            }
        }
    }

    public init(text: String) throws(Problem) {
        guard text.utf8.count <= Self.maxBytes else { throw .tooLarge(limit: Self.maxBytes) }
        let calendar: Component
        do {
            calendar = try ICalendarParser().parseCalendar(text)
        } catch {
            throw .invalid("\(error)")
        }
        guard calendar.first("METHOD") == nil else { throw .hasMethod }
        let items = calendar.components.filter { ComponentKind(rawValue: $0.name) != nil }
        guard let first = items.first, let kind = ComponentKind(rawValue: first.name) else { throw .noComponent }
        guard items.allSatisfy({ $0.name == first.name }) else { throw .mixedComponents }
        let uids = Set(items.map { $0.first("UID")?.value ?? "" })
        guard !uids.contains("") else { throw .missingUID }
        guard uids.count == 1, let uid = uids.first else { throw .mixedUIDs }
        let bounds: (start: Int64, end: Int64?)?
        do {
            bounds = try RecurrenceSet(uid: uid, components: items).bounds(resolver: TimeZoneResolver(calendar: calendar))
        } catch {
            throw .invalid("\(error)")
        }
        self.text = text
        self.calendar = calendar
        self.uid = uid
        component = kind
        firstStart = bounds.map { Date(timeIntervalSince1970: TimeInterval($0.start - Self.floatingMargin)) }
        lastEnd = bounds?.end.map { Date(timeIntervalSince1970: TimeInterval($0 + Self.floatingMargin)) }
        etag = "\"" + text.sha256Hex.prefix(32) + "\""
    }
}

/// The one write path for calendar objects — the JSON API and CalDAV PUT/DELETE/MOVE — with
/// the HTTP preconditions (If-Match / If-None-Match) and CalDAV's rules checked in the same
/// transaction as the write.
public struct CalendarWrites: Sendable {
    let store: StoreAccess<any CalendarWriteStore>
    let clock: Clock
    let random: RandomSource

    public init(store: any Store, clock: Clock, random: RandomSource) {
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
        self.random = random
    }

    public enum Refusal: Error, Sendable, Equatable {
        /// If-Match / If-None-Match did not hold.
        case preconditionFailed(currentETag: String?)
        /// Another object in the calendar already has this UID (CalDAV `no-uid-conflict`).
        case uidConflict(existingName: String)
        /// The calendar does not take this component type (`supported-calendar-component`).
        case unsupportedComponent(ComponentKind)
        case invalidName
        case notFound
        /// The calendar is filled by a subscription; only its refresh writes there.
        case readOnly
        /// The calendar was shared with the writer to read, not to change.
        case sharedReadOnly
        /// A meeting invites more people than the server delivers to in one write.
        case tooManyAttendees(limit: Int)
    }

    /// RFC 9110 §13.1.1: `*` holds when the resource exists; otherwise one of the listed ETags
    /// must equal the current one by strong comparison (a weak `W/` tag never matches).
    public static func ifMatch(_ header: String, holdsFor current: String?) -> Bool {
        guard let current else { return false }
        return header.split(separator: ",").contains { tag in
            let trimmed = tag.trimmingCharacters(in: .whitespaces)
            return trimmed == "*" || trimmed == current
        }
    }

    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 255 && name != "." && name != ".." && !name.contains("/")
            && !name.containsControlCharacters
    }

    /// Creates or replaces `name`. `ifMatch` is an ETag the current object must have;
    /// `ifNoneMatch` (`*`) means the object must not exist yet.
    public func put(
        _ content: CalendarObjectContent, name: String, in calendar: CalendarCollection, ifMatch: String? = nil, ifNoneMatch: Bool = false,
        ifScheduleTag: ScheduleTagCondition? = nil, source: WriteSource
    ) async throws -> (object: CalendarObject, created: Bool) {
        guard Self.isValidName(name) else { throw Refusal.invalidName }
        guard calendar.components.contains(content.component) else { throw Refusal.unsupportedComponent(content.component) }
        return try await store.transaction { tx in
            try await put(
                content, name: name, in: calendar, ifMatch: ifMatch, ifNoneMatch: ifNoneMatch, ifScheduleTag: ifScheduleTag, source: source,
                transaction: tx)
        }
    }

    /// The same write inside the caller's transaction, for a change that writes other data with
    /// it (a chat's event and the conversation that caused it commit together).
    public func put(
        _ content: CalendarObjectContent, name: String, in calendar: CalendarCollection, ifMatch: String? = nil, ifNoneMatch: Bool = false,
        ifScheduleTag: ScheduleTagCondition? = nil, source: WriteSource, transaction tx: any CalendarWriteStore
    ) async throws -> (object: CalendarObject, created: Bool) {
        guard !calendar.isReadOnlyShare else { throw Refusal.sharedReadOnly }
        if calendar.isSubscribed {
            // A subscription's to-do may be marked done (the mark is the person's, kept across
            // refreshes); nothing else in a subscribed calendar is theirs to change.
            guard content.component == .todo, let current = try await tx.calendarObject(calendarID: calendar.id, name: name),
                  let parsed = try? ICalendarParser().parseCalendar(current.icalendar),
                  FeedTasks.onlyCompletionChanged(from: parsed, to: content.calendar)
            else { throw Refusal.readOnly }
        }
        return try await write(
            content, name: name, in: calendar, ifMatch: ifMatch, ifNoneMatch: ifNoneMatch, ifScheduleTag: ifScheduleTag, source: source, transaction: tx)
    }

    /// The write itself, for every writer including a subscription's refresh (which alone may
    /// write into a subscribed calendar).
    func write(
        _ content: CalendarObjectContent, name: String, in calendar: CalendarCollection, ifMatch: String? = nil, ifNoneMatch: Bool = false,
        ifScheduleTag: ScheduleTagCondition? = nil, source: WriteSource, transaction tx: any CalendarWriteStore
    ) async throws -> (object: CalendarObject, created: Bool) {
        guard Self.isValidName(name) else { throw Refusal.invalidName }
        guard calendar.components.contains(content.component) else { throw Refusal.unsupportedComponent(content.component) }
        // One query answers the checks and reads the usage the quota check needs; a write is a
        // handful of statements, so each counts. Counted against the calendar's owner, whoever
        // writes (a sharee writes into the owner's space).
        let (found, usage) = try await tx.calendarObjects(calendarID: calendar.id, name: name, orUID: content.uid, usageOf: calendar.accountID)
        let existing = found.first { $0.name == name }
        if ifNoneMatch, existing != nil { throw Refusal.preconditionFailed(currentETag: existing?.etag) }
        if let ifMatch, !Self.ifMatch(ifMatch, holdsFor: existing?.etag) {
            throw Refusal.preconditionFailed(currentETag: existing?.etag)
        }
        if let ifScheduleTag, !ifScheduleTag.holds(for: existing) { throw Refusal.preconditionFailed(currentETag: existing?.etag) }
        if let sameUID = found.first(where: { $0.uid == content.uid && $0.name != name }) {
            throw Refusal.uidConflict(existingName: sameUID.name)
        }
        var content = content
        if ImplicitScheduling.applies(to: calendar, source: source) {
            content = try await ImplicitScheduling(writes: self).written(content, replacing: existing, in: calendar, tx: tx)
        }
        try store.accountQuota.check(
            adding: existing == nil ? 1 : 0, bytes: Int64(content.text.utf8.count) - Int64(existing?.icalendar.utf8.count ?? 0), to: usage)
        let object = CalendarObject(
            calendarID: calendar.id, name: name, uid: content.uid, component: content.component, icalendar: content.text,
            etag: content.etag, firstStart: content.firstStart, lastEnd: content.lastEnd, updatedAt: clock.now
        )
        // The jobs the write queues go in first and the object last. Writing it bumps the
        // calendar's revision, which on PostgreSQL locks the calendar's row until commit, and
        // every other write to that calendar waits on the lock: the fewer statements after it,
        // the shorter the wait (a phone's first sync writes over 8 connections into one
        // calendar). The jobs read the object only after the transaction has committed.
        if content.component == .event {
            try await checkConflicts(calendar: calendar, name: name, source: source, tx: tx)
        }
        if calendar.isMirrored, source != .remote {
            try await CalDAVAccounts.queueWriteBack(calendarID: calendar.id, name: name, now: clock.now, random: random, tx: tx)
        }
        if ReminderQueue.mayHoldAlarms(content.text) || ReminderQueue.mayHoldAlarms(existing?.icalendar) {
            try await scheduleReminders(calendar: calendar, name: name, tx: tx)
        }
        try await readSessionsIfNeeded(calendar: calendar, source: source, tx: tx)
        let stored = try await tx.putCalendarObject(object)
        return (stored, existing == nil)
    }

    /// Queues the rescheduling of an object's reminders in the write's transaction (its queued
    /// firings are replaced by the job, so an edit never leaves a stale one behind).
    func scheduleReminders(calendar: CalendarCollection, name: String, tx: any JobStore) async throws {
        let target = ReminderQueue.Target(accountID: calendar.accountID, calendarID: calendar.id, objectName: name)
        try await tx.cancelQueuedJobs(kind: ReminderQueue.scheduleJob, subject: target.subject)
        try await tx.enqueue(target.scheduleJob(now: clock.now, random: random))
    }

    /// Queues the conflict check of a written or removed event in the write's transaction: it
    /// runs whatever happens to this process, and the writer does not wait for it.
    func checkConflicts(calendar: CalendarCollection, name: String, source: WriteSource, tx: any JobStore) async throws {
        let request = ConflictCheck.Request(accountID: calendar.accountID, calendarID: calendar.id, objectName: name, source: source)
        try await tx.enqueue(request.job(now: clock.now, random: random))
    }

    /// Moves an object to another name, in the same calendar or another of the account's (WebDAV
    /// MOVE). Both changes are logged, so each calendar's sync reports its side. `overwrite`
    /// false refuses to replace an object already at the destination.
    public func move(
        name: String, from source: CalendarCollection, to destination: CalendarCollection, as newName: String,
        overwrite: Bool, ifMatch: String? = nil, ifScheduleTag: ScheduleTagCondition? = nil
    ) async throws -> (object: CalendarObject, created: Bool) {
        guard Self.isValidName(newName) else { throw Refusal.invalidName }
        guard !source.isSubscribed, !destination.isSubscribed else { throw Refusal.readOnly }
        guard !source.isReadOnlyShare, !destination.isReadOnlyShare else { throw Refusal.sharedReadOnly }
        let now = clock.now
        return try await store.transaction { tx in
            guard let moving = try await tx.calendarObject(calendarID: source.id, name: name) else { throw Refusal.notFound }
            if let ifMatch, !Self.ifMatch(ifMatch, holdsFor: moving.etag) { throw Refusal.preconditionFailed(currentETag: moving.etag) }
            if let ifScheduleTag, !ifScheduleTag.holds(for: moving) { throw Refusal.preconditionFailed(currentETag: moving.etag) }
            guard destination.components.contains(moving.component) else { throw Refusal.unsupportedComponent(moving.component) }
            let replaced = try await tx.calendarObject(calendarID: destination.id, name: newName)
            if replaced != nil, !overwrite { throw Refusal.preconditionFailed(currentETag: replaced?.etag) }
            if let sameUID = try await tx.calendarObject(calendarID: destination.id, uid: moving.uid),
               sameUID.name != newName, !(destination.id == source.id && sameUID.name == name) {
                throw Refusal.uidConflict(existingName: sameUID.name)
            }
            _ = try await tx.deleteCalendarObject(calendarID: source.id, name: name)
            var moved = moving
            moved.calendarID = destination.id
            moved.name = newName
            moved.updatedAt = now
            let stored = try await tx.putCalendarObject(moved)
            // A mirrored side writes back: the old name's removal, the new name's object.
            if source.isMirrored { try await CalDAVAccounts.queueWriteBack(calendarID: source.id, name: name, now: now, random: random, tx: tx) }
            if destination.isMirrored { try await CalDAVAccounts.queueWriteBack(calendarID: destination.id, name: newName, now: now, random: random, tx: tx) }
            if moving.component == .event {
                // The old place's conflicts retire; the new place may be busy in another way.
                try await checkConflicts(calendar: source, name: name, source: .caldav, tx: tx)
                try await checkConflicts(calendar: destination, name: newName, source: .caldav, tx: tx)
            }
            if ReminderQueue.mayHoldAlarms(moving.icalendar) || ReminderQueue.mayHoldAlarms(replaced?.icalendar) {
                try await tx.cancelQueuedJobs(kind: ReminderQueue.fireJob, subject: ReminderQueue.Target(
                    accountID: source.accountID, calendarID: source.id, objectName: name).subject)
                try await scheduleReminders(calendar: destination, name: newName, tx: tx)
            }
            return (stored, replaced == nil)
        }
    }

    public func delete(
        name: String, in calendar: CalendarCollection, ifMatch: String? = nil, ifScheduleTag: ScheduleTagCondition? = nil, source: WriteSource
    ) async throws {
        try await store.transaction { tx in
            try await delete(name: name, in: calendar, ifMatch: ifMatch, ifScheduleTag: ifScheduleTag, source: source, transaction: tx)
        }
    }

    /// The same removal inside the caller's transaction.
    public func delete(
        name: String, in calendar: CalendarCollection, ifMatch: String? = nil, ifScheduleTag: ScheduleTagCondition? = nil, source: WriteSource,
        transaction tx: any CalendarWriteStore
    ) async throws {
        guard !calendar.isSubscribed else { throw Refusal.readOnly }
        guard !calendar.isReadOnlyShare else { throw Refusal.sharedReadOnly }
        try await remove(name: name, in: calendar, ifMatch: ifMatch, ifScheduleTag: ifScheduleTag, source: source, transaction: tx)
    }

    /// The removal itself, for every remover including a subscription's refresh.
    func remove(
        name: String, in calendar: CalendarCollection, ifMatch: String? = nil, ifScheduleTag: ScheduleTagCondition? = nil, source: WriteSource,
        transaction tx: any CalendarWriteStore
    ) async throws {
        guard let existing = try await tx.calendarObject(calendarID: calendar.id, name: name) else { throw Refusal.notFound }
        if let ifMatch, !Self.ifMatch(ifMatch, holdsFor: existing.etag) { throw Refusal.preconditionFailed(currentETag: existing.etag) }
        if let ifScheduleTag, !ifScheduleTag.holds(for: existing) { throw Refusal.preconditionFailed(currentETag: existing.etag) }
        if ImplicitScheduling.applies(to: calendar, source: source) {
            try await ImplicitScheduling(writes: self).removed(existing, from: calendar, tx: tx)
        }
        _ = try await tx.deleteCalendarObject(calendarID: calendar.id, name: name)
        if existing.component == .event {
            try await checkConflicts(calendar: calendar, name: name, source: source, tx: tx)
        }
        if calendar.isMirrored, source != .remote {
            try await CalDAVAccounts.queueWriteBack(calendarID: calendar.id, name: name, now: clock.now, random: random, tx: tx)
        }
        if ReminderQueue.mayHoldAlarms(existing.icalendar) {
            // Gone now: its firings are cancelled here, not by a later job.
            try await tx.cancelQueuedJobs(kind: ReminderQueue.fireJob, subject: ReminderQueue.Target(
                accountID: calendar.accountID, calendarID: calendar.id, objectName: name).subject)
        }
        try await readSessionsIfNeeded(calendar: calendar, source: source, tx: tx)
    }

    /// A change to the Goals calendar by anyone but the plan itself (a phone marking a session
    /// done, moving or deleting it) is read by the plan's job, after this commits.
    func readSessionsIfNeeded(calendar: CalendarCollection, source: WriteSource, tx: any JobStore) async throws {
        guard calendar.slug == DefaultCalendars.goalsSlug, source != .goalPlan else { return }
        try await TwoWeekPlanning.queueSessionRead(accountID: calendar.accountID, now: clock.now, random: random, tx: tx)
    }
}
