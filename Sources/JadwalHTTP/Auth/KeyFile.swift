import Crypto
import Foundation
import JadwalCore

/// A key kept in a file of the data directory: read when the file exists, else made from random
/// bytes and created with mode 0600, so only the server's user can read it. What a wrong file
/// means (restore it, or move it away) is for the caller to say.
package enum KeyFile {
    package enum Failure: Error {
        case unreadable(reason: String)
        case wrongLength
    }

    package static func loadOrCreate(at path: String, byteCount: Int, random: RandomSource) throws(Failure) -> SymmetricKey {
        let manager = FileManager.default
        if manager.fileExists(atPath: path) {
            guard let data = manager.contents(atPath: path) else { throw .unreadable(reason: "permission denied") }
            guard data.count == byteCount else { throw .wrongLength }
            return SymmetricKey(data: data)
        }
        let bytes = Data(random.bytes(byteCount))
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        do throws(PrivateFiles.Failure) {
            try PrivateFiles.createDirectory(directory)
            try PrivateFiles.createFile(path, contents: bytes)
        } catch {
            throw .unreadable(reason: error.description)
        }
        return SymmetricKey(data: bytes)
    }
}
