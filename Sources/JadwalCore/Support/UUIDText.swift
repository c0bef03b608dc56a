import Foundation

/// UUIDs as Jadwal writes them (`8-4-4-4-12` hex digits, either case: stored rows, stored
/// conflicts, busy blocks' references), read without `UUID(uuidString:)`, which on Linux parses
/// with `sscanf`: a tenth of a thousand-conflict list's time went there. It reads that form as the
/// initializer does and refuses anything else (it is stricter: no trailing characters).
public enum UUIDText {
    public static func parse(_ text: String) -> UUID? {
        var text = text
        return text.withUTF8 { utf8 -> UUID? in
            guard utf8.count == 36 else { return nil }
            var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            let parsed = withUnsafeMutableBytes(of: &bytes) { out -> Bool in
                var position = 0
                for index in 0..<16 {
                    if position == 8 || position == 13 || position == 18 || position == 23 {
                        guard utf8[position] == UInt8(ascii: "-") else { return false }
                        position += 1
                    }
                    guard let high = hexValue(utf8[position]), let low = hexValue(utf8[position + 1]) else { return false }
                    out[index] = high << 4 | low
                    position += 2
                }
                return true
            }
            return parsed ? UUID(uuid: bytes) : nil
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `uuidString.lowercased()` without `sprintf` (Foundation's `uuidString` on Linux formats
    /// with it): the form of every id Jadwal shows and every busy block's reference.
    public static func lowercased(_ id: UUID) -> String {
        withUnsafeBytes(of: id.uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { out in
                var position = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        out[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    out[position] = hexDigits[Int(byte >> 4)]
                    out[position + 1] = hexDigits[Int(byte & 0xF)]
                    position += 2
                }
                return position
            }
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
