/// `<c:text-match>` (RFC 4791 §9.7.5).
public struct TextMatch: Sendable, Hashable {
    /// The text to look for, exactly as sent (leading/trailing spaces are significant).
    public var text: String
    public var collation: Collation
    public var matchType: MatchType
    /// `negate-condition="yes"`: the filter matches when the text does *not* match.
    public var negated: Bool

    public init(text: String, collation: Collation = .defaultForTextMatch, matchType: MatchType = .contains, negated: Bool = false) {
        self.text = text
        self.collation = collation
        self.matchType = matchType
        self.negated = negated
    }

    public init(element: DAVElement) throws(DAVError) {
        let collation: Collation
        if let name = element.attribute("collation") {
            guard let known = Collation(rawValue: name) else {
                throw DAVError.precondition(
                    .supportedCollation,
                    "Collation \"\(name)\" is not supported; use i;ascii-casemap, i;unicode-casemap or i;octet.")
            }
            collation = known
        } else {
            collation = .defaultForTextMatch
        }
        var matchType = MatchType.contains
        if let raw = element.attribute("match-type") {
            guard let known = MatchType(rawValue: raw) else {
                throw DAVError.precondition(
                    .validFilter, "match-type \"\(raw)\" is not one of equals, contains, starts-with, ends-with.")
            }
            matchType = known
        }
        let negated: Bool
        switch element.attribute("negate-condition") {
        case nil, "no": negated = false
        case "yes": negated = true
        case let other?:
            throw DAVError.precondition(.validFilter, "negate-condition must be \"yes\" or \"no\", not \"\(other)\".")
        }
        self.init(text: element.text, collation: collation, matchType: matchType, negated: negated)
    }

    /// Whether one value satisfies this text-match, negation included.
    public func matches(_ value: String) -> Bool {
        collation.matches(value, text, matchType: matchType) != negated
    }
}
