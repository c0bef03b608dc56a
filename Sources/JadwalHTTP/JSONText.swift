import Foundation
import ICalendar

/// JSON written straight into bytes, for the few answers large enough that `JSONEncoder`'s
/// generic machinery is most of their cost (a list of a thousand conflicts). It writes exactly
/// what `APIJSON.encoder()` writes for the same values: the caller names each object's keys in
/// sorted order, leaves out absent optionals, and dates are ISO 8601 in UTC to the second.
/// Tests hold the two byte for byte.
package struct JSONText: Sendable {
    package private(set) var bytes: [UInt8] = []
    /// Whether the object or array being written already has a member (so the next needs a comma).
    private var hasMember: [Bool] = []

    package init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    package var data: Data { Data(bytes) }

    // MARK: Structure

    package mutating func object(_ body: (inout JSONText) throws -> Void) rethrows {
        try nested(UInt8(ascii: "{"), UInt8(ascii: "}"), body)
    }

    package mutating func array(_ body: (inout JSONText) throws -> Void) rethrows {
        try nested(UInt8(ascii: "["), UInt8(ascii: "]"), body)
    }

    private mutating func nested(_ open: UInt8, _ close: UInt8, _ body: (inout JSONText) throws -> Void) rethrows {
        separate()
        bytes.append(open)
        hasMember.append(false)
        try body(&self)
        hasMember.removeLast()
        bytes.append(close)
    }

    /// A member's key; the value written next is its value.
    package mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        afterKey = true
    }

    /// Pieces that together are bytes already written as JSON (several values with their
    /// commas, say), as they are.
    package mutating func raw(pieces: [ArraySlice<UInt8>]) {
        separate()
        for piece in pieces { bytes.append(contentsOf: piece) }
    }

    /// A value right after its key takes no comma.
    private var afterKey = false

    private mutating func separate() {
        if afterKey {
            afterKey = false
        } else if let last = hasMember.last {
            if last { bytes.append(UInt8(ascii: ",")) } else { hasMember[hasMember.count - 1] = true }
        }
    }

    // MARK: Values

    package mutating func string(_ value: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var runStart = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                runStart = index + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                default:
                    bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), Self.hexDigits[Int(byte >> 4)], Self.hexDigits[Int(byte & 0xF)]])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    package mutating func int(_ value: Int) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
    }

    package mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// `2026-12-07T07:00:00Z`: the encoder's `.iso8601` (UTC, whole seconds, rounded down).
    package mutating func date(_ value: Date) {
        separate()
        let seconds = Int(value.timeIntervalSince1970.rounded(.down))
        let (days, secondOfDay) = seconds.quotientAndRemainder(dividingBy: 86_400)
        let (day, second) = secondOfDay < 0 ? (days - 1, secondOfDay + 86_400) : (days, secondOfDay)
        let date = CivilDate(daysSinceEpoch: day)
        bytes.append(UInt8(ascii: "\""))
        appendDigits(date.year, count: 4)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(date.month, count: 2)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(date.day, count: 2)
        bytes.append(UInt8(ascii: "T"))
        appendDigits(second / 3600, count: 2)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(second / 60 % 60, count: 2)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(second % 60, count: 2)
        bytes.append(contentsOf: [UInt8(ascii: "Z"), UInt8(ascii: "\"")])
    }

    // MARK: Members (absent optionals are left out, as the encoder does)

    package mutating func member(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        key(name)
        string(value)
    }

    package mutating func member(_ name: StaticString, _ value: Date?) {
        guard let value else { return }
        key(name)
        date(value)
    }

    package mutating func member(_ name: StaticString, _ value: Int) {
        key(name)
        int(value)
    }

    package mutating func member(_ name: StaticString, _ value: Bool) {
        key(name)
        bool(value)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private mutating func appendDigits(_ value: Int, count: Int) {
        var divisor = 1
        for _ in 1..<count { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }
}
