import Foundation
import ICalendar

/// One busy interval of a free-busy answer, in UTC.
public struct BusyPeriod: Sendable, Hashable {
    public var start: Date
    public var end: Date
    /// The FBTYPE: BUSY, BUSY-TENTATIVE, BUSY-UNAVAILABLE or an x-name.
    public var type: String

    public init(start: Date, end: Date, type: String) {
        self.start = start
        self.end = end
        self.type = type
    }
}

/// The answer to a free-busy-query (RFC 4791 §7.10): the busy time of a collection's events
/// and stored VFREEBUSY components within a range, merged per FBTYPE.
public struct FreeBusyCalculator: Sendable {
    /// Where floating times and all-day events are placed (the collection's calendar-timezone).
    public var floatingZone: ZoneRules
    public var productID: String

    public init(floatingZone: ZoneRules = .utc, productID: String = "-//Jadwal//CalDAV Server//EN") {
        self.floatingZone = floatingZone
        self.productID = productID
    }

    /// A VCALENDAR with exactly one VFREEBUSY: DTSTAMP, the range as DTSTART/DTEND, and one
    /// FREEBUSY line per merged period (BUSY is the default FBTYPE, so it is not written).
    public func render(_ calendars: [Component], range: TimeRange, stamp: Date) -> String {
        ICalendarSerializer().serialize(freeBusyCalendar(calendars, range: range, stamp: stamp))
    }

    public func freeBusyCalendar(_ calendars: [Component], range: TimeRange, stamp: Date) -> Component {
        var freeBusy = Component(name: "VFREEBUSY")
        freeBusy.properties.append(Property(name: "DTSTAMP", value: UTCDateTime.format(stamp)))
        if let start = range.start { freeBusy.properties.append(Property(name: "DTSTART", value: UTCDateTime.format(start))) }
        if let end = range.end { freeBusy.properties.append(Property(name: "DTEND", value: UTCDateTime.format(end))) }
        for period in busyPeriods(calendars, in: range) {
            let seconds = InstantRange.seconds(period.end) - InstantRange.seconds(period.start)
            let value = UTCDateTime.format(period.start) + "/" + ICalendar.Duration(totalSeconds: seconds).icalValue
            let parameters = period.type == "BUSY" ? [] : [Parameter("FBTYPE", period.type)]
            freeBusy.properties.append(Property(name: "FREEBUSY", parameters: parameters, value: value))
        }
        return Component(name: "VCALENDAR", properties: [
            Property(name: "VERSION", value: "2.0"),
            Property(name: "PRODID", value: productID),
        ], components: [freeBusy])
    }

    /// Busy periods clipped to `range`, coalesced per FBTYPE, in start order.
    public func busyPeriods(_ calendars: [Component], in range: TimeRange) -> [BusyPeriod] {
        let window = InstantRange(range)
        var byType: [String: [InstanceSpan]] = [:]
        for calendar in calendars {
            let timeline = CalendarTimeline(calendar: calendar, floatingZone: floatingZone)
            collect(from: calendar, timeline: timeline, in: window) { type, span in
                let clipped = InstanceSpan(start: max(span.start, window.start), end: min(span.end, window.end))
                if clipped.end > clipped.start { byType[type, default: []].append(clipped) }
            }
        }
        var periods: [BusyPeriod] = []
        for (type, spans) in byType {
            for span in Self.coalesced(spans) {
                periods.append(BusyPeriod(start: InstantRange.date(span.start), end: InstantRange.date(span.end), type: type))
            }
        }
        return periods.sorted { ($0.start, $0.type) < ($1.start, $1.type) }
    }

    /// §7.10: opaque events by their STATUS (TENTATIVE is BUSY-TENTATIVE, anything else BUSY,
    /// CANCELLED nothing) and the FREEBUSY values of VFREEBUSY components (FREE is not busy).
    private func collect(from calendar: Component, timeline: CalendarTimeline, in window: InstantRange,
                         _ add: (String, InstanceSpan) -> Void) {
        var seen = Set<String>()
        for event in calendar.components where event.name == "VEVENT" {
            let uid = event.first("UID")?.value ?? ""
            if !uid.isEmpty && !seen.insert(uid).inserted { continue }
            let set = timeline.recurrenceSet(of: event, in: calendar)
            let instances = timeline.instances(of: set, near: window, firstOnly: false) { occurrence, span in
                TimeRangeRule.instance(of: occurrence.component, span: span, overlaps: window)
            }
            for occurrence in instances {
                let component = occurrence.component
                if CalendarTimeline.isCancelled(component) { continue }
                if component.first("TRANSP")?.value.uppercased() == "TRANSPARENT" { continue }
                let tentative = component.first("STATUS")?.value.uppercased() == "TENTATIVE"
                add(tentative ? "BUSY-TENTATIVE" : "BUSY", timeline.span(of: occurrence))
            }
        }
        for freeBusy in calendar.components where freeBusy.name == "VFREEBUSY" {
            for property in freeBusy.all("FREEBUSY") {
                let type = property.parameter("FBTYPE")?.uppercased() ?? "BUSY"
                if type == "FREE" { continue }
                for period in FreeBusyPeriod.periods(of: property, timeline: timeline) {
                    add(type, InstanceSpan(start: period.start, end: period.end))
                }
            }
        }
    }

    /// Overlapping or touching spans joined (§7.10: "SHOULD coalesce consecutive or overlapping").
    static func coalesced(_ spans: [InstanceSpan]) -> [InstanceSpan] {
        var merged: [InstanceSpan] = []
        for span in spans.sorted(by: { ($0.start, $0.end) < ($1.start, $1.end) }) {
            if let last = merged.last, span.start <= last.end {
                merged[merged.count - 1].end = max(last.end, span.end)
            } else {
                merged.append(span)
            }
        }
        return merged
    }
}
