// libFuzzer entry point for the WebDAV/CalDAV request bodies of Sources/DAV (issue 22).
// Built together with Sources/ICalendar and Sources/DAV (see README.md), so it names the types directly.
//
// The first byte picks the entry point, the rest is the request body:
//   0 PROPFIND          PropfindRequest(body:)
//   1 PROPPATCH         ProppatchRequest(body:), each set value decoded by CollectionProperty
//   2 MKCALENDAR        CollectionCreationRequest(method: .mkcalendar, body:)
//   3 extended MKCOL    CollectionCreationRequest(method: .mkcol, body:)
//   4 REPORT            Report(body:): calendar-query, calendar-multiget, sync-collection,
//                       free-busy-query, principal-property-search
//   5 sharing POST      ShareRequest(element:) and InviteReply(element:)
//   6 Outbox POST       FreeBusyRequest(text:) (an iTIP VFREEBUSY request, iCalendar text)
//   7 request path      DAVTarget(path:), DAVHref.path(of:), Depth(header:)
// Whatever parses is walked: filters are evaluated against sample calendar objects (in full and
// through EventInstanceIndex, which must agree), calendar-data is rendered, free-busy computed,
// and every tree read or answer written is serialised with XMLWriter and read back, which must
// give the same tree. Any crash, hang, sanitizer report or failed check is a finding.

import Foundation
import ICalendar

private let samples: [(text: String, calendar: Component)] = {
    let texts = [
        // A recurring event in a VTIMEZONE with an overridden instance and an EXDATE.
        """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//Fuzz//EN\r
        BEGIN:VTIMEZONE\r
        TZID:US/Eastern\r
        BEGIN:DAYLIGHT\r
        DTSTART:20000404T020000\r
        RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=4\r
        TZNAME:EDT\r
        TZOFFSETFROM:-0500\r
        TZOFFSETTO:-0400\r
        END:DAYLIGHT\r
        BEGIN:STANDARD\r
        DTSTART:20001026T020000\r
        RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10\r
        TZNAME:EST\r
        TZOFFSETFROM:-0400\r
        TZOFFSETTO:-0500\r
        END:STANDARD\r
        END:VTIMEZONE\r
        BEGIN:VEVENT\r
        DTSTAMP:20060206T001121Z\r
        DTSTART;TZID=US/Eastern:20060102T120000\r
        DURATION:PT1H\r
        RRULE:FREQ=DAILY;COUNT=5\r
        EXDATE;TZID=US/Eastern:20060105T120000\r
        SUMMARY:Event #2\r
        ATTENDEE;PARTSTAT=ACCEPTED;ROLE=CHAIR:mailto:cyrus@example.com\r
        ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:lisa@example.com\r
        UID:00959BC664CA650E933C892C@example.com\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        DTSTAMP:20060206T001121Z\r
        DTSTART;TZID=US/Eastern:20060104T140000\r
        DURATION:PT1H\r
        RECURRENCE-ID;TZID=US/Eastern:20060104T120000\r
        SUMMARY:Event #2 bis\r
        STATUS:TENTATIVE\r
        UID:00959BC664CA650E933C892C@example.com\r
        END:VEVENT\r
        END:VCALENDAR\r

        """,
        // An all-day (floating) weekly event without end, transparent, with an alarm.
        """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//Fuzz//EN\r
        BEGIN:VEVENT\r
        UID:allday@example.com\r
        DTSTAMP:20060206T001121Z\r
        DTSTART;VALUE=DATE:20060103\r
        RRULE:FREQ=WEEKLY;BYDAY=TU,TH\r
        SUMMARY:Gym\\, early\r
        CATEGORIES:HEALTH,ROUTINE\r
        TRANSP:OPAQUE\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        TRIGGER;RELATED=START:-PT30M\r
        DESCRIPTION:Reminder\r
        END:VALARM\r
        END:VEVENT\r
        END:VCALENDAR\r

        """,
        // A to-do with DUE, COMPLETED and an absolute alarm.
        """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//Fuzz//EN\r
        BEGIN:VTODO\r
        DTSTAMP:20060205T235335Z\r
        DTSTART:20060104T000000Z\r
        DUE;VALUE=DATE:20060107\r
        COMPLETED:20060106T120000Z\r
        STATUS:COMPLETED\r
        SUMMARY:Task #2\r
        UID:E10BA47467C5C69BB74E8720@example.com\r
        BEGIN:VALARM\r
        ACTION:AUDIO\r
        TRIGGER;VALUE=DATE-TIME:20060106T100000Z\r
        END:VALARM\r
        END:VTODO\r
        END:VCALENDAR\r

        """,
        // Stored busy time and a journal entry.
        """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//Fuzz//EN\r
        BEGIN:VFREEBUSY\r
        UID:fb@example.com\r
        DTSTAMP:20060206T001121Z\r
        DTSTART:20060101T000000Z\r
        DTEND:20060201T000000Z\r
        FREEBUSY;FBTYPE=BUSY-UNAVAILABLE:20060103T100000Z/PT2H,20060104T100000Z/20060104T113000Z\r
        FREEBUSY;FBTYPE=FREE:20060105T100000Z/PT1H\r
        END:VFREEBUSY\r
        BEGIN:VJOURNAL\r
        UID:journal@example.com\r
        DTSTAMP:20060206T001121Z\r
        DTSTART;VALUE=DATE:20060103\r
        SUMMARY:Notes\r
        END:VJOURNAL\r
        END:VCALENDAR\r

        """,
        // A floating-time open-ended hourly series, cancelled instance included.
        """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//Fuzz//EN\r
        BEGIN:VEVENT\r
        UID:hourly@example.com\r
        DTSTAMP:20060206T001121Z\r
        DTSTART:20060102T080000\r
        DTEND:20060102T083000\r
        RRULE:FREQ=HOURLY;INTERVAL=7;BYHOUR=8,15,22\r
        SUMMARY:Standup\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:hourly@example.com\r
        DTSTAMP:20060206T001121Z\r
        RECURRENCE-ID:20060103T150000\r
        DTSTART:20060103T150000\r
        DTEND:20060103T153000\r
        STATUS:CANCELLED\r
        END:VEVENT\r
        END:VCALENDAR\r

        """,
    ]
    return texts.map { text in
        guard let calendar = try? ICalendarParser().parseCalendar(text) else {
            fatalError("a sample calendar of the fuzz target does not parse")
        }
        return (text, calendar)
    }
}()

/// 2006-01-01T00:00:00Z, near the samples' events: the instance index window is two years each side.
private let today: Int64 = 1_136_073_600
private let twoYears: Int64 = 2 * 366 * 86_400
private let stamp = Date(timeIntervalSince1970: 1_136_073_600)

private func fail(_ message: String) -> Never {
    fatalError("fuzz check failed: \(message)")
}

/// The tree as a reader gives it back: escaped text is plain text, adjacent runs are one run.
private func normalized(_ element: DAVElement) -> DAVElement {
    var children: [DAVElement.Child] = []
    for child in element.children {
        let text: String
        switch child {
        case .element(let inner):
            children.append(.element(normalized(inner)))
            continue
        case .text(let value): text = value
        case .escaped(let value): text = value.text
        }
        guard !text.isEmpty else { continue }
        if case .text(let previous)? = children.last {
            children[children.count - 1] = .text(previous + text)
        } else {
            children.append(.text(text))
        }
    }
    return DAVElement(element.name, attributes: element.attributes, children: children)
}

/// Written trees must read back to the same tree.
private func roundTrip(_ element: DAVElement) {
    let written = XMLWriter.data(element)
    let again: DAVElement
    do {
        again = try XMLReader(limits: .init(maxBytes: 1 << 24, maxDepth: 128)).read(written)
    } catch {
        fail("XMLWriter output does not read back (\(error)): \(String(decoding: written, as: UTF8.self))")
    }
    guard again == normalized(element) else {
        fail("XMLWriter output reads back as a different tree:\n\(element)\n\(again)")
    }
}

/// A 207 body: the streaming writer must produce the bytes of the tree writer, and they must parse.
private func check(_ multistatus: Multistatus) {
    let streamed = XMLWriter.bytes(multistatus)
    let tree = XMLWriter.bytes(multistatus.element)
    guard streamed == tree else {
        fail("XMLWriter.bytes(multistatus) differs from bytes(multistatus.element)")
    }
    let prewritten = Multistatus(
        responses: multistatus.responses.map { XMLWriter.prewritten($0) ?? $0 }, syncToken: multistatus.syncToken,
        responseDescription: multistatus.responseDescription)
    guard XMLWriter.bytes(prewritten) == tree else { fail("a prewritten response changed the multistatus bytes") }
    guard let read = try? XMLReader(limits: .init(maxBytes: 1 << 24, maxDepth: 128)).read(Data(tree)) else {
        fail("a multistatus does not read back: \(String(decoding: tree, as: UTF8.self))")
    }
    guard read == normalized(multistatus.element) else { fail("a multistatus reads back as a different tree") }
}

private func selectionResponse(_ href: String, _ selection: PropertySelection, calendarData: String? = nil) -> Multistatus.Response {
    var builder = Multistatus.PropertyResponseBuilder(href: href)
    switch selection {
    case .properties(let names):
        for name in names {
            if name == .calendarData, let calendarData {
                builder.add(DAVElement(.calendarData, children: [.escaped(EscapedText(calendarData))]))
            } else {
                builder.addNotFound(name)
            }
        }
    case .allProperties(let include):
        builder.add(DAVElement(.displayName, text: href))
        for name in include { builder.addNotFound(name) }
    case .propertyNames:
        builder.add(DAVElement(.displayName))
    }
    return builder.build(minimal: href.hasSuffix("2.ics"))
}

private func zone(text: String?, identifier: String?) -> ZoneRules {
    if let text,
       let parsed = try? ICalendarParser().parseCalendar(text),
       let vtimezone = parsed.components.first(where: { $0.name == "VTIMEZONE" }),
       let rules = try? ZoneRules(vtimezone: vtimezone) {
        return rules
    }
    if let identifier, identifier.utf8.count < 200, let rules = ZoneRules(ianaIdentifier: identifier) { return rules }
    return .utc
}

private func render(_ request: CalendarDataRequest?, zone: ZoneRules) -> [String] {
    let renderer = CalendarDataRenderer(floatingZone: zone)
    return samples.map { sample in
        let text = renderer.render(sample.calendar, originalText: sample.text, request: request)
        // What is rendered is iCalendar a client must be able to read.
        if text != sample.text, (try? ICalendarParser().parse(text)) == nil {
            fail("rendered calendar-data does not parse:\n\(text)")
        }
        return text
    }
}

private func walk(query: CalendarQueryReport) {
    let floating = zone(text: query.timezone, identifier: query.timezoneID)
    let evaluator = CalendarQueryEvaluator(floatingZone: floating)
    _ = query.filter.componentTypes
    _ = query.filter.componentTimeRange
    let texts = render(query.calendarData, zone: floating)
    var responses: [Multistatus.Response] = []
    for (position, sample) in samples.enumerated() {
        let full = evaluator.matches(query.filter, calendar: sample.calendar)
        // The instance index must give the evaluator's answer whenever it answers.
        let index = EventInstanceIndex(calendar: sample.calendar, floatingZone: floating, window: (today - twoYears)...(today + twoYears))
        let indexed = evaluator.matches(query.filter, calendar: { sample.calendar }, events: { index })
        if indexed != full {
            fail("EventInstanceIndex answers \(indexed), the evaluator \(full), for sample \(position)")
        }
        if full { responses.append(selectionResponse("/dav/calendars/x/cal/\(position).ics", query.properties, calendarData: texts[position])) }
    }
    check(Multistatus(responses: responses))
}

private func walk(report: Report) {
    switch report {
    case .calendarQuery(let query):
        walk(query: query)
    case .calendarMultiget(let multiget):
        let texts = render(multiget.calendarData, zone: .utc)
        var responses: [Multistatus.Response] = []
        for (position, href) in multiget.hrefs.prefix(64).enumerated() {
            walk(path: DAVHref.path(of: href))
            responses.append(selectionResponse(href, multiget.properties, calendarData: texts[position % texts.count]))
        }
        check(Multistatus(responses: responses))
    case .syncCollection(let sync):
        let texts = render(sync.calendarData, zone: .utc)
        let count = min(sync.limit ?? texts.count, texts.count)
        let responses = (0..<count).map { selectionResponse("/dav/calendars/x/cal/\($0).ics", sync.properties, calendarData: texts[$0]) }
        check(Multistatus(responses: responses, syncToken: sync.syncToken ?? "initial"))
    case .freeBusyQuery(let query):
        let calculator = FreeBusyCalculator()
        let text = calculator.render(samples.map(\.calendar), range: query.timeRange, stamp: stamp)
        if (try? ICalendarParser().parse(text)) == nil { fail("the free-busy answer does not parse:\n\(text)") }
    case .principalPropertySearch(let search):
        for entry in search.searches { _ = entry.match.lowercased().contains("fuzz") }
        check(Multistatus(responses: [selectionResponse("/dav/principals/x/", search.properties)]))
    }
}

private func walk(properties: [DAVElement], method: CollectionCreationRequest.Method?) {
    var outcomes: [PropertyUpdateResponse.Outcome] = []
    for element in properties {
        do {
            if let property = try CollectionProperty(element: element) {
                _ = property.name
                if case .calendarTimezone(let text) = property { _ = zone(text: text, identifier: nil) }
            }
            outcomes.append(.init(name: element.name, status: 200))
        } catch {
            outcomes.append(.init(name: element.name, status: 403, error: DAVElement(.error), responseDescription: error.message))
        }
        // A dead property is stored as sent and answered in PROPFIND: it must survive writing.
        roundTrip(element)
    }
    if let method {
        roundTrip(PropertyUpdateResponse.collectionCreationFailure(method, outcomes: outcomes))
    } else {
        _ = PropertyUpdateResponse.succeeded(outcomes)
        check(PropertyUpdateResponse.proppatch(href: "/dav/calendars/x/cal/", outcomes: outcomes))
    }
}

private func walk(path: String) {
    guard let target = DAVTarget(path: path) else { return }
    _ = target.owner
    _ = target.metricsPath
    // A path the server understood, written back as an href, must name the same resource.
    let href = DAVHref.href(for: target)
    guard DAVTarget(path: href) == target else { fail("DAVHref.href(for:) of \(target) reads back differently: \(href)") }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDAVRequest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    _ = samples
    let selector = data[0] % 8
    let body = Data(bytes: data + 1, count: size - 1)
    let reader = XMLReader()
    switch selector {
    case 0:
        guard let request = try? PropfindRequest(body: body, reader: reader) else { break }
        check(Multistatus(responses: [selectionResponse("/dav/calendars/x/", request.selection)]))
    case 1:
        guard let request = try? ProppatchRequest(body: body, reader: reader) else { break }
        var sets: [DAVElement] = []
        for instruction in request.instructions {
            _ = instruction.propertyName
            if case .set(let element) = instruction { sets.append(element) }
        }
        walk(properties: sets, method: nil)
    case 2, 3:
        let method: CollectionCreationRequest.Method = selector == 2 ? .mkcalendar : .mkcol
        guard let request = try? CollectionCreationRequest(method: method, body: body, reader: reader) else { break }
        _ = try? request.collectionProperties()
        _ = request.unknownProperties
        walk(properties: request.properties, method: method)
    case 4:
        guard let report = try? Report(body: body, reader: reader) else { break }
        _ = report.name
        walk(report: report)
    case 5:
        guard let element = try? reader.read(body) else { break }
        roundTrip(element)
        if let share = try? ShareRequest(element: element) {
            for sharee in share.sharees { walk(path: DAVHref.path(of: sharee.href)) }
        }
        if let reply = try? InviteReply(element: element), let host = reply.hostURL {
            walk(path: DAVHref.path(of: host))
        }
    case 6:
        let text = String(decoding: body, as: UTF8.self)
        guard let request = try? FreeBusyRequest(text: text) else { break }
        let periods = FreeBusyCalculator().busyPeriods(samples.map(\.calendar), in: request.range)
        for attendee in request.attendees.prefix(4) {
            let reply = request.reply(for: attendee, busy: periods, stamp: stamp)
            if (try? ICalendarParser().parse(reply)) == nil { fail("a free-busy reply does not parse:\n\(reply)") }
        }
    default:
        let text = String(decoding: body, as: UTF8.self)
        let lines = text.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false)
        _ = try? Depth(header: lines.first.map(String.init), default: .zero)
        _ = try? Depth.forPropfind(header: lines.first.map(String.init))
        for line in lines.dropFirst() { walk(path: DAVHref.path(of: String(line))) }
        _ = DAVHref.encode(text)
    }
    return 0
}
