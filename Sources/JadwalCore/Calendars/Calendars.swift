import Foundation

/// A person's calendars as collections: made, changed and removed by one set of rules, whichever
/// front door asks (the JSON API, the web app, CalDAV's MKCALENDAR and DELETE).
public struct Calendars: Sendable {
    let store: StoreAccess<any CalendarWriteStore & CalendarShareStore & CalendarViewStore>
    let clock: Clock
    let random: RandomSource

    public init(store: any Store, clock: Clock, random: RandomSource) {
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
        self.random = random
    }

    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// The slug (the URL segment) is not one a calendar can have.
        case invalidSlug
        /// The component list is empty.
        case noComponents
        case invalidProperty(CalendarPropertiesChange.Problem)
        /// The person already has a calendar there.
        case slugTaken(String)
        /// The prayer-times calendar follows the prayer settings; it cannot be removed.
        case computed

        public var description: String {
            switch self {
            case .invalidSlug:
                "a calendar's slug must be 1 to 128 ASCII letters, digits, '-', '_', '.' or '@', not starting with '.' and not '\(CalendarSlug.prayerTimes)'"
            case .noComponents: "a calendar must take at least one of VEVENT, VTODO or VJOURNAL"
            case .invalidProperty(let problem): problem.description
            case .slugTaken(let slug): "you already have a calendar at '\(slug)'"
            case .computed: "the prayer-times calendar disappears when you clear your prayer settings; it cannot be deleted"
            }
        }
    }

    /// What a new calendar should be; anything not given takes the default.
    public struct Draft: Sendable {
        /// Its URL segment; made from the display name when nil.
        public var slug: String?
        public var properties: CalendarPropertiesChange
        /// What it takes; every kind when nil (RFC 4791 §5.2.3: a collection without
        /// `supported-calendar-component-set` accepts any).
        public var components: Set<ComponentKind>?

        public init(slug: String? = nil, properties: CalendarPropertiesChange = CalendarPropertiesChange(), components: Set<ComponentKind>? = nil) {
            self.slug = slug
            self.properties = properties
            self.components = components
        }
    }

    public static let defaultComponents: Set<ComponentKind> = [.event, .todo, .journal]

    // MARK: Reading

    /// The account's calendars in their display order.
    public func all(accountID: UUID) async throws -> [CalendarCollection] {
        try await store.read { tx in try await tx.calendars(accountID: accountID) }
    }

    /// The calendar if it is the account's; nil for another's, exactly like one that does not exist.
    public func own(id: UUID, accountID: UUID) async throws -> CalendarCollection? {
        guard let calendar = try await store.read({ tx in try await tx.calendar(id: id) }), calendar.accountID == accountID else { return nil }
        return calendar
    }

    /// The account's calendar at `slug`, if it has one.
    public func own(slug: String, accountID: UUID) async throws -> CalendarCollection? {
        try await store.read { tx in try await tx.calendar(accountID: accountID, slug: slug) }
    }

    /// An object of one of the account's calendars, with its calendar.
    public func object(named name: String, calendarID: UUID, accountID: UUID) async throws -> (CalendarCollection, CalendarObject)? {
        try await store.read { tx in
            guard let calendar = try await tx.calendar(id: calendarID), calendar.accountID == accountID,
                  let object = try await tx.calendarObject(calendarID: calendarID, name: name)
            else { return nil }
            return (calendar, object)
        }
    }

    /// An object of a calendar the caller already holds (checked as the person's).
    public func object(named name: String, in calendar: CalendarCollection) async throws -> CalendarObject? {
        try await store.read { tx in try await tx.calendarObject(calendarID: calendar.id, name: name) }
    }

    /// Saves a change to a calendar's name, description, colour, order or zone; the revision moves (getctag).
    public func update(_ calendar: CalendarCollection, with change: CalendarPropertiesChange) async throws -> CalendarCollection {
        let next: CalendarCollection
        do {
            next = try change.applied(to: calendar)
        } catch {
            throw Problem.invalidProperty(error)
        }
        return try await store.transaction { tx in try await tx.updateCalendarProperties(next) }
    }

    /// The calendar a draft describes, checked but not stored: its zone is the account's unless
    /// the draft names one, its name the slug unless given.
    public func validated(_ draft: Draft, account: Account) throws(Problem) -> CalendarCollection {
        let slug = draft.slug ?? CalendarSlug.make(from: draft.properties.displayName ?? "", random: random)
        guard CalendarSlug.isValid(slug) else { throw .invalidSlug }
        let components = draft.components ?? Self.defaultComponents
        guard !components.isEmpty else { throw .noComponents }
        let blank = CalendarCollection(
            id: random.uuid(), accountID: account.id, slug: slug, displayName: slug, timeZone: account.timeZone, components: components, createdAt: clock.now)
        do {
            return try draft.properties.applied(to: blank)
        } catch {
            throw .invalidProperty(error)
        }
    }

    /// Stores a new calendar (from `validated(_:account:)`, possibly adjusted by the caller),
    /// unless the person has one at its slug already or has as many as `AccountQuota` allows.
    public func create(_ calendar: CalendarCollection) async throws -> CalendarCollection {
        let quota = store.accountQuota
        let created = try await store.transaction { tx -> Bool in
            guard try await tx.calendar(accountID: calendar.accountID, slug: calendar.slug) == nil else { return false }
            try await quota.checkNewCalendar(for: calendar.accountID, tx: tx)
            try await tx.insertCalendar(calendar)
            return true
        }
        guard created else { throw Problem.slugTaken(calendar.slug) }
        return calendar
    }

    /// Removes a calendar with its events. Their open conflicts retire (and events elsewhere that
    /// clashed with them are checked again), their queued reminders are cancelled, and their
    /// meetings' attendees or organizers are told, in the same transaction: nothing of the
    /// calendar is left to fire or to list.
    public func delete(_ calendar: CalendarCollection) async throws {
        guard !calendar.isComputed else { throw Problem.computed }
        let now = clock.now
        try await store.transaction { tx in
            var recheck: [ConflictCheck.Request] = []
            for var conflict in try await tx.conflicts(accountID: calendar.accountID, includeResolved: false) {
                if conflict.event.calendarID == calendar.id {
                    conflict.status = .obsolete
                    conflict.resolvedAt = now
                    try await tx.updateConflict(conflict)
                } else if conflict.overlaps.contains(where: { $0.calendarID == calendar.id }) {
                    let request = ConflictCheck.Request(
                        accountID: calendar.accountID, calendarID: conflict.event.calendarID, objectName: conflict.event.objectName,
                        source: conflict.source, recheckOthers: false)
                    if !recheck.contains(request) { recheck.append(request) }
                }
            }
            let scheduling = ImplicitScheduling.applies(to: calendar, source: .api) ? ImplicitScheduling(writes: CalendarWrites(store: store.store, clock: clock, random: random)) : nil
            for object in try await tx.calendarObjects(calendarID: calendar.id) {
                // Its meetings go as if each were deleted: attendees are told they are cancelled,
                // organizers that the person will not come.
                try await scheduling?.removed(object, from: calendar, tx: tx)
                guard ReminderQueue.mayHoldAlarms(object.icalendar) else { continue }
                let subject = ReminderQueue.Target(accountID: calendar.accountID, calendarID: calendar.id, objectName: object.name).subject
                try await tx.cancelQueuedJobs(kind: ReminderQueue.scheduleJob, subject: subject)
                try await tx.cancelQueuedJobs(kind: ReminderQueue.fireJob, subject: subject)
            }
            try await tx.deleteCalendar(id: calendar.id)
            // Checked once the calendar is gone, so its events no longer count as busy.
            for request in recheck { try await tx.enqueue(request.job(now: now, random: random)) }
        }
    }
}
