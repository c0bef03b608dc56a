/// Why a file cannot be read as a WhatsApp "Export chat" text file: where, and what to do about it.
public struct WhatsAppExportError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Reason: Sendable, Hashable {
        /// The bytes are not UTF-8; `byteOffset` is the 0-based offset of the first bad byte.
        case invalidUTF8(byteOffset: Int)
        /// The file has no characters, or only blank lines.
        case empty
        /// The first line with text is not a message header; `excerpt` is its start.
        case notAnExport(excerpt: String)
        /// A header's date is no calendar date in any order (`date` as written, digits normalised).
        case impossibleDate(date: String)
        /// Two headers of the file need different day/month orders.
        case inconsistentDateOrder(date: String, otherLine: Int, otherDate: String)
    }

    /// The 1-based line the problem is on; nil when it is about the whole file.
    public let line: Int?
    public let reason: Reason

    public init(line: Int?, reason: Reason) {
        self.line = line
        self.reason = reason
    }

    /// The problem in words, without the line number.
    public var message: String {
        switch reason {
        case .invalidUTF8(let offset):
            return "the file is not UTF-8 text (byte \(offset) is not part of a UTF-8 character); "
                + "upload the .txt file exactly as WhatsApp's \"Export chat\" wrote it"
        case .empty:
            return "the file is empty; expected the .txt file of WhatsApp's \"Export chat\""
        case .notAnExport(let excerpt):
            return "this does not look like a WhatsApp export: each message should start with a date and time, "
                + "such as \"21/11/2026, 14:05 - Name: text\" (Android) or \"[21/11/2026, 14:05:33] Name: text\" (iOS), "
                + "but this line is \"\(excerpt)\""
        case .impossibleDate(let date):
            return "the date \"\(date)\" is not a calendar date, read as day/month/year or as month/day/year"
        case .inconsistentDateOrder(let date, let otherLine, let otherDate):
            return "the date \"\(date)\" needs the opposite day/month order to \"\(otherDate)\" on line \(otherLine); "
                + "a WhatsApp export uses one date order throughout, so the file may be two exports joined together"
        }
    }

    public var description: String {
        guard let line else { return message }
        return "line \(line): \(message)"
    }
}
