import Foundation
import JadwalCore

/// Reads a conflict's `event` and `overlapping` columns, which the store wrote with its own
/// encoder (sorted keys, dates in milliseconds), without `JSONDecoder`: its generic machinery was
/// a third of a thousand-conflict list's time. Anything it does not expect (an unknown key, a
/// missing field, another shape) gives nil, and the caller decodes with `JSONDecoder` as before,
/// so a row is never read differently, only faster.
enum StoredConflictJSON {
    static func occurrence(_ text: String) -> EventConflict.Occurrence? {
        var text = text
        return text.withUTF8 { buffer in
            var reader = Reader(bytes: buffer)
            guard let occurrence = reader.occurrence(), reader.atEnd else { return nil }
            return occurrence
        }
    }

    static func overlaps(_ text: String) -> [EventConflict.Overlap]? {
        var text = text
        return text.withUTF8 { buffer in
            var reader = Reader(bytes: buffer)
            var overlaps: [EventConflict.Overlap] = []
            let read = reader.elements { reader in
                guard let overlap = reader.overlap() else { return false }
                overlaps.append(overlap)
                return true
            }
            guard read, reader.atEnd else { return nil }
            return overlaps
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        var atEnd: Bool { position == bytes.count }

        /// Keeps a member's value; a value that did not read ends the fast path.
        static func keep<Value>(_ field: inout Value?, _ value: Value?) -> Bool {
            field = value
            return value != nil
        }

        mutating func occurrence() -> EventConflict.Occurrence? {
            var calendarID: UUID?, objectName: String?, uid: String?, title: String?, start: Date?, end: Date?
            var recurrenceID: String?, etag: String?
            let complete = members { reader, key in
                switch key {
                case "calendarID": return Self.keep(&calendarID, reader.string().flatMap(UUIDText.parse))
                case "objectName": return Self.keep(&objectName, reader.string())
                case "uid": return Self.keep(&uid, reader.string())
                case "title": return Self.keep(&title, reader.string())
                case "start": return Self.keep(&start, reader.date())
                case "end": return Self.keep(&end, reader.date())
                case "recurrenceID": return Self.keep(&recurrenceID, reader.string())
                case "etag": return Self.keep(&etag, reader.string())
                default: return false
                }
            }
            guard complete, let calendarID, let objectName, let uid, let start, let end, let etag else { return nil }
            return EventConflict.Occurrence(
                calendarID: calendarID, objectName: objectName, uid: uid, title: title, start: start, end: end, recurrenceID: recurrenceID, etag: etag)
        }

        mutating func overlap() -> EventConflict.Overlap? {
            var kind: EventConflict.Overlap.Kind?, title: String?, start: Date?, end: Date?, overlapStart: Date?, overlapEnd: Date?
            var calendarID: UUID?, objectName: String?, prayer: String?
            let complete = members { reader, key in
                switch key {
                case "kind": return Self.keep(&kind, reader.string().flatMap(EventConflict.Overlap.Kind.init(rawValue:)))
                case "title": return Self.keep(&title, reader.string())
                case "start": return Self.keep(&start, reader.date())
                case "end": return Self.keep(&end, reader.date())
                case "overlapStart": return Self.keep(&overlapStart, reader.date())
                case "overlapEnd": return Self.keep(&overlapEnd, reader.date())
                case "calendarID": return Self.keep(&calendarID, reader.string().flatMap(UUIDText.parse))
                case "objectName": return Self.keep(&objectName, reader.string())
                case "prayer": return Self.keep(&prayer, reader.string())
                default: return false
                }
            }
            guard complete, let kind, let title, let start, let end, let overlapStart, let overlapEnd else { return nil }
            return EventConflict.Overlap(
                kind: kind, title: title, start: start, end: end, overlapStart: overlapStart, overlapEnd: overlapEnd, calendarID: calendarID,
                objectName: objectName, prayer: prayer)
        }

        /// An object's members; `member` reads the value and says whether it was one it knows.
        mutating func members(_ member: (inout Reader, String) -> Bool) -> Bool {
            guard take(UInt8(ascii: "{")) else { return false }
            if take(UInt8(ascii: "}")) { return true }
            repeat {
                guard let key = string(), take(UInt8(ascii: ":")), member(&self, key) else { return false }
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "}"))
        }

        mutating func elements(_ element: (inout Reader) -> Bool) -> Bool {
            guard take(UInt8(ascii: "[")) else { return false }
            if take(UInt8(ascii: "]")) { return true }
            repeat {
                guard element(&self) else { return false }
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "]"))
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard position < bytes.count, bytes[position] == byte else { return false }
            position += 1
            return true
        }

        /// Milliseconds since 1970, as `.millisecondsSince1970` decodes them.
        mutating func date() -> Date? {
            let start = position
            while position < bytes.count, Self.isNumberByte(bytes[position]) { position += 1 }
            let digits = UnsafeBufferPointer(rebasing: bytes[start..<position])
            guard !digits.isEmpty, let milliseconds = Double(String(decoding: digits, as: UTF8.self)) else { return nil }
            return Date(timeIntervalSince1970: milliseconds / 1000)
        }

        static func isNumberByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): true
            default: false
            }
        }

        mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = position
            while position < bytes.count {
                switch bytes[position] {
                case UInt8(ascii: "\""):
                    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
                    position += 1
                    return text
                case UInt8(ascii: "\\"):
                    position = start
                    return escapedString()
                default:
                    position += 1
                }
            }
            return nil
        }

        /// The slow way, for a string with escapes (every ETag has its quotes escaped).
        private mutating func escapedString() -> String? {
            var scalars = String.UnicodeScalarView()
            var plainStart = position
            func flush(_ end: Int) {
                scalars.append(contentsOf: String(decoding: UnsafeBufferPointer(rebasing: bytes[plainStart..<end]), as: UTF8.self).unicodeScalars)
            }
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    flush(position)
                    position += 1
                    return String(scalars)
                }
                guard byte == UInt8(ascii: "\\") else {
                    position += 1
                    continue
                }
                flush(position)
                position += 1
                guard position < bytes.count else { return nil }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(UnicodeScalar(escape))
                case UInt8(ascii: "b"): scalars.append("\u{8}")
                case UInt8(ascii: "f"): scalars.append("\u{C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    guard let unit = hex4() else { return nil }
                    if (0xD800..<0xDC00).contains(unit) {
                        guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")), let low = hex4(), (0xDC00..<0xE000).contains(low),
                              let scalar = UnicodeScalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
                        else { return nil }
                        scalars.append(scalar)
                    } else {
                        guard let scalar = UnicodeScalar(unit) else { return nil }
                        scalars.append(scalar)
                    }
                default: return nil
                }
                plainStart = position
            }
            return nil
        }

        private mutating func hex4() -> UInt32? {
            guard position + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[position]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                value = value << 4 | UInt32(digit)
                position += 1
            }
            return value
        }
    }
}
