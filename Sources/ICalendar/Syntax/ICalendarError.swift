/// A problem found in iCalendar data. `line` is the 1-based physical line where the
/// offending content line starts, when known, so users can find it in their file.
public struct ICalendarError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        case invalidUTF8
        case controlCharacter
        case lineTooLong
        case inputTooLarge
        case malformedContentLine
        case unbalancedComponent
        case nestingTooDeep
        case tooManyItems
        case missingProperty
        case invalidValue
        case invalidRecurrenceRule
        case unknownTimeZone
        case invalidStructure
    }

    public var kind: Kind
    public var line: Int?
    public var message: String

    public init(_ kind: Kind, line: Int? = nil, _ message: String) {
        self.kind = kind
        self.line = line
        self.message = message
    }

    public var description: String {
        if let line { return "line \(line): \(message)" }
        return message
    }
}
