import Foundation
import ZIPFoundation

/// The `.zip` WhatsApp's "Export chat" makes when media is included: the chat's text file
/// (`_chat.txt` on iOS, `WhatsApp Chat with NAME.txt` on Android, `محادثة واتساب مع NAME.txt` in
/// Arabic) beside the photos, voice notes and documents. Only the text is read; the media is not
/// decompressed.
public enum WhatsAppExportArchive {
    /// The largest chat text read by default: a chat of several hundred thousand messages fits
    /// well under it; anything bigger is more likely a decompression bomb than a conversation.
    public static let defaultMaximumChatTextSize = 200_000_000

    /// True when the bytes start like a zip archive, so an upload can be either the `.txt` or the
    /// `.zip`: a local file header (`PK\3\4`), or the end record of an empty archive (`PK\5\6`),
    /// which then gets the clearer "holds no chat" answer instead of "not an export".
    public static func isZip(_ bytes: Data) -> Bool {
        bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) || bytes.starts(with: [0x50, 0x4B, 0x05, 0x06])
    }

    /// Finds the chat's text file in `zip` and returns its name and bytes.
    ///
    /// - Parameter maximumSize: the most bytes the chat text may have once decompressed. The size
    ///   the archive declares is checked first, and the bytes are counted while decompressing,
    ///   because a crafted archive can declare a small size and inflate to gigabytes.
    public static func chatText(
        in zip: Data, maximumSize: Int = defaultMaximumChatTextSize
    ) throws(WhatsAppExportArchiveError) -> (name: String, data: Data) {
        let layout: ZipLayout
        do {
            layout = try ZipLayout(zip)
        } catch .zip64 {
            throw .zip64
        } catch {
            throw .notACompleteZip
        }
        let entries: [Entry]
        do {
            entries = Array(try Archive(data: zip, accessMode: .read))
        } catch {
            throw .notACompleteZip
        }
        // ZIPFoundation stops listing at the first entry it cannot read; the layout has them all.
        guard entries.count == layout.items.count else { throw .notACompleteZip }
        let files = entries.indices.filter { entries[$0].type == .file && !isMacOSMetadata(entries[$0].path) }
        let chosen = try chatEntry(among: files.map { (index: $0, path: entries[$0].path) })
        return (chosen.path, try extract(layout.items[chosen.index], named: chosen.path, from: zip, limit: maximumSize))
    }

    // MARK: reading the chat's bytes

    private struct SizeLimitReached: Error {}
    private struct StreamRanOut: Error {}

    /// The entry's bytes, at most `limit` of them, checked against its CRC-32 and size.
    ///
    /// The size the archive declares is checked first, then the bytes are counted while
    /// inflating: a crafted archive can declare a few bytes and inflate to gigabytes. The
    /// compressed bytes are served from their slice only, so a stream that does not end inside
    /// it is an error rather than ZIPFoundation's endless wait for more input.
    private static func extract(
        _ item: ZipLayout.Item, named name: String, from zip: Data, limit: Int
    ) throws(WhatsAppExportArchiveError) -> Data {
        guard item.uncompressedSize <= limit else { throw .chatTextTooLarge(name: name, limit: limit) }
        let start = zip.startIndex + item.dataStart
        let compressed = zip[start..<(start + item.compressedSize)]
        var text = Data()
        let checksum: CRC32
        switch item.method {
        case 0: // stored
            guard compressed.count <= limit else { throw .chatTextTooLarge(name: name, limit: limit) }
            text = Data(compressed)
            checksum = text.crc32(checksum: 0)
        case 8: // deflate
            text.reserveCapacity(min(item.uncompressedSize, 16 << 20))
            let chunkSize = 64 << 10
            do {
                checksum = try Data.decompress(
                    size: Int64(item.compressedSize), bufferSize: chunkSize, skipCRC32: false,
                    provider: { position, size in
                        // ZIPFoundation hands zlib `size` bytes of input whatever the chunk's
                        // length, so every chunk is full length: the slice, then zeros.
                        let from = Int(position)
                        guard from < compressed.count else {
                            #if canImport(Compression)
                            // Apple's decoder finishes on a short chunk instead of asking again.
                            return Data()
                            #else
                            throw StreamRanOut()
                            #endif
                        }
                        var chunk = Data(compressed.dropFirst(from).prefix(size))
                        if chunk.count < size { chunk.append(Data(count: size - chunk.count)) }
                        return chunk
                    },
                    consumer: { chunk in
                        guard text.count + chunk.count <= limit else { throw SizeLimitReached() }
                        text.append(chunk)
                    })
            } catch is SizeLimitReached {
                throw .chatTextTooLarge(name: name, limit: limit)
            } catch {
                throw .damagedEntry(name: name)
            }
        default:
            throw .unsupportedCompression(name: name, method: Int(item.method))
        }
        guard checksum == item.crc32, text.count == item.uncompressedSize else { throw .damagedEntry(name: name) }
        return text
    }

    // MARK: finding the chat

    /// `_chat.txt` first, then a text file named like Android's export, then the only text file.
    /// Within each rule a single match wins; of several, a single one at the top level; otherwise
    /// the archive is refused rather than guessed at (two exports zipped together, say).
    private static func chatEntry(
        among files: [(index: Int, path: String)]
    ) throws(WhatsAppExportArchiveError) -> (index: Int, path: String) {
        let texts = files.filter { $0.path.lowercased().hasSuffix(".txt") }
        let namedRules: [(String) -> Bool] = [
            { $0 == "_chat.txt" },
            { name in androidPrefixes.contains(where: { name.lowercased().hasPrefix($0) }) },
        ]
        for rule in namedRules {
            let matches = texts.filter { rule(lastComponent($0.path)) }
            guard !matches.isEmpty else { continue }
            if let chosen = single(matches) { return chosen }
            throw .ambiguousChatText(candidates: matches.map(\.path))
        }
        if let chosen = single(texts) { return chosen }
        guard texts.isEmpty else { throw .ambiguousChatText(candidates: texts.map(\.path)) }
        throw .noChatText(found: files.prefix(20).map(\.path))
    }

    private static func single(_ entries: [(index: Int, path: String)]) -> (index: Int, path: String)? {
        if entries.count == 1 { return entries.first }
        let topLevel = entries.filter { !$0.path.contains("/") }
        return topLevel.count == 1 ? topLevel.first : nil
    }

    /// Android names the file "WhatsApp Chat with NAME.txt" (newer versions "WhatsApp Chat - NAME.txt");
    /// in Arabic, "محادثة واتساب مع NAME.txt".
    private static let androidPrefixes = ["whatsapp chat", "محادثة واتساب"]

    private static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// The `__MACOSX/` folder and `._name` files that macOS's "Compress" adds: resource forks, not files.
    private static func isMacOSMetadata(_ path: String) -> Bool {
        path.hasPrefix("__MACOSX/") || lastComponent(path).hasPrefix("._")
    }
}

extension WhatsAppExportParser {
    /// Parses the chat text inside a WhatsApp "Export chat" `.zip`.
    public func parse(
        zip: Data, maximumChatTextSize: Int = WhatsAppExportArchive.defaultMaximumChatTextSize
    ) throws(WhatsAppExportArchiveError) -> WhatsAppExport {
        let chat = try WhatsAppExportArchive.chatText(in: zip, maximumSize: maximumChatTextSize)
        do {
            return try parse(chat.data)
        } catch {
            throw .export(name: chat.name, error)
        }
    }
}
