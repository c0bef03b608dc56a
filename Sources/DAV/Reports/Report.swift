import Foundation

/// A REPORT body, dispatched on its root element (RFC 3253 §3.6).
public enum Report: Sendable, Hashable {
    case calendarQuery(CalendarQueryReport)
    case calendarMultiget(CalendarMultigetReport)
    case syncCollection(SyncCollectionReport)
    case freeBusyQuery(FreeBusyQueryReport)
    case principalPropertySearch(PrincipalPropertySearchReport)

    /// The reports this module parses, for `supported-report-set`. Which of them apply to a
    /// given resource (free-busy-query only on calendars, …) is the server's decision.
    public static let supportedNames: [QualifiedName] = [
        .calendarQuery, .calendarMultiget, .syncCollection, .freeBusyQuery, .principalPropertySearch,
    ]

    public var name: QualifiedName {
        switch self {
        case .calendarQuery: .calendarQuery
        case .calendarMultiget: .calendarMultiget
        case .syncCollection: .syncCollection
        case .freeBusyQuery: .freeBusyQuery
        case .principalPropertySearch: .principalPropertySearch
        }
    }

    public init(body: Data, reader: XMLReader = XMLReader()) throws(DAVError) {
        try self.init(element: try reader.read(body))
    }

    public init(element: DAVElement) throws(DAVError) {
        switch element.name {
        case .calendarQuery: self = .calendarQuery(try CalendarQueryReport(element: element))
        case .calendarMultiget: self = .calendarMultiget(try CalendarMultigetReport(element: element))
        case .syncCollection: self = .syncCollection(try SyncCollectionReport(element: element))
        case .freeBusyQuery: self = .freeBusyQuery(try FreeBusyQueryReport(element: element))
        case .principalPropertySearch: self = .principalPropertySearch(try PrincipalPropertySearchReport(element: element))
        default:
            // RFC 3253 §3.6: an unsupported report is the DAV:supported-report precondition.
            throw DAVError.precondition(.supportedReport, "The report \(element.name) is not supported here.")
        }
    }
}
