import Foundation

/// The iTIP methods Jadwal sends (RFC 5546 §1.4): invitations and their updates, answers,
/// cancellations, and proposals of another time with their refusal.
public enum ITIPMethod: String, Sendable, Hashable, Codable, CaseIterable {
    case request = "REQUEST"
    case reply = "REPLY"
    case cancel = "CANCEL"
    case counter = "COUNTER"
    case declineCounter = "DECLINECOUNTER"
}

/// An attendee's participation (RFC 5545 §3.2.12, the values a VEVENT takes).
public enum ParticipationStatus: String, Sendable, Hashable, Codable, CaseIterable {
    case needsAction = "NEEDS-ACTION"
    case accepted = "ACCEPTED"
    case declined = "DECLINED"
    case tentative = "TENTATIVE"
    case delegated = "DELEGATED"

    /// The answers a person gives to an invitation.
    public static let answers: [ParticipationStatus] = [.accepted, .tentative, .declined]

    /// A PARTSTAT parameter as written; absent means not answered yet (RFC 5545's default),
    /// and a value this server does not know is read as not answered either.
    public init(parameter: String?) {
        self = parameter.flatMap { ParticipationStatus(rawValue: $0.uppercased()) } ?? .needsAction
    }
}

/// SCHEDULE-STATUS codes (RFC 6638 §3.2.9, the statcodes of RFC 5546 §3.6): what became of the
/// last scheduling message to one calendar user. The parameter holds the code alone.
public enum ScheduleStatus {
    /// Queued for delivery (an email not sent yet).
    public static let pending = "1.0"
    /// Sent; whether it arrived is not known (an email handed to the mail server).
    public static let sent = "1.1"
    /// Delivered into the calendar user's Inbox.
    public static let delivered = "1.2"
    public static let invalidUser = "3.7"
    /// The message did not come from the one allowed to send it (another organizer's meeting).
    public static let noAuthority = "3.8"
    public static let deliveryFailed = "5.1"
    public static let noSchedulingSupport = "5.3"
}

/// One scheduling message for one recipient: a METHOD calendar with the components the
/// recipient gets (RFC 5546), and who it is from and to.
public struct ITIPMessage: Sendable, Hashable {
    public var method: ITIPMethod
    public var uid: String
    /// The ORGANIZER for REQUEST, CANCEL and DECLINECOUNTER; the ATTENDEE for REPLY and COUNTER.
    public var sender: Property
    /// The recipient as the sender's copy writes it (its CN and LANGUAGE travel with it).
    public var recipient: Property
    public var calendar: Component

    public init(method: ITIPMethod, uid: String, sender: Property, recipient: Property, calendar: Component) {
        self.method = method
        self.uid = uid
        self.sender = sender
        self.recipient = recipient
        self.calendar = calendar
    }

    public var senderAddress: CalendarUserAddress { CalendarUserAddress(sender.value) }
    public var recipientAddress: CalendarUserAddress { CalendarUserAddress(recipient.value) }
    public var text: String { calendar.serialized }
    /// The scheduled items it carries (VEVENT, VTODO), master first.
    public var items: [Component] { ITIP.items(of: calendar) }
}

/// The rules every iTIP message Jadwal makes follows; what an organizer's and an attendee's
/// writes send are `OrganizerScheduling` and `AttendeeScheduling`.
public enum ITIP {
    public static let productID = "-//Jadwal//Scheduling//EN"

    /// Parameters that say how the server schedules for a calendar user (RFC 6638 §7.1–7.3):
    /// kept in stored objects, never sent in a message.
    static let serverParameters: Set<String> = ["SCHEDULE-AGENT", "SCHEDULE-STATUS", "SCHEDULE-FORCE-SEND"]

    /// The scheduled items of a calendar (VEVENT, VTODO, VJOURNAL), master first.
    public static func items(of calendar: Component) -> [Component] {
        calendar.components.filter { SchedulingObject.schedulableComponents.contains($0.name) }.sorted { $0.isMaster && !$1.isMaster }
    }

    /// Which instance an item is: "" for the master, else its RECURRENCE-ID as written.
    public static func instanceKey(_ item: Component) -> String {
        item.first("RECURRENCE-ID").map { ($0.parameter("TZID") ?? "") + ":" + $0.value } ?? ""
    }

    /// Whether the server schedules for this calendar user (RFC 6638 §7.1): not when the
    /// client said it does (`SCHEDULE-AGENT=CLIENT`) or that no one does (`NONE`).
    public static func serverSchedules(_ property: Property) -> Bool {
        let agent = property.parameter("SCHEDULE-AGENT")?.uppercased() ?? "SERVER"
        return agent != "CLIENT" && agent != "NONE"
    }

    /// Whether a client asked for a message to be sent even though nothing changed (RFC 6638 §7.2).
    static func forced(_ property: Property, _ method: String) -> Bool {
        property.parameter("SCHEDULE-FORCE-SEND")?.uppercased() == method
    }

    /// The calendar user's ATTENDEE property in an item, if they are one.
    public static func attendee(_ addresses: Set<CalendarUserAddress>, in item: Component) -> Property? {
        item.all("ATTENDEE").first { addresses.contains(CalendarUserAddress($0.value)) }
    }

    /// The property as it travels in a message: without the server's scheduling parameters.
    static func forMessage(_ property: Property) -> Property {
        var copy = property
        copy.parameters.removeAll { serverParameters.contains($0.name) }
        return copy
    }

    /// An empty METHOD calendar, with the VTIMEZONEs of `source` the items may name.
    static func envelope(_ method: ITIPMethod, zonesFrom source: Component?) -> Component {
        var properties = [
            Property(name: "VERSION", value: "2.0"), Property(name: "PRODID", value: productID), Property(name: "METHOD", value: method.rawValue),
        ]
        if let scale = source?.first("CALSCALE") { properties.insert(scale, at: 1) }
        return Component(name: "VCALENDAR", properties: properties, components: source?.components(named: "VTIMEZONE") ?? [])
    }

    static func stamp(_ date: Date) -> Property {
        Property(name: "DTSTAMP", value: DateOrDateTime.dateTime(LocalDateTime(secondsSinceEpoch: Int64(date.timeIntervalSince1970.rounded(.down))), .utc).icalValue)
    }

    static func sequence(of item: Component) -> Int {
        item.first("SEQUENCE").flatMap { Int($0.value.trimmingCharacters(in: .whitespaces)) } ?? 0
    }

    /// The properties that place an item in time: when they differ, the meeting moved, and
    /// an answer given before no longer holds.
    static let timeProperties = ["DTSTART", "DTEND", "DURATION", "DUE", "RRULE", "RDATE", "EXDATE", "RECURRENCE-ID"]

    static func time(of item: Component) -> [Property] {
        timeProperties.flatMap { name in item.all(name).map { Property(name: $0.name, parameters: $0.parameters.sorted { $0.name < $1.name }, value: $0.value) } }
    }

    /// Whether two versions of the same meeting are at different times.
    public static func timeChanged(_ old: Component, _ new: Component) -> Bool {
        func times(_ calendar: Component) -> [String: [Property]] {
            Dictionary(items(of: calendar).map { (instanceKey($0), time(of: $0)) }, uniquingKeysWith: { first, _ in first })
        }
        return times(old) != times(new)
    }

    /// Sets a calendar user's PARTSTAT in every item that lists them.
    public static func setParticipation(_ status: ParticipationStatus, of addresses: Set<CalendarUserAddress>, in calendar: inout Component) {
        for index in calendar.components.indices where SchedulingObject.schedulableComponents.contains(calendar.components[index].name) {
            calendar.components[index].properties = calendar.components[index].properties.map { property in
                guard property.name == "ATTENDEE", addresses.contains(CalendarUserAddress(property.value)) else { return property }
                var changed = property
                changed.setParameter("PARTSTAT", status.rawValue)
                changed.setParameter("RSVP", nil)
                return changed
            }
        }
    }

    /// Sets SCHEDULE-STATUS on the properties (ATTENDEE or ORGANIZER) naming `address`.
    public static func setScheduleStatus(_ status: String, on propertyName: String, for address: CalendarUserAddress, in calendar: inout Component) {
        for index in calendar.components.indices where SchedulingObject.schedulableComponents.contains(calendar.components[index].name) {
            calendar.components[index].properties = calendar.components[index].properties.map { property in
                guard property.name == propertyName, CalendarUserAddress(property.value) == address else { return property }
                var changed = property
                changed.setParameter("SCHEDULE-STATUS", status)
                return changed
            }
        }
    }

    /// Removes SCHEDULE-FORCE-SEND, which asks for one message and must not be stored (RFC 6638 §7.2).
    public static func removingForceSend(_ calendar: Component) -> Component {
        var copy = calendar
        for index in copy.components.indices where SchedulingObject.schedulableComponents.contains(copy.components[index].name) {
            for p in copy.components[index].properties.indices where copy.components[index].properties[p].parameter("SCHEDULE-FORCE-SEND") != nil {
                copy.components[index].properties[p].setParameter("SCHEDULE-FORCE-SEND", nil)
            }
        }
        return copy
    }

    /// Whether the meeting is called off as a whole (its master is STATUS:CANCELLED).
    public static func isCancelled(_ calendar: Component) -> Bool {
        items(of: calendar).first.map { $0.isMaster && $0.first("STATUS")?.value.uppercased() == "CANCELLED" } ?? false
    }
}

/// What an organizer's write sends (RFC 6638 §3.2.1, RFC 5546 §3.2): an invitation (REQUEST)
/// to each attendee who is new or whose meeting changed in a way that matters, a cancellation
/// to each attendee taken off, and to everyone when the meeting is deleted or cancelled.
/// Attendees scheduled by the client (`SCHEDULE-AGENT=CLIENT`) and the organizer get nothing.
public struct OrganizerScheduling: Sendable {
    public let organizer: Set<CalendarUserAddress>
    public let now: Date

    public init(organizer: Set<CalendarUserAddress>, now: Date) {
        self.organizer = organizer
        self.now = now
    }

    /// The attendees the server schedules for, each once, in the order first written.
    public func attendees(of calendar: Component) -> [Property] {
        var seen = Set<CalendarUserAddress>()
        var found: [Property] = []
        for item in ITIP.items(of: calendar) {
            for attendee in item.all("ATTENDEE") {
                let address = CalendarUserAddress(attendee.value)
                guard !organizer.contains(address), seen.insert(address).inserted else { continue }
                found.append(attendee)
            }
        }
        return found.filter(ITIP.serverSchedules)
    }

    /// The messages a change from `old` to `new` sends (nil: the object is new, or deleted).
    public func messages(old: Component?, new: Component?) -> [ITIPMessage] {
        guard let sender = (new ?? old).flatMap({ ITIP.items(of: $0).first?.first("ORGANIZER") }) else { return [] }
        let before = old.map(attendees(of:)) ?? []
        guard let new else {
            guard let old, !ITIP.isCancelled(old) else { return [] }
            return before.map { cancel(for: $0, from: old, sender: sender, bump: true) }
        }
        let after = attendees(of: new)
        let afterAddresses = Set(after.map { CalendarUserAddress($0.value) })
        var messages = before.filter { !afterAddresses.contains(CalendarUserAddress($0.value)) }
            .map { cancel(for: $0, from: old ?? new, sender: sender, bump: false) }
        if ITIP.isCancelled(new) {
            // Cancelled as a whole: everyone is told once; a cancelled meeting edited again is not news.
            if let old, ITIP.isCancelled(old) { return messages }
            return messages + after.map { cancel(for: $0, from: new, sender: sender, bump: false) }
        }
        let beforeAddresses = Set(before.map { CalendarUserAddress($0.value) })
        let changed = old.map { SchedulingObject.signature(of: $0) != SchedulingObject.signature(of: new) } ?? true
        for attendee in after where changed || !beforeAddresses.contains(CalendarUserAddress(attendee.value)) || ITIP.forced(attendee, "REQUEST") {
            messages.append(request(for: attendee, from: new, sender: sender))
        }
        return messages
    }

    /// The invitation for one attendee: the items that list them, without the organizer's
    /// alarms; instances they are not invited to are left out of their series (EXDATE).
    public func request(for attendee: Property, from calendar: Component, sender: Property) -> ITIPMessage {
        let address = CalendarUserAddress(attendee.value)
        let items = ITIP.items(of: calendar)
        var message = ITIP.envelope(.request, zonesFrom: calendar)
        for item in items {
            let listed = ITIP.attendee([address], in: item) != nil
            if item.isMaster {
                guard listed else { continue }
                var master = cleaned(item)
                // Overrides they are not part of are not theirs to attend.
                for other in items where !other.isMaster && ITIP.attendee([address], in: other) == nil {
                    if let recurrenceID = other.first("RECURRENCE-ID") {
                        master.properties.append(Property(name: "EXDATE", parameters: recurrenceID.parameters, value: recurrenceID.value))
                    }
                }
                message.components.append(master)
            } else if listed {
                message.components.append(cleaned(item))
            }
        }
        let uid = items.first?.first("UID")?.value ?? ""
        return ITIPMessage(method: .request, uid: uid, sender: ITIP.forMessage(sender), recipient: attendee, calendar: message)
    }

    /// A cancellation for one attendee: the meeting's identity, STATUS:CANCELLED, and the
    /// attendee alone. A deleted meeting's SEQUENCE goes one up, as a new version would.
    func cancel(for attendee: Property, from calendar: Component, sender: Property, bump: Bool) -> ITIPMessage {
        let address = CalendarUserAddress(attendee.value)
        var message = ITIP.envelope(.cancel, zonesFrom: calendar)
        let items = ITIP.items(of: calendar)
        let base = items.first { ITIP.attendee([address], in: $0) != nil } ?? items.first ?? Component(name: "VEVENT")
        var item = cleaned(base)
        item.properties.removeAll { $0.name == "ATTENDEE" }
        item.properties.append(ITIP.forMessage(attendee))
        item.set("STATUS", Property(name: "STATUS", value: "CANCELLED"))
        item.set("SEQUENCE", Property(name: "SEQUENCE", value: String(ITIP.sequence(of: base) + (bump ? 1 : 0))))
        message.components.append(item)
        return ITIPMessage(method: .cancel, uid: base.first("UID")?.value ?? "", sender: ITIP.forMessage(sender), recipient: attendee, calendar: message)
    }

    /// An item as it travels: no alarms (they are the organizer's), no scheduling parameters,
    /// stamped now.
    func cleaned(_ item: Component) -> Component {
        var copy = item
        copy.components.removeAll { $0.name == "VALARM" }
        copy.properties = copy.properties.map { ["ATTENDEE", "ORGANIZER"].contains($0.name) ? ITIP.forMessage($0) : $0 }
        copy.set("DTSTAMP", ITIP.stamp(now))
        return copy
    }
}

/// What an attendee's write sends (RFC 6638 §3.2.2): an answer (REPLY) to the organizer when
/// their participation changed, or DECLINED when they delete their copy of a meeting that is
/// still on. Nothing when the client schedules (`SCHEDULE-AGENT=CLIENT` on the ORGANIZER).
public struct AttendeeScheduling: Sendable {
    public let attendee: Set<CalendarUserAddress>
    public let now: Date

    public init(attendee: Set<CalendarUserAddress>, now: Date) {
        self.attendee = attendee
        self.now = now
    }

    public func reply(old: Component?, new: Component?) -> ITIPMessage? {
        guard let current = new ?? old, let organizer = ITIP.items(of: current).first?.first("ORGANIZER"),
              ITIP.serverSchedules(organizer)
        else { return nil }
        guard let new else {
            guard let old, !ITIP.isCancelled(old) else { return nil }
            let answered = ITIP.items(of: old).filter { ITIP.attendee(attendee, in: $0) != nil }
            guard let master = answered.first, let me = ITIP.attendee(attendee, in: master),
                  ParticipationStatus(parameter: me.parameter("PARTSTAT")) != .declined
            else { return nil }
            return message(answering: [master], organizer: organizer, status: .declined)
        }
        if ITIP.isCancelled(new) { return nil }
        let oldItems = old.map(ITIP.items(of:)) ?? []
        let oldMaster = oldItems.first { $0.isMaster }
        var changed: [Component] = []
        for item in ITIP.items(of: new) {
            guard let me = ITIP.attendee(attendee, in: item) else { continue }
            let key = ITIP.instanceKey(item)
            let before = oldItems.first { ITIP.instanceKey($0) == key } ?? oldMaster
            let was = before.flatMap { ITIP.attendee(attendee, in: $0) }.map { ParticipationStatus(parameter: $0.parameter("PARTSTAT")) } ?? .needsAction
            if ParticipationStatus(parameter: me.parameter("PARTSTAT")) != was || ITIP.forced(me, "REPLY") { changed.append(item) }
        }
        guard !changed.isEmpty else { return nil }
        return message(answering: changed, organizer: organizer, status: nil)
    }

    /// The REPLY: per answered instance its identity and time, the organizer, and this
    /// attendee alone with their answer (RFC 5546 §3.2.3).
    func message(answering items: [Component], organizer: Property, status: ParticipationStatus?) -> ITIPMessage? {
        guard let first = items.first, var me = ITIP.attendee(attendee, in: first) else { return nil }
        me = ITIP.forMessage(me)
        var message = ITIP.envelope(.reply, zonesFrom: nil)
        for item in items {
            guard var mine = ITIP.attendee(attendee, in: item).map(ITIP.forMessage) else { continue }
            if let status {
                mine.setParameter("PARTSTAT", status.rawValue)
                me = mine
            }
            mine.setParameter("RSVP", nil)
            var answer = Component(name: item.name)
            answer.properties.append(item.first("UID") ?? Property(name: "UID", value: ""))
            answer.properties.append(ITIP.stamp(now))
            for name in ["SEQUENCE", "RECURRENCE-ID", "DTSTART", "DTEND", "DURATION", "DUE", "SUMMARY", "COMMENT"] {
                answer.properties += item.all(name)
            }
            answer.properties.append(ITIP.forMessage(organizer))
            answer.properties.append(mine)
            message.components.append(answer)
        }
        // Times named by a TZID need their VTIMEZONE in the message too; a reply is read by
        // the organizer's server, which knows the zones, so UTC is not required.
        return ITIPMessage(method: .reply, uid: first.first("UID")?.value ?? "", sender: me, recipient: ITIP.forMessage(organizer), calendar: message)
    }
}

/// How a delivered message changes the calendar it lands in: an invitation becomes (or
/// updates) the attendee's copy, a cancellation marks it cancelled, and an answer is written
/// into the organizer's copy.
public enum ITIPDelivery {
    /// The attendee's copy after an invitation (RFC 6638 §4.1): the organizer's meeting, with
    /// what is the attendee's own kept from their copy: alarms, transparency, and their answer
    /// while the meeting stays at the same time (a moved meeting asks again, as the organizer
    /// wrote it). Instances they answered on their own stay while the series keeps its time.
    public static func attendeeCopy(request: Component, existing: Component?, attendee: Set<CalendarUserAddress>) -> Component {
        var copy = request
        copy.remove("METHOD")
        copy.set("PRODID", Property(name: "PRODID", value: existing?.first("PRODID")?.value ?? ITIP.productID))
        for index in copy.components.indices where SchedulingObject.schedulableComponents.contains(copy.components[index].name) {
            if ITIP.attendee(attendee, in: copy.components[index])?.parameter("PARTSTAT") == nil {
                // RFC 5545's default, written out so every reader sees it as not answered.
                var item = copy.components[index]
                item.properties = item.properties.map { property in
                    guard property.name == "ATTENDEE", attendee.contains(CalendarUserAddress(property.value)) else { return property }
                    var changed = property
                    changed.setParameter("PARTSTAT", ParticipationStatus.needsAction.rawValue)
                    return changed
                }
                copy.components[index] = item
            }
        }
        guard let existing else { return copy }
        let oldItems = ITIP.items(of: existing)
        let moved = ITIP.timeChanged(existing, copy)
        for index in copy.components.indices where SchedulingObject.schedulableComponents.contains(copy.components[index].name) {
            var item = copy.components[index]
            let key = ITIP.instanceKey(item)
            guard let old = oldItems.first(where: { ITIP.instanceKey($0) == key }) else { continue }
            item.components.removeAll { $0.name == "VALARM" }
            item.components += old.components(named: "VALARM")
            if let transparency = old.first("TRANSP") { item.set("TRANSP", transparency) }
            if !moved, let mine = ITIP.attendee(attendee, in: old), let status = mine.parameter("PARTSTAT") {
                item.properties = item.properties.map { property in
                    guard property.name == "ATTENDEE", attendee.contains(CalendarUserAddress(property.value)) else { return property }
                    var changed = property
                    changed.setParameter("PARTSTAT", status)
                    if ParticipationStatus(parameter: status) != .needsAction { changed.setParameter("RSVP", nil) }
                    return changed
                }
            }
            copy.components[index] = item
        }
        if !moved {
            let sent = Set(ITIP.items(of: copy).map(ITIP.instanceKey))
            copy.components += oldItems.filter { !$0.isMaster && !sent.contains(ITIP.instanceKey($0)) }
        }
        return copy
    }

    /// The attendee's copy after a cancellation: kept, marked cancelled, so they see that it
    /// is off rather than find it gone.
    public static func cancelled(_ existing: Component, by cancel: Component) -> Component {
        var copy = existing
        let sequence = ITIP.items(of: cancel).map(ITIP.sequence(of:)).max() ?? 0
        for index in copy.components.indices where SchedulingObject.schedulableComponents.contains(copy.components[index].name) {
            copy.components[index].set("STATUS", Property(name: "STATUS", value: "CANCELLED"))
            if sequence > ITIP.sequence(of: copy.components[index]) {
                copy.components[index].set("SEQUENCE", Property(name: "SEQUENCE", value: String(sequence)))
            }
        }
        return copy
    }

    /// The organizer's copy with an attendee's answer written in (RFC 6638 §4.2): their
    /// PARTSTAT per answered instance; an answer for the whole series answers the overrides
    /// not answered separately. Nil when the copy does not list them, or nothing changed.
    public static func organizerCopy(_ copy: Component, applying reply: Component, from sender: CalendarUserAddress) -> Component? {
        var result = copy
        var answers: [String: String] = [:]
        for item in ITIP.items(of: reply) {
            guard let answer = ITIP.attendee([sender], in: item) else { continue }
            answers[ITIP.instanceKey(item)] = ParticipationStatus(parameter: answer.parameter("PARTSTAT")).rawValue
        }
        guard !answers.isEmpty else { return nil }
        var changed = false
        func answer(_ index: Int, _ status: String) {
            result.components[index].properties = result.components[index].properties.map { property in
                guard property.name == "ATTENDEE", CalendarUserAddress(property.value) == sender else { return property }
                var updated = property
                updated.setParameter("PARTSTAT", status)
                updated.setParameter("RSVP", nil)
                if updated != property { changed = true }
                return updated
            }
        }
        for index in result.components.indices where SchedulingObject.schedulableComponents.contains(result.components[index].name) {
            guard let status = answers[ITIP.instanceKey(result.components[index])] ?? answers[""] else { continue }
            answer(index, status)
        }
        // An answer for one instance of a series the copy has no override for (the attendee's
        // client made the exception): that instance gets an override made from the master, so
        // the answer is kept for it alone, as RFC 5546 §3.2.3 answers by RECURRENCE-ID.
        let overridden = Set(result.components.filter { SchedulingObject.schedulableComponents.contains($0.name) }.map(ITIP.instanceKey))
        for item in ITIP.items(of: reply) {
            let key = ITIP.instanceKey(item)
            guard !key.isEmpty, !overridden.contains(key), let status = answers[key], let recurrenceID = item.first("RECURRENCE-ID"),
                  let override = instanceOverride(of: result, name: item.name, at: recurrenceID)
            else { continue }
            result.components.append(override)
            answer(result.components.count - 1, status)
            changed = true
        }
        return changed ? result : nil
    }

    /// An override of the master's instance at `recurrenceID`, as the master describes it; nil
    /// when the series has no such instance (an answer for it must not add an event).
    static func instanceOverride(of calendar: Component, name: String, at recurrenceID: Property) -> Component? {
        guard let master = calendar.master(name), let instance = try? recurrenceID.dateValue(),
              let start = master.first("DTSTART"), let masterStart = try? start.dateValue(), masterStart.isDate == instance.isDate
        else { return nil }
        let resolver = TimeZoneResolver(calendar: calendar)
        let instant = resolver.instant
        let at = instant(instance)
        let found = try? RecurrenceSet(uid: master.first("UID")?.value ?? "", components: calendar.components.filter { $0.name == name })
            .occurrences(from: at - 86_400, to: at + 2 * 86_400, resolver: resolver, options: ExpansionOptions(includeCancelled: true))
        guard let found, found.occurrences.contains(where: { $0.recurrenceId?.sortSeconds == at }) else { return nil }
        // The instance written as the master's DTSTART is (a reply may name it in UTC).
        let first: DateOrDateTime = switch masterStart {
        case .date: .date(instance.local.date)
        case .dateTime(_, .zone(let tzid)): .dateTime((resolver.rules(for: tzid) ?? .utc).local(forUTC: at), .zone(tzid))
        case .dateTime(_, let reference): .dateTime(LocalDateTime(secondsSinceEpoch: at), reference)
        }
        var override = master
        for property in ["RRULE", "RDATE", "EXDATE", "EXRULE"] { override.remove(property) }
        override.set("RECURRENCE-ID", first.property("RECURRENCE-ID"))
        override.set("DTSTART", first.property("DTSTART"))
        // DURATION carries over as it is; a DTEND keeps the master's length from the new start.
        if let end = master.first("DTEND"), let masterEnd = try? end.dateValue() {
            let length = instant(masterEnd) - instant(masterStart)
            let moved: DateOrDateTime = first.isDate
                ? .date(first.local.date.adding(days: Int(length / 86_400))) : .dateTime(first.local.adding(seconds: length), first.reference)
            override.set("DTEND", moved.property("DTEND"))
        }
        return override
    }
}

extension OrganizerScheduling {
    /// The organizer's new version with the answers the server recorded kept: a client that
    /// read its copy before an answer arrived writes NEEDS-ACTION (or nothing) where an answer
    /// is now on record, and Schedule-Tag lets it write without fetching again (RFC 6638
    /// §3.2.10). While the meeting keeps its time the recorded answer stands; a meeting moved
    /// in time keeps what the client wrote, since the organizer may be asking again.
    public static func keepingAnswers(of old: Component, in new: Component) -> Component {
        guard !ITIP.timeChanged(old, new) else { return new }
        let oldItems = ITIP.items(of: old)
        var result = new
        for index in result.components.indices where SchedulingObject.schedulableComponents.contains(result.components[index].name) {
            let key = ITIP.instanceKey(result.components[index])
            guard let before = oldItems.first(where: { ITIP.instanceKey($0) == key }) else { continue }
            result.components[index].properties = result.components[index].properties.map { property in
                guard property.name == "ATTENDEE", ParticipationStatus(parameter: property.parameter("PARTSTAT")) == .needsAction,
                      let recorded = ITIP.attendee([CalendarUserAddress(property.value)], in: before),
                      ParticipationStatus(parameter: recorded.parameter("PARTSTAT")) != .needsAction
                else { return property }
                var kept = property
                kept.setParameter("PARTSTAT", recorded.parameter("PARTSTAT"))
                kept.setParameter("RSVP", nil)
                return kept
            }
        }
        return result
    }
}

/// Proposing another time (RFC 5546 §3.2.7) and declining the proposal (§3.2.8).
public enum ITIPProposal {
    /// The attendee's COUNTER: the meeting as they would have it, at `start`–`end` (written in
    /// UTC), with their reason.
    public static func counter(meeting item: Component, attendee: Property, organizer: Property, start: Date, end: Date, comment: String, now: Date)
        -> ITIPMessage {
        var proposed = Component(name: item.name)
        proposed.properties.append(item.first("UID") ?? Property(name: "UID", value: ""))
        proposed.properties.append(ITIP.stamp(now))
        proposed.properties += item.all("SEQUENCE") + item.all("SUMMARY") + item.all("LOCATION")
        proposed.properties.append(Property(name: "DTSTART", value: utc(start)))
        proposed.properties.append(Property(name: "DTEND", value: utc(end)))
        proposed.properties.append(ITIP.forMessage(organizer))
        proposed.properties.append(ITIP.forMessage(attendee))
        if !comment.isEmpty { proposed.properties.append(Property(name: "COMMENT", text: comment)) }
        var message = ITIP.envelope(.counter, zonesFrom: nil)
        message.components.append(proposed)
        return ITIPMessage(method: .counter, uid: item.first("UID")?.value ?? "", sender: ITIP.forMessage(attendee), recipient: ITIP.forMessage(organizer),
                           calendar: message)
    }

    /// The organizer's DECLINECOUNTER: the meeting stays as it is.
    public static func declineCounter(meeting item: Component, attendee: Property, organizer: Property, comment: String, now: Date) -> ITIPMessage {
        var answer = Component(name: item.name)
        answer.properties.append(item.first("UID") ?? Property(name: "UID", value: ""))
        answer.properties.append(ITIP.stamp(now))
        answer.properties += item.all("SEQUENCE") + item.all("SUMMARY") + item.all("DTSTART") + item.all("DTEND") + item.all("DURATION")
        answer.properties.append(ITIP.forMessage(organizer))
        answer.properties.append(ITIP.forMessage(attendee))
        if !comment.isEmpty { answer.properties.append(Property(name: "COMMENT", text: comment)) }
        var message = ITIP.envelope(.declineCounter, zonesFrom: nil)
        message.components.append(answer)
        return ITIPMessage(method: .declineCounter, uid: item.first("UID")?.value ?? "", sender: ITIP.forMessage(organizer),
                           recipient: ITIP.forMessage(attendee), calendar: message)
    }

    static func utc(_ date: Date) -> String {
        DateOrDateTime.dateTime(LocalDateTime(secondsSinceEpoch: Int64(date.timeIntervalSince1970.rounded(.down))), .utc).icalValue
    }
}

extension AttendeeScheduling {
    /// The attendee's copy with its transparency following their answer: once declined, the
    /// meeting no longer takes their time (TRANSPARENT, a per-attendee property RFC 6638
    /// §3.2.2.1 lets them change); answered otherwise after a decline, it does again (OPAQUE).
    public func followingAnswer(old: Component?, new: Component) -> Component {
        let oldItems = old.map(ITIP.items(of:)) ?? []
        let oldMaster = oldItems.first { $0.isMaster }
        var result = new
        for index in result.components.indices where SchedulingObject.schedulableComponents.contains(result.components[index].name) {
            let item = result.components[index]
            guard item.name == "VEVENT", let me = ITIP.attendee(attendee, in: item) else { continue }
            let key = ITIP.instanceKey(item)
            let before = (oldItems.first { ITIP.instanceKey($0) == key } ?? oldMaster).flatMap { ITIP.attendee(attendee, in: $0) }
                .map { ParticipationStatus(parameter: $0.parameter("PARTSTAT")) } ?? .needsAction
            let now = ParticipationStatus(parameter: me.parameter("PARTSTAT"))
            if now == .declined, before != .declined {
                result.components[index].set("TRANSP", Property(name: "TRANSP", value: "TRANSPARENT"))
            } else if before == .declined, now != .declined {
                result.components[index].set("TRANSP", Property(name: "TRANSP", value: "OPAQUE"))
            }
        }
        return result
    }
}
