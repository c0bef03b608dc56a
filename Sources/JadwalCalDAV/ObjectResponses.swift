import DAV
import Foundation
import ICalendar
import JadwalCore
import JadwalHTTP

/// How one report answers each calendar object, with what is the same for every object (the
/// properties asked for, the calendar's href) worked out once.
package struct ObjectResponses {
    package let service: CalDAVService
    package let sheet: DAVPropertySheet
    package let calendar: CalendarCollection
    package let selection: PropertySelection
    package let calendarData: CalendarDataRequest?
    package let minimal: Bool
    /// The zone for expanded or limited calendar-data; the calendar's own when nil.
    package var floatingZone: ZoneRules?
    private let calendarHref: String
    /// What clients ask of objects in bulk depends on the object's bytes and href alone, so a
    /// response asked for again is kept with the parsed object under this description of the
    /// request, and copied next time; nil when the selection asks for more. (Those properties have
    /// distinct local names, which therefore name them here.)
    private let shape: String?

    package init(
        service: CalDAVService, sheet: DAVPropertySheet, calendar: CalendarCollection, selection: PropertySelection,
        calendarData: CalendarDataRequest?, minimal: Bool, floatingZone: ZoneRules? = nil
    ) {
        self.service = service
        self.sheet = sheet
        self.calendar = calendar
        self.selection = selection
        self.calendarData = calendarData
        self.minimal = minimal
        self.floatingZone = floatingZone
        self.calendarHref = DAVHref.calendar(sheet.account.id, calendar.slug)
        if calendarData?.isWholeObject ?? true, case .properties(let names) = selection, names.allSatisfy(Self.propertiesOfTheBytes.contains) {
            shape = "\(minimal ? 1 : 0) \(names.map(\.localName).joined(separator: " "))"
        } else {
            shape = nil
        }
    }

    /// Object properties whose values follow from the object's bytes alone (not, for example,
    /// `getlastmodified`, which changes when the same bytes are written again).
    package static let propertiesOfTheBytes: Set<PropertyName> = [.getETag, .calendarData, .getContentType, .getContentLength, .resourceType]

    package func response(for object: CalendarObject, parsed: ParsedCalendarObject? = nil) -> Multistatus.Response {
        guard let shape else { return make(object, href: calendarHref + DAVHref.encode(object.name), parsed: parsed) }
        let parsed = parsed ?? service.parsedCalendars.entry(for: object)
        let place = ParsedCalendarObject.ResponsePlace(shape: shape, calendarHref: calendarHref, name: object.name)
        let answer = parsed.response(at: place)
        if case .kept(let kept) = answer { return kept }
        let made = make(object, href: calendarHref + DAVHref.encode(object.name), parsed: parsed)
        guard case .askedAgain = answer, let written = XMLWriter.prewritten(made) else { return made }
        parsed.keep(written, at: place)
        return written
    }

    private func make(_ object: CalendarObject, href: String, parsed: ParsedCalendarObject?) -> Multistatus.Response {
        let render: () -> DAVElement?
        if let calendarData, !calendarData.isWholeObject {
            render = {
                service.renderedCalendarData(object, calendar: calendar, request: calendarData, parsed: parsed?.calendar, floatingZone: floatingZone)
                    .map(PropertyValue.calendarData)
            }
        } else {
            // The stored text, escaped once per version and reused by every response sending it.
            render = { PropertyValue.calendarData((parsed ?? service.parsedCalendars.entry(for: object)).calendarData) }
        }
        return service.propertyResponse(
            sheet: sheet, href: href, resource: .object(calendar, object), selection: selection, minimal: minimal, calendarData: render)
    }
}
