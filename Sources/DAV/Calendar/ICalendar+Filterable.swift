import ICalendar

// The filter evaluator (FilterEvaluation.swift) reads iCalendar data through two small
// protocols; ICalendar's own model satisfies them directly, so no copy is made per query.

extension Component: FilterableComponent {
    public var filterName: String { name }

    public func filterSubcomponents(named name: String) -> [Component] {
        components(named: name)
    }

    public func filterProperties(named name: String) -> [Property] {
        all(name)
    }
}

extension Property: FilterableProperty {
    /// RFC 4791 §9.7.5 compares the text as the user wrote it, so TEXT escapes (`\,` `\n`) are removed.
    public var filterText: String { text }

    /// Every value of every occurrence of the parameter (a property may repeat one, and
    /// MEMBER or DELEGATED-TO carry lists); nil when the property lacks it.
    public func filterParameterValues(named name: String) -> [String]? {
        let upper = name.uppercased()
        var values: [String]? = nil
        for parameter in parameters where parameter.name == upper {
            values = (values ?? []) + parameter.values
        }
        return values
    }
}
