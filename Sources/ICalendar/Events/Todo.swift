/// The to-do the rest of Jadwal works with: a view over a VTODO, as ``Event`` is over a VEVENT.
/// `init(component:)` reads the fields, `component` writes them back into the original
/// component, so what the model does not know (X-APPLE-SORT-ORDER, CATEGORIES, GEO, unknown
/// parameters) survives untouched, and an unchanged field keeps its property as written.
public struct Todo: Sendable, Hashable {
    public enum Status: String, Sendable, Hashable, CaseIterable {
        case needsAction = "NEEDS-ACTION", inProcess = "IN-PROCESS", completed = "COMPLETED", cancelled = "CANCELLED"
    }

    public typealias Alarm = Event.Alarm

    /// Where the estimate is written. RFC 5545 has no property for it; the draft
    /// draft-ietf-calext-ical-tasks names it ESTIMATED-DURATION, which is read too.
    public static let estimateProperty = "X-JADWAL-ESTIMATED-DURATION"
    public static let draftEstimateProperty = "ESTIMATED-DURATION"

    public var uid: String
    public var title: String?
    public var description: String?
    public var start: DateOrDateTime?
    public var due: DateOrDateTime?
    /// With DTSTART, the time from start to due (RFC 5545 allows DUE or DURATION, not both).
    public var duration: Duration?
    /// nil when the source has no STATUS (RFC 5545 then means needs-action; see ``effectiveStatus``).
    public var status: Status?
    /// COMPLETED: when it was done (a UTC DATE-TIME); nil when absent or unreadable.
    public var completed: DateOrDateTime?
    /// 0…100; nil when absent or out of range.
    public var percentComplete: Int?
    /// 1 highest … 9 lowest, 0 undefined; nil when absent or out of range.
    public var priority: Int?
    /// nil when absent or unreadable.
    public var created: DateOrDateTime?
    /// RELATED-TO values (UIDs), in order.
    public var relatedTo: [String]
    public var alarms: [Alarm]
    public var sequence: Int
    /// How long the work takes; nil when absent or unreadable (it is an extension, so a bad value
    /// from some client never makes the to-do itself unreadable).
    public var estimate: Duration?
    /// The component this to-do was read from (or a fresh one); everything not modelled lives here.
    public var source: Component

    /// STATUS, or what its absence means: completed when COMPLETED is set (older clients write
    /// only that), needs-action otherwise.
    public var effectiveStatus: Status { status ?? (completed != nil ? .completed : .needsAction) }

    /// Still to be done: needs-action or in-process.
    public var isOpen: Bool { effectiveStatus == .needsAction || effectiveStatus == .inProcess }

    public init(uid: String, title: String?) {
        self.uid = uid
        self.title = title
        relatedTo = []
        alarms = []
        sequence = 0
        source = Component(name: "VTODO")
    }

    public init(component: Component) throws {
        guard component.name == "VTODO" else {
            throw ICalendarError(.invalidStructure, line: component.line, "expected VTODO, got \(component.name)")
        }
        guard let uid = component.first("UID")?.value, !uid.isEmpty else {
            throw ICalendarError(.missingProperty, line: component.line, "VTODO has no UID")
        }
        self.init(uid: uid, title: component.first("SUMMARY")?.text)
        source = component
        description = component.first("DESCRIPTION")?.text
        start = try component.first("DTSTART")?.dateValue()
        due = try component.first("DUE")?.dateValue()
        if let property = component.first("DURATION") {
            do { duration = try Duration.parse(property.value) } catch var e as ICalendarError {
                e.line = property.line
                throw e
            }
        }
        status = component.first("STATUS").flatMap { Status(rawValue: $0.value.uppercased()) }
        completed = try? component.first("COMPLETED")?.dateValue()
        percentComplete = Self.integer(component.first("PERCENT-COMPLETE"), in: 0...100)
        priority = Self.integer(component.first("PRIORITY"), in: 0...9)
        created = try? component.first("CREATED")?.dateValue()
        relatedTo = component.all("RELATED-TO").map(\.value)
        alarms = try component.components(named: "VALARM").map(Alarm.init(component:))
        sequence = component.first("SEQUENCE").flatMap { Int($0.value.trimmingSpaces) } ?? 0
        estimate = Self.estimate(in: component)
    }

    static func integer(_ property: Property?, in range: ClosedRange<Int>) -> Int? {
        guard let value = property.flatMap({ Int($0.value.trimmingSpaces) }), range.contains(value) else { return nil }
        return value
    }

    /// Jadwal's own property first, then the calext draft's; a negative length is no estimate.
    static func estimate(in component: Component) -> Duration? {
        for name in [estimateProperty, draftEstimateProperty] {
            if let property = component.first(name) {
                guard let value = try? Duration.parse(property.value), !value.negative else { return nil }
                return value
            }
        }
        return nil
    }

    /// The VTODO: the source component with the modelled fields written over it.
    public var component: Component {
        var c = source
        c.name = "VTODO"
        func keep(_ name: String, _ new: Property?, same: (Property) -> Bool) {
            if let old = c.first(name), new != nil, same(old) { return }
            c.set(name, new)
        }
        func date(_ name: String, _ value: DateOrDateTime?) {
            keep(name, value.map { $0.property(name, extraParameters: c.first(name)?.parameters ?? []) }) { (try? $0.dateValue()) == value }
        }
        func text(_ name: String, _ value: String?) {
            keep(name, value.map { Property(name: name, text: $0, parameters: c.first(name)?.parameters ?? []) }) { $0.text == value }
        }
        func integer(_ name: String, _ value: Int?) {
            keep(name, value.map { Property(name: name, value: String($0)) }) { Int($0.value.trimmingSpaces) == value }
        }
        keep("UID", Property(name: "UID", value: uid)) { $0.value == uid }
        text("SUMMARY", title)
        text("DESCRIPTION", description)
        date("DTSTART", start)
        date("DUE", due)
        keep("DURATION", duration.map { Property(name: "DURATION", value: $0.icalValue) }) { (try? Duration.parse($0.value)) == duration }
        keep("STATUS", status.map { Property(name: "STATUS", value: $0.rawValue) }) { $0.value.uppercased() == status?.rawValue }
        if (try? source.first("COMPLETED")?.dateValue()) != completed { date("COMPLETED", completed) }
        // Unreadable or out-of-range values read as nil; a field left as read keeps the source's text.
        if Self.integer(source.first("PERCENT-COMPLETE"), in: 0...100) != percentComplete { integer("PERCENT-COMPLETE", percentComplete) }
        if Self.integer(source.first("PRIORITY"), in: 0...9) != priority { integer("PRIORITY", priority) }
        if (try? source.first("CREATED")?.dateValue()) != created { date("CREATED", created) }
        if source.all("RELATED-TO").map(\.value) != relatedTo {
            let old = source.all("RELATED-TO")
            c.setAll("RELATED-TO", relatedTo.map { value in old.first { $0.value == value } ?? Property(name: "RELATED-TO", value: value) })
        }
        if Self.estimate(in: source) != estimate {
            // Written where Jadwal reads it first; a calext property beside it is kept in step
            // so a client reading that one sees the same.
            c.set(Self.estimateProperty, estimate.map { Property(name: Self.estimateProperty, value: $0.icalValue) })
            if c.first(Self.draftEstimateProperty) != nil {
                c.set(Self.draftEstimateProperty, estimate.map { Property(name: Self.draftEstimateProperty, value: $0.icalValue) })
            }
        }
        let sourceSequence = source.first("SEQUENCE").flatMap { Int($0.value.trimmingSpaces) } ?? 0
        if sourceSequence != sequence || (source.first("SEQUENCE") == nil && sequence != 0) {
            c.set("SEQUENCE", Property(name: "SEQUENCE", value: String(sequence)))
        }
        let oldAlarms = (try? source.components(named: "VALARM").map(Alarm.init(component:))) ?? []
        if oldAlarms != alarms {
            c.components.removeAll { $0.name == "VALARM" }
            c.components += alarms.map(\.asComponent)
        }
        return c
    }
}
