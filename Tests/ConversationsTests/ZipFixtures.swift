import Foundation
import ZIPFoundation

/// Zip archives built in memory for the export-archive tests.
enum ZipFixtures {
    /// An archive of `files` (name, bytes) in order, made by ZIPFoundation.
    static func archive(_ files: [(String, Data)], compression: CompressionMethod = .deflate) throws -> Data {
        let archive = try Archive(accessMode: .create)
        for (name, bytes) in files {
            try archive.addEntry(
                with: name, type: name.hasSuffix("/") ? .directory : .file, uncompressedSize: Int64(bytes.count),
                modificationDate: Date(timeIntervalSince1970: 1_795_266_000), compressionMethod: compression,
                provider: { position, size in bytes.subdata(in: Int(position)..<Int(position) + size) })
        }
        guard let data = archive.data else { throw NoData() }
        return data
    }

    /// Bytes standing in for a photo or a voice note.
    static func media(_ count: Int, seed: UInt8 = 7) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) })
    }

    /// A one-entry archive written byte by byte, for shapes no zip tool makes: the entry's data
    /// is taken as is (already compressed or not), sizes and offsets can be overridden.
    static func raw(
        name: String = "_chat.txt", method: UInt16 = 0, data: Data, crc32: UInt32 = 0, uncompressedSize: Int? = nil,
        centralExtra: Data = Data(), localHeaderOffset: UInt32 = 0, zip64Locator: Bool = false
    ) -> Data {
        let nameBytes = Data(name.utf8)
        let size = UInt32(uncompressedSize ?? data.count)
        var local = Data()
        local.le(UInt32(0x0403_4B50)); local.le(UInt16(20)); local.le(UInt16(0x0800)); local.le(method)
        local.le(UInt16(0)); local.le(UInt16(0)); local.le(crc32); local.le(UInt32(data.count)); local.le(size)
        local.le(UInt16(nameBytes.count)); local.le(UInt16(0))
        local.append(nameBytes)
        local.append(data)

        var central = Data()
        central.le(UInt32(0x0201_4B50)); central.le(UInt16(0x0314)); central.le(UInt16(20)); central.le(UInt16(0x0800))
        central.le(method); central.le(UInt16(0)); central.le(UInt16(0)); central.le(crc32)
        central.le(UInt32(data.count)); central.le(size)
        central.le(UInt16(nameBytes.count)); central.le(UInt16(centralExtra.count)); central.le(UInt16(0))
        central.le(UInt16(0)); central.le(UInt16(0)); central.le(UInt32(0o100644) << 16); central.le(localHeaderOffset)
        central.append(nameBytes)
        central.append(centralExtra)

        var end = Data()
        if zip64Locator {
            end.le(UInt32(0x0706_4B50)); end.le(UInt32(0)); end.le(UInt64(0)); end.le(UInt32(1))
        }
        end.le(UInt32(0x0605_4B50)); end.le(UInt16(0)); end.le(UInt16(0)); end.le(UInt16(1)); end.le(UInt16(1))
        end.le(UInt32(central.count)); end.le(UInt32(local.count)); end.le(UInt16(0))
        return local + central + end
    }

    struct NoData: Error {}
}

extension Data {
    /// Appends `value` little-endian.
    mutating func le<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }

    /// The offset of the first occurrence of `bytes` at or after `from`.
    func offset(of bytes: [UInt8], from: Int = 0) -> Int? {
        guard let range = self[(startIndex + from)...].firstRange(of: bytes) else { return nil }
        return range.lowerBound - startIndex
    }
}
