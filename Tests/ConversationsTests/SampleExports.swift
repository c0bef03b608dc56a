import Foundation
@testable import Conversations

/// The sample exports of shared/testdata/chats/exports, copied into Fixtures/exports with
/// their expected parses and FORMATS.md.
enum SampleExports {
    static let directory = "Fixtures/exports"

    /// The `.txt` samples by name (without extension), sorted.
    static var names: [String] {
        guard let folder = Bundle.module.url(forResource: "exports", withExtension: nil, subdirectory: "Fixtures"),
              let files = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else { return [] }
        return files.filter { $0.hasSuffix(".txt") }.map { String($0.dropLast(".txt".count)) }.sorted()
    }

    static func data(_ name: String) throws -> Data {
        guard let url = Bundle.module.url(forResource: name, withExtension: "txt", subdirectory: directory) else {
            throw FixtureMissing(name: name + ".txt")
        }
        return try Data(contentsOf: url)
    }

    static func expected(_ name: String) throws -> ExpectedFile {
        guard let url = Bundle.module.url(forResource: name + ".expected", withExtension: "json", subdirectory: directory)
        else { throw FixtureMissing(name: name + ".expected.json") }
        return try JSONDecoder().decode(ExpectedFile.self, from: Data(contentsOf: url))
    }

    struct FixtureMissing: Error { let name: String }
}

/// The shape of an `*.expected.json` (FORMATS.md §5).
struct ExpectedFile: Decodable {
    let file: String
    let me: String?
    let messages: [ExpectedMessage]
}

struct ExpectedMessage: Decodable, Equatable, CustomStringConvertible {
    let time: String
    let sender: String?
    let kind: String
    let text: String
    let edited: Bool
    let media: String?

    init(time: String, sender: String?, kind: String, text: String, edited: Bool, media: String?) {
        self.time = time
        self.sender = sender
        self.kind = kind
        self.text = text
        self.edited = edited
        self.media = media
    }

    /// A parsed message in the expected file's shape.
    init(_ message: ChatMessage) {
        self.init(
            time: message.localTime.description, sender: message.sender, kind: message.kind.rawValue,
            text: message.text, edited: message.edited, media: message.media?.rawValue)
    }

    var description: String {
        "\(time) \(sender ?? "<system>") [\(kind)\(media.map { "/" + $0 } ?? "")\(edited ? ", edited" : "")] \(text.debugDescription)"
    }
}
