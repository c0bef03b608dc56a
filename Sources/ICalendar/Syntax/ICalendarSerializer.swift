/// Writes `Component` trees as iCalendar text: CRLF line ends, lines folded at
/// 75 octets (RFC 5545 §3.1) without splitting a UTF-8 sequence.
public struct ICalendarSerializer: Sendable {
    public static let maxLineOctets = 75

    public init() {}

    public func serialize(_ component: Component) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        write(component, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    public func serialize(_ components: [Component]) -> String {
        var out: [UInt8] = []
        for component in components { write(component, into: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    public func write(_ component: Component, into out: inout [UInt8]) {
        appendLine("BEGIN:" + component.name, into: &out)
        for property in component.properties { write(property, into: &out) }
        for child in component.components { write(child, into: &out) }
        appendLine("END:" + component.name, into: &out)
    }

    public func write(_ property: Property, into out: inout [UInt8]) {
        // Written straight into `out`; only a line longer than 75 octets is moved and folded.
        let start = out.count
        out.append(contentsOf: property.name.utf8)
        for parameter in property.parameters {
            out.append(UInt8(ascii: ";"))
            out.append(contentsOf: parameter.name.utf8)
            out.append(UInt8(ascii: "="))
            for (index, value) in parameter.values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.appendParameterValue(value, quote: parameter.quoted, into: &out)
            }
        }
        out.append(UInt8(ascii: ":"))
        Self.appendValue(property.value, into: &out)
        if out.count - start > Self.maxLineOctets {
            let line = Array(out[start...])
            out.removeSubrange(start...)
            Self.fold(line, into: &out)
        } else {
            out.append(0x0D)
            out.append(0x0A)
        }
    }

    /// A raw line break in a value set by code would start a new content line (an
    /// injection); it is written as the TEXT escape instead, and other control bytes dropped.
    static func appendValue(_ value: String, into out: inout [UInt8]) {
        var value = value
        value.withUTF8 { bytes in
            guard hasControlByte(bytes) else {
                out.append(contentsOf: bytes)
                return
            }
            for b in bytes {
                if b == 0x0A { out.append(contentsOf: "\\n".utf8) } else if b >= 0x20 || b == 0x09 { out.append(b) }
            }
        }
    }

    /// Whether any byte is below 0x20 other than TAB, checking eight bytes at a time.
    static func hasControlByte(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var i = 0
        let n = bytes.count
        while i + 8 <= n {
            let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            // Classic "has a byte less than 0x20" test; falls through to the exact check.
            if (word &- 0x2020_2020_2020_2020) & ~word & 0x8080_8080_8080_8080 != 0 { break }
            i += 8
        }
        while i < n {
            if bytes[i] < 0x20 && bytes[i] != 0x09 { return true }
            i += 1
        }
        return false
    }

    private func appendLine(_ s: String, into out: inout [UInt8]) {
        Self.fold(Array(s.utf8), into: &out)
    }

    /// Quotes when the value holds a delimiter; encodes RFC 6868 escapes.
    static func appendParameterValue(_ value: String, quote: Bool, into line: inout [UInt8]) {
        var needsQuotes = quote
        var needsCaret = false
        for b in value.utf8 {
            switch b {
            case UInt8(ascii: ":"), UInt8(ascii: ";"), UInt8(ascii: ","): needsQuotes = true
            case UInt8(ascii: "\""), UInt8(ascii: "^"), 0x0A: needsCaret = true
            default: break
            }
        }
        if needsQuotes { line.append(UInt8(ascii: "\"")) }
        if needsCaret {
            for b in value.utf8 {
                switch b {
                case UInt8(ascii: "\""): line.append(contentsOf: "^'".utf8)
                case UInt8(ascii: "^"): line.append(contentsOf: "^^".utf8)
                case 0x0A: line.append(contentsOf: "^n".utf8)
                case 0x0D: continue
                default: line.append(b)
                }
            }
        } else {
            line.append(contentsOf: value.utf8)
        }
        if needsQuotes { line.append(UInt8(ascii: "\"")) }
    }

    /// Appends `line` with CRLF, folding so no physical line exceeds 75 octets.
    static func fold(_ line: [UInt8], into out: inout [UInt8]) {
        if line.count <= maxLineOctets {
            out.append(contentsOf: line)
            out.append(0x0D)
            out.append(0x0A)
            return
        }
        var start = 0
        var limit = maxLineOctets
        while start < line.count {
            var end = min(start + limit, line.count)
            // Never cut inside a multi-byte sequence: back up to a lead byte.
            if end < line.count {
                while end > start + 1, line[end] & 0xC0 == 0x80 { end -= 1 }
            }
            if start > 0 { out.append(0x20) }
            out.append(contentsOf: line[start..<end])
            out.append(0x0D)
            out.append(0x0A)
            start = end
            limit = maxLineOctets - 1  // continuation lines spend one octet on the leading space
        }
    }
}

extension Component {
    /// The component as iCalendar text.
    public var serialized: String { ICalendarSerializer().serialize(self) }
}
