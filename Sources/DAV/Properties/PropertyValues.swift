/// Builders for the live property values a CalDAV server answers with, so their XML shape is
/// defined once (RFC 4918 §15, RFC 3253 §3.1.5, RFC 3744 §5.4, RFC 4791 §§5.2, 6.2, RFC 6578 §4).
public enum PropertyValue {
    /// A property holding one or more `<d:href>` (current-user-principal, calendar-home-set,
    /// principal-URL, calendar-user-address-set, owner, …). Hrefs must already be percent-encoded.
    public static func hrefs(_ name: PropertyName, _ hrefs: [String]) -> DAVElement {
        DAVElement(name, elements: hrefs.map { DAVElement(.href, text: $0) })
    }

    public static func text(_ name: PropertyName, _ text: String) -> DAVElement {
        DAVElement(name, text: text)
    }

    /// `<d:resourcetype>` with e.g. `[.collection, .calendar]`; empty for a calendar object.
    public static func resourceType(_ types: [QualifiedName]) -> DAVElement {
        DAVElement(.resourceType, elements: types.map { DAVElement($0) })
    }

    /// `<d:supported-report-set>`: one `<d:supported-report><d:report><name/></d:report></…>` per report.
    public static func supportedReportSet(_ reports: [QualifiedName]) -> DAVElement {
        DAVElement(.supportedReportSet, elements: reports.map { report in
            DAVElement(.dav("supported-report"), elements: [DAVElement(.dav("report"), elements: [DAVElement(report)])])
        })
    }

    /// `<c:supported-calendar-component-set>` with `<c:comp name="VEVENT"/>` entries.
    public static func supportedCalendarComponentSet(_ components: [String]) -> DAVElement {
        DAVElement(.supportedCalendarComponentSet, elements: components.map {
            DAVElement(.comp, attributes: [QualifiedName("", "name"): $0.uppercased()])
        })
    }

    /// `<c:supported-calendar-data>`: iCalendar 2.0 only.
    public static func supportedCalendarData() -> DAVElement {
        DAVElement(.supportedCalendarData, elements: [
            DAVElement(.caldav("calendar-data"), attributes: [
                QualifiedName("", "content-type"): "text/calendar", QualifiedName("", "version"): "2.0",
            ]),
        ])
    }

    /// `<d:current-user-privilege-set>` with `<d:privilege><d:read/></d:privilege>` entries
    /// (RFC 3744 §5.4); privilege names such as `.dav("read")`, `.dav("write")`, `.dav("all")`.
    public static func currentUserPrivilegeSet(_ privileges: [QualifiedName]) -> DAVElement {
        DAVElement(.currentUserPrivilegeSet, elements: privileges.map {
            DAVElement(.dav("privilege"), elements: [DAVElement($0)])
        })
    }

    /// calendar-data in a report answer: the iCalendar text, kept exactly (the writer protects CRs).
    public static func calendarData(_ text: String) -> DAVElement {
        DAVElement(.calendarData, text: text)
    }

    /// `calendar-data` from text escaped earlier (`EscapedText`), for objects sent often.
    public static func calendarData(_ text: EscapedText) -> DAVElement {
        DAVElement(.calendarData, children: text.text.isEmpty ? [] : [.escaped(text)])
    }

    /// `<d:getetag>`: the ETag already quoted, as HTTP sends it (`"abc"`).
    public static func etag(_ quotedETag: String) -> DAVElement {
        DAVElement(.getETag, text: quotedETag)
    }
}
