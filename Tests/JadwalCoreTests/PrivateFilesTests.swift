import Foundation
import JadwalCore
import Testing

@Suite("Private files: made with their mode, whole or not at all")
struct PrivateFilesTests {
    @Test("a key file is created 0600 with its contents, never over an existing one, with nothing left beside it")
    func createFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("private-\(UUID().uuidString)").path
        try PrivateFiles.createDirectory(folder + "/data")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/data/secret.key"
        try PrivateFiles.createFile(path, contents: Data(repeating: 7, count: 32))
        #expect(FileManager.default.contents(atPath: path) == Data(repeating: 7, count: 32))
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect((try FileManager.default.attributesOfItem(atPath: folder + "/data")[.posixPermissions] as? Int) == 0o700)

        #expect(throws: PrivateFiles.Failure.self) { try PrivateFiles.createFile(path, contents: Data(repeating: 9, count: 32)) }
        #expect(FileManager.default.contents(atPath: path) == Data(repeating: 7, count: 32), "an existing key is never replaced")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/data") == ["secret.key"], "no temporary file is left behind")
    }
}
