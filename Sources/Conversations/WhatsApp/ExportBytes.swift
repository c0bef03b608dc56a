/// Byte-level reading of an export's UTF-8: the invisible marks WhatsApp sprinkles in, its
/// space variants, Arabic-Indic digits and the Arabic comma, recognised without decoding to
/// Characters (FORMATS.md §3, rule 1).
enum ExportBytes {
    /// The length of the invisible mark at `index` (LRM, RLM, U+202A–U+202E, U+2066–U+2069, BOM), or 0.
    @inline(__always)
    static func ignorableLength(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int, _ end: Int) -> Int {
        guard index + 2 < end else { return 0 }
        let lead = bytes[index]
        if lead == 0xE2 {
            let b1 = bytes[index + 1], b2 = bytes[index + 2]
            if b1 == 0x80, b2 == 0x8E || b2 == 0x8F || (0xAA...0xAE).contains(b2) { return 3 }
            if b1 == 0x81, (0xA6...0xA9).contains(b2) { return 3 }
            return 0
        }
        if lead == 0xEF, bytes[index + 1] == 0xBB, bytes[index + 2] == 0xBF { return 3 }
        return 0
    }

    /// The length of the space at `index` (U+0020, tab, U+00A0, U+202F, U+2009), or 0.
    @inline(__always)
    static func spaceLength(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int, _ end: Int) -> Int {
        guard index < end else { return 0 }
        let lead = bytes[index]
        if lead == 0x20 || lead == 0x09 { return 1 }
        if lead == 0xC2, index + 1 < end, bytes[index + 1] == 0xA0 { return 2 }
        if lead == 0xE2, index + 2 < end, bytes[index + 1] == 0x80,
           bytes[index + 2] == 0xAF || bytes[index + 2] == 0x89 { return 3 }
        return 0
    }

    /// The value and byte length of the digit at `index` (ASCII, Arabic-Indic or Extended Arabic-Indic).
    @inline(__always)
    static func digit(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int, _ end: Int) -> (value: Int, length: Int)? {
        guard index < end else { return nil }
        let lead = bytes[index]
        if lead >= 0x30, lead <= 0x39 { return (Int(lead - 0x30), 1) }
        guard index + 1 < end else { return nil }
        let next = bytes[index + 1]
        if lead == 0xD9, next >= 0xA0, next <= 0xA9 { return (Int(next - 0xA0), 2) }
        if lead == 0xDB, next >= 0xB0, next <= 0xB9 { return (Int(next - 0xB0), 2) }
        return nil
    }

    /// True when the line holds only spaces and invisible marks.
    static func isBlank(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        var index = start
        while index < end {
            let skip = max(ignorableLength(bytes, index, end), spaceLength(bytes, index, end))
            if skip == 0 { return false }
            index += skip
        }
        return true
    }

    /// Copies `bytes[start..<end]` into `scratch` with the invisible marks dropped and line breaks
    /// (CRLF, CR) made "\n"; returns the part of `scratch` without spaces and line breaks at either end.
    static func text(
        _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, into scratch: inout [UInt8]
    ) -> Range<Int> {
        scratch.removeAll(keepingCapacity: true)
        var index = start
        while index < end {
            let byte = bytes[index]
            if byte == 0x0D {
                scratch.append(0x0A)
                index += (index + 1 < end && bytes[index + 1] == 0x0A) ? 2 : 1
                continue
            }
            if byte == 0xE2 || byte == 0xEF {
                let skip = ignorableLength(bytes, index, end)
                if skip > 0 {
                    index += skip
                    continue
                }
            }
            scratch.append(byte)
            index += 1
        }
        var last = scratch.count
        while last > 0, scratch[last - 1] == 0x20 || scratch[last - 1] == 0x0A || scratch[last - 1] == 0x09 {
            last -= 1
        }
        var first = 0
        while first < last, scratch[first] == 0x20 || scratch[first] == 0x0A || scratch[first] == 0x09 { first += 1 }
        return first..<last
    }

    /// A sender name: marks dropped, every space variant made U+0020, trimmed, a leading
    /// "~ " (non-contacts in groups) removed.
    static func sender(
        _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, scratch: inout [UInt8]
    ) -> String {
        scratch.removeAll(keepingCapacity: true)
        var index = start
        while index < end {
            let skipped = ignorableLength(bytes, index, end)
            if skipped > 0 {
                index += skipped
                continue
            }
            let space = spaceLength(bytes, index, end)
            if space > 0 {
                if let last = scratch.last, last != 0x20 { scratch.append(0x20) }
                index += space
                continue
            }
            if bytes[index] == 0x7E, scratch.isEmpty {
                // "~ Name": the tilde WhatsApp puts before a non-contact's profile name.
                var next = index + 1
                while next < end, ignorableLength(bytes, next, end) > 0 { next += 3 }
                if spaceLength(bytes, next, end) > 0 {
                    index = next
                    continue
                }
            }
            scratch.append(bytes[index])
            index += 1
        }
        while let last = scratch.last, last == 0x20 { scratch.removeLast() }
        return String(decoding: scratch, as: UTF8.self)
    }

    /// The 0-based offset of the first byte that is not part of a well-formed UTF-8 scalar.
    static func firstInvalidUTF8Offset(_ bytes: some Sequence<UInt8>) -> Int? {
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                offset += encoded.count
            case .emptyInput:
                return nil
            case .error:
                return offset
            }
        }
    }
}
