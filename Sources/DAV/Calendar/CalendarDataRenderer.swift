import ICalendar

/// The text of `<c:calendar-data>` in a report response (RFC 4791 §9.6): the stored object, or
/// the part of it the request selected, expanded or limited as asked.
public struct CalendarDataRenderer: Sendable {
    /// Where floating times and DATE values are placed when a time range is applied.
    public var floatingZone: ZoneRules

    public init(floatingZone: ZoneRules = .utc) {
        self.floatingZone = floatingZone
    }

    /// `originalText` is returned byte for byte when the whole object is asked for, so the
    /// common case costs no serialisation and the client gets exactly what was stored.
    public func render(_ calendar: Component, originalText: String, request: CalendarDataRequest?) -> String {
        guard let request, !request.isWholeObject else { return originalText }
        return ICalendarSerializer().serialize(transform(calendar, request: request))
    }

    /// The calendar object as the request shapes it: first the recurrence options, which need
    /// the whole object, then the component and property selection.
    public func transform(_ calendar: Component, request: CalendarDataRequest) -> Component {
        var result = calendar
        if request.expand != nil || request.limitRecurrenceSet != nil || request.limitFreeBusySet != nil {
            let shaper = RecurrenceShaper(timeline: CalendarTimeline(calendar: calendar, floatingZone: floatingZone))
            if let range = request.expand {
                result = shaper.expanded(result, overlapping: InstantRange(range))
            } else if let range = request.limitRecurrenceSet {
                result = shaper.limitingRecurrenceSet(result, to: InstantRange(range))
            }
            if let range = request.limitFreeBusySet {
                result = shaper.limitingFreeBusy(result, to: InstantRange(range))
            }
        }
        if let selection = request.component {
            result = Self.select(selection, from: result)
        }
        return result
    }

    /// `<c:comp>`, `<c:prop>`, `<c:allprop>`, `<c:allcomp>` (§9.6.1–§9.6.4). Properties and
    /// components keep the object's order, not the request's (as in the §7.8.1 example).
    static func select(_ selection: CalendarDataRequest.ComponentSelection, from component: Component) -> Component {
        guard selection.name == component.name else { return Component(name: component.name) }
        // A bare <comp name="VTIMEZONE"/> selects nothing by the DTD but the whole component in
        // the §7.8.1 example; clients write it meaning the latter, so that is what it returns.
        if case .some(let properties) = selection.properties, properties.isEmpty,
           case .some(let components) = selection.components, components.isEmpty {
            return component
        }
        var selected = Component(name: component.name, line: component.line)
        switch selection.properties {
        case .all:
            selected.properties = component.properties
        case .some(let wanted):
            selected.properties = component.properties.compactMap { property in
                guard let choice = wanted.first(where: { $0.name == property.name }) else { return nil }
                // novalue: name, parameters and the colon, nothing after it (§9.6.4).
                return choice.noValue ? Property(name: property.name, parameters: property.parameters, value: "") : property
            }
        }
        switch selection.components {
        case .all:
            selected.components = component.components
        case .some(let wanted):
            selected.components = component.components.compactMap { child in
                wanted.first { $0.name == child.name }.map { select($0, from: child) }
            }
        }
        return selected
    }
}
