import Foundation
import Testing
@testable import DAV

/// Runs `body` and returns the DAVError it threw, or nil when it did not throw.
func capture<T>(_ body: () throws -> T, sourceLocation: SourceLocation = #_sourceLocation) -> DAVError? {
    do {
        _ = try body()
        return nil
    } catch let error as DAVError {
        return error
    } catch {
        Issue.record("expected a DAVError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

func read(_ xml: String, limits: XMLReader.Limits = .standard) throws(DAVError) -> DAVElement {
    try XMLReader(limits: limits).read(Data(xml.utf8))
}

func report(_ xml: String) throws(DAVError) -> Report {
    try Report(body: Data(xml.utf8))
}

func date(_ text: String) -> Date? { UTCDateTime.parse(text) }
