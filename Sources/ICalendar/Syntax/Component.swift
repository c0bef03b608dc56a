/// A property parameter such as `TZID=Europe/London` or `MEMBER="a","b"`.
/// Values are stored decoded (quotes and RFC 6868 `^` escapes removed).
public struct Parameter: Sendable, Hashable {
    public var name: String
    public var values: [String]
    /// Whether the source quoted the value(s) without needing to; kept so round trips
    /// are byte-exact. Not part of equality.
    public var quoted: Bool

    public init(name: String, values: [String], quoted: Bool = false) {
        self.name = name.uppercased()
        self.values = values
        self.quoted = quoted
    }

    public static func == (a: Parameter, b: Parameter) -> Bool { a.name == b.name && a.values == b.values }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(values)
    }

    public init(_ name: String, _ value: String) { self.init(name: name, values: [value]) }

    /// For the parser, whose names are already upper case.
    init(upperCasedName name: String, values: [String], quoted: Bool) {
        self.name = name
        self.values = values
        self.quoted = quoted
    }

    public var value: String { values.first ?? "" }
}

/// One content line. `value` is kept exactly as written (still TEXT-escaped) so that
/// properties we do not understand serialise back byte for byte; typed accessors decode it.
public struct Property: Sendable, Hashable {
    public var name: String
    public var parameters: [Parameter]
    public var value: String
    /// Where the property started in its source; 0 when built in code. Not part of equality.
    public var line: Int

    public init(name: String, parameters: [Parameter] = [], value: String, line: Int = 0) {
        self.name = name.uppercased()
        self.parameters = parameters
        self.value = value
        self.line = line
    }

    /// For the parser, whose names are already upper case.
    init(upperCasedName name: String, parameters: [Parameter], value: String, line: Int) {
        self.name = name
        self.parameters = parameters
        self.value = value
        self.line = line
    }

    /// A TEXT property built from an unescaped string.
    public init(name: String, text: String, parameters: [Parameter] = []) {
        self.init(name: name, parameters: parameters, value: TextCoding.escape(text))
    }

    public func parameter(_ name: String) -> String? {
        let upper = upperASCII(name)
        return parameters.first { $0.name == upper }?.value
    }

    /// Sets (in place, keeping the parameter order) or removes a parameter.
    public mutating func setParameter(_ name: String, _ value: String?) {
        let upper = upperASCII(name)
        guard let value else {
            parameters.removeAll { $0.name == upper }
            return
        }
        if let index = parameters.firstIndex(where: { $0.name == upper }) {
            if parameters[index].values != [value] { parameters[index] = Parameter(upper, value) }
            var seen = false
            parameters.removeAll { p in
                guard p.name == upper else { return false }
                defer { seen = true }
                return seen
            }
        } else {
            parameters.append(Parameter(upper, value))
        }
    }

    /// The value with TEXT escapes removed.
    public var text: String { TextCoding.unescape(value) }

    /// Comma-separated TEXT values (CATEGORIES, RESOURCES) unescaped.
    public var textList: [String] { TextCoding.splitEscaped(value).map(TextCoding.unescape) }

    public static func == (a: Property, b: Property) -> Bool {
        a.name == b.name && a.value == b.value && a.parameters == b.parameters
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(value)
        hasher.combine(parameters)
    }
}

/// A component (VCALENDAR, VEVENT, VALARM, X-…) with its properties in file order.
public struct Component: Sendable, Hashable {
    public var name: String
    public var properties: [Property]
    public var components: [Component]
    public var line: Int

    public init(name: String, properties: [Property] = [], components: [Component] = [], line: Int = 0) {
        self.name = name.uppercased()
        self.properties = properties
        self.components = components
        self.line = line
    }

    public func first(_ name: String) -> Property? {
        let upper = upperASCII(name)
        // An index loop: comparing names in place avoids copying every property.
        for index in properties.indices where properties[index].name == upper { return properties[index] }
        return nil
    }

    public func all(_ name: String) -> [Property] {
        let upper = upperASCII(name)
        var found: [Property] = []
        for index in properties.indices where properties[index].name == upper { found.append(properties[index]) }
        return found
    }

    public func components(named name: String) -> [Component] {
        let upper = upperASCII(name)
        return components.filter { $0.name == upper }
    }

    /// Replaces every property of that name by `property` (or removes them on nil),
    /// keeping the position of the first one so round trips stay stable.
    public mutating func set(_ name: String, _ property: Property?) {
        let upper = upperASCII(name)
        let index = properties.firstIndex { $0.name == upper }
        properties.removeAll { $0.name == upper }
        guard var property else { return }
        property.name = upper
        properties.insert(property, at: min(index ?? properties.count, properties.count))
    }

    /// Replaces every property of that name by `replacements`, placed where the first one was.
    public mutating func setAll(_ name: String, _ replacements: [Property]) {
        let upper = upperASCII(name)
        let index = properties.firstIndex { $0.name == upper } ?? properties.count
        let before = properties[..<index].filter { $0.name != upper }
        let after = properties[index...].filter { $0.name != upper }
        properties = before + replacements + after
    }

    public mutating func remove(_ name: String) { set(name, nil) }

    /// A recurring item's main component, the one without RECURRENCE-ID (its overridden
    /// instances carry one); a single item's only component.
    public var isMaster: Bool { first("RECURRENCE-ID") == nil }

    /// The master `VEVENT`/`VTODO`/… among this calendar's components.
    public func master(_ name: String) -> Component? {
        masterIndex(name).map { components[$0] }
    }

    /// Where the master `name` component is among this calendar's components.
    public func masterIndex(_ name: String) -> Int? {
        let upper = upperASCII(name)
        return components.firstIndex { $0.name == upper && $0.isMaster }
    }

    public static func == (a: Component, b: Component) -> Bool {
        a.name == b.name && a.properties == b.properties && a.components == b.components
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(properties)
        hasher.combine(components)
    }
}

/// TEXT value escaping (RFC 5545 §3.3.11).
public enum TextCoding {
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n": out += "\\n"
            case "\r": continue
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    public static func unescape(_ raw: String) -> String {
        guard raw.utf8.contains(UInt8(ascii: "\\")) else { return raw }
        var out = ""
        out.reserveCapacity(raw.utf8.count)
        var escaping = false
        for scalar in raw.unicodeScalars {
            if escaping {
                switch scalar {
                case "n", "N": out += "\n"
                default: out.unicodeScalars.append(scalar)  // \\ \; \, and lenient for others
                }
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        if escaping { out += "\\" }
        return out
    }

    /// Splits on commas that are not escaped, keeping escapes in the parts.
    public static func splitEscaped(_ raw: String, separator: UInt8 = UInt8(ascii: ",")) -> [String] {
        var parts: [String] = []
        var current: [UInt8] = []
        var escaping = false
        for byte in raw.utf8 {
            if escaping {
                current.append(byte)
                escaping = false
            } else if byte == UInt8(ascii: "\\") {
                current.append(byte)
                escaping = true
            } else if byte == separator {
                parts.append(String(decoding: current, as: UTF8.self))
                current.removeAll(keepingCapacity: true)
            } else {
                current.append(byte)
            }
        }
        parts.append(String(decoding: current, as: UTF8.self))
        return parts
    }
}

/// Upper-cases an ASCII name without allocating when it already is (the common case:
/// lookups like `first("DTSTART")` run many times per component).
@inline(__always)
func upperASCII(_ name: String) -> String {
    for b in name.utf8 where b >= 0x61 && b <= 0x7A { return name.uppercased() }
    return name
}
