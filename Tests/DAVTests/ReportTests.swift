import Foundation
import Testing
@testable import DAV

@Suite("REPORT bodies")
struct ReportTests {
    func query(_ xml: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> CalendarQueryReport {
        guard case .calendarQuery(let query) = try report(xml) else {
            Issue.record("expected a calendar-query", sourceLocation: sourceLocation)
            throw DAVError.unexpected("not a calendar-query")
        }
        return query
    }

    // MARK: calendar-query, RFC 4791 §7.8 examples

    @Test("§7.8.1 partial retrieval: comp/prop selection and a VEVENT time-range")
    func partialRetrieval() throws {
        let q = try query("""
            <?xml version="1.0" encoding="utf-8" ?>
            <C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
              <D:prop>
                <D:getetag/>
                <C:calendar-data>
                  <C:comp name="VCALENDAR">
                    <C:prop name="VERSION"/>
                    <C:comp name="VEVENT">
                      <C:prop name="SUMMARY"/>
                      <C:prop name="UID"/>
                      <C:prop name="DTSTART"/>
                      <C:prop name="DTEND"/>
                      <C:prop name="DURATION"/>
                      <C:prop name="RRULE"/>
                      <C:prop name="RDATE"/>
                      <C:prop name="EXRULE"/>
                      <C:prop name="EXDATE"/>
                      <C:prop name="RECURRENCE-ID"/>
                    </C:comp>
                    <C:comp name="VTIMEZONE"/>
                  </C:comp>
                </C:calendar-data>
              </D:prop>
              <C:filter>
                <C:comp-filter name="VCALENDAR">
                  <C:comp-filter name="VEVENT">
                    <C:time-range start="20060104T000000Z"
                                  end="20060105T000000Z"/>
                  </C:comp-filter>
                </C:comp-filter>
              </C:filter>
            </C:calendar-query>
            """)
        #expect(q.properties == .properties([.getETag, .calendarData]))
        let calendar = try #require(q.calendarData?.component)
        #expect(calendar.name == "VCALENDAR")
        #expect(calendar.properties == .some([.init(name: "VERSION")]))
        guard case .some(let comps) = calendar.components else {
            Issue.record("expected selected components")
            return
        }
        #expect(comps.map(\.name) == ["VEVENT", "VTIMEZONE"])
        #expect(comps[0].properties == .some(["SUMMARY", "UID", "DTSTART", "DTEND", "DURATION", "RRULE", "RDATE", "EXRULE", "EXDATE", "RECURRENCE-ID"].map { .init(name: $0) }))
        #expect(comps[1].properties == .some([]))
        #expect(q.calendarData?.isWholeObject == false)
        let vevent = try #require(q.filter.root.compFilters.first)
        #expect(vevent.name == "VEVENT")
        #expect(vevent.timeRange == TimeRange(start: date("20060104T000000Z"), end: date("20060105T000000Z")))
        #expect(q.filter.componentTypes == ["VEVENT"])
        #expect(q.filter.componentTimeRange == vevent.timeRange)
    }

    @Test("§7.8.2 expand and §7.8.3 limit-recurrence-set")
    func expandAndLimit() throws {
        let expand = try query("""
            <C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
              <D:prop>
                <C:calendar-data>
                  <C:expand start="20060103T000000Z" end="20060105T000000Z"/>
                </C:calendar-data>
              </D:prop>
              <C:filter>
                <C:comp-filter name="VCALENDAR">
                  <C:comp-filter name="VEVENT">
                    <C:time-range start="20060103T000000Z" end="20060105T000000Z"/>
                  </C:comp-filter>
                </C:comp-filter>
              </C:filter>
            </C:calendar-query>
            """)
        #expect(expand.calendarData?.expand == TimeRange(start: date("20060103T000000Z"), end: date("20060105T000000Z")))
        #expect(expand.calendarData?.component == nil)

        let limit = try query("""
            <C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
              <D:prop>
                <C:calendar-data>
                  <C:limit-recurrence-set start="20060103T000000Z" end="20060105T000000Z"/>
                </C:calendar-data>
              </D:prop>
              <C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VEVENT"/></C:comp-filter></C:filter>
            </C:calendar-query>
            """)
        #expect(limit.calendarData?.limitRecurrenceSet?.start == date("20060103T000000Z"))
        #expect(limit.calendarData?.expand == nil)
    }

    @Test("§7.8.5 alarm time-range nested in VTODO")
    func alarms() throws {
        let q = try query("""
            <C:calendar-query xmlns:C="urn:ietf:params:xml:ns:caldav">
              <D:prop xmlns:D="DAV:"><C:calendar-data/><D:getetag/></D:prop>
              <C:filter>
                <C:comp-filter name="VCALENDAR">
                  <C:comp-filter name="VTODO">
                    <C:comp-filter name="VALARM">
                      <C:time-range start="20060106T100000Z" end="20060107T100000Z"/>
                    </C:comp-filter>
                  </C:comp-filter>
                </C:comp-filter>
              </C:filter>
            </C:calendar-query>
            """)
        let alarm = try #require(q.filter.root.compFilters.first?.compFilters.first)
        #expect(alarm.name == "VALARM")
        #expect(alarm.timeRange?.end == date("20060107T100000Z"))
        #expect(q.calendarData?.isWholeObject == true)
    }

    @Test("§7.8.6 UID with i;octet, §7.8.7 ATTENDEE with PARTSTAT param-filter")
    func textMatches() throws {
        let uid = try query("""
            <C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
              <D:prop><D:getetag/><C:calendar-data/></D:prop>
              <C:filter>
                <C:comp-filter name="VCALENDAR">
                  <C:comp-filter name="VEVENT">
                    <C:prop-filter name="UID">
                      <C:text-match collation="i;octet">DC6C50A017428C5216A2F1CD@example.com</C:text-match>
                    </C:prop-filter>
                  </C:comp-filter>
                </C:comp-filter>
              </C:filter>
            </C:calendar-query>
            """)
        let uidFilter = try #require(uid.filter.root.compFilters.first?.propFilters.first)
        #expect(uidFilter.textMatch == TextMatch(text: "DC6C50A017428C5216A2F1CD@example.com", collation: .octet))

        let attendee = try query("""
            <C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
              <D:prop><D:getetag/><C:calendar-data/></D:prop>
              <C:filter>
                <C:comp-filter name="VCALENDAR">
                  <C:comp-filter name="VEVENT">
                    <C:prop-filter name="ATTENDEE">
                      <C:text-match collation="i;ascii-casemap">mailto:lisa@example.com</C:text-match>
                      <C:param-filter name="PARTSTAT">
                        <C:text-match collation="i;ascii-casemap">NEEDS-ACTION</C:text-match>
                      </C:param-filter>
                    </C:prop-filter>
                  </C:comp-filter>
                </C:comp-filter>
              </C:filter>
            </C:calendar-query>
            """)
        let filter = try #require(attendee.filter.root.compFilters.first?.propFilters.first)
        #expect(filter.name == "ATTENDEE")
        #expect(filter.paramFilters == [ParamFilter(name: "PARTSTAT", textMatch: TextMatch(text: "NEEDS-ACTION"))])
    }

    @Test("§7.8.9 open to-dos: is-not-defined and negate-condition")
    func openTodos() throws {
        let q = try query("""
            <?xml version="1.0" encoding="utf-8" ?>
            <C:calendar-query xmlns:C="urn:ietf:params:xml:ns:caldav">
              <D:prop xmlns:D="DAV:">
                <D:getetag/>
                <C:calendar-data/>
              </D:prop>
              <C:filter>
                <C:comp-filter name="VCALENDAR">
                  <C:comp-filter name="VTODO">
                    <C:prop-filter name="COMPLETED">
                      <C:is-not-defined/>
                    </C:prop-filter>
                    <C:prop-filter name="STATUS">
                      <C:text-match negate-condition="yes">CANCELLED</C:text-match>
                    </C:prop-filter>
                  </C:comp-filter>
                </C:comp-filter>
              </C:filter>
            </C:calendar-query>
            """)
        let todo = try #require(q.filter.root.compFilters.first)
        #expect(todo.propFilters == [
            PropFilter(name: "COMPLETED", isNotDefined: true),
            PropFilter(name: "STATUS", textMatch: TextMatch(text: "CANCELLED", negated: true)),
        ])
    }

    @Test("DAVx5's default-namespace query and python-caldav's expanded search")
    func clientQueries() throws {
        let davx5 = try query(#"<?xml version='1.0' encoding='UTF-8' ?><CAL:calendar-query xmlns="DAV:" xmlns:CAL="urn:ietf:params:xml:ns:caldav"><prop><getetag /></prop><CAL:filter><CAL:comp-filter name="VCALENDAR"><CAL:comp-filter name="VEVENT"><CAL:time-range start="20251022T000000Z" /></CAL:comp-filter></CAL:comp-filter></CAL:filter></CAL:calendar-query>"#)
        #expect(davx5.properties == .properties([.getETag]))
        #expect(davx5.filter.componentTimeRange == TimeRange(start: date("20251022T000000Z"), end: nil))

        let python = try query(#"<?xml version='1.0' encoding='utf-8'?><C:calendar-query xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:D="DAV:"><D:prop><C:calendar-data><C:expand start="20060103T000000Z" end="20060105T000000Z"/></C:calendar-data></D:prop><C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VEVENT"><C:time-range start="20060103T000000Z" end="20060105T000000Z"/></C:comp-filter></C:comp-filter></C:filter></C:calendar-query>"#)
        #expect(python.calendarData?.expand != nil)
    }

    @Test("a query time zone is kept exactly; timezone and timezone-id together are refused")
    func queryTimezone() throws {
        let tz = "BEGIN:VCALENDAR\nBEGIN:VTIMEZONE\nTZID:Asia/Riyadh\nEND:VTIMEZONE\nEND:VCALENDAR\n"
        let q = try query(#"<C:calendar-query xmlns:C="urn:ietf:params:xml:ns:caldav"><C:filter><C:comp-filter name="VCALENDAR"/></C:filter><C:timezone>"# + tz + "</C:timezone></C:calendar-query>")
        #expect(q.timezone == tz)
        #expect(q.properties == .allProperties(include: []))
        let both = capture { try report(#"<C:calendar-query xmlns:C="urn:ietf:params:xml:ns:caldav"><C:filter><C:comp-filter name="VCALENDAR"/></C:filter><C:timezone>x</C:timezone><C:timezone-id>Asia/Riyadh</C:timezone-id></C:calendar-query>"#) }
        #expect(both?.status == 400)
    }

    // MARK: Invalid filters

    @Test("invalid filters are 403 valid-filter with a reason", arguments: [
        ("no filter", #"<C:calendar-query xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:D="DAV:"><D:prop><D:getetag/></D:prop></C:calendar-query>"#, "needs a <filter>"),
        ("top is not VCALENDAR", #"<C:calendar-query xmlns:C="urn:ietf:params:xml:ns:caldav"><C:filter><C:comp-filter name="VEVENT"/></C:filter></C:calendar-query>"#, "VCALENDAR"),
        ("two top filters", #"<C:calendar-query xmlns:C="urn:ietf:params:xml:ns:caldav"><C:filter><C:comp-filter name="VCALENDAR"/><C:comp-filter name="VCALENDAR"/></C:filter></C:calendar-query>"#, "exactly one"),
        ("VEVENT in VEVENT (RFC 4791 §7.8)", #"<C:calendar-query xmlns:C="urn:ietf:params:xml:ns:caldav"><C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VEVENT"><C:comp-filter name="VEVENT"/></C:comp-filter></C:comp-filter></C:filter></C:calendar-query>"#, "nested"),
        ("time-range not a UTC date-time", #"<C:calendar-query xmlns:C="urn:ietf:params:xml:ns:caldav"><C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VEVENT"><C:time-range start="2006-01-04T00:00:00Z"/></C:comp-filter></C:comp-filter></C:filter></C:calendar-query>"#, "2006-01-04T00:00:00Z"),
        ("time-range in local time", #"<C:calendar-query xmlns:C="urn:ietf:params:xml:ns:caldav"><C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VEVENT"><C:time-range start="20060104T000000"/></C:comp-filter></C:comp-filter></C:filter></C:calendar-query>"#, "UTC date-time"),
        ("time-range February 30th", #"<C:calendar-query xmlns:C="urn:ietf:params:xml:ns:caldav"><C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VEVENT"><C:time-range start="20060230T000000Z"/></C:comp-filter></C:comp-filter></C:filter></C:calendar-query>"#, "20060230T000000Z"),
        ("time-range end before start", #"<C:calendar-query xmlns:C="urn:ietf:params:xml:ns:caldav"><C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VEVENT"><C:time-range start="20060105T000000Z" end="20060104T000000Z"/></C:comp-filter></C:comp-filter></C:filter></C:calendar-query>"#, "after its start"),
        ("time-range without bounds", #"<C:calendar-query xmlns:C="urn:ietf:params:xml:ns:caldav"><C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VEVENT"><C:time-range/></C:comp-filter></C:comp-filter></C:filter></C:calendar-query>"#, "start or an end"),
        ("time-range on VTIMEZONE", #"<C:calendar-query xmlns:C="urn:ietf:params:xml:ns:caldav"><C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VTIMEZONE"><C:time-range start="20060105T000000Z"/></C:comp-filter></C:comp-filter></C:filter></C:calendar-query>"#, "cannot apply"),
        ("is-not-defined with a test", #"<C:calendar-query xmlns:C="urn:ietf:params:xml:ns:caldav"><C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VTODO"><C:prop-filter name="DUE"><C:is-not-defined/><C:text-match>x</C:text-match></C:prop-filter></C:comp-filter></C:comp-filter></C:filter></C:calendar-query>"#, "cannot be combined"),
        ("comp-filter without name", #"<C:calendar-query xmlns:C="urn:ietf:params:xml:ns:caldav"><C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter/></C:comp-filter></C:filter></C:calendar-query>"#, "name attribute"),
        ("bad negate-condition", #"<C:calendar-query xmlns:C="urn:ietf:params:xml:ns:caldav"><C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VEVENT"><C:prop-filter name="SUMMARY"><C:text-match negate-condition="maybe">x</C:text-match></C:prop-filter></C:comp-filter></C:comp-filter></C:filter></C:calendar-query>"#, "maybe"),
    ])
    func invalidFilters(label: String, body: String, phrase: String) {
        let error = capture { try report(body) }
        #expect(error?.status == 403, "\(label)")
        #expect(error?.condition == .validFilter, "\(label)")
        #expect(error?.message.contains(phrase) == true, "\(label): \(error?.message ?? "no error")")
    }

    @Test("an unknown collation is 403 supported-collation")
    func unsupportedCollation() {
        let error = capture { try report(#"<C:calendar-query xmlns:C="urn:ietf:params:xml:ns:caldav"><C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VEVENT"><C:prop-filter name="SUMMARY"><C:text-match collation="i;klingon">x</C:text-match></C:prop-filter></C:comp-filter></C:comp-filter></C:filter></C:calendar-query>"#) }
        #expect(error?.status == 403)
        #expect(error?.condition == .supportedCollation)
        #expect(error?.errorBody.map(XMLWriter.document)?.contains("<c:supported-collation/>") == true)
    }

    @Test("calendar-data other than text/calendar 2.0 is supported-calendar-data; expand needs both bounds")
    func calendarDataOptions() {
        let json = capture { try report(#"<C:calendar-query xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:D="DAV:"><D:prop><C:calendar-data content-type="application/calendar+json"/></D:prop><C:filter><C:comp-filter name="VCALENDAR"/></C:filter></C:calendar-query>"#) }
        #expect(json?.condition == .supportedCalendarData)
        #expect(json?.status == 403)
        let halfExpand = capture { try report(#"<C:calendar-query xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:D="DAV:"><D:prop><C:calendar-data><C:expand start="20060103T000000Z"/></C:calendar-data></D:prop><C:filter><C:comp-filter name="VCALENDAR"/></C:filter></C:calendar-query>"#) }
        #expect(halfExpand?.status == 400)
        #expect(halfExpand?.message.contains("both start and end") == true)
    }

    // MARK: multiget, free-busy, sync-collection, dispatch

    @Test("§7.9.1 calendar-multiget and Thunderbird's multiget")
    func multiget() throws {
        let body = """
            <?xml version="1.0" encoding="utf-8" ?>
            <C:calendar-multiget xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
              <D:prop>
                <D:getetag/>
                <C:calendar-data/>
              </D:prop>
              <D:href>/bernard/work/abcd1.ics</D:href>
              <D:href>
                /bernard/work/mtg1.ics
              </D:href>
            </C:calendar-multiget>
            """
        guard case .calendarMultiget(let multiget) = try report(body) else {
            Issue.record("expected a multiget")
            return
        }
        #expect(multiget.hrefs == ["/bernard/work/abcd1.ics", "/bernard/work/mtg1.ics"])
        #expect(multiget.properties == .properties([.getETag, .calendarData]))
        #expect(multiget.calendarData == CalendarDataRequest())

        let none = capture { try report(#"<C:calendar-multiget xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><D:getetag/></D:prop></C:calendar-multiget>"#) }
        #expect(none?.status == 400)
    }

    @Test("§7.10.1 free-busy-query; a bad range is 400")
    func freeBusy() throws {
        let body = #"<?xml version="1.0" encoding="utf-8" ?><C:free-busy-query xmlns:C="urn:ietf:params:xml:ns:caldav"><C:time-range start="20060104T140000Z" end="20060105T220000Z"/></C:free-busy-query>"#
        #expect(try report(body) == .freeBusyQuery(FreeBusyQueryReport(timeRange: TimeRange(start: date("20060104T140000Z"), end: date("20060105T220000Z")))))
        let bad = capture { try report(#"<C:free-busy-query xmlns:C="urn:ietf:params:xml:ns:caldav"><C:time-range start="tomorrow"/></C:free-busy-query>"#) }
        #expect(bad?.status == 400)
        #expect(bad?.kind == .invalidValue)
        #expect(capture { try report(#"<C:free-busy-query xmlns:C="urn:ietf:params:xml:ns:caldav"/>"#) }?.status == 400)
    }

    @Test("RFC 6578 §3.8 initial sync, DAVx5's follow-up sync, and a limit")
    func syncCollection() throws {
        let initial = """
            <?xml version="1.0" encoding="utf-8" ?>
            <D:sync-collection xmlns:D="DAV:">
              <D:sync-token/>
              <D:sync-level>1</D:sync-level>
              <D:prop xmlns:R="urn:ns.example.com:boxschema">
                <D:getetag/>
                <R:bigbox/>
              </D:prop>
            </D:sync-collection>
            """
        #expect(try report(initial) == .syncCollection(SyncCollectionReport(
            syncToken: nil, level: .one, properties: .properties([.getETag, QualifiedName("urn:ns.example.com:boxschema", "bigbox")]))))

        let davx5 = #"<?xml version='1.0' encoding='UTF-8' ?><sync-collection xmlns="DAV:" xmlns:CAL="urn:ietf:params:xml:ns:caldav" xmlns:CARD="urn:ietf:params:xml:ns:carddav"><sync-token>http://example.com/ns/sync/1234</sync-token><sync-level>1</sync-level><prop><getcontenttype /><getetag /></prop></sync-collection>"#
        guard case .syncCollection(let sync) = try report(davx5) else {
            Issue.record("expected sync-collection")
            return
        }
        #expect(sync.syncToken == "http://example.com/ns/sync/1234")
        #expect(sync.properties == .properties([.getContentType, .getETag]))

        let limited = #"<D:sync-collection xmlns:D="DAV:"><D:sync-token>t-9</D:sync-token><D:sync-level>infinite</D:sync-level><D:limit><D:nresults>100</D:nresults></D:limit><D:prop><D:getetag/></D:prop></D:sync-collection>"#
        guard case .syncCollection(let withLimit) = try report(limited) else {
            Issue.record("expected sync-collection")
            return
        }
        #expect(withLimit.limit == 100)
        #expect(withLimit.level == .infinite)
    }

    @Test("sync-collection errors: missing token, bad level, bad limit")
    func badSync() {
        #expect(capture { try report(#"<D:sync-collection xmlns:D="DAV:"><D:sync-level>1</D:sync-level><D:prop/></D:sync-collection>"#) }?.status == 400)
        #expect(capture { try report(#"<D:sync-collection xmlns:D="DAV:"><D:sync-token/><D:sync-level>2</D:sync-level><D:prop/></D:sync-collection>"#) }?.kind == .invalidValue)
        #expect(capture { try report(#"<D:sync-collection xmlns:D="DAV:"><D:sync-token/><D:limit><D:nresults>-1</D:nresults></D:limit><D:prop/></D:sync-collection>"#) }?.kind == .invalidValue)
    }

    @Test("unknown reports are 403 supported-report, with an error body")
    func unknownReport() throws {
        for body in [
            #"<D:expand-property xmlns:D="DAV:"><D:property name="calendar-proxy-read-for" namespace="http://calendarserver.org/ns/"/></D:expand-property>"#,
            #"<D:principal-search-property-set xmlns:D="DAV:"/>"#,
            #"<C:addressbook-query xmlns:C="urn:ietf:params:xml:ns:carddav"/>"#,
        ] {
            let error = capture { try report(body) }
            #expect(error?.status == 403)
            #expect(error?.condition == .supportedReport)
            let xml = try #require(error?.errorBody.map(XMLWriter.document))
            #expect(xml.contains("<d:supported-report/>"))
        }
        #expect(capture { try report("") }?.status == 400)
        #expect(Report.supportedNames.count == 5)
    }
}
