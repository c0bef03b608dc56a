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

    /// Creates `path` with mode 0600 holding `contents`; fails when it exists already. The file
    /// appears whole or not at all: the contents are written and synced under a temporary name
    /// beside it, then linked into place (a link, unlike a rename, fails if `path` exists). A
    /// process killed half-way leaves at most the temporary file, never an empty key that would
    /// stop every later start.
    public static func createFile(_ path: String, contents: Data) throws(Failure) {
        func failure(_ what: String) -> Failure { Failure(description: "cannot \(what) \(path): \(String(cString: strerror(errno)))") }
        let temporary = path + ".partial-\(getpid())"
        unlink(temporary)  // left by an earlier process with this id that was killed
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("create") }
        defer { unlink(temporary) }
        let written = contents.withUnsafeBytes { bytes in bytes.isEmpty ? 0 : write(descriptor, bytes.baseAddress, bytes.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == contents.count, synced else { throw failure("write") }
        guard link(temporary, path) == 0 else { throw failure("create") }
        // The directory entry is durable too, so a power cut cannot lose a key already in use.
        let directory = open(URL(fileURLWithPath: path).deletingLastPathComponent().path, O_RDONLY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
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
