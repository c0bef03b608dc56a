/// A message header at the start of a line, its date fields still in file order: which one is
/// the day and which the month is decided once per file (`DateOrderInference`).
struct RawHeader {
    /// The three numbers of the date as written (a 2-digit year is not yet widened).
    var field1: Int
    var field2: Int
    var field3: Int
    /// The date starts with a 4-digit year (`2026-11-21`, `2026/11/21`).
    var yearFirst: Bool
    /// Hour on a 24-hour clock (AM/PM already applied).
    var hour: Int
    var minute: Int
    var second: Int
    /// `[date, time] …` (iOS) rather than `date, time - …` (Android).
    var bracketed: Bool
    /// Where `sender: body` (or a system line's text) starts.
    var restStart: Int

    /// The date as written, with ASCII digits, for error messages.
    var dateText: String { "\(field1)/\(field2)/\(field3)" }

    /// The year, a 2-digit one read as 20yy.
    var year: Int {
        let value = yearFirst ? field1 : field3
        return value < 100 ? 2000 + value : value
    }
}

/// Recognises the header grammar of FORMATS.md §2–3 on raw UTF-8, skipping invisible marks
/// wherever they appear and accepting every space variant, Arabic-Indic digits, the Arabic
/// comma and all the AM/PM spellings. No regular expressions, no allocation.
struct HeaderScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let end: Int
    private var index: Int

    /// The header at the start of `bytes[start..<end]`, or nil when the line does not start with one.
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> RawHeader? {
        var scanner = HeaderScanner(bytes: bytes, end: end, index: start)
        return scanner.header()
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, end: Int, index: Int) {
        self.bytes = bytes
        self.end = end
        self.index = index
    }

    private mutating func header() -> RawHeader? {
        skipIgnorable()
        let bracketed = consume(0x5B) // [
        // The date: three numbers with one separator (/ . -), sometimes a space after it.
        guard let (field1, digits1) = number(maxDigits: 4), digits1 != 3 else { return nil }
        skipIgnorable()
        guard index < end else { return nil }
        let separator = bytes[index]
        guard separator == 0x2F || separator == 0x2E || separator == 0x2D else { return nil }
        index += 1
        skipSpaces()
        guard let (field2, _) = number(maxDigits: 2) else { return nil }
        guard consume(separator) else { return nil }
        skipSpaces()
        guard let (field3, digits3) = number(maxDigits: 4) else { return nil }
        let yearFirst = digits1 == 4
        if yearFirst {
            guard digits3 <= 2, (1...12).contains(field2), (1...31).contains(field3) else { return nil }
        } else {
            guard digits3 == 2 || digits3 == 4, (1...31).contains(field1), (1...31).contains(field2) else { return nil }
        }
        _ = consume(0x2E) // "13. 6. 2018."
        let comma = consumeComma()
        let spaced = skipSpaces()
        guard comma || spaced else { return nil }
        if consumeWord("klo") { // Finnish iOS: "12.3.2022 klo 14.08.18"
            guard skipSpaces() else { return nil }
        }

        // The time: h:mm, h:mm:ss (or with dots), then an optional AM/PM marker.
        guard var (hour, _) = number(maxDigits: 2) else { return nil }
        skipIgnorable()
        guard index < end, bytes[index] == 0x3A || bytes[index] == 0x2E else { return nil }
        let timeSeparator = bytes[index]
        index += 1
        guard let (minute, minuteDigits) = number(maxDigits: 2), minuteDigits == 2, minute <= 59 else { return nil }
        var second = 0
        let afterMinutes = index
        if consume(timeSeparator), let (value, digits) = number(maxDigits: 2), digits == 2, value <= 59 {
            second = value
        } else {
            index = afterMinutes
        }
        let beforeMeridiem = index
        _ = skipSpaces()
        if let pm = meridiem() {
            guard (1...12).contains(hour) else { return nil }
            if hour == 12 { hour = 0 }
            if pm { hour += 12 }
        } else {
            index = beforeMeridiem
            guard hour <= 23 else { return nil }
        }

        // The end of the header: "] " (iOS) or " - " (Android).
        if bracketed {
            guard consume(0x5D) else { return nil } // ]
            skipOneSpace()
        } else {
            guard skipSpaces(), consume(0x2D) else { return nil } // -
            guard index >= end || skipOneSpace() else { return nil }
        }
        return RawHeader(
            field1: field1, field2: field2, field3: field3, yearFirst: yearFirst,
            hour: hour, minute: minute, second: second, bracketed: bracketed, restStart: index)
    }

    // MARK: tokens (each skips the invisible marks before it)

    private mutating func skipIgnorable() {
        while true {
            let length = ExportBytes.ignorableLength(bytes, index, end)
            if length == 0 { return }
            index += length
        }
    }

    /// Skips spaces and marks; true when at least one space was there.
    @discardableResult
    private mutating func skipSpaces() -> Bool {
        var found = false
        while true {
            skipIgnorable()
            let length = ExportBytes.spaceLength(bytes, index, end)
            if length == 0 { return found }
            index += length
            found = true
        }
    }

    /// Skips one space (and the marks around it); false when there is none.
    @discardableResult
    private mutating func skipOneSpace() -> Bool {
        let start = index
        skipIgnorable()
        let length = ExportBytes.spaceLength(bytes, index, end)
        guard length > 0 else {
            index = start
            return false
        }
        index += length
        return true
    }

    private mutating func consume(_ ascii: UInt8) -> Bool {
        let start = index
        skipIgnorable()
        if index < end, bytes[index] == ascii {
            index += 1
            return true
        }
        index = start
        return false
    }

    /// `,` or the Arabic comma U+060C.
    private mutating func consumeComma() -> Bool {
        let start = index
        skipIgnorable()
        if index < end, bytes[index] == 0x2C {
            index += 1
            return true
        }
        if index + 1 < end, bytes[index] == 0xD8, bytes[index + 1] == 0x8C {
            index += 2
            return true
        }
        index = start
        return false
    }

    private mutating func consumeWord(_ word: StaticString) -> Bool {
        let start = index
        skipIgnorable()
        let count = word.utf8CodeUnitCount
        guard index + count <= end else {
            index = start
            return false
        }
        let pointer = word.utf8Start
        for offset in 0..<count where bytes[index + offset] | 0x20 != pointer[offset] {
            index = start
            return false
        }
        index += count
        return true
    }

    /// Up to `maxDigits` digits (ASCII or Arabic-Indic), with their count.
    private mutating func number(maxDigits: Int) -> (Int, Int)? {
        skipIgnorable()
        var value = 0
        var count = 0
        while let (digit, length) = ExportBytes.digit(bytes, index, end) {
            guard count < maxDigits else { return nil }
            value = value * 10 + digit
            count += 1
            index += length
        }
        return count == 0 ? nil : (value, count)
    }

    /// `AM PM am pm a.m. p.m. a. m. p. m.` and the Arabic `ص` / `م`; true for PM.
    private mutating func meridiem() -> Bool? {
        let start = index
        skipIgnorable()
        guard index < end else { return nil }
        let lead = bytes[index]
        if index + 1 < end, lead == 0xD8, bytes[index + 1] == 0xB5 { // ص
            index += 2
            return false
        }
        if index + 1 < end, lead == 0xD9, bytes[index + 1] == 0x85 { // م
            index += 2
            return true
        }
        let letter = lead | 0x20
        guard letter == 0x61 || letter == 0x70 else { return nil } // a p
        index += 1
        let dotted = consume(0x2E)
        if dotted { _ = skipSpaces() }
        guard index < end, bytes[index] | 0x20 == 0x6D else { // m
            index = start
            return nil
        }
        index += 1
        if dotted { _ = consume(0x2E) }
        return letter == 0x70
    }
}
