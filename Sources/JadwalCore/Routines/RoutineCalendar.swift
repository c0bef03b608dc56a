import Foundation
import ICalendar
import Scheduling

/// A routine as it is stored: its fields and the event that holds them.
public struct StoredRoutine: Sendable, Hashable {
    public var fields: RoutineEvent.Fields
    /// The routine's id in the API: the object's name without `.ics`.
    public var id: String
    public var objectName: String
    public var uid: String
    public var etag: String
}

/// An event in the Routine calendar that is not a routine (any more): shown, never dropped.
public struct RoutineCalendarEvent: Sendable, Hashable {
    public var objectName: String
    public var title: String?
    public var reason: String
}

/// The account's daily routines: the recurring events of its Routine calendar. Every write goes
/// through `CalendarWrites` (source `routine`), so phones see a change on their next sync and the
/// routine's conflicts are checked like any event's.
public struct RoutineCalendar: Sendable {
    public enum Refusal: Error, Sendable, Equatable {
        case notFound(id: String)
        case invalid(RoutineDraft.Problem)
        /// The stored event is no routine any more (a phone made it monthly, say).
        case notARoutine(id: String, reason: String)
    }

    let store: StoreAccess<any CalendarWriteStore>
    let clock: Clock
    let writes: CalendarWrites
    let random: RandomSource

    public init(store: any Store, clock: Clock, random: RandomSource) {
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
        self.random = random
        writes = CalendarWrites(store: store, clock: clock, random: random)
    }

    /// The routines, by start time, and the calendar's events that are not routines.
    public func list(account: Account) async throws -> (routines: [StoredRoutine], others: [RoutineCalendarEvent]) {
        try await store.read { tx in try await Self.list(account: account, tx: tx) }
    }

    static func list(account: Account, tx: any CalendarStore) async throws -> (routines: [StoredRoutine], others: [RoutineCalendarEvent]) {
        guard let calendar = try await tx.calendar(accountID: account.id, slug: DefaultCalendars.routinesSlug) else { return ([], []) }
        var routines: [StoredRoutine] = []
        var others: [RoutineCalendarEvent] = []
        for object in try await tx.calendarObjects(calendarID: calendar.id) where object.component == .event {
            let parsed = try? ICalendarParser().parseCalendar(object.icalendar)
            switch read(object, parsed: parsed, account: account) {
            case .success(let routine): routines.append(routine)
            case .failure(let problem):
                let title = parsed?.components.first { $0.name == "VEVENT" }?.first("SUMMARY")?.text
                others.append(RoutineCalendarEvent(objectName: object.name, title: title, reason: problem.reason))
            }
        }
        routines.sort { ($0.fields.routine.start, $0.fields.routine.name, $0.id) < ($1.fields.routine.start, $1.fields.routine.name, $1.id) }
        return (routines, others)
    }

    static func read(_ object: CalendarObject, account: Account) -> Result<StoredRoutine, NotARoutine> {
        read(object, parsed: try? ICalendarParser().parseCalendar(object.icalendar), account: account)
    }

    /// The same with the object's text already parsed (nil: it does not parse).
    static func read(_ object: CalendarObject, parsed: Component?, account: Account) -> Result<StoredRoutine, NotARoutine> {
        guard let parsed else { return .failure(NotARoutine(reason: "it cannot be read")) }
        let id = id(of: object.name)
        return RoutineEvent.read(parsed, id: id, defaultZone: account.timeZone).map { fields in
            StoredRoutine(fields: fields, id: id, objectName: object.name, uid: object.uid, etag: object.etag)
        }
    }

    public func routine(id: String, account: Account) async throws -> StoredRoutine {
        try await store.read { tx in
            let (_, object) = try await Self.object(id: id, account: account, tx: tx)
            switch Self.read(object, account: account) {
            case .success(let routine): return routine
            case .failure(let problem): throw Refusal.notARoutine(id: id, reason: problem.reason)
            }
        }
    }

    public func create(_ draft: RoutineDraft, account: Account) async throws -> StoredRoutine {
        let now = clock.now
        let identity = ObjectIdentity.new(random: random)
        let stem = String(identity.name.dropLast(4))
        let fields = try Self.checked(draft, id: stem, zone: account.timeZone)
        let text = RoutineEvent.icalendar(fields, uid: identity.uid, existing: nil, now: now)
        return try await store.transaction { tx in
            let calendar = try await tx.eventCalendar(DefaultCalendars.routines(for: account, now: now, random: random))
            let saved = try await writes.put(
                try CalendarObjectContent(text: text), name: identity.name, in: calendar, ifNoneMatch: true, source: .routine, transaction: tx).object
            return StoredRoutine(fields: fields, id: stem, objectName: saved.name, uid: saved.uid, etag: saved.etag)
        }
    }

    /// Replaces the routine's fields; the event is edited in place, so the series stays one.
    /// `ifMatch` defaults to the ETag read, so a phone's edit in between is never overwritten.
    public func update(id: String, _ draft: RoutineDraft, account: Account, ifMatch: String?) async throws -> StoredRoutine {
        let now = clock.now
        return try await store.transaction { tx in
            let (calendar, object) = try await Self.object(id: id, account: account, tx: tx)
            let existing = try ICalendarParser().parseCalendar(object.icalendar)
            let zone = (try? Self.read(object, account: account).get())?.fields.timeZone ?? account.timeZone
            let fields = try Self.checked(draft, id: id, zone: zone)
            let text = RoutineEvent.icalendar(fields, uid: object.uid, existing: existing, now: now)
            let saved = try await writes.put(
                try CalendarObjectContent(text: text), name: object.name, in: calendar, ifMatch: ifMatch ?? object.etag, source: .routine,
                transaction: tx).object
            return StoredRoutine(fields: fields, id: id, objectName: saved.name, uid: saved.uid, etag: saved.etag)
        }
    }

    public func delete(id: String, account: Account, ifMatch: String?) async throws {
        try await store.transaction { tx in
            let (calendar, object) = try await Self.object(id: id, account: account, tx: tx)
            try await writes.delete(name: object.name, in: calendar, ifMatch: ifMatch ?? object.etag, source: .routine, transaction: tx)
        }
    }

    /// The sleep routines' hours (several: weeknights and weekends may differ).
    public static func sleepHours(account: Account, tx: any CalendarStore) async throws -> [WeeklyHours] {
        try await list(account: account, tx: tx).routines.filter { $0.fields.kind == .sleep }.map(\.fields.routine.hours)
    }

    static func checked(_ draft: RoutineDraft, id: String, zone: String) throws -> RoutineEvent.Fields {
        do throws(RoutineDraft.Problem) {
            return try draft.fields(id: id, defaultZone: zone)
        } catch {
            throw Refusal.invalid(error)
        }
    }

    static func object(id: String, account: Account, tx: any CalendarStore) async throws -> (CalendarCollection, CalendarObject) {
        guard !id.isEmpty, !id.contains("/"),
              let calendar = try await tx.calendar(accountID: account.id, slug: DefaultCalendars.routinesSlug)
        else { throw Refusal.notFound(id: id) }
        var object = try await tx.calendarObject(calendarID: calendar.id, name: id + ".ics")
        if object == nil { object = try await tx.calendarObject(calendarID: calendar.id, name: id) }
        guard let object, object.component == .event else { throw Refusal.notFound(id: id) }
        return (calendar, object)
    }

    /// A routine's id: its object's name without the `.ics` every client gives it.
    public static func id(of objectName: String) -> String {
        objectName.hasSuffix(".ics") ? String(objectName.dropLast(4)) : objectName
    }
}
