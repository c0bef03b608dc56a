import Foundation

/// Files only the server's user may read: the data directory (0700) and the keys and database
/// in it (0600). The mode is given when each is created, so there is no moment a looser mode
/// shows; an existing directory or file keeps the mode its owner gave it.
public enum PrivateFiles {
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Creates `path` (and any missing parent) with mode 0700 unless it exists.
    public static func createDirectory(_ path: String) throws(Failure) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw Failure(description: "\(path) is not a directory") }
            return
        }
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if parent != path, !parent.isEmpty, !FileManager.default.fileExists(atPath: parent) { try createDirectory(parent) }
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else { throw Failure(description: "cannot create \(path): \(String(cString: strerror(errno)))") }
    }

    /// Creates `path` with mode 0600 holding `contents`; fails when it exists already.
    public static func createFile(_ path: String, contents: Data) throws(Failure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure(description: "cannot create \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        let written = contents.withUnsafeBytes { bytes in bytes.isEmpty ? 0 : write(descriptor, bytes.baseAddress, bytes.count) }
        guard written == contents.count else { throw Failure(description: "cannot write \(path): \(String(cString: strerror(errno)))") }
    }

    /// Creates `path` empty with mode 0600 unless it exists: SQLite then opens it as a new
    /// database and makes its journal files with the same mode.
    public static func createEmptyFileIfMissing(_ path: String) throws(Failure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
        } else if errno != EEXIST {
            throw Failure(description: "cannot create \(path): \(String(cString: strerror(errno)))")
        }
    }
}
