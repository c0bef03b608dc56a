/// Reads iCalendar text (RFC 5545 §3.1) into `Component` trees.
///
/// Lenient where real clients are sloppy: LF-only or CR-only line ends, lower-case
/// names, a leading byte-order mark, blank lines, tab continuation lines.
/// Strict where meaning would be lost: invalid UTF-8, control characters, lines
/// without a colon, unbalanced BEGIN/END. Every limit is checked so no input can
/// make the parser use unbounded memory or time.
public struct ICalendarParser: Sendable {
    public struct Limits: Sendable, Hashable {
        public var maxInputBytes: Int
        public var maxLineBytes: Int
        public var maxDepth: Int
        public var maxComponents: Int
        public var maxProperties: Int
        public var maxParametersPerProperty: Int

        public init(
            maxInputBytes: Int = 256 << 20,
            maxLineBytes: Int = 32 << 20,
            maxDepth: Int = 12,
            maxComponents: Int = 2_000_000,
            maxProperties: Int = 20_000_000,
            maxParametersPerProperty: Int = 256
        ) {
            self.maxInputBytes = maxInputBytes
            self.maxLineBytes = maxLineBytes
            self.maxDepth = maxDepth
            self.maxComponents = maxComponents
            self.maxProperties = maxProperties
            self.maxParametersPerProperty = maxParametersPerProperty
        }
    }

    public var limits: Limits

    public init(limits: Limits = Limits()) { self.limits = limits }

    /// Parses text holding one or more top-level components (usually one VCALENDAR).
    public func parse(_ text: String) throws -> [Component] {
        var text = text
        return try text.withUTF8 { try parse(buffer: $0, alreadyValidUTF8: true) }
    }

    /// Parses raw bytes; invalid UTF-8 is reported with its line number.
    public func parse(bytes: [UInt8]) throws -> [Component] {
        try bytes.withUnsafeBufferPointer { try parse(buffer: $0, alreadyValidUTF8: false) }
    }

    /// Parses input that must contain exactly one VCALENDAR.
    public func parseCalendar(_ text: String) throws -> Component {
        try Self.single(parse(text))
    }

    public func parseCalendar(bytes: [UInt8]) throws -> Component {
        try Self.single(parse(bytes: bytes))
    }

    static func single(_ components: [Component]) throws -> Component {
        guard let first = components.first else {
            throw ICalendarError(.invalidStructure, "no BEGIN:VCALENDAR found")
        }
        guard first.name == "VCALENDAR" else {
            throw ICalendarError(.invalidStructure, line: first.line, "top-level component is \(first.name), expected VCALENDAR")
        }
        if components.count > 1 {
            throw ICalendarError(.invalidStructure, line: components[1].line, "more than one top-level component; expected a single VCALENDAR")
        }
        return first
    }

    // MARK: - Implementation

    private struct Open {
        var component: Component
    }

    func parse(buffer: UnsafeBufferPointer<UInt8>, alreadyValidUTF8: Bool) throws -> [Component] {
        guard buffer.count <= limits.maxInputBytes else {
            throw ICalendarError(.inputTooLarge, "input is \(buffer.count) bytes, more than the limit of \(limits.maxInputBytes)")
        }
        if !alreadyValidUTF8, let bad = UTF8Check.firstInvalidOffset(buffer) {
            throw ICalendarError(.invalidUTF8, line: Self.lineNumber(of: bad, in: buffer), "invalid UTF-8 byte sequence")
        }
        var index = 0
        let end = buffer.count
        // Skip a UTF-8 byte-order mark.
        if end >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { index = 3 }

        var state = ParseState()
        var logical: [UInt8] = []
        var logicalLine = 0
        var haveLogical = false
        var physicalLine = 0

        while index < end {
            physicalLine += 1
            // Find the end of this physical line.
            var lineEnd = index
            while lineEnd < end, buffer[lineEnd] != 0x0A, buffer[lineEnd] != 0x0D { lineEnd += 1 }
            var next = lineEnd
            if next < end {
                if buffer[next] == 0x0D, next + 1 < end, buffer[next + 1] == 0x0A { next += 2 } else { next += 1 }
            }
            let length = lineEnd - index
            if length == 0 {
                index = next
                continue
            }
            let first = buffer[index]
            if first == 0x20 || first == 0x09 {
                guard haveLogical else {
                    throw ICalendarError(.malformedContentLine, line: physicalLine, "continuation line (starting with a space) has no line to continue")
                }
                if logical.count + length - 1 > limits.maxLineBytes {
                    throw ICalendarError(.lineTooLong, line: logicalLine, "content line longer than \(limits.maxLineBytes) bytes")
                }
                logical.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[(index + 1)..<lineEnd]))
            } else {
                if haveLogical {
                    haveLogical = false
                    try logical.withUnsafeBufferPointer { try handle(line: $0, lineNumber: logicalLine, state: &state) }
                }
                if length > limits.maxLineBytes {
                    throw ICalendarError(.lineTooLong, line: physicalLine, "content line longer than \(limits.maxLineBytes) bytes")
                }
                if next < end, buffer[next] == 0x20 || buffer[next] == 0x09 {
                    // Folded: collect the pieces first.
                    logical.removeAll(keepingCapacity: true)
                    logical.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[index..<lineEnd]))
                    logicalLine = physicalLine
                    haveLogical = true
                } else {
                    // Not folded (most lines): read straight from the input.
                    try handle(line: UnsafeBufferPointer(rebasing: buffer[index..<lineEnd]), lineNumber: physicalLine, state: &state)
                }
            }
            index = next
        }
        if haveLogical {
            try logical.withUnsafeBufferPointer { try handle(line: $0, lineNumber: logicalLine, state: &state) }
        }
        if let open = state.stack.last {
            throw ICalendarError(.unbalancedComponent, line: open.line, "BEGIN:\(open.name) is never closed (missing END:\(open.name); file truncated?)")
        }
        return state.roots
    }

    private struct ParseState {
        var roots: [Component] = []
        var stack: [Component] = []
        var componentCount = 0
        var propertyCount = 0
    }

    static func lineNumber(of offset: Int, in buffer: UnsafeBufferPointer<UInt8>) -> Int {
        var line = 1
        var i = 0
        while i < offset && i < buffer.count {
            if buffer[i] == 0x0A { line += 1 } else if buffer[i] == 0x0D {
                if !(i + 1 < buffer.count && buffer[i + 1] == 0x0A) { line += 1 }
            }
            i += 1
        }
        return line
    }

    private func handle(line: UnsafeBufferPointer<UInt8>, lineNumber: Int, state: inout ParseState) throws {
        let property = try ContentLineReader.read(line, lineNumber: lineNumber, maxParameters: limits.maxParametersPerProperty)
        if property.name == "BEGIN" {
            let name = upperASCII(property.value)
            guard ContentLineReader.isName(name) else {
                throw ICalendarError(.malformedContentLine, line: lineNumber, "BEGIN needs a component name, got \"\(property.value.prefix(40))\"")
            }
            guard state.stack.count < limits.maxDepth else {
                throw ICalendarError(.nestingTooDeep, line: lineNumber, "components nested more than \(limits.maxDepth) deep")
            }
            state.componentCount += 1
            guard state.componentCount <= limits.maxComponents else {
                throw ICalendarError(.tooManyItems, line: lineNumber, "more than \(limits.maxComponents) components")
            }
            state.stack.append(Component(name: name, line: lineNumber))
        } else if property.name == "END" {
            let name = upperASCII(property.value)
            guard let closing = state.stack.popLast() else {
                throw ICalendarError(.unbalancedComponent, line: lineNumber, "END:\(name) without a matching BEGIN")
            }
            guard closing.name == name else {
                throw ICalendarError(.unbalancedComponent, line: lineNumber, "END:\(name) does not match BEGIN:\(closing.name) on line \(closing.line)")
            }
            if state.stack.isEmpty {
                state.roots.append(closing)
            } else {
                state.stack[state.stack.count - 1].components.append(closing)
            }
        } else {
            guard !state.stack.isEmpty else {
                throw ICalendarError(.invalidStructure, line: lineNumber, "property \(property.name) outside any component (expected BEGIN:VCALENDAR first)")
            }
            state.propertyCount += 1
            guard state.propertyCount <= limits.maxProperties else {
                throw ICalendarError(.tooManyItems, line: lineNumber, "more than \(limits.maxProperties) properties")
            }
            state.stack[state.stack.count - 1].properties.append(property)
        }
    }
}

/// Splits one unfolded content line into name, parameters and value.
enum ContentLineReader {
    static func isNameByte(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2D
    }

    static func isName(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.allSatisfy(isNameByte)
    }

    static func isForbiddenControl(_ b: UInt8) -> Bool {
        (b < 0x20 && b != 0x09) || b == 0x7F
    }

    static func upperName(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        var needsUpper = false
        for i in range where line[i] >= 0x61 && line[i] <= 0x7A { needsUpper = true; break }
        if !needsUpper { return String(decoding: UnsafeBufferPointer(rebasing: line[range]), as: UTF8.self) }
        var bytes = Array(line[range])
        for i in bytes.indices where bytes[i] >= 0x61 && bytes[i] <= 0x7A { bytes[i] -= 0x20 }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func read(_ line: UnsafeBufferPointer<UInt8>, lineNumber: Int, maxParameters: Int) throws -> Property {
        let n = line.count
        var i = 0
        while i < n, isNameByte(line[i]) { i += 1 }
        guard i > 0 else {
            let shown = String(decoding: UnsafeBufferPointer(rebasing: line[0..<min(n, 40)]), as: UTF8.self)
            throw ICalendarError(.malformedContentLine, line: lineNumber, "expected a property name at the start of \"\(shown)\"")
        }
        let name = upperName(line, 0..<i)
        var parameters: [Parameter] = []
        while i < n, line[i] == UInt8(ascii: ";") {
            i += 1
            let nameStart = i
            while i < n, isNameByte(line[i]) { i += 1 }
            guard i > nameStart, i < n, line[i] == UInt8(ascii: "=") else {
                throw ICalendarError(.malformedContentLine, line: lineNumber, "malformed parameter in \(name): expected NAME=value")
            }
            let paramName = upperName(line, nameStart..<i)
            i += 1
            var values: [String] = []
            var quoted = false
            while true {
                if i < n, line[i] == UInt8(ascii: "\"") {
                    i += 1
                    let start = i
                    while i < n, line[i] != UInt8(ascii: "\"") {
                        if isForbiddenControl(line[i]) {
                            throw ICalendarError(.controlCharacter, line: lineNumber, "control character 0x\(String(line[i], radix: 16)) in parameter \(paramName)")
                        }
                        i += 1
                    }
                    guard i < n else {
                        throw ICalendarError(.malformedContentLine, line: lineNumber, "unterminated quoted value of parameter \(paramName) in \(name)")
                    }
                    values.append(decodeParameter(UnsafeBufferPointer(rebasing: line[start..<i])))
                    quoted = true
                    i += 1
                } else {
                    let start = i
                    while i < n {
                        let b = line[i]
                        if b == UInt8(ascii: ",") || b == UInt8(ascii: ";") || b == UInt8(ascii: ":") { break }
                        if b == UInt8(ascii: "\"") {
                            throw ICalendarError(.malformedContentLine, line: lineNumber, "stray quote in parameter \(paramName) of \(name)")
                        }
                        if isForbiddenControl(b) {
                            throw ICalendarError(.controlCharacter, line: lineNumber, "control character 0x\(String(b, radix: 16)) in parameter \(paramName)")
                        }
                        i += 1
                    }
                    values.append(decodeParameter(UnsafeBufferPointer(rebasing: line[start..<i])))
                }
                if i < n, line[i] == UInt8(ascii: ",") { i += 1; continue }
                break
            }
            parameters.append(Parameter(upperCasedName: paramName, values: values, quoted: quoted))
            if parameters.count > maxParameters {
                throw ICalendarError(.tooManyItems, line: lineNumber, "\(name) has more than \(maxParameters) parameters")
            }
        }
        guard i < n, line[i] == UInt8(ascii: ":") else {
            throw ICalendarError(.malformedContentLine, line: lineNumber, "missing ':' after \(name)\(parameters.isEmpty ? "" : " and its parameters")")
        }
        i += 1
        for j in i..<n where isForbiddenControl(line[j]) {
            throw ICalendarError(.controlCharacter, line: lineNumber, "control character 0x\(String(line[j], radix: 16)) in the value of \(name)")
        }
        let value = String(decoding: UnsafeBufferPointer(rebasing: line[i..<n]), as: UTF8.self)
        return Property(upperCasedName: name, parameters: parameters, value: value, line: lineNumber)
    }

    /// RFC 6868: ^n newline, ^^ caret, ^' double quote.
    static func decodeParameter(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard bytes.contains(UInt8(ascii: "^")) else { return String(decoding: bytes, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "^"), i + 1 < bytes.count {
                switch bytes[i + 1] {
                case UInt8(ascii: "n"): out.append(0x0A); i += 2; continue
                case UInt8(ascii: "^"): out.append(b); i += 2; continue
                case UInt8(ascii: "'"): out.append(UInt8(ascii: "\"")); i += 2; continue
                default: break
                }
            }
            out.append(b)
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// A UTF-8 validator that reports where the first bad byte is.
enum UTF8Check {
    static func firstInvalidOffset(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = 0
        let n = b.count
        guard let base = b.baseAddress else { return nil }
        while i < n {
            // Skip ASCII eight bytes at a time; almost all iCalendar text is ASCII.
            while i + 8 <= n, UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 { i += 8 }
            guard i < n else { break }
            let c = b[i]
            if c < 0x80 { i += 1; continue }
            var need = 0
            var minValue: UInt32 = 0
            var value: UInt32 = 0
            switch c {
            case 0xC2...0xDF: need = 1; value = UInt32(c & 0x1F); minValue = 0x80
            case 0xE0...0xEF: need = 2; value = UInt32(c & 0x0F); minValue = 0x800
            case 0xF0...0xF4: need = 3; value = UInt32(c & 0x07); minValue = 0x10000
            default: return i
            }
            guard i + need < n else { return i }
            for k in 1...need {
                let cc = b[i + k]
                guard cc & 0xC0 == 0x80 else { return i }
                value = (value << 6) | UInt32(cc & 0x3F)
            }
            if value < minValue || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF) { return i }
            i += need + 1
        }
        return nil
    }
}
