/// Why a `.zip` from WhatsApp's "Export chat" (with media) could not be read.
public enum WhatsAppExportArchiveError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The bytes are not a zip archive, or only the start of one (an interrupted upload).
    case notACompleteZip
    /// The archive uses ZIP64 records (for archives or files of 4 GB and more), which are not read.
    case zip64
    /// The archive's table of contents is there, but the chat file's data is damaged.
    case damagedEntry(name: String)
    /// The chat file is compressed with a method other than store or deflate (`method` is its number).
    case unsupportedCompression(name: String, method: Int)
    /// No text file that could be the chat; `found` lists the archive's files (up to 20 names).
    case noChatText(found: [String])
    /// Several text files and none named like WhatsApp's chat file.
    case ambiguousChatText(candidates: [String])
    /// The chat file is larger than the limit (or grew past it while being decompressed).
    case chatTextTooLarge(name: String, limit: Int)
    /// The chat file was found and extracted, but is not a readable export.
    case export(name: String, WhatsAppExportError)

    public var description: String {
        switch self {
        case .notACompleteZip:
            return "the file is not a complete zip archive; upload the .zip that WhatsApp's \"Export chat\" made, "
                + "or the .txt inside it"
        case .zip64:
            return "the zip archive uses ZIP64 (made for archives over 4 GB), which Jadwal does not read; "
                + "export the chat without media, or upload the .txt inside the zip"
        case .unsupportedCompression(let name, let method):
            return "\(name) is compressed with method \(method); Jadwal reads zip entries that are stored "
                + "or deflated, as WhatsApp makes them. Upload the .txt itself instead"
        case .damagedEntry(let name):
            return "the zip archive is damaged: \(name) cannot be decompressed intact; export the chat again"
        case .noChatText(let found):
            let listed = found.isEmpty ? "no files" : found.joined(separator: ", ")
            return "the zip holds no WhatsApp chat text file; found: \(listed)"
        case .ambiguousChatText(let candidates):
            return "the zip holds several text files and none is named like WhatsApp's chat file "
                + "(_chat.txt or \"WhatsApp Chat with ….txt\"): \(candidates.joined(separator: ", "))"
        case .chatTextTooLarge(let name, let limit):
            return "\(name) is larger than \(Self.megabytes(limit)), the most Jadwal reads from one export"
        case .export(let name, let error):
            return "\(name): \(error.description)"
        }
    }

    private static func megabytes(_ bytes: Int) -> String {
        bytes >= 1_000_000 && bytes % 1_000_000 == 0 ? "\(bytes / 1_000_000) MB" : "\(bytes) bytes"
    }
}
