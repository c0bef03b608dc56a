import Foundation
import ZIPFoundation

/// The `export.zip` the Health app writes ("Export All Health Data"): `apple_health_export/`
/// with `export.xml` (everything, often hundreds of megabytes and sometimes over 4 GB once
/// inflated), `export_cda.xml`, workout routes and ECGs. Only `export.xml` is read, inflated a
/// chunk at a time straight into the caller, from the file on disk.
///
/// The central directory is read here rather than by ZIPFoundation's `Archive`, for two reasons:
/// ZIPFoundation's reader trusts the archive's offsets, and its Linux inflater never returns
/// when a deflate stream runs past its end (a cut-short upload would hang the server). So the
/// offsets are checked against the file's size here, ZIP64 included, and the compressed bytes
/// are handed to the inflater from their own range only, ending it with an error if they run out.
public enum HealthExportArchive {
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case unreadable(String)
        case notAZip
        case noExport(found: [String])
        case damaged(name: String)
        case unsupportedCompression(name: String, method: Int)

        public var description: String {
            switch self {
            case .unreadable(let reason): "cannot be read: \(reason)"
            case .notAZip: "is not a complete zip archive (the export.zip of Apple Health, or its export.xml)"
            case .noExport(let found):
                "holds no apple_health_export/export.xml" + (found.isEmpty ? "" : " (it has \(found.prefix(5).joined(separator: ", "))\(found.count > 5 ? ", …" : ""))")
            case .damaged(let name): "\(name) is damaged in the archive (its checksum or length does not match): export it again"
            case .unsupportedCompression(let name, let method): "\(name) is compressed with method \(method), which is not read (only stored and deflate)"
            }
        }
    }

    /// Where the export lies in the archive.
    public struct Entry: Sendable, Equatable {
        public let path: String
        public let method: UInt16
        public let crc32: UInt32
        public let compressedSize: Int64
        public let uncompressedSize: Int64
        public let dataStart: Int64
    }

    /// True when the file starts like a zip (a local file header, or an empty archive's end record).
    public static func isZip(_ prefix: Data) -> Bool {
        prefix.starts(with: [0x50, 0x4B, 0x03, 0x04]) || prefix.starts(with: [0x50, 0x4B, 0x05, 0x06])
    }

    /// Finds `export.xml` in the archive at `url`.
    public static func exportEntry(in url: URL) throws(Problem) -> Entry {
        let handle: FileHandle
        do { handle = try FileHandle(forReadingFrom: url) } catch { throw .unreadable((error as NSError).localizedDescription) }
        defer { try? handle.close() }
        let size: Int64
        do { size = Int64(try handle.seekToEnd()) } catch { throw .unreadable("\(error)") }
        func read(_ offset: Int64, _ count: Int) throws(Problem) -> Data {
            guard offset >= 0, count >= 0, offset + Int64(count) <= size else { throw .notAZip }
            do {
                try handle.seek(toOffset: UInt64(offset))
                let data = try handle.read(upToCount: count) ?? Data()
                guard data.count == count else { throw Problem.notAZip }
                return data
            } catch let problem as Problem {
                throw problem
            } catch {
                throw .unreadable("\(error)")
            }
        }

        // The end record, in the last 64 KiB (its comment's longest) and 22 bytes.
        guard size >= 22 else { throw .notAZip }
        let tailLength = Int(min(size, 22 + 0xFFFF))
        let tail = try read(size - Int64(tailLength), tailLength)
        var endAt: Int?
        var p = tailLength - 22
        while p >= 0 {
            if tail.u32(p) == 0x0605_4B50 { endAt = p; break }
            p -= 1
        }
        guard let end = endAt else { throw .notAZip }
        var entryCount = Int64(tail.u16(end + 10))
        var directorySize = Int64(tail.u32(end + 12))
        var directoryOffset = Int64(tail.u32(end + 16))
        // ZIP64: the locator just before the end record points at the ZIP64 end record.
        let endOffset = size - Int64(tailLength) + Int64(end)
        if endOffset >= 20 {
            let locator = try read(endOffset - 20, 20)
            if locator.u32(0) == 0x0706_4B50 {
                let record = try read(Int64(locator.u64(8)), 56)
                guard record.u32(0) == 0x0606_4B50 else { throw .notAZip }
                entryCount = Int64(record.u64(32))
                directorySize = Int64(record.u64(40))
                directoryOffset = Int64(record.u64(48))
            }
        }
        // A directory of an export holds a few thousand names (routes, ECGs); 64 MiB is plenty.
        guard directorySize >= 0, directorySize <= 64 << 20, entryCount >= 0 else { throw .notAZip }
        let directory = try read(directoryOffset, Int(directorySize))

        var found: [String] = []
        var chosen: (path: String, method: UInt16, crc: UInt32, compressed: Int64, uncompressed: Int64, local: Int64)?
        var header = 0
        for _ in 0..<entryCount {
            guard header + 46 <= directory.count, directory.u32(header) == 0x0201_4B50 else { throw .notAZip }
            let nameLength = Int(directory.u16(header + 28)), extraLength = Int(directory.u16(header + 30))
            let commentLength = Int(directory.u16(header + 32))
            guard header + 46 + nameLength + extraLength + commentLength <= directory.count else { throw .notAZip }
            let path = String(decoding: directory[directory.startIndex + header + 46 ..< directory.startIndex + header + 46 + nameLength], as: UTF8.self)
            var compressed = Int64(directory.u32(header + 20)), uncompressed = Int64(directory.u32(header + 24))
            var local = Int64(directory.u32(header + 42))
            // The ZIP64 extra field holds, in order, whichever of these were 0xFFFFFFFF.
            var extra = header + 46 + nameLength
            let extraEnd = extra + extraLength
            while extra + 4 <= extraEnd {
                let id = directory.u16(extra), length = Int(directory.u16(extra + 2))
                guard extra + 4 + length <= extraEnd else { break }
                if id == 0x0001 {
                    var field = extra + 4
                    func next() -> Int64? {
                        guard field + 8 <= extra + 4 + length else { return nil }
                        defer { field += 8 }
                        return Int64(directory.u64(field))
                    }
                    if uncompressed == 0xFFFF_FFFF { uncompressed = next() ?? uncompressed }
                    if compressed == 0xFFFF_FFFF { compressed = next() ?? compressed }
                    if local == 0xFFFF_FFFF { local = next() ?? local }
                }
                extra += 4 + length
            }
            if !path.hasSuffix("/"), !path.hasPrefix("__MACOSX/") { found.append(path) }
            let last = path.split(separator: "/").last.map(String.init) ?? path
            if last.lowercased() == "export.xml", !path.hasPrefix("__MACOSX/"), chosen == nil || path.split(separator: "/").count < (chosen?.path.split(separator: "/").count ?? 0) {
                chosen = (path, directory.u16(header + 10), directory.u32(header + 16), compressed, uncompressed, local)
            }
            header += 46 + nameLength + extraLength + commentLength
        }
        guard let chosen else { throw .noExport(found: found) }
        let localHeader = try read(chosen.local, 30)
        guard localHeader.u32(0) == 0x0403_4B50 else { throw .notAZip }
        let dataStart = chosen.local + 30 + Int64(localHeader.u16(26)) + Int64(localHeader.u16(28))
        guard chosen.compressed >= 0, chosen.uncompressed >= 0, dataStart + chosen.compressed <= size else { throw .notAZip }
        guard chosen.method == 0 || chosen.method == 8 else { throw .unsupportedCompression(name: chosen.path, method: Int(chosen.method)) }
        return Entry(path: chosen.path, method: chosen.method, crc32: chosen.crc, compressedSize: chosen.compressed,
                     uncompressedSize: chosen.uncompressed, dataStart: dataStart)
    }

    private struct RanOut: Error {}
    private struct Stopped: Error {}

    /// Hands the entry's bytes to `consumer`, a chunk at a time (`chunkSize` at most), and checks
    /// the checksum and length at the end. `consumer` may throw to stop.
    public static func read(_ entry: Entry, in url: URL, chunkSize: Int = 256 << 10,
                            consumer: (UnsafeRawBufferPointer) throws -> Void) throws -> Void {
        let handle: FileHandle
        do { handle = try FileHandle(forReadingFrom: url) } catch { throw Problem.unreadable((error as NSError).localizedDescription) }
        defer { try? handle.close() }
        do { try handle.seek(toOffset: UInt64(entry.dataStart)) } catch { throw Problem.damaged(name: entry.path) }
        var produced: Int64 = 0
        var checksum: CRC32 = 0
        func pass(_ data: Data) throws {
            produced += Int64(data.count)
            checksum = data.crc32(checksum: checksum)
            try data.withUnsafeBytes { try consumer($0) }
        }
        if entry.method == 0 {
            var left = entry.compressedSize
            while left > 0 {
                let data = (try? handle.read(upToCount: Int(min(Int64(chunkSize), left)))) ?? Data()
                guard !data.isEmpty else { throw Problem.damaged(name: entry.path) }
                left -= Int64(data.count)
                try pass(data)
            }
        } else {
            var consumerError: (any Error)?
            do {
                _ = try Data.decompress(
                    size: entry.compressedSize, bufferSize: chunkSize, skipCRC32: true,
                    provider: { position, size in
                        // ZIPFoundation's Linux inflater hands zlib `size` bytes whatever the
                        // chunk's length, so each chunk is full length: the bytes, then zeros.
                        let left = entry.compressedSize - position
                        guard left > 0 else { throw RanOut() }
                        var chunk = (try? handle.read(upToCount: Int(min(Int64(size), left)))) ?? Data()
                        guard !chunk.isEmpty else { throw RanOut() }
                        if chunk.count < size { chunk.append(Data(count: size - chunk.count)) }
                        return chunk
                    },
                    consumer: { data in
                        do { try pass(data) } catch {
                            consumerError = error
                            throw Stopped()
                        }
                    })
            } catch is Stopped {
                if let consumerError { throw consumerError }
            } catch {
                throw Problem.damaged(name: entry.path)
            }
        }
        guard produced == entry.uncompressedSize, checksum == entry.crc32 else { throw Problem.damaged(name: entry.path) }
    }
}

extension Data {
    fileprivate func u16(_ offset: Int) -> UInt16 {
        UInt16(self[startIndex + offset]) | UInt16(self[startIndex + offset + 1]) << 8
    }

    fileprivate func u32(_ offset: Int) -> UInt32 {
        UInt32(u16(offset)) | UInt32(u16(offset + 2)) << 16
    }

    fileprivate func u64(_ offset: Int) -> UInt64 {
        UInt64(u32(offset)) | UInt64(u32(offset + 4)) << 32
    }
}
