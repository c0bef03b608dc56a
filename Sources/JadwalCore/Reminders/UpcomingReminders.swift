import Foundation
import ICalendar

/// Every reminder that will fire for a person in the next two weeks — the VALARMs of their
/// events and to-dos, as `ReminderSchedule` reads them — and the three things a person does to
/// one: snooze it, change how long before it comes, or remove it.
///
/// Every change is written into the object itself, through `CalendarWrites`, so phones see it on
/// their next sync and Jadwal's own queued firings are made again from it:
/// - **Snooze** pushes one firing later, the way RFC 9074 writes a snooze (and Apple's apps read
///   it): the alarm is `ACKNOWLEDGED` up to that firing and a snooze alarm (`RELATED-TO;
///   RELTYPE=SNOOZE`) fires at the new time. One instance of a repeating event gets an override
///   of its own for it, so its other instances keep their reminders. A snooze alarm snoozed again
///   just moves.
/// - **Change** sets the alarm's offset (minutes before the start, or before the due time of a
///   to-do whose alarm counts from it); in a repeating event that is every instance's alarm.
/// - **Remove** takes the alarm out; in a repeating event, out of every instance.
///
/// Only the person's own calendars are read: Jadwal fires no reminder of a calendar shared with
/// them (its owner's alarms are the owner's), nor of the computed prayer calendar.
public struct UpcomingReminders: Sendable {
    let store: StoreAccess<any CalendarStore>
    let clock: Clock
    let random: RandomSource
    let parse: AccountBusyTime.Parse

    public init(store: any Store, clock: Clock, random: RandomSource, parse: @escaping AccountBusyTime.Parse = { try? ICalendarParser().parseCalendar($0.icalendar) }) {
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
        self.random = random
        self.parse = parse
    }

    /// How far ahead the list reaches.
    public static let days = 14
    /// A snooze may push a firing at most this far (a week past the two weeks listed).
    public static let maxSnoozeMinutes = 21 * 24 * 60
    /// The longest offset a change may set: what the to-do form allows (four weeks).
    public static let maxMinutesBefore = TaskDraft.maxAlarmMinutes

    /// One firing as the list shows it.
    public struct Item: Sendable {
        /// Names the firing in the routes: its calendar, object and `Reminder.key`.
        public var id: ReminderID
        public var calendar: CalendarCollection
        public var objectName: String
        public var etag: String
        public var reminder: Reminder
        /// How long before the start (or the end, with `relatedToEnd`) it comes, when the alarm
        /// is set that way; nil for one at a fixed time.
        public var minutesBefore: Int?
        public var relatedToEnd: Bool
        /// A snooze alarm: a firing a person already pushed later.
        public var isSnooze: Bool
        /// The alarm belongs to a repeating series: a change or removal reaches every instance.
        public var isRepeating: Bool
    }

    /// What names one firing: calendar, object and the reminder's key, as one opaque word for URLs
    /// (base64url of the three, joined by newlines, which none of them may hold).
    public struct ReminderID: Sendable, Hashable, CustomStringConvertible {
        public var calendarID: UUID
        public var objectName: String
        public var key: String

        public init(calendarID: UUID, objectName: String, key: String) {
            self.calendarID = calendarID
            self.objectName = objectName
            self.key = key
        }

        public init?(_ text: String) {
            guard text.count <= 4096, let data = Data(base64URLEncoded: text), let decoded = String(data: data, encoding: .utf8) else { return nil }
            let parts = decoded.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3, let id = UUID(uuidString: parts[0]), !parts[1].isEmpty, !parts[2].isEmpty else { return nil }
            self.init(calendarID: id, objectName: parts[1], key: parts[2])
        }

        public var description: String {
            Data("\(calendarID.uuidString.lowercased())\n\(objectName)\n\(key)".utf8).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
    }

    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// No such firing in the next two weeks (fired already, removed, or never was).
        case notFound
        case invalidSnooze
        case invalidMinutes
        /// A snooze alarm fires at a time of its own: it is moved by snoozing it again.
        case snoozeHasNoOffset
        /// The item has no start (or due) to count back from.
        case noStart
        /// One instance of a repeating to-do: Jadwal changes to-do series only as a whole.
        case repeatingTodo

        public var description: String {
            switch self {
            case .notFound: "no such reminder among those that fire in the next \(UpcomingReminders.days) days; it may have fired or been removed"
            case .invalidSnooze: "a snooze is 1 to \(UpcomingReminders.maxSnoozeMinutes) minutes later, 'tomorrow', or a time after now within three weeks"
            case .invalidMinutes: "'minutesBefore' must be a whole number from 0 to \(UpcomingReminders.maxMinutesBefore)"
            case .snoozeHasNoOffset: "a snoozed reminder fires at the time it was snoozed to; snooze it again to move it"
            case .noStart: "the item has no start or due time for a reminder to count back from"
            case .repeatingTodo: "this reminder belongs to one instance of a repeating to-do, which Jadwal cannot snooze on its own"
            }
        }
    }

    /// How far a snooze pushes a firing: by some minutes, to the same time the next day, or to a time.
    public enum Snooze: Sendable, Equatable {
        case minutes(Int)
        case tomorrow
        case until(Date)
    }

    // MARK: Reading

    /// The firings of the person's own calendars from now for `days` days, soonest first.
    public func list(account: Account) async throws -> [Item] {
        let now = clock.now
        let parse = self.parse
        let candidates = try await store.read { tx -> [(CalendarCollection, CalendarObject)] in
            var found: [(CalendarCollection, CalendarObject)] = []
            for calendar in try await tx.calendars(accountID: account.id) where !calendar.isComputed {
                for object in try await tx.calendarObjects(calendarID: calendar.id) where ReminderQueue.mayHoldAlarms(object.icalendar) {
                    found.append((calendar, object))
                }
            }
            return found
        }
        var items: [Item] = []
        for (calendar, object) in candidates {
            items += Self.items(of: object, in: calendar, account: account, now: now, parse: parse)
        }
        return items.sorted { ($0.reminder.fireAt, $0.id.description) < ($1.reminder.fireAt, $1.id.description) }
    }

    /// The listed firings of one object.
    static func items(of object: CalendarObject, in calendar: CalendarCollection, account: Account, now: Date, parse: AccountBusyTime.Parse) -> [Item] {
        guard let schedule = ReminderSchedule(object: object, calendar: calendar, accountZone: account.timeZone, parse: parse) else { return [] }
        let window = schedule.reminders(from: now, to: now.addingTimeInterval(TimeInterval(days * 86_400)), limit: ReminderQueue.firingsPerObject)
        return window.reminders.map { reminder in
            let alarm = Self.alarm(of: reminder, in: schedule.calendar)
            var minutes: Int?
            var relatedToEnd = false
            if let trigger = alarm?.first("TRIGGER"), trigger.parameter("VALUE")?.uppercased() != "DATE-TIME",
               let duration = try? ICalendar.Duration.parse(trigger.value.trimmingCharacters(in: .whitespaces)) {
                minutes = Int(-duration.totalSeconds / 60)
                relatedToEnd = trigger.parameter("RELATED")?.uppercased() == "END"
            }
            return Item(
                id: ReminderID(calendarID: calendar.id, objectName: object.name, key: reminder.key), calendar: calendar, objectName: object.name,
                etag: object.etag, reminder: reminder, minutesBefore: minutes, relatedToEnd: relatedToEnd,
                isSnooze: alarm.map(Self.isSnooze) ?? false, isRepeating: schedule.calendar.components.contains { $0.first("RRULE") != nil || $0.first("RDATE") != nil })
        }
    }

    /// The VALARM a firing comes from, where it is written (the override of its instance, else the series or item).
    static func alarm(of reminder: Reminder, in calendar: Component) -> Component? {
        guard let index = holder(of: reminder, in: calendar) else { return nil }
        let alarms = calendar.components[index].components(named: "VALARM")
        let keys = ReminderTrigger.keys(of: alarms)
        return keys.firstIndex(of: reminder.alarmKey).map { alarms[$0] }
    }

    /// The component holding a firing's alarm: the override of its instance when there is one
    /// with that alarm, else the master (or the single item).
    static func holder(of reminder: Reminder, in calendar: Component) -> Int? {
        let items = calendar.components.indices.filter { ReminderSchedule.componentNames.contains(calendar.components[$0].name) && calendar.components[$0].first("UID")?.value == reminder.uid }
        if let recurrenceID = reminder.recurrenceID, let series = try? EventSeries(calendar: calendar), let instance = try? series.instance(recurrenceID),
           let index = series.overrideIndex(instance) {
            return index
        }
        return items.first { calendar.components[$0].first("RECURRENCE-ID") == nil } ?? items.first
    }

    static func isSnooze(_ alarm: Component) -> Bool {
        alarm.all("RELATED-TO").contains { $0.parameter("RELTYPE")?.uppercased() == "SNOOZE" }
    }

    // MARK: Changing

    /// Pushes one firing later (see the type's notes); answers the object as stored.
    public func snooze(_ id: ReminderID, by snooze: Snooze, account: Account, ifMatch: String?) async throws -> CalendarObject {
        let now = clock.now
        return try await rewrite(id, account: account, ifMatch: ifMatch, now: now) { calendar, item in
            let fireAt = item.reminder.fireAt
            let base = max(now, fireAt)
            let until: Date
            switch snooze {
            case .minutes(let minutes):
                guard (1...Self.maxSnoozeMinutes).contains(minutes) else { throw Problem.invalidSnooze }
                until = base.addingTimeInterval(TimeInterval(minutes * 60))
            case .tomorrow:
                // The same time on the next day of the person's wall clock.
                let zone = ZoneRules(ianaIdentifier: account.timeZone) ?? .utc
                until = Date(timeIntervalSince1970: TimeInterval(ReminderSchedule.shift(Int64(base.timeIntervalSince1970), by: .init(days: 1, seconds: 0), in: zone)))
            case .until(let date):
                guard date > now, date.timeIntervalSince(now) <= TimeInterval(Self.maxSnoozeMinutes * 60) else { throw Problem.invalidSnooze }
                until = date
            }
            try self.snooze(item.reminder, until: until, in: &calendar, now: now)
        }
    }

    /// Sets the alarm's offset: `minutes` before the start (or, for an alarm counted from the
    /// end or a to-do's due time, before that).
    public func change(_ id: ReminderID, minutesBefore minutes: Int, account: Account, ifMatch: String?) async throws -> CalendarObject {
        guard (0...Self.maxMinutesBefore).contains(minutes) else { throw Problem.invalidMinutes }
        return try await rewrite(id, account: account, ifMatch: ifMatch, now: clock.now) { calendar, item in
            guard !item.isSnooze else { throw Problem.snoozeHasNoOffset }
            try Self.editAlarm(of: item.reminder, in: &calendar) { holder, alarm in
                guard AlarmCatalogue.startProperty(of: holder) != nil else { throw Problem.noStart }
                var trigger = alarm.first("TRIGGER") ?? Property(name: "TRIGGER", value: "")
                let relatedToEnd = trigger.parameter("VALUE")?.uppercased() != "DATE-TIME" && trigger.parameter("RELATED")?.uppercased() == "END"
                if relatedToEnd, holder.name == "VTODO" ? holder.first("DUE") == nil : false { throw Problem.noStart }
                trigger = Property(name: "TRIGGER", parameters: relatedToEnd ? [Parameter("RELATED", "END")] : [],
                                   value: ICalendar.Duration(negative: minutes > 0, minutes: minutes).icalValue)
                alarm.set("TRIGGER", trigger)
                // A new time is a new alarm: what was acknowledged of the old one no longer holds it back.
                alarm.remove("ACKNOWLEDGED")
            }
        }
    }

    /// Takes the alarm out of its item (every instance, for a series' own alarm).
    public func remove(_ id: ReminderID, account: Account, ifMatch: String?) async throws -> CalendarObject {
        try await rewrite(id, account: account, ifMatch: ifMatch, now: clock.now) { calendar, item in
            guard let index = Self.holder(of: item.reminder, in: calendar) else { throw Problem.notFound }
            var holder = calendar.components[index]
            let alarms = holder.components(named: "VALARM")
            let keys = ReminderTrigger.keys(of: alarms)
            guard let position = keys.firstIndex(of: item.reminder.alarmKey) else { throw Problem.notFound }
            var seen = 0
            holder.components.removeAll { component in
                guard component.name == "VALARM" else { return false }
                defer { seen += 1 }
                return seen == position
            }
            calendar.components[index] = holder
        }
    }

    /// Reads the object, finds the firing among those listed, lets `change` edit the parsed
    /// calendar, and writes it back under `ifMatch` (the ETag the person saw, else the current one).
    private func rewrite(
        _ id: ReminderID, account: Account, ifMatch: String?, now: Date, _ change: (inout Component, Item) throws -> Void
    ) async throws -> CalendarObject {
        let found = try await store.read { tx -> (CalendarCollection, CalendarObject)? in
            guard let calendar = try await tx.calendar(id: id.calendarID), calendar.accountID == account.id, !calendar.isComputed,
                  let object = try await tx.calendarObject(calendarID: calendar.id, name: id.objectName)
            else { return nil }
            return (calendar, object)
        }
        guard let (calendar, object) = found else { throw Problem.notFound }
        if let ifMatch, !CalendarWrites.ifMatch(ifMatch, holdsFor: object.etag) { throw CalendarWrites.Refusal.preconditionFailed(currentETag: object.etag) }
        guard let item = Self.items(of: object, in: calendar, account: account, now: now, parse: parse).first(where: { $0.id == id }),
              var parsed = parse(object)
        else { throw Problem.notFound }
        try change(&parsed, item)
        let content: CalendarObjectContent
        do {
            content = try CalendarObjectContent(text: parsed.serialized)
        } catch {
            throw Problem.notFound
        }
        return try await CalendarWrites(store: store.store, clock: clock, random: random).put(content, name: object.name, in: calendar, ifMatch: object.etag, source: .api).object
    }

    /// RFC 9074 §5: the firing is acknowledged and a snooze alarm fires at `until`. An instance
    /// of a repeating event is first given an override (a copy of the series at that instance),
    /// so the acknowledgement holds back no other instance's reminder.
    private func snooze(_ reminder: Reminder, until: Date, in calendar: inout Component, now: Date) throws {
        let stamp = { (date: Date) in
            DateOrDateTime.dateTime(LocalDateTime(secondsSinceEpoch: Int64(date.timeIntervalSince1970.rounded(.down))), .utc)
        }
        if let recurrenceID = reminder.recurrenceID, Self.holder(of: reminder, in: calendar).map({ calendar.components[$0].first("RECURRENCE-ID") == nil }) ?? false {
            // The series' own alarm, for one instance: that instance gets an override to carry it.
            guard calendar.components.contains(where: { $0.name == "VEVENT" }), var series = try? EventSeries(calendar: calendar) else {
                throw Problem.repeatingTodo
            }
            guard let instance = try? series.instance(recurrenceID) else { throw Problem.notFound }
            series.setOverride(series.overrideBase(instance), for: instance)
            calendar = series.calendar
        }
        let newUID = random.uuid().uuidString
        try Self.editAlarm(of: reminder, in: &calendar) { holder, alarm in
            if Self.isSnooze(alarm) {
                alarm.set("TRIGGER", Property(name: "TRIGGER", parameters: [Parameter("VALUE", "DATE-TIME")], value: stamp(until).icalValue))
                return
            }
            var uid = alarm.first("UID")?.value
            if uid == nil || uid?.isEmpty == true {
                uid = newUID.lowercased()
                alarm.set("UID", Property(name: "UID", value: uid ?? ""))
            }
            alarm.set("ACKNOWLEDGED", stamp(max(reminder.fireAt, now)).property("ACKNOWLEDGED"))
            var snooze = Component(name: "VALARM", properties: [
                Property(name: "UID", value: random.uuid().uuidString.lowercased()),
                Property(name: "TRIGGER", parameters: [Parameter("VALUE", "DATE-TIME")], value: stamp(until).icalValue),
                Property(name: "RELATED-TO", parameters: [Parameter("RELTYPE", "SNOOZE")], value: uid ?? ""),
                // A snooze shows itself; an email alarm's recipients are not Jadwal's to repeat.
                Property(name: "ACTION", value: reminder.action == .audio ? "AUDIO" : "DISPLAY"),
            ])
            if reminder.action != .audio {
                snooze.properties.append(Property(name: "DESCRIPTION", text: alarm.first("DESCRIPTION")?.text ?? reminder.title ?? "Reminder"))
            }
            holder.components.append(snooze)
        }
    }

    /// Edits, in place, the VALARM a firing comes from and the component holding it.
    static func editAlarm(of reminder: Reminder, in calendar: inout Component, _ edit: (inout Component, inout Component) throws -> Void) throws {
        guard let index = holder(of: reminder, in: calendar) else { throw Problem.notFound }
        var holder = calendar.components[index]
        let positions = holder.components.indices.filter { holder.components[$0].name == "VALARM" }
        let keys = ReminderTrigger.keys(of: positions.map { holder.components[$0] })
        guard let which = keys.firstIndex(of: reminder.alarmKey) else { throw Problem.notFound }
        var alarm = holder.components[positions[which]]
        try edit(&holder, &alarm)
        holder.components[positions[which]] = alarm
        calendar.components[index] = holder
    }
}
