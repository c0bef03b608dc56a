import CivilTime
import Foundation

/// Apple Health's `export.xml`, read as it streams in: chunks go in, and only what the tracker
/// imports comes out (sleep analysis samples and workouts). The file can be gigabytes, so
/// nothing but one unfinished tag is ever held, and no DOM is built.
///
/// This is a reader for the shape the Health app writes, not a general XML parser: elements,
/// attributes, comments, processing instructions, CDATA and the `<!DOCTYPE HealthData [...]>`
/// internal subset the export starts with. The subset is skipped, never interpreted, so no
/// entity is ever declared or expanded (only the five predefined ones and character
/// references are decoded, in the attribute values read). Text between elements is ignored.
///
/// A structural fault (a tag that never ends, `<` inside a tag, no `HealthData` root) stops
/// the reading with ``Malformed`` and its line. A record that is well-formed but unusable (a
/// date that cannot be read, an end before its start) is left out and listed in ``problems``.
public struct HealthExportReader: Sendable {
    /// One sleep analysis sample: a stretch in bed, asleep (any stage) or awake.
    public struct SleepSample: Sendable, Hashable {
        public enum Stage: Sendable, Hashable { case inBed, asleep, awake }

        public let start: Date
        public let end: Date
        public let stage: Stage
        public let line: Int

        public init(start: Date, end: Date, stage: Stage, line: Int) {
            self.start = start
            self.end = end
            self.stage = stage
            self.line = line
        }
    }

    /// One workout: its activity as Apple names it (`HKWorkoutActivityTypeRunning`) and how long.
    public struct Workout: Sendable, Hashable {
        public let activity: String
        public let minutes: Double
        public let start: Date
        public let end: Date
        public let line: Int

        /// The activity in the tracker's words: `running`, `traditional-strength-training`.
        public var kind: String {
            var name = activity.hasPrefix("HKWorkoutActivityType") ? String(activity.dropFirst("HKWorkoutActivityType".count)) : activity
            if name.isEmpty { name = "workout" }
            var words = ""
            for character in name {
                if character.isUppercase, !words.isEmpty, words.last != "-" { words.append("-") }
                words.append(character.isLetter || character.isNumber ? Character(character.lowercased()) : "-")
            }
            return String(words.prefix(40))
        }
    }

    /// A record left out, and why.
    public struct Problem: Sendable, Hashable {
        public let line: Int
        public let reason: String

        public init(line: Int, reason: String) {
            self.line = line
            self.reason = reason
        }
    }

    /// The file is not an export this reader can follow.
    public struct Malformed: Error, Sendable, Equatable, CustomStringConvertible {
        public let line: Int
        public let reason: String
        public var description: String { "line \(line): \(reason)" }

        public init(line: Int, reason: String) {
            self.line = line
            self.reason = reason
        }
    }

    public static let sleepType = "HKCategoryTypeIdentifierSleepAnalysis"
    /// A tag, comment or declaration longer than this is refused: nothing in an export comes
    /// near it, and it bounds what the reader holds.
    public static let longestToken = 1 << 20
    /// Problems listed at most (the count goes on).
    public static let problemLimit = 1000

    public private(set) var sleep: [SleepSample] = []
    public private(set) var workouts: [Workout] = []
    public private(set) var problems: [Problem] = []
    public private(set) var problemCount = 0
    /// Every `Record` element read, imported or not.
    public private(set) var records = 0
    /// Bytes read so far.
    public private(set) var bytesRead: Int64 = 0
    /// When the export was made (`ExportDate`), if the file says.
    public private(set) var exportDate: Date?

    /// The bytes of an unfinished token, carried to the next chunk.
    private var pending: [UInt8] = []
    /// The line `pending[0]` is on.
    private var line = 1
    private var sawRoot = false
    private var sawContent = false
    private var rootClosed = false
    /// Attribute ranges of the tag being read, reused between tags.
    private var attributes: [(name: Range<Int>, value: Range<Int>)] = []

    public init() {}

    /// Reads the next bytes of the file.
    public mutating func read(_ chunk: UnsafeRawBufferPointer) throws {
        bytesRead += Int64(chunk.count)
        var buffer: [UInt8] = []
        swap(&buffer, &pending)
        chunk.withMemoryRebound(to: UInt8.self) { buffer.append(contentsOf: $0) }
        let consumed = try buffer.withUnsafeBufferPointer { bytes in try scan(bytes) }
        if consumed < buffer.count {
            buffer.removeSubrange(0..<consumed)
            guard buffer.count <= Self.longestToken else {
                throw Malformed(line: line, reason: "a tag or declaration runs on for more than \(Self.longestToken >> 20) MB")
            }
            pending = buffer
        }
    }

    /// The file has ended: what is left must be whitespace, and the root must have been read.
    public mutating func finish() throws {
        if pending.contains(where: { !Self.isSpace($0) }) {
            throw Malformed(line: line, reason: "the file ends inside a tag: it was cut short")
        }
        guard sawRoot else {
            throw Malformed(line: line, reason: "no <HealthData> element: this is not the export.xml of Apple Health")
        }
        guard rootClosed else {
            throw Malformed(line: line, reason: "</HealthData> is missing: the file was cut short")
        }
    }

    // MARK: Scanning

    private static let lt = UInt8(ascii: "<"), gt = UInt8(ascii: ">"), slash = UInt8(ascii: "/"), bang = UInt8(ascii: "!")
    private static let question = UInt8(ascii: "?"), newline = UInt8(ascii: "\n"), equals = UInt8(ascii: "=")
    private static let quote = UInt8(ascii: "\""), apostrophe = UInt8(ascii: "'"), dash = UInt8(ascii: "-")
    private static let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]")
    private static let commentOpen = Array("<!--".utf8), commentClose = Array("-->".utf8)
    private static let cdataOpen = Array("<![CDATA[".utf8), cdataClose = Array("]]>".utf8), doctypeOpen = Array("<!DOCTYPE".utf8)
    private static let processingEnd: [UInt8] = [UInt8(ascii: "?"), UInt8(ascii: ">")]

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

    /// Reads every whole token in `b`; returns how many bytes were used (the rest waits for more).
    private mutating func scan(_ b: UnsafeBufferPointer<UInt8>) throws -> Int {
        let n = b.count
        guard let base = b.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        var i = 0
        var counted = 0  // newlines are counted up to here
        func lineAt(_ position: Int) -> Int {
            var extra = 0
            var p = counted
            while p < position {
                if b[p] == Self.newline { extra += 1 }
                p += 1
            }
            return line + extra
        }
        func advanceLines(to position: Int) {
            var p = counted
            var lines = 0
            while p < position {
                guard let found = memchr(raw + p, Int32(Self.newline), position - p) else { break }
                lines += 1
                p = raw.distance(to: UnsafeRawPointer(found)) + 1
            }
            line += lines
            counted = position
        }
        func findByte(_ byte: UInt8, from start: Int) -> Int? {
            guard start < n, let found = memchr(raw + start, Int32(byte), n - start) else { return nil }
            return raw.distance(to: UnsafeRawPointer(found))
        }
        func findPattern(_ pattern: [UInt8], from start: Int) -> Int? {
            var p = start
            while let first = findByte(pattern[0], from: p) {
                guard first + pattern.count <= n else { return nil }
                var matched = true
                for k in 1..<pattern.count where b[first + k] != pattern[k] {
                    matched = false
                    break
                }
                if matched { return first }
                p = first + 1
            }
            return nil
        }
        func startsWith(_ pattern: [UInt8], at position: Int) -> Bool? {
            guard position + pattern.count <= n else { return nil }
            for k in 0..<pattern.count where b[position + k] != pattern[k] { return false }
            return true
        }

        scanning: while true {
            if !sawContent {
                // A UTF-8 byte order mark may come first; anything but `<` after it is not XML.
                var p = i
                if p + 3 <= n, b[p] == 0xEF, b[p + 1] == 0xBB, b[p + 2] == 0xBF { p += 3 }
                while p < n, Self.isSpace(b[p]) { p += 1 }
                guard p < n else { break scanning }
                if b[p] == 0xFE || b[p] == 0xFF || b[p] == 0 {
                    throw Malformed(line: lineAt(p), reason: "the file is not UTF-8 (Apple Health writes UTF-8)")
                }
                guard b[p] == Self.lt else {
                    throw Malformed(line: lineAt(p), reason: "the file does not start with XML: this is not the export.xml of Apple Health")
                }
                sawContent = true
                i = p
            }
            guard let open = findByte(Self.lt, from: i) else {
                i = n
                break scanning
            }
            i = open
            guard i + 1 < n else { break scanning }
            switch b[i + 1] {
            case Self.question:
                guard let end = findPattern(Self.processingEnd, from: i + 2) else { break scanning }
                i = end + 2
            case Self.bang:
                if let comment = startsWith(Self.commentOpen, at: i) {
                    if comment {
                        guard let end = findPattern(Self.commentClose, from: i + 4) else { break scanning }
                        i = end + 3
                        continue scanning
                    }
                } else {
                    break scanning
                }
                if let cdata = startsWith(Self.cdataOpen, at: i) {
                    if cdata {
                        guard let end = findPattern(Self.cdataClose, from: i + 9) else { break scanning }
                        i = end + 3
                        continue scanning
                    }
                } else {
                    break scanning
                }
                guard let doctype = startsWith(Self.doctypeOpen, at: i) else { break scanning }
                guard doctype, !sawRoot else {
                    throw Malformed(line: lineAt(i), reason: "unexpected declaration \"\(Self.text(b, i..<min(n, i + 12)))…\"")
                }
                switch declarationEnd(b, from: i + 9) {
                case .end(let end): i = end + 1
                case .needMore: break scanning
                case .unbalanced(let at): throw Malformed(line: lineAt(at), reason: "']' without '[' in the document type declaration")
                }
            case Self.slash:
                guard let end = findByte(Self.gt, from: i + 2) else { break scanning }
                if !rootClosed, startsWith(Self.rootName, at: i + 2) == true {
                    rootClosed = true
                }
                i = end + 1
            default:
                // A start tag. Apple escapes `>` in values, so the first `>` ends nearly every tag:
                // found with memchr, which is what makes millions of records cheap. A `<` before
                // it means the tag never ended. The tags that are read (sleep records, workouts)
                // are then checked quote by quote, in case a value does hold a `>`; for any other
                // an early end only turns the rest of an ignored tag into ignored text.
                guard let first = findByte(Self.gt, from: i + 1) else {
                    if let lessThan = findByte(Self.lt, from: i + 1) {
                        throw Malformed(line: lineAt(lessThan), reason: "'<' inside a tag: the tag before it never ends")
                    }
                    break scanning
                }
                if let lessThan = findByte(Self.lt, from: i + 1), lessThan < first {
                    throw Malformed(line: lineAt(lessThan), reason: "'<' inside a tag: the tag before it never ends")
                }
                var close = first
                if isRead(b, from: i + 1, to: first) {
                    switch tagEnd(b, raw: raw, from: i + 1) {
                    case .end(let end): close = end
                    case .needMore: break scanning
                    case .lessThan(let at): throw Malformed(line: lineAt(at), reason: "'<' inside a tag: the tag before it never ends")
                    }
                }
                advanceLines(to: i)
                try startTag(b, from: i + 1, to: close)
                i = close + 1
            }
        }
        advanceLines(to: i)
        return i
    }

    private enum DeclarationEnd { case end(Int), needMore, unbalanced(at: Int) }
    private enum TagEnd { case end(Int), needMore, lessThan(at: Int) }

    /// Whether the tag in `b[from..<to]` (up to its first `>`) is one whose attributes are read.
    private func isRead(_ b: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Bool {
        var p = from
        while p < to, !Self.isSpace(b[p]), b[p] != Self.slash { p += 1 }
        let name = from..<p
        if Self.equal(b, name, Self.recordName) {
            while p < to, Self.isSpace(b[p]) { p += 1 }
            guard p + Self.typePrefix.count <= to, Self.equal(b, p..<(p + Self.typePrefix.count), Self.typePrefix) else { return true }
            let start = p + Self.typePrefix.count
            return to - start >= Self.sleepTypeBytes.count && Self.equal(b, start..<(start + Self.sleepTypeBytes.count), Self.sleepTypeBytes)
        }
        return !sawRoot || Self.equal(b, name, Self.workoutName) || Self.equal(b, name, Self.exportDateName)
    }

    /// The `>` that ends a start tag begun before `start`. Quoted values are skipped with
    /// `memchr` (they are most of a record's bytes); only what lies between them is looked at,
    /// for the next quote, the `>`, or a `<` that means the tag never ended.
    private func tagEnd(_ b: UnsafeBufferPointer<UInt8>, raw: UnsafeRawPointer, from start: Int) -> TagEnd {
        let n = b.count
        var p = start
        while p < n {
            let byte = b[p]
            if byte == Self.gt { return .end(p) }
            if byte == Self.lt { return .lessThan(at: p) }
            if byte == Self.quote || byte == Self.apostrophe {
                guard p + 1 < n, let found = memchr(raw + p + 1, Int32(byte), n - p - 1) else {
                    // The value runs past what has arrived; a `<` in it means the tag broke.
                    if p + 1 < n, let lessThan = memchr(raw + p + 1, Int32(Self.lt), n - p - 1) {
                        return .lessThan(at: raw.distance(to: UnsafeRawPointer(lessThan)))
                    }
                    return .needMore
                }
                p = raw.distance(to: UnsafeRawPointer(found)) + 1
                continue
            }
            p += 1
        }
        return .needMore
    }

    /// The `>` that ends a `<!DOCTYPE …>`, past its internal subset (brackets, quoted strings and
    /// comments inside it).
    private func declarationEnd(_ b: UnsafeBufferPointer<UInt8>, from start: Int) -> DeclarationEnd {
        let n = b.count
        var p = start
        var depth = 0
        var quote: UInt8 = 0
        while p < n {
            let byte = b[p]
            if quote != 0 {
                if byte == quote { quote = 0 }
            } else if byte == Self.quote || byte == Self.apostrophe {
                quote = byte
            } else if byte == Self.lt, p + 3 < n, b[p + 1] == Self.bang, b[p + 2] == Self.dash, b[p + 3] == Self.dash {
                // A comment in the subset may hold quotes and brackets of its own.
                var q = p + 4
                var ended = false
                while q + 2 < n {
                    if b[q] == Self.dash, b[q + 1] == Self.dash, b[q + 2] == Self.gt {
                        ended = true
                        break
                    }
                    q += 1
                }
                guard ended else { return .needMore }
                p = q + 3
                continue
            } else if byte == Self.lt, p + 3 >= n {
                return .needMore
            } else if byte == Self.openBracket {
                depth += 1
            } else if byte == Self.closeBracket {
                depth -= 1
                if depth < 0 { return .unbalanced(at: p) }
            } else if byte == Self.gt, depth == 0 {
                return .end(p)
            }
            p += 1
        }
        return .needMore
    }

    // MARK: Elements

    private static let recordName = Array("Record".utf8)
    private static let workoutName = Array("Workout".utf8)
    private static let rootName = Array("HealthData".utf8)
    private static let exportDateName = Array("ExportDate".utf8)
    private static let sleepTypeBytes = Array(sleepType.utf8)
    private static let typePrefix = Array("type=\"".utf8)

    /// One start tag, `b[from..<to]` being what lies between `<` and `>`.
    private mutating func startTag(_ b: UnsafeBufferPointer<UInt8>, from: Int, to: Int) throws {
        var p = from
        while p < to, !Self.isSpace(b[p]), b[p] != Self.slash { p += 1 }
        let name = from..<p
        guard !name.isEmpty else { throw Malformed(line: line, reason: "a tag without a name") }
        if !sawRoot {
            guard Self.equal(b, name, Self.rootName) else {
                throw Malformed(line: line, reason: "the first element is <\(Self.text(b, name))>, not <HealthData>: this is not the export.xml of Apple Health")
            }
            sawRoot = true
            return
        }
        if Self.equal(b, name, Self.recordName) {
            records += 1
            // Millions of records are steps and heart beats: their type, written first, is read
            // before anything else is, and they go no further.
            var q = p
            while q < to, Self.isSpace(b[q]) { q += 1 }
            if q + Self.typePrefix.count <= to, Self.equal(b, q..<(q + Self.typePrefix.count), Self.typePrefix) {
                let valueStart = q + Self.typePrefix.count
                var valueEnd = valueStart
                while valueEnd < to, b[valueEnd] != Self.quote { valueEnd += 1 }
                guard Self.equal(b, valueStart..<valueEnd, Self.sleepTypeBytes) else { return }
            }
            try readAttributes(b, from: p, to: to)
            guard let type = value("type", b), Self.equal(b, type, Self.sleepTypeBytes) else { return }
            sleepRecord(b)
        } else if Self.equal(b, name, Self.workoutName) {
            try readAttributes(b, from: p, to: to)
            workout(b)
        } else if Self.equal(b, name, Self.exportDateName) {
            try readAttributes(b, from: p, to: to)
            exportDate = value("value", b).flatMap { Self.date(b, $0) }
        }
    }

    private mutating func sleepRecord(_ b: UnsafeBufferPointer<UInt8>) {
        guard let (start, end) = range(b) else { return }
        guard let valueRange = value("value", b) else {
            problem("a sleep record without a value")
            return
        }
        let stage: SleepSample.Stage
        switch Self.text(b, valueRange) {
        // HKCategoryValueSleepAnalysis: the names exports have used, and the raw values.
        case "HKCategoryValueSleepAnalysisInBed", "0": stage = .inBed
        case "HKCategoryValueSleepAnalysisAsleep", "HKCategoryValueSleepAnalysisAsleepUnspecified", "HKCategoryValueSleepAnalysisAsleepCore",
             "HKCategoryValueSleepAnalysisAsleepDeep", "HKCategoryValueSleepAnalysisAsleepREM", "1", "3", "4", "5":
            stage = .asleep
        case "HKCategoryValueSleepAnalysisAwake", "2": stage = .awake
        case let other:
            problem("a sleep record with the unknown value \"\(other.prefix(80))\"")
            return
        }
        sleep.append(SleepSample(start: start, end: end, stage: stage, line: line))
    }

    private mutating func workout(_ b: UnsafeBufferPointer<UInt8>) {
        guard let (start, end) = range(b) else { return }
        let activity = value("workoutActivityType", b).map { Self.text(b, $0) } ?? "HKWorkoutActivityTypeOther"
        var minutes = end.timeIntervalSince(start) / 60
        if let durationRange = value("duration", b) {
            guard let duration = Double(Self.text(b, durationRange)), duration.isFinite, duration >= 0 else {
                problem("a workout whose duration \"\(Self.text(b, durationRange).prefix(40))\" is not a number")
                return
            }
            switch value("durationUnit", b).map({ Self.text(b, $0) }) ?? "min" {
            case "s": minutes = duration / 60
            case "hr", "h": minutes = duration * 60
            case "min": minutes = duration
            case let unit:
                problem("a workout whose duration unit \"\(unit.prefix(20))\" is not s, min or hr")
                return
            }
        }
        workouts.append(Workout(activity: activity, minutes: minutes, start: start, end: end, line: line))
    }

    /// The record's start and end, or nil (listed as a problem) when they cannot be read.
    private mutating func range(_ b: UnsafeBufferPointer<UInt8>) -> (Date, Date)? {
        guard let startRange = value("startDate", b), let endRange = value("endDate", b) else {
            problem("a record without startDate or endDate")
            return nil
        }
        guard let start = Self.date(b, startRange) else {
            problem("startDate \"\(Self.text(b, startRange).prefix(40))\" is not a date such as 2024-01-05 23:10:00 +0300")
            return nil
        }
        guard let end = Self.date(b, endRange) else {
            problem("endDate \"\(Self.text(b, endRange).prefix(40))\" is not a date such as 2024-01-05 23:10:00 +0300")
            return nil
        }
        guard end >= start else {
            problem("endDate is before startDate")
            return nil
        }
        return (start, end)
    }

    private mutating func problem(_ reason: String) {
        problemCount += 1
        if problems.count < Self.problemLimit { problems.append(Problem(line: line, reason: reason)) }
    }

    /// Reads `name="value"` pairs of the tag into ``attributes``.
    private mutating func readAttributes(_ b: UnsafeBufferPointer<UInt8>, from: Int, to: Int) throws {
        attributes.removeAll(keepingCapacity: true)
        var p = from
        while true {
            while p < to, Self.isSpace(b[p]) { p += 1 }
            guard p < to, b[p] != Self.slash else { return }
            let nameStart = p
            while p < to, b[p] != Self.equals, !Self.isSpace(b[p]) { p += 1 }
            let name = nameStart..<p
            while p < to, Self.isSpace(b[p]) { p += 1 }
            guard p < to, b[p] == Self.equals else {
                throw Malformed(line: line, reason: "the attribute \(Self.text(b, name)) has no value")
            }
            p += 1
            while p < to, Self.isSpace(b[p]) { p += 1 }
            guard p < to, b[p] == Self.quote || b[p] == Self.apostrophe else {
                throw Malformed(line: line, reason: "the value of \(Self.text(b, name)) is not in quotes")
            }
            let quote = b[p]
            let valueStart = p + 1
            p = valueStart
            while p < to, b[p] != quote { p += 1 }
            guard p < to else { throw Malformed(line: line, reason: "the value of \(Self.text(b, name)) never ends") }
            attributes.append((name, valueStart..<p))
            p += 1
        }
    }

    private func value(_ name: StaticString, _ b: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        let wanted = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        for attribute in attributes where attribute.name.count == wanted.count {
            var same = true
            for k in 0..<wanted.count where b[attribute.name.lowerBound + k] != wanted[k] {
                same = false
                break
            }
            if same { return attribute.value }
        }
        return nil
    }

    private static func equal(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ bytes: [UInt8]) -> Bool {
        guard range.count == bytes.count else { return false }
        for k in 0..<bytes.count where b[range.lowerBound + k] != bytes[k] { return false }
        return true
    }

    /// The bytes as text, with the predefined entities and character references decoded.
    static func text(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        let raw = String(decoding: UnsafeBufferPointer(rebasing: b[range]), as: UTF8.self)
        guard raw.contains("&") else { return raw }
        var decoded = ""
        var rest = Substring(raw)
        while let amp = rest.firstIndex(of: "&") {
            decoded += rest[..<amp]
            guard let semicolon = rest[amp...].prefix(12).firstIndex(of: ";") else {
                decoded += "&"
                rest = rest[rest.index(after: amp)...]
                continue
            }
            let entity = rest[rest.index(after: amp)..<semicolon]
            var replacement: String?
            switch entity {
            case "amp": replacement = "&"
            case "lt": replacement = "<"
            case "gt": replacement = ">"
            case "quot": replacement = "\""
            case "apos": replacement = "'"
            default:
                let number = entity.hasPrefix("#x") ? UInt32(entity.dropFirst(2), radix: 16) : entity.hasPrefix("#") ? UInt32(entity.dropFirst(), radix: 10) : nil
                replacement = number.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
            }
            if let replacement {
                decoded += replacement
                rest = rest[rest.index(after: semicolon)...]
            } else {
                decoded += "&"
                rest = rest[rest.index(after: amp)...]
            }
        }
        return decoded + rest
    }

    /// `2024-01-05 23:10:00 +0300`, the form every date in an export has.
    static func date(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Date? {
        guard range.count == 25 else { return nil }
        let s = range.lowerBound
        func digits(_ offset: Int, _ count: Int) -> Int? {
            var value = 0
            for k in 0..<count {
                let byte = b[s + offset + k]
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard b[s + 4] == Self.dash, b[s + 7] == Self.dash, b[s + 10] == 0x20, b[s + 13] == 0x3A, b[s + 16] == 0x3A, b[s + 19] == 0x20,
              let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
              let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2),
              let offsetHours = digits(21, 2), let offsetMinutes = digits(23, 2),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61, offsetMinutes < 60
        else { return nil }
        let sign: Int
        switch b[s + 20] {
        case UInt8(ascii: "+"): sign = 1
        case Self.dash: sign = -1
        default: return nil
        }
        let days = CivilDays.since1970(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - sign * (offsetHours * 3600 + offsetMinutes * 60)
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}
