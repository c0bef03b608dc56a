import Foundation
import Testing
@testable import DAV

@Suite("Property values, Depth and property-update answers")
struct ResponseBuilderTests {
    @Test("live property shapes match RFC 3253, 3744 and 4791")
    func propertyShapes() throws {
        let reports = XMLWriter.document(PropertyValue.supportedReportSet([.calendarQuery, .syncCollection]))
        #expect(reports.contains("<d:supported-report-set xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\"><d:supported-report><d:report><c:calendar-query/></d:report></d:supported-report><d:supported-report><d:report><d:sync-collection/></d:report></d:supported-report></d:supported-report-set>"))
        let comps = XMLWriter.document(PropertyValue.supportedCalendarComponentSet(["vtodo"]))
        #expect(comps.contains(#"<c:supported-calendar-component-set xmlns:c="urn:ietf:params:xml:ns:caldav"><c:comp name="VTODO"/></c:supported-calendar-component-set>"#))
        let privileges = XMLWriter.document(PropertyValue.currentUserPrivilegeSet([.dav("read"), .dav("write")]))
        #expect(privileges.contains("<d:privilege><d:read/></d:privilege><d:privilege><d:write/></d:privilege>"))
        let home = PropertyValue.hrefs(.calendarHomeSet, ["/dav/calendars/sara%40example.com/"])
        #expect(try read(XMLWriter.document(home)).first(.href)?.text == "/dav/calendars/sara%40example.com/")
        // A value written by these builders is what CollectionProperty decodes.
        #expect(try CollectionProperty(element: PropertyValue.supportedCalendarComponentSet(["VEVENT", "VTODO"]))
            == .supportedCalendarComponents(["VEVENT", "VTODO"]))
        #expect(try CollectionProperty(element: PropertyValue.resourceType([.collection, .calendar])) == .resourceType([.collection, .calendar]))
    }

    @Test("Depth header: defaults, parsing, and PROPFIND's finite-depth rule")
    func depth() throws {
        #expect(try Depth(header: nil, default: .zero) == .zero)
        #expect(try Depth(header: " 1 ", default: .zero) == .one)
        #expect(try Depth(header: "Infinity", default: .zero) == .infinity)
        #expect(capture { try Depth(header: "2", default: .zero) }?.status == 400)
        #expect(try Depth.forPropfind(header: "0") == .zero)
        let infinite = capture { try Depth.forPropfind(header: "infinity") }
        #expect(infinite?.status == 403)
        #expect(infinite?.condition == .propfindFiniteDepth)
        #expect(capture { try Depth.forPropfind(header: nil) }?.condition == .propfindFiniteDepth)
    }

    @Test("a PROPPATCH with one failure reports the others as 424 (atomicity)")
    func proppatchAtomic() throws {
        let outcomes = [
            PropertyUpdateResponse.Outcome(name: .displayName, status: 200),
            PropertyUpdateResponse.Outcome(name: .calendarColor, status: 200),
            PropertyUpdateResponse.Outcome(name: .getETag, status: 403, responseDescription: "getetag is protected"),
            PropertyUpdateResponse.Outcome(
                name: .calendarTimezone, status: 403, error: DAVElement(.error, elements: [DAVElement(.validCalendarTimezone)])),
        ]
        #expect(!PropertyUpdateResponse.succeeded(outcomes))
        let propstats = PropertyUpdateResponse.propstats(outcomes)
        #expect(propstats.map(\.status) == [403, 403, 424])
        #expect(propstats[2].properties.map(\.name) == [.displayName, .calendarColor])
        let xml = PropertyUpdateResponse.proppatch(href: "/dav/calendars/sara/personal/", outcomes: outcomes).xml
        let back = try read(xml)
        #expect(back.first(.response)?.elements(named: .propstat).count == 3)
        #expect(xml.contains("<d:error><c:valid-calendar-timezone/></d:error>"))
        #expect(xml.contains("HTTP/1.1 424 Failed Dependency"))
    }

    @Test("an all-good PROPPATCH is one 200 propstat; the last outcome per name counts")
    func proppatchSuccess() {
        let outcomes = [
            PropertyUpdateResponse.Outcome(name: .displayName, status: 200),
            PropertyUpdateResponse.Outcome(name: .calendarOrder, status: 200),
            PropertyUpdateResponse.Outcome(name: .displayName, status: 200),
        ]
        #expect(PropertyUpdateResponse.succeeded(outcomes))
        let propstats = PropertyUpdateResponse.propstats(outcomes)
        #expect(propstats.count == 1)
        #expect(propstats[0].status == 200)
        #expect(propstats[0].properties.map(\.name) == [.displayName, .calendarOrder])
    }

    @Test("a failed MKCALENDAR answers <c:mkcalendar-response> with propstats")
    func mkcalendarFailure() throws {
        let element = PropertyUpdateResponse.collectionCreationFailure(.mkcalendar, outcomes: [
            .init(name: .displayName, status: 200), .init(name: .caldav("schedule-calendar-transp"), status: 403),
        ])
        let back = try read(XMLWriter.document(element))
        #expect(back.name == .mkcalendarResponse)
        let statuses = back.elements(named: .propstat).compactMap { $0.first(.status).flatMap { HTTPStatus.code(fromLine: $0.text) } }
        #expect(statuses == [403, 424])
        #expect(PropertyUpdateResponse.collectionCreationFailure(.mkcol, outcomes: []).name == .mkcolResponse)
    }
}

@Suite("Names and errors")
struct NameTests {
    @Test("precondition names are spelled and namespaced as the RFCs define them")
    func preconditionNames() {
        let expected: [(QualifiedName, String)] = [
            (.supportedReport, "{DAV:}supported-report"),
            (.validSyncToken, "{DAV:}valid-sync-token"),
            (.propfindFiniteDepth, "{DAV:}propfind-finite-depth"),
            (.numberOfMatchesWithinLimits, "{DAV:}number-of-matches-within-limits"),
            (.validCalendarData, "{urn:ietf:params:xml:ns:caldav}valid-calendar-data"),
            (.validCalendarObjectResource, "{urn:ietf:params:xml:ns:caldav}valid-calendar-object-resource"),
            (.supportedCalendarComponent, "{urn:ietf:params:xml:ns:caldav}supported-calendar-component"),
            (.supportedCalendarData, "{urn:ietf:params:xml:ns:caldav}supported-calendar-data"),
            (.noUIDConflict, "{urn:ietf:params:xml:ns:caldav}no-uid-conflict"),
            (.maxResourceSizeExceeded, "{urn:ietf:params:xml:ns:caldav}max-resource-size"),
            (.validFilter, "{urn:ietf:params:xml:ns:caldav}valid-filter"),
            (.supportedCollation, "{urn:ietf:params:xml:ns:caldav}supported-collation"),
            (.getCTag, "{http://calendarserver.org/ns/}getctag"),
            (.calendarColor, "{http://apple.com/ns/ical/}calendar-color"),
            (.principalURL, "{DAV:}principal-URL"),
        ]
        for (name, clark) in expected {
            #expect(name.description == clark)
            #expect(QualifiedName(clark: clark) == name)
        }
        #expect(QualifiedName(clark: "plain") == QualifiedName("", "plain"))
        #expect(QualifiedName(clark: "{DAV:}") == nil)
        #expect(QualifiedName(clark: "{DAV:") == nil)
    }

    @Test("errors describe themselves with status, condition and position")
    func errorDescription() {
        let error = capture { try read("<a>\n<b></a>") }
        #expect(error?.description.hasPrefix("400: The XML is not well-formed") == true)
        #expect(error?.description.contains("(line 2, column") == true)
        let precondition = DAVError.precondition(.numberOfMatchesWithinLimits, "Too many results.", status: 507)
        #expect(precondition.description == "507 {DAV:}number-of-matches-within-limits: Too many results.")
    }
}
