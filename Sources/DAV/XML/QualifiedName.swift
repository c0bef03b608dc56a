/// An XML name with its namespace URI resolved, written `{namespace}local-name` (Clark notation).
///
/// DAV compares names by namespace URI and local name only; the prefix a client chose means
/// nothing, so it is not kept.
public struct QualifiedName: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var namespace: String
    public var localName: String

    public init(_ namespace: String, _ localName: String) {
        self.namespace = namespace
        self.localName = localName
    }

    /// Parses Clark notation (`{DAV:}displayname`); a name without braces has no namespace.
    public init?(clark: String) {
        guard clark.hasPrefix("{") else {
            guard !clark.isEmpty else { return nil }
            self.init("", clark)
            return
        }
        guard let close = clark.firstIndex(of: "}") else { return nil }
        let namespace = String(clark[clark.index(after: clark.startIndex)..<close])
        let local = String(clark[clark.index(after: close)...])
        guard !local.isEmpty else { return nil }
        self.init(namespace, local)
    }

    public var description: String { "{\(namespace)}\(localName)" }

    public static func < (a: QualifiedName, b: QualifiedName) -> Bool {
        (a.namespace, a.localName) < (b.namespace, b.localName)
    }

    public static func dav(_ local: String) -> QualifiedName { QualifiedName(XMLNamespace.dav, local) }
    public static func caldav(_ local: String) -> QualifiedName { QualifiedName(XMLNamespace.caldav, local) }
    public static func calendarServer(_ local: String) -> QualifiedName { QualifiedName(XMLNamespace.calendarServer, local) }
    public static func appleICal(_ local: String) -> QualifiedName { QualifiedName(XMLNamespace.appleICal, local) }
}

/// A property is named by its element's qualified name; the alias says which role a name plays.
public typealias PropertyName = QualifiedName

/// The namespaces DAV bodies use, with the prefixes our writer always gives them.
public enum XMLNamespace {
    public static let dav = "DAV:"
    public static let caldav = "urn:ietf:params:xml:ns:caldav"
    public static let calendarServer = "http://calendarserver.org/ns/"
    public static let appleICal = "http://apple.com/ns/ical/"

    /// Fixed prefixes keep responses byte-stable across runs, which makes them diffable and
    /// cacheable; clients must not care, but humans reading logs do.
    public static let preferredPrefixes: [(namespace: String, prefix: String)] = [
        (dav, "d"), (caldav, "c"), (calendarServer, "cs"), (appleICal, "ical"),
    ]
}

// Element names of the protocol itself (requests, responses, preconditions).
extension QualifiedName {
    // RFC 4918
    public static let multistatus = dav("multistatus")
    public static let response = dav("response")
    public static let href = dav("href")
    public static let propstat = dav("propstat")
    public static let prop = dav("prop")
    public static let status = dav("status")
    public static let error = dav("error")
    public static let responseDescription = dav("responsedescription")
    public static let location = dav("location")
    public static let propfind = dav("propfind")
    public static let allprop = dav("allprop")
    public static let propname = dav("propname")
    public static let include = dav("include")
    public static let propertyUpdate = dav("propertyupdate")
    public static let set = dav("set")
    public static let remove = dav("remove")
    public static let collection = dav("collection")
    public static let principal = dav("principal")
    // RFC 5689
    public static let mkcol = dav("mkcol")
    public static let mkcolResponse = dav("mkcol-response")
    // RFC 6578
    public static let syncCollection = dav("sync-collection")
    public static let syncToken = dav("sync-token")
    public static let syncLevel = dav("sync-level")
    public static let limit = dav("limit")
    public static let nresults = dav("nresults")
    // RFC 4791
    public static let mkcalendar = caldav("mkcalendar")
    public static let mkcalendarResponse = caldav("mkcalendar-response")
    public static let calendar = caldav("calendar")
    public static let calendarQuery = caldav("calendar-query")
    public static let calendarMultiget = caldav("calendar-multiget")
    public static let freeBusyQuery = caldav("free-busy-query")
    public static let filter = caldav("filter")
    public static let compFilter = caldav("comp-filter")
    public static let propFilter = caldav("prop-filter")
    public static let paramFilter = caldav("param-filter")
    public static let textMatch = caldav("text-match")
    public static let timeRange = caldav("time-range")
    public static let isNotDefined = caldav("is-not-defined")
    public static let timezone = caldav("timezone")
    public static let timezoneID = caldav("timezone-id")
    public static let comp = caldav("comp")
    public static let allcomp = caldav("allcomp")
    public static let calendarProp = caldav("prop")
    public static let calendarAllprop = caldav("allprop")
    public static let expand = caldav("expand")
    public static let limitRecurrenceSet = caldav("limit-recurrence-set")
    public static let limitFreebusySet = caldav("limit-freebusy-set")
}

// Properties clients ask for (RFC 4918, 4791, 5397, 6578, 3744, 4331, 6638 and Apple's extensions).
extension QualifiedName {
    public static let displayName = dav("displayname")
    public static let resourceType = dav("resourcetype")
    public static let getETag = dav("getetag")
    public static let getContentType = dav("getcontenttype")
    public static let getContentLength = dav("getcontentlength")
    public static let getLastModified = dav("getlastmodified")
    public static let creationDate = dav("creationdate")
    public static let supportedReportSet = dav("supported-report-set")
    public static let currentUserPrincipal = dav("current-user-principal")
    public static let currentUserPrivilegeSet = dav("current-user-privilege-set")
    public static let principalURL = dav("principal-URL")
    public static let principalCollectionSet = dav("principal-collection-set")
    public static let owner = dav("owner")
    public static let quotaAvailableBytes = dav("quota-available-bytes")
    public static let quotaUsedBytes = dav("quota-used-bytes")
    /// RFC 4331 §6: the precondition a write past the quota fails, with 507.
    public static let quotaNotExceeded = dav("quota-not-exceeded")
    public static let calendarHomeSet = caldav("calendar-home-set")
    public static let calendarUserAddressSet = caldav("calendar-user-address-set")
    public static let calendarDescription = caldav("calendar-description")
    public static let calendarTimezone = caldav("calendar-timezone")
    public static let calendarTimezoneID = caldav("calendar-timezone-id")
    public static let supportedCalendarComponentSet = caldav("supported-calendar-component-set")
    public static let supportedCalendarData = caldav("supported-calendar-data")
    public static let maxResourceSize = caldav("max-resource-size")
    public static let calendarData = caldav("calendar-data")
    public static let scheduleInboxURL = caldav("schedule-inbox-URL")
    public static let scheduleOutboxURL = caldav("schedule-outbox-URL")
    public static let getCTag = calendarServer("getctag")
    public static let emailAddressSet = calendarServer("email-address-set")
    public static let calendarColor = appleICal("calendar-color")
    public static let calendarOrder = appleICal("calendar-order")
}

// Preconditions and postconditions named in error bodies (RFC 4918 §16, RFC 4791 §§5.3.2, 7.x, RFC 6578 §3.7).
extension QualifiedName {
    public static let supportedReport = dav("supported-report")
    public static let validSyncToken = dav("valid-sync-token")
    public static let numberOfMatchesWithinLimits = dav("number-of-matches-within-limits")
    public static let propfindFiniteDepth = dav("propfind-finite-depth")
    public static let validResourceType = dav("valid-resourcetype")
    public static let validCalendarData = caldav("valid-calendar-data")
    public static let validCalendarObjectResource = caldav("valid-calendar-object-resource")
    public static let supportedCalendarComponent = caldav("supported-calendar-component")
    public static let noUIDConflict = caldav("no-uid-conflict")
    public static let validFilter = caldav("valid-filter")
    public static let supportedFilter = caldav("supported-filter")
    public static let supportedCollation = caldav("supported-collation")
    public static let calendarCollectionLocationOK = caldav("calendar-collection-location-ok")
    public static let validCalendarTimezone = caldav("valid-calendar-timezone")
    public static let minDateTime = caldav("min-date-time")
    public static let maxDateTime = caldav("max-date-time")
    /// `max-resource-size` is both a property and a precondition of the same name.
    public static let maxResourceSizeExceeded = maxResourceSize
}
