import Foundation
import Testing
@testable import DAV

@Suite("PROPFIND, PROPPATCH, MKCALENDAR and MKCOL bodies")
struct RequestTests {
    // MARK: PROPFIND

    /// What iOS/macOS Calendar sends to the principal during account setup.
    static let iOSPrincipalPropfind = """
        <?xml version="1.0" encoding="UTF-8"?>
        <A:propfind xmlns:A="DAV:">
          <A:prop>
            <B:calendar-home-set xmlns:B="urn:ietf:params:xml:ns:caldav"/>
            <B:calendar-user-address-set xmlns:B="urn:ietf:params:xml:ns:caldav"/>
            <A:current-user-principal/>
            <A:displayname/>
            <C:dropbox-home-URL xmlns:C="http://calendarserver.org/ns/"/>
            <C:email-address-set xmlns:C="http://calendarserver.org/ns/"/>
            <C:notification-URL xmlns:C="http://calendarserver.org/ns/"/>
            <A:principal-collection-set/>
            <A:principal-URL/>
            <A:resource-id/>
            <B:schedule-inbox-URL xmlns:B="urn:ietf:params:xml:ns:caldav"/>
            <B:schedule-outbox-URL xmlns:B="urn:ietf:params:xml:ns:caldav"/>
            <A:supported-report-set/>
          </A:prop>
        </A:propfind>
        """

    @Test("the iOS principal PROPFIND keeps every name in order, unknown ones included")
    func iOSPrincipal() throws {
        let request = try PropfindRequest(body: Data(Self.iOSPrincipalPropfind.utf8))
        #expect(request.selection == .properties([
            .calendarHomeSet, .calendarUserAddressSet, .currentUserPrincipal, .displayName,
            .calendarServer("dropbox-home-URL"), .emailAddressSet, .calendarServer("notification-URL"),
            .principalCollectionSet, .principalURL, .dav("resource-id"), .scheduleInboxURL, .scheduleOutboxURL,
            .supportedReportSet,
        ]))
    }

    /// iOS's Depth: 1 PROPFIND on the calendar home, abridged; it mixes five namespaces.
    @Test("the iOS calendar-home PROPFIND resolves Apple and me.com namespaces")
    func iOSCalendarHome() throws {
        let body = """
            <?xml version="1.0" encoding="UTF-8"?>
            <A:propfind xmlns:A="DAV:">
              <A:prop>
                <A:add-member/>
                <C:allowed-sharing-modes xmlns:C="http://calendarserver.org/ns/"/>
                <D:autoprovisioned xmlns:D="http://apple.com/ns/ical/"/>
                <E:bulk-requests xmlns:E="http://me.com/_namespace/"/>
                <D:calendar-color xmlns:D="http://apple.com/ns/ical/"/>
                <B:calendar-description xmlns:B="urn:ietf:params:xml:ns:caldav"/>
                <D:calendar-order xmlns:D="http://apple.com/ns/ical/"/>
                <B:calendar-timezone xmlns:B="urn:ietf:params:xml:ns:caldav"/>
                <A:current-user-privilege-set/>
                <C:getctag xmlns:C="http://calendarserver.org/ns/"/>
                <A:owner/>
                <A:quota-available-bytes/>
                <A:resourcetype/>
                <B:supported-calendar-component-set xmlns:B="urn:ietf:params:xml:ns:caldav"/>
                <A:sync-token/>
              </A:prop>
            </A:propfind>
            """
        guard case .properties(let names) = try PropfindRequest(body: Data(body.utf8)).selection else {
            Issue.record("expected a property list")
            return
        }
        #expect(names.count == 15)
        #expect(names.contains(QualifiedName("http://me.com/_namespace/", "bulk-requests")))
        #expect(names.contains(.calendarColor))
        #expect(names.contains(.getCTag))
        #expect(names.last == .syncToken)
    }

    @Test("an empty PROPFIND body is allprop")
    func emptyBody() throws {
        #expect(try PropfindRequest(body: Data()).selection == .allProperties(include: []))
        #expect(try PropfindRequest(body: Data("\r\n".utf8)).selection == .allProperties(include: []))
    }

    @Test("allprop with include, and propname (RFC 4918 §9.1.6, §9.1.4)")
    func allpropAndPropname() throws {
        let allprop = """
            <?xml version="1.0" encoding="utf-8" ?>
            <D:propfind xmlns:D="DAV:">
              <D:allprop/>
              <D:include>
                <D:supported-live-property-set/>
                <D:supported-report-set/>
              </D:include>
            </D:propfind>
            """
        #expect(try PropfindRequest(body: Data(allprop.utf8)).selection
            == .allProperties(include: [.dav("supported-live-property-set"), .supportedReportSet]))
        let propname = #"<?xml version="1.0" encoding="utf-8" ?><propfind xmlns="DAV:"><propname/></propfind>"#
        #expect(try PropfindRequest(body: Data(propname.utf8)).selection == .propertyNames)
    }

    @Test("Thunderbird's calendar PROPFIND and DAVx5's default-namespace form")
    func thunderbirdAndDAVx5() throws {
        let thunderbird = """
            <?xml version="1.0" encoding="UTF-8"?>
            <D:propfind xmlns:D="DAV:" xmlns:CS="http://calendarserver.org/ns/" xmlns:C="urn:ietf:params:xml:ns:caldav">
              <D:prop>
                <D:resourcetype/>
                <D:owner/>
                <D:current-user-principal/>
                <D:current-user-privilege-set/>
                <D:supported-report-set/>
                <C:supported-calendar-component-set/>
                <CS:getctag/>
              </D:prop>
            </D:propfind>
            """
        #expect(try PropfindRequest(body: Data(thunderbird.utf8)).selection == .properties([
            .resourceType, .owner, .currentUserPrincipal, .currentUserPrivilegeSet, .supportedReportSet,
            .supportedCalendarComponentSet, .getCTag,
        ]))
        let davx5 = #"<?xml version='1.0' encoding='UTF-8' ?><propfind xmlns="DAV:" xmlns:CAL="urn:ietf:params:xml:ns:caldav"><prop><CAL:calendar-home-set /></prop></propfind>"#
        #expect(try PropfindRequest(body: Data(davx5.utf8)).selection == .properties([.calendarHomeSet]))
    }

    @Test("a PROPFIND with the wrong root or no selection is 400")
    func badPropfind() {
        let wrongRoot = capture { try PropfindRequest(body: Data(#"<D:propertyupdate xmlns:D="DAV:"/>"#.utf8)) }
        #expect(wrongRoot?.status == 400)
        #expect(wrongRoot?.kind == .unexpectedContent)
        #expect(wrongRoot?.message.contains("{DAV:}propertyupdate") == true)
        #expect(capture { try PropfindRequest(body: Data(#"<D:propfind xmlns:D="DAV:"/>"#.utf8)) }?.status == 400)
        #expect(capture { try PropfindRequest(body: Data("<D:propfind xmlns:D=\"DAV:\"><D:prop>".utf8)) }?.kind == .malformedXML)
    }

    // MARK: PROPPATCH

    @Test("RFC 4918 §9.2.2: set and remove in order, values kept as trees")
    func proppatchRFCExample() throws {
        let body = """
            <?xml version="1.0" encoding="utf-8" ?>
            <D:propertyupdate xmlns:D="DAV:" xmlns:Z="http://ns.example.com/standards/z39.50/">
              <D:set>
                <D:prop>
                  <Z:Authors>
                    <Z:Author>Jim Whitehead</Z:Author>
                    <Z:Author>Roy Fielding</Z:Author>
                  </Z:Authors>
                </D:prop>
              </D:set>
              <D:remove>
                <D:prop><Z:Copyright-Owner/></D:prop>
              </D:remove>
            </D:propertyupdate>
            """
        let request = try ProppatchRequest(body: Data(body.utf8))
        let z = "http://ns.example.com/standards/z39.50/"
        #expect(request.instructions.map(\.propertyName) == [QualifiedName(z, "Authors"), QualifiedName(z, "Copyright-Owner")])
        guard case .set(let authors) = request.instructions.first else {
            Issue.record("expected set first")
            return
        }
        #expect(authors.elements.map(\.trimmedText) == ["Jim Whitehead", "Roy Fielding"])
        #expect(request.instructions.last == .remove(QualifiedName(z, "Copyright-Owner")))
    }

    @Test("iOS colour PROPPATCH decodes to calendar-color; remove-then-set keeps document order")
    func proppatchColor() throws {
        let body = """
            <?xml version="1.0" encoding="UTF-8"?>
            <A:propertyupdate xmlns:A="DAV:">
              <A:remove><A:prop><A:displayname/></A:prop></A:remove>
              <A:set>
                <A:prop>
                  <B:calendar-color xmlns:B="http://apple.com/ns/ical/" symbolic-color="custom">#5C8AE6FF</B:calendar-color>
                  <A:displayname> Family </A:displayname>
                </A:prop>
              </A:set>
            </A:propertyupdate>
            """
        let request = try ProppatchRequest(body: Data(body.utf8))
        #expect(request.instructions.map(\.propertyName) == [.displayName, .calendarColor, .displayName])
        guard case .set(let color) = request.instructions[1], case .set(let name) = request.instructions[2] else {
            Issue.record("expected two sets")
            return
        }
        #expect(color.attribute("symbolic-color") == "custom")
        #expect(try CollectionProperty(element: color) == .calendarColor("#5C8AE6FF"))
        #expect(try CollectionProperty(element: name) == .displayName(" Family "))
    }

    @Test("a PROPPATCH without instructions or with the wrong root is 400")
    func badProppatch() {
        #expect(capture { try ProppatchRequest(body: Data(#"<D:propertyupdate xmlns:D="DAV:"/>"#.utf8)) }?.status == 400)
        #expect(capture { try ProppatchRequest(body: Data(#"<D:propfind xmlns:D="DAV:"><D:allprop/></D:propfind>"#.utf8)) }?.kind == .unexpectedContent)
    }

    // MARK: MKCALENDAR / MKCOL

    static let vtimezone = """
        BEGIN:VCALENDAR\r
        PRODID:-//Example Corp.//CalDAV Client//EN\r
        VERSION:2.0\r
        BEGIN:VTIMEZONE\r
        TZID:US-Eastern\r
        END:VTIMEZONE\r
        END:VCALENDAR\r

        """

    @Test("RFC 4791 §5.3.1.2 MKCALENDAR example")
    func mkcalendarRFCExample() throws {
        let body = """
            <?xml version="1.0" encoding="utf-8" ?>
            <C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
              <D:set>
                <D:prop>
                  <D:displayname>Lisa's Events</D:displayname>
                  <C:calendar-description xml:lang="en">Calendar restricted to events.</C:calendar-description>
                  <C:supported-calendar-component-set>
                    <C:comp name="VEVENT"/>
                  </C:supported-calendar-component-set>
                  <C:calendar-timezone><![CDATA[\(Self.vtimezone)]]></C:calendar-timezone>
                </D:prop>
              </D:set>
            </C:mkcalendar>
            """
        let request = try CollectionCreationRequest(method: .mkcalendar, body: Data(body.utf8))
        #expect(try request.collectionProperties() == [
            .displayName("Lisa's Events"),
            .calendarDescription("Calendar restricted to events."),
            .supportedCalendarComponents(["VEVENT"]),
            .calendarTimezone(Self.vtimezone),
        ])
        #expect(request.unknownProperties.isEmpty)
    }

    @Test("iOS MKCALENDAR: order, symbolic colour, unknown transparency kept for a 403/404 answer")
    func mkcalendarIOS() throws {
        let body = """
            <?xml version="1.0" encoding="UTF-8"?>
            <B:mkcalendar xmlns:B="urn:ietf:params:xml:ns:caldav">
              <A:set xmlns:A="DAV:">
                <A:prop>
                  <D:calendar-order xmlns:D="http://apple.com/ns/ical/">3</D:calendar-order>
                  <B:supported-calendar-component-set>
                    <B:comp name="VTODO"/>
                  </B:supported-calendar-component-set>
                  <D:calendar-color xmlns:D="http://apple.com/ns/ical/" symbolic-color="orange">#FF9500</D:calendar-color>
                  <A:displayname>Tasks</A:displayname>
                  <B:schedule-calendar-transp><B:transparent/></B:schedule-calendar-transp>
                </A:prop>
              </A:set>
            </B:mkcalendar>
            """
        let request = try CollectionCreationRequest(method: .mkcalendar, body: Data(body.utf8))
        #expect(try request.collectionProperties() == [
            .calendarOrder(3), .supportedCalendarComponents(["VTODO"]), .calendarColor("#FF9500"), .displayName("Tasks"),
        ])
        #expect(request.unknownProperties.map(\.name) == [.caldav("schedule-calendar-transp")])
        #expect(request.unknownProperties.first?.elements.first?.name == .caldav("transparent"))
    }

    @Test("RFC 5689 §5.1 extended MKCOL with a calendar resourcetype")
    func extendedMkcol() throws {
        let body = """
            <?xml version="1.0" encoding="utf-8" ?>
            <D:mkcol xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
              <D:set>
                <D:prop>
                  <D:resourcetype>
                    <D:collection/>
                    <C:calendar/>
                  </D:resourcetype>
                  <D:displayname>Special Resource</D:displayname>
                </D:prop>
              </D:set>
            </D:mkcol>
            """
        let request = try CollectionCreationRequest(method: .mkcol, body: Data(body.utf8))
        #expect(try request.collectionProperties() == [.resourceType([.collection, .calendar]), .displayName("Special Resource")])
        #expect(try CollectionCreationRequest(method: .mkcol, body: Data()).properties.isEmpty)
        // The MKCOL body sent with MKCALENDAR is the wrong request.
        #expect(capture { try CollectionCreationRequest(method: .mkcalendar, body: Data(body.utf8)) }?.status == 400)
    }

    @Test("unusable values of known properties are errors that name the value")
    func badCollectionValues() throws {
        func element(_ name: QualifiedName, _ text: String) -> DAVElement { DAVElement(name, text: text) }
        let color = capture { try CollectionProperty(element: element(.calendarColor, "orange")) }
        #expect(color?.status == 400)
        #expect(color?.message.contains("orange") == true)
        #expect(capture { try CollectionProperty(element: element(.calendarColor, "#FF95")) }?.kind == .invalidValue)
        #expect(capture { try CollectionProperty(element: element(.calendarOrder, "first")) }?.kind == .invalidValue)
        #expect(capture { try CollectionProperty(element: DAVElement(.supportedCalendarComponentSet)) }?.kind == .invalidValue)
        #expect(capture { try CollectionProperty(element: DAVElement(.supportedCalendarComponentSet, elements: [DAVElement(.comp)])) }?.kind == .invalidValue)
        #expect(try CollectionProperty(element: element(.calendarOrder, " 12 ")) == .calendarOrder(12))
        #expect(try CollectionProperty(element: element(.getETag, "x")) == nil)
    }
}
