import Foundation

/// Where each entry of a zip archive lies, checked to be inside the bytes before ZIPFoundation
/// is let near an upload.
///
/// Why this exists: ZIPFoundation 0.9.20 trusts the archive's offsets. Reading an in-memory
/// archive whose central directory points past its end traps (`MemoryFile.readData` builds a
/// negative range), taking the whole server down; and its Linux inflater loops forever on a
/// deflate stream that runs off the end of the data. So this walks the end record and the
/// central directory the way ZIPFoundation will, proves every offset it is going to seek to is
/// in range, and records where the chat entry's compressed bytes are, so they can be inflated
/// from a bounded slice. It reads no file names or contents; ZIPFoundation still does that.
struct ZipLayout {
    struct Item {
        /// The compression method of the local header (ZIPFoundation extracts by that one).
        var method: UInt16
        /// The central directory's CRC-32 of the uncompressed bytes.
        var crc32: UInt32
        var compressedSize: Int
        var uncompressedSize: Int
        /// The offset of the first compressed byte in the archive.
        var dataStart: Int
    }

    enum Problem: Error {
        /// Not a zip, cut short, or with offsets pointing outside the bytes.
        case incomplete
        /// ZIP64 records (archives or entries of 4 GB and more), which are not read here.
        case zip64
    }

    /// In central directory order, which is ZIPFoundation's iteration order.
    let items: [Item]

    private static let endRecordSignature: UInt32 = 0x0605_4B50
    private static let zip64LocatorSignature: UInt32 = 0x0706_4B50
    private static let centralHeaderSignature: UInt32 = 0x0201_4B50
    private static let localHeaderSignature: UInt32 = 0x0403_4B50
    private static let zip64ExtraFieldID: UInt16 = 0x0001

    init(_ data: Data) throws(Problem) {
        let result: Result<[Item], Problem> = data.withUnsafeBytes { raw in
            Result { () throws(Problem) -> [Item] in try Self.items(in: raw) }
        }
        items = try result.get()
    }

    private static func items(in bytes: UnsafeRawBufferPointer) throws(Problem) -> [Item] {
        let count = bytes.count
        func u16(_ offset: Int) -> UInt16 { bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self).littleEndian }
        func u32(_ offset: Int) -> UInt32 { bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian }

        // The end record: the signature nearest the end, as ZIPFoundation scans, but only through
        // the last 64 KiB (the longest comment), so a non-zip is not scanned byte by byte.
        guard count >= 22 else { throw .incomplete }
        var endRecord: Int?
        var position = count - 22
        while position >= max(0, count - 22 - 0xFFFF) {
            if u32(position) == endRecordSignature {
                endRecord = position
                break
            }
            position -= 1
        }
        guard let end = endRecord else { throw .incomplete }
        guard end + 22 + Int(u16(end + 20)) <= count else { throw .incomplete }
        if end >= 20, u32(end - 20) == zip64LocatorSignature { throw .zip64 }

        let entryCount = Int(u16(end + 10))
        var header = Int(u32(end + 16))
        var items: [Item] = []
        items.reserveCapacity(entryCount)
        for _ in 0..<entryCount {
            guard header + 46 <= count, u32(header) == centralHeaderSignature else { throw .incomplete }
            let centralMethod = u16(header + 10)
            let crc32 = u32(header + 16)
            let compressedSize = Int(u32(header + 20))
            let uncompressedSize = Int(u32(header + 24))
            let nameLength = Int(u16(header + 28))
            let extraLength = Int(u16(header + 30))
            let commentLength = Int(u16(header + 32))
            let localHeader = Int(u32(header + 42))
            let next = header + 46 + nameLength + extraLength + commentLength
            guard next <= count else { throw .incomplete }
            if hasZIP64Field(from: header + 46 + nameLength, length: extraLength, u16) { throw .zip64 }

            guard localHeader + 30 <= count, u32(localHeader) == localHeaderSignature else { throw .incomplete }
            let dataStart = localHeader + 30 + Int(u16(localHeader + 26)) + Int(u16(localHeader + 28))
            // ZIPFoundation looks for a data descriptor right after the data, sized like this.
            let storedLength = centralMethod == 0 ? uncompressedSize : compressedSize
            guard dataStart + max(storedLength, compressedSize) <= count else { throw .incomplete }
            items.append(Item(
                method: u16(localHeader + 8), crc32: crc32, compressedSize: compressedSize,
                uncompressedSize: uncompressedSize, dataStart: dataStart))
            header = next
        }
        return items
    }

    /// True when an extra field holds a ZIP64 block; ZIPFoundation would then take offsets and
    /// sizes from it instead of the ones checked here.
    private static func hasZIP64Field(from start: Int, length: Int, _ u16: (Int) -> UInt16) -> Bool {
        var offset = 0
        while offset + 4 <= length {
            if u16(start + offset) == zip64ExtraFieldID { return true }
            let next = offset + 4 + Int(u16(start + offset + 2))
            guard next <= length else { return false }
            offset = next
        }
        return false
    }
}
