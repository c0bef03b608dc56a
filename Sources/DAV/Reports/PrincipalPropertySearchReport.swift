/// `<d:principal-property-search>` (RFC 3744 §9.4): find principals whose properties contain
/// the given text. Jadwal answers it with the requesting principal only, when it matches: no
/// account can list or find another.
public struct PrincipalPropertySearchReport: Sendable, Hashable {
    public struct Search: Sendable, Hashable {
        public var properties: [PropertyName]
        public var match: String

        public init(properties: [PropertyName], match: String) {
            self.properties = properties
            self.match = match
        }
    }

    public var searches: [Search]
    /// `test="anyof"`: one search suffices; the default `allof` needs every one.
    public var anyOf: Bool
    public var properties: PropertySelection

    public init(searches: [Search], anyOf: Bool = false, properties: PropertySelection) {
        self.searches = searches
        self.anyOf = anyOf
        self.properties = properties
    }

    public init(element: DAVElement) throws(DAVError) {
        guard element.name == .principalPropertySearch else {
            throw DAVError.unexpected("Expected <\(QualifiedName.principalPropertySearch)>, not <\(element.name)>.")
        }
        searches = element.elements(named: .propertySearch).map { search in
            Search(properties: search.first(.prop)?.elements.map(\.name) ?? [], match: search.first(.match)?.text ?? "")
        }
        anyOf = element.attribute("test")?.lowercased() == "anyof"
        // The result properties are the <prop> directly under the report, not those inside searches.
        properties = .properties(element.first(.prop)?.elements.map(\.name) ?? [])
    }
}

extension QualifiedName {
    public static let principalPropertySearch = dav("principal-property-search")
    public static let propertySearch = dav("property-search")
    public static let match = dav("match")
}
