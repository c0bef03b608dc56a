/// Why a DAV request body cannot be served, carrying the HTTP status the server should answer.
///
/// Parsing never crashes on input: every refusal becomes one of these. `condition` names the
/// WebDAV/CalDAV precondition element (`{DAV:}supported-report`, `{caldav}valid-filter`, …) that
/// goes into a `<d:error>` body; `message` says what was wrong in words a person can act on.
public struct DAVError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// Not well-formed XML (the parser said no), or an undeclared namespace prefix.
        case malformedXML
        /// `<!DOCTYPE` or `<!ENTITY` in the body; refused before parsing.
        case forbiddenDeclaration
        /// An encoding other than UTF-8 (or an ASCII superset) that would hide declarations from our scan.
        case unsupportedEncoding
        case bodyTooLarge
        case nestingTooDeep
        /// Well-formed XML that is not the request the method expects (wrong root, missing element).
        case unexpectedContent
        /// An attribute or text value that does not parse (a time-range date, a number).
        case invalidValue
        /// A named WebDAV/CalDAV precondition failed.
        case precondition
    }

    public var kind: Kind
    /// The HTTP status code to answer: 400, 403, 413, 415, …
    public var status: Int
    /// The precondition element for the `<d:error>` body, when the protocol names one.
    public var condition: QualifiedName?
    public var message: String
    /// Position in the body, when the XML parser reported one (1-based).
    public var line: Int?
    public var column: Int?

    public init(
        kind: Kind, status: Int, condition: QualifiedName? = nil, message: String,
        line: Int? = nil, column: Int? = nil
    ) {
        self.kind = kind
        self.status = status
        self.condition = condition
        self.message = message
        self.line = line
        self.column = column
    }

    public var description: String {
        var text = "\(status)"
        if let condition { text += " \(condition)" }
        text += ": \(message)"
        if let line { text += " (line \(line)\(column.map { ", column \($0)" } ?? ""))" }
        return text
    }

    // MARK: Constructors used across the module; each fixes the status for its kind.

    public static func malformed(_ message: String, line: Int? = nil, column: Int? = nil) -> DAVError {
        DAVError(kind: .malformedXML, status: 400, message: message, line: line, column: column)
    }

    public static func unexpected(_ message: String) -> DAVError {
        DAVError(kind: .unexpectedContent, status: 400, message: message)
    }

    public static func invalidValue(_ message: String) -> DAVError {
        DAVError(kind: .invalidValue, status: 400, message: message)
    }

    /// A failed precondition: 403 unless the RFC says otherwise (e.g. 409 for
    /// `calendar-collection-location-ok`, 507 for `number-of-matches-within-limits`).
    public static func precondition(_ condition: QualifiedName, _ message: String, status: Int = 403) -> DAVError {
        DAVError(kind: .precondition, status: status, condition: condition, message: message)
    }

    /// The `<d:error>` body for this error (RFC 4918 §16), or nil when no precondition applies
    /// and a plain-text message is the better answer.
    public var errorBody: DAVElement? {
        guard let condition else { return nil }
        var children: [DAVElement.Child] = [.element(DAVElement(condition))]
        if !message.isEmpty {
            // Not defined inside <error> by RFC 4918; clients ignore unknown children, and a person
            // debugging a sync failure gets the reason without reading server logs.
            children.append(.element(DAVElement(.responseDescription, text: message)))
        }
        return DAVElement(.error, children: children)
    }
}
