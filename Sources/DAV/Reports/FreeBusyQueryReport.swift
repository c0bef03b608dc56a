/// `<c:free-busy-query>` (RFC 4791 §7.10).
public struct FreeBusyQueryReport: Sendable, Hashable {
    public var timeRange: TimeRange

    public init(timeRange: TimeRange) {
        self.timeRange = timeRange
    }

    public init(element: DAVElement) throws(DAVError) {
        guard element.name == .freeBusyQuery else {
            throw DAVError.unexpected("Expected <\(QualifiedName.freeBusyQuery)>, not <\(element.name)>.")
        }
        let ranges = element.elements(named: .timeRange)
        guard ranges.count == 1, let range = ranges.first else {
            throw DAVError.unexpected("A free-busy-query needs exactly one <time-range>; it has \(ranges.count).")
        }
        timeRange = try TimeRange.parse(range, requireBoth: false) { DAVError.invalidValue($0) }
    }
}
